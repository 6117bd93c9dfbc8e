"""``compute()`` rows, checked and turned into questions for the scoring functions.

The rows are those of ``evaluate``'s ``squad`` metric: ``predictions=[{"id", "prediction_text"}]``,
``references=[{"id", "answers": {"text": [...], "answer_start": [...]}}]``, paired by ``id`` as
the SQuAD script pairs its two files (not by position). A row whose ``id`` is None is a
placeholder, so that a question without a prediction, or a prediction for no question, still has
a row on the other side. Every problem is a ``ValueError`` naming the row and the field.
"""

from __future__ import annotations

from collections.abc import Mapping

from .conventions import DEFAULT_CONVENTION, check_convention, score
from .plain_values import as_list, int_problem, plain, shown
from .scoring import LANGUAGES, Question, language_of

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any


def check_rows(rows: Any, side: str) -> None:
    if not isinstance(rows, (list, tuple)):
        raise ValueError(f"{side} must be a list of dicts, got a {type(rows).__name__}")


def check_lengths(n_predictions: int, n_references: int) -> None:
    if n_predictions != n_references:
        raise ValueError(
            f"predictions and references must have the same length (got {n_predictions} "
            f"predictions and {n_references} references): rows are paired by 'id', so give a "
            f"placeholder row {{'id': None}} on the side that has nothing"
        )


def _where(side: str, index: int, example_id: Any = None) -> str:
    return f"{side}[{index}]" + ("" if example_id is None else f" (id {shown(example_id)})")


def _text(value: Any) -> str | None:
    """A plain str (a numpy string scalar or 0-d array of one as its str), else None."""
    value = plain(value)
    return str(value) if isinstance(value, str) else None


def _row_id(row: Any, side: str, index: int) -> str | None:
    """The checked id of a row: a str with a known language prefix, or None (a placeholder)."""
    if not isinstance(row, Mapping):
        raise ValueError(f"{_where(side, index)}: expected a dict, got {shown(row)}")
    if "id" not in row:
        raise ValueError(f"{_where(side, index)}: missing field 'id'")
    raw = row["id"]
    if raw is None:
        return None
    example_id = _text(raw)
    if example_id is None:
        raise ValueError(
            f"{_where(side, index)}: field 'id' must be a string such as 'arabic-123-0' (or None "
            f"for a placeholder row), got {shown(raw)}"
        )
    if language_of(example_id) is None:
        raise ValueError(
            f"{_where(side, index, example_id)}: field 'id' must start with a TyDiQA-GoldP "
            f"language and '-' ({', '.join(LANGUAGES)}), as the official split of the predictions "
            f"requires"
        )
    return example_id


def _placeholder(row: Mapping, side: str, index: int, field: str) -> None:
    if row.get(field) is not None:
        raise ValueError(
            f"{_where(side, index)}: 'id' is null, which marks a placeholder row, but field "
            f"{shown(field)} has a value: give the row its id"
        )


def prediction_of(row: Any, index: int) -> tuple[str, str] | None:
    """``(id, predicted text)`` of a prediction row, or None for a placeholder."""
    example_id = _row_id(row, "predictions", index)
    if example_id is None:
        _placeholder(row, "predictions", index, "prediction_text")
        return None
    where = _where("predictions", index, example_id)
    if "prediction_text" not in row:
        raise ValueError(f"{where}: missing field 'prediction_text'")
    text = _text(row["prediction_text"])
    if text is None:
        raise ValueError(
            f"{where}: field 'prediction_text' must be a string, got {shown(row['prediction_text'])}"
        )
    return example_id, text


def _answer_texts(answers: Any, where: str) -> tuple[list[str], list[int] | None]:
    """Gold texts and starts from ``{"text": [...], "answer_start": [...]}`` (the Hub's and
    evaluate's form) or a list of ``{"text", "answer_start"}`` records (the SQuAD file's)."""
    if isinstance(answers, Mapping):
        texts = as_list(answers.get("text"))
        if texts is None:
            raise ValueError(
                f"{where}: field 'answers' must hold a list 'text', got {shown(answers.get('text'))}"
            )
        starts = answers.get("answer_start")
        starts = None if starts is None else as_list(starts)
        if "answer_start" in answers and answers["answer_start"] is not None and starts is None:
            raise ValueError(
                f"{where}: field 'answers.answer_start' must be a list of ints, got "
                f"{shown(answers['answer_start'])}"
            )
        texts, starts = list(texts), None if starts is None else list(starts)
    else:
        records = as_list(answers)
        if records is None or not all(isinstance(r, Mapping) for r in records):
            raise ValueError(
                f"{where}: field 'answers' must be {{'text': [...], 'answer_start': [...]}} or a "
                f"list of {{'text', 'answer_start'}} records, got {shown(answers)}"
            )
        for k, record in enumerate(records):
            if "text" not in record:
                raise ValueError(f"{where}: field 'answers'[{k}] has no 'text'")
        texts = [r["text"] for r in records]
        starts = [r.get("answer_start") for r in records]
        if all(s is None for s in starts):
            starts = None
    if not texts:
        # The SQuAD script takes the max over no gold answer and stops with an error.
        raise ValueError(f"{where}: field 'answers' has no gold answer text: give at least one")
    golds = []
    for k, value in enumerate(texts):
        text = _text(value)
        if text is None:
            raise ValueError(f"{where}: gold answer text {k} must be a string, got {shown(value)}")
        golds.append(text)
    if starts is not None:
        if len(starts) != len(golds):
            raise ValueError(
                f"{where}: field 'answers' has {len(golds)} texts but {len(starts)} "
                f"'answer_start' values: give one start per text, or none"
            )
        for k, start in enumerate(starts):
            problem = int_problem(start)
            if problem is not None:
                raise ValueError(f"{where}: 'answer_start' {k}: {problem}")
        starts = [int(plain(s)) for s in starts]
    return golds, starts


