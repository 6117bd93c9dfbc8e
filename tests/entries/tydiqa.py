"""tydiqa in the shared harness."""

from __future__ import annotations

import copy
import gzip
import json
import random
from pathlib import Path

from taskeval._metrics.tydiqa.scoring import LANGUAGES as SCORED_LANGUAGES

from harness import InvalidCase, MetricEntry, ParityCase, SpaceCheck, read_json

LANGUAGES = list(SCORED_LANGUAGES)
OPTIONS = ("passage_non_null_threshold", "minimal_non_null_threshold")
# Flags of the official script that only change printing or caching: the metric has no such
# options. Their crashes (a None formatted by --pretty_print, a pickle written to a text file)
# are not scoring behaviour.
DISPLAY_FLAGS = {"pretty_print", "cache_gold_data"}
# Cases where the official script silently scores malformed input and the metric raises a
# ValueError instead (a reused span, a string id against an int id, NaN scores).
QUESTIONABLE = {"edge_c02_missing_minimal_later", "edge_c06_string_id", "edge_c29_nan_score"}


def _files(case: Path) -> tuple[Path, Path]:
    gold = next(p for p in sorted(case.iterdir()) if p.name.startswith("gold.jsonl"))
    return gold, case / "predictions.jsonl"


def parity_cases(folder: Path):
    manifest = read_json(folder / "manifest.json")
    # Official outputs by (gold bytes, prediction bytes, scoring options): a case that failed
    # only because of a display/caching flag takes the numbers of its twin without that flag.
    known: dict = {}
    cases = []
    for meta in manifest["cases"]:
        case = folder / "cases" / meta["name"]
        flags = meta.get("flags") or {}
        options = {k: v for k, v in flags.items() if k in OPTIONS}
        gold, predictions = _files(case)
        key = (gold.read_bytes(), predictions.read_bytes(), tuple(sorted(options.items())))
        expected = None
        if (case / "expected.json").exists():
            expected = read_json(case / "expected.json")
            known[key] = expected
        cases.append((meta, gold, predictions, options, set(flags) - set(OPTIONS), key))
    for meta, gold, predictions, options, other_flags, key in cases:
        expected = None
        if meta["outcome"] != "error":
            expected = known[key]
        elif other_flags & DISPLAY_FLAGS:
            expected = known.get(key)
            if expected is None:
                # edge_c08: --pretty_print crashes after printing part of the numbers and no
                # other case has the same files; tests/test_tydiqa.py checks what it printed.
                continue
        yield ParityCase(
            id=meta["name"],
            predictions=predictions,
            references=gold,
            options=options,
            expected=expected,
            questionable=meta["name"] in QUESTIONABLE,
        )


def _null_span(rng: random.Random) -> tuple[int, int]:
    # Officially null whenever both offsets are negative, in either order.
    return rng.choice([(-1, -1), (-1, -1), (-1, -7), (-7, -1), (-2, -2)])


def _annotation(rng: random.Random) -> dict:
    index = rng.choice([-1, -1, 0, 1, 2, 3])
    start, end = _null_span(rng)
    if index >= 0 and rng.random() < 0.15:
        return {
            "candidate_index": index,
            "start_byte": start,
            "end_byte": end,
            "yes_no_answer": rng.choice(["YES", "NO"]),
        }
    if index >= 0 and rng.random() < 0.7:
        start = rng.randint(0, 40)
        end = start + rng.randint(1, 12)
    return {"candidate_index": index, "start_byte": start, "end_byte": end, "yes_no_answer": "NONE"}


