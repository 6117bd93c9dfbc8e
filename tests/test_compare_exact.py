"""taskeval compare against known answers: exact p-values and interval endpoints.

Every expected value here comes from outside ``taskeval.compare``: from enumerating every
bootstrap resample or every randomization swap of a tiny sample with exact fractions, or from a
resampling result fixed by hand. Monte Carlo estimates are checked with tolerances of about six
standard deviations of their sampling error, and each check is chosen so that the bugs it guards
against (an unpaired bootstrap, a p-value without its +1, tails not halved, no tie tolerance,
both sides of a randomization given the same swapped units) move the result far outside it.
"""

from __future__ import annotations

import importlib
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from taskeval.compare import compare_rows, intervals
from taskeval.registry import metric_module

# The module itself (the package exports a function of the same name).
compare_module = importlib.import_module("taskeval.compare")

# ---------------------------------------------------------------------------------------------
# fever_score systems whose label_accuracy (and strict_score) is the share of claims marked 1.

GOLD = {"label": "SUPPORTS", "evidence": [[[None, None, "page", 0]]]}
RIGHT = {"predicted_label": "SUPPORTS", "predicted_evidence": [["page", 0]]}
WRONG = {"predicted_label": "REFUTES", "predicted_evidence": [["page", 0]]}


def _fever(*outcomes: str) -> list[dict]:
    """One fever_score system per string of 0/1 outcomes (1: the claim's label is right)."""
    refs = [GOLD] * len(outcomes[0])
    return [
        {"predictions": [RIGHT if c == "1" else WRONG for c in o], "references": refs}
        for o in outcomes
    ]


def _unit_differences(a: str, b: str) -> list[int]:
    return [int(y) - int(x) for x, y in zip(a, b)]


def _bootstrap_distribution(diffs: list[int]) -> Counter:
    """Exact distribution of a resample's mean difference over all n^n draws of n units.

    The n draws are independent and uniform, so the distribution of their sum is the n-fold
    convolution of one draw's (the n^n draws grouped by their sum).
    """
    n = len(diffs)
    sums = Counter({0: Fraction(1)})
    for _ in range(n):
        following: Counter = Counter()
        for total, probability in sums.items():
            for d in diffs:
                following[total + d] += probability / n
        sums = following
    return Counter({Fraction(total, n): probability for total, probability in sums.items()})


def _exact_bootstrap_p(diffs: list[int]) -> float:
    """P(|D - E[D]| >= |observed|) under the exact bootstrap distribution of D."""
    dist = _bootstrap_distribution(diffs)
    mean = sum(d * p for d, p in dist.items())
    observed = Fraction(sum(diffs), len(diffs))
    # The Monte Carlo mean is not exact: the case must have no null value at the boundary.
    assert all(abs(abs(d - mean) - abs(observed)) > Fraction(1, 100) for d in dist)
    return float(sum(p for d, p in dist.items() if abs(d - mean) >= abs(observed)))


def _exact_quantile(dist: Counter, q: float) -> Fraction:
    """The smallest value whose cumulative probability reaches q (kept off the jumps)."""
    cumulative = Fraction(0)
    for value in sorted(dist):
        cumulative += dist[value]
        # Far from q on both sides, so a large Monte Carlo sample finds the same value.
        assert abs(cumulative - q) > 0.005
        if cumulative >= q:
            return value
    raise AssertionError(q)


def _exact_randomization_p(diffs: list[int]) -> float:
    """P(|D'| >= |observed|) over all 2^n swaps (a swap flips the sign of a unit's difference)."""
    observed = abs(sum(diffs))
    signs = list(itertools.product((1, -1), repeat=len(diffs)))
    return sum(abs(sum(s * d for s, d in zip(sign, diffs))) >= observed for sign in signs) / len(
        signs
    )


def _mc_tolerance(p: float, resamples: int) -> float:
    return 6 * math.sqrt(max(p * (1 - p), 0.01) / resamples) + 2 / resamples


# 11 claims, each right for exactly one system: B alone on 9, A alone on 2. Every resample's
# difference then has an odd numerator over 11, never at the boundary of the centred test.
SMALL_A, SMALL_B = "00000000011", "11111111100"


