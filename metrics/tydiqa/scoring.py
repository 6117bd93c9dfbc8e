"""The official rule of ``tydiqa``: TyDi QA's ``tydi_eval.py`` (primary tasks), in plain Python.

Top to bottom, each official rule is one function, named after its official counterpart:

* ``is_null_span`` (``Span.is_null_span``): both byte offsets negative, in any order;
* ``gold_has_passage_answer`` / ``gold_has_minimal_answer``: annotator votes against a threshold;
* ``passage_credit``, ``span_f1`` (``compute_partial_match_scores``) and ``minimal_credit``: what a
  prediction earns against the annotators;
* ``score_passage_answer`` / ``score_minimal_answer``: one example's ``(gold_has, pred_has,
  credit, score)``, a missing prediction included;
* ``group_by_language`` and ``language_stats`` (``main`` and ``score_answers``): rows paired by id
  within the prediction's language, each language's gold visited in ``visiting_order``;
* ``best_threshold`` (``compute_pr_curves``): the sweep over the observed scores;
* ``language_values``: a language's 20 official values;
* ``macro_averages`` with ``safe_average``: plain means over the languages, English left out.

``score`` runs them on the compact rows ``rows.py`` checks and builds; ``tydiqa_score`` checks raw
rows first. Exactness notes (see the metric card): the last duplicate id wins, in the place of the
first; a language's gold examples are visited in the iteration order of a Python ``set`` of their
ids, because the sweep sums F1 in that order within score ties; a missing prediction contributes
the *int* score 0 and the sweep keeps the first score object of each value, so a threshold can be
``0`` rather than ``0.0``; the macro means add left to right from int 0 (the ``sum()`` of CPython
3.11, not 3.12's compensated one).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from .details import detail, in_gold_order
from .plain_values import shown
from .rows import (
    Annotation,
    Prediction,
    Reference,
    check_lengths,
    check_rows,
    check_threshold,
    normalize_predictions,
    normalize_references,
)
from .rows import normalize_reference as normalize_reference  # named here by its callers

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
DEFAULT_THRESHOLD = 2
TARGETS = (0.5, 0.75, 0.9)

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

# (gold_has, pred_has, credit, score): what the sweep takes from each example, for each task
Stat = tuple[bool, bool, Any, Any]


# ---------------------------------------------------------------------------------------------
# One example


def is_null_span(start: int, end: int) -> bool:
    """No span: both byte offsets negative, in either order (the data writes -1, -1)."""
    return start < 0 and end < 0


def gold_has_passage_answer(annotations: Sequence[Annotation], threshold: int) -> bool:
    """At least ``threshold`` annotators chose a passage (a candidate index >= 0)."""
    votes = 0
    for index, _, _, _ in annotations:
        votes += index >= 0
    return votes >= threshold


def gold_has_minimal_answer(annotations: Sequence[Annotation], threshold: int) -> bool:
    """At least ``threshold`` annotators gave a minimal answer: a span or a yes/no answer."""
    votes = 0
    for _, start, end, yes_no in annotations:
        votes += not is_null_span(start, end) or yes_no != "none"
    return votes >= threshold


def passage_credit(predicted: int, annotations: Sequence[Annotation]) -> bool:
    """The predicted candidate is the non-null choice of some annotator, a minority one too."""
    for index, _, _, _ in annotations:
        if index >= 0 and index == predicted:
            return True
    return False


class ZeroLengthInside(Exception):
    """The official assertion on a zero-length span strictly inside the other span; its args
    are the annotation's number and span (the caller names the rows)."""


def span_f1(gold: tuple[int, int], pred: tuple[int, int]) -> float | None:
    """Byte-overlap F1 of two non-null spans (end exclusive); None where the official script
    asserts (a zero-length span strictly inside the other, so an overlap of 0)."""
    gold_start, gold_end = gold
    pred_start, pred_end = pred
    if gold_end <= pred_start or pred_end <= gold_start:
        return 0.0
    overlap = min(gold_end, pred_end) - max(gold_start, pred_start)
    if overlap <= 0:
        return None
    precision = overlap / (pred_end - pred_start)
    recall = overlap / (gold_end - gold_start)
    return 2 * precision * recall / (precision + recall)


