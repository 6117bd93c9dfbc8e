"""Row checks of ``tydiqa``: compute() rows (and file records) → compact tuples.

Each check raises a ``ValueError`` that names the row, its example id and the field wherever the
official script would crash, assert, or silently score something else (see the metric card);
the rows that pass become the compact tuples the rule in ``scoring`` reads. Plain Python.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .plain_values import INT64, as_int, as_number, int_problem, shown

YES_NO = ("yes", "no", "none")

# compact rows: a missing row (placeholder) is None
Annotation = tuple[int, int, int, str]  # (candidate_index, start_byte, end_byte, yes_no)
Reference = tuple[int, str, tuple[Annotation, ...]]  # (example_id, language, annotations)
# (example_id, language, passage_index, passage_score, start_byte, end_byte, minimal_score, yes_no)
Prediction = tuple[int, str, int, float, int, int, float, str]


def _where(side: str, index: int, example_id: Any) -> str:
    where = f"{side}[{index}]"
    return where if example_id is None else f"{where} (example_id {shown(example_id)})"


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(f"{side} must be a list of dicts, got {type(rows).__name__}")


def check_threshold(name: str, value: Any) -> int:
    number = as_int(value)
    if number is None:
        raise ValueError(f"{name} must be an int (a number of annotator votes), got {shown(value)}")
    return number


def _example_id(where: str, row: Mapping) -> int:
    if "example_id" not in row:  # the official reader's row["example_id"]: a KeyError there
        raise ValueError(f"{where}: missing field 'example_id'")
    value = row["example_id"]
    number = as_int(value)
    if number is None or number not in INT64:
        raise ValueError(
            f"{where}: field 'example_id' must be a signed 64-bit integer (as in the TyDi QA "
            f"files; ids are matched by value and type), got {shown(value)}"
        )
    return number


def _string(where: str, row: Mapping, field: str, default: Any = None) -> str:
    if field not in row and default is not None:
        return default
    value = row.get(field)
    if not isinstance(value, str):
        raise ValueError(f"{where}: field {shown(field)} must be a string, got {shown(value)}")
    return value


def _int(where: str, value: Any, field: str) -> int:
    if type(value) is int and value in INT64:
        return value
    problem = int_problem(value)
    if problem:
        raise ValueError(f"{where}: field {shown(field)}: {problem}")
    return as_int(value)  # a numpy or 0-d torch integer, as a plain int


def _yes_no(where: str, value: Any, field: str) -> str:
    if not isinstance(value, str) or value.lower() not in YES_NO:
        raise ValueError(
            f"{where}: field {shown(field)} must be 'YES', 'NO' or 'NONE' (any case), got {shown(value)}"
        )
    return value.lower()


def span_problem(start: int, end: int) -> str | None:
    """Why the official ``Span`` constructor refuses ``[start, end)`` (a ``ValueError`` there),
    or None: one offset negative and the other not, or both non-negative and the start after the
    end. Both negative is a null span, whatever their order (``[-1, -7)`` too)."""
    if (start < 0) != (end < 0):
        return (
            f"has one null (negative) offset and one non-null: [{start}, {end}); a null span "
            f"has both offsets negative"
        )
    if start >= 0 and start > end:
        return f"starts after it ends: [{start}, {end}) (byte offsets, end exclusive)"
    return None


def _span(where: str, start: Any, end: Any, field: str) -> tuple[int, int]:
    start = _int(where, start, field)
    end = _int(where, end, field)
    problem = span_problem(start, end)
    if problem:
        raise ValueError(f"{where}: field {shown(field)} {problem}")
    return start, end


def _score(where: str, row: Mapping, field: str) -> float:
    if field not in row or row[field] is None:
        raise ValueError(f"{where}: missing field {shown(field)} (a number; the sweep needs it)")
    value = as_number(row[field])
    if value is None:
        raise ValueError(f"{where}: field {shown(field)} must be a number, got {shown(row[field])}")
    try:
        value = float(value)
    except OverflowError:
        raise ValueError(
            f"{where}: field {shown(field)} is too large for a float: {shown(value)}"
        ) from None
    if math.isnan(value):
        raise ValueError(
            f"{where}: field {shown(field)} is NaN, which makes the official sort order undefined"
        )
    return value


def _is_placeholder(row: Mapping) -> bool:
    return row.get("example_id") is None


def _is_empty(value: Any) -> bool:
    # Compared by type first: ``==`` on an array would compare element-wise.
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def _check_placeholder(where: str, row: Mapping, side: str) -> None:
    # A row without example_id stands for "nothing on this side" (see the metric card); any
    # other value in it is most likely a mistake, so it is not silently dropped.
    extra = sorted(k for k, v in row.items() if not _is_empty(v) and k != "example_id")
    if side == "predictions" and isinstance(row.get("minimal_answer"), Mapping):
        if all(v is None for v in row["minimal_answer"].values()):
            extra = [k for k in extra if k != "minimal_answer"]
    if extra:
        raise ValueError(
            f"{where}: field 'example_id' is null, which marks a row with no {side[:-1]} "
            f"(a placeholder), but it has values in {extra}"
        )


def normalize_prediction(row: Any, where: str) -> Prediction:
    """One official prediction record (an ``example_id`` is required) as a compact tuple."""
    if not isinstance(row, Mapping):
        raise ValueError(f"{where}: expected a dict, got {type(row).__name__}")
    example_id = _example_id(where, row)
    where = f"{where} (example_id {shown(example_id)})"
    language = _string(where, row, "language")
    index = row.get("passage_answer_index", -1)
    index = _int(where, index, "passage_answer_index")
    passage_score = _score(where, row, "passage_answer_score")
    span = row.get("minimal_answer")
    if not isinstance(span, Mapping):
        raise ValueError(
            f"{where}: field 'minimal_answer' must be a {{'start_byte_offset', "
            f"'end_byte_offset'}} record ({{-1, -1}} when there is no span), got {shown(span)}"
        )
    if not {"start_byte_offset", "end_byte_offset"} <= set(span):
        raise ValueError(
            f"{where}: field 'minimal_answer' must have 'start_byte_offset' and "
            f"'end_byte_offset', got {shown(span)}"
        )
    start, end = _span(where, span["start_byte_offset"], span["end_byte_offset"], "minimal_answer")
    minimal_score = _score(where, row, "minimal_answer_score")
    yes_no = _yes_no(where, row.get("yes_no_answer", "NONE"), "yes_no_answer")
    if yes_no != "none" and start >= 0:
        raise ValueError(
            f"{where}: field 'yes_no_answer' is {shown(row['yes_no_answer'])} but 'minimal_answer' "
            f"is a span [{start}, {end}): a yes/no answer and a span cannot coexist"
        )
    return (example_id, language, index, passage_score, start, end, minimal_score, yes_no)


def normalize_annotation(item: Any, where: str) -> Annotation:
    """One annotator's answer, flat or in the official nested form, as a compact tuple."""
    if not isinstance(item, Mapping):
        raise ValueError(f"{where}: expected an annotation record, got {shown(item)}")
    if "passage_answer" in item or "minimal_answer" in item:
        try:
            index = item["passage_answer"]["candidate_index"]
            start = item["minimal_answer"]["plaintext_start_byte"]
            end = item["minimal_answer"]["plaintext_end_byte"]
            yes_no = item["yes_no_answer"]
        except (KeyError, TypeError) as e:
            raise ValueError(
                f"{where}: an official annotation needs passage_answer.candidate_index, "
                f"minimal_answer.plaintext_start_byte/plaintext_end_byte and yes_no_answer; "
                f"missing {e}"
            ) from None
    else:
        missing = [
            k
            for k in ("candidate_index", "start_byte", "end_byte", "yes_no_answer")
            if k not in item
        ]
        if missing:
            raise ValueError(
                f"{where}: missing field(s) {missing} (an annotation has candidate_index, "
                f"start_byte, end_byte and yes_no_answer)"
            )
        index, start, end = item["candidate_index"], item["start_byte"], item["end_byte"]
        yes_no = item["yes_no_answer"]
    index = _int(where, index, "candidate_index")
    start, end = _span(where, start, end, "start_byte/end_byte")
    return (index, start, end, _yes_no(where, yes_no, "yes_no_answer"))