def test_bootstrap_p_value_equals_the_exact_enumeration():
    diffs = _unit_differences(SMALL_A, SMALL_B)
    assert diffs == [1] * 9 + [-1] * 2
    exact = _exact_bootstrap_p(diffs)
    # resamples with at most 5 of the 9 claims B wins: 1 - P(Binomial(11, 9/11) >= 6)
    assert exact == pytest.approx(0.0072071, abs=1e-7)
    resamples = 20000
    result = compare_rows("fever_score", _fever(SMALL_A, SMALL_B), resamples=resamples, seed=11)
    entry = result["comparisons"][0]["scores"]["label_accuracy"]
    assert entry["difference"] == 9 / 11 - 2 / 11
    assert entry["p_value"] == pytest.approx(exact, abs=_mc_tolerance(exact, resamples))
    # the mean of the paired differences is the observed difference (an unbiased statistic)
    assert entry["mean_difference"] == pytest.approx(7 / 11, abs=0.01)


def test_bootstrap_interval_endpoints_are_the_exact_quantiles():
    """95%: the 2.5% and 97.5% quantiles; a 90% interval (tails not halved) fails this."""
    resamples = 20000
    systems = _fever(SMALL_A, SMALL_B)
    result = compare_rows("fever_score", systems, resamples=resamples, seed=5)
    diffs = _unit_differences(SMALL_A, SMALL_B)
    dist = _bootstrap_distribution(diffs)
    entry = result["comparisons"][0]["scores"]["label_accuracy"]
    # (the resampled differences are differences of float accuracies: equal up to rounding)
    assert (entry["low"], entry["high"]) == pytest.approx(
        (_exact_quantile(dist, 0.025), _exact_quantile(dist, 0.975)), abs=1e-12
    )
    assert (entry["low"], entry["high"]) == pytest.approx((1 / 11, 1.0), abs=1e-12)
    for system, outcomes in zip(result["systems"], (SMALL_A, SMALL_B)):
        single = _bootstrap_distribution([int(c) for c in outcomes])
        score = system["scores"]["label_accuracy"]
        assert score["score"] == outcomes.count("1") / 11
        assert (score["low"], score["high"]) == pytest.approx(
            (_exact_quantile(single, 0.025), _exact_quantile(single, 0.975)), abs=1e-12
        )
    # A 90% interval is the 5% and 95% quantiles, and it is narrower here.
    narrow = compare_rows("fever_score", systems, resamples=resamples, seed=5, confidence=0.9)
    entry90 = narrow["comparisons"][0]["scores"]["label_accuracy"]
    assert (entry90["low"], entry90["high"]) == pytest.approx(
        (_exact_quantile(dist, 0.05), _exact_quantile(dist, 0.95)), abs=1e-12
    )
    assert (entry90["low"], entry90["high"]) == pytest.approx((3 / 11, 1.0), abs=1e-12)


def test_randomization_p_value_equals_the_exact_enumeration():
    # Four claims where only B is right, two where both are: the swaps that matter are the four.
    a, b = "000011", "111111"
    diffs = _unit_differences(a, b)
    exact = _exact_randomization_p(diffs)
    assert exact == 2 / 16
    resamples = 20000
    result = compare_rows(
        "fever_score", _fever(a, b), method="randomization", resamples=resamples, seed=2
    )
    scores = result["comparisons"][0]["scores"]
    for key in ("label_accuracy", "strict_score"):
        assert scores[key]["difference"] == 1.0 - 2 / 6
        assert scores[key]["p_value"] == pytest.approx(exact, abs=_mc_tolerance(exact, resamples))
    # Evidence is the same on every claim: every swap gives the observed difference, 0.
    assert scores["evidence_precision"]["p_value"] == 1.0


def test_p_value_is_never_zero():
    """B right and A wrong on every claim: no resample is as extreme, so p = 1 / (B + 1)."""
    systems = _fever("0" * 20, "1" * 20)
    for method in ("bootstrap", "randomization"):
        result = compare_rows("fever_score", systems, method=method, resamples=999, seed=4)
        entry = result["comparisons"][0]["scores"]["label_accuracy"]
        assert entry["difference"] == 1.0
        assert entry["p_value"] == 1 / 1000
        if method == "bootstrap":
            # every resample has the same difference: a degenerate interval at the observed one
            assert entry["low"] == entry["high"] == entry["mean_difference"] == 1.0


