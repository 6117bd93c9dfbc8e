"""TyDiQA-GoldP's files at a glance (``CONTRACT.files.kinds``): a refused file named as the gold
or the predictions when it is the other side's."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def recognise(sample: Any) -> tuple[str, str] | None:
    """The gold is SQuAD 1.1 JSON, an object with a ``data`` list; the predictions one object
    mapping each question id to its answer text (as far as the sample goes: a text cut short is
    still a text)."""
    value = sample.first
    if type(value) is not dict or not value:
        return None
    if type(value.get("data")) is list:
        return "references", "it has SQuAD's 'data' list"
    # Question ids hold digits ("finnish-1006-0", SQuAD's hexadecimal ids): an object of field
    # names and texts ({"label": "SUPPORTS"}) is not taken for predictions.
    if all(type(v) is str and any(c.isdigit() for c in k) for k, v in value.items()):
        return "predictions", "it maps question ids to answer texts"
    return None
