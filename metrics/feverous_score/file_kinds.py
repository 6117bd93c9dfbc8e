"""FEVEROUS's files at a glance (``CONTRACT.files.kinds``): a refused file named as the gold or
the predictions when it is the other side's. FEVEROUS evidence is element id strings (or
``[page, type, position]`` lists) and gold evidence sets with ``content``, which tells its files
from FEVER's (``[page, line]`` pairs)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _items(value: Any) -> bool:
    return (
        type(value) is list
        and bool(value)
        and all(type(i) is str or (type(i) is list and len(i) == 3) for i in value[:8])
    )


def _sets(value: Any) -> bool:
    return (
        type(value) is list
        and bool(value)
        and all(type(e) is dict and "content" in e for e in value[:8])
    )


def recognise(sample: Any) -> tuple[str, str] | None:
    """A predictions line (or evaluate.py's file: gold and predictions in one) has FEVEROUS
    ``predicted_evidence`` or evidence sets beside a ``predicted_label``; a gold line a label and
    evidence sets with ``content``. A header line (its label empty) tells neither."""
    row = sample.first
    if type(row) is not dict:
        return None
    if "predicted_label" in row or "predicted_evidence" in row:
        if _items(row.get("predicted_evidence")) or _sets(row.get("evidence")):
            return "predictions", "it has 'predicted_evidence' of element ids"
        return None
    # The dataset's header line (an empty label) opens the gold and evaluate.py's file alike.
    if row.get("label") and _sets(row.get("evidence")):
        return "references", "it has 'label' and 'evidence' sets with 'content'"
    return None
