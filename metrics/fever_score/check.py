"""``taskeval check fever_score``: every problem of a FEVER submission, before it is scored.

Reached only through ``contract.py`` (evaluate never loads it). The rows are checked by the
metric's own row checks (``rows``), one row at a time so that every bad row is reported, not
the first; what the official scorer does with a row is in ``rules``.

* ``--inputs``: the task's unlabelled claims (``shared_task_test.jsonl``: ``id``, ``claim``).
  The official scorer pairs predictions with claims by position, so the predictions must list
  the same ids in the same order: a missing, unknown or repeated id, or another order, is an
  error.
* ``--references``: the gold (``label``, ``evidence``); lines are paired by position, and its
  ids, when each line has its own, are held to the same rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain, compress
from operator import itemgetter
from typing import Any

from .inputs import carries_gold
from .rows import (
    UnlistedEvidence,
    _chunks,
    _prediction_columns,
    _reference_columns,
    normalize_predictions,
    normalize_references,
)
from .rules import DEFAULT_MAX_EVIDENCE, NOT_ENOUGH_INFO

LABELS = ("SUPPORTS", "REFUTES", NOT_ENOUGH_INFO)
_FEW = 10  # below this many predictions, one label for all or no evidence at all is no sign


def _plain_columns(values: list[dict]) -> tuple[list, list] | None:
    """The label and evidence columns of rows that hold nothing ``_prediction`` reports (labels
    of the task, evidence lists of ``[page, line]`` lists with string pages and int lines, no
    gold of their own), found by the checks' column tests a chunk at a time; else None."""
    labels: list = []
    evidence: list = []
    for _, chunk in _chunks(values):
        columns = _prediction_columns(chunk)
        if columns is None:
            return None
        labels += columns[0]
        evidence += columns[1]
    if not set(map(str.upper, set(labels))) <= set(LABELS):
        return None
    keys = set().union(*values)  # every row's keys at once: a row with its gold holds both
    if "label" in keys and "evidence" in keys and any(map(carries_gold, values)):
        return None
    return labels, evidence


def _predictions(report: Any, path: Any, rows: list[tuple[int, dict]]) -> list[tuple]:
    """(line, label, evidence) of each row the metric's checks take; the others reported. The
    rows are tested by column first (the checks' fast path); row by row only if that fails,
    to report every bad row."""
    columns = _plain_columns([row for _, row in rows])
    if columns is not None:
        return list(zip(map(itemgetter(0), rows), *columns))
    try:
        checked = normalize_predictions([row for _, row in rows])
    except ValueError:
        checked = [None] * len(rows)
    if checked[:1] != [None] and _plain(rows, checked):
        return [(number, *prediction) for (number, _), prediction in zip(rows, checked)]
    out = []
    for (number, row), prediction in zip(rows, checked):
        prediction = _prediction(report, path, number, row, prediction)
        if prediction is not None:
            out.append((number, *prediction))
    return out


def _plain(rows: list[tuple[int, dict]], checked: list) -> bool:
    """Whether rows the checks took hold nothing ``_prediction`` reports: labels of the task,
    evidence lists of ``[page, line]`` lists, no gold of their own (whole columns at a time)."""
    labels = set(map(itemgetter(0), checked))
    if not all(isinstance(label, str) and label.upper() in LABELS for label in labels):
        return False
    evidence = [row["predicted_evidence"] for _, row in rows]
    if not set(map(type, evidence)) <= {list}:
        return False
    if dict in set(map(type, chain.from_iterable(evidence))):
        return False
    return not any(carries_gold(row) for _, row in rows)


def _prediction(
    report: Any, path: Any, number: int, row: dict, checked: tuple | None
) -> tuple[str, list] | None:
    """The row's (label, evidence) when the metric's checks take it (``checked``: their
    result, when known), else None (reported)."""
    row_id = row.get("id")
    label = row.get("predicted_label")
    if isinstance(label, str) and label.upper() not in LABELS:
        report.error(
            f"must be one of {', '.join(LABELS)} (compared upper-cased); the scorer counts "
            f"{label!r} wrong on every claim",
            file=path,
            line=number,
            id=row_id,
            field="'predicted_label'",
        )
    if checked is None:
        try:
            (checked,) = normalize_predictions([row])
        except ValueError as e:
            report.refused(e, file=path, line=number, id=row_id)
            return None
    label, evidence = checked
    if isinstance(evidence, UnlistedEvidence):
        report.error(
            f"must be a list of [page, line] items, got {evidence.value!r}",
            file=path,
            line=number,
            id=row_id,
            field="'predicted_evidence'",
        )
        return None
    items = row["predicted_evidence"]
    records = (
        [k for k, item in enumerate(items) if type(item) is dict]
        if dict in set(map(type, items))
        else []
    )
    for k in records:
        report.error(
            "must be a [page, line] list in an official file (the official scorer never matches "
            f"a JSON object), got {row['predicted_evidence'][k]!r}",
            file=path,
            line=number,
            id=row_id,
            field=f"'predicted_evidence'[{k}]",
        )
    if carries_gold(row):
        _gold_row(report, path, number, row)
    return None if records else (label, evidence)


def _gold(report: Any, path: Any, rows: list[tuple[int, Any]]) -> None:
    values = [row for _, row in rows]
    labels = [row.get("label") for row in values] if set(map(type, values)) <= {dict} else [0]
    if set(map(type, labels)) <= {str} and set(map(str.upper, set(labels))) <= set(LABELS):
        if all(_reference_columns(chunk) is not None for _, chunk in _chunks(values)):
            return  # the checks' column tests pass every chunk: every line is sound
        try:
            normalize_references([row for _, row in rows])
            return  # the checks' fast path: every line is sound
        except ValueError:
            pass
    for number, row in rows:
        if type(row) is not dict:
            report.error(f"expected a JSON object, got {row!r}", file=path, line=number)
            continue
        _gold_row(report, path, number, row)