def _prediction(rng: random.Random, example_id: int, language: str) -> dict:
    row = {"example_id": example_id, "language": language}
    if rng.random() < 0.9:
        row["passage_answer_index"] = rng.choice([-1, 0, 1, 2, 3])
    coarse = rng.random() < 0.4  # ties
    row["passage_answer_score"] = rng.choice([-1, 0, 0.5, 1]) if coarse else rng.uniform(-2, 2)
    kind = rng.random()
    if kind < 0.45:
        start, end = _null_span(rng)
        row["minimal_answer"] = {"start_byte_offset": start, "end_byte_offset": end}
        if kind < 0.15:
            row["yes_no_answer"] = rng.choice(["YES", "no", "Yes"])
    else:
        start = rng.randint(0, 40)
        row["minimal_answer"] = {
            "start_byte_offset": start,
            "end_byte_offset": start + rng.randint(1, 12),
        }
    if "yes_no_answer" not in row and rng.random() < 0.8:
        row["yes_no_answer"] = "NONE"
    row["minimal_answer_score"] = rng.choice([-1.0, 0.0, 1.0]) if coarse else rng.gauss(0, 1)
    return row


def random_rows(rng: random.Random, n: int) -> dict[str, list]:
    references, predictions = [], []
    ids = rng.sample(range(-(2**40), 2**40), n + 5)
    languages = rng.sample(LANGUAGES, rng.randint(1, 4))
    for i in range(n):
        if rng.random() < 0.1:
            references.append({"example_id": None})  # a row with no gold example
        else:
            example_id = ids[i] if rng.random() > 0.05 or i == 0 else ids[i - 1]
            references.append(
                {
                    "example_id": example_id,
                    "language": rng.choice(languages),
                    "annotations": [_annotation(rng) for _ in range(rng.choice([1, 3, 3, 5]))],
                }
            )
    for i in range(n):
        ref = references[i]
        if ref["example_id"] is None or rng.random() < 0.1:
            if rng.random() < 0.5:
                predictions.append({"example_id": None})  # missing prediction
            else:
                predictions.append(
                    _prediction(rng, ids[n + rng.randint(0, 4)], rng.choice(languages))
                )
        else:
            language = ref["language"] if rng.random() < 0.95 else rng.choice(LANGUAGES)
            predictions.append(_prediction(rng, ref["example_id"], language))
    rng.shuffle(predictions)
    return {"predictions": predictions, "references": references}


_GOOD_ANNOTATIONS = [
    {"candidate_index": 0, "start_byte": 10, "end_byte": 20, "yes_no_answer": "NONE"},
    {"candidate_index": 0, "start_byte": 12, "end_byte": 20, "yes_no_answer": "NONE"},
    {"candidate_index": -1, "start_byte": -1, "end_byte": -1, "yes_no_answer": "NONE"},
]


def _pred(**changes) -> dict:
    row = {
        "example_id": 8,
        "language": "arabic",
        "passage_answer_index": 0,
        "passage_answer_score": 1.5,
        "minimal_answer": {"start_byte_offset": 10, "end_byte_offset": 20},
        "minimal_answer_score": 1.0,
        "yes_no_answer": "NONE",
    }
    for k, v in changes.items():
        if v is _DROP:
            del row[k]
        else:
            row[k] = v
    return row


def _ref(**changes) -> dict:
    row = {"example_id": 8, "language": "arabic", "annotations": _GOOD_ANNOTATIONS}
    row.update(changes)
    return row


_DROP = object()


def _one(pred=None, ref=None) -> dict:
    good_pred = {**_pred(), "example_id": 7}
    good_ref = {**_ref(), "example_id": 7}
    return {
        "predictions": [good_pred, pred if pred is not None else _pred()],
        "references": [good_ref, ref if ref is not None else _ref()],
    }


