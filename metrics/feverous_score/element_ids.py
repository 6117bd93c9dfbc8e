"""FEVEROUS element ids (``"Page_sentence_1"``, ``"Page_cell_0_1_2"``) as the ``(page, type,
position)`` triples the official scorer compares, under two readings.

* ``official``: as the official ``evaluate.py`` and ``prepare_submission.py`` split an id: the
  page is the text before the first ``_``, the type the next part (the next two when the id
  contains ``table_caption`` or ``header_cell`` anywhere), the position the rest. A page with an
  ``_`` is misread (``Wolfgang_Niedecken_sentence_1`` as page ``Wolfgang``, type ``Niedecken``),
  and the misread type decides which budget the item counts in. Leaderboard numbers were made
  this way.
* ``exact``: the page is the shortest prefix after which the rest is ``_``, an element type and
  its numbers (``Wolfgang_Niedecken_sentence_1`` as page ``Wolfgang_Niedecken``).

An id with no ``_`` has no reading (the official code fails on it with an IndexError).
"""

from __future__ import annotations

import re

READINGS = ("official", "exact")
DEFAULT_READING = "official"
ELEMENT_TYPES = (
    "sentence",
    "header_cell",
    "cell",
    "table_caption",
    "item",
    "section",
    "title",
    "table",
    "list",
)
_EXACT = re.compile(r"(.+?)_(" + "|".join(ELEMENT_TYPES) + r")(?:_(\d+(?:_\d+)*))?", re.DOTALL)


def check_reading(id_reading: object) -> str:
    if id_reading not in READINGS:
        raise ValueError(
            f"id_reading must be one of {', '.join(map(repr, READINGS))}, got {id_reading!r}"
        )
    return id_reading  # type: ignore[return-value]


def official_split(element_id: str) -> tuple[str, str, str] | None:
    """The official ``evaluate.py`` reading, or None where it fails (no ``_``)."""
    parts = element_id.split("_")
    if len(parts) < 2:
        return None
    if "table_caption" not in element_id and "header_cell" not in element_id:
        return parts[0], parts[1], "_".join(parts[2:])
    return parts[0], "_".join(parts[1:3]), "_".join(parts[3:])


def exact_split(element_id: str) -> tuple[str, str, str] | None:
    """The page, type and position the id names, or None for a string that is no element id."""
    match = _EXACT.fullmatch(element_id)
    if match is None:
        return None
    page, kind, position = match.groups()
    return page, kind, position or ""


SPLITS = {"official": official_split, "exact": exact_split}

EXPECTED = {
    "official": "an element id with an '_' (the official evaluate.py fails on one without)",
    "exact": (
        "an element id: the page, '_', an element type ("
        + ", ".join(ELEMENT_TYPES)
        + ") and its numbers, as 'Page_sentence_1' or 'Page_cell_0_1_2'"
    ),
}
