"""Row checks of ``fever_score``: rows as the official scorer reads them, checked and turned into
compact tuples, with a ``ValueError`` naming the row, its id and the field on anything the
official scorer would crash on, assert on, or silently score as non-matching (see the metric
card's list of deliberate differences).

Only what the official scorer reads is checked. A NOT ENOUGH INFO gold claim's ``evidence`` is
never read; a ``predicted_evidence`` that is not a list is read (or not) depending on the paired
gold row, so it is settled once rows are paired (``settle_predicted_evidence``).

Rows in the official list form (parsed lines of the official files) are checked column-wise, a
chunk of rows at a time, with C-level passes; anything else is checked row by row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain, islice
from operator import itemgetter

from .plain_values import INT64, INT64_MAX, as_int, shown
from .rules import evidence_scored, labels_correct

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    Sentence = tuple[Any, Any]  # (page, line); gold pages and lines may be None
    Prediction = tuple[str, "list[Sentence] | UnlistedEvidence"]
    Reference = tuple[str, list[list[Sentence]]]


def _where(side: str, index: int, row: Any) -> str:
    row_id = row.get("id") if isinstance(row, Mapping) else None
    return f"{side}[{index}]" + (f" (id {shown(row_id)})" if row_id is not None else "")


def _sentence(page: Any, line: Any, where: str, field: str, item: Any) -> Sentence | None:
    """(page, line) with the line as a plain int (numpy and 0-d torch integers too), or None
    when the line is not an int; an int beyond int64 is an error of its own."""
    number = as_int(line)
    if number is None:
        return None
    if number not in INT64:
        raise ValueError(
            f"{where}: field {field} has a line outside the signed 64-bit range "
            f"(-2**63 to 2**63-1), got {shown(item)}"
        )
    return (page, number)


def _predicted_sentence(item: Any, where: str, field: str) -> Sentence | None:
    """A predicted evidence item as (page, line), or None when it is malformed."""
    if isinstance(item, Mapping):
        if set(item) != {"page", "line"}:
            return None
        page, line = item["page"], item["line"]
    elif isinstance(item, list) and len(item) == 2:
        page, line = item
    else:
        return None
    return _sentence(page, line, where, field, item) if isinstance(page, str) else None


def _gold_sentence(item: Any, where: str, field: str) -> Sentence | None:
    """A gold evidence item as (page, line), or None when it is malformed.

    The official scorer reads positions 2 and 3 of an item (so an item may be longer than 4) and
    compares the pair with the predicted ones: a page that is no string never equals a predicted
    page (always a string) and reads as None, which matches nothing either."""
    # Annotation and evidence ids are not scored, so any value is accepted there, as officially.
    if isinstance(item, Mapping):  # a record: a convenience of compute(), never in official files
        if not {"page", "line"} <= set(item) <= {"annotation_id", "evidence_id", "page", "line"}:
            return None
        page, line = item["page"], item["line"]
    elif isinstance(item, list) and len(item) >= 4:
        page, line = item[2], item[3]
    else:
        return None
    if not isinstance(page, str):
        page = None
    return (page, None) if line is None else _sentence(page, line, where, field, item)


def _check_label(where: str, row: Mapping, field: str) -> str:
    if field not in row:
        raise ValueError(f"{where}: missing field {shown(field)}")
    label = row[field]
    if not isinstance(label, str):
        raise ValueError(f"{where}: field {shown(field)} must be a string, got {shown(label)}")
    return label


def _check_row(side: str, index: int, row: Any) -> str:
    where = _where(side, index, row)
    if not isinstance(row, Mapping):
        raise ValueError(f"{where}: expected a dict, got {type(row).__name__}")
    return where


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(f"{side} must be a list of dicts, got {type(rows).__name__}")


# Rows in the official list form (parsed lines of the official files) are checked column-wise,
# a chunk of rows at a time, with C-level passes (set(map(type, ...)) and the like): a per-item
# Python loop would cost more than the official scorer's whole run, and a chunk's objects stay in
class UnlistedEvidence(tuple):
    """A ``predicted_evidence`` that is not a list, with the row's place for messages: whether the
    official scorer reads it depends on the gold row (see ``settle_predicted_evidence``)."""

    __slots__ = ()
    value = property(itemgetter(0))
    where = property(itemgetter(1))


# the CPU cache from one pass to the next. Each returns None for anything else, which the
# row-by-row path then accepts (records, subclasses, -2**63) or reports precisely.
_CHUNK = 1024
_DICT, _LIST, _STR, _INT = {dict}, {list}, {str}, {int}
_GOLD_PAGE_TYPES, _GOLD_LINE_TYPES = {str, type(None)}, {int, type(None)}
_TWO, _FOUR = {2}, {4}
_PAGE, _LINE = itemgetter(0), itemgetter(1)
_GOLD_PAGE, _GOLD_LINE = itemgetter(2), itemgetter(3)
_GOLD_PAIR = itemgetter(2, 3)  # annotation and evidence ids are not scored


def _columns(rows: Sequence[Any], label: str, evidence: str) -> tuple[list, list] | None:
    """The label and evidence columns of dict rows holding a string and a list, or None."""
    if not set(map(type, rows)) <= _DICT:
        return None
    try:
        labels = list(map(itemgetter(label), rows))
        evidence_lists = list(map(itemgetter(evidence), rows))
    except KeyError:
        return None
    if not set(map(type, labels)) <= _STR or not set(map(type, evidence_lists)) <= _LIST:
        return None
    return labels, evidence_lists


def _lists_of(items: list, length: set[int]) -> bool:
    """Every item is a list (no subclass) of the given length."""
    return set(map(type, items)) == _LIST and set(map(len, items)) == length


def _in_int64(lines: list) -> bool:
    """Ints within int64 (-2**63 left to the row-by-row path, which accepts it)."""
    return not lines or (max(lines) <= INT64_MAX and min(lines) >= -INT64_MAX)


def _prediction_columns(rows: Sequence[Any]) -> tuple[list, list] | None:
    columns = _columns(rows, "predicted_label", "predicted_evidence")
    if columns is None:
        return None
    items = list(chain.from_iterable(columns[1]))
    if items:
        if not _lists_of(items, _TWO) or set(map(type, map(_PAGE, items))) != _STR:
            return None
        lines = list(map(_LINE, items))
        if set(map(type, lines)) != _INT or not _in_int64(lines):
            return None
    return columns


def _reference_columns(rows: Sequence[Any]) -> tuple[list, list] | None:
    columns = _columns(rows, "label", "evidence")
    if columns is None:
        return None
    groups = list(chain.from_iterable(columns[1]))
    if groups:
        if set(map(type, groups)) != _LIST:
            return None
        items = list(chain.from_iterable(groups))
        if items:
            if not _lists_of(items, _FOUR):
                return None
            if not set(map(type, map(_GOLD_PAGE, items))) <= _GOLD_PAGE_TYPES:
                return None
            lines = list(map(_GOLD_LINE, items))
            if not set(map(type, lines)) <= _GOLD_LINE_TYPES:
                return None
            if not _in_int64(list(filter(None, lines))):  # None (and 0) dropped
                return None
    return columns


def _chunks(rows: Iterable[Any]) -> Iterator[tuple[int, list]]:
    """(offset, rows) for consecutive runs of ``_CHUNK`` rows."""
    it, offset = iter(rows), 0
    while chunk := list(islice(it, _CHUNK)):
        yield offset, chunk
        offset += len(chunk)


def _row_fields(
    at: tuple[str, int, Any], label_field: str, list_field: str
) -> tuple[str, str, Any]:
    """A row's place for messages, its label (checked) and the value of ``list_field``."""
    where = _check_row(*at)
    label = _check_label(where, at[2], label_field)
    if list_field not in at[2]:
        raise ValueError(f"{where}: missing field {shown(list_field)}")
    return where, label, at[2][list_field]


