"""Paired significance tests and confidence intervals for every taskeval metric.

``compare`` scores two or more systems on the same gold with the official metric, then resamples
the units that metric aggregates over (see ``taskeval.units``): a paired bootstrap gives every
score a confidence interval and every difference to the first system an interval and a p-value;
approximate randomization (``method="randomization"``) gives the p-values instead. Each resample
is scored by the metric core's own aggregation (all resamples at once with numpy, where the
metric's statistics allow it, to the same numbers), and the reported scores are ``compute()``'s
numbers on the original sample. How to read the output: docs/compare.md.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from .api import metric_names, read_official
from .defaults import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, METHODS
from .ordered import Columns, Counts, is_counted, mean
from .registry import contract
from .table import text_table as _table
from .units import Adapter, RowAdapter, SumAdapter, SumUnits, adapter

StrPath = str | PathLike
_CELLS = 1 << 22  # resample x unit cells drawn at once: bounds memory on large sets
_MANY_CELLS = 1 << 16  # ... for a metric's ``many``: its work on a chunk stays in the CPU's cache
_WINDOW_CELLS = 1 << 20  # ... drawn ahead for the threads that score ``many``'s chunks
_INT32_MAX = 2**31 - 1  # np.iinfo(np.int32).max, without its lookup on every draw
_TIE = 1e-12  # differences this close to the observed one count as "as large"


def __getattr__(name: str) -> Any:
    # The process pool is imported on first use: only a metric scored resample by resample
    # needs it, and its import (multiprocessing, logging, sockets) costs every other run.
    if name == "ProcessPoolExecutor":
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _check_arguments(method: str, resamples: Any, seed: Any, confidence: Any) -> None:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if not isinstance(resamples, int) or isinstance(resamples, bool) or resamples < 1:
        raise ValueError(f"resamples must be a positive int, got {resamples!r}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    if not isinstance(confidence, float) or not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be a float between 0 and 1, got {confidence!r}")


# A percentile interval's ends are read among the resamples of each tail: with fewer than this
# many in a tail, an end is one or two draws, and the smallest p-value, 1 / (resamples + 1),
# stays near the tail's share (10 resamples: no p-value below 0.09).
_TAIL_RESAMPLES = 10


def min_resamples(confidence: float) -> int:
    """The fewest resamples that leave ``_TAIL_RESAMPLES`` in each tail of a ``confidence``
    interval (400 at 0.95, 2,000 at 0.99)."""
    return math.ceil(round(2 * _TAIL_RESAMPLES / (1.0 - confidence), 9))


def _warn_if_too_few(resamples: int, confidence: float) -> None:
    needed = min_resamples(confidence)
    if resamples < needed:
        import warnings

        warnings.warn(
            f"{resamples} resamples are too few for a {confidence:g} interval or a p-value to "
            f"mean much (each tail holds {resamples * (1.0 - confidence) / 2:g} of them; the "
            f"smallest p-value is {1 / (resamples + 1):.4g}): use at least {needed}",
            UserWarning,
            stacklevel=2,
        )


def _workers(workers: int | None) -> int:
    if workers is None:
        return max(1, min(os.cpu_count() or 1, 8))
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive int or None, got {workers!r}")
    return workers


def _check_systems(
    systems: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    row_id: Callable[[Mapping[str, Any]], Any] | None = None,
) -> None:
    if not systems:
        raise ValueError("give at least one system")
    if len(names) != len(systems):
        raise ValueError(f"{len(names)} names for {len(systems)} systems")
    for index, system in enumerate(systems):
        if not isinstance(system, Mapping) or not {"predictions", "references"} <= set(system):
            raise ValueError(
                f"system {index} ({names[index]}): expected compute() inputs, a dict with "
                f"'predictions' and 'references'"
            )
        if index and system["references"] != systems[0]["references"]:
            differing = _differing_ids((names[0], systems[0]), (names[index], system), row_id)
            if differing:
                raise ValueError(
                    f"system {index} ({names[index]}) and {names[0]} predict other rows "
                    f"({differing}): a paired comparison needs predictions for the same rows"
                )
            raise ValueError(
                f"system {index} ({names[index]}) is scored against other references than "
                f"{names[0]}: a paired comparison needs the same gold for every system"
            )


def _differing_ids(
    first: tuple[str, Mapping[str, Any]],
    other: tuple[str, Mapping[str, Any]],
    row_id: Callable[[Any], Any] | None,
) -> str:
    """The ids predicted by one system and not the other, as a message part ('' if none)."""
    if row_id is None:
        return ""

    def ids(system: Mapping[str, Any]) -> set:
        try:
            found = {row_id(row) for row in system["predictions"]}
        except Exception:  # rows a caller built otherwise: the general message says enough
            return set()
        found.discard(None)
        return found

    a, b = ids(first[1]), ids(other[1])
    parts = []
    for name, only in ((first[0], a - b), (other[0], b - a)):
        if only:
            shown = ", ".join(map(repr, sorted(only, key=repr)[:5]))
            more = f" and {len(only) - 5:,} more" if len(only) > 5 else ""
            parts.append(f"ids {shown}{more} only in {name}")
    return "; ".join(parts)


# ---------------------------------------------------------------------------------------------
# Additive metrics: a resample's statistics are counts-weighted sums of unit rows.


def _chunks(total: int, n: int, cells: int | None = None) -> list[int]:
    size = max(1, (_CELLS if cells is None else cells) // max(n, 1))
    return [min(size, total - start) for start in range(0, total, size)]


def _draw(rng, n: int, shape: tuple[int, int]) -> np.ndarray:
    """``rng.integers(0, n, size=shape)``, the very same numbers, as 32-bit ints: below 2**32
    both draw from the generator's 32-bit words alike; half the memory, twice as fast."""
    if n > _INT32_MAX:
        return rng.integers(0, n, size=shape)
    return rng.integers(0, n, size=shape, dtype=np.int32)


