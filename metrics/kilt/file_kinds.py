"""KILT's files at a glance (``CONTRACT.files.kinds``): a refused file named as the gold or the
guesses when it is the other side's. Both are KILT records (``id``, ``output``); the gold ones
carry the ``input`` (the question or claim), which guess files usually leave out."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def recognise(sample: Any) -> tuple[str, str] | None:
    row = sample.first
    if type(row) is not dict or "id" not in row or type(row.get("output")) is not list:
        return None
    if "input" in row:
        return "references", "its records have an 'input', as gold KILT records do"
    return "predictions", "its records have an 'output' but no 'input', as guess KILT records do"
