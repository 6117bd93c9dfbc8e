"""TyDi QA's resamples scored all at once (``ManyResamples`` in its contract) give, resample by
resample, exactly (``==``) what the core's own sweep gives, and ``compare`` the same results as
when it scores every resample with the core, on random data with ties in the scores.

The expected values come from the core's ``best_threshold``, ``language_values`` and
``macro_averages`` run on each resample's list of statistics, never from the vectorized code.
"""

from __future__ import annotations

import importlib
import json
import random
import tracemalloc

import numpy as np
import pytest

from taskeval._metrics.tydiqa import scoring as core
from taskeval._metrics.tydiqa import sweeps
from taskeval.compare import compare_rows
from taskeval.registry import contract

from entries.tydiqa import LANGUAGES, _prediction, random_rows
from harness import resample_one_by_one

compare_module = importlib.import_module("taskeval.compare")

# Few distinct scores (ties), 0 as an int and a float; credits a sum can add in any order
# (0, 1) and floats that it cannot, several per score.
SCORES = [0, 0.0, -0.0, 0.25, 0.5, 0.5, 1.0, 3.0, -1.0, 7.5]
CREDITS = [0, 0.0, 1.0, True, False, 0.1, 0.2, 0.3, 1 / 3, 0.7, 2 / 3]


def _stats(rng: random.Random, n: int, credits: list, both: bool) -> list[tuple]:
    out = []
    # Rare answers leave the first scores with credit and nothing predicted, when any credit
    # may come without a predicted answer to answerable gold.
    likely = 0.6 if both else rng.choice([0.6, 0.1])
    for _ in range(n):
        gold, predicted = rng.random() < likely, rng.random() < likely
        credit = rng.choice(credits)
        if both and not (gold and predicted):
            credit = 0  # as the core credits: a predicted answer to answerable gold only
        score = rng.choice(SCORES) if rng.random() < 0.8 else rng.uniform(-2, 2)
        out.append((gold, predicted, credit, score))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_best_points_are_the_core_sweep_of_each_resample(seed):
    rng = random.Random(seed)
    n = rng.choice([1, 2, 5, 40, 300])
    credits = CREDITS if seed % 3 else [0, 0.0, 1.0, True, False]  # float sums or counts
    stats = _stats(rng, n, credits, both=seed % 2 == 0)
    picks = np.random.default_rng(seed).integers(0, n, size=(150, rng.choice([1, n, 2 * n])))
    f1, precision, recall = sweeps.best_points(stats, picks)
    for b, row in enumerate(picks.tolist()):
        best, _ = core.best_threshold([stats[i] for i in row])
        assert (f1[b], precision[b], recall[b]) == tuple(best[:3]), (seed, b)


@pytest.mark.parametrize(
    "stats",
    [
        # credit on a first score with nothing predicted yet: the official precision is 0 there
        [(True, False, 1.0, 5.0), (True, True, 0, 1.0), (False, True, 0, 1.0)],
        # credit and no gold answer at all: the official recall is 0
        [(False, True, 0.5, 1.0), (False, True, 0.0, 2.0)],
    ],
)
def test_best_points_divide_by_zero_as_the_core(stats):
    picks = np.array([list(range(len(stats)))] * 2)
    best, _ = core.best_threshold(stats)
    assert [tuple(v.tolist()) for v in sweeps.best_points(stats, picks)] == [
        (x, x) for x in best[:3]
    ]


def _systems(seed: int, n: int = 400) -> list[dict]:
    """Two systems over the same random gold (several languages, scores with ties)."""
    rng = random.Random(seed)
    first = random_rows(rng, n)
    # The second system predicts the first's examples, with its own answers and scores.
    second = [
        _prediction(rng, p["example_id"], p["language"])
        if p.get("example_id") is not None and rng.random() < 0.95
        else {"example_id": None}
        for p in first["predictions"]
    ]
    return [first, {"predictions": second, "references": first["references"]}]


def _expected(parts: dict, rows: dict, b: int) -> dict:
    """The core's scoring of resample ``b``: per language, its sweep of the resampled units."""
    return core.macro_averages(
        {
            language: core.language_values(*([part[i] for i in rows[language][b]] for part in p))
            for language, p in parts.items()
        }
    )


