"""tydiqa_goldp in the shared harness."""

from __future__ import annotations

import copy
import random
from pathlib import Path

from harness import InvalidCase, MetricEntry, ParityCase, SpaceCheck, read_json

# The shared corpus has no TyDiQA-GoldP folder: its cases, made with the real code, are kept here.
CASES = Path(__file__).resolve().parents[2] / "data" / "tydiqa_goldp"
LANGUAGES = ["english", "arabic", "bengali", "finnish", "indonesian", "swahili", "korean"]
LANGUAGES += ["russian", "telugu"]
WORDS = ["the", "A", "Beatles", "«Москва»", "Москва", "الكتاب", "كتاب", "ঢাকা।", "dan", "1990",
         "Helsinki.", "서울", "an", "“x”", "—", "", " "]  # fmt: skip


def parity_cases(folder: Path):
    for case in sorted(p for p in folder.iterdir() if p.is_dir()):
        gold = case / "gold.json" if (case / "gold.json").exists() else case / "gold"
        expected = read_json(case / "expected.json") if (case / "expected.json").exists() else None
        yield ParityCase(
            id=case.name, predictions=case / "predictions.json", references=gold, expected=expected
        )


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 4)))


def random_rows(rng: random.Random, n: int) -> dict[str, list]:
    """``n`` reference rows (some placeholders, some repeated ids) and ``n`` prediction rows
    (some missing, some for no question), shuffled: rows pair by id."""
    references, predictions = [], []
    for i in range(n):
        if rng.random() < 0.1:
            references.append({"id": None})
            continue
        example_id = f"{rng.choice(LANGUAGES)}-{rng.randint(0, 10**6)}-{i}"
        if references and rng.random() < 0.05 and references[-1]["id"] is not None:
            example_id = references[-1]["id"]
        golds = [_text(rng) or "x" for _ in range(rng.choice([1, 1, 2, 3]))]
        answers: dict = {"text": golds}
        if rng.random() < 0.8:
            answers["answer_start"] = [rng.randint(0, 50) for _ in golds]
        references.append({"id": example_id, "answers": answers})
    seen = set()
    for ref in references:
        if ref["id"] is None or ref["id"] in seen or rng.random() < 0.1:
            if rng.random() < 0.5:
                predictions.append({"id": None})
            else:
                other = f"{rng.choice(LANGUAGES)}-extra-{len(predictions)}"
                predictions.append({"id": other, "prediction_text": _text(rng)})
            continue
        seen.add(ref["id"])
        gold = rng.choice(ref["answers"]["text"])
        text = gold if rng.random() < 0.4 else _text(rng)
        predictions.append({"id": ref["id"], "prediction_text": text})
    rng.shuffle(predictions)
    return {"predictions": predictions, "references": references}


def _ref(**changes) -> dict:
    row = {"id": "arabic-8-0", "answers": {"text": ["كتاب", "الكتاب"], "answer_start": [3, 1]}}
    row.update(changes)
    return row


def _pred(**changes) -> dict:
    row = {"id": "arabic-8-0", "prediction_text": "الكتاب"}
    row.update(changes)
    return row


def _one(pred=None, ref=None) -> dict:
    good_pred = {"id": "english-7-0", "prediction_text": "the Beatles"}
    good_ref = {"id": "english-7-0", "answers": {"text": ["Beatles"], "answer_start": [0]}}
    return {
        "predictions": [good_pred, pred if pred is not None else _pred()],
        "references": [good_ref, ref if ref is not None else _ref()],
    }


