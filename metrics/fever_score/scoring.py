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
from itertools import chain
from typing import Any

from .plain_values import INT64, INT64_MAX, as_int

NOT_ENOUGH_INFO = "NOT ENOUGH INFO"
DEFAULT_MAX_EVIDENCE = 5
OUTPUT_KEYS = (
    "strict_score",
    "label_accuracy",
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
)

Sentence = tuple[Any, Any]  # (page, line); gold pages and lines may be None
Prediction = tuple[str, list[Sentence]]
Reference = tuple[str, list[list[Sentence]]]


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


# Fast paths for rows in the official list form, checked column-wise with C-level map/zip (a
# per-item Python loop costs more than the official scorer's whole run). They return None for
# anything else, which the item-by-item path then accepts (records) or reports precisely.
# Item types, then lengths (len needs a list), then (page type, line type): C-level passes.
_LIST, _TWO, _FOUR = {list}, {2}, {4}
_PAIR_TYPES = {(str, int)}
_GOLD_TYPES = {(p, n) for p in (str, type(None)) for n in (int, type(None))}


def _fast_prediction(row: Any) -> Prediction | None:
    if type(row) is not dict:
        return None
    label, items = row.get("predicted_label"), row.get("predicted_evidence")
    if type(label) is not str or type(items) is not list:
        return None
    if not items:
        return (label, [])
    if set(map(type, items)) != _LIST or set(map(len, items)) != _TWO:
        return None
    pages, lines = zip(*items)
    if set(zip(map(type, pages), map(type, lines))) != _PAIR_TYPES:
        return None
    # Only ints reach this test; -2**63 takes the row-by-row path, which accepts it.
    if max(map(abs, lines)) > INT64_MAX:
        return None
    return (label, list(zip(pages, lines)))


def _fast_reference(row: Any) -> Reference | None:
    if type(row) is not dict:
        return None
    label, groups = row.get("label"), row.get("evidence")
    if type(label) is not str or type(groups) is not list:
        return None
    gold_groups = []
    for group in groups:
        if type(group) is not list:
            return None
        if not group:
            gold_groups.append([])
            continue
        if set(map(type, group)) != _LIST or set(map(len, group)) != _FOUR:
            return None
        _, _, pages, lines = zip(*group)  # annotation and evidence ids are not scored
        if not set(zip(map(type, pages), map(type, lines))) <= _GOLD_TYPES:
            return None
        # Lines are ints or None here; -2**63 takes the row-by-row path, which accepts it.
        if None not in lines:
            if max(map(abs, lines)) > INT64_MAX:
                return None
        elif max(map(abs, filter(None, lines)), default=0) > INT64_MAX:  # None and 0 dropped
            return None
        gold_groups.append(list(zip(pages, lines)))
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
    for index, row in enumerate(predictions, start):
        fast = _fast_prediction(row)
        if fast is not None:
            out.append(fast)
            continue
        where = _check_row("predictions", index, row)
        label = _check_label(where, row, "predicted_label")
        if "predicted_evidence" not in row:
            raise ValueError(f"{where}: missing field 'predicted_evidence'")
        items = row["predicted_evidence"]
        if not isinstance(items, list):
            raise ValueError(
                f"{where}: field 'predicted_evidence' must be a list of [page, line] items, "
                f"got {type(items).__name__}"
            )
        sentences = []
        for position, item in enumerate(items):
            field = f"'predicted_evidence'[{position}]"
            sentence = _predicted_sentence(item, where, field)
            if sentence is None:
                raise ValueError(
                    f"{where}: field 'predicted_evidence'[{position}] must be a [page, line] list "
                    f"or a {{'page', 'line'}} record with a string page and an int line, "
                    f"got {item!r}"
                )
            sentences.append(sentence)
        out.append((label, sentences))
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
    for index, row in enumerate(references, start):
        fast = _fast_reference(row)
        if fast is not None:
            out.append(fast)
            continue
        where = _check_row("references", index, row)
        label = _check_label(where, row, "label")
        if "evidence" not in row:
            raise ValueError(f"{where}: missing field 'evidence'")
        groups = row["evidence"]
        if not isinstance(groups, list):
            raise ValueError(
                f"{where}: field 'evidence' must be a list of evidence groups, "
                f"got {type(groups).__name__}"
            )
        gold_groups = []
        for g, group in enumerate(groups):
            if not isinstance(group, list):
                raise ValueError(
                    f"{where}: field 'evidence'[{g}] must be a list of evidence items, got {group!r}"
                )
            gold_group = []
            for position, item in enumerate(group):
                field = f"'evidence'[{g}][{position}]"
                sentence = _gold_sentence(item, where, field)
                if sentence is None:
                    raise ValueError(
                        f"{where}: field 'evidence'[{g}][{position}] must be an "
                        f"[annotation_id, evidence_id, page, line] list (or a record with those "
                        f"keys) with an int-or-None line and a string-or-None page, "
                        f"got {item!r}"
                    )
                gold_group.append(sentence)
            gold_groups.append(gold_group)
        out.append((label, gold_groups))
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


