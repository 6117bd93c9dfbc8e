"""scifact_abstract in the shared harness (cases shared with scifact_sentence)."""

from __future__ import annotations

import copy
import dataclasses
import random

from scifact_cases import INVALID, entry

from harness import InvalidCase


def _two(pred: dict | None = None, ref: dict | None = None) -> dict:
    good = {"id": 8, "evidence": [{"doc_id": "11", "label": "SUPPORT", "sentences": [1]}]}
    return {
        "predictions": [{**good, "id": 7}, pred or good],
        "references": [{**good, "id": 7}, ref or good],
    }


def _entry_with(sentences) -> dict:
    return {"id": 8, "evidence": [{"doc_id": "11", "label": "SUPPORT", "sentences": sentences}]}


# Ints the metric's features cannot store (datasets would fail inside pyarrow on add_batch).
INT64_CASES = [
    InvalidCase(
        "sentence-beyond-int64",
        _two(_entry_with([1, 2**70])),
        ("predictions[1] (id 8)", "'evidence'[0]['sentences'][1]", "2**63-1", str(2**70)),
    ),
    InvalidCase(
        "gold-sentence-beyond-int64",
        _two(ref=_entry_with([2**63])),
        ("references[1] (id 8)", "'evidence'[0]['sentences'][0]", str(2**63)),
    ),
    InvalidCase(
        "id-beyond-int64",
        _two({"id": -(2**63) - 1, "evidence": []}),
        ("predictions[1]", "'id'", "signed 64-bit", str(-(2**63) - 1)),
    ),
]


def awkward(inputs: dict, rng: random.Random) -> dict:
    """Gold rationales unsorted (lists, and tuples in every other row), predicted sentences
    reversed, gold evidence lists as tuples, the row lists as tuples."""
    inputs = copy.deepcopy(inputs)
    for i, row in enumerate(inputs["references"]):
        for e in row["evidence"]:
            e["sentences"] = sorted(e["sentences"], reverse=True)
            if i % 2:
                e["sentences"] = tuple(e["sentences"])
        row["evidence"] = tuple(row["evidence"])
    for row in inputs["predictions"]:
        for e in row["evidence"]:
            e["sentences"].reverse()
            e["extra"] = {"scores": [0.5, [1, 2]]}  # nested keys the metric ignores
    return {k: tuple(v) for k, v in inputs.items()}


def scifact_entry(name: str):
    return dataclasses.replace(entry(name), invalid_cases=[*INVALID, *INT64_CASES], awkward=awkward)


ENTRY = scifact_entry("scifact_abstract")
