"""Scoring core of ``fever_score``: the FEVER scorer (``fever-scorer`` 2.0.39) in plain Python.

Two steps, usable on their own:

* ``normalize_predictions`` / ``normalize_references`` check rows and turn them into compact
  tuples, raising a ``ValueError`` that names the row, its id and the field on anything the
  official scorer would crash on, assert on, or silently score as non-matching;
* ``score`` computes the five official numbers from those tuples.

``fever_score(predictions, references, max_evidence=5)`` does both.

Exactness notes (see the metric card): labels compare with ``str.upper`` and nothing else; a
claim is "not enough info" only when its *gold* label says so; every sum is accumulated left to
right in row order, as the official loops do, because other summation orders move the last bit of
the evidence precision.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import chain, compress, islice, repeat
from operator import eq, itemgetter

from .plain_values import INT64, INT64_MAX, as_int

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    Sentence = tuple[Any, Any]  # (page, line); gold pages and lines may be None
    Prediction = tuple[str, list[Sentence]]
    Reference = tuple[str, list[list[Sentence]]]

NOT_ENOUGH_INFO = "NOT ENOUGH INFO"
DEFAULT_MAX_EVIDENCE = 5
OUTPUT_KEYS = (
    "strict_score",
    "label_accuracy",
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while many small objects are made: with big inputs
    alive, its repeated passes over them cost several times the work itself (no cycles are made)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _where(side: str, index: int, row: Any) -> str:
    row_id = row.get("id") if isinstance(row, Mapping) else None
    return f"{side}[{index}]" + (f" (id {row_id!r})" if row_id is not None else "")


def _sentence(page: Any, line: Any, where: str, field: str, item: Any) -> Sentence | None:
    """(page, line) with the line as a plain int (numpy and 0-d torch integers too), or None
    when the line is not an int; an int beyond int64 is an error of its own."""
    number = as_int(line)
    if number is None:
        return None
    if number not in INT64:
        raise ValueError(
            f"{where}: field {field} has a line outside the signed 64-bit range "
            f"(-2**63 to 2**63-1), got {item!r}"
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
    """A gold evidence item as (page, line), or None when it is malformed."""
    # Annotation and evidence ids are not scored, so any value is accepted there, as officially.
    if isinstance(item, Mapping):
        if not {"page", "line"} <= set(item) <= {"annotation_id", "evidence_id", "page", "line"}:
            return None
        page, line = item["page"], item["line"]
    elif isinstance(item, list) and len(item) == 4:
        page, line = item[2], item[3]
    else:
        return None
    if not (page is None or isinstance(page, str)):
        return None
    return (page, None) if line is None else _sentence(page, line, where, field, item)


def _check_label(where: str, row: Mapping, field: str) -> str:
    if field not in row:
        raise ValueError(f"{where}: missing field {field!r}")
    label = row[field]
    if not isinstance(label, str):
        raise ValueError(f"{where}: field {field!r} must be a string, got {label!r}")
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
    at: tuple[str, int, Any], label_field: str, list_field: str, items: str
) -> tuple[str, str, list]:
    """A row's place for messages, its label and its list of ``items``, checked."""
    where = _check_row(*at)
    label = _check_label(where, at[2], label_field)
    if list_field not in at[2]:
        raise ValueError(f"{where}: missing field {list_field!r}")
    value = at[2][list_field]
    if not isinstance(value, list):
        raise ValueError(
            f"{where}: field {list_field!r} must be a list of {items}, got {type(value).__name__}"
        )
    return where, label, value


def _sentences(items: list, where: str, field: str, parse: Any, expected: str) -> list[Sentence]:
    """Evidence items as (page, line) by ``parse``, or an error naming the first bad one."""
    out = []
    for position, item in enumerate(items):
        at = f"{field}[{position}]"
        sentence = parse(item, where, at)
        if sentence is None:
            raise ValueError(f"{where}: field {at} must be {expected}, got {item!r}")
        out.append(sentence)
    return out


def _prediction_row(index: int, row: Any) -> Prediction:
    """One prediction row checked item by item (any accepted form), or a precise error."""
    where, label, items = _row_fields(
        ("predictions", index, row), "predicted_label", "predicted_evidence", "[page, line] items"
    )
    expected = "a [page, line] list or a {'page', 'line'} record with a string page and an int line"
    return (label, _sentences(items, where, "'predicted_evidence'", _predicted_sentence, expected))


def _reference_row(index: int, row: Any) -> Reference:
    """One reference row checked item by item (any accepted form), or a precise error."""
    where, label, groups = _row_fields(
        ("references", index, row), "label", "evidence", "evidence groups"
    )
    gold_groups = []
    for g, group in enumerate(groups):
        if not isinstance(group, list):
            raise ValueError(
                f"{where}: field 'evidence'[{g}] must be a list of evidence items, got {group!r}"
            )
        expected = (
            "an [annotation_id, evidence_id, page, line] list (or a record with those keys) "
            "with an int-or-None line and a string-or-None page"
        )
        gold_groups.append(_sentences(group, where, f"'evidence'[{g}]", _gold_sentence, expected))
    return (label, gold_groups)


