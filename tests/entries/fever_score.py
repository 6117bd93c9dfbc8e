"""fever_score in the shared harness."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from harness import InvalidCase, MetricEntry, ParityCase, SpaceCheck, read_json

LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
PAGES = ["Page_A", "Page_B", "Beyonce\u0301", "Beyoncé", "page_a", "Ωmega_(band)"]
_OUR_KEYS = {"precision": "evidence_precision", "recall": "evidence_recall", "f1": "evidence_f1"}


def parity_cases(folder: Path):
    for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        meta = json.loads(line)
        case = folder / "cases" / meta["case"]
        expected = None
        if (case / "expected.json").exists():
            expected = {
                _OUR_KEYS.get(k, k): v for k, v in read_json(case / "expected.json").items()
            }
        args = read_json(case / "args.json") if (case / "args.json").exists() else {}
        actual = case / "actual.jsonl"
        yield ParityCase(
            id=meta["case"],
            predictions=case / "predictions.jsonl",
            references=actual if actual.exists() else None,
            options=args,
            expected=expected,
            questionable="questionable-input" in meta.get("tags", []),
        )


def _sentence(rng: random.Random) -> list:
    return [rng.choice(PAGES), rng.randint(0, 3)]


def random_rows(rng: random.Random, n: int) -> dict[str, list]:
    predictions, references = [], []
    for i in range(n):
        gold = rng.choice(LABELS)
        if gold == "NOT ENOUGH INFO":
            evidence = [[[rng.randint(1, 9), None, None, None]] for _ in range(rng.randint(1, 2))]
        else:
            evidence = [
                [
                    [rng.randint(1, 9), rng.randint(1, 9), *_sentence(rng)]
                    for _ in range(rng.randint(0, 2))
                ]
                for _ in range(rng.choice([0, 1, 1, 2, 3]))
            ]
        predicted = [_sentence(rng) for _ in range(rng.randint(0, 7))]
        if evidence and gold != "NOT ENOUGH INFO" and rng.random() < 0.5:
            group = rng.choice(evidence)
            for item in group:
                predicted.insert(rng.randint(0, len(predicted)), list(item[2:]))
        label = gold if rng.random() < 0.6 else rng.choice(LABELS)
        if rng.random() < 0.1:
            label = label.lower()
        predictions.append({"predicted_label": label, "predicted_evidence": predicted})
        references.append({"id": i, "label": gold, "evidence": evidence})
    return {"predictions": predictions, "references": references}


def _one(pred=None, ref=None, **options) -> dict:
    good_pred = {"predicted_label": "SUPPORTS", "predicted_evidence": [["Page_A", 1]]}
    good_ref = {"id": 7, "label": "SUPPORTS", "evidence": [[[1, 2, "Page_A", 1]]]}
    return {
        "predictions": [good_pred, pred if pred is not None else good_pred],
        "references": [good_ref, ref if ref is not None else {**good_ref, "id": 8}],
    }


def _pred(evidence=None, label="SUPPORTS", **extra) -> dict:
    row = {"predicted_label": label, "predicted_evidence": evidence or [["Page_A", 1]], **extra}
    return row


def _ref(evidence=None, label="SUPPORTS") -> dict:
    return {"id": 8, "label": label, "evidence": evidence or [[[1, 2, "Page_A", 1]]]}


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
        "null-predicted-evidence",
        _one({"predicted_label": "SUPPORTS", "predicted_evidence": None}),
        (_P, "predicted_evidence"),
    ),
    InvalidCase(
        "string-line", _one(_pred([["Page_A", "1"]])), (_P, "'predicted_evidence'[0]", "int")
    ),
    InvalidCase("float-line", _one(_pred([["Page_A", 1.0]])), (_P, "'predicted_evidence'[0]")),
    InvalidCase("bool-line", _one(_pred([["Page_A", True]])), (_P, "'predicted_evidence'[0]")),
    InvalidCase(
        "null-page", _one(_pred([[None, None]], label="REFUTES")), (_P, "'predicted_evidence'[0]")
    ),
    InvalidCase(
        "tuple-item", _one(_pred([("Page_A", 1)], label="REFUTES")), (_P, "'predicted_evidence'[0]")
    ),
    InvalidCase(
        "three-element-item", _one(_pred([["Page_A", 1, 0.9]])), (_P, "'predicted_evidence'[0]")
    ),
    InvalidCase("flat-item", _one(_pred(["Page_A", 1])), (_P, "'predicted_evidence'[0]")),
    InvalidCase(
        "bad-sixth-item-beyond-max-evidence",
        _one(_pred([["w", i] for i in range(5)] + [["Page_A", "x"]])),
        (_P, "'predicted_evidence'[5]"),
    ),
    InvalidCase(
        "gold-two-element-items", _one(ref=_ref([[["Page_A", 1]]])), (_R, "'evidence'[0][0]")
    ),
    InvalidCase("gold-null-label", _one(ref=_ref(label=None)), (_R, "'label'")),
    InvalidCase(
        "gold-missing-evidence", _one(ref={"id": 8, "label": "SUPPORTS"}), (_R, "'evidence'")
    ),
    InvalidCase("gold-group-not-a-list", _one(ref=_ref(["Page_A"])), (_R, "'evidence'[0]")),
    InvalidCase(
        "gold-string-line", _one(ref=_ref([[[1, 2, "Page_A", "1"]]])), (_R, "'evidence'[0][0]")
    ),
    InvalidCase("prediction-not-a-dict", _one(["SUPPORTS", []]), (_P, "dict")),
    InvalidCase("float-max-evidence", _one(), ("max_evidence",), options={"max_evidence": 5.0}),
    InvalidCase("string-max-evidence", _one(), ("max_evidence",), options={"max_evidence": "5"}),
    # Lines the metric's features cannot store (datasets would fail inside pyarrow on add_batch).
    InvalidCase(
        "line-beyond-int64",
        _one(_pred([["Page_A", 1], ["Page_A", 2**70]])),
        (_P, "'predicted_evidence'[1]", "signed 64-bit", str(2**70)),
    ),
    InvalidCase(
        "record-line-beyond-int64",
        _one(_pred([{"page": "Page_A", "line": -(2**63) - 1}])),
        (_P, "'predicted_evidence'[0]", "signed 64-bit"),
    ),
    InvalidCase(
        "gold-line-beyond-int64",
        _one(ref=_ref([[[1, 2, "Page_A", 2**63]]])),
        (_R, "'evidence'[0][0]", "signed 64-bit", str(2**63)),
    ),
]


def awkward(inputs: dict, rng: random.Random) -> dict:
    """Gold groups and their sentences in reverse order, predicted evidence as records in
    reverse order, the row lists as tuples."""
    inputs = copy.deepcopy(inputs)
    for row in inputs["references"]:
        row["evidence"] = [list(reversed(group)) for group in reversed(row["evidence"])]
    for row in inputs["predictions"]:
        row["predicted_evidence"] = [
            {"page": page, "line": line} for page, line in reversed(row["predicted_evidence"])
        ]
    return {k: tuple(v) for k, v in inputs.items()}


# The Space's check panel on a crafted submission.


def craft_space_check(upload):
    claims = upload("shared_task_test.jsonl", [{"id": i, "claim": "c"} for i in (1, 2, 3)])
    predictions = upload(
        "my_run.jsonl",
        [
            {"id": 1, "predicted_label": "SUPPORTS", "predicted_evidence": [["A_b", 0]]},
            {"id": 2, "predicted_label": "SUPPORTED", "predicted_evidence": []},
            {"id": 9, "predicted_label": "REFUTES", "predicted_evidence": []},
        ],
    )
    return predictions, [claims], None


SPACE_CHECK = SpaceCheck(
    craft_space_check,
    "fever_score my_run.jsonl: 3 errors, 0 warnings in 3 predictions: the scorer would fail on "
    "it or score it other than meant",
    [
        "my_run.jsonl:2: error: id 2, field 'predicted_label': must be one of SUPPORTS, "
        "REFUTES, NOT ENOUGH INFO (compared upper-cased); the scorer counts 'SUPPORTED' wrong "
        "on every claim",
        "my_run.jsonl:3: error: id 9, field 'id': is not a claim of shared_task_test.jsonl",
        "shared_task_test.jsonl:3: error: id 3, field 'id': has no prediction (1 of 3 claims "
        "have none)",
    ],
)

ENTRY = MetricEntry(
    name="fever_score",
    parity_cases=parity_cases,
    random_inputs=random_rows,
    invalid_cases=INVALID,
    options=[{}, {"max_evidence": None}, {"max_evidence": 2}],
    parity_folder="fever",
    awkward=awkward,
    space_check=SPACE_CHECK,
)
