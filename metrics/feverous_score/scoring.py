"""Scoring core of ``feverous_score``: the official FEVEROUS scorer (``feverous_scorer.py``) in
plain Python.

* ``rules``: the official rules, one function each, and the sums (read it top to bottom);
* ``rows``: the row checks, which raise a ``ValueError`` naming the row, its id and the field;
* ``element_ids``: how an element id string becomes ``(page, type, position)``.

``feverous_score(predictions, references, ...)`` checks and scores, leaving the caller's rows
as they were (the official function pops items from the caller's predicted evidence);
``claim_scores`` and ``claim_details`` give the rules' verdict claim by claim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .element_ids import DEFAULT_READING, check_reading
from .plain_values import gc_paused
from .rows import (
    check_bound,
    check_lengths,
    check_rows,
    normalize_predictions,
    normalize_references,
    places,
    read_ids,
)
from .rules import (
    DEFAULT_MAX_EVIDENCE,
    DEFAULT_MAX_EVIDENCE_CELL,
    OUTPUT_KEYS,
    TABLE_TYPES,
    claim_score,
    kept_evidence,
    scores,
    scores_from_sums,
)

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    from .rows import Prediction, Reference

__all__ = [
    "DEFAULT_MAX_EVIDENCE",
    "DEFAULT_MAX_EVIDENCE_CELL",
    "DEFAULT_READING",
    "OUTPUT_KEYS",
    "check_lengths",
    "check_options",
    "check_rows",
    "checked_rows",
    "claim_details",
    "claim_scores",
    "feverous_score",
    "normalize_predictions",
    "normalize_references",
    "read_ids",
    "score",
    "scores_from_sums",
]


def check_options(
    max_evidence: Any = DEFAULT_MAX_EVIDENCE,
    max_evidence_cell: Any = DEFAULT_MAX_EVIDENCE_CELL,
    id_reading: Any = DEFAULT_READING,
) -> tuple[int | None, int | None, str]:
    """The three options, checked: two bounds (an int or None) and the id reading."""
    return (
        check_bound("max_evidence", max_evidence),
        check_bound("max_evidence_cell", max_evidence_cell),
        check_reading(id_reading),
    )


def claim_scores(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
    max_evidence_cell: int | None = DEFAULT_MAX_EVIDENCE_CELL,
) -> list[tuple[bool, bool, float, float]]:
    """``claim_score`` of every row whose ids are read: (label right, strictly right, evidence
    precision, evidence recall)."""
    return [
        claim_score(label, items, gold_label, groups, max_evidence, max_evidence_cell)
        for (label, items), (gold_label, groups) in zip(predictions, references)
    ]


def score(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
    max_evidence_cell: int | None = DEFAULT_MAX_EVIDENCE_CELL,
) -> dict[str, float]:
    """The five official numbers from rows whose ids are read (``read_ids``)."""
    check_lengths(len(predictions), len(references))
    return scores(claim_scores(predictions, references, max_evidence, max_evidence_cell))


def _why(label_ok: bool, strict: bool, groups: list, recall: float) -> str:
    if not label_ok:
        return "wrong label"
    if strict:
        return "right label and a complete gold evidence group"
    if not groups:
        return "right label, but the gold has no evidence group (never strictly right)"
    return "right label, but no complete gold evidence group among the kept evidence"


def claim_details(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
    max_evidence_cell: int | None = DEFAULT_MAX_EVIDENCE_CELL,
) -> list[dict[str, Any]]:
    """One record per claim saying how it was counted, for error analysis."""
    out = []
    verdicts = claim_scores(predictions, references, max_evidence, max_evidence_cell)
    for index, ((label, items), (gold_label, groups), verdict) in enumerate(
        zip(predictions, references, verdicts)
    ):
        label_ok, strict, precision, recall = verdict
        kept = kept_evidence(items, max_evidence, max_evidence_cell)
        tables = sum(item[1] in TABLE_TYPES for item in kept)
        out.append(
            {
                "row": index,
                "gold_label": gold_label,
                "predicted_label": label,
                "label_correct": label_ok,
                "strict": strict,
                "evidence_precision": precision,
                "evidence_recall": recall,
                "kept_sentences": len(kept) - tables,
                "kept_table_items": tables,
                "dropped": len(items) - len(kept),
                "why": _why(label_ok, strict, groups, recall),
            }
        )
    return out


def checked_rows(
    predictions: Sequence[Mapping], references: Sequence[Mapping], id_reading: str
) -> tuple[list[Prediction], list[Reference]]:
    """Rows checked (a ``ValueError`` naming row, id and field) with their element ids read
    under ``id_reading``, ready for ``score`` and ``claim_scores``."""
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    check_lengths(len(predictions), len(references))
    preds = normalize_predictions(predictions)
    refs = normalize_references(references)
    return read_ids(preds, refs, id_reading, places(predictions, references))


def feverous_score(
    predictions: Sequence[Mapping],
    references: Sequence[Mapping],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
    max_evidence_cell: int | None = DEFAULT_MAX_EVIDENCE_CELL,
    id_reading: str = DEFAULT_READING,
    details: bool = False,
) -> dict[str, Any]:
    """Check the rows and score them exactly as the official ``feverous_score(predictions,
    actual, max_evidence, max_evidence_cell)`` does, element id strings read under
    ``id_reading``. With ``details=True`` the result also has ``"details"``, one record per
    claim (``claim_details``)."""
    max_evidence, max_evidence_cell, id_reading = check_options(
        max_evidence, max_evidence_cell, id_reading
    )
    with gc_paused():
        preds, refs = checked_rows(predictions, references, id_reading)
        result: dict[str, Any] = score(preds, refs, max_evidence, max_evidence_cell)
        if details:
            result["details"] = claim_details(preds, refs, max_evidence, max_evidence_cell)
        return result