def test_paired_bootstrap_finds_a_difference_only_pairing_reveals():
    """200 claims: both systems right on 100, wrong on 90; B alone right on 10.

    Paired, a resample's difference counts only those 10 claims (a Poisson(10)-like count out
    of 200), so the 95% interval stays above 0 and the p-value is about 0.003. Resampling each
    system on its own draws gives a standard error of about 0.05 for a difference of 0.05, an
    interval through 0 and a p-value near 0.3: an unpaired bootstrap fails both checks.
    """
    a = "1" * 100 + "0" * 100
    b = "1" * 100 + "1" * 10 + "0" * 90
    result = compare_rows("fever_score", _fever(a, b), resamples=4000, seed=9)
    entry = result["comparisons"][0]["scores"]["label_accuracy"]
    assert entry["difference"] == pytest.approx(0.05, abs=1e-15)
    assert 0.015 <= entry["low"] <= 0.03 and 0.07 <= entry["high"] <= 0.085
    assert entry["p_value"] < 0.02
    # Each system's own interval is wide: what an unpaired comparison would go by.
    for system in result["systems"]:
        s = system["scores"]["label_accuracy"]
        assert s["high"] - s["low"] > 0.12


# ---------------------------------------------------------------------------------------------
# Resampling results fixed by hand: compare_rows turns them into intervals and p-values.


@pytest.fixture
def fixed_resamples(monkeypatch):
    """Replace the resampling by given arrays (per system; per comparison for the null)."""

    def install(boot: list[np.ndarray], perm: list[np.ndarray] | None = None, units: int = 7):
        def fake(a, systems, method, resamples, seed, workers):
            assert len(boot[0]) == resamples
            as_dict = [{key: values for key in a.keys} for values in boot]
            null = None if perm is None else [{key: values for key in a.keys} for values in perm]
            return as_dict, null, units

        monkeypatch.setattr(compare_module, "_resample", fake)

    return install


def test_interval_endpoints_are_at_the_tail_quantiles(fixed_resamples):
    # Resamples 0, 1, ..., 1000 (shuffled): the q-quantile is 1000 q (up to rounding).
    rng = np.random.default_rng(0)
    values = rng.permutation(np.arange(1001, dtype=np.float64))
    fixed_resamples([np.zeros(1001), values])
    systems = _fever("01", "11")
    for confidence, (low, high) in ((0.95, (25.0, 975.0)), (0.9, (50.0, 950.0)), (0.5, (250.0, 750.0))):  # fmt: skip
        result = compare_rows("fever_score", systems, resamples=1001, confidence=confidence)
        score = result["systems"][1]["scores"]["label_accuracy"]
        assert (score["low"], score["high"]) == pytest.approx((low, high), abs=1e-9)
        assert score["score"] == 1.0  # the official number, not a resampled one
        diff = result["comparisons"][0]["scores"]["label_accuracy"]
        assert (diff["low"], diff["high"]) == pytest.approx((low, high), abs=1e-9)
        assert diff["mean_difference"] == 500.0 and diff["difference"] == 0.5
        baseline = result["systems"][0]["scores"]["label_accuracy"]
        assert (baseline["low"], baseline["high"]) == (0.0, 0.0)
    assert compare_rows("fever_score", systems, resamples=1001)["units"] == 7


def test_bootstrap_p_value_counts_centred_resamples_at_least_as_far(fixed_resamples):
    # Differences 0.5 + c for c in -3..3 (steps of 0.25): centred at 0.5, |c| >= 0.5 for 4 of 7
    # (the boundary ones included), so p = (4 + 1) / (7 + 1).
    diffs = 0.5 + np.array([-0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75])
    fixed_resamples([np.zeros(7), diffs])
    result = compare_rows("fever_score", _fever("01", "11"), resamples=7)
    entry = result["comparisons"][0]["scores"]["label_accuracy"]
    assert entry["difference"] == 0.5
    assert entry["p_value"] == 5 / 8


