"""Each resample's numbers are the official scorer's numbers of that resample, bit for bit.

A bootstrap resample is a list of claims, in the order drawn; a randomization resample gives
each system, claim by claim in file order, its own prediction or the other system's. Both are
scored here by the real official code (``fever-scorer`` 2.0.39, installed by
``scripts/install-official-fever.sh``) and compared with ``==`` to what ``compare`` resamples
all at once. FEVER is the metric whose unit statistics are fractions (evidence precision and
recall per claim): their sums depend on the order of the additions, which a matrix product
would leave to the BLAS kernel. The helpers of ``taskeval.ordered`` are checked here against
plain loops and numpy.
"""

from __future__ import annotations

import copy
import functools
import importlib
import math
import operator
import os
import random

import numpy as np
import pytest

from taskeval import ordered
from taskeval.units import adapter

from entries.fever_score import random_rows

if os.environ.get("CI"):
    from fever.scorer import fever_score as official_fever_score
else:
    official_fever_score = pytest.importorskip("fever.scorer").fever_score

compare_module = importlib.import_module("taskeval.compare")

KEYS = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall", "evidence_f1")


class RecordingGenerator:
    """A numpy generator that keeps every array ``integers`` gives, in order."""

    def __init__(self, seed: int) -> None:
        self.generator = np.random.default_rng(seed)
        self.drawn: list[np.ndarray] = []

    def integers(self, *args, **kwargs) -> np.ndarray:
        out = self.generator.integers(*args, **kwargs)
        self.drawn.append(out.copy())
        return out

    def rows(self) -> np.ndarray:
        return np.concatenate(self.drawn)


def _official(system: dict, order, max_evidence) -> dict[str, float]:
    """The official scorer's numbers of the claims ``order`` of ``system``, in that order."""
    merged = [
        {**copy.deepcopy(system["predictions"][i]), **copy.deepcopy(system["references"][i])}
        for i in order
    ]
    return dict(zip(KEYS, official_fever_score(merged, max_evidence=max_evidence)))


def _systems(seed: int, n: int) -> list[dict]:
    rng = random.Random(seed)
    first = random_rows(rng, n)
    second = random_rows(rng, n)
    second["references"] = first["references"]
    return [first, second]


CASES = [
    (seed, n, max_evidence)
    for seed, n in ((1, 1), (2, 9), (3, 40), (4, 301))
    for max_evidence in (5, None)
]


@pytest.mark.parametrize("cells", [None, 7])
@pytest.mark.parametrize(("seed", "n", "max_evidence"), CASES)
def test_every_bootstrap_resample_is_the_official_score_of_its_claims_in_drawn_order(
    monkeypatch, seed, n, max_evidence, cells
):
    if cells is not None:  # chunks and draws of a row or two: the sums cross their edges
        monkeypatch.setattr(compare_module, "_CELLS", cells)
        monkeypatch.setattr(compare_module, "_MANY_CELLS", cells)
    systems = _systems(seed, n)
    a = adapter("fever_score", max_evidence=max_evidence)
    stats = [a.units(system).stats for system in systems]
    rng = RecordingGenerator(seed)
    boot = compare_module._bootstrap_sums(a, stats, 25, rng)
    draws = rng.rows()
    assert draws.shape == (25, n)
    fractions = 0
    for b, order in enumerate(draws.tolist()):
        for system, values in zip(systems, boot):
            expected = _official(system, order, max_evidence)
            assert {k: values[k][b].item() for k in KEYS} == expected, (b, order)
            fractions += any(v not in (0.0, 1.0) for v in expected.values())
    assert fractions or n == 1  # fractional sums were compared, not only counts


