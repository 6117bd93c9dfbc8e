"""AVeriTeC rows as ``compute()`` takes them: checked field by field and stored in one shape.

A prediction: ``id`` (its claim's), ``label`` (the predicted verdict; ``pred_label`` in the
official 2024 files), ``evidence`` (a list of ``{"question", "answer"}``; 2024 and 2025),
``string_evidence`` (a list of strings), and for the 2023 edition ``questions`` (as the
gold's) and ``justification``; each None when absent. A reference: ``id``, ``label``,
``claim_types`` (a list of strings), ``questions``, each ``{"question", "answers": [{"answer",
"answer_type", "boolean_explanation"}]}`` (answer type and explanation None when absent), and
``justification`` (2023). Other fields are dropped: no official number reads them.

Every refusal is a ``ValueError`` naming the row (side, index, id), the field and what was
expected; among them what the official scorers crash on (no gold evidence at all, a Boolean
answer without its explanation).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .plain_values import as_int, plain, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CRASHES = " (the official scorer crashes on it)"
QA_SEPARATOR = "\t\t\n"


def where(side: str, index: int, row: Any) -> str:
    """A row's place in messages: ``references[3] (id '12')``."""
    row_id = row.get("id") if isinstance(row, Mapping) else None
    return f"{side}[{index}]" + (f" (id {shown(row_id)})" if row_id is not None else "")


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(f"{side} must be a list of AVeriTeC rows (dicts), got {shown(rows)}")


def _id(value: Any, at: str) -> str | None:
    value = plain(value)
    if value is None or isinstance(value, str):
        return value
    number = as_int(value)
    if number is None:
        raise ValueError(f"{at}: field 'id' must be a string or an int, got {shown(value)}")
    return str(number)


def _string(value: Any, at: str, field: str, optional: bool = False) -> str | None:
    value = plain(value)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{at}: field '{field}' must be a string, got {shown(value)}")
    return value


def _list(value: Any, at: str, field: str, optional: bool = False) -> list | None:
    value = plain(value)
    if value is None and optional:
        return None
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ValueError(f"{at}: field '{field}' must be a list, got {shown(value)}")
    return list(value)


