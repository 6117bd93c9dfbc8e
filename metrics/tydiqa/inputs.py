"""Official TyDi QA files and Hub ``tydiqa`` dataset rows, turned into ``compute()`` inputs.

Plain Python; not imported by the metric script, so the folder stays loadable by ``evaluate``
alone. The gold file (JSONL, gzip when its path contains ``.gz``, as in ``tydi_eval.py``) is read
once, as a stream (``file_lines``): of each line only ``example_id``, ``language`` and
``annotations`` are kept (``gold_fields``), never the document text or HTML. Every record then
goes through the same row checks as compute() rows (``rows``), and ``score_files`` scores with the
same rule (``scoring``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from os import PathLike
from typing import Any

from .file_lines import Idle, json_value, lines, loads_binary, loads_text
from .gold_fields import gold_fields
from .plain_values import shown
from .rows import (
    Prediction,
    Reference,
    normalize_prediction,
    normalize_reference,
    prediction_record,
    reference_record,
)
from .scoring import DEFAULT_THRESHOLD, score

# compute() options: the parser of the command-line value, its metavar and its help.
OPTIONS = {
    f"{task}_non_null_threshold": (
        int,
        "N",
        f"how many annotators must give a non-null {task} answer for the gold of an example to "
        f"have one (default 2)",
    )
    for task in ("passage", "minimal")
}

_SCORE_FIELDS = ("passage_answer_score", "minimal_answer_score")
_IDLE_LINES = 256  # prediction lines parsed each time the gold reader waits for inflated data


# ---------------------------------------------------------------------------------------------
# Gold


def iter_gold(path: str | PathLike, idle: Idle | None = None) -> Iterator[Reference]:
    """Compact references of a TyDi QA gold file, one per line, read as a stream.

    Only ``example_id``, ``language`` and ``annotations`` are kept; ``question_text``,
    ``document_plaintext``, HTML and passage candidates are neither kept nor checked (their
    strings are skipped, not decoded).
    """
    gzipped = ".gz" in str(path)
    loads = loads_binary if gzipped else loads_text
    for number, data, start, end in lines(path, gzipped, idle):
        where = f"{path}, line {number}"
        example_id, language, annotations = gold_fields(data, start, end, where, loads)
        # the same checks as compute() rows, named by file and line
        ref = {"example_id": example_id, "language": language, "annotations": annotations}
        yield normalize_reference(ref, where)


# ---------------------------------------------------------------------------------------------
# Predictions


def iter_predictions(path: str | PathLike) -> Iterator[Prediction]:
    """Compact predictions of an official prediction file (plain JSONL), one per line."""
    with open(path, "rb") as f:
        if f.read(2) == b"\x1f\x8b":
            raise ValueError(
                f"{path}: is a gzip file; the official script reads predictions as plain JSONL"
            )
    for number, data, start, end in lines(path, gzipped=False):
        where = f"{path}, line {number}"
        row = json_value(data[start:end], where, loads_text)
        if not isinstance(row, dict):
            raise ValueError(f"{where}: expected a JSON object, got {type(row).__name__}")
        for field in _SCORE_FIELDS:
            # The official script passes scores through float(): numeric strings are accepted,
            # and true/false are 1.0/0.0.
            value = row.get(field)
            if isinstance(value, bool):
                row[field] = float(value)
            elif isinstance(value, str):
                try:
                    row[field] = float(value)
                except ValueError:
                    raise ValueError(
                        f"{where}: field {shown(field)} must be a number, got {shown(value)}"
                    ) from None
        yield normalize_prediction(row, where)


# ---------------------------------------------------------------------------------------------
# Entry points


def read_compact(
    references: str | PathLike, predictions: str | PathLike
) -> tuple[list[Prediction | None], list[Reference | None]]:
    """Both files as compact rows (``rows.normalize_*``), the shorter side padded with
    placeholders (None): what ``read_official``'s rows normalize to.

    The prediction file is parsed while the gold reader waits for inflated data; its errors are
    raised after the gold has been read, so the gold's come first, as in the official script.
    """
    if references is None:
        raise ValueError("tydiqa needs the gold file (references)")
    pending = iter_predictions(predictions)
    preds: list[Prediction] = []
    failure: list[ValueError] = []

    def idle() -> bool:
        try:
            for _ in range(_IDLE_LINES):
                preds.append(next(pending))
        except StopIteration:
            return False
        except ValueError as e:
            failure.append(e)
            return False
        return True

    refs: list[Reference] = list(iter_gold(references, idle))
    if failure:
        raise failure[0]
    preds.extend(pending)
    if not preds and refs:
        import warnings

        # The official script scores it (every example unanswered, all zeros): legal, but
        # almost always the wrong file or an empty run.
        warnings.warn(
            f"{predictions}: no prediction at all; every one of the {len(refs):,} gold examples "
            "scores as unanswered (all zeros)",
            stacklevel=4,
        )
    n = max(len(preds), len(refs))
    return preds + [None] * (n - len(preds)), refs + [None] * (n - len(refs))


def read_official(references: str | PathLike, predictions: str | PathLike) -> dict[str, list[dict]]:
    """Gold JSONL(.gz) + prediction JSONL → ``predictions``/``references`` rows for compute().

    Every line becomes one row, in file order; the shorter side is padded with placeholder rows
    (``{"example_id": None}``), since compute() pairs rows by ``example_id``, not by position.
    """
    preds, refs = read_compact(references, predictions)
    return {
        "predictions": [prediction_record(p) for p in preds],
        "references": [reference_record(r) for r in refs],
    }


def score_files(
    references: str | PathLike,
    predictions: str | PathLike,
    passage_non_null_threshold: int = DEFAULT_THRESHOLD,
    minimal_non_null_threshold: int = DEFAULT_THRESHOLD,
) -> dict[str, Any]:
    """What ``taskeval score tydiqa`` prints (compute() on ``read_official``, without rows)."""
    preds, refs = read_compact(references, predictions)
    return score(preds, refs, passage_non_null_threshold, minimal_non_null_threshold)


_HUB_FIELDS = (
    "passage_answer_candidate_index",
    "minimal_answers_start_byte",
    "minimal_answers_end_byte",
    "yes_no_answer",
)


def references_from_hub(rows: Iterable[Mapping], example_ids: Sequence[int]) -> list[dict]:
    """Rows of the Hub ``tydiqa`` dataset (config ``primary_task``) → ``references``.

    That dataset drops TyDi QA's ``example_id``, so the caller supplies one id per row (the ids
    its predictions carry, e.g. the official ones in the dev file's order). Each row's
    ``annotations`` is a dict of lists (``passage_answer_candidate_index``,
    ``minimal_answers_start_byte``, ``minimal_answers_end_byte``, ``yes_no_answer``), one entry
    per annotator; it becomes a list of ``{candidate_index, start_byte, end_byte,
    yes_no_answer}`` records.
    """
    rows = list(rows)
    ids = list(example_ids)
    if len(ids) != len(rows):
        raise ValueError(
            f"example_ids has {len(ids)} ids but there are {len(rows)} rows: give one id per row"
        )
    out = []
    for index, (row, example_id) in enumerate(zip(rows, ids)):
        where = f"rows[{index}] (example_id {shown(example_id)})"
        if not isinstance(row, Mapping):
            raise ValueError(f"{where}: expected a Hub tydiqa primary_task row (a dict)")
        annotations = row.get("annotations")
        if not isinstance(annotations, Mapping):
            raise ValueError(
                f"{where}: field 'annotations' must be a dict of lists ({', '.join(_HUB_FIELDS)}), "
                f"got {shown(annotations)}"
            )
        columns = []
        for field in _HUB_FIELDS:
            column = annotations.get(field)
            if not isinstance(column, (list, tuple)):
                raise ValueError(
                    f"{where}: field 'annotations.{field}' must be a list, got {shown(column)}"
                )
            columns.append(list(column))
        if len({len(c) for c in columns}) != 1:
            raise ValueError(
                f"{where}: the lists in 'annotations' must have one entry per annotator, got "
                f"lengths {[len(c) for c in columns]}"
            )
        reference = {
            "example_id": example_id,
            "language": row.get("language"),
            "annotations": [
                {"candidate_index": i, "start_byte": s, "end_byte": e, "yes_no_answer": y}
                for i, s, e, y in zip(*columns)
            ],
        }
        # fail here, on the row, rather than later inside compute()
        normalize_reference(reference, f"rows[{index}]")
        out.append(reference)
    return out