@pytest.mark.parametrize("cells", [None, 7])
@pytest.mark.parametrize(("seed", "n", "max_evidence"), CASES)
def test_every_randomization_resample_is_the_official_difference_of_the_swapped_systems(
    monkeypatch, seed, n, max_evidence, cells
):
    if cells is not None:
        monkeypatch.setattr(compare_module, "_CELLS", cells)
        monkeypatch.setattr(compare_module, "_MANY_CELLS", cells)
    first, second = _systems(seed, n)
    third = _systems(seed + 100, n)[1]
    third["references"] = first["references"]
    a = adapter("fever_score", max_evidence=max_evidence)
    stats = [a.units(system).stats for system in (first, second, third)]
    rng = RecordingGenerator(seed)
    diffs = compare_module._randomization_sums(a, stats, 20, rng)
    swaps = rng.rows()
    assert swaps.shape == (20, n)
    for other, values in zip((second, third), diffs):
        for b, swapped in enumerate(swaps.tolist()):
            # Claim by claim, each swapped system takes the other's prediction.
            takes_other = [(other if s else first)["predictions"][i] for i, s in enumerate(swapped)]
            keeps_other = [(first if s else other)["predictions"][i] for i, s in enumerate(swapped)]
            scores = [
                _official(
                    {"predictions": p, "references": first["references"]}, range(n), max_evidence
                )
                for p in (takes_other, keeps_other)
            ]
            expected = {k: scores[1][k] - scores[0][k] for k in KEYS}
            assert {k: values[k][b].item() for k in KEYS} == expected, (b, swapped)


def test_sums_in_drawn_order_add_one_value_after_the_other():
    rng = np.random.default_rng(5)
    values = rng.random((40, 333)) * 10.0 ** rng.integers(-8, 8, size=(40, 333))
    values[3] = -0.0
    expected = []
    for row in values.tolist():
        total = 0.0
        for value in row:
            total += value
        expected.append(total)
    found = ordered.in_drawn_order(values.copy())
    assert found.tolist() == expected
    assert math.copysign(1.0, found[3]) == 1.0  # 0 + -0.0 is 0.0, as the official loop's
    assert np.sum(values, axis=1).tolist() != expected  # pairwise sums differ: the test can
    assert ordered.in_drawn_order(np.empty((3, 0))).tolist() == [0.0, 0.0, 0.0]


def test_only_integer_columns_with_exact_sums_are_counted():
    assert ordered.is_counted(np.array([0.0, 1.0, 3.0, -2.0]), 1000)
    assert ordered.is_counted(np.array([]), 10)
    assert not ordered.is_counted(np.array([0.0, 0.5]), 10)
    assert not ordered.is_counted(np.array([0.0, np.nan]), 10)
    assert not ordered.is_counted(np.array([0.0, np.inf]), 10)
    assert ordered.is_counted(np.array([2.0**40]), 2**12)
    assert not ordered.is_counted(np.array([2.0**40]), 2**13)  # sums could pass 2**53


def _pairwise_sum(values: list[float]) -> float:
    """numpy's pairwise sum of a contiguous float64 array, read from its source
    (``pairwise_sum`` in ``loops_utils.h``): eight running sums for up to 128 values."""
    n = len(values)
    if n < 8:
        total = -0.0
        for value in values:
            total += value
        return total
    if n <= 128:
        whole = n - n % 8
        lanes = []
        for lane in range(8):
            running = values[lane]
            for value in values[lane + 8 : whole : 8]:
                running += value
            lanes.append(running)
        total = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + (
            (lanes[4] + lanes[5]) + (lanes[6] + lanes[7])
        )
        for value in values[whole:]:
            total += value
        return total
    half = n // 2 - (n // 2) % 8
    return _pairwise_sum(values[:half]) + _pairwise_sum(values[half:])


