"""Scoring core of ``tydiqa``: TyDi QA ``tydi_eval.py`` (primary tasks) in plain Python.

Two steps, usable on their own:

* ``normalize_predictions`` / ``normalize_references`` check rows and turn them into compact
  tuples, raising a ``ValueError`` that names the row, its example id and the field wherever the
  official script would crash, assert, or silently score something else;
* ``score`` computes the official per-language and macro numbers from those tuples.

``tydiqa_score(predictions, references, ...)`` does both.

Exactness notes (see the metric card): rows are paired by ``example_id`` (the last duplicate
wins, in the position of the first); each language's gold examples are visited in the iteration
order of a Python ``set`` of their ids, because the threshold sweep sums F1 in that order within
score ties; a missing prediction contributes the *int* score 0 and the threshold dict keeps the
first score object of each value, so a threshold can be ``0`` rather than ``0.0``; the macro
means add left to right from int 0 (the ``sum()`` of CPython 3.11, not 3.12's compensated one).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .plain_values import INT64, as_int, as_number, int_problem

LANGUAGES = (
    "english",
    "arabic",
    "bengali",
    "finnish",
    "indonesian",
    "japanese",
    "swahili",
    "korean",
    "russian",
    "telugu",
    "thai",
)
EXCLUDED_FROM_MACRO = "english"
YES_NO = ("yes", "no", "none")
DEFAULT_THRESHOLD = 2
TARGETS = (0.5, 0.75, 0.9)

# compact rows: a missing row (placeholder) is None
Annotation = tuple[int, int, int, str]  # (candidate_index, start_byte, end_byte, yes_no)
Reference = tuple[int, str, tuple[Annotation, ...]]  # (example_id, language, annotations)
# (example_id, language, passage_index, passage_score, start_byte, end_byte, minimal_score, yes_no)
Prediction = tuple[int, str, int, float, int, int, float, str]

AVG_KEYS = (
    "avg_passage_f1",
    "avg_passage_recall",
    "avg_passage_precision",
    "avg_minimal_f1",
    "avg_minimal_recall",
    "avg_minimal_precision",
)


def language_keys(task: str) -> list[str]:
    """The 10 per-language keys of one task (``passage`` or ``minimal``), in official order."""
    keys = [f"{task}-best-threshold-{m}" for m in ("f1", "precision", "recall")]
    keys.append(f"{task}-best-threshold")
    for t in TARGETS:
        keys += [f"{task}-recall-at-precision>={t}", f"{task}-precision-at-precision>={t}"]
    return keys


PER_LANGUAGE_KEYS = (*language_keys("passage"), *language_keys("minimal"))


# ---------------------------------------------------------------------------------------------
# Row checks


def _where(side: str, index: int, example_id: Any) -> str:
    where = f"{side}[{index}]"
    return where if example_id is None else f"{where} (example_id {example_id!r})"


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(f"{side} must be a list of dicts, got {type(rows).__name__}")


def check_threshold(name: str, value: Any) -> int:
    number = as_int(value)
    if number is None:
        raise ValueError(f"{name} must be an int (a number of annotator votes), got {value!r}")
    return number


def _example_id(where: str, row: Mapping) -> int:
    value = row["example_id"]
    number = as_int(value)
    if number is None or number not in INT64:
        raise ValueError(
            f"{where}: field 'example_id' must be a signed 64-bit integer (as in the TyDi QA "
            f"files; ids are matched by value and type), got {value!r}"
        )
    return number


def _string(where: str, row: Mapping, field: str, default: Any = None) -> str:
    if field not in row and default is not None:
        return default
    value = row.get(field)
    if not isinstance(value, str):
        raise ValueError(f"{where}: field {field!r} must be a string, got {value!r}")
    return value


def _int(where: str, value: Any, field: str) -> int:
    if type(value) is int and value in INT64:
        return value
    problem = int_problem(value)
    if problem:
        raise ValueError(f"{where}: field {field!r}: {problem}")
    return as_int(value)  # a numpy or 0-d torch integer, as a plain int


def _yes_no(where: str, value: Any, field: str) -> str:
    if not isinstance(value, str) or value.lower() not in YES_NO:
        raise ValueError(
            f"{where}: field {field!r} must be 'YES', 'NO' or 'NONE' (any case), got {value!r}"
        )
    return value.lower()


def is_null_span(start: int, end: int) -> bool:
    """The official ``Span.is_null_span``: a span is null when both byte offsets are negative,
    in any order (the data writes -1, -1; -1, -7 is null too)."""
    return start < 0 and end < 0


def span_problem(start: int, end: int) -> str | None:
    """Why the official ``Span`` refuses ``[start, end)`` (a ``ValueError`` there), or None:
    one offset negative and not the other, or a non-null span that starts after it ends.
    A null span is never checked for order."""
    if (start < 0) != (end < 0):
        return (
            f"has one null (negative) offset and one non-null: [{start}, {end}); a null span "
            f"has both offsets negative"
        )
    if not is_null_span(start, end) and start > end:
        return f"starts after it ends: [{start}, {end}) (byte offsets, end exclusive)"
    return None


def _span(where: str, start: Any, end: Any, field: str) -> tuple[int, int]:
    start = _int(where, start, field)
    end = _int(where, end, field)
    problem = span_problem(start, end)
    if problem:
        raise ValueError(f"{where}: field {field!r} {problem}")
    return start, end


def _score(where: str, row: Mapping, field: str) -> float:
    if field not in row or row[field] is None:
        raise ValueError(f"{where}: missing field {field!r} (a number; the sweep needs it)")
    value = as_number(row[field])
    if value is None:
        raise ValueError(f"{where}: field {field!r} must be a number, got {row[field]!r}")
    try:
        value = float(value)
    except OverflowError:
        raise ValueError(f"{where}: field {field!r} is too large for a float: {value!r}") from None
    if math.isnan(value):
        raise ValueError(
            f"{where}: field {field!r} is NaN, which makes the official sort order undefined"
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
    where = f"{where} (example_id {example_id!r})"
    language = _string(where, row, "language")
    index = row.get("passage_answer_index", -1)
    index = _int(where, index, "passage_answer_index")
    passage_score = _score(where, row, "passage_answer_score")
    span = row.get("minimal_answer")
    if not isinstance(span, Mapping):
        raise ValueError(
            f"{where}: field 'minimal_answer' must be a {{'start_byte_offset', "
            f"'end_byte_offset'}} record ({{-1, -1}} when there is no span), got {span!r}"
        )
    if not {"start_byte_offset", "end_byte_offset"} <= set(span):
        raise ValueError(
            f"{where}: field 'minimal_answer' must have 'start_byte_offset' and "
            f"'end_byte_offset', got {span!r}"
        )
    start, end = _span(where, span["start_byte_offset"], span["end_byte_offset"], "minimal_answer")
    minimal_score = _score(where, row, "minimal_answer_score")
    yes_no = _yes_no(where, row.get("yes_no_answer", "NONE"), "yes_no_answer")
    if yes_no != "none" and start >= 0:
        raise ValueError(
            f"{where}: field 'yes_no_answer' is {row['yes_no_answer']!r} but 'minimal_answer' "
            f"is a span [{start}, {end}): a yes/no answer and a span cannot coexist"
        )
    return (example_id, language, index, passage_score, start, end, minimal_score, yes_no)


def normalize_annotation(item: Any, where: str) -> Annotation:
    """One annotator's answer, flat or in the official nested form, as a compact tuple."""
    if not isinstance(item, Mapping):
        raise ValueError(f"{where}: expected an annotation record, got {item!r}")
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


