"""feverous_score in the shared harness."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from harness import InvalidCase, MetricEntry, ParityCase, SpaceCheck

LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
PAGES = ["Korean Air", "Wolfgang_Niedecken", "Beyoncé", "A_B", "Ωmega"]
TYPES = ["sentence", "sentence", "cell", "header_cell", "table_caption", "item"]


def parity_cases(folder: Path):
    """The entry's own cases (FEVEROUS has none in the shared corpus): evaluate.py input files
    with the outputs of the official code (see ``parity/README.md``)."""
    for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        meta = json.loads(line)
        case = folder / meta["case"]
        yield ParityCase(
            id=meta["case"],
            predictions=case / "predictions.jsonl",
            references=case / "references.jsonl" if meta.get("references") else None,
            options=meta.get("options", {}),
            expected=meta.get("expected"),
        )


def _element(rng: random.Random) -> str:
    kind = rng.choice(TYPES)
    return f"{rng.choice(PAGES)}_{kind}_{rng.randint(0, 2)}_{rng.randint(0, 2)}"


def random_rows(rng: random.Random, n: int) -> dict[str, list]:
    predictions, references = [], []
    for i in range(n):
        gold = rng.choice(LABELS)
        sets = [
            [_element(rng) for _ in range(rng.randint(0, 2))]
            for _ in range(rng.choice([0, 1, 1, 2]))
        ]
        predicted = [_element(rng) for _ in range(rng.choice([0, 1, 3, 6, 9]))]
        if sets and rng.random() < 0.6:
            for item in rng.choice(sets):
                predicted.insert(rng.randint(0, len(predicted)), item)
        if rng.random() < 0.3:  # as the official function takes them
            predicted = [
                [*e.split("_", 1)[0:1], *e.split("_", 1)[1].split("_", 1)] for e in predicted
            ]
        label = gold if rng.random() < 0.6 else rng.choice(LABELS)
        if rng.random() < 0.1:
            label = label.lower()
        predictions.append({"predicted_label": label, "predicted_evidence": predicted})
        references.append({"id": i, "label": gold, "evidence": sets})
    # Precision and recall both 0 would stop the official scorer: one claim right, always.
    predictions[0] = {"predicted_label": "SUPPORTS", "predicted_evidence": ["P_sentence_0"]}
    references[0] = {"id": 0, "label": "SUPPORTS", "evidence": [["P_sentence_0"]]}
    return {"predictions": predictions, "references": references}


def _one(pred=None, ref=None) -> dict:
    good_pred = {"predicted_label": "SUPPORTS", "predicted_evidence": ["Page_sentence_1"]}
    good_ref = {"id": 7, "label": "SUPPORTS", "evidence": [["Page_sentence_1"]]}
    return {
        "predictions": [good_pred, pred if pred is not None else good_pred],
        "references": [good_ref, ref if ref is not None else {**good_ref, "id": 8}],
    }


def _pred(evidence=None, label="SUPPORTS") -> dict:
    return {"predicted_label": label, "predicted_evidence": evidence or ["Page_sentence_1"]}


def _ref(evidence=None, label="SUPPORTS") -> dict:
    return {"id": 8, "label": label, "evidence": evidence or [["Page_sentence_1"]]}


_P = "predictions[1]"
_R = "references[1] (id 8)"
INVALID = [
    InvalidCase("empty", {"predictions": [], "references": []}, ("empty",)),
    InvalidCase(
        "length-mismatch",
        {"predictions": _one()["predictions"], "references": _one()["references"][:1]},
        ("same length", "2 predictions", "1 references"),
    ),
    InvalidCase(
        "missing-predicted-label", _one({"predicted_evidence": []}), (_P, "predicted_label")
    ),
    InvalidCase(
        "missing-predicted-evidence",
        _one({"predicted_label": "SUPPORTS"}),
        (_P, "predicted_evidence"),
    ),
    InvalidCase("null-predicted-label", _one(_pred(label=None)), (_P, "predicted_label", "string")),
    InvalidCase(
        "string-predicted-evidence",
        _one({"predicted_label": "SUPPORTS", "predicted_evidence": "Page_sentence_1"}),
        (_P, "predicted_evidence", "list"),
    ),
    InvalidCase(
        "id-without-underscore", _one(_pred(["Page"])), (_P, "'predicted_evidence'[0]", "'_'")
    ),
    InvalidCase(
        "two-part-item", _one(_pred([["Page", "sentence"]])), (_P, "'predicted_evidence'[0]")
    ),
    InvalidCase(
        "int-position", _one(_pred([["Page", "sentence", 1]])), (_P, "'predicted_evidence'[0]")
    ),
    InvalidCase("null-item", _one(_pred([None], label="REFUTES")), (_P, "'predicted_evidence'[0]")),
    InvalidCase("gold-null-label", _one(ref=_ref(label=None)), (_R, "'label'")),
    InvalidCase(
        "gold-missing-evidence", _one(ref={"id": 8, "label": "SUPPORTS"}), (_R, "'evidence'")
    ),
    InvalidCase("gold-set-not-a-list", _one(ref=_ref(["Page_sentence_1"])), (_R, "'evidence'[0]")),
    InvalidCase(
        "gold-four-part-item",
        _one(ref=_ref([[[None, "Page", "sentence", "1"]]])),
        (_R, "'evidence'[0][0]"),
    ),
    InvalidCase("prediction-not-a-dict", _one(["SUPPORTS", []]), (_P, "dict")),
    InvalidCase(
        "precision-and-recall-zero",
        {"predictions": [_pred(["Other_sentence_0"])], "references": [_ref()]},
        ("precision and recall are both 0", "ZeroDivisionError"),
    ),
    InvalidCase(
        "exact-reading-not-an-element-id",
        _one(_pred(["Page_paragraph_1"])),
        (_P, "'predicted_evidence'[0]", "element type", "exact"),
        options={"id_reading": "exact"},
    ),
    InvalidCase("float-max-evidence", _one(), ("max_evidence",), options={"max_evidence": 5.0}),
    InvalidCase(
        "string-max-evidence-cell",
        _one(),
        ("max_evidence_cell",),
        options={"max_evidence_cell": "25"},
    ),
    InvalidCase(
        "unknown-id-reading", _one(), ("id_reading", "official"), options={"id_reading": "split"}
    ),
]


def awkward(inputs: dict, rng: random.Random) -> dict:
    """Gold sets and their items in reverse order, element ids as the triples the official
    reading makes of them (the same numbers under the default reading), tuples for lists."""
    inputs = copy.deepcopy(inputs)

    def triple(item):
        if type(item) is not str:
            return tuple(item)
        parts = item.split("_")
        if "table_caption" in item or "header_cell" in item:
            return (parts[0], "_".join(parts[1:3]), "_".join(parts[3:]))
        return (parts[0], parts[1], "_".join(parts[2:]))

    for row in inputs["references"]:
        row["evidence"] = [[triple(i) for i in reversed(s)] for s in reversed(row["evidence"])]
    for row in inputs["predictions"]:
        row["predicted_evidence"] = tuple(triple(i) for i in row["predicted_evidence"])
    return {k: tuple(v) for k, v in inputs.items()}


# The Space's check panel on a crafted submission.

_HEADER = {"id": "", "claim": "", "label": "", "evidence": []}


def craft_space_check(upload):
    claims = upload("test.jsonl", [_HEADER] + [{"id": i, "claim": "c"} for i in (1, 2, 3)])
    gold = {"label": "SUPPORTS", "evidence": [{"content": ["A_sentence_0"]}]}
    predictions = upload(
        "my_run.jsonl",
        [
            _HEADER,
            {
                "id": 1,
                **gold,
                "predicted_label": "SUPPORTS",
                "predicted_evidence": ["A_sentence_0"],
            },
            {"id": 2, **gold, "predicted_label": "SUPPORTED", "predicted_evidence": ["A"]},
            {"id": 9, **gold, "predicted_label": "REFUTES", "predicted_evidence": []},
        ],
    )
    return predictions, [claims], None


SPACE_CHECK = SpaceCheck(
    craft_space_check,
    "feverous_score my_run.jsonl: 3 errors, 0 warnings in 3 predictions: the scorer would fail "
    "on it or score it other than meant",
    [
        "my_run.jsonl:3: error: id 2, field 'predicted_evidence'[0]: must be an element id string "
        "with an '_' such as 'Page_sentence_1' (the official evaluate.py splits each id at its "
        "'_'), got 'A'",
        "my_run.jsonl:4: error: id 9, field 'id': is not a claim of test.jsonl",
        "test.jsonl:4: error: id 3, field 'id': has no prediction (1 of 3 claims have none)",
    ],
    example_warnings=1,  # a prediction past the sentence budget
)

ENTRY = MetricEntry(
    name="feverous_score",
    parity_cases=parity_cases,
    random_inputs=random_rows,
    invalid_cases=INVALID,
    options=[{}, {"max_evidence": None, "max_evidence_cell": 2}, {"id_reading": "exact"}],
    awkward=awkward,
    space_check=SPACE_CHECK,
    parity_root=Path(__file__).resolve().parent / "parity",
)
