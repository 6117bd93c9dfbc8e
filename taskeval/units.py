"""Per-unit statistics of any metric, for paired resampling (see ``taskeval.compare``).

A metric's contract gives its statistics (``CONTRACT.statistics``, see ``taskeval.contract``):
either sums over units (``SumStatistics``: a row of floats per unit, and the scores made from
their sums) or units scored anew on every resample within strata (``StratifiedStatistics``).
Here they become the arrays ``compare`` resamples: a sum adapter's ``stats`` are additive, so a
resample's statistics are the sums of its units' rows, added in the official order
(``taskeval.ordered``), which numpy computes for a thousand resamples at once; a row adapter is scored stratum by stratum for many resamples at once when
the metric has ``many`` (``ManyResamples``), else resample by resample.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .contract import ManyResamples, StratifiedStatistics, SumStatistics
from .ordered import in_drawn_order
from .registry import contract

Inputs = Mapping[str, Any]  # compute() keyword inputs: predictions, references


@dataclass
class SumUnits:
    """One system's additive unit statistics: ``stats[i]`` is unit ``i``'s row."""

    stats: np.ndarray  # (n_units, n_stats) float64


@dataclass
class SumAdapter:
    """A metric whose scores are a function of sums over units."""

    unit: str
    keys: tuple[str, ...]  # outputs that get intervals
    official: Callable[[Inputs], dict[str, Any]]  # compute()'s numbers, from the core
    units: Callable[[Inputs], SumUnits]
    # summed stats (B, n_stats) and the number of units per resample → one array per key
    aggregate: Callable[[np.ndarray, int], dict[str, np.ndarray]]
    # (official(inputs), units(inputs)) in one pass, when the metric can give both at once
    official_and_units: Callable[[Inputs], tuple[dict[str, Any], SumUnits]] | None = None
    # the same pair straight from official files (references, predictions), or None where the
    # metric has no such shortcut or it does not apply to these files
    official_and_units_from_files: Callable[[Any, Any], tuple[dict[str, Any], SumUnits] | None] = (
        lambda references, predictions: None
    )


@dataclass
class StratifiedUnits:
    """One system's units in strata.

    ``parts[stratum]`` holds one object array per part of a unit's statistics (say, one
    tuple per task), indexed by unit; resampling indexes them all
    with the same draw.
    """

    parts: dict[str, tuple[np.ndarray, ...]]
    identity: dict[str, list[int]]  # the official visiting order of the original sample
    strata: list[str]  # scored even with no unit (a language present only through predictions)


@dataclass
class RowAdapter:
    """A metric scored anew on every resample from its units' statistics, per stratum."""

    unit: str
    keys: tuple[str, ...]
    official: Callable[[Inputs], dict[str, Any]]
    units: Callable[[Inputs], StratifiedUnits]
    # the parts per scored stratum, in visiting order → one float per key
    score: Callable[[dict[str, tuple[list, ...]]], dict[str, float]]
    # many resamples at once (``StratifiedStatistics.many``), when the metric has it
    many: ManyResamples | None = None
    # (official(inputs), units(inputs)) straight from official files, or None (as SumAdapter's)
    official_and_units_from_files: Callable[
        [Any, Any], tuple[dict[str, Any], StratifiedUnits] | None
    ] = lambda references, predictions: None


def objects(items: list) -> np.ndarray:
    """A 1-d object array of ``items`` (tuples stay whole)."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


Adapter = SumAdapter | RowAdapter


def _sum_adapter(statistics: SumStatistics) -> SumAdapter:
    width = statistics.width

    def as_units(rows: list) -> SumUnits:
        return SumUnits(np.array(rows, dtype=np.float64).reshape(-1, width))

    def units(inputs: Inputs) -> SumUnits:
        return as_units(statistics.stats(inputs))

    both = statistics.official_and_stats
    official_and_units = None
    if both is not None:

        def official_and_units(inputs: Inputs) -> tuple[dict[str, Any], SumUnits]:
            official, rows = both(inputs)
            return official, as_units(rows)

    def aggregate(sums: np.ndarray, n: int) -> dict[str, np.ndarray]:
        # The metric's own formulas turn each resample's sums into its scores.
        scores = [statistics.scores(row, n) for row in sums.tolist()]
        return {k: np.array([s[k] for s in scores], dtype=np.float64) for k in statistics.keys}

    return SumAdapter(
        statistics.unit,
        statistics.keys,
        statistics.official,
        units,
        aggregate,
        official_and_units,
        _from_files(statistics.official_and_stats_from_files, as_units),
    )


def _from_files(from_files: Callable | None, as_units: Callable) -> Callable:
    """A contract's ``(official, statistics)`` straight from files, or None, with the
    statistics made the adapter's units."""

    def official_and_units_from_files(references: Any, predictions: Any) -> tuple | None:
        found = None if from_files is None else from_files(references, predictions)
        return None if found is None else (found[0], as_units(found[1]))

    return official_and_units_from_files


def _row_adapter(statistics: StratifiedStatistics) -> RowAdapter:
    def as_units(found: tuple) -> StratifiedUnits:
        parts, identity, strata = found
        arrays = {s: tuple(objects(list(p)) for p in stratum) for s, stratum in parts.items()}
        return StratifiedUnits(arrays, identity, list(strata))

    def units(inputs: Inputs) -> StratifiedUnits:
        return as_units(statistics.units(inputs))

    return RowAdapter(
        statistics.unit,
        statistics.keys,
        statistics.official,
        units,
        statistics.score,
        statistics.many,
        _from_files(statistics.official_and_units_from_files, as_units),
    )


def adapter(name: str, config_name: str | None = None, **options: Any) -> Adapter:
    """The resampling adapter of a metric (``config_name``: one of its configs)."""
    metric = contract(name)
    allowed = {option.name for option in metric.options}
    unknown = sorted(set(options) - allowed)
    config = metric.config
    if config is not None and config.name in unknown:  # a config is no option: say which it is
        raise ValueError(
            f"{config.name} is {name}'s config, not an option: pass "
            f"config_name={options[config.name]!r}"
        )
    if unknown:
        raise ValueError(
            f"{name} has no option {', '.join(unknown)}"
            + (f" (options: {', '.join(sorted(allowed))})" if allowed else " (it takes none)")
        )
    statistics = metric.statistics(config_name, options)
    if isinstance(statistics, SumStatistics):
        return _sum_adapter(statistics)
    if isinstance(statistics, StratifiedStatistics):
        return _row_adapter(statistics)
    raise ValueError(f"no resampling statistics for metric {name!r}")


def identity_scores(
    name: str, inputs: Inputs, config_name: str | None = None, **options: Any
) -> dict[str, float]:
    """The headline scores recomputed from the per-unit statistics of the original sample.

    Sums run left to right in unit order, as the official loops do, so this equals ``compute()``
    exactly: what the tests check on the parity cases.
    """
    a = adapter(name, config_name, **options)
    if isinstance(a, SumAdapter):
        stats = a.units(inputs).stats
        sums = in_drawn_order(np.ascontiguousarray(stats.T))[None, :]
        return {k: v[0].item() for k, v in a.aggregate(sums, len(stats)).items()}
    units = a.units(inputs)
    stats = {
        s: tuple(part[units.identity[s]].tolist() for part in units.parts[s])
        if s in units.parts
        else ([], [])
        for s in units.strata
    }
    return a.score(stats)