def annotation_fast(item: Any) -> Annotation | None:
    """``normalize_annotation`` for the common valid record (plain ints, a known yes/no, a span
    ``span_problem`` accepts), or None: then ``normalize_annotation`` decides and explains."""
    try:
        if "passage_answer" in item:
            index = item["passage_answer"]["candidate_index"]
            span = item["minimal_answer"]
            start, end = span["plaintext_start_byte"], span["plaintext_end_byte"]
        else:
            index, start, end = item["candidate_index"], item["start_byte"], item["end_byte"]
        yes_no = item["yes_no_answer"]
    except (KeyError, TypeError):
        return None
    if type(index) is int and type(start) is int and type(end) is int and type(yes_no) is str:
        yes_no = yes_no.lower()
        if yes_no in YES_NO and ((start < 0 and end < 0) or 0 <= start <= end):
            if index in INT64 and start in INT64 and end in INT64:
                return (index, start, end, yes_no)
    return None


def normalize_reference(row: Any, where: str) -> Reference:
    """One gold example (an ``example_id`` is required) as a compact tuple."""
    if not isinstance(row, Mapping):
        raise ValueError(f"{where}: expected a dict, got {type(row).__name__}")
    example_id = _example_id(where, row)
    where = f"{where} (example_id {shown(example_id)})"
    language = _string(where, row, "language")
    items = row.get("annotations")
    if not isinstance(items, list) or not items:
        raise ValueError(
            f"{where}: field 'annotations' must be a non-empty list of annotator answers, "
            f"got {shown(items)}"
        )
    annotations = tuple(
        annotation_fast(item) or normalize_annotation(item, f"{where}: field 'annotations'[{k}]")
        for k, item in enumerate(items)
    )
    return (example_id, language, annotations)