def normalize_predictions(predictions: Sequence[Mapping], start: int = 0) -> list[Prediction]:
    """Check prediction rows and return ``(predicted_label, [(page, line), ...])`` per row.

    A row is ``{"predicted_label": str, "predicted_evidence": [...]}`` where each evidence item is
    a ``[page, line]`` list (the official form) or a ``{"page": ..., "line": ...}`` record; page
    is a string and line an int. Other keys (such as ``id``) are ignored. Errors number the
    rows from ``start``.
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
    official ``[annotation_id, evidence_id, page, line]`` list or a record with those keys. Pages
    are strings or None, lines and ids ints or None ("not enough info" claims carry
    ``[annotation_id, None, None, None]``). Errors number the rows from ``start``.
    """
    check_rows(references, "references")
    out: list[Reference] = []
    for offset, rows in _chunks(references):
        columns = _reference_columns(rows)
        if columns is None:
            out.extend(_reference_row(i, row) for i, row in enumerate(rows, start + offset))
        else:
            labels, evidence = columns
            groups = [[list(map(_GOLD_PAIR, group)) for group in groups] for groups in evidence]
            out.extend(zip(labels, groups))
    return out


def check_max_evidence(max_evidence: Any) -> int | None:
    """``max_evidence`` is a slice bound: an int (0 and negatives included) or None for no cut."""
    if max_evidence is None:
        return None
    number = as_int(max_evidence)
    if number is None:
        raise ValueError(f"max_evidence must be an int or None, got {max_evidence!r}")
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


Totals = list  # [strict, correct, verifiable, precision_sum, recall_sum]


def _accumulate(
    totals: Totals,
    labels: Sequence[str],
    evidence: Sequence[Sequence],
    gold_labels: Sequence[str],
    gold_evidence: Sequence[Sequence[Sequence]],
    max_evidence: int | None,
    gold_pair: Any,
) -> None:
    """Add rows' counts and per-claim scores to ``totals``, in row order (the order of the
    official loop, which decides the last bit of the precision sum).

    The scoring rule, in one place: predicted items are ``[page, line]`` lists or ``(page, line)``
    tuples, gold items whatever ``gold_pair`` turns into a ``(page, line)`` tuple. A claim's label
    is right when the upper-cased labels are equal; a NOT ENOUGH INFO gold claim is then strictly
    right and has no evidence scores. Any other claim is verifiable: its precision is the share of
    the first ``max_evidence`` predicted items found in its gold (1.0 when none is predicted), its
    recall 1.0 when one gold group is wholly among them (an empty group always is) or it has no
    gold group; it is strictly right when its label is right and one gold group is recalled.
    """
    strict, correct, verifiable, precision_sum, recall_sum = totals
    gold_upper = list(map(str.upper, gold_labels))
    right = list(map(eq, gold_upper, map(str.upper, labels)))
    verifiable_rows = list(map(NOT_ENOUGH_INFO.__ne__, gold_upper))
    correct += sum(right)
    strict += sum(right) - sum(compress(right, verifiable_rows))  # right NOT ENOUGH INFO claims
    for label_ok, predicted, groups in compress(
        zip(right, evidence, gold_evidence), verifiable_rows
    ):
        verifiable += 1
        kept = list(map(tuple, predicted[:max_evidence]))
        if kept:
            gold = set(map(gold_pair, chain.from_iterable(groups)))
            precision_sum += sum(map(gold.__contains__, kept)) / len(kept)
        else:
            precision_sum += 1.0
        if not groups:
            recall_sum += 1.0  # nothing to recall, yet no group makes the claim strictly right
        elif any(map(set(kept).issuperset, map(map, repeat(gold_pair), groups))):
            recall_sum += 1.0
            strict += label_ok
    totals[:] = strict, correct, verifiable, precision_sum, recall_sum


def _new_totals() -> Totals:
    return [0, 0, 0, 0.0, 0.0]


def _scores(totals: Totals, total: int) -> dict[str, float]:
    strict, correct, verifiable, precision_sum, recall_sum = totals
    # Counts are exact ints; as floats they equal the official running float counts.
    return scores_from_sums(
        float(strict), float(correct), total, verifiable, precision_sum, recall_sum
    )


def claim_score(
    predicted_label: str, kept: list[Sentence], gold_label: str, groups: list[list[Sentence]]
) -> tuple[bool, bool, float | None, float | None]:
    """One claim: (label right, strictly right, evidence precision, evidence recall).

    ``kept`` is the predicted evidence already cut to ``max_evidence``. Precision and recall are
    None when the gold label is NOT ENOUGH INFO: evidence scores skip such claims.
    """
    totals = _new_totals()
    _accumulate(totals, [predicted_label], [kept], [gold_label], [groups], None, tuple)
    strict, correct, verifiable, precision, recall = totals
    if not verifiable:
        return bool(correct), bool(strict), None, None
    return bool(correct), bool(strict), precision, recall