@pytest.mark.parametrize("seed", range(40))
def test_the_mean_adds_in_the_pairwise_order_of_the_published_intervals(seed):
    """The order of ``numpy.mean`` over the resamples when the intervals were first published
    (numpy 2.4, one pairwise sum of the whole array). numpy 2.0 sums arrays longer than its
    8,192-value buffer block by block, to other last bits: the order is this code's, whatever
    numpy does."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 5, 7, 8, 9, 127, 128, 129, 300, 1000, 1001, 4099, 8192, 8193, 10000]))
    values = rng.standard_normal(n) * 10.0 ** float(rng.integers(-12, 12))
    expected = (0.0 + _pairwise_sum(values.tolist())) / n
    assert ordered.mean(values) == ordered.mean(values.tolist()) == expected
    if n <= 8192:  # one buffer: every numpy 2 release sums it so
        assert expected == float(np.mean(values))


@pytest.mark.parametrize("n", range(1, 40))
def test_the_mean_of_a_few_values_at_each_length(n):
    """Below 8 values one by one, from 8 on in eight running sums: both sides of each edge."""
    values = [(1.0 + 2.0**-52) * 10.0 ** (i % 7 - 3) * (-1) ** i for i in range(n)]
    expected = (0.0 + _pairwise_sum(values)) / n
    assert ordered.mean(values) == expected == float(np.mean(np.array(values)))


def test_eight_values_are_added_in_running_sums_not_one_by_one():
    values = [1e16, 1.0, -1e16, 1.0, 1.0, 1.0, 1.0, 1.0]
    assert ordered.mean(values) == 0.5  # ((1e16+1) + (-1e16+1)) + ((1+1) + (1+1)): 4 / 8
    assert functools.reduce(operator.add, values, 0) / 8 == 0.625  # one by one: 5 / 8


def test_the_mean_of_many_resamples_is_numpy_2_4s_on_any_numpy():
    values = [((i * 7919) % 10007) / 3.0 - 1600.0 for i in range(10_000)]
    assert ordered.mean(values) == 67.88593333333333  # numpy 2.4's np.mean
    # Left to right, and numpy 2.0's np.mean (8,192 values, then the rest), give other bits.
    assert functools.reduce(operator.add, values, 0) / len(values) == 67.88593333333336


def test_the_mean_of_fixed_values():
    values = [0.2 * i + 1 / (i + 3) for i in range(1, 301)]
    assert ordered.mean(values) == 30.114864214648048
    assert functools.reduce(operator.add, values, 0) / 300 == 30.11486421464804  # left to right
    assert math.isnan(ordered.mean([]))
    assert ordered.mean([-0.0]) == 0.0 and math.copysign(1.0, ordered.mean([-0.0])) == 1.0


@pytest.mark.parametrize("width", [1, 2, 3, 5])
def test_float_columns_two_by_two_are_each_column_added_alone(width):
    rng = np.random.default_rng(width)
    values = rng.standard_normal((width, 50)) * 10.0 ** rng.integers(-9, 9, size=(width, 50))
    values[:, ::7] = 0.0
    drawn = rng.integers(0, 50, size=(6, 80))
    found = ordered.Columns(values).drawn(drawn)
    for j in range(width):
        alone = ordered.in_drawn_order(values[j][drawn])
        assert found[:, j].tolist() == alone.tolist()
    assert ordered.Columns(values).drawn(drawn[:, :0]).tolist() == [[0.0] * width] * 6


def test_counts_in_words_are_the_exact_integer_sums():
    rng = np.random.default_rng(9)
    units = 500
    values = np.stack(
        [
            rng.integers(0, 2, units),  # flags
            rng.integers(-40, 3, units),  # negative values
            np.full(units, 7),  # a constant: a field of no bits
            rng.integers(0, 2**30, units),  # wide: words of their own
            rng.integers(0, 2**30, units),
            rng.integers(0, 5, units),
        ]
    ).astype(np.float64)
    counts = ordered.Counts(values, units)
    assert len(counts.words) > 1
    constant_first = ordered.Counts(values[[2, 0, 1]], units)  # a field of no bits first
    assert constant_first.drawn(np.arange(units)[None]).tolist() == [
        [sum(int(v) for v in values[j]) for j in (2, 0, 1)]
    ]
    drawn = rng.integers(0, units, size=(40, units))
    expected = [[sum(int(v) for v in column[row]) for column in values] for row in drawn]
    assert counts.drawn(drawn).tolist() == expected
