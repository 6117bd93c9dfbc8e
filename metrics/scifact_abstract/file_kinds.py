"""SciFact's files at a glance (``CONTRACT.files.kinds``): a refused file named as the claims or
the predictions when it is the other side's."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def recognise(sample: Any) -> tuple[str, str] | None:
    """A claims line has its ``claim`` text and ``evidence`` by document (a list of rationales
    per document) or ``cited_doc_ids``; a predictions line has ``evidence`` by document (one
    object per document) and no ``claim``."""
    row = sample.first
    if type(row) is not dict:
        return None
    evidence = row.get("evidence")
    if "claim" in row:
        if "cited_doc_ids" in row:
            return "references", "it has 'claim' and 'cited_doc_ids'"
        if type(evidence) is dict and all(type(v) is list for v in evidence.values()):
            return "references", "it has 'claim' and 'evidence'"
        return None
    if type(evidence) is dict and all(type(v) is dict for v in evidence.values()):
        return "predictions", "it has 'evidence' by document and no 'claim'"
    return None
