"""FEVER 2.0 (the builder–breaker shared task) scores: potency, adjusted potency, resilience.

Breakers write new claims (a gold file each), builders' systems predict them; every system is
scored on every breaker's claims with the FEVER score (the scoring core's ``strict_score``, as
the official ``fever2`` scorer takes ``fever_score(...)[0]``). Then, as the official scorer of the
task (``fever2/scorer.py`` of fever-scorer's ``release-v2.0``) computes them:

* a breaker's **potency**: the mean over systems of ``1 - FEVER score``, added in the systems'
  order by ``sum()`` from the int 0, divided by the number of systems; ``0`` (an int) without
  systems;
* its **adjusted potency**: ``potency * correct_rate``, the share of its claims that annotators
  found correct;
* a system's **resilience**: ``sum(score_b * rate_b) / sum(rate_b)`` over the breakers ``b`` in
  their order, both sums by ``sum()``.

The arithmetic is the official one, operation for operation: ``sum()`` where it uses ``sum()``
(compensated on Python 3.12 and later, as the official code is on the same interpreter).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import isfinite
from operator import mul

from .plain_values import plain, shown
from .scoring import DEFAULT_MAX_EVIDENCE, fever_score

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ScoringError",
    "adjusted_potency",
    "fever2_scores",
    "potency",
    "resilience",
]


class ScoringError(ValueError):
    """A system's rows refused on a breaker: the message names both; ``breaker``, ``system`` and
    ``reason`` (the scoring core's message, naming the row and field) are kept for callers that
    name the files instead."""

    def __init__(self, breaker: str, system: str, reason: str) -> None:
        super().__init__(f"breaker {shown(breaker)}, system {shown(system)}: {reason}")
        self.breaker, self.system, self.reason = breaker, system, reason


def _fraction(value: Any, where: str, what: str) -> float:
    """A number from 0 to 1 (an int or a float, numpy's too; never a bool), as a float."""
    value = plain(value)
    if type(value) not in (int, float) or not isfinite(value) or not 0 <= value <= 1:
        raise ValueError(f"{where} must be {what}, a number from 0 to 1, got {shown(value)}")
    return float(value)


def _scores(fever_scores: Iterable[Any], where: str = "fever_scores") -> list[float]:
    return [_fraction(s, f"{where}[{i}]", "a FEVER score") for i, s in enumerate(fever_scores)]


def _rates(correct_rates: Iterable[Any], where: str = "correct_rates") -> list[float]:
    return [_fraction(r, f"{where}[{i}]", "a correct rate") for i, r in enumerate(correct_rates)]


def _missed(score: float) -> float:
    return 1 - score  # the official ``1-fever_score(...)[0]``: the int 1 less the float


def _potency(scores: list[float]) -> float:
    if not scores:
        return 0  # the official scorer's int 0 for a breaker no system was run on
    return sum(map(_missed, scores)) / len(scores)


def potency(fever_scores: Iterable[float]) -> float:
    """A breaker's potency from the FEVER scores of the systems run on its claims, in the
    systems' order: ``sum(1 - score) / number of systems`` (``sum()`` from the int 0), and the
    int ``0`` for no system. Each score must be a number from 0 to 1 (``ValueError`` naming
    ``fever_scores[i]`` otherwise)."""
    return _potency(_scores(fever_scores))


def adjusted_potency(fever_scores: Iterable[float], correct_rate: float) -> float:
    """A breaker's potency (see ``potency``) times its correct rate: the share of its claims the
    annotators found correct, a number from 0 to 1."""
    rate = _fraction(correct_rate, "correct_rate", "a correct rate")
    return _potency(_scores(fever_scores)) * rate


def _resilience(scores: list[float], rates: list[float]) -> float:
    return sum(map(mul, scores, rates)) / sum(rates)


def resilience(fever_scores: Sequence[float], correct_rates: Sequence[float]) -> float:
    """A system's resilience from its FEVER score on each breaker and the breakers' correct
    rates, both in the breakers' order: ``sum(score_b * rate_b) / sum(rate_b)``.

    Raises ``ValueError`` when the two lists differ in length (the official command line zips
    them, dropping or shifting breakers; see the metric card) or the rates sum to 0."""
    scores, rates = _scores(fever_scores), _rates(correct_rates)
    if len(scores) != len(rates):
        raise ValueError(
            f"fever_scores has {len(scores)} scores but correct_rates has {len(rates)} rates: a "
            f"system needs its FEVER score on every breaker, in the breakers' order"
        )
    _check_rate_sum(rates)
    return _resilience(scores, rates)


def _check_rate_sum(rates: list[float]) -> None:
    if sum(rates) == 0:
        raise ValueError(
            f"the correct rates sum to 0 ({len(rates)} breakers): resilience divides by their "
            f"sum, so at least one breaker needs a correct rate above 0"
        )


# ---------------------------------------------------------------------------------------------
# A whole table of breakers and systems, from rows

_BREAKER_KEYS = ("correct_rate", "references", "systems")


def _breaker(name: Any, breaker: Any) -> tuple[float, Any, Mapping]:
    """A breaker's entry checked: (correct rate, references or None, systems)."""
    where = f"breaker {shown(name)}"
    if type(name) is not str:
        raise ValueError(f"breaker names must be strings, got {shown(name)}")
    if not isinstance(breaker, Mapping):
        raise ValueError(
            f"{where}: expected a dict with {', '.join(map(repr, _BREAKER_KEYS))}, got "
            f"{type(breaker).__name__}"
        )
    unknown = [key for key in breaker if key not in _BREAKER_KEYS]
    if unknown:
        raise ValueError(
            f"{where}: unknown field {shown(unknown[0])} (a breaker has "
            f"{', '.join(map(repr, _BREAKER_KEYS))})"
        )
    if "correct_rate" not in breaker:
        raise ValueError(f"{where}: missing field 'correct_rate'")
    rate = _fraction(breaker["correct_rate"], f"{where}: field 'correct_rate'", "a correct rate")
    systems = breaker.get("systems")
    if not isinstance(systems, Mapping):
        raise ValueError(
            f"{where}: field 'systems' must be a dict of system name -> prediction rows, got "
            f"{type(systems).__name__}"
        )
    for system in systems:
        if type(system) is not str:
            raise ValueError(f"{where}: system names must be strings, got {shown(system)}")
    return rate, breaker.get("references"), systems


def _inputs(name: str, system: str, rows: Any, references: Any) -> tuple[Any, Any]:
    """A system's (predictions, references) on a breaker: its prediction rows with the breaker's
    references, or compute()'s inputs of its own."""
    if isinstance(rows, Mapping):
        if set(rows) != {"predictions", "references"}:
            raise ScoringError(
                name,
                system,
                f"expected a list of prediction rows or a dict with 'predictions' and "
                f"'references', got a dict with {sorted(map(str, rows))}",
            )
        return rows["predictions"], rows["references"]
    if references is None:
        raise ScoringError(
            name,
            system,
            "the breaker has no 'references' for its prediction rows (give the breaker's gold "
            "rows, or the system's own as {'predictions': ..., 'references': ...})",
        )
    return rows, references


def _same_systems(checked: dict[str, tuple[float, Any, Mapping]]) -> list[str]:
    """The systems' names in the first breaker's order, every breaker having the same ones."""
    if not checked:
        return []
    first, (_, _, systems) = next(iter(checked.items()))
    names = list(systems)
    for name, (_, _, others) in checked.items():
        missing = [s for s in names if s not in others]
        extra = [s for s in others if s not in systems]
        if missing:
            raise ValueError(
                f"breaker {shown(name)}: no predictions of system {shown(missing[0])} (breaker "
                f"{shown(first)} has them): every system must be scored on every breaker, under "
                f"the same name"
            )
        if extra:
            raise ValueError(
                f"breaker {shown(name)}: predictions of system {shown(extra[0])}, which breaker "
                f"{shown(first)} lacks: every system must be scored on every breaker, under the "
                f"same name"
            )
    return names


def fever2_scores(
    breakers: Mapping[str, Mapping[str, Any]], max_evidence: int | None = DEFAULT_MAX_EVIDENCE
) -> dict[str, dict[str, dict[str, Any]]]:
    """Score a builder–breaker table: every system on every breaker, then each breaker's potency
    and adjusted potency and each system's resilience, as the official FEVER 2.0 scorer does.

    ``breakers`` maps each breaker's name, in order, to ``{"correct_rate": r, "references":
    gold rows, "systems": {system name: prediction rows}}``: the rows of ``fever_score``'s
    ``compute()`` (a system may instead give ``{"predictions": ..., "references": ...}``, gold of
    its own, as ``read_official`` reads prediction lines that carry their gold; the breaker's
    ``references`` may then be left out). Every breaker must have the same systems; a breaker's
    potency adds its systems in the order given, and the systems of the result follow the first
    breaker's order. ``max_evidence`` is ``fever_score``'s (the official scorer's default, 5).

    Returns ``{"breakers": {name: {"correct_rate", "systems", "potency", "adjusted_potency"}},
    "systems": {name: {"resilience", "fever_scores": {breaker: FEVER score}}}}``. Invalid input
    raises ``ValueError`` naming the breaker, the system, the row and the field (a
    ``ScoringError`` for the rows of a system).
    """
    if not isinstance(breakers, Mapping):
        raise ValueError(
            f"breakers must be a dict of breaker name -> breaker, got {type(breakers).__name__}"
        )
    checked = {name: _breaker(name, breaker) for name, breaker in breakers.items()}
    names = _same_systems(checked)
    table: dict[str, dict[str, float]] = {}  # breaker -> system -> FEVER score
    for name, (_, references, systems) in checked.items():
        table[name] = {}
        for system, rows in systems.items():
            predictions, gold = _inputs(name, system, rows, references)
            try:
                score = fever_score(predictions, gold, max_evidence)["strict_score"]
            except ValueError as e:
                raise ScoringError(name, system, str(e)) from None
            table[name][system] = score
    rates = [rate for rate, _, _ in checked.values()]
    if names:
        _check_rate_sum(rates)
    out_breakers = {}
    for name, (rate, _, _) in checked.items():
        value = _potency(list(table[name].values()))
        out_breakers[name] = {
            "correct_rate": rate,
            "systems": len(table[name]),
            "potency": value,
            "adjusted_potency": value * rate,
        }
    out_systems = {}
    for system in names:
        scores = [table[name][system] for name in checked]
        out_systems[system] = {
            "resilience": _resilience(scores, rates),
            "fever_scores": {name: table[name][system] for name in checked},
        }
    return {"breakers": out_breakers, "systems": out_systems}
