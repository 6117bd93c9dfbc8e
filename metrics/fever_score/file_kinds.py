"""FEVER's files at a glance (``CONTRACT.files.kinds``): a refused file named as the gold or the
predictions when it is the other side's."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def recognise(sample: Any) -> tuple[str, str] | None:
    """A predictions line has ``predicted_label`` or ``predicted_evidence`` (it may carry its
    gold too); a gold line a non-empty ``label`` and a list of ``evidence`` groups without them
    (FEVEROUS's header line, whose label is empty, and its evidence sets are not FEVER's)."""
    row = sample.first
    if type(row) is not dict:
        return None
    predicted = [k for k in ("predicted_label", "predicted_evidence") if k in row]
    if predicted:
        return "predictions", f"it has '{predicted[0]}'"
    evidence = row.get("evidence")
    if row.get("label") and type(evidence) is list:
        # FEVEROUS's evidence sets are objects with 'content': not FEVER's groups of lists
        if any(type(group) is dict for group in evidence):
            return None
        return "references", "it has 'label' and 'evidence'"
    return None
