"""What ``scifact_abstract`` and ``scifact_sentence`` share in the harness: the two metrics take
the same inputs and read the same parity corpus, each keeping its six of the twelve numbers."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

from harness import InvalidCase, MetricEntry, ParityCase, SpaceCheck, read_json

LABELS = ["SUPPORT", "CONTRADICT"]
# The official evaluator's 12 numbers on the bundled example files (the Space's examples).
SCIFACT_EXAMPLE_SCORES = {
    "abstract_label_only_precision": 0.7058823529411765,
    "abstract_label_only_recall": 0.7058823529411765,
    "abstract_label_only_f1": 0.7058823529411765,
    "abstract_rationalized_precision": 0.5294117647058824,
    "abstract_rationalized_recall": 0.5294117647058824,
    "abstract_rationalized_f1": 0.5294117647058824,
    "sentence_selection_precision": 0.7222222222222222,
    "sentence_selection_recall": 0.3939393939393939,
    "sentence_selection_f1": 0.5098039215686274,
    "sentence_label_precision": 0.5833333333333334,
    "sentence_label_recall": 0.3181818181818182,
    "sentence_label_f1": 0.4117647058823529,
}
ABSTRACT_KEYS = [
    f"abstract_{m}_{s}"
    for m in ("label_only", "rationalized")
    for s in ("precision", "recall", "f1")
]
SENTENCE_KEYS = [
    f"sentence_{m}_{s}" for m in ("selection", "label") for s in ("precision", "recall", "f1")
]
KEYS = {"scifact_abstract": ABSTRACT_KEYS, "scifact_sentence": SENTENCE_KEYS}


def parity_cases(folder: Path, keys: list[str]) -> Iterator[ParityCase]:
    for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        meta = json.loads(line)
        case = folder / "cases" / meta["case"]
        expected = None
        if (case / "expected.json").exists():
            official = read_json(case / "expected.json")
            expected = {k: official[k] for k in keys}
        yield ParityCase(
            id=meta["case"],
            predictions=case / "predictions.jsonl",
            references=case / "gold.jsonl",
            expected=expected,
            questionable="questionable-input" in meta.get("tags", []),
        )


def _doc_id(rng: random.Random) -> str:
    return rng.choice(["11", "011", "1200", "01200", "7", "123456", "9"]) + str(rng.randint(0, 3))


def random_rows(rng: random.Random, n: int) -> dict[str, list]:
    """n valid claims: NEI claims, multi-sentence and 4-sentence rationales, several gold docs,
    unsorted and duplicated predicted sentences, false-positive docs, extra keys."""
    predictions, references = [], []
    claim_id = rng.randint(0, 50)
    for _ in range(n):
        claim_id += rng.randint(1, 5)
        gold = []
        doc_ids = list(dict.fromkeys(_doc_id(rng) for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))))
        for doc in doc_ids:
            label = rng.choice(LABELS)
            pool = rng.sample(range(15), 12)
            for _ in range(rng.randint(1, 3)):
                size = rng.choice([1, 1, 2, 3, 4])
                if len(pool) >= size:
                    gold.append({"doc_id": doc, "label": label, "sentences": sorted(pool[:size])})
                    del pool[:size]
        predicted = []
        for doc in doc_ids + [_doc_id(rng) for _ in range(rng.randint(0, 2))]:
            if rng.random() < 0.3:
                continue
            sentences = [
                s for e in gold if e["doc_id"] == doc and rng.random() < 0.7 for s in e["sentences"]
            ]
            sentences += [rng.randint(0, 14) for _ in range(rng.randint(0, 3))]
            rng.shuffle(sentences)
            label = rng.choice(LABELS)
            entry = {"doc_id": doc, "label": label, "sentences": sentences}
            if rng.random() < 0.1:
                entry["label_probs"] = [0.1, 0.2, 0.7]
            predicted.append(entry)
        rng.shuffle(gold)
        references.append({"id": claim_id, "evidence": gold})
        predictions.append({"id": claim_id, "evidence": predicted})
    return {"predictions": predictions, "references": references}


def _good_pred(claim_id: int = 8) -> dict:
    return {"id": claim_id, "evidence": [{"doc_id": "11", "label": "SUPPORT", "sentences": [1]}]}


def _good_ref(claim_id: int = 8) -> dict:
    return {"id": claim_id, "evidence": [{"doc_id": "11", "label": "SUPPORT", "sentences": [1]}]}


def _two(pred: dict | None = None, ref: dict | None = None) -> dict:
    """Two claims (ids 7, 8): a valid one first, then the given row."""
    return {
        "predictions": [_good_pred(7), pred if pred is not None else _good_pred()],
        "references": [_good_ref(7), ref if ref is not None else _good_ref()],
    }


def _pred_entry(**fields) -> dict:
    entry = {"doc_id": "11", "label": "SUPPORT", "sentences": [1]}
    entry.update(fields)
    return {"id": 8, "evidence": [{k: v for k, v in entry.items() if v is not _DROP}]}


def _ref_entries(*entries: dict) -> dict:
    return {"id": 8, "evidence": list(entries)}


def _rationale(sentences: list, label: str = "SUPPORT", doc_id: str = "11") -> dict:
    return {"doc_id": doc_id, "label": label, "sentences": sentences}


_DROP = object()
_P = "predictions[1] (id 8)"
_R = "references[1] (id 8)"
_E0 = "'evidence'[0]"

INVALID = [
    InvalidCase(
        "label-refutes", _two(_pred_entry(label="REFUTES")), (_P, f"{_E0}['label']", "REFUTES")
    ),
    InvalidCase("label-nei", _two(_pred_entry(label="NOT_ENOUGH_INFO")), (_P, f"{_E0}['label']")),
    InvalidCase("label-lowercase", _two(_pred_entry(label="support")), (_P, f"{_E0}['label']")),
    InvalidCase("label-null", _two(_pred_entry(label=None)), (_P, f"{_E0}['label']")),
    InvalidCase("label-missing", _two(_pred_entry(label=_DROP)), (_P, f"{_E0}", "'label'")),
    InvalidCase("sentences-missing", _two(_pred_entry(sentences=_DROP)), (_P, _E0, "'sentences'")),
    InvalidCase(
        "sentences-not-a-list", _two(_pred_entry(sentences=1)), (_P, f"{_E0}['sentences']")
    ),
    InvalidCase(
        "sentence-string", _two(_pred_entry(sentences=["1"])), (_P, f"{_E0}['sentences'][0]")
    ),
    InvalidCase(
        "sentence-float", _two(_pred_entry(sentences=[2, 1.0])), (_P, f"{_E0}['sentences'][1]")
    ),
    InvalidCase(
        "sentence-bool", _two(_pred_entry(sentences=[True])), (_P, f"{_E0}['sentences'][0]")
    ),
    InvalidCase(
        "sentence-negative", _two(_pred_entry(sentences=[-1])), (_P, f"{_E0}['sentences'][0]")
    ),
    InvalidCase("doc-id-int", _two(_pred_entry(doc_id=11)), (_P, f"{_E0}['doc_id']", "string")),
    InvalidCase("doc-id-missing", _two(_pred_entry(doc_id=_DROP)), (_P, _E0, "'doc_id'")),
    InvalidCase("entry-not-a-dict", _two({"id": 8, "evidence": [["11", "SUPPORT"]]}), (_P, _E0)),
    InvalidCase(
        "evidence-official-dict",
        _two({"id": 8, "evidence": {"11": {"sentences": [1], "label": "SUPPORT"}}}),
        (_P, "'evidence'", "list"),
    ),
    InvalidCase("evidence-missing", _two({"id": 8}), (_P, "'evidence'")),
    InvalidCase("id-missing", _two({"evidence": []}), ("predictions[1]", "'id'")),
    InvalidCase(
        "id-string", _two({"id": "8", "evidence": []}), ("predictions[1] (id '8')", "'id'", "int")
    ),
    InvalidCase(
        "id-bool", _two({"id": True, "evidence": []}), ("predictions[1] (id True)", "'id'")
    ),
    InvalidCase("id-mismatch", _two(_good_pred(9)), ("predictions[1] (id 9)", _R, "'id'")),
    InvalidCase(
        "rows-reordered",
        {"predictions": [_good_pred(8), _good_pred(7)], "references": [_good_ref(7), _good_ref(8)]},
        ("predictions[0] (id 8)", "references[0] (id 7)", "'id'"),
    ),
    InvalidCase(
        "missing-claim",
        {"predictions": [_good_pred(7)], "references": [_good_ref(7), _good_ref(8)]},
        ("same length", _R),
    ),
    InvalidCase("row-not-a-dict", _two(["11", "SUPPORT"]), ("predictions[1]", "dict")),
    InvalidCase(
        "predictions-not-a-list",
        {"predictions": {"id": 8, "evidence": []}, "references": [_good_ref()]},
        ("predictions", "list"),
    ),
    InvalidCase(
        "gold-conflicting-labels",
        _two(ref=_ref_entries(_rationale([1]), _rationale([3], "CONTRADICT"))),
        (_R, "'evidence'[1]['label']", "'11'"),
    ),
    InvalidCase(
        "gold-empty-rationale",
        _two(ref=_ref_entries(_rationale([]))),
        (_R, f"{_E0}['sentences']", "empty"),
    ),
    InvalidCase(
        "gold-shared-sentence",
        _two(ref=_ref_entries(_rationale([1]), _rationale([1, 6]))),
        (_R, "'evidence'[1]['sentences']", "sentence 1"),
    ),
    InvalidCase(
        "gold-duplicate-sentence",
        _two(ref=_ref_entries(_rationale([4, 4]))),
        (_R, f"{_E0}['sentences']", "twice"),
    ),
    InvalidCase(
        "gold-label-supports",
        _two(ref=_ref_entries(_rationale([1], "SUPPORTS"))),
        (_R, f"{_E0}['label']"),
    ),
    InvalidCase(
        "gold-doc-id-int",
        _two(ref=_ref_entries(_rationale([1], doc_id=11))),
        (_R, f"{_E0}['doc_id']"),
    ),
    InvalidCase(
        "gold-sentence-string",
        _two(ref=_ref_entries(_rationale(["1"]))),
        (_R, f"{_E0}['sentences'][0]"),
    ),
]


def craft_space_check(upload):
    claims = upload("claims_test.jsonl", [{"id": i, "claim": "c"} for i in (1, 2)])
    corpus = upload("corpus.jsonl", [{"doc_id": 10, "title": "t", "abstract": ["s0", "s1"]}])
    predictions = upload(
        "my_run.jsonl",
        [
            {"id": 1, "evidence": {"10": {"sentences": [0, 2], "label": "SUPPORT"}}},
            {"id": 2, "evidence": {"30": {"sentences": [0], "label": "CONTRADICT"}}},
        ],
    )
    return predictions, [claims, corpus], None


def space_check(name: str) -> SpaceCheck:
    """The Space's check panel on a crafted submission."""
    return SpaceCheck(
        craft_space_check,
        f"{name} my_run.jsonl: 2 errors, 0 warnings in 2 predictions: the scorer would "
        "fail on it or score it other than meant",
        [
            "my_run.jsonl:1: error: id 1, field 'evidence'['10']['sentences'][1]: sentence 2 is "
            "outside the abstract of doc 10 (2 sentences, indices 0 to 1)",
            "my_run.jsonl:2: error: id 2, field 'evidence'['30']: is not a document of "
            "corpus.jsonl",
        ],
        example_warnings=1,
    )


def entry(name: str) -> MetricEntry:
    keys = KEYS[name]
    return MetricEntry(
        name=name,
        parity_cases=lambda folder: parity_cases(folder, keys),
        random_inputs=random_rows,
        invalid_cases=INVALID,
        parity_folder="scifact",
        space_check=space_check(name),
    )