def _not_a_list(where: str, field: str, items: str, value: Any) -> ValueError:
    return ValueError(
        f"{where}: field {shown(field)} must be a list of {items}, got {type(value).__name__}"
    )


def _sentences(items: list, where: str, field: str, parse: Any, expected: str) -> list[Sentence]:
    """Evidence items as (page, line) by ``parse``, or an error naming the first bad one."""
    out = []
    for position, item in enumerate(items):
        at = f"{field}[{position}]"
        sentence = parse(item, where, at)
        if sentence is None:
            raise ValueError(f"{where}: field {at} must be {expected}, got {shown(item)}")
        out.append(sentence)
    return out


def _prediction_row(index: int, row: Any) -> Prediction:
    """One prediction row checked item by item (any accepted form), or a precise error."""
    where, label, items = _row_fields(
        ("predictions", index, row), "predicted_label", "predicted_evidence"
    )
    if not isinstance(items, list):
        return (label, UnlistedEvidence((items, where)))
    expected = "a [page, line] list or a {'page', 'line'} record with a string page and an int line"
    return (label, _sentences(items, where, "'predicted_evidence'", _predicted_sentence, expected))


_GOLD_EXPECTED = (
    "an [annotation_id, evidence_id, page, line] list (or a record with those keys) "
    "with an int-or-None line"
)


def _empty_as_list(value: Any) -> Any:
    """``""`` and ``{}`` as ``[]``: the official scorer iterates gold evidence and groups, and
    finds nothing in them either (a longer string or object is refused)."""
    return [] if type(value) in (str, dict) and not value else value


def _reference_row(index: int, row: Any) -> Reference:
    """One reference row checked item by item (any accepted form), or a precise error."""
    where, label, groups = _row_fields(("references", index, row), "label", "evidence")
    if not evidence_scored([label])[0]:
        return (label, [])  # the official scorer never reads a NOT ENOUGH INFO claim's evidence
    groups = _empty_as_list(groups)
    if not isinstance(groups, list):
        raise _not_a_list(where, "evidence", "evidence groups", groups)
    gold_groups = []
    for g, group in enumerate(groups):
        group = _empty_as_list(group)
        if not isinstance(group, list):
            raise ValueError(
                f"{where}: field 'evidence'[{g}] must be a list of evidence items, got {shown(group)}"
            )
        field = f"'evidence'[{g}]"
        gold_groups.append(_sentences(group, where, field, _gold_sentence, _GOLD_EXPECTED))
    return (label, gold_groups)


