"""averitec in the shared harness; the package also holds the tests of the scoring rules, the
parity cases made by the official scorers (``make_parity.py``) and the differential checks."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from .random_records import random_inputs
from .space_check import SPACE_CHECK
from harness import InvalidCase, MetricEntry, ParityCase


def parity_cases(folder: Path):
    """The entry's own cases: official files with the official numbers under both nltk
    releases (see ``make_parity.py``)."""
    for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        meta = json.loads(line)
        case = folder / meta["case"]
        csv_files = (case / "solution.csv").is_file()
        yield ParityCase(
            id=f"{meta['case']}-nltk{meta['options']['nltk']}",
            predictions=case / ("submission.csv" if csv_files else "predictions.json"),
            references=case / ("solution.csv" if csv_files else "dev.json"),
            options=meta["options"],
            expected=meta["expected"],
        )


def _gold(id_: object = "a", question: object = "Who won?", answers: object = None) -> dict:
    if answers is None:
        answers = [{"answer": "Ann won.", "answer_type": "Extractive", "boolean_explanation": None}]
    return {
        "id": id_,
        "label": "Supported",
        "claim_types": ["Event/Property Claim"],
        "questions": [{"question": question, "answers": answers}],
        "justification": "Ann won it.",
    }


def _guess(id_: object = "a", label: object = "Supported", evidence: object = None) -> dict:
    if evidence is None:
        evidence = [{"question": "Who won it?", "answer": "Ann."}]
    return {"id": id_, "label": label, "evidence": evidence, "string_evidence": None}


def _two(pred: dict | None = None, ref: dict | None = None) -> dict:
    return {
        "predictions": [_guess("b"), pred if pred is not None else _guess()],
        "references": [_gold("b"), ref if ref is not None else _gold()],
    }


_P, _R = "predictions[1] (id 'a')", "references[1] (id 'a')"
INVALID = [
    InvalidCase("empty", {"predictions": [], "references": []}, ("references is empty",)),
    InvalidCase(
        "length-mismatch",
        {"predictions": [_guess()], "references": [_gold(), _gold("b")]},
        ("same length", "1 predictions", "2 references"),
    ),
    InvalidCase(
        "ids-out-of-step",
        _two(_guess("c")),
        ("predictions[1] (id 'c')", "field 'id'", "references[1] (id 'a')", "by position"),
    ),
    InvalidCase("float-id", _two(_guess(1.5)), ("predictions[1]", "'id'", "string or an int")),
    InvalidCase("label-not-a-string", _two(_guess(label=3)), (_P, "field 'label'", "string")),
    InvalidCase("missing-label", _two({"id": "a", "evidence": []}), (_P, "field 'label'")),
    InvalidCase(
        "evidence-not-a-list",
        _two(_guess(evidence={"question": "q", "answer": "a"})),
        (_P, "field 'evidence'", "list"),
    ),
    InvalidCase(
        "answer-not-a-string",
        _two(_guess(evidence=[{"question": "q", "answer": None}])),
        (_P, "field 'evidence[0].answer'", "string"),
    ),
    InvalidCase(
        "gold-question-not-a-string",
        _two(ref=_gold(question=7)),
        (_R, "field 'questions[0].question'", "string"),
    ),
    InvalidCase(
        "gold-answers-not-a-list",
        _two(ref=_gold(answers="Ann won.")),
        (_R, "field 'questions[0].answers'", "list"),
    ),
    InvalidCase(
        "boolean-without-explanation",
        _two(ref=_gold(answers=[{"answer": "Yes", "answer_type": "Boolean"}])),
        (_R, "boolean_explanation", "Boolean", "crashes"),
    ),
    InvalidCase(
        "no-gold-question",
        _two(ref={**_gold(), "questions": []}),
        (_R, "field 'questions'", "empty", "crashes"),
    ),
    InvalidCase(
        "2025-no-evidence",
        _two({**_guess(), "evidence": None}),
        (_P, "field 'evidence'", "missing", "2025", "crashes"),
        options={"edition": "2025"},
    ),
    InvalidCase(
        "2025-string-evidence",
        _two({**_guess(), "string_evidence": ["x"]}),
        (_P, "field 'string_evidence'", "2025"),
        options={"edition": "2025"},
    ),
    InvalidCase(
        "2025-separator-in-an-answer",
        _two(_guess(evidence=[{"question": "q", "answer": "a\t\t\nb"}])),
        (_P, "tab, tab, newline", "crashes"),
        options={"edition": "2025"},
    ),
    InvalidCase(
        "unknown-edition", _two(), ("edition", "2024", "2025", "2023"), options={"edition": "2026"}
    ),
    InvalidCase(
        "2023-no-gold-justification",
        _two(ref={**_gold(), "justification": None}),
        (_R, "field 'justification'", "2023"),
        options={"edition": "2023"},
    ),
    InvalidCase("unknown-nltk", _two(), ("nltk", "3.9.1", "3.10.4"), options={"nltk": "3.8.1"}),
]


def awkward(inputs: dict, rng: random.Random) -> dict:
    """Tuples for lists, ints for digit ids (the same claims), absent optional fields left out."""
    inputs = copy.deepcopy(inputs)
    for row in inputs["predictions"]:
        if isinstance(row["id"], str) and row["id"].isdigit():
            row["id"] = int(row["id"])
        if row.get("string_evidence") is None:
            row.pop("string_evidence", None)
        if row.get("evidence") is not None:
            row["evidence"] = tuple(row["evidence"])
    for row in inputs["references"]:
        for question in row["questions"]:
            answers = question["answers"]
            for answer in [answers] if isinstance(answers, dict) else answers:
                if answer["boolean_explanation"] is None:
                    del answer["boolean_explanation"]
            if not isinstance(answers, dict):
                question["answers"] = tuple(answers)
    return {
        "predictions": tuple(inputs["predictions"]),
        "references": tuple(inputs["references"]),
    }


ENTRY = MetricEntry(
    name="averitec",
    parity_cases=parity_cases,
    random_inputs=random_inputs,
    invalid_cases=INVALID,
    options=[{}, {"edition": "2025"}, {"nltk": "3.10.4"}],
    awkward=awkward,
    space_check=SPACE_CHECK,
    parity_root=Path(__file__).resolve().parent / "parity",
)