def normalize_predictions(predictions: Sequence[Any], start: int = 0) -> list[Prediction | None]:
    """Check prediction rows (numbered from ``start`` in errors); a row whose ``example_id`` is
    None is a placeholder (None)."""
    check_rows(predictions, "predictions")
    out: list[Prediction | None] = []
    for index, row in enumerate(predictions, start):
        where = f"predictions[{index}]"
        if isinstance(row, Mapping) and _is_placeholder(row):
            _check_placeholder(where, row, "predictions")
            out.append(None)
        else:
            out.append(normalize_prediction(row, where))
    return out


def normalize_references(references: Sequence[Any], start: int = 0) -> list[Reference | None]:
    """Check reference rows (numbered from ``start`` in errors); a row whose ``example_id`` is
    None is a placeholder (None)."""
    check_rows(references, "references")
    out: list[Reference | None] = []
    for index, row in enumerate(references, start):
        where = f"references[{index}]"
        if isinstance(row, Mapping) and _is_placeholder(row):
            _check_placeholder(where, row, "references")
            out.append(None)
        else:
            out.append(normalize_reference(row, where))
    return out


def check_lengths(n_predictions: int, n_references: int) -> None:
    if n_predictions != n_references:
        raise ValueError(
            f"predictions and references must have the same length (pad the shorter side with "
            f"rows whose example_id is None), got {n_predictions} predictions and "
            f"{n_references} references"
        )


PREDICTION_FIELDS = (
    "example_id",
    "language",
    "passage_answer_index",
    "passage_answer_score",
    "minimal_answer",
    "minimal_answer_score",
    "yes_no_answer",
)
REFERENCE_FIELDS = ("example_id", "language", "annotations")


def prediction_record(pred: Prediction | None) -> dict[str, Any]:
    """A compact prediction as a compute() row (the placeholder row for None)."""
    if pred is None:
        # Every key present (datasets encodes batches key by key); strings are "" because
        # evaluate's add() refuses None where a string belongs.
        return {
            **dict.fromkeys(PREDICTION_FIELDS),
            "language": "",
            "minimal_answer": {"start_byte_offset": None, "end_byte_offset": None},
            "yes_no_answer": "",
        }
    example_id, language, index, passage_score, start, end, minimal_score, yes_no = pred
    return {
        "example_id": example_id,
        "language": language,
        "passage_answer_index": index,
        "passage_answer_score": passage_score,
        "minimal_answer": {"start_byte_offset": start, "end_byte_offset": end},
        "minimal_answer_score": minimal_score,
        "yes_no_answer": yes_no,
    }


def reference_record(ref: Reference | None) -> dict[str, Any]:
    """A compact reference as a compute() row (the placeholder row for None)."""
    if ref is None:
        return {"example_id": None, "language": "", "annotations": []}
    example_id, language, annotations = ref
    return {
        "example_id": example_id,
        "language": language,
        "annotations": [
            {"candidate_index": i, "start_byte": s, "end_byte": e, "yes_no_answer": y}
            for i, s, e, y in annotations
        ],
    }
