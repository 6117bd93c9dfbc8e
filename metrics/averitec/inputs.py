"""The official files as ``compute()`` rows, and the command line's options.

* 2024 (and the 2023 paper): two JSON files, each a list: the predictions
  (``claim_id``, ``claim``, ``evidence``: ``[{"question", "answer", ...}]``, ``pred_label``;
  or ``string_evidence``) and the gold (AVeriTeC's ``dev.json``: ``claim``, ``label``,
  ``claim_types``, ``questions``), paired by position, as ``evaluate_veracity.py`` zips them.
* 2025: two CSV files with the columns ``id``, ``claim``, ``evi``, ``label`` (and ``split`` in
  the solution): ``evi`` holds the question-answer pairs, pairs joined by a tab, tab, newline,
  newline and a question and its answer by a tab, tab, newline. As ``averitec_evaluate.py``
  reads them: the solution's ``split == "gold"`` rows, the submission's rows with those ids,
  both sorted by id (as numbers when every id is one) and paired in that order.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from .plain_values import shown
from .rows import QA_SEPARATOR, where
from .scoring import (
    DEFAULT_EDITION,
    DEFAULT_NLTK,
    EDITIONS,
    RELEASES,
    check_options,
    score_rows,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PAIR_SEPARATOR = "\t\t\n\n"


def _read_json_list(path: str | os.PathLike, side: str) -> list:
    try:
        rows = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{Path(path).name}: not a JSON file ({error})") from None
    if not isinstance(rows, list):
        raise ValueError(
            f"{Path(path).name}: the {side} file must hold a JSON list of claims, got "
            f"{type(rows).__name__}"
        )
    return rows


def prediction_row_2024(record: Any, index: int) -> Any:
    if not isinstance(record, dict):
        return record  # refused by rows.checked, with its place
    # The 2024 files name the verdict pred_label, the 2023 paper's label.
    label = record["pred_label"] if "pred_label" in record else record.get("label")
    row = {"id": record.get("claim_id"), "label": label}
    for field in ("evidence", "string_evidence", "questions", "justification"):
        if field in record:
            row[field] = record[field]
    return row


def reference_row_2024(record: Any, index: int) -> Any:
    if not isinstance(record, dict):
        return record
    return {
        "id": str(index),
        "label": record.get("label"),
        "claim_types": record.get("claim_types"),
        "questions": record.get("questions"),
        "justification": record.get("justification"),
    }


def read_2024(predictions: str | os.PathLike, references: str | os.PathLike) -> dict:
    preds = _read_json_list(predictions, "predictions")
    refs = _read_json_list(references, "references")
    if len(preds) != len(refs):
        raise ValueError(
            f"{Path(predictions).name} has {len(preds)} predictions and {Path(references).name} "
            f"{len(refs)} claims: the official scorer pairs them by position and silently scores "
            f"only the first {min(len(preds), len(refs))}"
        )
    rows = {
        "predictions": [prediction_row_2024(r, k) for k, r in enumerate(preds)],
        "references": [reference_row_2024(r, k) for k, r in enumerate(refs)],
    }
    for row in rows["predictions"]:  # the gold file has no ids: pairing is by position
        if isinstance(row, dict):
            row["id"] = None
    return rows


def csv_rows(path: str | os.PathLike, columns: tuple[str, ...]) -> list[dict]:
    """A CSV file's rows as dicts of texts, refused (naming the file) when a column of
    ``columns`` is missing or the file is not UTF-8."""
    name = Path(path).name
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in columns if c not in (reader.fieldnames or ())]
            if missing:
                raise ValueError(
                    f"{name}: the CSV has no column {', '.join(map(shown, missing))} (it needs "
                    f"{', '.join(columns)})"
                )
            return list(reader)
    except UnicodeDecodeError as error:
        raise ValueError(f"{name}: not a UTF-8 CSV file ({error})") from None


def _id_key(ids: list[str]):
    """pandas' reading of the id column: numbers when every id is an int (or a float)."""
    for kind in (int, float):
        try:
            return [kind(i) for i in ids]
        except ValueError:
            continue
    return ids


def evidence_pairs(evi: str, at: str) -> list[dict]:
    if evi == "":
        raise ValueError(
            f"{at}: field 'evi' is empty (pandas reads it as NaN; the official scorer crashes "
            f"on it)"
        )
    pairs = []
    for piece in evi.split(PAIR_SEPARATOR):
        if piece != "":
            parts = piece.split(QA_SEPARATOR)
            if len(parts) != 2:
                raise ValueError(
                    f"{at}: field 'evi' has a piece with {len(parts) - 1} question-answer "
                    f"separators (a tab, tab, newline), not one (the official scorer crashes "
                    f"on it): {shown(piece)}"
                )
            pairs.append({"question": parts[0], "answer": parts[1]})
    return pairs


