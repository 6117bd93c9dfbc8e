"""Row checks of ``feverous_score``: ``compute()`` rows checked and turned into compact tuples,
with a ``ValueError`` naming the row, its id and the field on anything the official scorer would
crash or assert on, and on the evidence shapes it does not take (see the metric card).

An evidence item is an element id string (``"Page_sentence_1"``, read later under the chosen
``id_reading``, see ``element_ids``) or a ``[page, type, position]`` list of three strings, as
the official ``feverous_score`` takes it. Normalized rows keep the strings unread:
``(label, items)``, items being strings or ``(page, type, position)`` tuples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .element_ids import EXPECTED, SPLITS, check_reading
from .plain_values import as_int, as_list, shown

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    Item = "str | tuple[str, str, str]"
    Prediction = tuple[str, list]
    Reference = tuple[str, list[list]]

_ITEM = (
    "an element id string such as 'Page_sentence_1' (with an '_') or a [page, type, position] "
    "list of three strings"
)


def where(side: str, index: int, row: Any) -> str:
    """A row's place in messages: ``predictions[3] (id 'x')``."""
    row_id = row.get("id") if isinstance(row, Mapping) else None
    return f"{side}[{index}]" + (f" (id {shown(row_id)})" if row_id is not None else "")


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(f"{side} must be a list of dicts, got {type(rows).__name__}")


def check_lengths(n_predictions: int, n_references: int) -> None:
    if n_predictions != n_references:
        raise ValueError(
            f"predictions and references must have the same length (rows are paired by "
            f"position), got {n_predictions} predictions and {n_references} references"
        )
    if n_predictions == 0:
        raise ValueError(
            "predictions is empty: the FEVEROUS scores are averages over at least one claim "
            "(the official scorer divides by zero)"
        )


def check_bound(name: str, value: Any) -> int | None:
    """``max_evidence`` and ``max_evidence_cell``: an int (0 or negative keeps none) or None."""
    if value is None:
        return None
    number = as_int(value)
    if number is None:
        raise ValueError(f"{name} must be an int or None, got {shown(value)}")
    return number


def _item(value: Any, at: str, field: str) -> str | tuple[str, str, str]:
    if isinstance(value, str):
        if "_" in value:
            return str(value)
    else:
        parts = as_list(value)
        if parts is not None and len(parts) == 3 and all(isinstance(p, str) for p in parts):
            return (str(parts[0]), str(parts[1]), str(parts[2]))
    raise ValueError(f"{at}: field {field} must be {_ITEM}, got {shown(value)}")


def _items(value: Any, at: str, field: str, what: str) -> list:
    items = as_list(value)
    if items is None or isinstance(value, str):
        raise ValueError(f"{at}: field {field} must be a list of {what}, got {shown(value)}")
    return [_item(item, at, f"{field}[{k}]") for k, item in enumerate(items)]


def _row(side: str, index: int, row: Any, label: str, evidence: str) -> tuple[str, str, Any]:
    at = where(side, index, row)
    if not isinstance(row, Mapping):
        raise ValueError(f"{at}: expected a dict, got {type(row).__name__}")
    for field in (label, evidence):
        if field not in row:
            raise ValueError(f"{at}: missing field {shown(field)}")
    if not isinstance(row[label], str):
        raise ValueError(f"{at}: field {shown(label)} must be a string, got {shown(row[label])}")
    return at, str(row[label]), row[evidence]


def normalize_predictions(predictions: Sequence[Mapping], start: int = 0) -> list[Prediction]:
    """Check prediction rows (``predicted_label``, ``predicted_evidence``) and return
    ``(predicted_label, items)`` per row; errors number the rows from ``start``."""
    check_rows(predictions, "predictions")
    out = []
    for index, row in enumerate(predictions, start):
        at, label, value = _row("predictions", index, row, "predicted_label", "predicted_evidence")
        out.append((label, _items(value, at, "'predicted_evidence'", "evidence items")))
    return out


def normalize_references(references: Sequence[Mapping], start: int = 0) -> list[Reference]:
    """Check reference rows (``label``, ``evidence``: a list of groups, each a list of items)
    and return ``(label, groups)`` per row; errors number the rows from ``start``."""
    check_rows(references, "references")
    out = []
    for index, row in enumerate(references, start):
        at, label, value = _row("references", index, row, "label", "evidence")
        groups = as_list(value)
        if groups is None or isinstance(value, str):
            raise ValueError(
                f"{at}: field 'evidence' must be a list of evidence groups, got {shown(value)}"
            )
        out.append(
            (
                label,
                [
                    _items(group, at, f"'evidence'[{g}]", "evidence items")
                    for g, group in enumerate(groups)
                ],
            )
        )
    return out


def _read(items: list, reading: str, at: str, field: str) -> list[tuple[str, str, str]]:
    split = SPLITS[reading]
    out = []
    for k, item in enumerate(items):
        if type(item) is str:
            triple = split(item)
            if triple is None:
                raise ValueError(
                    f"{at}: field {field}[{k}] must be {EXPECTED[reading]} under "
                    f"id_reading={shown(reading)}, got {shown(item)}"
                )
            item = triple
        out.append(item)
    return out


def read_ids(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    id_reading: str,
    places: Sequence[tuple[str, str]] | None = None,
) -> tuple[list[Prediction], list[Reference]]:
    """Normalized rows with every element id string read as ``(page, type, position)`` under
    ``id_reading``; ``places`` gives each row's (prediction, reference) place for messages
    (default: its index)."""
    reading = check_reading(id_reading)
    preds, refs = [], []
    for index, ((label, items), (gold_label, groups)) in enumerate(zip(predictions, references)):
        if places is None:
            at, gold_at = f"predictions[{index}]", f"references[{index}]"
        else:
            at, gold_at = places[index]
        preds.append((label, _read(items, reading, at, "'predicted_evidence'")))
        refs.append(
            (
                gold_label,
                [_read(g, reading, gold_at, f"'evidence'[{n}]") for n, g in enumerate(groups)],
            )
        )
    return preds, refs


def places(predictions: Sequence[Any], references: Sequence[Any]) -> list[tuple[str, str]]:
    """Each row's (prediction, reference) place for messages, with its id where it has one."""
    return [
        (where("predictions", i, p), where("references", i, r))
        for i, (p, r) in enumerate(zip(predictions, references))
    ]
