"""Scoring core of ``fever_score``: the FEVER scorer (``fever-scorer`` 2.0.39) in plain Python.

* ``rules``: the official rules, one function each, and the sums (read it top to bottom);
* ``rows``: the row checks (``normalize_predictions`` / ``normalize_references``), which raise a
  ``ValueError`` naming the row, its id and the field;
* ``fast_path``: rows in the official list form scored as they are, by the same rules.

``fever_score(predictions, references, max_evidence=5)`` checks and scores; ``score`` scores
normalized rows; ``claim_scores`` and ``claim_details`` give the rules' verdict claim by claim.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from .fast_path import official_form_score, official_form_scores
from .plain_values import gc_paused
from .rows import (
    _CHUNK,
    check_lengths,
    check_max_evidence,
    check_rows,
    normalize_predictions,
    normalize_references,
    settle_predicted_evidence,
)
from .rules import (
    DEFAULT_MAX_EVIDENCE,
    NOT_ENOUGH_INFO,
    OUTPUT_KEYS,
    add_claims,
    claim_score,
    new_totals,
    scores,
    scores_from_sums,
)

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    from .rows import Prediction, Reference

__all__ = [
    "DEFAULT_MAX_EVIDENCE",
    "NOT_ENOUGH_INFO",
    "OUTPUT_KEYS",
    "_CHUNK",
    "check_lengths",
    "check_max_evidence",
    "check_rows",
    "claim_details",
    "claim_score",
    "claim_scores",
    "fever_score",
    "gc_paused",
    "normalize_predictions",
    "normalize_references",
    "official_form_score",
    "score",
    "scores_from_sums",
]


def claim_scores(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> Iterator[tuple[bool, bool, float | None, float | None]]:
    """``claim_score`` of every normalized row: (label right, strictly right, evidence precision,
    evidence recall), precision and recall None for NOT ENOUGH INFO gold claims."""
    predictions = settle_predicted_evidence(predictions, references)
    for (predicted_label, predicted), (gold_label, groups) in zip(predictions, references):
        yield claim_score(predicted_label, predicted, gold_label, groups, max_evidence)


def score(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> dict[str, float]:
    """The five official numbers from normalized rows (see ``normalize_*``)."""
    check_lengths(len(predictions), len(references))
    max_evidence = check_max_evidence(max_evidence)
    predictions = settle_predicted_evidence(predictions, references)
    totals = new_totals()
    labels, evidence = zip(*predictions)
    gold_labels, gold_evidence = zip(*references)
    add_claims(totals, labels, evidence, gold_labels, gold_evidence, max_evidence)
    return scores(totals, len(predictions))


def claim_details(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> list[dict[str, Any]]:
    """One record per claim saying how it was counted, for error analysis."""
    out = []
    rows = zip(predictions, references, claim_scores(predictions, references, max_evidence))
    for index, ((predicted_label, _), (gold_label, groups), verdict) in enumerate(rows):
        label_ok, strict_ok, precision, recall = verdict
        if not label_ok:
            why = "wrong label"
        elif precision is None:
            why = "right label; NOT ENOUGH INFO needs no evidence"
        elif strict_ok:
            why = "right label and a complete gold evidence group"
        elif not groups:
            why = "right label, but the gold has no evidence group"
        else:
            why = f"right label, but no complete gold evidence group in the first {max_evidence} sentences"
        out.append(
            {
                "row": index,
                "gold_label": gold_label,
                "predicted_label": predicted_label,
                "label_correct": label_ok,
                "strict": strict_ok,
                "evidence_precision": precision,
                "evidence_recall": recall,
                "why": why,
            }
        )
    return out


def fever_score(
    predictions: Sequence[Mapping],
    references: Sequence[Mapping],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
    details: bool = False,
) -> dict[str, Any]:
    """Check the rows and score them exactly as ``fever.scorer.fever_score`` 2.0.39 does.

    With ``details=True`` the result also has ``"details"``: one record per claim (see
    ``claim_details``), for error analysis.
    """
    max_evidence = check_max_evidence(max_evidence)
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    check_lengths(len(predictions), len(references))
    with gc_paused():
        if not details:
            result = official_form_scores(predictions, references, max_evidence)
            if result is not None:
                return result
        preds, refs = normalize_predictions(predictions), normalize_references(references)
        preds = settle_predicted_evidence(preds, refs)
        result = score(preds, refs, max_evidence)
        if details:
            result["details"] = claim_details(preds, refs, max_evidence)
        return result
