"""``taskeval check kilt``: every problem of a KILT guess file, before it is scored.

Reached only through ``contract.py`` (evaluate never loads it). Each line is read as the
official scorer reads it and checked by the metric's own row checks (``rows``), so a line they
refuse is reported as the scorer would refuse it, and every bad line is reported, not the first.

* Errors: what both official scripts stop on or read other than meant (no output; two outputs
  with ``provenance``; no answer and no provenance; an id twice, as ``str(id).strip()``).
* Warnings: what one of the two scripts refuses or scores as nothing (``eval_downstream.py``
  takes exactly one output, with an ``answer``; ``eval_retrieval.py`` one output with
  ``provenance``), a blank answer (0, still counted), an empty provenance (no page: R-precision
  0, no KILT credit).
* ``--inputs``: the task's records (a KILT file of the test split: ``id``, ``input``): every id
  needs a prediction (the scorer stops on the first without one); a prediction for another id is
  dropped by the scorer (a warning).
* ``--references``: the gold file; then what the downstream scorer refuses of the pair too.
"""

from __future__ import annotations

import re
from typing import Any

from .records import match_id
from .rows import checked, null_refusal
from .scoring import score


def _read(report: Any, path: Any, side: str = "predictions") -> list[tuple[int, Any, dict | None]]:
    """``(line, id as written, stored record or None)`` of each line that is a record with an
    id; the lines the row checks refuse are reported (their record None)."""
    records = []
    for number, row in report.jsonl(path):
        if not isinstance(row, dict):
            report.error("expected a KILT record (a JSON object)", file=path, line=number)
            continue
        row_id = row.get("id")
        refusal = null_refusal(row, side)
        try:
            if refusal:
                raise ValueError(refusal)
            record = checked([row], side)[0]
        except ValueError as e:
            report.refused(e, file=path, line=number, id=row_id)
            record = None
        if row_id is not None:
            records.append((number, row_id, record))
    return records


def _outputs(report: Any, path: Any, number: int, row_id: Any, record: dict) -> None:
    outputs = record["output"]
    at = {"file": path, "line": number, "id": row_id, "field": "'output'"}
    with_provenance = [o for o in outputs if o["provenance"] is not None]
    with_answer = [o for o in outputs if o["answer"] is not None]
    if not outputs:
        report.error("holds no output: both official scripts stop on it", **at)
        return
    if len(with_provenance) > 1:
        report.error(
            f"holds {len(with_provenance)} outputs with 'provenance': eval_retrieval.py takes "
            "exactly one (and eval_downstream.py one output in all)",
            **at,
        )
    elif not with_answer and not with_provenance:
        report.error("has neither an 'answer' nor a 'provenance': nothing to score", **at)
    if len(outputs) > 1:
        report.warning(
            f"holds {len(outputs)} outputs: eval_downstream.py takes exactly one (retrieval "
            "reads the one with 'provenance')",
            **at,
        )
    elif not with_answer:
        report.warning("has no 'answer': eval_downstream.py stops on it", **at)
    if len(outputs) == 1 and with_answer and not with_answer[0]["answer"].strip():
        report.warning(
            "has a blank 'answer': it scores 0 on every answer metric and is counted", **at
        )
    if not with_provenance:
        report.warning(
            "has no 'provenance': eval_retrieval.py stops on it, and downstream gives it no "
            "page (R-precision 0, no KILT credit)",
            **at,
        )
    elif len(with_provenance) == 1 and not with_provenance[0]["provenance"]:
        report.warning("has an empty 'provenance': R-precision 0, no KILT credit", **at)


def _ids(report: Any, path: Any, records: list, what: str = "prediction") -> dict[str, int]:
    seen: dict[str, int] = {}
    for number, row_id, _ in records:
        key = str(row_id).strip()
        if key in seen:
            report.error(
                f"is the id of another {what} (line {seen[key]}; ids are matched by "
                "str(id).strip()): the official scorer stops on it",
                file=path,
                line=number,
                id=row_id,
                field="'id'",
            )
        else:
            seen[key] = number
    return seen


def _expected(report: Any, inputs: tuple) -> dict[str, tuple[Any, int]]:
    """Each record id of the inputs files (``str(id).strip()``) and where it is."""
    wanted: dict[str, tuple[Any, int]] = {}
    for path in inputs:
        for number, row in report.jsonl(path):
            if not isinstance(row, dict) or row.get("id") is None:
                report.error("expected a KILT record with an 'id'", file=path, line=number)
                continue
            wanted.setdefault(str(row["id"]).strip(), (path, number))
    return wanted


def _match(report: Any, wanted: dict, predictions: Any, seen: dict[str, int], what: str) -> None:
    missing = [(key, where) for key, where in wanted.items() if key not in seen]
    for key, (path, number) in missing:
        report.error(
            f"has no prediction ({len(missing):,} of {len(wanted):,} records have none): the "
            "official scorer stops on the first",
            file=path,
            line=number,
            id=key,
            field="'id'",
        )
    for key, number in seen.items():
        if key not in wanted:
            report.warning(
                f"is not a record of the {what}: the official scorer drops it",
                file=predictions,
                line=number,
                id=key,
                field="'id'",
            )


_ROW = re.compile(r"^(predictions|references)\[(\d+)\]")


def _scored(report: Any, files: Any, guesses: list, golds: list) -> None:
    """What each script whose shape every guess has refuses of the pair (for downstream, a gold
    record without answers for a non-blank guess answer, say), at its line."""
    by_id = {match_id(record): (number, record) for number, _, record in guesses}
    golds = [(number, record) for number, _, record in golds]
    ordered = [by_id[match_id(record)] for _, record in golds]
    records = [record["output"] for _, record in ordered]
    shapes = {
        "downstream": all(len(o) == 1 and o[0]["answer"] is not None for o in records),
        "retrieval": all(sum(x["provenance"] is not None for x in o) == 1 for o in records),
    }
    for evaluation in (name for name, fits in shapes.items() if fits):
        try:
            score([r for _, r in ordered], [r for _, r in golds], evaluation)
        except ValueError as e:
            found = _ROW.match(str(e))
            side, index = (found[1], int(found[2])) if found else ("references", 0)
            number, record = (ordered if side == "predictions" else golds)[index]
            path = files.predictions if side == "predictions" else files.references
            report.refused(e, file=path, line=number, id=record["id"])
            return


def run(files: Any, report: Any) -> None:
    records = _read(report, files.predictions)
    report.rows = len(records)
    for number, row_id, record in records:
        if record is not None:
            _outputs(report, files.predictions, number, row_id, record)
    seen = _ids(report, files.predictions, records)
    if files.inputs:
        _match(report, _expected(report, files.inputs), files.predictions, seen, "inputs")
    if files.references is None:
        return
    golds = _read(report, files.references, "references")
    gold_ids = _ids(report, files.references, golds, "gold record")
    wanted = {key: (files.references, number) for key, number in gold_ids.items()}
    _match(report, wanted, files.predictions, seen, "gold file")
    if not any(problem.level == "error" for problem in report.problems):
        _scored(report, files, records, golds)