_P = "predictions[1] (id 'arabic-8-0')"
_R = "references[1] (id 'arabic-8-0')"
INVALID = [
    InvalidCase(
        "length-mismatch",
        {"predictions": _one()["predictions"], "references": _one()["references"][:1]},
        ("same length", "2 predictions", "1 references"),
    ),
    InvalidCase(
        "unknown-language-prediction",
        _one(_pred(id="thai-8-0")),
        ("predictions[1] (id 'thai-8-0')", "'id'", "language"),
    ),
    InvalidCase(
        "id-without-hyphen", _one(_pred(id="arabic")), ("predictions[1] (id 'arabic')", "'id'")
    ),
    InvalidCase(
        "capitalised-language",
        _one(ref=_ref(id="Arabic-8-0")),
        ("references[1] (id 'Arabic-8-0')", "language"),
    ),
    InvalidCase("int-id", _one(_pred(id=8)), ("predictions[1]", "'id'", "string")),
    InvalidCase("missing-id", _one({"prediction_text": "x"}), ("predictions[1]", "'id'")),
    InvalidCase(
        "missing-prediction-text",
        _one({"id": "arabic-8-0"}),
        (_P, "'prediction_text'"),
    ),
    InvalidCase(
        "null-prediction-text", _one(_pred(prediction_text=None)), (_P, "'prediction_text'")
    ),
    InvalidCase(
        "int-prediction-text", _one(_pred(prediction_text=1990)), (_P, "'prediction_text'", "1990")
    ),
    InvalidCase("missing-answers", _one(ref={"id": "arabic-8-0"}), (_R, "'answers'")),
    InvalidCase(
        "no-gold-answer",
        _one(ref=_ref(answers={"text": [], "answer_start": []})),
        (_R, "'answers'", "at least one"),
    ),
    InvalidCase(
        "answer-text-a-string",
        _one(ref=_ref(answers={"text": "كتاب", "answer_start": [0]})),
        (_R, "'answers'", "list"),
    ),
    InvalidCase(
        "answer-text-an-int",
        _one(ref=_ref(answers={"text": [1990], "answer_start": [0]})),
        (_R, "gold answer text 0", "string"),
    ),
    InvalidCase(
        "answer-record-without-text",
        _one(ref=_ref(answers=[{"answer_start": 0}])),
        (_R, "'answers'[0]", "'text'"),
    ),
    InvalidCase(
        "starts-and-texts-differ",
        _one(ref=_ref(answers={"text": ["a", "b"], "answer_start": [0]})),
        (_R, "2 texts", "1 'answer_start'"),
    ),
    InvalidCase(
        "float-answer-start",
        _one(ref=_ref(answers={"text": ["a"], "answer_start": [1.5]})),
        (_R, "'answer_start' 0", "int"),
    ),
    InvalidCase(
        "answer-start-beyond-int64",
        _one(ref=_ref(answers={"text": ["a"], "answer_start": [2**63]})),
        (_R, "'answer_start' 0", "signed 64-bit"),
    ),
    InvalidCase("prediction-not-a-dict", _one(["arabic-8-0", "x"]), ("predictions[1]", "dict")),
    InvalidCase(
        "placeholder-with-values",
        _one({"id": None, "prediction_text": "x"}),
        ("predictions[1]", "placeholder", "'prediction_text'"),
    ),
    InvalidCase(
        "unknown-convention", _one(), ("convention", "'squad'"), options={"convention": "squad"}
    ),
    InvalidCase("details-not-a-bool", _one(), ("details", "'yes'"), options={"details": "yes"}),
]


def awkward(inputs: dict, rng: random.Random) -> dict:
    """Gold answers as the SQuAD file's list of records, references in reverse order (pairing is
    by id), the row lists as tuples."""
    inputs = copy.deepcopy(inputs)
    for row in inputs["references"]:
        answers = row.get("answers")
        if answers is not None and rng.random() < 0.5:
            starts = answers.get("answer_start") or [None] * len(answers["text"])
            row["answers"] = [
                {"text": t, "answer_start": s} for t, s in zip(answers["text"], starts)
            ]
    inputs["references"].reverse()
    return {k: tuple(v) for k, v in inputs.items()}


# The Space's check panel on a crafted submission.


def craft_space_check(upload):
    paragraphs = [
        {
            "context": "Helsinki on Suomen pääkaupunki.",
            "qas": [{"id": "finnish-1-0", "answers": [{"text": "Helsinki", "answer_start": 0}]}],
        }
    ]
    gold = upload("gold.json", {"data": [{"title": "t", "paragraphs": paragraphs}]})
    predictions = upload("my_run.json", {"finnish-1-0": "Helsinki", "finnish-2-0": "x"})
    return predictions, [], gold


SPACE_CHECK = SpaceCheck(
    craft_space_check,
    "tydiqa_goldp my_run.json: 1 error, 0 warnings in 2 predictions: the scorer would fail on "
    "it or score it other than meant",
    [
        "my_run.json:1: error: id 'finnish-2-0', field 'id': is not a question of gold.json: the "
        "scorer ignores it"
    ],
    example_gold=False,
)

ENTRY = MetricEntry(
    name="tydiqa_goldp",
    parity_cases=parity_cases,
    random_inputs=random_rows,
    invalid_cases=INVALID,
    options=[{}, {"convention": "xtreme"}, {"convention": "lm_eval"}],
    parity_folder=str(CASES),  # an absolute path: the harness's PARITY / it is this folder
    awkward=awkward,
    space_check=SPACE_CHECK,
)


def compensated_sum(values: list[float]) -> float:
    """The sum CPython's ``sum()`` gives floats from 3.12 on, compensated for rounding
    (Neumaier's), written out so that every Python computes it."""
    total = compensation = 0.0
    for value in values:
        added = total + value
        if abs(total) >= abs(value):
            compensation += (total - added) + value
        else:
            compensation += (value - added) + total
        total = added
    return total + compensation
