"""AVeriTeC's files at a glance (``CONTRACT.files.kinds``): a refused file named as the gold or
the predictions when it is the other side's. The 2024 files are JSON lists of claims: gold
claims carry ``questions`` (with their answers), predictions ``evidence`` and ``pred_label``.
(The 2025 CSVs are not JSON: they are told apart by their columns when read.)"""

from __future__ import annotations

from typing import Any


def recognise(sample: Any) -> tuple[str, str] | None:
    first = sample.first
    if type(first) is not list or not first or type(first[0]) is not dict:
        return None
    claim = first[0]
    if _asked(claim.get("questions")) and "label" in claim:
        return "references", "its claims have a 'label' and 'questions', as AVeriTeC's gold does"
    if "pred_label" in claim or _asked(claim.get("evidence")):
        return "predictions", (
            "its claims have a 'pred_label' or 'evidence' of questions and answers, as AVeriTeC "
            "predictions do"
        )
    return None


def _asked(value: Any) -> bool:
    """A list of questions (dicts with a ``question``), or an empty list."""
    return type(value) is list and (
        not value or (type(value[0]) is dict and "question" in value[0])
    )
