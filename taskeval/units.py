"""Per-unit statistics of every metric, for paired resampling (see ``taskeval.compare``).

Each adapter turns one system's ``compute()`` inputs into the units its official metric
aggregates over, using only the metric core's own functions:

* ``fever_score``: claims; five sums per claim from the core's ``claim_scores``;
* ``scifact_abstract`` / ``scifact_sentence``: claims; the eight official counters of each claim
  from the core's ``count``, turned into scores by the core's ``abstract_scores`` /
  ``sentence_scores``;
* ``ehealthkd``: sentences; the eight counts of each sentence from the core's ``totals``, turned
  into scores by the core's ``metrics``;
* ``tydiqa``: examples within their (gold) language; each example's ``(gold_has, pred_has,
  credit, score)`` of both tasks from the core's ``language_stats``; every resample re-runs the
  core's sweep per language (``language_values``) and its ``macro_averages``.

A sum adapter's ``stats`` are additive: a resample's statistics are a weighted sum of unit rows,
which numpy computes for a thousand resamples at once. ``tydiqa`` is not additive (its threshold
is chosen anew on every resample) and is scored resample by resample.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .registry import metric_module

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


@dataclass
class StratifiedUnits:
    """One system's units in strata.

    ``parts[stratum]`` holds one object array per part of a unit's statistics (for TyDi QA:
    the passage and the minimal-answer tuple), indexed by unit; resampling indexes them all
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