@pytest.mark.parametrize("seed", range(6))
def test_many_resamples_score_as_the_core_scores_each(seed):
    statistics = contract("tydiqa").statistics(None, {})
    first, second = (statistics.units(system) for system in _systems(seed))
    rng = np.random.default_rng(seed)
    resamples = 60

    def pools(units) -> dict:
        parts, _, strata = units
        return {s: parts.get(s, ([], [])) for s in strata}

    # Bootstrap: units drawn with replacement, in draw order.
    for units in (first, second):
        parts = pools(units)
        rows = {
            s: rng.integers(0, max(len(p[0]), 1), size=(resamples, len(p[0])))
            for s, p in parts.items()
        }
        values = {s: statistics.many.stratum(s, p, rows[s]) for s, p in parts.items()}
        got = statistics.many.combine(values)
        for b in range(resamples):
            expected = _expected(parts, rows, b)
            assert {k: got[k][b] for k in core.AVG_KEYS} == expected, (seed, b)
            assert expected == statistics.score(
                {s: tuple([part[i] for i in rows[s][b]] for part in p) for s, p in parts.items()}
            )
    # Randomization: each unit taken from one system or the other (a pool of both).
    mine, theirs = pools(first), pools(second)
    shared = {
        s: tuple(a + b for a, b in zip(mine[s], theirs[s]))
        for s in first[0].keys() & second[0].keys()
    }
    assert shared
    rows = {}
    for s, pool in shared.items():
        m = len(pool[0]) // 2
        rows[s] = np.arange(m) + m * (rng.integers(0, 2, size=(resamples, m)) > 0)
    values = {s: statistics.many.stratum(s, pool, rows[s]) for s, pool in shared.items()}
    got = statistics.many.combine(values)
    for b in range(resamples):
        assert {k: got[k][b] for k in core.AVG_KEYS} == _expected(shared, rows, b), (seed, b)


def test_a_language_of_one_example_is_swept():
    statistics = contract("tydiqa").statistics(None, {})
    parts = {"arabic": ([(True, True, True, 1.5)], [(True, True, 0.5, 0.25)])}
    rows = {"arabic": np.zeros((3, 1), dtype=np.int64)}
    got = statistics.many.combine(
        {s: statistics.many.stratum(s, p, rows[s]) for s, p in parts.items()}
    )
    for b in range(3):
        expected = _expected(parts, rows, b)
        assert {k: got[k][b] for k in core.AVG_KEYS} == expected
    assert got["avg_passage_f1"][0] == 1.0