def normalize_predictions(predictions: Sequence[Mapping], start: int = 0) -> list[Prediction]:
    """Check prediction rows and return ``(predicted_label, [(page, line), ...])`` per row.

    A row is ``{"predicted_label": str, "predicted_evidence": [...]}`` where each evidence item is
    a ``[page, line]`` list (the official form) or a ``{"page": ..., "line": ...}`` record; page
    is a string and line an int. Other keys (such as ``id``) are ignored. A
    ``predicted_evidence`` that is not a list is kept as an ``UnlistedEvidence`` until the row
    is paired (``settle_predicted_evidence``). Errors number the rows from ``start``.
    """
    check_rows(predictions, "predictions")
    out: list[Prediction] = []
    for offset, rows in _chunks(predictions):
        columns = _prediction_columns(rows)
        if columns is None:
            out.extend(_prediction_row(i, row) for i, row in enumerate(rows, start + offset))
        else:
            labels, evidence = columns
            out.extend(zip(labels, [list(map(tuple, items)) for items in evidence]))
    return out


def normalize_references(references: Sequence[Mapping], start: int = 0) -> list[Reference]:
    """Check reference rows and return ``(label, [[(page, line), ...], ...])`` per row.

    A row is ``{"label": str, "evidence": [group, ...]}``; a group is a list of items, each an
    official ``[annotation_id, evidence_id, page, line]`` list (longer lists too: the official
    scorer reads positions 2 and 3) or a record with those keys. Lines are ints or None; a page
    that is no string reads as None (it never matches). A NOT ENOUGH INFO claim's evidence is
    never read: any value, given as ``[]``. Errors number the rows from ``start``.
    """
    check_rows(references, "references")
    out: list[Reference] = []
    for offset, rows in _chunks(references):
        columns = _reference_columns(rows)
        if columns is None:
            out.extend(_reference_row(i, row) for i, row in enumerate(rows, start + offset))
        else:
            labels, evidence = columns
            groups = [
                [list(map(_GOLD_PAIR, group)) for group in groups] if scored else []
                for groups, scored in zip(evidence, evidence_scored(labels))
            ]
            out.extend(zip(labels, groups))
    return out


def _settled(prediction: Prediction, reference: Reference) -> Prediction:
    """A prediction whose ``predicted_evidence`` is not a list, as the official scorer reads it
    with its gold row: where it never reads the field (a NOT ENOUGH INFO gold claim and a wrong
    label), any value is ``[]``; where it reads it as empty (a ``""`` or ``{}`` that its format
    check finds of length 0 on a right NOT ENOUGH INFO claim; a ``""`` sliced and iterated with
    no gold sentence looked up in it, on a claim without gold groups or whose first group is
    empty), ``[]``; anywhere else it fails (TypeError, AssertionError) or compares characters or
    keys, and the row is refused."""
    label, unlisted = prediction
    gold_label, groups = reference
    value = unlisted.value
    empty = type(value) in (str, dict) and not value
    if not evidence_scored([gold_label])[0]:
        if empty or not labels_correct([gold_label], [label])[0]:
            return (label, [])
    elif type(value) is str and not value and (not groups or not groups[0]):
        return (label, [])
    raise _not_a_list(unlisted.where, "predicted_evidence", "[page, line] items", value)


def settle_predicted_evidence(
    predictions: Sequence[Prediction], references: Sequence[Reference]
) -> Sequence[Prediction]:
    """Normalized predictions paired with their normalized references, each ``predicted_evidence``
    that is not a list read as the official scorer reads it (``[]``) or refused."""
    types = set(map(type, map(itemgetter(1), predictions)))
    if UnlistedEvidence not in types:
        return predictions
    return [
        _settled(prediction, reference) if type(prediction[1]) is UnlistedEvidence else prediction
        for prediction, reference in zip(predictions, references)
    ]


def check_max_evidence(max_evidence: Any) -> int | None:
    """``max_evidence`` is a slice bound: an int (0 and negatives included) or None for no cut."""
    if max_evidence is None:
        return None
    number = as_int(max_evidence)
    if number is None:
        raise ValueError(f"max_evidence must be an int or None, got {shown(max_evidence)}")
    return number


def check_lengths(n_predictions: int, n_references: int) -> None:
    if n_predictions != n_references:
        raise ValueError(
            f"predictions and references must have the same length (rows are paired by "
            f"position), got {n_predictions} predictions and {n_references} references"
        )
    if n_predictions == 0:
        raise ValueError(
            "predictions is empty: the FEVER scores are averages over at least one row"
        )