def test_randomization_p_value_counts_null_differences_at_least_as_large(fixed_resamples):
    null = np.array([-0.5, -0.4999, 0.0, 0.25, 0.5, 0.75, -0.6])
    fixed_resamples([np.zeros(7), np.zeros(7)], [null])
    result = compare_rows("fever_score", _fever("01", "11"), method="randomization", resamples=7)
    entry = result["comparisons"][0]["scores"]["label_accuracy"]
    assert entry["difference"] == 0.5
    assert entry["p_value"] == (4 + 1) / (7 + 1)  # -0.5, 0.5, 0.75 and -0.6


def test_differences_equal_up_to_rounding_count_as_ties(fixed_resamples):
    """0.4 - 0.2 and 0.3 - 0.1 are the same difference of accuracies; in floats the second is
    0.19999999999999998. Without a tie tolerance, none of these resamples would count."""
    observed = 0.4 - 0.2
    rounded = 0.3 - 0.1
    assert rounded < observed
    null = np.array([rounded, -rounded] * 5)
    fixed_resamples([np.zeros(10), np.zeros(10)], [null])
    # A right on 2 of 10 claims, B on 4: the observed difference is 0.4 - 0.2.
    systems = _fever("1100000000", "1111000000")
    result = compare_rows("fever_score", systems, method="randomization", resamples=10)
    entry = result["comparisons"][0]["scores"]["label_accuracy"]
    assert entry["difference"] == observed
    assert entry["p_value"] == 1.0
    # Centred bootstrap differences: the same rounding, the same ties.
    fixed_resamples([np.zeros(10), observed + null])
    result = compare_rows("fever_score", systems, resamples=10)
    assert result["comparisons"][0]["scores"]["label_accuracy"]["p_value"] == 1.0


def test_intervals_of_one_system(fixed_resamples):
    values = np.arange(101, dtype=np.float64)
    fixed_resamples([values])
    bounds = intervals("fever_score", _fever("01")[0], resamples=101, confidence=0.9)
    assert list(bounds) == list(metric_module("fever_score", "scoring").OUTPUT_KEYS)
    assert bounds["label_accuracy"] == pytest.approx((5.0, 95.0), abs=1e-9)


# ---------------------------------------------------------------------------------------------
# TyDi QA: approximate randomization within each language, against every swap enumerated.


def _tydi_reference(example_id: int, language: str) -> dict:
    # Three annotators agree on passage 0 and give no minimal answer.
    annotation = {"candidate_index": 0, "start_byte": -1, "end_byte": -1, "yes_no_answer": "none"}
    return {"example_id": example_id, "language": language, "annotations": [annotation] * 3}


def _tydi_prediction(example_id: int, language: str, passage: int, score: float) -> dict:
    return {
        "example_id": example_id,
        "language": language,
        "passage_answer_index": passage,
        "passage_answer_score": score,
        "minimal_answer": {"start_byte_offset": -1, "end_byte_offset": -1},
        "minimal_answer_score": 0.0,
        "yes_no_answer": "none",
    }


# Per example: (language, system A's (passage, score), system B's (passage, score)).
TYDI_EXAMPLES = [
    ("finnish", (1, 5.0), (0, 4.0)),
    ("finnish", (0, 3.0), (0, 6.0)),
    ("finnish", (1, 2.0), (0, 1.0)),
    ("swahili", (1, 4.5), (0, 2.5)),
    ("swahili", (-1, 0.5), (0, 3.5)),
    ("swahili", (0, 1.5), (1, 7.0)),
]


def _tydi_systems(swap: tuple[bool, ...] = (False,) * len(TYDI_EXAMPLES)) -> list[dict]:
    refs = [_tydi_reference(100 + i, lang) for i, (lang, _, _) in enumerate(TYDI_EXAMPLES)]
    a, b = [], []
    for i, ((lang, pa, pb), swapped) in enumerate(zip(TYDI_EXAMPLES, swap)):
        if swapped:
            pa, pb = pb, pa
        a.append(_tydi_prediction(100 + i, lang, *pa))
        b.append(_tydi_prediction(100 + i, lang, *pb))
    return [{"predictions": a, "references": refs}, {"predictions": b, "references": refs}]


