"""Sums and means in numpy's order of additions, checked against the installed numpy on random
lists of every length up to 600 and around a block of 128 and numpy's buffer of 8,192 values."""

from __future__ import annotations

import random

import numpy as np
import pytest

from taskeval._metrics.averitec import float_sums

LENGTHS = [*range(0, 300), 511, 512, 513, 599, 1000, 8191, 8192]


def _values(rng: random.Random, n: int) -> list[float]:
    return [
        rng.choice([rng.random(), rng.random() * 1e-8, 1 / rng.randint(1, 97), rng.random() * 1e6])
        for _ in range(n)
    ]


@pytest.mark.parametrize("n", LENGTHS)
def test_numpy_order(n: int) -> None:
    rng = random.Random(n)
    for _ in range(5):
        values = _values(rng, n)
        assert float_sums.numpy_sum(values) == float(np.asarray(values).sum())
        if values:
            assert float_sums.numpy_mean(values) == float(np.mean(values))


def test_the_order_is_not_left_to_right() -> None:
    # Eight values: numpy adds ((a0+a1)+(a2+a3))+((a4+a5)+(a6+a7)), not a0+a1+...+a7.
    values = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 1e16]
    left_to_right = 0.0
    for value in values:
        left_to_right += value
    assert float_sums.numpy_sum(values) == 1.0000000000000004e16
    assert float_sums.numpy_sum(values) != left_to_right


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 16, 127, 128, 129, 300, 1000])
def test_a_column_mean_sums_down_the_rows(n: int) -> None:
    # np.mean(array, axis=0) of a claims-by-thresholds array: the rows added one after the
    # other (the 2023 justification scores at each threshold).
    rng = random.Random(n)
    rows = [[v if rng.random() < 0.7 else 0.0 for v in _values(rng, 6)] for _ in range(n)]
    means = np.mean(np.array(rows), axis=0)
    for j in range(6):
        assert float_sums.column_mean([row[j] for row in rows]) == float(means[j])