def reference_of(row: Any, index: int) -> tuple[str, list[str], list[int] | None] | None:
    """``(id, gold texts, answer starts or None)`` of a reference row, or None for a placeholder.
    Starts are checked (they are stored) but never scored, as in the SQuAD script."""
    example_id = _row_id(row, "references", index)
    if example_id is None:
        _placeholder(row, "references", index, "answers")
        return None
    where = _where("references", index, example_id)
    if "answers" not in row:
        raise ValueError(f"{where}: missing field 'answers'")
    golds, starts = _answer_texts(row["answers"], where)
    return example_id, golds, starts


def checked(predictions: Any, references: Any, start: int = 0) -> tuple[list, list]:
    """Both sides checked: ``(predictions, references)`` as lists of ``prediction_of`` and
    ``reference_of`` values (None for placeholders); rows numbered from ``start``."""
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    check_lengths(len(predictions), len(references))
    preds = [prediction_of(row, start + i) for i, row in enumerate(predictions)]
    refs = [reference_of(row, start + i) for i, row in enumerate(references)]
    return preds, refs


def questions_of(preds: list, refs: list) -> tuple[list[Question], list[str]]:
    """The questions in reference order, each with its prediction (the last row of its id, as
    when a JSON object repeats a key; None without one), and their ids. Predictions for no
    question are left out, as the SQuAD script ignores them."""
    predicted = dict(p for p in preds if p is not None)
    questions, ids = [], []
    for ref in refs:
        if ref is None:
            continue
        example_id, golds, _ = ref
        questions.append((language_of(example_id), golds, predicted.get(example_id)))
        ids.append(example_id)
    return questions, ids


# How the metric's features store a placeholder row: evaluate refuses a first row whose string
# field is None, and "" is never a valid id (it has no language).
_STORED_PLACEHOLDER = ""


def prediction_record(pred: tuple[str, str] | None) -> dict:
    """A checked prediction as the metric's features store it."""
    if pred is None:
        return {"id": _STORED_PLACEHOLDER, "prediction_text": ""}
    return {"id": pred[0], "prediction_text": pred[1]}


def reference_record(ref: tuple[str, list[str], list[int] | None] | None) -> dict:
    """A checked reference as the metric's features store it."""
    if ref is None:
        return {"id": _STORED_PLACEHOLDER, "answers": {"text": [], "answer_start": []}}
    return {"id": ref[0], "answers": {"text": ref[1], "answer_start": ref[2]}}


def stored_rows(predictions: Any, references: Any, start: int = 0) -> tuple[list, list]:
    """What ``add()``/``add_batch()`` store: the rows checked, as feature records (a lone
    surrogate, which Arrow cannot hold, is escaped and restored by ``checked_metric``)."""
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    if len(predictions) != len(references):  # an empty batch is fine (an idle process)
        check_lengths(len(predictions), len(references))
    preds = [prediction_of(row, start + i) for i, row in enumerate(predictions)]
    refs = [reference_of(row, start + i) for i, row in enumerate(references)]
    return [prediction_record(p) for p in preds], [reference_record(r) for r in refs]


def from_record(row: dict) -> dict:
    """A stored row back as ``compute()`` takes it."""
    return {"id": None} if row["id"] == _STORED_PLACEHOLDER else row


def check_details(details: Any) -> None:
    if not isinstance(details, bool):
        raise ValueError(f"details must be True or False, got {shown(details)}")


def score_rows(
    predictions: Any,
    references: Any,
    convention: str = DEFAULT_CONVENTION,
    details: bool = False,
) -> dict:
    """``compute()``: the rows checked, then the convention's numbers (and details)."""
    check_convention(convention)
    check_details(details)
    questions, ids = questions_of(*checked(predictions, references))
    return score_questions(questions, ids, convention, details)


def score_questions(
    questions: list[Question], ids: list[str], convention: str, details: bool
) -> dict:
    result = score(questions, convention, details)
    if details:
        for record, example_id in zip(result["details"], ids):
            record["id"] = example_id
    return result
