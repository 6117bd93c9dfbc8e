"""AVeriTeC's files at a glance (``CONTRACT.files.kinds``): a refused file named as the gold or
the predictions when it is the other side's. The 2024 files are JSON lists of claims: gold
claims carry ``questions`` (with their answers), predictions ``evidence`` and ``pred_label``.
(The 2025 CSVs are not JSON: they are told apart by their columns when read.)"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def recognise(sample: Any) -> tuple[str, str] | None:
    first = sample.first
    if type(first) is not list or not first or type(first[0]) is not dict:
        return None
    claim = first[0]
    if "questions" in claim:
        return "references", "its claims have 'questions', as AVeriTeC's gold claims do"
    if "pred_label" in claim or "evidence" in claim:
        return "predictions", "its claims have 'evidence' or a 'pred_label', as predictions do"
    return None