def _dict(value: Any, at: str, field: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise ValueError(f"{at}: field '{field}' must be a dict, got {shown(value)}")
    return value


def prediction(row: Any, at: str) -> dict:
    row = _dict(row, at, "row")
    evidence = _list(row.get("evidence"), at, "evidence", optional=True)
    if evidence is not None:
        pairs = []
        for k, pair in enumerate(evidence):
            field = f"evidence[{k}]"
            pair = _dict(pair, at, field)
            pairs.append(
                {
                    "question": _string(pair.get("question"), at, field + ".question"),
                    "answer": _string(pair.get("answer"), at, field + ".answer"),
                }
            )
        evidence = pairs
    strings = _list(row.get("string_evidence"), at, "string_evidence", optional=True)
    if strings is not None:
        strings = [_string(s, at, f"string_evidence[{k}]") for k, s in enumerate(strings)]
    return {
        "id": _id(row.get("id"), at),
        "label": _string(row.get("label"), at, "label"),
        "evidence": evidence,
        "string_evidence": strings,
        "questions": _questions(row.get("questions"), at, "questions", optional=True),
        "justification": _string(row.get("justification"), at, "justification", True),
    }


def _questions(value: Any, at: str, field: str, optional: bool = False) -> list | None:
    """AVeriTeC's questions: ``[{"question", "answers": [{"answer", "answer_type",
    "boolean_explanation"}]}]``. ``answers`` may be one answer (a dict), which the official
    scorers take as a list of one."""
    value = _list(value, at, field, optional)
    if value is None:
        return None
    questions = []
    for k, question in enumerate(value):
        qfield = f"{field}[{k}]"
        question = _dict(question, at, qfield)
        answers = plain(question.get("answers"))
        if isinstance(answers, Mapping):
            answers = [answers]
        kept = []
        for m, answer in enumerate(_list(answers, at, qfield + ".answers")):
            afield = f"{qfield}.answers[{m}]"
            answer = _dict(answer, at, afield)
            kind = _string(answer.get("answer_type"), at, afield + ".answer_type", True)
            explanation = _string(
                answer.get("boolean_explanation"), at, afield + ".boolean_explanation", True
            )
            if kind == "Boolean" and explanation is None:
                raise ValueError(
                    f"{at}: field '{afield}.boolean_explanation' is missing: a Boolean answer "
                    f"needs its explanation{CRASHES}"
                )
            kept.append(
                {
                    "answer": _string(answer.get("answer"), at, afield + ".answer"),
                    "answer_type": kind,
                    "boolean_explanation": explanation,
                }
            )
        questions.append(
            {
                "question": _string(question.get("question"), at, qfield + ".question"),
                "answers": kept,
            }
        )
    return questions


def reference(row: Any, at: str) -> dict:
    row = _dict(row, at, "row")
    types = _list(row.get("claim_types"), at, "claim_types", optional=True)
    if types is not None:
        types = [_string(t, at, f"claim_types[{k}]") for k, t in enumerate(types)]
    return {
        "id": _id(row.get("id"), at),
        "label": _string(row.get("label"), at, "label"),
        "claim_types": types,
        "questions": _questions(row.get("questions"), at, "questions"),
        "justification": _string(row.get("justification"), at, "justification", True),
    }


def checked(rows: Any, side: str, start: int = 0) -> list[dict]:
    """``rows`` in the stored shape, each checked (``start``: the index of the first, for
    messages)."""
    check_rows(rows, side)
    check = prediction if side == "predictions" else reference
    return [check(row, where(side, start + k, row)) for k, row in enumerate(rows)]


def check_lengths(n_predictions: int, n_references: int) -> None:
    if n_predictions != n_references:
        raise ValueError(
            f"predictions and references must have the same length (one prediction per claim), "
            f"got {n_predictions} predictions and {n_references} references"
        )


def check_ids(predictions: list[dict], references: list[dict], start: int = 0) -> None:
    """A prediction for another claim than its reference's (when both have an id): rows are
    paired by position."""
    for k, (pred, ref) in enumerate(zip(predictions, references)):
        if pred["id"] is not None and ref["id"] is not None and pred["id"] != ref["id"]:
            raise ValueError(
                f"{where('predictions', start + k, pred)}: field 'id' is not "
                f"{where('references', start + k, ref)}'s: predictions and references are "
                f"paired by position"
            )


def check_scorable(predictions: list[dict], references: list[dict], edition: str) -> None:
    """What an edition cannot score: a claim with no gold question (the scores divide by the
    number of gold strings), in 2023 a claim without its gold justification, and in 2025 what
    its CSV cannot hold: a prediction without an evidence list, string evidence, or a pair
    holding the question-answer separator. (An empty list is an ``evi`` of separators only,
    which scores 0; an empty ``evi`` itself, which pandas reads as NaN, is refused by the CSV
    reader.)"""
    from .scoring import gold_pairs

    for k, (pred, ref) in enumerate(zip(predictions, references)):
        at = where("references", k, ref)
        if not ref["questions"]:
            raise ValueError(
                f"{at}: field 'questions' is empty: the scores divide by the number of gold "
                f"questions{CRASHES}"
            )
        if edition == "2023" and ref["justification"] is None:
            raise ValueError(
                f"{at}: field 'justification' is missing: the 2023 edition scores the predicted "
                f"justification against it{CRASHES}"
            )
        if edition != "2025":
            continue
        pat = where("predictions", k, pred)
        if pred["evidence"] is None:
            raise ValueError(
                f"{pat}: field 'evidence' is missing: the 2025 edition reads the question-answer "
                f"pairs (its CSV's evi){CRASHES}"
            )
        if pred["string_evidence"] is not None:
            raise ValueError(
                f"{pat}: field 'string_evidence' is set: the 2025 edition reads question-answer "
                f"pairs only (its CSV has no place for string evidence)"
            )
        for side_at, pairs in ((pat, _pairs(pred)), (at, gold_pairs(ref))):
            for n, (question, answer) in enumerate(pairs):
                if QA_SEPARATOR in question or QA_SEPARATOR in answer:
                    raise ValueError(
                        f"{side_at}: evidence pair {n} holds a tab, tab, newline, which parts "
                        f"a question from its answer in the 2025 CSV{CRASHES}"
                    )


def _pairs(prediction: dict) -> list[tuple[str, str]]:
    return [(p["question"], p["answer"]) for p in prediction["evidence"]]
