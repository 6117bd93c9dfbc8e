"""The official threshold sweep (``scoring.best_threshold``) on many resamples at once, in numpy.

A resample lists units of a pool (the per-example ``(gold_has, pred_has, credit, score)`` of one
task) in the order the official loop visits them. The sweep sorts them by score, highest first,
ties in that order, and records precision and recall at the end of each run of equal scores.
Ranking the pool's distinct scores once turns every resample's sweep into counts per rank: how
many examples of each rank have a gold answer, a predicted one, and their credits, summed up
rank after rank. Integer credits (passages, yes/no answers, exact spans) add up exactly in any
order. Float credits (partial span F1) are added one by one in the official order, a cumulative
sum along each resample's units sorted by rank (a stable sort keeps the visiting order within
ties), so every float is the official one. Only the best point's F1, precision and recall are
computed: the headline macro means are made of them alone.

Used by ``contract.py`` (``StratifiedStatistics.score_many``); the scores equal, with ``==``,
the core's ``language_values`` and ``macro_averages`` of each resample.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .scoring import Stat, macro_averages


class Pool:
    """One task's unit statistics as arrays, and each unit's rank among the distinct scores."""

    def __init__(self, stats: Sequence[Stat]) -> None:
        self.gold = np.array([s[0] for s in stats], dtype=bool)
        self.predicted = np.array([s[1] for s in stats], dtype=np.int64)
        self.credit = np.array([float(s[2]) for s in stats], dtype=np.float64)
        scores = np.array([float(s[3]) for s in stats], dtype=np.float64)
        distinct = np.unique(scores)  # ascending; equal scores (0 and 0.0 too) share a rank
        self.ranks = len(distinct)
        rank = self.ranks - 1 - np.searchsorted(distinct, scores)  # 0: the highest score
        # The smallest integer type the stable sort handles by radix (16 bits) when it fits.
        self.rank = rank.astype(np.int16 if self.ranks < 2**15 - 1 else np.int64)
        # Integers add up exactly in any order below 2**53: no per-unit order to keep then.
        whole = self.credit == np.floor(self.credit)
        self.integral = bool(whole.all() and np.abs(self.credit).sum() < 2**53)


def _per_rank(flat_rank: np.ndarray, weights: np.ndarray | None, rows: int, ranks: int):
    """Sums of ``weights`` per resample and rank, accumulated over the ranks (rows x ranks)."""
    counts = np.bincount(flat_rank, weights=weights, minlength=rows * ranks)
    return np.cumsum(counts.reshape(rows, ranks), axis=1)


def _correct(pool: Pool, picks: np.ndarray, rank: np.ndarray, flat_rank: np.ndarray):
    """The summed credit at the end of each rank, per resample, with the official floats."""
    rows, ranks = picks.shape[0], pool.ranks
    credit = pool.credit[picks]
    if pool.integral:
        return _per_rank(flat_rank, credit.ravel(), rows, ranks)
    # Zero credits leave a sum unchanged: sort the others first, by rank, ties in visiting order.
    nonzero = credit != 0
    key = np.where(nonzero, rank, ranks).astype(rank.dtype)
    order = np.argsort(key, axis=1, kind="stable")
    width = int(nonzero.sum(axis=1).max())
    added = np.take_along_axis(credit, order[:, :width], axis=1)
    running = np.zeros((rows, width + 1))
    np.cumsum(added, axis=1, out=running[:, 1:])
    ends = _per_rank(flat_rank, nonzero.ravel().astype(np.float64), rows, ranks)
    return np.take_along_axis(running, ends.astype(np.int64), axis=1)


def best_points(stats: Sequence[Stat], picks: np.ndarray, pool: Pool | None = None):
    """``best_threshold(...)[0][:3]`` (F1, precision, recall at the best F1) of every resample
    ``[stats[i] for i in picks[b]]``, as three float arrays."""
    rows = picks.shape[0]
    if picks.shape[1] == 0:
        zero = np.zeros(rows)
        return zero, zero, zero
    pool = pool if pool is not None else Pool(stats)
    rank = pool.rank[picks]
    flat_rank = (rank + (np.arange(rows) * pool.ranks)[:, None]).ravel()
    total_gold = pool.gold[picks].sum(axis=1)[:, None]
    predicted = _per_rank(flat_rank, pool.predicted[picks].ravel(), rows, pool.ranks)
    correct = _correct(pool, picks, rank, flat_rank)
    # A rank a resample lacks repeats the point before it, which never beats it (strictly
    # greater F1 replaces the best): each resample's points are exactly the official ones.
    precision = np.divide(correct, predicted, out=np.zeros_like(correct), where=predicted > 0)
    recall = np.divide(
        correct,
        total_gold,
        out=np.zeros_like(correct),
        where=np.broadcast_to(total_gold > 0, correct.shape),
    )
    both = precision + recall
    f1 = np.divide(2 * precision * recall, both, out=np.zeros_like(both), where=both != 0)
    best = np.argmax(f1, axis=1)[:, None]
    found = np.take_along_axis(f1, best, axis=1)[:, 0] > 0
    return tuple(
        np.where(found, np.take_along_axis(values, best, axis=1)[:, 0], 0.0)
        for values in (f1, precision, recall)
    )


class MacroScores:
    """``score_many`` of the contract: the macro means of many resamples' sweeps. Pools are
    ranked once per comparison (the same lists come with every chunk of resamples)."""

    def __init__(self) -> None:
        self._pools: dict[int, tuple[Sequence[Stat], Pool]] = {}

    def _pool(self, stats: Sequence[Stat]) -> Pool:
        kept = self._pools.get(id(stats))
        if kept is None or kept[0] is not stats:
            kept = self._pools[id(stats)] = (stats, Pool(stats))
        return kept[1]

    def __call__(
        self, pools: Mapping[str, tuple[list, list]], picks: Mapping[str, np.ndarray]
    ) -> dict[str, Any]:
        rows = next(iter(picks.values())).shape[0] if picks else 0
        values_by_language = {}
        for language, (passage, minimal) in pools.items():
            chosen = picks[language]
            p_f1, p_precision, p_recall = self._best(passage, chosen)
            m_f1, m_precision, m_recall = self._best(minimal, chosen)
            # Where language_values puts them (the rest is not part of the macro means).
            values_by_language[language] = [p_f1, p_precision, p_recall, *[None] * 7,
                                            m_f1, m_precision, m_recall, *[None] * 7]  # fmt: skip
        macro = macro_averages(values_by_language)
        # The core adds arrays as it adds floats; with no language to average it gives int 0.
        return {
            key: np.broadcast_to(np.asarray(v, dtype=np.float64), (rows,))
            for key, v in macro.items()
        }

    def _best(self, stats: Sequence[Stat], picks: np.ndarray):
        if picks.shape[1] == 0:
            return best_points(stats, picks)
        return best_points(stats, picks, self._pool(stats))