def minimal_credit(pred: Prediction, annotations: Sequence[Annotation]) -> float:
    """A yes/no answer: 1.0 if any annotator gave it. A span: the best F1 over the annotators'
    non-null spans (strictly greater replaces, so the earliest wins ties), 0.0 if none overlaps."""
    yes_no = pred[7]
    if yes_no != "none":
        for annotation in annotations:
            if annotation[3] == yes_no:
                return 1.0
        return 0.0
    best = 0.0
    for k, (_, start, end, _) in enumerate(annotations):
        if is_null_span(start, end):
            continue
        f1 = span_f1((start, end), (pred[4], pred[5]))
        if f1 is None:
            raise ZeroLengthInside(k, start, end)
        if f1 > best:
            best = f1
    return best


def score_passage_answer(
    annotations: Sequence[Annotation], pred: Prediction | None, threshold: int
) -> Stat:
    """One example's passage stat. Without a prediction: a miss on answerable gold, and on null
    gold a predicted-non-null wrong answer with the int score 0."""
    gold_has = gold_has_passage_answer(annotations, threshold)
    if pred is None:
        return gold_has, not gold_has, 0, 0
    pred_has = pred[2] >= 0
    correct = gold_has and pred_has and passage_credit(pred[2], annotations)
    return gold_has, pred_has, correct, pred[3]


def score_minimal_answer(
    annotations: Sequence[Annotation], pred: Prediction | None, threshold: int
) -> Stat:
    """One example's minimal-answer stat; credit only when both gold and prediction have one."""
    gold_has = gold_has_minimal_answer(annotations, threshold)
    if pred is None:
        return gold_has, not gold_has, 0, 0
    pred_has = not is_null_span(pred[4], pred[5]) or pred[7] != "none"
    credit = minimal_credit(pred, annotations) if gold_has and pred_has else 0.0
    return gold_has, pred_has, credit, pred[6]


# ---------------------------------------------------------------------------------------------
# One language


def visiting_order(example_ids: list[int]) -> Iterable[int]:
    """A language's gold ids as the official loop visits them: a ``set`` filled in file order."""
    return set(example_ids)


def group_by_language(
    predictions: Sequence[Prediction | None], references: Sequence[Reference | None]
) -> tuple[dict[int, int], dict[str, list[int]], dict[str, dict[int, int]]]:
    """The official dicts: gold id -> row position (a later duplicate replaces the row but keeps
    the first one's place), the gold ids of each gold language in that order, and each
    prediction language's id -> row position (the last duplicate wins)."""
    gold: dict[int, int] = {}
    for position, ref in enumerate(references):
        if ref is not None:
            gold[ref[0]] = position
    latest: dict[int, int] = {}
    for position, pred in enumerate(predictions):
        if pred is not None:
            latest[pred[0]] = position
    pred_by_language: dict[str, dict[int, int]] = {}
    for example_id, position in latest.items():
        pred_by_language.setdefault(predictions[position][1], {})[example_id] = position
    gold_by_language: dict[str, list[int]] = {}
    for example_id, position in gold.items():
        gold_by_language.setdefault(references[position][1], []).append(example_id)
    return gold, gold_by_language, pred_by_language


