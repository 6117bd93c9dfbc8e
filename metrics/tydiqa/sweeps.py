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

Used by ``contract.py`` (``StratifiedStatistics.many``); the scores equal, with ``==``, the
core's ``language_values`` and ``macro_averages`` of each resample.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .scoring import EXCLUDED_FROM_MACRO, Stat, macro_averages

# What a unit adds to its rank's counts: a predicted answer and a non-zero credit, coded 0-3.
_PREDICTED, _CREDITED, _CODES = 1, 2, 4
_TINY = 5e-324  # the smallest positive float: x / max(d, _TINY) is x / d for any d > 0


class Pool:
    """One task's unit statistics as arrays, and each unit's rank among the distinct scores."""

    def __init__(self, stats: Sequence[Stat]) -> None:
        self.gold = np.array([s[0] for s in stats], dtype=bool)
        predicted = np.array([s[1] for s in stats], dtype=bool)
        self.credit = np.array([float(s[2]) for s in stats], dtype=np.float64)
        scores = np.array([float(s[3]) for s in stats], dtype=np.float64)
        distinct = np.unique(scores)  # ascending; equal scores (0 and 0.0 too) share a rank
        self.ranks = len(distinct)
        self.rank = self.ranks - 1 - np.searchsorted(distinct, scores)  # 0: the highest score
        credited = self.credit != 0
        self.code = predicted * _PREDICTED + credited * _CREDITED
        # The sort key of a unit's credit: its rank, after every rank when it adds nothing.
        # 16-bit keys are sorted by radix; the sort is stable, as the official sorted() is.
        small = np.int16 if self.ranks < 2**15 - 1 else np.int64
        self.key = np.where(credited, self.rank, self.ranks).astype(small)
        # Credits of 0 and 1 (passages, yes/no answers, exact spans) add up exactly in any
        # order: their sum is a count. Other floats are added in the official order.
        self.counted = bool(np.isin(self.credit, (0.0, 1.0)).all())
        # The core credits only a predicted answer to answerable gold: a count of 0 predicted
        # (or gold) answers then comes with a credit of 0, and 0 / 1 is the official 0.
        self.credit_needs_both = bool((predicted & self.gold)[credited].all())


def _running_credit(pool: Pool, picks: np.ndarray, credited: np.ndarray) -> np.ndarray:
    """The official running sum of the credits at the end of each rank (rows x ranks): each
    resample's non-zero credits sorted by rank, ties in visiting order, added one by one
    (zeros leave a sum unchanged)."""
    width = int(credited[:, -1].max())
    order = np.argsort(pool.key[picks], axis=1, kind="stable")[:, :width]
    added = pool.credit[np.take_along_axis(picks, order, axis=1)]
    running = np.zeros((picks.shape[0], width + 1))
    np.cumsum(added, axis=1, out=running[:, 1:])
    return np.take_along_axis(running, credited, axis=1)


def best_points(stats: Sequence[Stat], picks: np.ndarray, pool: Pool | None = None) -> tuple:
    """``best_threshold(...)[0][:3]`` (F1, precision, recall at the best F1) of every resample
    ``[stats[i] for i in picks[b]]``, as three float arrays."""
    rows = picks.shape[0]
    if picks.shape[1] == 0:
        zero = np.zeros(rows)
        return zero, zero, zero
    pool = pool if pool is not None else Pool(stats)
    ranks = pool.ranks
    # Units per code, resample and rank: one count, laid out code by code.
    where = pool.code * (rows * ranks) + pool.rank
    where = where[picks] + (np.arange(rows) * ranks)[:, None]
    counts = np.bincount(where.ravel(), minlength=_CODES * rows * ranks)
    counts = counts.reshape(_CODES, rows, ranks)
    both = _PREDICTED | _CREDITED
    predicted = np.cumsum(counts[_PREDICTED] + counts[both], axis=1)
    credited = np.cumsum(counts[_CREDITED] + counts[both], axis=1)
    if pool.counted:
        correct = credited.astype(np.float64)
    else:
        correct = _running_credit(pool, picks, credited)
    total_gold = np.count_nonzero(pool.gold[picks], axis=1)[:, None]
    # A rank a resample lacks repeats the point before it, which never beats it (strictly
    # greater F1 replaces the best): each resample's best point is the official one.
    precision = correct / np.maximum(predicted, 1)
    recall = correct / np.maximum(total_gold, 1)
    if not pool.credit_needs_both:  # the official 0 where nothing was predicted or is gold
        precision[predicted == 0] = 0.0
        recall[np.broadcast_to(total_gold == 0, recall.shape)] = 0.0
    f1 = 2 * precision * recall
    f1 /= np.maximum(precision + recall, _TINY)  # 0 where both are 0, as the official 0
    best = np.argmax(f1, axis=1)[:, None]
    found = np.take_along_axis(f1, best, axis=1)[:, 0] > 0
    return tuple(
        np.where(found, np.take_along_axis(values, best, axis=1)[:, 0], 0.0)
        for values in (f1, precision, recall)
    )


class LanguageSweeps:
    """``stratum`` of the contract's ``ManyResamples``: a language's best passage and minimal
    points for many resamples. Pools are ranked once per comparison (the same lists come with
    every chunk of resamples)."""

    def __init__(self) -> None:
        # Each entry holds its list, so its id stays the list's while it is kept.
        self._pools: dict[int, tuple[Sequence[Stat], Pool]] = {}

    def _pool(self, stats: Sequence[Stat]) -> Pool:
        kept = self._pools.get(id(stats))
        if kept is None:
            kept = self._pools[id(stats)] = (stats, Pool(stats))
        return kept[1]

    def __call__(self, language: str, parts: tuple[list, ...], picks: np.ndarray) -> tuple:
        passage, minimal = parts
        if picks.shape[1] == 0 or language == EXCLUDED_FROM_MACRO:
            # Nothing to sweep, or a sweep no macro mean reads: zeros stand in for it.
            return best_points([], picks[:, :0]) * 2
        return best_points(passage, picks, self._pool(passage)) + best_points(
            minimal, picks, self._pool(minimal)
        )


def macro_scores(values: Mapping[str, tuple]) -> dict[str, Any]:
    """``combine`` of the contract's ``ManyResamples``: the core's ``macro_averages`` over the
    languages' arrays (it adds them as it adds floats)."""
    rows = len(next(iter(values.values()))[0]) if values else 1
    by_language = {
        # Where language_values puts them (the rest is no part of the macro means).
        language: [*v[:3], *[None] * 7, *v[3:], *[None] * 7]
        for language, v in values.items()
    }
    macro = macro_averages(by_language)
    # With no language to average, the core's int 0 stands for every resample.
    return {
        key: np.broadcast_to(np.asarray(v, dtype=np.float64), (rows,)) for key, v in macro.items()
    }
