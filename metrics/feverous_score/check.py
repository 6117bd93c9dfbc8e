"""``taskeval check feverous_score``: every problem of a FEVEROUS submission, before it is scored.

Reached only through ``contract.py`` (evaluate never loads it). Each line is read by the
metric's own reader (``inputs``), so a line it refuses is reported as the scorer would refuse
it, and every bad line is reported, not the first.

* Without ``--references`` the predictions are the official ``evaluate.py``'s file: its first
  line is skipped as the dataset's header; a claim there is never scored (an error).
* ``--references``: the gold dataset file; the predictions (a leaderboard submission) are paired
  with its claims by position.
* ``--inputs``: the task's claims (the test file: ``id``, ``claim``; its header line skipped):
  the predictions must list the same ids in the same order.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .element_ids import exact_split, official_split
from .inputs import _gold, _is_header, _object, _prediction, read_lines
from .rules import DEFAULT_MAX_EVIDENCE, DEFAULT_MAX_EVIDENCE_CELL, TABLE_TYPES

LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def _claim_lines(rows: list[tuple[int, Any]], field: str, always: bool) -> list[tuple[int, Any]]:
    """The lines after the header: the first line always (evaluate.py's file), or where it has
    no ``field`` (a dataset or submission file)."""
    if rows and (always or _is_header(rows[0][1], field)):
        return rows[1:]
    return rows


def _jsonl(report: Any, path: Any) -> list[tuple[int, Any]]:
    """(line, value) of each line as the official evaluate.py reads them (a byte order mark or
    record separator opening a line skipped); where a line is unreadable, the shared reading,
    which reports each such line."""
    try:
        return list(enumerate(read_lines(path), 1))
    except (OSError, ValueError):
        return report.jsonl(path)


def _read(report: Any, path: Any, rows: list, read: Any) -> list[tuple[int, dict]]:
    out = []
    for number, row in rows:
        try:
            out.append((number, read(_object(row, path, number), path, number)))
        except ValueError as e:
            report.refused(e, file=path, line=number, id=_id(row))
    return out


def _claim_line(row: dict, path: Any, line: int) -> dict:
    """A line of evaluate.py's file: its gold read (for its problems), its prediction kept."""
    _gold(row, path, line)
    return _prediction(row, path, line)


def _id(row: Any) -> Any:
    return row.get("id") if type(row) is dict else None


def _counted(numbers: list, one: str, many: str) -> str:
    return f"{len(numbers):,} {one if len(numbers) == 1 else many}"


def _lines(report: Any, numbers: list) -> str:
    return f"line{'s' if len(numbers) > 1 else ''} {report.listed(numbers)}"


def _predictions(report: Any, path: Any, scored: list[tuple[int, dict]]) -> None:
    split_apart = []
    long_lines = []
    for number, prediction in scored:
        label = prediction["predicted_label"]
        if label.upper() not in LABELS:
            report.error(
                f"must be one of {', '.join(LABELS)} (compared upper-cased); the scorer counts "
                f"{label!r} wrong on every claim",
                file=path,
                line=number,
                id=prediction.get("id"),
                field="'predicted_label'",
            )
        items = prediction["predicted_evidence"]
        strings = [i for i in items if type(i) is str]
        if any(official_split(i) != exact_split(i) for i in strings if exact_split(i)):
            split_apart.append(number)
        types = [official_split(i)[1] if type(i) is str else i[1] for i in items]
        tables = sum(t in TABLE_TYPES for t in types)
        if tables > DEFAULT_MAX_EVIDENCE_CELL or len(types) - tables > DEFAULT_MAX_EVIDENCE:
            long_lines.append(number)
    if split_apart:
        report.warning(
            f"{_counted(split_apart, 'prediction holds', 'predictions hold')} element ids whose "
            f"page has an '_' ({_lines(report, split_apart)}): the official evaluate.py ends the page at the first "
            f"'_' and misreads the type (so the item may count against the wrong budget); "
            f"taskeval reads them so by default and whole with --id-reading exact",
            file=path,
            line=split_apart[0],
            field="'predicted_evidence'",
        )
    if long_lines:
        report.warning(
            f"{_counted(long_lines, 'prediction lists', 'predictions list')} more than "
            f"{DEFAULT_MAX_EVIDENCE} sentences or {DEFAULT_MAX_EVIDENCE_CELL} table items "
            f"({_lines(report, long_lines)}): the scorer counts only the first ones and drops the "
            f"others silently",
            file=path,
            line=long_lines[0],
            field="'predicted_evidence'",
        )
    counts = Counter(p["predicted_label"].upper() for _, p in scored)
    if len(scored) >= 10 and len(counts) == 1:
        report.warning(
            f"every prediction is {next(iter(counts))!r}", file=path, field="'predicted_label'"
        )


def run(files: Any, report: Any) -> None:
    """Check ``files.predictions`` (with ``files.inputs``, ``files.references``) into
    ``report``."""
    path = files.predictions
    rows = _jsonl(report, path)
    combined = files.references is None
    if combined and rows and type(rows[0][1]) is dict and rows[0][1].get("predicted_label"):
        report.error(
            "holds a prediction, but the official evaluate.py skips the first line as the "
            "dataset's header: this claim is never scored (keep the header line first)",
            file=path,
            line=rows[0][0],
            id=_id(rows[0][1]),
        )
    lines = _claim_lines(rows, "predicted_label", combined)
    report.rows = len(lines)
    if combined:
        scored = _read(report, path, lines, _claim_line)
    else:
        scored = _read(report, path, lines, lambda row, p, n: _prediction(row, p, n, triples=True))
        gold = _claim_lines(_jsonl(report, files.references), "label", False)
        _read(report, files.references, gold, _gold)
        if len(gold) != len(lines):
            report.error(
                f"has {len(gold):,} claims but the predictions have {len(lines):,}: the scorer "
                f"pairs them by position",
                file=files.references,
            )
    if not lines and not report.problems:
        report.error(
            "has no claim after the header line: the FEVEROUS scores are averages over claims",
            file=path,
        )
    for inputs in files.inputs:
        claims = _claim_lines(_jsonl(report, inputs), "claim", False)
        expected = [(n, row["id"]) for n, row in claims if type(row) is dict and "id" in row]
        predicted = [(n, row["id"]) for n, row in lines if type(row) is dict and "id" in row]
        report.match_ids(expected, inputs, predicted, path, by_position=True, what="claim")
    _predictions(report, path, scored)