def _tydi_exact_p_values() -> dict[str, float]:
    """Score both systems on each of the 64 swaps with the metric itself; count |d| >= |obs|."""
    core = metric_module("tydiqa", "scoring")

    def difference(swap):
        first, second = (core.tydiqa_score(**s) for s in _tydi_systems(swap))
        return {k: second[k] - first[k] for k in core.AVG_KEYS}

    observed = difference((False,) * len(TYDI_EXAMPLES))
    swaps = list(itertools.product((False, True), repeat=len(TYDI_EXAMPLES)))
    null = [difference(s) for s in swaps]
    return {
        k: sum(abs(d[k]) >= abs(observed[k]) - 1e-12 for d in null) / len(swaps) for k in observed
    }


def test_tydiqa_randomization_p_values_equal_the_exact_enumeration():
    exact = _tydi_exact_p_values()
    # Known answers of this case: B clearly better on passages; no minimal answers anywhere.
    assert exact["avg_passage_f1"] == 20 / 64
    assert exact["avg_minimal_f1"] == 1.0
    resamples = 3000
    result = compare_rows(
        "tydiqa", _tydi_systems(), method="randomization", resamples=resamples, seed=3, workers=1
    )
    scores = result["comparisons"][0]["scores"]
    for key, p in exact.items():
        assert scores[key]["p_value"] == pytest.approx(p, abs=_mc_tolerance(p, resamples)), key
    assert result["units"] == 6


def test_tydiqa_randomization_with_one_differing_example_has_p_one():
    """Swapping the one example where the systems differ negates the difference exactly."""
    systems = _tydi_systems()
    same = [dict(p) for p in systems[0]["predictions"]]
    same[1] = dict(same[1], passage_answer_score=9.0)
    result = compare_rows(
        "tydiqa",
        [systems[0], {"predictions": same, "references": systems[0]["references"]}],
        method="randomization",
        resamples=200,
        seed=1,
        workers=1,
    )
    scores = result["comparisons"][0]["scores"]
    assert scores["avg_passage_f1"]["difference"] != 0
    assert all(entry["p_value"] == 1.0 for entry in scores.values())


def test_tydiqa_randomization_with_a_language_only_one_system_predicts():
    """Finnish predicted by B alone (A has placeholder rows there): A's macro average leaves
    finnish out, and its units cannot be swapped. The exact p-values enumerate the swaps of
    the swahili examples only, scored by the metric itself. (Finnish sorts first, so the
    strata after it must still be swapped.)"""
    core = metric_module("tydiqa", "scoring")
    shared = [i for i, (lang, _, _) in enumerate(TYDI_EXAMPLES) if lang == "swahili"]

    def systems(swap):
        full = _tydi_systems(tuple(i in swap for i in range(len(TYDI_EXAMPLES))))
        a = [
            p if p["language"] == "swahili" else {"example_id": None}
            for p in full[0]["predictions"]
        ]
        b = [
            p if p["language"] == "swahili" else q
            for p, q in zip(full[1]["predictions"], _tydi_systems()[1]["predictions"])
        ]
        return [
            {"predictions": a, "references": full[0]["references"]},
            {"predictions": b, "references": full[0]["references"]},
        ]

    def difference(swap):
        first, second = (core.tydiqa_score(**s) for s in systems(swap))
        return {k: second[k] - first[k] for k in core.AVG_KEYS}

    observed = difference(())
    subsets = [c for r in range(len(shared) + 1) for c in itertools.combinations(shared, r)]
    null = [difference(c) for c in subsets]
    exact = {
        k: sum(abs(d[k]) >= abs(observed[k]) - 1e-12 for d in null) / len(subsets) for k in observed
    }
    assert exact["avg_passage_f1"] == 5 / 8
    resamples = 2000
    result = compare_rows(
        "tydiqa", systems(()), method="randomization", resamples=resamples, seed=6, workers=1
    )
    scores = result["comparisons"][0]["scores"]
    for key, p in exact.items():
        assert scores[key]["difference"] == observed[key]
        assert scores[key]["p_value"] == pytest.approx(p, abs=_mc_tolerance(p, resamples)), key