def _columns(stacked: np.ndarray, n: int) -> tuple[list[int], list[int]]:
    """The columns whose sums are counts (exact in any order, see ``ordered.is_counted``) and
    those of other floats, which are added in a resample's order."""
    counted = [j for j in range(stacked.shape[1]) if is_counted(stacked[:, j], n)]
    return counted, [j for j in range(stacked.shape[1]) if j not in counted]


def _bootstrap_sums(a: SumAdapter, stats: list[np.ndarray], resamples: int, rng) -> list[dict]:
    n, k = stats[0].shape
    stacked = np.hstack(stats)
    counted, added = _columns(stacked, n)
    counts, fractions = Counts(stacked[:, counted].T, n), Columns(stacked[:, added].T)
    parts: list[list[dict]] = [[] for _ in stats]
    step = max(1, _MANY_CELLS // n)
    for c in _chunks(resamples, n):
        # Draws are made a few rows at a time (the same stream), which stay in the CPU's
        # cache while their counts are summed (exact in any order) and their other floats
        # added in the order drawn, as the official loop adds a resample's rows.
        sums = np.empty((c, stacked.shape[1]))
        for start in range(0, c, step):
            drawn = _draw(rng, n, (min(step, c - start), n))
            where = slice(start, start + len(drawn))
            if counted:
                sums[where, counted] = counts.drawn(drawn)
            if added:
                sums[where, added] = fractions.drawn(drawn)
        for s, part in enumerate(parts):
            part.append(a.aggregate(sums[:, s * k : (s + 1) * k], n))
    return [{key: np.concatenate([p[key] for p in part]) for key in a.keys} for part in parts]


def _swap_picks(swapped: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Approximate randomization's picks from a pool of two systems' units, the first system's
    ``n`` then the other's ``n``, for ``swapped`` (resamples × n, True where a unit's systems
    swap): the indices of the units the first system is scored on (the other's where swapped)
    and of those the other system is scored on (the first's where swapped)."""
    units = np.arange(swapped.shape[1])
    n = len(units)
    return units + n * swapped, units + n * ~swapped


def _randomization_sums(
    a: SumAdapter, stats: list[np.ndarray], resamples: int, rng
) -> list[dict[str, np.ndarray]]:
    """Per system after the first: differences to the first under random swaps of units. Each
    swapped system is scored as the official loop scores it, its units in their order: a swap
    picks, unit by unit, the first system's statistics or the other's."""
    n, k = stats[0].shape
    out: list[list[dict]] = [[] for _ in stats[1:]]
    pairs = []
    for other in stats[1:]:
        both = np.vstack([stats[0], other])  # the first system's units, then the other's
        counted, added = _columns(both, n)
        totals = both[:, counted].sum(axis=0)  # integers: exact
        pairs.append(
            (counted, added, totals, Counts(both[:, counted].T, n), Columns(both[:, added].T))
        )
    step = max(1, _MANY_CELLS // n)
    for c in _chunks(resamples, n):
        swap = rng.integers(0, 2, size=(c, n), dtype=np.int8)
        for (counted, added, totals, counts, fractions), part in zip(pairs, out):
            first, second = np.empty((c, k)), np.empty((c, k))
            for start in range(0, c, step):
                swapped = swap[start : start + step] > 0
                where = slice(start, start + len(swapped))
                taken, kept = _swap_picks(swapped)
                if counted:
                    first[where, counted] = counts.drawn(taken)
                    second[where, counted] = totals - first[where, counted]  # exact
                if added:
                    first[where, added] = fractions.drawn(taken)
                    second[where, added] = fractions.drawn(kept)
            one, two = a.aggregate(first, n), a.aggregate(second, n)
            part.append({key: two[key] - one[key] for key in a.keys})
    return [{key: np.concatenate([p[key] for p in part]) for key in a.keys} for part in out]


# ---------------------------------------------------------------------------------------------
# Metrics scored anew on each resample: units drawn within their stratum.


def _stratum_sizes(units: list) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for u in units:
        for stratum, parts in u.parts.items():
            sizes.setdefault(stratum, len(parts[0]))
    return sizes


def _empty(units) -> dict[str, tuple[list, ...]]:
    # A stratum scored with no unit of this system (a language only predicted).
    width = len(next(iter(units.parts.values()), ((), ())))
    return {s: ([],) * width for s in units.strata if s not in units.parts}


def _bootstrap_rows(a: RowAdapter, units: list, draws: dict, start: int, stop: int) -> list:
    values: list[dict[str, list]] = [{key: [] for key in a.keys} for _ in units]
    for b in range(start, stop):
        for u, out in zip(units, values):
            picked = _empty(u)
            for s, parts in u.parts.items():
                picked[s] = tuple(p[draws[s][b]].tolist() for p in parts)
            scores = a.score({s: picked[s] for s in u.strata})
            for key, value in scores.items():
                out[key].append(value)
    return values


def _randomization_rows(a: RowAdapter, units: list, swaps: dict, start: int, stop: int) -> list:
    diffs: list[dict[str, list]] = [{key: [] for key in a.keys} for _ in units[1:]]
    first = units[0]
    for b in range(start, stop):
        for u, out in zip(units[1:], diffs):
            mine, theirs = _empty(u), _empty(first)
            for s in sorted({*u.parts, *first.parts}):  # a fixed order, whatever the hash seed
                if s not in u.parts or s not in first.parts:  # one system only: nothing to swap
                    for side, system in ((mine, u), (theirs, first)):
                        if s in system.parts:
                            side[s] = tuple(p.tolist() for p in system.parts[s])
                    continue
                pairs = list(zip(first.parts[s], u.parts[s]))
                theirs[s] = tuple(np.where(swaps[s][b], b_, f).tolist() for f, b_ in pairs)
                mine[s] = tuple(np.where(swaps[s][b], f, b_).tolist() for f, b_ in pairs)
            base = a.score({s: theirs[s] for s in first.strata})
            other = a.score({s: mine[s] for s in u.strata})
            for key in a.keys:
                out[key].append(other[key] - base[key])
    return diffs


def _pools(units) -> dict[str, tuple[list, ...]]:
    """Every stratum a system is scored on, in its order, with the parts its units give."""
    empty = _empty(units)
    return {
        s: tuple(p.tolist() for p in units.parts[s]) if s in units.parts else empty[s]
        for s in units.strata
    }


def _once(stratum, name: str, parts: tuple[list, ...], resamples: int) -> tuple:
    """A stratum's values where no resample changes it (no unit, or nothing to swap)."""
    width = len(parts[0]) if parts else 0
    values = stratum(name, parts, np.arange(width)[None, :])
    return tuple(np.broadcast_to(np.asarray(v, dtype=np.float64), (resamples,)) for v in values)


def _joined(parts: list[tuple]) -> tuple:
    return tuple(
        np.concatenate([np.asarray(v, dtype=np.float64) for v in vs]) for vs in zip(*parts)
    )


def _sweeping_threads() -> int:
    """Threads that score a metric's ``many`` chunks: two where the process may run on two
    CPUs (numpy releases the GIL in its array operations, which are most of the work)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return min(2, cpus)


def _in_order(jobs: Iterator[tuple[int, Callable[[], Any], list]]) -> None:
    """Each job ``(cells, work, into)``: ``work()``'s result appended to ``into``, in the
    jobs' order. The jobs are made (their draws drawn, in the stream's order) in this thread;
    their work runs in ``_sweeping_threads()`` threads, a window of about ``_WINDOW_CELLS`` drawn
    cells at a time, so that memory stays bounded. Each result is what the same work gives
    alone: the numbers never depend on the threads."""
    threads = _sweeping_threads()
    if threads < 2:
        for _, work, into in jobs:
            into.append(work())
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads, thread_name_prefix="taskeval-sweep") as pool:
        window: list = []
        cells = 0
        for job in jobs:
            window.append(job)
            cells += job[0]
            if cells >= _WINDOW_CELLS:
                _finish(pool, window)
                window, cells = [], 0
        _finish(pool, window)


def _finish(pool: Any, window: list) -> None:
    try:
        results = pool.map(_call, [work for _, work, _ in window])
    except RuntimeError:  # no thread could be started (a process or memory limit): done here
        results = [work() for _, work, _ in window]
    for (_, _, into), result in zip(window, results):
        into.append(result)


def _call(work: Callable[[], Any]) -> Any:
    return work()


def _many_bootstrap(a: RowAdapter, units: list, sizes: dict, resamples: int, rng) -> list[dict]:
    """The paired bootstrap through the metric's ``many``, stratum after stratum: the draws of
    ``_resample`` (each stratum's rows, drawn in chunks that continue the same stream), the
    scores of ``_bootstrap_rows``."""
    stratum = a.many.stratum
    pools = [_pools(u) for u in units]
    values: list[dict[str, list]] = [{} for _ in units]

    def jobs() -> Iterator[tuple[int, Callable[[], tuple], list]]:
        for s, size in sizes.items():
            for c in _chunks(resamples, size, _MANY_CELLS):
                draws = _draw(rng, size, (c, size))
                for u, pool, out in zip(units, pools, values):
                    if s in u.parts:
                        sweep = functools.partial(stratum, s, pool[s], draws)
                        yield c * size, sweep, out.setdefault(s, [])

    _in_order(jobs())
    scores = []
    for pool, out in zip(pools, values):
        per_stratum = {
            s: _joined(out[s]) if s in out else _once(stratum, s, pool[s], resamples) for s in pool
        }
        scores.append(a.many.combine(per_stratum))
    return scores


def _many_randomization(
    a: RowAdapter, units: list, sizes: dict, resamples: int, rng
) -> list[dict[str, np.ndarray]]:
    """Approximate randomization through ``many``: the swaps of ``_resample``, the differences
    of ``_randomization_rows``."""
    stratum = a.many.stratum
    first, theirs_pool = units[0], _pools(units[0])
    pairs = []
    for u in units[1:]:
        mine_pool = _pools(u)
        # Where both systems have units, a resample picks each unit from one or the other:
        # the pool holds the first system's units, then this one's.
        shared = {
            s: tuple(f + m for f, m in zip(theirs_pool[s], mine_pool[s]))
            for s in first.parts.keys() & u.parts.keys()
        }
        pairs.append((mine_pool, shared, {}, {}))

    def jobs() -> Iterator[tuple[int, Callable[[], tuple], list]]:
        for s, size in sizes.items():
            for c in _chunks(resamples, size, _MANY_CELLS):
                swapped = _draw(rng, 2, (c, size)) > 0
                for _, shared, theirs, mine in pairs:
                    if s in shared:
                        taken, kept = _swap_picks(swapped)
                        yield (
                            c * size,
                            functools.partial(stratum, s, shared[s], taken),
                            (theirs.setdefault(s, [])),
                        )
                        yield (
                            c * size,
                            functools.partial(stratum, s, shared[s], kept),
                            (mine.setdefault(s, [])),
                        )

    _in_order(jobs())
    diffs = []
    for mine_pool, shared, theirs, mine in pairs:
        base = a.many.combine({
            s: _joined(theirs[s]) if s in shared else _once(stratum, s, p, resamples)
            for s, p in theirs_pool.items()
        })  # fmt: skip
        other = a.many.combine({
            s: _joined(mine[s]) if s in shared else _once(stratum, s, p, resamples)
            for s, p in mine_pool.items()
        })  # fmt: skip
        diffs.append({key: np.subtract(other[key], base[key]) for key in a.keys})
    return diffs


# What the worker processes read: set before they are forked, so nothing is pickled.
_SHARED: tuple | None = None


def _rows_part(start: int, stop: int) -> list:
    run, a, units, randomness = _SHARED
    return run(a, units, randomness, start, stop)


def _rows(run, a: RowAdapter, units: list, randomness: dict, resamples: int, workers: int) -> list:
    """``run`` over all resamples, split among ``workers`` forked processes when possible.

    The random draws are made beforehand, so the result does not depend on ``workers``.
    """
    global _SHARED
    _SHARED = (run, a, units, randomness)
    try:
        import multiprocessing

        fork = "fork" in multiprocessing.get_all_start_methods()
        # Forking a process that runs threads (a web server, say) is unsafe: stay serial there.
        if workers > 1 and resamples >= 2 * workers and fork and threading.active_count() == 1:
            bounds = np.linspace(0, resamples, workers + 1).astype(int).tolist()
            context = multiprocessing.get_context("fork")
            executor = globals().get("ProcessPoolExecutor") or __getattr__("ProcessPoolExecutor")
            with executor(workers, mp_context=context) as pool:
                parts = list(pool.map(_rows_part, bounds[:-1], bounds[1:]))
        else:
            parts = [_rows_part(0, resamples)]
    finally:
        _SHARED = None
    merged = parts[0]
    for part in parts[1:]:
        for into, more in zip(merged, part):
            for key, values in more.items():
                into[key].extend(values)
    return [{key: np.array(v, dtype=np.float64) for key, v in out.items()} for out in merged]


# ---------------------------------------------------------------------------------------------


def _resample(
    a: Adapter,
    systems: Sequence[Mapping],
    method: str,
    resamples: int,
    seed: int | None,
    workers: int,
) -> tuple[list[dict], list[dict] | None, int]:
    boot_rng, perm_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    if isinstance(a, SumAdapter):
        stats = [a.units(system).stats for system in systems]
        n = len(stats[0])
        if n == 0:  # nothing to resample: every resample is the (empty) sample itself
            k = stats[0].shape[1]
            empty = [a.aggregate(np.zeros((resamples, k)), 0) for _ in systems]
            same = [{key: e[key] - empty[0][key] for key in a.keys} for e in empty[1:]]
            return empty, same if method == "randomization" else None, 0
        boot = _bootstrap_sums(a, stats, resamples, boot_rng)
        perm = None
        if method == "randomization" and len(systems) > 1:
            perm = _randomization_sums(a, stats, resamples, perm_rng)
        return boot, perm, n
    units = [a.units(system) for system in systems]
    sizes = _stratum_sizes(units)
    if a.many is not None:
        boot = _many_bootstrap(a, units, sizes, resamples, boot_rng)
        perm = None
        if method == "randomization" and len(systems) > 1:
            perm = _many_randomization(a, units, sizes, resamples, perm_rng)
        return boot, perm, sum(sizes.values())
    # Resamples are drawn within each stratum (such as each language).
    draws = {s: boot_rng.integers(0, size, size=(resamples, size)) for s, size in sizes.items()}
    boot = _rows(_bootstrap_rows, a, units, draws, resamples, workers)
    perm = None
    if method == "randomization" and len(systems) > 1:
        swaps = {
            s: perm_rng.integers(0, 2, size=(resamples, size)) > 0 for s, size in sizes.items()
        }
        perm = _rows(_randomization_rows, a, units, swaps, resamples, workers)
    return boot, perm, sum(sizes.values())


def _official(a: Adapter, systems: Sequence[Mapping]) -> tuple[list[dict], Adapter]:
    """``compute()``'s numbers of every system, and the adapter to resample them with: where the
    metric gives its numbers and unit statistics in one pass, the statistics are kept for the
    resampling instead of computed again."""
    if not isinstance(a, SumAdapter) or a.official_and_units is None:
        return [a.official(system) for system in systems], a
    pairs = [a.official_and_units(system) for system in systems]
    known = {id(system): units for system, (_, units) in zip(systems, pairs)}
    units = a.units

    def kept(inputs: Mapping) -> SumUnits:
        found = known.get(id(inputs))
        return found if found is not None else units(inputs)

    return [official for official, _ in pairs], dataclasses.replace(a, units=kept)


def _interval(samples: np.ndarray, confidence: float) -> tuple[float, float]:
    tail = (1.0 - confidence) / 2.0
    values = samples.tolist()
    if any(v != v for v in values):  # a NaN: np.quantile's answer
        return math.nan, math.nan
    values.sort()
    return _quantile(values, tail), _quantile(values, 1.0 - tail)


def _quantile(ordered: list[float], q: float) -> float:
    """``np.quantile(ordered, q)`` (method "linear") of sorted finite floats, the same float
    operations in the same order. Computed here because ``np.quantile`` imports ``numpy.ma``,
    which costs a short run more than its resampling."""
    n = len(ordered)
    virtual = (n - 1) * q
    below = math.floor(virtual)
    if virtual >= n - 1:  # numpy takes the last value on both sides
        below = above = -1
    else:
        above = below + 1
    gamma = virtual - below
    a, b = ordered[below], ordered[above]
    difference = b - a
    if gamma >= 0.5:
        return b - difference * (1 - gamma)
    return a + difference * gamma


def _p_value(null: np.ndarray, observed: float) -> float:
    # Two-sided, with the +1 that keeps a Monte Carlo p-value valid (never 0).
    hits = int(np.count_nonzero(np.abs(null) >= abs(observed) - _TIE))
    return (hits + 1) / (len(null) + 1)


def compare_rows(
    name: str,
    systems: Sequence[Mapping[str, Any]],
    *,
    names: Sequence[str] | None = None,
    config_name: str | None = None,
    method: str = "bootstrap",
    resamples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    workers: int | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Compare systems given as ``compute()`` inputs (one dict per system, the same references).

    Returns, for each system, the official scores (``compute()``'s numbers) with a paired
    bootstrap interval, and for each system after the first the difference to the first with
    its interval and a p-value (see docs/compare.md). ``config_name`` is one of the metric's
    configs; ``options`` are the metric's ``compute()`` options. ``workers``: processes that
    score the resamples of a metric scored resample by resample (``StratifiedStatistics``
    without ``ManyResamples``), default the number of CPUs (at most 8); results do not depend
    on it. Every metric taskeval ships scores its resamples all at once in this process, so
    ``workers`` has no effect on them (the command line's ``--workers`` is deprecated).
    """
    names = list(names) if names is not None else [f"system {i + 1}" for i in range(len(systems))]
    _check_arguments(method, resamples, seed, confidence)
    workers = _workers(workers)
    _check_systems(systems, names, contract(name).reader.row_id)
    a = adapter(name, config_name, **options)
    official, a = _official(a, systems)
    return _result(
        name, a, systems, official, names, config_name, method, resamples, seed, confidence,
        workers, options,
    )  # fmt: skip


def _from_files(
    name: str,
    references: StrPath | None,
    predictions: StrPath,
    names: list[str],
    settings: dict[str, Any],
    options: dict[str, Any],
    config_name: str | None = None,
) -> dict[str, Any] | None:
    """``compare_rows`` of one system straight from its files, where the metric scores them and
    gives their unit statistics without making ``compute()`` inputs
    (``SumStatistics.official_and_stats_from_files``,
    ``StratifiedStatistics.official_and_units_from_files``); None where it does not, or where
    ``compare_rows`` would refuse the arguments (the files are then read as inputs, so every
    refusal and its order stay those of that path). A problem in the files raises what reading
    them as inputs raises."""
    system: dict[str, Any] = {"predictions": [], "references": []}
    try:
        _check_arguments(
            settings["method"], settings["resamples"], settings["seed"], settings["confidence"]
        )
        workers = _workers(settings["workers"])
        _check_systems([system], names)
        a = adapter(name, config_name, **options)
    except ValueError:
        return None
    found = a.official_and_units_from_files(references, predictions)
    if found is None:
        return None
    official, units = found
    a = dataclasses.replace(a, units=lambda inputs: units)
    return _result(
        name, a, [system], [official], names, config_name, settings["method"], settings["resamples"],
        settings["seed"], settings["confidence"], workers, options,
    )  # fmt: skip


def _result(
    name: str,
    a: Adapter,
    systems: Sequence[Mapping[str, Any]],
    official: list[dict],
    names: list[str],
    config_name: str | None,
    method: str,
    resamples: int,
    seed: int | None,
    confidence: float,
    workers: int,
    options: Mapping[str, Any],
) -> dict[str, Any]:
    boot, perm, n = _resample(a, systems, method, resamples, seed, workers)
    # Warned of once the inputs are known good: no noise before an error.
    _warn_if_too_few(resamples, confidence)
    result: dict[str, Any] = {
        "metric": name,
        **({"config": config_name} if config_name else {}),
        **({"options": dict(options)} if options else {}),
        "method": method,
        "resamples": resamples,
        "seed": seed,
        "confidence": confidence,
        "unit": a.unit,
        "units": n,
        "systems": [],
        "comparisons": [],
    }
    for system, scores, samples in zip(names, official, boot):
        entry = {}
        for key in a.keys:
            low, high = _interval(samples[key], confidence)
            entry[key] = {"score": scores[key], "low": low, "high": high}
        result["systems"].append({"name": system, "scores": entry, "official": scores})
    for s in range(1, len(systems)):
        entry = {}
        for key in a.keys:
            observed = float(official[s][key]) - float(official[0][key])
            diffs = boot[s][key] - boot[0][key]
            low, high = _interval(diffs, confidence)
            centre = mean(diffs)
            null = perm[s - 1][key] if perm is not None else diffs - centre
            entry[key] = {
                "difference": observed,
                "mean_difference": centre,
                "low": low,
                "high": high,
                "p_value": _p_value(null, observed),
            }
        result["comparisons"].append({"system": names[s], "baseline": names[0], "scores": entry})
    return result


def compare(
    name: str,
    *,
    references: StrPath | None,
    predictions: Sequence[StrPath],
    names: Sequence[str] | None = None,
    method: str = "bootstrap",
    resamples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    workers: int | None = None,
    **options: Any,
) -> dict[str, Any]:
    """``taskeval compare``: official files of several systems against one gold file.

    ``predictions`` lists one prediction file (for a metric whose files are folders: one
    submission folder) per system; the first is the baseline every other is compared with. For
    a metric with configs (``CONTRACT.config``) the result has one entry per config the
    submissions hold, each computed on that config's gold; the config's keyword
    (``CONTRACT.config.name``) picks one. See ``compare_rows`` for the rest.
    """
    if isinstance(predictions, (str, PathLike)):
        predictions = [predictions]
    metrics = metric_names(name)
    if len(metrics) > 1:
        return _merged(
            [
                compare(
                    metric,
                    references=references,
                    predictions=predictions,
                    names=names,
                    method=method,
                    resamples=resamples,
                    seed=seed,
                    confidence=confidence,
                    workers=workers,
                    **{k: v for k, v in options.items() if k in contract(metric).setting_names()},
                )
                for metric in _several(metrics, options)
            ]
        )
    names = list(names) if names is not None else short_names(predictions)
    settings = dict(
        method=method, resamples=resamples, seed=seed, confidence=confidence, workers=workers
    )
    metric = contract(name)
    # An unset config (None) is no setting: the files then tell it.
    options = {k: v for k, v in options.items() if v is not None or metric.option(k) is not None}
    config = metric.config
    if config is None:
        if len(predictions) == 1:
            found = _from_files(name, references, predictions[0], names, settings, options)
            if found is not None:
                return found
        systems = [read_official(name, references=references, predictions=p) for p in predictions]
        return compare_rows(name, systems, names=names, **settings, **options)
    chosen = options.pop(config.name, None)
    if references is None:
        kind = " folder" if metric.files.references.kind == "folder" else ""
        raise ValueError(f"{name} needs the gold{kind} as references")
    # Each system is one submission, holding one config or several.
    # Each system's (gold, submission) by config name: systems pair by name, whatever the
    # order their files come in.
    pairs = [{c: (g, s) for c, g, s in config.pairs(references, p, chosen)} for p in predictions]
    held = list(pairs[0])
    for p, more in zip(predictions, pairs):
        if set(more) != set(held):
            raise ValueError(
                f"{p} holds {', '.join(more)} but {predictions[0]} holds "
                f"{', '.join(held)}: compare the same {config.name}s (or pick one)"
            )
    out = {}
    for value in held:
        if len(pairs) == 1:
            gold, submitted = pairs[0][value]
            found = _from_files(name, gold, submitted, names, settings, options, value)
            if found is not None:
                out[value] = found
                continue
        systems = [
            read_official(name, references=more[value][0], predictions=more[value][1])
            for more in pairs
        ]
        out[value] = compare_rows(
            name, systems, names=names, config_name=value, **settings, **options
        )
    return out


def _several(metrics: list[str], options: Mapping[str, Any]) -> list[str]:
    """Metrics compared in one call: none with configs, every option taken by one of them."""
    with_configs = [m for m in metrics if contract(m).config is not None]
    if with_configs:
        raise ValueError(
            f"{', '.join(with_configs)} has configs: compare it alone, not with other metrics"
        )
    taken = {k for m in metrics for k in contract(m).setting_names()}
    unknown = sorted(set(options) - taken)
    if unknown:
        raise ValueError(f"{', '.join(metrics)} take no option {', '.join(unknown)}")
    return metrics


def _merged(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Several metrics' comparisons of the same systems as one result. With the same seed and
    the same units, every metric's resamples draw the same units: the merged intervals and
    p-values are those of resampling the metrics jointly."""
    first = results[0]
    for other in results[1:]:
        if (other["unit"], other["units"]) != (first["unit"], first["units"]):
            raise ValueError(
                f"{first['metric']} resamples {first['units']} {first['unit']}s but "
                f"{other['metric']} {other['units']} {other['unit']}s: compare them apart"
            )
    merged = {**first, "metric": ",".join(r["metric"] for r in results)}
    merged.pop("options", None)
    options = {k: v for r in results for k, v in r.get("options", {}).items()}
    if options:
        merged["options"] = options
    merged["systems"] = [
        {
            "name": system["name"],
            "scores": _union([r["systems"][i]["scores"] for r in results]),
            "official": _union([r["systems"][i]["official"] for r in results]),
        }
        for i, system in enumerate(first["systems"])
    ]
    merged["comparisons"] = [
        {**c, "scores": _union([r["comparisons"][i]["scores"] for r in results])}
        for i, c in enumerate(first["comparisons"])
    ]
    return merged


def _union(parts: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in parts:
        clash = sorted(set(part) & set(out))
        if clash:
            raise ValueError(f"the metrics both give {', '.join(clash)}: compare them apart")
        out.update(part)
    return out


def short_names(paths: Sequence[StrPath]) -> list[str]:
    """The shortest trailing parts of the paths that tell them apart (``a/pred.jsonl``)."""
    parts = [Path(p).parts for p in paths]
    for k in range(1, max((len(p) for p in parts), default=1) + 1):
        names = [str(Path(*p[-k:])) if p else "" for p in parts]
        if len(set(names)) == len(names):
            return names
    return [str(p) for p in paths]


def intervals(
    name: str,
    inputs: Mapping[str, Any],
    *,
    config_name: str | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    workers: int | None = None,
    **options: Any,
) -> dict[str, tuple[float, float]]:
    """Paired-bootstrap interval of each headline score of one system's ``compute()`` inputs."""
    result = compare_rows(
        name,
        [inputs],
        config_name=config_name,
        resamples=resamples,
        seed=seed,
        confidence=confidence,
        workers=workers,
        **options,
    )
    return {k: (v["low"], v["high"]) for k, v in result["systems"][0]["scores"].items()}


# ---------------------------------------------------------------------------------------------
# The human-readable table


def _signed(value: float) -> str:
    return f"{value:+.4f}"


def format_result(result: Mapping[str, Any]) -> str:
    """``compare``'s result as the table ``taskeval compare`` prints (one per config, for a
    metric with configs)."""
    if "systems" not in result:  # one result per config
        return "\n\n".join(f"== {sc}\n{format_result(r)}" for sc, r in result.items())
    percent = f"{result['confidence'] * 100:g}%"
    test = (
        "approximate randomization"
        if result["method"] == "randomization"
        else "paired bootstrap (centred)"
    )
    head = (
        f"{result['metric']}{' ' + result['config'] if 'config' in result else ''}: "
        f"{result['units']} {result['unit']}s, {result['resamples']} resamples, seed "
        f"{result['seed']}; {percent} paired-bootstrap intervals"
        + (f"; p-values: {test}" if result["comparisons"] else "")
    )
    comparisons = [c["scores"] for c in result["comparisons"]]
    baseline = result["systems"][0]["name"]
    header = ["score", "system", "value", f"{percent} interval"]
    if comparisons:
        against = baseline if len(baseline) <= 20 else "the first"
        header += [f"diff vs {against}", f"{percent} interval", "p"]
    rows = [header]
    for key in result["systems"][0]["scores"]:
        for i, system in enumerate(result["systems"]):
            s = system["scores"][key]
            row = [
                key if i == 0 else "",
                system["name"],
                f"{float(s['score']):.4f}",
                f"[{s['low']:.4f}, {s['high']:.4f}]",
            ]
            if comparisons:
                c = comparisons[i - 1][key] if i else None
                row += (
                    [
                        _signed(c["difference"]),
                        f"[{_signed(c['low'])}, {_signed(c['high'])}]",
                        f"{c['p_value']:.4f}",
                    ]
                    if c
                    else ["", "", ""]
                )
            rows.append(row)
    return head + "\n\n" + _table(rows)