def test_ranks_past_sixteen_bits():
    """32,768 distinct scores: one more rank than a 16-bit sort key holds (their keys are
    64-bit then); partial credits are added in rank order, the official one."""
    rng = random.Random(5)
    n = 2**15
    scores = [float(i) for i in range(n)]
    rng.shuffle(scores)
    stats = [
        (True, True, rng.choice([0, 0.5, 0.25, 1 / 3]) if i % 3 else 0, score)
        for i, score in enumerate(scores)
    ]
    pool = sweeps.Pool(stats)
    assert pool.ranks == n and not pool.counted
    picks = np.random.default_rng(5).integers(0, n, size=(3, n))
    picks[0] = np.arange(n)
    got = sweeps.best_points(stats, picks, pool)
    for b, row in enumerate(picks.tolist()):
        best, _ = core.best_threshold([stats[i] for i in row])
        assert (got[0][b], got[1][b], got[2][b]) == tuple(best[:3]), b


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_no_example_at_all_gives_the_official_zeros(method):
    empty = {"predictions": [], "references": []}
    result = compare_rows("tydiqa", [empty, empty], method=method, resamples=20)
    for system in result["systems"]:
        assert system["scores"] == {k: {"score": 0, "low": 0.0, "high": 0.0} for k in core.AVG_KEYS}
    assert {s["p_value"] for s in result["comparisons"][0]["scores"].values()} == {1.0}


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_compare_gives_what_scoring_each_resample_gives(method, monkeypatch):
    systems = _systems(7, 300)
    fast = compare_rows("tydiqa", systems, method=method, resamples=120, seed=3, workers=1)
    # Chunks of a few resamples continue the same random streams.
    monkeypatch.setattr(compare_module, "_MANY_CELLS", 50)
    small = compare_rows("tydiqa", systems, method=method, resamples=120, seed=3, workers=1)
    resample_one_by_one(monkeypatch)
    slow = compare_rows("tydiqa", systems, method=method, resamples=120, seed=3, workers=1)
    assert json.dumps(fast) == json.dumps(slow)
    assert json.dumps(small) == json.dumps(slow)


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_the_threads_sweeping_the_chunks_change_no_number(method, monkeypatch):
    systems = _systems(5, 300)
    monkeypatch.setattr(compare_module, "_MANY_CELLS", 600)  # many chunks per stratum

    def run(threads: int, window: int) -> str:
        monkeypatch.setattr(compare_module, "_sweeping_threads", lambda: threads)
        monkeypatch.setattr(compare_module, "_WINDOW_CELLS", window)
        return json.dumps(compare_rows("tydiqa", systems, method=method, resamples=90, seed=4))

    alone = run(1, 1 << 20)
    assert run(2, 1 << 20) == alone  # one window
    assert run(2, 1500) == alone  # a window of a few chunks at a time
    assert run(3, 1) == alone  # a chunk at a time

    # Where no thread can be started (a limit on processes or memory), the work is done in the
    # calling thread: the same numbers.
    from concurrent.futures import ThreadPoolExecutor

    def refused(*args, **kwargs):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(ThreadPoolExecutor, "submit", refused)
    assert run(2, 1500) == alone


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_a_language_only_one_system_predicts_is_resampled_alike_both_ways(method, monkeypatch):
    """The second system answers one example under a language no gold has: a stratum of its
    own, with nothing to swap. Scored all at once and resample by resample: the same."""
    first, second = _systems(8, 300)
    gold_languages = {r["language"] for r in first["references"] if r.get("example_id")}
    other = next(language for language in LANGUAGES if language not in gold_languages)
    at = next(i for i, p in enumerate(second["predictions"]) if p.get("example_id") is not None)
    second["predictions"][at] = {**second["predictions"][at], "language": other}
    systems = [first, second]
    fast = compare_rows("tydiqa", systems, method=method, resamples=60, seed=5, workers=1)
    resample_one_by_one(monkeypatch)
    slow = compare_rows("tydiqa", systems, method=method, resamples=60, seed=5, workers=1)
    assert json.dumps(fast) == json.dumps(slow)


def test_the_chunks_are_scored_in_threads_where_two_cpus_may_run():
    import os
    from concurrent.futures import ThreadPoolExecutor

    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    if available is not None:
        assert compare_module._sweeping_threads() == min(2, available)
    submitted = []
    real = ThreadPoolExecutor.submit

    def counted(self, *args, **kwargs):
        submitted.append(1)
        return real(self, *args, **kwargs)

    jobs = [(1, lambda k=k: k * k, out) for k, out in enumerate([[] for _ in range(5)])]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ThreadPoolExecutor, "submit", counted)
        for threads, expected in ((1, 0), (2, 5), (3, 5)):
            submitted.clear()
            patch.setattr(compare_module, "_sweeping_threads", lambda t=threads: t)
            for _, _, out in jobs:
                out.clear()
            compare_module._in_order(iter(jobs))
            assert len(submitted) == expected, threads
            assert [out for _, _, out in jobs] == [[k * k] for k in range(5)]


def test_ten_thousand_resamples_in_bounded_memory():
    systems = _systems(11, 500)
    tracemalloc.start()
    try:
        compare_rows("tydiqa", systems, resamples=10_000, seed=1, workers=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # All draws at once would hold 10,000 x ~450 int64 (about 36 MB).
    assert peak < 20e6, peak


@pytest.mark.parametrize("n", [1, 2, 3, 1031, 20_000, 2**31 - 1])
def test_draws_are_those_of_the_64_bit_call(n):
    # The draws of today's resamples come from rng.integers(0, n, size) (int64), in one call
    # per stratum; ``_draw`` gives them as 32-bit ints, in chunks that continue the stream.
    expected = np.random.default_rng(n).integers(0, n, size=(37, 101))
    rng = np.random.default_rng(n)
    got = np.vstack([compare_module._draw(rng, n, (c, 101)) for c in (1, 16, 20)])
    assert got.dtype == np.int32 and (got == expected).all()