def read_2025(predictions: str | os.PathLike, references: str | os.PathLike) -> dict:
    solution = csv_rows(references, ("id", "evi", "label", "split"))
    submission = csv_rows(predictions, ("id", "evi", "label"))
    gold_ids = {row["id"] for row in solution if row["split"] == "gold"}
    kept = {
        "references": [row for row in solution if row["id"] in gold_ids],
        "predictions": [row for row in submission if row["id"] in gold_ids],
    }
    rows: dict[str, list] = {}
    for side, file in (("references", references), ("predictions", predictions)):
        found = kept[side]
        seen: dict[str, int] = {}
        for row in found:
            if row["id"] in seen:
                raise ValueError(
                    f"{Path(file).name}: id {shown(row['id'])} is on two rows: the official scorer "
                    f"pairs rows by their order after sorting by id"
                )
            seen[row["id"]] = 1
        keys = _id_key([row["id"] for row in found])
        order = sorted(range(len(found)), key=lambda k: keys[k])
        rows[side] = [found[k] for k in order]
    missing = gold_ids - {row["id"] for row in rows["predictions"]}
    if missing:
        first = sorted(missing)[0]
        raise ValueError(
            f"{Path(predictions).name}: no prediction for {len(missing)} gold ids (the first: "
            f"{shown(first)}): the official scorer would pair the others with the wrong claims"
        )
    out: dict[str, list] = {"predictions": [], "references": []}
    for k, (pred, ref) in enumerate(zip(rows["predictions"], rows["references"])):
        out["predictions"].append(
            {
                "id": pred["id"],
                "label": pred["label"],
                "evidence": evidence_pairs(pred["evi"], where("predictions", k, pred)),
            }
        )
        out["references"].append(
            {
                "id": ref["id"],
                "label": ref["label"],
                "questions": [
                    {"question": p["question"], "answers": [{"answer": p["answer"]}]}
                    for p in evidence_pairs(ref["evi"], where("references", k, ref))
                ],
            }
        )
    return out


def file_format(path: str | os.PathLike) -> str:
    """``"json"`` (the 2024 files) or ``"csv"`` (the 2025 files), from the first character
    that is not white space."""
    with open(path, "rb") as handle:
        head = handle.read(4096).lstrip()
    return "json" if head[:1] in (b"[", b"{") else "csv"


def read_official(
    references: str | os.PathLike | None, predictions: str | os.PathLike
) -> dict[str, list]:
    """Rows for ``compute()`` from a gold file and a prediction file: JSON lists as the 2024
    scorer reads them, or CSV files as the 2025 scorer does (told by their first character)."""
    if references is None:
        raise ValueError("AVeriTeC needs the gold file (references) beside the predictions")
    kinds = {file_format(references), file_format(predictions)}
    if kinds == {"csv"}:
        return read_2025(predictions, references)
    if kinds == {"json"}:
        return read_2024(predictions, references)
    raise ValueError(
        f"{Path(references).name} and {Path(predictions).name} are not of one format: give two "
        f"JSON files (2024: predictions and dev.json) or two CSV files (2025: submission and "
        f"solution)"
    )


def score_files(
    references: str | os.PathLike | None,
    predictions: str | os.PathLike,
    edition: str = DEFAULT_EDITION,
    nltk: str = DEFAULT_NLTK,
    ev2r: Any = None,
) -> dict[str, float]:
    """What ``taskeval score averitec`` prints: ``compute(**read_official(...), **options)``."""
    check_options(edition, nltk, ev2r)
    rows = read_official(references, predictions)
    return score_rows(**rows, edition=edition, nltk=nltk, ev2r=ev2r)


def row_id(row: Any) -> Any:
    return row.get("id") if isinstance(row, dict) else None


def references_from_hub(rows: Any) -> list[dict]:
    """References from the rows of an AVeriTeC split on the Hub (the dev.json records: claim,
    label, questions, ...), ids by position as in the 2024 scorer."""
    return [reference_row_2024(row, index) for index, row in enumerate(rows)]


def _choice(values: tuple[str, ...]):
    def parse(text: str) -> str:
        if text not in values:
            raise ValueError(text)
        return text

    return parse


def _edition_note(edition: str) -> str:
    return {
        "2024": "edition 2024: FEVER-7's evaluate_veracity.py",
        "2025": "edition 2025: the old AVeriTeC score of FEVER-8's averitec_evaluate.py",
        "2023": "edition 2023: the AVeriTeC paper's eval.py",
    }[edition]


def _nltk_note(release: str) -> str:
    return f"METEOR on the tokens of nltk {release}"


def _recording(path: str) -> Any:
    """``--ev2r FILE``: the recorded judge answers, a JSON file."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{Path(path).name}: not a readable JSON file ({error})") from None


OPTIONS = {
    "edition": (
        _choice(EDITIONS),
        "|".join(EDITIONS),
        "which official scorer: 2024 (FEVER-7's evaluate_veracity.py: thresholds 0.1 to 0.5, "
        "accuracy, F1, scores by claim type; the default), 2025 (FEVER-8's old AVeriTeC "
        "score: gold questions counted once, the threshold 0.25) or 2023 (the paper's eval.py: "
        "predictions in the gold's shape, justification scores)",
        DEFAULT_EDITION,
        _edition_note,
    ),
    "nltk": (
        _choice(RELEASES),
        "|".join(RELEASES),
        "whose word_tokenize tokens METEOR compares: 3.9.1 (the default: FEVER-8's pinned "
        "release, which gives the published 2024 numbers) or 3.10.4 (splits dashes and "
        "leading apostrophes), whichever nltk is installed",
        DEFAULT_NLTK,
        _nltk_note,
    ),
    "ev2r": (
        _recording,
        "FILE",
        'edition 2025 only: a JSON file of recorded Ev2R judge answers ({"question": [...], '
        '"qa_pair": [...]}, each {"id", "response"}), whose Ev2R recalls and new AVeriTeC '
        "score are recomputed (no model is called)",
        None,
        None,
    ),
}
