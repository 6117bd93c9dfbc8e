"""fever_score against the real official scorer (fever-scorer 2.0.39) on random valid input.

``scripts/install-official-fever.sh`` installs the official package; only a machine without it
(never CI) skips these tests.
"""

from __future__ import annotations

import copy
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import taskeval
from taskeval._metrics.fever_score.scoring import fever_score

from entries.fever_score import random_rows

if os.environ.get("CI"):
    from fever.scorer import fever_score as official_fever_score
else:
    official_fever_score = pytest.importorskip("fever.scorer").fever_score

OFFICIAL_KEYS = (
    "strict_score",
    "label_accuracy",
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
)
NEI = "NOT ENOUGH INFO"

labels = st.sampled_from(
    ["SUPPORTS", "REFUTES", NEI, "supports", "Refutes", "not enough info", "NEI", "NOT_ENOUGH_INFO"]
)
pages = st.sampled_from(
    ["A", "B", "Page_one", "Page one", "Beyonce\u0301", "Beyoncé", "Ωmega"]
) | st.text(max_size=3)
lines = st.integers(min_value=-1, max_value=3)
sentence = st.tuples(pages, lines).map(list)
gold_item = st.tuples(
    st.none() | st.integers(0, 5),
    st.none() | st.integers(0, 5),
    pages | st.none(),
    lines | st.none(),
).map(list)


@st.composite
def instance(draw):
    gold_label = draw(labels)
    if gold_label == NEI and draw(st.booleans()):
        evidence = [[[draw(st.integers(0, 9)), None, None, None]]]
    else:
        evidence = draw(st.lists(st.lists(gold_item, max_size=3), max_size=3))
    predicted = draw(st.lists(sentence, max_size=8))
    if evidence and draw(st.booleans()):  # plant one gold group so recall and strict are exercised
        group = draw(st.sampled_from(evidence))
        for item in group:
            if isinstance(item[2], str) and isinstance(item[3], int):
                predicted.insert(draw(st.integers(0, len(predicted))), [item[2], item[3]])
    predicted_label = draw(st.sampled_from([gold_label, gold_label.lower()]) | labels)
    return (
        {"predicted_label": predicted_label, "predicted_evidence": predicted},
        {"label": gold_label, "evidence": evidence},
    )


max_evidence = st.none() | st.integers(min_value=-2, max_value=7)


def official(predictions, references, max_evidence):
    merged = [{**copy.deepcopy(p), **copy.deepcopy(r)} for p, r in zip(predictions, references)]
    return dict(zip(OFFICIAL_KEYS, official_fever_score(merged, max_evidence=max_evidence)))


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.lists(instance(), min_size=1, max_size=12), max_evidence)
def test_core_equals_official(rows, max_evidence):
    predictions, references = [p for p, _ in rows], [r for _, r in rows]
    ours = fever_score(predictions, references, max_evidence=max_evidence)
    assert ours == official(predictions, references, max_evidence)


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(instance(), min_size=1, max_size=12), max_evidence)
def test_compute_equals_official(rows, max_evidence):
    predictions, references = [p for p, _ in rows], [r for _, r in rows]
    metric = _metric()
    ours = metric.compute(predictions=predictions, references=references, max_evidence=max_evidence)
    assert ours == official(predictions, references, max_evidence)


_cache = {}


def _metric():
    if "m" not in _cache:
        _cache["m"] = taskeval.load("fever_score")
    return _cache["m"]


@pytest.mark.parametrize("seed", range(4))
def test_many_random_claims_equal_official(seed):
    """Thousands of claims from the harness generator, under every max_evidence bound."""
    inputs = random_rows(random.Random(seed), 5000)
    for bound in (None, -1, 0, 1, 5, 7):
        assert fever_score(**inputs, max_evidence=bound) == official(**inputs, max_evidence=bound)


def test_long_sequential_sum_matches_official():
    """Many per-claim precisions: only left-to-right summation gives the official last bit."""
    rng = random.Random(5)
    predictions, references = [], []
    for _ in range(5000):
        gold = [[f"P{rng.randint(0, 30)}", rng.randint(0, 9)] for _ in range(rng.randint(1, 3))]
        predictions.append(
            {
                "predicted_label": "SUPPORTS",
                "predicted_evidence": [
                    [f"P{rng.randint(0, 30)}", rng.randint(0, 9)] for _ in range(rng.randint(1, 7))
                ],
            }
        )
        references.append({"label": "SUPPORTS", "evidence": [[[0, 0, *g] for g in gold]]})
    assert fever_score(predictions, references) == official(predictions, references, 5)