def claim_scores(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> Iterator[tuple[bool, bool, float | None, float | None]]:
    """``claim_score`` of every normalized row."""
    for (predicted_label, predicted), (gold_label, groups) in zip(predictions, references):
        yield claim_score(predicted_label, predicted[:max_evidence], gold_label, groups)


def _official_form_scores(
    predictions: Sequence[Any], references: Sequence[Any], max_evidence: int | None
) -> dict[str, float] | None:
    """The five numbers straight from rows in the official list form, checked a chunk at a time
    and scored while the chunk is in the cache; None as soon as a chunk holds a row in another
    form (or a malformed one)."""
    totals = _new_totals()
    for (_, predicted), (_, gold) in zip(_chunks(predictions), _chunks(references)):
        prediction_columns = _prediction_columns(predicted)
        reference_columns = _reference_columns(gold)
        if prediction_columns is None or reference_columns is None:
            return None
        labels, evidence = prediction_columns
        gold_labels, gold_evidence = reference_columns
        _accumulate(totals, labels, evidence, gold_labels, gold_evidence, max_evidence, _GOLD_PAIR)
    return _scores(totals, len(predictions))


def official_form_score(
    predictions: Sequence[Any], references: Sequence[Any], max_evidence: int | None
) -> dict[str, float] | None:
    """The five numbers for rows of equal number all in the official list form (parsed lines of
    the official files), or None when any row is in another form or malformed: the caller then
    takes the checking path, which scores it or names the problem. ``max_evidence`` is checked."""
    check_max_evidence(max_evidence)
    if len(predictions) != len(references) or not predictions:
        return None
    with gc_paused():
        return _official_form_scores(predictions, references, max_evidence)


def score(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> dict[str, float]:
    """The five official numbers from normalized rows (see ``normalize_*``)."""
    check_lengths(len(predictions), len(references))
    max_evidence = check_max_evidence(max_evidence)
    totals = _new_totals()
    labels, evidence = zip(*predictions)
    gold_labels, gold_evidence = zip(*references)
    _accumulate(totals, labels, evidence, gold_labels, gold_evidence, max_evidence, tuple)
    return _scores(totals, len(predictions))


def scores_from_sums(
    strict: float,
    correct: float,
    total: int,
    verifiable: int,
    precision_sum: float,
    recall_sum: float,
) -> dict[str, float]:
    """The five official formulas over the sums of per-claim scores (see the metric card):
    evidence scores average over verifiable claims, precision 1.0 and recall 0.0 without any."""
    precision = precision_sum / verifiable if verifiable else 1.0
    recall = recall_sum / verifiable if verifiable else 0.0
    f1 = 2.0 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return {
        "strict_score": strict / total,
        "label_accuracy": correct / total,
        "evidence_precision": precision,
        "evidence_recall": recall,
        "evidence_f1": f1,
    }


def claim_details(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> list[dict[str, Any]]:
    """One record per claim saying how it was counted, for error analysis."""
    out = []
    rows = zip(predictions, references, claim_scores(predictions, references, max_evidence))
    for index, ((predicted_label, _), (gold_label, groups), scores) in enumerate(rows):
        label_ok, strict_ok, precision, recall = scores
        if not label_ok:
            why = "wrong label"
        elif precision is None:
            why = "right label; NOT ENOUGH INFO needs no evidence"
        elif strict_ok:
            why = "right label and a complete gold evidence group"
        elif not groups:
            why = "right label, but the gold has no evidence group"
        else:
            why = f"right label, but no complete gold evidence group in the first {max_evidence} sentences"
        out.append(
            {
                "row": index,
                "gold_label": gold_label,
                "predicted_label": predicted_label,
                "label_correct": label_ok,
                "strict": strict_ok,
                "evidence_precision": precision,
                "evidence_recall": recall,
                "why": why,
            }
        )
    return out


def fever_score(
    predictions: Sequence[Mapping],
    references: Sequence[Mapping],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
    details: bool = False,
) -> dict[str, Any]:
    """Check the rows and score them exactly as ``fever.scorer.fever_score`` 2.0.39 does.

    With ``details=True`` the result also has ``"details"``: one record per claim (see
    ``claim_details``), for error analysis.
    """
    max_evidence = check_max_evidence(max_evidence)
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    check_lengths(len(predictions), len(references))
    with gc_paused():
        if not details:
            scores = _official_form_scores(predictions, references, max_evidence)
            if scores is not None:
                return scores
        preds, refs = normalize_predictions(predictions), normalize_references(references)
        result: dict[str, Any] = score(preds, refs, max_evidence)
        if details:
            result["details"] = claim_details(preds, refs, max_evidence)
        return result
