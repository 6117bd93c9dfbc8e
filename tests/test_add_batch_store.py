"""add_batch() stores checked rows in evaluate's Arrow cache without evaluate's per-value
encoding (a Python call per value, most of a big add_batch's time): that encoding must leave
every metric's checked rows unchanged, or the rows stored would differ from evaluate's own.
"""

from __future__ import annotations

import copy
import random

import pytest

import taskeval

from harness import MetricEntry, assert_same, entries

CASES = [
    pytest.param(entry, config, id=f"{entry.name}-{config}" if config else entry.name)
    for entry in entries()
    for config in entry.configs
]


def _variants(entry: MetricEntry) -> list[dict]:
    rng = random.Random(f"store-{entry.name}")
    inputs = entry.random_inputs(rng, 12)
    out = [inputs]
    if entry.awkward is not None:
        out.append(entry.awkward(copy.deepcopy(inputs), rng))
    return out


@pytest.mark.parametrize(("entry", "config"), CASES)
def test_evaluate_encoding_leaves_checked_rows_as_they_are(entry, config):
    metric = taskeval.load(entry.name, config)
    features = metric.info.features
    for inputs in _variants(entry):
        predictions, references = metric._checked_rows(
            inputs["predictions"], inputs["references"], 0
        )
        checked = {"predictions": predictions, "references": references}
        assert_same(features.encode_batch(copy.deepcopy(checked)), checked, entry.name)


@pytest.mark.parametrize(("entry", "config"), CASES)
def test_add_batch_in_chunks_scores_as_compute(entry, config):
    metric = taskeval.load(entry.name, config)
    for inputs in _variants(entry):
        options = entry.options[-1]
        expected = metric.compute(**inputs, **options)
        for lo in range(0, 12, 5):
            metric.add_batch(
                predictions=inputs["predictions"][lo : lo + 5],
                references=inputs["references"][lo : lo + 5],
            )
        assert_same(metric.compute(**options), expected, entry.name)