def language_stats(
    predictions: Sequence[Prediction | None],
    references: Sequence[Reference | None],
    passage_non_null_threshold: int = DEFAULT_THRESHOLD,
    minimal_non_null_threshold: int = DEFAULT_THRESHOLD,
    details: bool = False,
) -> Iterator[tuple[str, list[Stat], list[Stat], list]]:
    """Per scored language, in the official order: ``(language, passage_stats, minimal_stats,
    records)``. The stats are the ``(gold_has, pred_has, credit, score)`` tuples the official
    sweep takes, in its visiting order; ``records`` (with ``details``) are ``(row position,
    detail)`` pairs of the language's gold examples.

    A language is scored when some prediction carries it (English included). A gold example is
    paired with the prediction of its id *in its language's group*: a prediction under another
    language leaves it unpredicted.
    """
    check_threshold("passage_non_null_threshold", passage_non_null_threshold)
    check_threshold("minimal_non_null_threshold", minimal_non_null_threshold)
    gold, gold_by_language, pred_by_language = group_by_language(predictions, references)
    for language in LANGUAGES:
        if language not in pred_by_language:
            continue
        lang_preds = pred_by_language[language]
        passage_stats, minimal_stats, records = [], [], []
        for example_id in visiting_order(gold_by_language.get(language, [])):
            ref_position = gold[example_id]
            annotations = references[ref_position][2]
            position = lang_preds.get(example_id)
            pred = None if position is None else predictions[position]
            passage = score_passage_answer(annotations, pred, passage_non_null_threshold)
            try:
                minimal = score_minimal_answer(annotations, pred, minimal_non_null_threshold)
            except ZeroLengthInside as inside:
                k, start, end = inside.args
                raise ValueError(
                    f"predictions[{position}] (example_id {shown(example_id)}): field "
                    f"'minimal_answer' [{pred[4]}, {pred[5]}) and annotation {k} "
                    f"[{start}, {end}) of references[{ref_position}]: a zero-length span "
                    f"strictly inside the other span, on which the official script fails an "
                    f"assertion"
                ) from None
            passage_stats.append(passage)
            minimal_stats.append(minimal)
            if details:
                record = detail(example_id, language, pred is not None, passage, minimal)
                records.append((ref_position, record))
        yield language, passage_stats, minimal_stats, records


def best_threshold(stats: list[Stat]) -> tuple[list, list]:
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


def _by_score(stat: Stat) -> Any:
    return stat[3]


def task_values(stats: list[Stat]) -> list:
    """One task's 10 values (``language_keys``): the best point, then recall and precision at
    each target."""
    best, at_targets = best_threshold(stats)
    values = list(best)
    for recall, precision in at_targets:
        values += [recall, precision]
    return values


def language_values(passage_stats: list[Stat], minimal_stats: list[Stat]) -> list:
    """A language's 20 official values (``PER_LANGUAGE_KEYS``) from its sweep inputs."""
    return task_values(passage_stats) + task_values(minimal_stats)


# ---------------------------------------------------------------------------------------------
# All languages


def safe_average(values: list[float]) -> float:
    """CPython 3.11's ``sum(values) / len(values)``: left to right from int 0; int 0 when there
    is nothing to average."""
    if not values:
        return 0
    total = 0
    for v in values:
        total = total + v
    return total / len(values)


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
    return {key: safe_average(values) for key, values in zip(AVG_KEYS, macro)}


def score(
    predictions: Sequence[Prediction | None],
    references: Sequence[Reference | None],
    passage_non_null_threshold: int = DEFAULT_THRESHOLD,
    minimal_non_null_threshold: int = DEFAULT_THRESHOLD,
    details: bool = False,
) -> dict[str, Any]:
    """The official macro and per-language numbers from compact rows (``rows.normalize_*``).

    With ``details``, ``result["details"]`` also lists, in gold order, each gold example of a
    scored language: its gold and prediction per task, the credit and the score.
    """
    return scores_of(
        language_stats(
            predictions,
            references,
            passage_non_null_threshold,
            minimal_non_null_threshold,
            details,
        ),
        details,
    )


def scores_of(
    stats: Iterable[tuple[str, list[Stat], list[Stat], list]], details: bool = False
) -> dict[str, Any]:
    """``score`` from what ``language_stats`` yields: each language's sweeps, the macro means,
    the per-language values (and, with ``details``, the records in gold order)."""
    per_language: dict[str, dict[str, Any]] = {}
    values_by_language: dict[str, list] = {}
    records: list[tuple[int, dict[str, Any]]] = []
    for language, passage_stats, minimal_stats, lang_records in stats:
        records += lang_records
        values = language_values(passage_stats, minimal_stats)
        values_by_language[language] = values
        per_language[language] = dict(zip(PER_LANGUAGE_KEYS, values))
    result: dict[str, Any] = macro_averages(values_by_language)
    result["per_language"] = per_language
    if details:
        result["details"] = in_gold_order(records)
    return result


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
