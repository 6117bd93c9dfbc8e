"""Strings Arrow cannot store, escaped on the way in and restored before scoring
(metrics/_shared/checked_metric.py): every string reaches the scoring core as it was given, a
string that starts with the escape mark included, and one computation's escaping never reaches
the next.

fever_score stands for every metric (they all use the same mixin); its ``_compute`` is replaced
by one that records what it is given.
"""

from __future__ import annotations

import uuid

import pytest

import taskeval

MARK = "\ufdd0"  # what a stored escape starts with


def _row(page: str) -> tuple[dict, dict]:
    prediction = {"predicted_label": "SUPPORTS", "predicted_evidence": [[page, 0]]}
    reference = {"label": "SUPPORTS", "evidence": [[[None, None, page, 0]]]}
    return prediction, reference


def _batch(pages: list[str]) -> dict:
    rows = [_row(page) for page in pages]
    return {"predictions": [p for p, _ in rows], "references": [r for _, r in rows]}


def _pages(value) -> list[str]:
    """The strings nested in ``value`` in order, the labels left out."""
    if isinstance(value, str):
        return [] if value == "SUPPORTS" else [value]
    if isinstance(value, dict):
        value = value.values()
    return [page for item in value for page in _pages(item)] if hasattr(value, "__iter__") else []


@pytest.fixture
def recording():
    """fever_score whose scoring core records the pages it is given, per computation."""
    metric = taskeval.load("fever_score", experiment_id=uuid.uuid4().hex)
    seen: list[tuple[list, list]] = []

    def record(predictions, references):
        seen.append((_pages(predictions), _pages(references)))
        return {}

    metric._compute = record
    return metric, seen


def _computed(metric, seen, *batches: list[str]) -> tuple[list, list]:
    for pages in batches:
        metric.add_batch(**_batch(pages))
    metric.compute()
    return seen[-1]


@pytest.mark.parametrize(
    "batches",
    [
        [[MARK + "a", "b"]],  # nothing escaped: stored as given
        [["a", MARK + "b"], ["\ud800c", MARK + "d", MARK, MARK + "\udfffe"]],
        [["\ud800a", MARK + "b"], [MARK + MARK + "c", "d"]],
    ],
)
def test_strings_that_start_with_the_mark_reach_the_core_as_given(recording, batches):
    metric, seen = recording
    pages = [page for batch in batches for page in batch]
    assert _computed(metric, seen, *batches) == (pages, pages)


def test_a_computation_does_not_inherit_the_escaping_of_the_one_before(recording):
    metric, seen = recording
    first = ["a", "b", "\ud800c"]  # escaping starts at the third row (the second batch)
    assert _computed(metric, seen, first[:2], first[2:]) == (first, first)
    second = [MARK + "x", MARK + "y", "z"]  # none escaped unless the first's state is kept
    assert _computed(metric, seen, second) == (second, second)
    third = [MARK + "p", "\udfffq", MARK + "r"]
    assert _computed(metric, seen, third[:1], third[1:]) == (third, third)
    assert _computed(metric, seen, second) == (second, second)