_P = "predictions[1] (example_id 8)"
_R = "references[1] (example_id 8)"
INVALID = [
    InvalidCase(
        "length-mismatch",
        {"predictions": _one()["predictions"], "references": _one()["references"][:1]},
        ("same length", "2 predictions", "1 references"),
    ),
    InvalidCase(
        "missing-minimal-answer", _one(_pred(minimal_answer=_DROP)), (_P, "'minimal_answer'")
    ),
    InvalidCase(
        "missing-passage-score",
        _one(_pred(passage_answer_score=_DROP)),
        (_P, "'passage_answer_score'"),
    ),
    InvalidCase(
        "missing-minimal-score",
        _one(_pred(minimal_answer_score=_DROP)),
        (_P, "'minimal_answer_score'"),
    ),
    InvalidCase("missing-language", _one(_pred(language=_DROP)), (_P, "'language'")),
    InvalidCase(
        "nan-score",
        _one(_pred(passage_answer_score=float("nan"))),
        (_P, "'passage_answer_score'", "NaN"),
    ),
    InvalidCase(
        "string-score",
        _one(_pred(minimal_answer_score="2.5")),
        (_P, "'minimal_answer_score'", "number"),
    ),
    InvalidCase(
        "string-id", _one(_pred(example_id="8")), ("predictions[1]", "'example_id'", "'8'")
    ),
    InvalidCase(
        "bool-id", _one(ref=_ref(example_id=True)), ("references[1]", "'example_id'", "True")
    ),
    InvalidCase(
        "id-beyond-int64",
        _one(_pred(example_id=2**63)),
        ("predictions[1]", "'example_id'", "64-bit"),
    ),
    InvalidCase(
        "bad-yes-no", _one(_pred(yes_no_answer="maybe")), (_P, "'yes_no_answer'", "'maybe'")
    ),
    InvalidCase("null-yes-no", _one(_pred(yes_no_answer=None)), (_P, "'yes_no_answer'", "None")),
    InvalidCase(
        "yes-no-with-span", _one(_pred(yes_no_answer="YES")), (_P, "'yes_no_answer'", "coexist")
    ),
    InvalidCase(
        "start-after-end",
        _one(_pred(minimal_answer={"start_byte_offset": 20, "end_byte_offset": 10})),
        (_P, "'minimal_answer'", "starts after it ends"),
    ),
    InvalidCase(
        "half-null-span",
        _one(_pred(minimal_answer={"start_byte_offset": -1, "end_byte_offset": 10})),
        (_P, "'minimal_answer'", "null"),
    ),
    InvalidCase(
        "zero-length-span-inside-gold",
        _one(_pred(minimal_answer={"start_byte_offset": 15, "end_byte_offset": 15})),
        (_P, "'minimal_answer'", "zero-length", "references[1]"),
    ),
    InvalidCase(
        "float-passage-index",
        _one(_pred(passage_answer_index=1.0)),
        (_P, "'passage_answer_index'", "int"),
    ),
    InvalidCase(
        "empty-annotations", _one(ref=_ref(annotations=[])), (_R, "'annotations'", "non-empty")
    ),
    InvalidCase("null-annotations", _one(ref=_ref(annotations=None)), (_R, "'annotations'")),
    InvalidCase(
        "gold-bad-yes-no",
        _one(ref=_ref(annotations=[{**_GOOD_ANNOTATIONS[0], "yes_no_answer": "si"}])),
        (_R, "'annotations'[0]", "'yes_no_answer'"),
    ),
    InvalidCase(
        "gold-missing-end-byte",
        _one(
            ref=_ref(annotations=[{"candidate_index": 0, "start_byte": 1, "yes_no_answer": "NONE"}])
        ),
        (_R, "'annotations'[0]", "end_byte"),
    ),
    InvalidCase(
        "gold-string-candidate-index",
        _one(ref=_ref(annotations=[{**_GOOD_ANNOTATIONS[0], "candidate_index": "0"}])),
        (_R, "'annotations'[0]", "'candidate_index'"),
    ),
    InvalidCase(
        "placeholder-with-values",
        _one(_pred(example_id=None)),
        ("predictions[1]", "'example_id' is null", "placeholder"),
    ),
    InvalidCase("prediction-not-a-dict", _one(["arabic", 0]), ("predictions[1]", "dict")),
    InvalidCase(
        "float-threshold",
        _one(),
        ("passage_non_null_threshold",),
        options={"passage_non_null_threshold": 2.0},
    ),
    # Ints the metric's features cannot store (datasets would fail inside pyarrow on add_batch).
    InvalidCase(
        "passage-index-beyond-int64",
        _one(_pred(passage_answer_index=2**64)),
        (_P, "'passage_answer_index'", "signed 64-bit", str(2**64)),
    ),
    InvalidCase(
        "offset-beyond-int64",
        _one(_pred(minimal_answer={"start_byte_offset": 10, "end_byte_offset": 2**63})),
        (_P, "'minimal_answer'", "signed 64-bit", str(2**63)),
    ),
    InvalidCase(
        "gold-candidate-index-beyond-int64",
        _one(ref=_ref(annotations=[{**_GOOD_ANNOTATIONS[0], "candidate_index": -(2**63) - 1}])),
        (_R, "'annotations'[0]", "'candidate_index'", "signed 64-bit"),
    ),
]


