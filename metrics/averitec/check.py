"""``taskeval check averitec``: every problem of a prediction file, before it is scored.

Reached only through ``contract.py`` (evaluate never loads it). The file is read as the
official scorer of its format reads it (a JSON list, 2024; a CSV, 2025) and each claim checked
by the metric's own row checks (``rows``), so every bad claim is reported, not the first.

* Errors: what the scorer crashes on (a field of the wrong type, an ``evi`` piece without
  exactly one question-answer separator, an empty ``evi``), a ``claim_id`` that is not the
  claim's position (the 2024 scorer pairs by position: the prediction is scored against another
  claim), an id twice (2025).
* Warnings: more than ten evidence pairs (only the first ten are scored), no evidence at all
  (every evidence score 0, so the claim never counts), a label that is not one of the four
  verdicts (always wrong).
* ``--inputs``: the claims of the split (the JSON list, or the CSV with ``id``): every claim
  needs a prediction, in the same order (2024) or with its id (2025).
* ``--references``: the gold; then whatever the scorer refuses of the pair.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .inputs import csv_rows, evidence_pairs, file_format, prediction_row_2024, read_official
from .plain_values import shown
from .rows import check_ids, check_lengths, check_scorable, checked, prediction
from .scoring import MAX_QUESTIONS, VERDICTS


def _json_list(report: Any, path: Any) -> list | None:
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        report.error(f"is not a JSON file ({error})", file=path)
        return None
    if not isinstance(value, list):
        report.error(f"must hold a JSON list of claims, got {type(value).__name__}", file=path)
        return None
    return value


def _claim(report: Any, path: Any, index: int, row: Any, row_id: Any) -> None:
    """The row checks and the warnings of one claim's prediction (a ``compute()`` row)."""
    try:
        stored = prediction(row, f"predictions[{index}]")
    except ValueError as error:
        report.refused(error, file=path, id=row_id)
        return
    at = {"file": path, "id": row_id}
    pairs = len(stored["evidence"] or ()) + len(stored["string_evidence"] or ())
    if pairs > MAX_QUESTIONS:
        report.warning(
            f"claim {index} has {pairs} evidence pairs: only the first {MAX_QUESTIONS} are scored",
            field="'evidence'",
            **at,
        )
    elif pairs == 0:
        report.warning(
            f"claim {index} has no evidence: its evidence scores are 0, so it never counts "
            f"towards the AVeriTeC score",
            field="'evidence'",
            **at,
        )
    if stored["label"] not in VERDICTS:
        report.warning(
            f"claim {index} has the label {shown(stored['label'])}, not one of the four verdicts "
            f"({', '.join(VERDICTS)}): it is always wrong",
            field="'label'",
            **at,
        )


def _check_json(report: Any, path: Any) -> list[Any] | None:
    claims = _json_list(report, path)
    if claims is None:
        return None
    report.rows = len(claims)
    for index, record in enumerate(claims):
        if not isinstance(record, dict):
            report.error(
                f"claim {index} must be a JSON object, got {type(record).__name__}", file=path
            )
            continue
        claim_id = record.get("claim_id")
        if claim_id is not None and claim_id != index:
            report.error(
                f"claim {index} has claim_id {shown(claim_id)}: the scorer pairs predictions with the "
                f"gold by position, so it is scored against claim {index}",
                file=path,
                id=claim_id,
                field="'claim_id'",
            )
        _claim(report, path, index, prediction_row_2024(record, index), claim_id)
    return claims


def _check_csv(report: Any, path: Any) -> list[Any] | None:
    try:
        rows = csv_rows(path, ("id", "evi", "label"))
    except (OSError, ValueError) as error:
        report.error(str(error), file=path)
        return None
    report.rows = len(rows)
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        if row["id"] in seen:
            report.error(
                f"row {index + 1} repeats the id of row {seen[row['id']] + 1}: the scorer pairs "
                f"rows by their order after sorting by id",
                file=path,
                id=row["id"],
                field="'id'",
            )
            continue
        seen[row["id"]] = index
        try:
            evidence = evidence_pairs(row["evi"], f"predictions[{index}]")
        except ValueError as error:
            report.refused(error, file=path, id=row["id"])
            continue
        stored = {"label": row["label"], "evidence": evidence}
        _claim(report, path, index, stored, row["id"])
    return rows


def _expected(report: Any, files: Any, claims: list, csv_format: bool) -> None:
    for path in files.inputs:
        if csv_format:
            try:
                wanted = [row["id"] for row in csv_rows(path, ("id",))]
            except (OSError, ValueError) as error:
                report.error(str(error), file=path)
                continue
            have = {row["id"] for row in claims}
            missing = [i for i in wanted if i not in have]
            if missing:
                report.error(
                    f"{len(missing):,} of its {len(wanted):,} claims have no prediction (ids "
                    f"{report.listed(missing)}): the scorer would pair the rest with the wrong "
                    f"claims",
                    file=path,
                )
        else:
            wanted_claims = _json_list(report, path)
            if wanted_claims is not None and len(wanted_claims) != len(claims):
                report.error(
                    f"holds {len(wanted_claims):,} claims and the predictions "
                    f"{len(claims):,}: the scorer pairs them by position and scores only the "
                    f"first {min(len(wanted_claims), len(claims)):,}",
                    file=path,
                )


def run(files: Any, report: Any) -> None:
    csv_format = file_format(files.predictions) == "csv"
    check = _check_csv if csv_format else _check_json
    claims = check(report, files.predictions)
    if claims is None:
        return
    if files.inputs:
        _expected(report, files, claims, csv_format)
    if files.references is None or any(p.level == "error" for p in report.problems):
        return
    try:  # every check of scoring, without the scoring
        rows = read_official(files.references, files.predictions)
        preds = checked(rows["predictions"], "predictions")
        refs = checked(rows["references"], "references")
        check_lengths(len(preds), len(refs))
        check_ids(preds, refs)
        check_scorable(preds, refs, "2025" if csv_format else "2024")
    except ValueError as error:
        report.refused(error, file=files.references)