def claim_score(
    predicted_label: str, kept: list[Sentence], gold_label: str, groups: list[list[Sentence]]
) -> tuple[bool, bool, float | None, float | None]:
    """One claim: (label right, strictly right, evidence precision, evidence recall).

    ``kept`` is the predicted evidence already cut to ``max_evidence``. Precision and recall are
    None when the gold label is NOT ENOUGH INFO: evidence scores skip such claims.
    """
    gold_upper = gold_label.upper()
    label_ok = gold_upper == predicted_label.upper()
    if gold_upper == NOT_ENOUGH_INFO:
        return label_ok, label_ok, None, None
    kept_set = set(kept)
    # A group is recalled only when every one of its sentences was predicted (an empty group
    # always is). Gold items with a None line can never be predicted, so they need no filter.
    recalled = any(map(kept_set.issuperset, groups))
    if kept:
        gold = set(chain.from_iterable(groups))
        precision = sum(map(gold.__contains__, kept)) / len(kept)
    else:
        precision = 1.0
    return label_ok, label_ok and recalled, precision, 1.0 if recalled or not groups else 0.0


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
) -> list[tuple[bool, bool, float | None, float | None]] | None:
    """Per-claim scores straight from rows in the official list form, without keeping the
    normalized rows; None as soon as a row is in another form (or malformed)."""
    out = []
    for prediction, reference in zip(predictions, references):
        pred, ref = _fast_prediction(prediction), _fast_reference(reference)
        if pred is None or ref is None:
            return None
        out.append(claim_score(pred[0], pred[1][:max_evidence], ref[0], ref[1]))
    return out


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
        claims = _official_form_scores(predictions, references, max_evidence)
    return None if claims is None else aggregate(claims, len(predictions))


def score(
    predictions: Sequence[Prediction],
    references: Sequence[Reference],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> dict[str, float]:
    """The five official numbers from normalized rows (see ``normalize_*``)."""
    check_lengths(len(predictions), len(references))
    max_evidence = check_max_evidence(max_evidence)
    return aggregate(claim_scores(predictions, references, max_evidence), len(predictions))


def aggregate(
    claims: Iterable[tuple[bool, bool, float | None, float | None]], total: int
) -> dict[str, float]:
    """The five official numbers from per-claim scores, summed in row order."""
    strict = correct = 0.0
    precision_sum = recall_sum = 0.0
    verifiable = 0
    for label_ok, strict_ok, precision_i, recall_i in claims:
        if label_ok:
            correct += 1.0
        if strict_ok:
            strict += 1.0
        if precision_i is not None:
            verifiable += 1
            precision_sum += precision_i  # left to right, as the official loop sums
            recall_sum += recall_i
    return scores_from_sums(strict, correct, total, verifiable, precision_sum, recall_sum)


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
            claims = _official_form_scores(predictions, references, max_evidence)
            if claims is not None:
                return aggregate(claims, len(predictions))
        preds, refs = normalize_predictions(predictions), normalize_references(references)
        result: dict[str, Any] = score(preds, refs, max_evidence)
        if details:
            result["details"] = claim_details(preds, refs, max_evidence)
        return result