def awkward(inputs: dict, rng: random.Random) -> dict:
    """Annotations and predictions in reverse order (pairing is by id), the row lists as
    tuples, nested official annotation records."""
    inputs = copy.deepcopy(inputs)
    for row in inputs["references"]:
        if row.get("annotations"):
            row["annotations"].reverse()
            first = row["annotations"][0]
            row["annotations"][0] = {
                "passage_answer": {"candidate_index": first["candidate_index"]},
                "minimal_answer": {
                    "plaintext_start_byte": first["start_byte"],
                    "plaintext_end_byte": first["end_byte"],
                },
                "yes_no_answer": first["yes_no_answer"],
            }
    inputs["predictions"].reverse()
    return {k: tuple(v) for k, v in inputs.items()}


# The Space's check panel on a crafted submission.


def tydi_example(example_id: int) -> dict:
    return {
        "example_id": example_id,
        "language": "finnish",
        "question_text": "q",
        "document_plaintext": "Yksi. Kaksi.",
        "passage_answer_candidates": [
            {"plaintext_start_byte": 0, "plaintext_end_byte": 5},
            {"plaintext_start_byte": 6, "plaintext_end_byte": 12},
        ],
    }


def tydi_prediction(example_id: int, **fields) -> dict:
    row = {
        "example_id": example_id,
        "language": "finnish",
        "passage_answer_index": 0,
        "passage_answer_score": 1.0,
        "minimal_answer": {"start_byte_offset": -1, "end_byte_offset": -1},
        "minimal_answer_score": 1.0,
        "yes_no_answer": "NONE",
    }
    return {**row, **fields}


def craft_space_check(upload):
    test = "".join(json.dumps(tydi_example(i)) + "\n" for i in (1, 2, 3))
    inputs = upload("tydiqa-test.jsonl.gz", gzip.compress(test.encode(), mtime=0))
    predictions = upload(
        "my_run.jsonl",
        [
            tydi_prediction(1),
            tydi_prediction(2, passage_answer_index=5),
            tydi_prediction(2**62 + 1),
        ],
    )
    return predictions, [inputs], None


SPACE_CHECK = SpaceCheck(
    craft_space_check,
    "tydiqa my_run.jsonl: 3 errors, 0 warnings in 3 predictions: the scorer would fail on it "
    "or score it other than meant",
    [
        "my_run.jsonl:2: error: id 2, field 'passage_answer_index': 5 is no passage candidate "
        "of the example (it has 2, indices 0 to 1; -1 for none)",
        "my_run.jsonl:3: error: id 4611686018427387905, field 'id': is not an example of "
        "tydiqa-test.jsonl.gz",
        "tydiqa-test.jsonl.gz:3: error: id 3, field 'id': has no prediction (1 of 3 examples "
        "have none)",
    ],
    ids=[2, str(2**62 + 1), 3],  # a 64-bit id as text, which the page's JSON viewer shows exactly
    example_gold=False,
)

ENTRY = MetricEntry(
    name="tydiqa",
    parity_cases=parity_cases,
    random_inputs=random_rows,
    invalid_cases=INVALID,
    options=[{}, {"passage_non_null_threshold": 1, "minimal_non_null_threshold": 3}],
    parity_folder="tydiqa",
    awkward=awkward,
    space_check=SPACE_CHECK,
)