def _gold_row(report: Any, path: Any, number: int, row: dict) -> None:
    """A gold line (of the references, or a prediction line carrying its own gold)."""
    label = row.get("label")
    if isinstance(label, str) and label.upper() not in LABELS:
        report.error(
            f"must be one of {', '.join(LABELS)} (compared upper-cased); no prediction matches "
            f"{label!r}, and its evidence is scored as if the claim were verifiable",
            file=path,
            line=number,
            id=row.get("id"),
            field="'label'",
        )
    try:
        normalize_references([row])
    except ValueError as e:
        report.refused(e, file=path, line=number, id=row.get("id"))


def _ids(rows: list[tuple[int, Any]]) -> list[tuple[int, Any]] | None:
    """(line, id) of each row when every row is an object with an id (at C speed), else None."""
    values = [row for _, row in rows]
    if not set(map(type, values)) <= {dict}:
        return None
    try:
        return list(zip(map(itemgetter(0), rows), map(itemgetter("id"), values)))
    except KeyError:
        return None


def _claim_ids(report: Any, path: Any, rows: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """(line, id) of each claim of the inputs; a line without an id is reported."""
    ids = _ids(rows)
    if ids is not None:
        return ids
    ids = []
    for number, row in rows:
        if type(row) is not dict or "id" not in row:
            report.error("expected a JSON object with an 'id'", file=path, line=number)
            continue
        ids.append((number, row["id"]))
    return ids


def _match_ids(report: Any, expected: list, where: Any, rows: list, path: Any) -> None:
    """The predictions answer the claims of ``where`` once each, in order (rows are paired by
    position); a prediction without an id cannot be placed."""
    predicted = _ids(rows)
    if predicted is not None:
        report.match_ids(expected, where, predicted, path, by_position=True, what="claim")
        return
    predicted = []
    for number, row in rows:
        if type(row) is not dict:
            continue
        if "id" not in row:
            report.error(
                f"missing: the predictions are held to the claims of {where}",
                file=path,
                line=number,
                field="'id'",
            )
            continue
        predicted.append((number, row["id"]))
    report.match_ids(expected, where, predicted, path, by_position=True, what="claim")


def _warnings(report: Any, path: Any, scored: list[tuple[int, str, list]]) -> None:
    numbers, labels, evidence = (list(column) for column in zip(*scored)) if scored else ([],) * 3
    upper = list(map(str.upper, labels))
    longer = list(compress(numbers, map(DEFAULT_MAX_EVIDENCE.__lt__, map(len, evidence))))
    if longer:
        report.warning(
            f"{len(longer):,} {'predictions list' if len(longer) > 1 else 'prediction lists'} "
            f"more than {DEFAULT_MAX_EVIDENCE} evidence sentences (line{'s' if len(longer) > 1 else ''} "
            f"{report.listed(longer)}): the scorer counts only the first "
            f"{DEFAULT_MAX_EVIDENCE} and drops the others silently",
            file=path,
            line=longer[0],
            field="'predicted_evidence'",
        )
    counts = Counter(upper)
    if len(scored) >= _FEW and len(counts) == 1:
        report.warning(
            f"every prediction is {next(iter(counts))!r}", file=path, field="'predicted_label'"
        )
    verifiable = list(compress(evidence, map(NOT_ENOUGH_INFO.__ne__, upper)))
    if len(scored) >= _FEW and verifiable and not any(verifiable):
        report.warning(
            "no SUPPORTS or REFUTES prediction has any evidence: none can be strictly right",
            file=path,
            field="'predicted_evidence'",
        )


def run(files: Any, report: Any) -> None:
    """Check ``files.predictions`` (with ``files.inputs``, ``files.references``) into
    ``report``."""
    path = files.predictions
    rows = report.jsonl(path)
    report.rows = len(rows)
    objects = set(map(type, map(itemgetter(1), rows))) <= {dict}
    for number, row in () if objects else rows:
        if type(row) is not dict:
            report.error(f"expected a JSON object, got {row!r}", file=path, line=number)
    scored = _predictions(
        report, path, rows if objects else [(n, row) for n, row in rows if type(row) is dict]
    )
    if not rows and not report.problems:
        report.error("has no prediction: the FEVER scores are averages over claims", file=path)
    for inputs in files.inputs:
        _match_ids(report, _claim_ids(report, inputs, report.jsonl(inputs)), inputs, rows, path)
    # Lines carrying their own gold are scored with it: the references are read for the others.
    if files.references is not None and not all(
        type(row) is dict and carries_gold(row) for _, row in rows
    ):
        _check_references(report, files.references, rows, path, match=not files.inputs)
    _warnings(report, path, scored)


def _check_references(report: Any, references: Any, rows: list, path: Any, match: bool) -> None:
    gold = report.jsonl(references)
    _gold(report, references, gold)
    if len(gold) != len(rows):
        report.error(
            f"has {len(gold):,} lines but the predictions have {len(rows):,}: the scorer pairs "
            f"them by position",
            file=references,
        )
    ids = [(n, row["id"]) for n, row in gold if type(row) is dict and "id" in row]
    # The official fixture's gold redacts ids (all 0): ids are compared only when each gold
    # line has its own.
    if match and len(ids) == len(gold) and len(set(map(repr, (i for _, i in ids)))) == len(ids):
        _match_ids(report, ids, references, rows, path)
