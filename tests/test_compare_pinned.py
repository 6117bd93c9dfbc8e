"""Published p-values and intervals do not move: ``compare_rows`` and ``intervals`` on fixed
systems and seeds give, bit for bit, the results recorded in ``data/compare_pinned.json``.

The record was made once, by the implementation that first published such numbers, for every
metric (two systems, both methods, a metric option where there is one) and is never regenerated
to make this test pass: a change here changes what users have reported. (TyDi QA GoldP's, added
with its metric's vectorized resamples, was made by the resample-by-resample code before them.
FEVER's entries were made again once, when its resampled sums got an order of their own: the
first ones held the sums of a matrix product, whose last bits were those of one CPU's BLAS
kernel, and other CPUs printed other digits. Its p-values and official scores did not move,
only last digits of interval ends and mean differences; ``test_compare_order.py`` checks that
every resample is now the official scorer's number of that resample.) It pins the random
streams (bootstrap draws and randomization swaps drawn from two independent streams of the
seed), the null distribution of the bootstrap test (the resampled differences centred on their
mean), the quantiles and every official score of every resample.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskeval.compare import compare_rows, intervals

CASES = json.loads((Path(__file__).parent / "data" / "compare_pinned.json").read_text("utf-8"))


def _case_id(case: dict) -> str:
    options = ",".join(f"{k}={v}" for k, v in case["options"].items())
    return f"{case['metric']}[{options}]" if options else case["metric"]


def _as_recorded(value):
    """The value as the record holds it (JSON keeps floats exactly and ints as ints)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("case", CASES, ids=_case_id)
@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_compare_results_are_the_recorded_ones(case, method):
    result = compare_rows(
        case["metric"],
        case["systems"],
        config_name=case["config_name"],
        method=method,
        resamples=300,
        seed=7,
        workers=1,
        **case["options"],
    )
    assert _as_recorded(result) == case["results"][method]


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_intervals_are_the_recorded_ones(case):
    result = intervals(
        case["metric"],
        case["systems"][0],
        config_name=case["config_name"],
        resamples=300,
        seed=2026,
        workers=1,
        **case["options"],
    )
    assert _as_recorded({k: list(v) for k, v in result.items()}) == case["results"]["intervals"]


def test_the_record_holds_both_methods_apart():
    for case in CASES:
        boot, perm = case["results"]["bootstrap"], case["results"]["randomization"]
        assert boot["systems"] == perm["systems"]  # the same bootstrap draws for the intervals
        p = [
            (b["p_value"], r["p_value"])
            for b, r in zip(
                boot["comparisons"][0]["scores"].values(), perm["comparisons"][0]["scores"].values()
            )
        ]
        assert any(b != r for b, r in p), case["metric"]