def _annotation_fast(item: Any) -> Annotation | None:
    """``normalize_annotation`` for the common valid record, or None (then it explains)."""
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
    where = f"{where} (example_id {example_id!r})"
    language = _string(where, row, "language")
    items = row.get("annotations")
    if not isinstance(items, list) or not items:
        raise ValueError(
            f"{where}: field 'annotations' must be a non-empty list of annotator answers, "
            f"got {items!r}"
        )
    annotations = tuple(
        _annotation_fast(item) or normalize_annotation(item, f"{where}: field 'annotations'[{k}]")
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


# ---------------------------------------------------------------------------------------------
# Scoring


def _overlap_f1(gold: tuple[int, int], pred: tuple[int, int]) -> float | None:
    """Byte-overlap F1 of two non-null spans; None where the official script asserts."""
    gold_start, gold_end = gold
    pred_start, pred_end = pred
    if gold_end <= pred_start or pred_end <= gold_start:
        return 0.0
    overlap = min(gold_end, pred_end) - max(gold_start, pred_start)
    if overlap <= 0:  # a zero-length span strictly inside the other one
        return None
    precision = overlap / (pred_end - pred_start)
    recall = overlap / (gold_end - gold_start)
    return 2 * precision * recall / (precision + recall)


class _Crash(Exception):
    """The official script's assertion on a zero-length span (turned into a ValueError)."""


def _minimal_credit(pred: Prediction, annotations: tuple[Annotation, ...]) -> float:
    yes_no = pred[7]
    if yes_no != "none":
        return 1.0 if any(a[3] == yes_no for a in annotations) else 0.0
    best = 0.0
    for k, (_, start, end, _) in enumerate(annotations):
        if start < 0:
            continue
        f1 = _overlap_f1((start, end), (pred[4], pred[5]))
        if f1 is None:
            raise _Crash(k, start, end)
        if f1 > best:
            best = f1
    return best


def best_threshold(stats: list[tuple[bool, bool, float, float]]) -> tuple[list, list]:
    """The official sweep over (gold_has, pred_has, credit, score) in visiting order.

    Returns ``[f1, precision, recall, threshold]`` at the best F1 and, for each precision
    target, ``[recall, precision]`` (int 0s when the target is never reached). Divisions by
    zero give the int 0, as the official ``safe_divide``.
    """
    total_gold = 0
    for gold_has, _, _, _ in stats:
        total_gold += gold_has
    # Stable sort: ties keep the visiting order, which is the order their credits are summed in.
    ranked = sorted(stats, key=_by_score, reverse=True)
    # The official sweep records (P, R) under each score in a dict: equal scores overwrite the
    # value (so a run of ties counts as a whole) but keep the first key object (0 or 0.0).
    points = []
    correct = predicted = 0
    last = len(ranked) - 1
    threshold = None
    for k, (_, pred_has, credit, score) in enumerate(ranked):
        if threshold is None:
            threshold = score
        correct += credit
        predicted += pred_has
        if k == last or ranked[k + 1][3] != score:
            points.append((threshold, correct, predicted))
            threshold = None
    best = [0.0, 0.0, 0.0, 0.0]
    at_targets = [[0, 0] for _ in TARGETS]
    for threshold, correct, predicted in points:
        precision = correct / predicted if predicted else 0
        recall = correct / total_gold if total_gold else 0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0
        if f1 > best[0]:
            best = [f1, precision, recall, threshold]
        for target, slot in zip(TARGETS, at_targets):
            if precision >= target and recall > slot[0]:
                slot[0], slot[1] = recall, precision
    return best, at_targets


def _by_score(stat: tuple) -> float:
    return stat[3]


def _task_values(stats: list) -> list:
    best, at_targets = best_threshold(stats)
    values = list(best)
    for recall, precision in at_targets:
        values += [recall, precision]
    return values


def _mean(values: list[float]) -> float:
    # CPython 3.11's sum(): left to right from int 0; int 0 when there is nothing to average.
    if not values:
        return 0
    total = 0
    for v in values:
        total = total + v
    return total / len(values)


def language_stats(
    predictions: Sequence[Prediction | None],
    references: Sequence[Reference | None],
    passage_non_null_threshold: int = DEFAULT_THRESHOLD,
    minimal_non_null_threshold: int = DEFAULT_THRESHOLD,
    details: bool = False,
) -> Iterator[tuple[str, list, list, list]]:
    """Per scored language, in the official order: ``(language, passage_stats, minimal_stats,
    records)``. The stats are the ``(gold_has, pred_has, credit, score)`` tuples the official
    sweep takes, in its visiting order; ``records`` (with ``details``) are ``(row position,
    detail)`` pairs of the language's gold examples."""
    check_threshold("passage_non_null_threshold", passage_non_null_threshold)
    check_threshold("minimal_non_null_threshold", minimal_non_null_threshold)
    # id -> row position; a later duplicate replaces the value but keeps the first position.
    gold: dict[int, int] = {}
    for position, ref in enumerate(references):
        if ref is not None:
            gold[ref[0]] = position
    pred_by_language: dict[str, dict[int, int]] = {}
    latest: dict[int, int] = {}
    for position, pred in enumerate(predictions):
        if pred is not None:
            latest[pred[0]] = position
    for example_id, position in latest.items():
        pred_by_language.setdefault(predictions[position][1], {})[example_id] = position
    gold_by_language: dict[str, list[int]] = {}
    for example_id, position in gold.items():
        gold_by_language.setdefault(references[position][1], []).append(example_id)

    for language in LANGUAGES:
        if language not in pred_by_language:
            continue
        lang_preds = pred_by_language[language]
        passage_stats, minimal_stats, records = [], [], []
        # The official visiting order: a set of the ids inserted in first-occurrence order.
        for example_id in set(gold_by_language.get(language, ())):
            ref_position = gold[example_id]
            annotations = references[ref_position][2]
            passage_votes = minimal_votes = 0
            for index, start, _, yes_no in annotations:
                passage_votes += index >= 0
                minimal_votes += start >= 0 or yes_no != "none"
            passage_gold = passage_votes >= passage_non_null_threshold
            minimal_gold = minimal_votes >= minimal_non_null_threshold
            position = lang_preds.get(example_id)
            if position is None:
                passage_stats.append((passage_gold, not passage_gold, 0, 0))
                minimal_stats.append((minimal_gold, not minimal_gold, 0, 0))
                if details:
                    records.append(
                        (ref_position, _detail(example_id, language, passage_gold, minimal_gold))
                    )
                continue
            pred = predictions[position]
            passage_has = pred[2] >= 0
            correct = (
                passage_gold
                and passage_has
                and any(a[0] >= 0 and a[0] == pred[2] for a in annotations)
            )
            passage_stats.append((passage_gold, passage_has, correct, pred[3]))
            minimal_has = pred[4] >= 0 or pred[7] != "none"
            credit = 0.0
            if minimal_gold and minimal_has:
                try:
                    credit = _minimal_credit(pred, annotations)
                except _Crash as crash:
                    k, start, end = crash.args
                    raise ValueError(
                        f"predictions[{position}] (example_id {example_id!r}): field "
                        f"'minimal_answer' [{pred[4]}, {pred[5]}) and annotation {k} "
                        f"[{start}, {end}) of references[{ref_position}]: a zero-length span "
                        f"strictly inside the other span, on which the official script "
                        f"fails an assertion"
                    ) from None
            minimal_stats.append((minimal_gold, minimal_has, credit, pred[6]))
            if details:
                record = _detail(example_id, language, passage_gold, minimal_gold)
                record.update(
                    predicted=True,
                    passage_predicted=passage_has,
                    passage_correct=bool(correct),
                    passage_score=pred[3],
                    minimal_predicted=minimal_has,
                    minimal_f1=credit,
                    minimal_score=pred[6],
                )
                records.append((ref_position, record))
        yield language, passage_stats, minimal_stats, records


def language_values(passage_stats: list, minimal_stats: list) -> list:
    """A language's 20 official values (``PER_LANGUAGE_KEYS``) from its sweep inputs."""
    return _task_values(passage_stats) + _task_values(minimal_stats)


def macro_averages(values_by_language: Mapping[str, list]) -> dict[str, Any]:
    """The six headline numbers: plain means over the languages, English left out."""
    macro: list[list[float]] = [[] for _ in AVG_KEYS]
    for language, values in values_by_language.items():
        if language != EXCLUDED_FROM_MACRO:
            # passage f1, recall, precision, then minimal (the order of AVG_KEYS)
            for slot, value in zip(
                macro, (values[0], values[2], values[1], values[10], values[12], values[11])
            ):
                slot.append(value)
    return {key: _mean(values) for key, values in zip(AVG_KEYS, macro)}


def score(
    predictions: Sequence[Prediction | None],
    references: Sequence[Reference | None],
    passage_non_null_threshold: int = DEFAULT_THRESHOLD,
    minimal_non_null_threshold: int = DEFAULT_THRESHOLD,
    details: bool = False,
) -> dict[str, Any]:
    """The official macro and per-language numbers from normalized rows (see ``normalize_*``).

    With ``details``, ``result["details"]`` also lists, in gold order, each gold example of a
    scored language: its gold and prediction per task, the credit and the score.
    """
    per_language: dict[str, dict[str, Any]] = {}
    values_by_language: dict[str, list] = {}
    records: list[tuple[int, dict[str, Any]]] = []
    for language, passage_stats, minimal_stats, lang_records in language_stats(
        predictions, references, passage_non_null_threshold, minimal_non_null_threshold, details
    ):
        records += lang_records
        values = language_values(passage_stats, minimal_stats)
        values_by_language[language] = values
        per_language[language] = dict(zip(PER_LANGUAGE_KEYS, values))
    result: dict[str, Any] = macro_averages(values_by_language)
    result["per_language"] = per_language
    if details:
        result["details"] = [record for _, record in sorted(records, key=_by_position)]
    return result


def _by_position(item: tuple) -> int:
    return item[0]


def _detail(example_id: int, language: str, passage_gold: bool, minimal_gold: bool) -> dict:
    """A gold example's details, as for a missing prediction (updated when there is one)."""
    return {
        "example_id": example_id,
        "language": language,
        "predicted": False,
        "passage_gold": passage_gold,
        "passage_predicted": False,
        "passage_correct": False,
        "passage_score": None,
        "minimal_gold": minimal_gold,
        "minimal_predicted": False,
        "minimal_f1": 0.0,
        "minimal_score": None,
    }


def tydiqa_score(
    predictions: Sequence[Any],
    references: Sequence[Any],
    passage_non_null_threshold: int = DEFAULT_THRESHOLD,
    minimal_non_null_threshold: int = DEFAULT_THRESHOLD,
    details: bool = False,
) -> dict[str, Any]:
    """Check the rows and score them exactly as ``tydi_eval.py`` does (see ``score``)."""
    check_threshold("passage_non_null_threshold", passage_non_null_threshold)
    check_threshold("minimal_non_null_threshold", minimal_non_null_threshold)
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    check_lengths(len(predictions), len(references))
    return score(
        normalize_predictions(predictions),
        normalize_references(references),
        passage_non_null_threshold,
        minimal_non_null_threshold,
        details,
    )