def objects(items: list) -> np.ndarray:
    """A 1-d object array of ``items`` (tuples stay whole)."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


Adapter = SumAdapter | RowAdapter


# ---------------------------------------------------------------------------------------------
# fever_score


def _fever(options: Mapping[str, Any]) -> SumAdapter:
    core = metric_module("fever_score", "scoring")
    max_evidence = options.get("max_evidence", core.DEFAULT_MAX_EVIDENCE)

    def official(inputs: Inputs) -> dict[str, Any]:
        return core.fever_score(inputs["predictions"], inputs["references"], max_evidence)

    def units(inputs: Inputs) -> SumUnits:
        preds = core.normalize_predictions(inputs["predictions"])
        refs = core.normalize_references(inputs["references"])
        core.check_lengths(len(preds), len(refs))
        rows = [
            (
                float(strict),
                float(label_ok),
                float(precision is not None),
                0.0 if precision is None else precision,
                0.0 if recall is None else recall,
            )
            for label_ok, strict, precision, recall in core.claim_scores(preds, refs, max_evidence)
        ]
        return SumUnits(np.array(rows, dtype=np.float64).reshape(-1, 5))

    def aggregate(sums: np.ndarray, n: int) -> dict[str, np.ndarray]:
        # The core's own formulas turn each resample's sums into the five scores.
        scores = [core.scores_from_sums(s, c, n, round(v), p, r) for s, c, v, p, r in sums.tolist()]
        return {k: np.array([x[k] for x in scores], dtype=np.float64) for k in core.OUTPUT_KEYS}

    return SumAdapter("claim", core.OUTPUT_KEYS, official, units, aggregate)


# ---------------------------------------------------------------------------------------------
# scifact_abstract, scifact_sentence


def _scifact(name: str) -> SumAdapter:
    core = metric_module(name, "scoring")
    fields = core.Counts.FIELDS
    level = core.abstract_level if name == "scifact_abstract" else core.sentence_level
    to_scores = core.abstract_scores if name == "scifact_abstract" else core.sentence_scores
    keys = core.ABSTRACT_KEYS if name == "scifact_abstract" else core.SENTENCE_KEYS

    def official(inputs: Inputs) -> dict[str, Any]:
        return level(inputs["predictions"], inputs["references"])

    def units(inputs: Inputs) -> SumUnits:
        preds, refs = inputs["predictions"], inputs["references"]
        core.check_predictions(preds)
        core.check_references(refs)
        core.check_pairs(preds, refs)
        rows = []
        for pred, ref in zip(preds, refs):
            c = core.count([pred], [ref])
            rows.append([getattr(c, f) for f in fields])
        return SumUnits(np.array(rows, dtype=np.float64).reshape(-1, len(fields)))

    def aggregate(sums: np.ndarray, n: int) -> dict[str, np.ndarray]:
        # The counters are integers: the core's own formulas turn them into scores.
        scores = [to_scores(core.Counts(*map(int, row))) for row in np.rint(sums).astype(np.int64)]
        return {k: np.array([s[k] for s in scores], dtype=np.float64) for k in keys}

    return SumAdapter("claim", keys, official, units, aggregate)


# ---------------------------------------------------------------------------------------------
# ehealthkd


def _ehealthkd(scenario: str) -> SumAdapter:
    core = metric_module("ehealthkd", "scoring")
    core.check_scenario(scenario)

    def official(inputs: Inputs) -> dict[str, Any]:
        return core.ehealthkd(inputs["predictions"], inputs["references"], scenario)

    def units(inputs: Inputs) -> SumUnits:
        preds = core.normalize_rows(inputs["predictions"], "predictions")
        refs = core.normalize_rows(inputs["references"], "references")
        core.check_lengths(len(preds), len(refs))
        stats = np.zeros((len(preds), len(core.COUNT_KEYS)), dtype=np.float64)
        # A sentence pair the official tool skips (no gold annotation, other text) counts zero.
        for m in core.match_pairs(preds, refs):
            counts = core.totals([m])
            stats[m.index] = [counts[k] for k in core.COUNT_KEYS]
        return SumUnits(stats)

    def aggregate(sums: np.ndarray, n: int) -> dict[str, np.ndarray]:
        out: dict[str, list[float]] = {k: [] for k in ("precision", "recall", "f1")}
        for row in np.rint(sums).astype(np.int64):
            values = core.metrics(dict(zip(core.COUNT_KEYS, map(int, row))), scenario)
            for k, v in out.items():
                v.append(values[k])
        return {k: np.array(v, dtype=np.float64) for k, v in out.items()}

    return SumAdapter("sentence", ("precision", "recall", "f1"), official, units, aggregate)


# ---------------------------------------------------------------------------------------------
# tydiqa


def _tydiqa(options: Mapping[str, Any]) -> RowAdapter:
    core = metric_module("tydiqa", "scoring")
    passage = options.get("passage_non_null_threshold", core.DEFAULT_THRESHOLD)
    minimal = options.get("minimal_non_null_threshold", core.DEFAULT_THRESHOLD)
    core.check_threshold("passage_non_null_threshold", passage)
    core.check_threshold("minimal_non_null_threshold", minimal)

    normalized: dict[tuple[int, int], tuple[list, list]] = {}

    def normalize(inputs: Inputs) -> tuple[list, list]:
        # Checked once per system for both the official score and the units (this adapter
        # lives for one comparison, while its inputs are alive).
        key = (id(inputs["predictions"]), id(inputs["references"]))
        if key not in normalized:
            core.check_rows(inputs["predictions"], "predictions")
            core.check_rows(inputs["references"], "references")
            core.check_lengths(len(inputs["predictions"]), len(inputs["references"]))
            normalized[key] = (
                core.normalize_predictions(inputs["predictions"]),
                core.normalize_references(inputs["references"]),
            )
        return normalized[key]

    def official(inputs: Inputs) -> dict[str, Any]:
        # What tydiqa_score (compute()) does: check, normalize, score.
        return core.score(*normalize(inputs), passage, minimal)

    def compact(inputs: Inputs) -> tuple[dict[int, Any], dict[int, Any]]:
        preds, refs = normalize(inputs)
        # As the core pairs rows: by example_id, a later duplicate replacing the earlier.
        gold = {r[0]: r for r in refs if r is not None}
        latest = {p[0]: p for p in preds if p is not None}
        return gold, latest

    def units(inputs: Inputs) -> StratifiedUnits:
        gold, latest = compact(inputs)
        present = {p[1] for p in latest.values()}
        strata = [language for language in core.LANGUAGES if language in present]
        unused = max([0, *gold, *latest]) + 1  # an id no row has: a prediction that matches none
        unit_stats: dict[str, list] = {language: [] for language in strata}
        ids: dict[str, list[int]] = {language: [] for language in strata}
        for example_id, ref in gold.items():
            language = ref[1]
            if language not in unit_stats:
                continue  # never scored: the official script skips the language
            pred = latest.get(example_id)
            # The example alone, plus a prediction matching nothing that keeps its language
            # scored when its own prediction is missing or carries another language.
            anchor = (unused, language, -1, 0.0, -1, -1, 0.0, "none")
            preds = [anchor] if pred is None else [anchor, pred]
            stats = {
                lang: (p, m)
                for lang, p, m, _ in core.language_stats(preds, [ref], passage, minimal)
            }
            passage_stats, minimal_stats = stats[language]
            unit_stats[language].append((passage_stats[0], minimal_stats[0]))
            ids[language].append(example_id)
        parts, identity = {}, {}
        for language, stats in unit_stats.items():
            if not stats:
                continue
            parts[language] = (objects([u[0] for u in stats]), objects([u[1] for u in stats]))
            # The core visits a language's examples in the order of a set of their ids.
            where = {example_id: i for i, example_id in enumerate(ids[language])}
            identity[language] = [where[example_id] for example_id in set(ids[language])]
        return StratifiedUnits(parts, identity, strata)

    return RowAdapter("example", core.AVG_KEYS, official, units, _tydiqa_score(core))


def _tydiqa_score(core: Any) -> Callable[[dict[str, tuple[list, ...]]], dict[str, float]]:
    def score(stats: dict[str, tuple[list, ...]]) -> dict[str, float]:
        # Per language, the core's sweep on both tasks, then its macro means.
        return core.macro_averages(
            {
                language: core.language_values(passage_stats, minimal_stats)
                for language, (passage_stats, minimal_stats) in stats.items()
            }
        )

    return score


# ---------------------------------------------------------------------------------------------


def adapter(name: str, config_name: str | None = None, **options: Any) -> Adapter:
    """The resampling adapter of a metric (``config_name``: the eHealth-KD scenario)."""
    allowed = set(metric_module(name, "inputs").OPTIONS)
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValueError(
            f"{name} has no option {', '.join(unknown)}"
            + (f" (options: {', '.join(sorted(allowed))})" if allowed else " (it takes none)")
        )
    if name == "fever_score":
        return _fever(options)
    if name in ("scifact_abstract", "scifact_sentence"):
        return _scifact(name)
    if name == "ehealthkd":
        return _ehealthkd(config_name or "scenario1")
    if name == "tydiqa":
        return _tydiqa(options)
    raise ValueError(f"no resampling adapter for metric {name!r}")


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
        sums = np.cumsum(stats, axis=0)[-1:] if len(stats) else np.zeros((1, stats.shape[1]))
        return {k: v[0].item() for k, v in a.aggregate(sums, len(stats)).items()}
    units = a.units(inputs)
    stats = {
        s: tuple(part[units.identity[s]].tolist() for part in units.parts[s])
        if s in units.parts
        else ([], [])
        for s in units.strata
    }
    return a.score(stats)
