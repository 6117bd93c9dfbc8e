"""FEVER-8's Ev2R scores, replayed from recorded judge answers: never by calling a model.

FEVER-8's leaderboard ranks by the "new AVeriTeC score": a language model (through an API) is
asked, per claim, how many facts of the predicted and of the gold evidence the other side
supports, and ``averitec_evaluate.py`` turns its answers into recalls. The answers cannot be
recomputed offline; given as recorded, the numbers are recomputed exactly:

* an answer is a JSON object (or its text) with the counts ``"support predicted questions"``,
  ``"facts count predicted questions"``, ``"support reference questions"`` and ``"facts count
  reference questions"`` (for questions; ``evidence`` for question-answer pairs); its
  precision is computed first, then its recall, reference support / reference facts count. An
  answer on which either division fails (not an object, a count missing or 0) is no answer
  (the scorer prints the exception and goes on);
* ``Q only (Ev2R recall)``: the mean of the question answers' recalls, 0.0 for no answer, over
  the answers recorded (not over the claims: a request that failed every retry records nothing);
* ``Q + A (Ev2R recall)`` and the new AVeriTeC score: claim by claim in the gold's order, the
  pair answer whose ``id`` is the claim's position (the scorer compares the CSV id with the
  position; it stops looking at a larger id), its recall, and 1.0 when that recall is above 0.5
  and the label is right; 0.0 and a recall of 0.0 for a claim without one;
* means as numpy takes them (``float_sums``).

The recording: ``{"question": [answer, ...], "qa_pair": [answer, ...]}`` in the order the
scorer received them, each answer ``{"id": the claim's CSV id, "response": the model's text or
object}`` (``null`` where the model's text could not be read).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from .float_sums import numpy_mean
from .plain_values import shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LEVEL = 0.5
KEYS = ("ev2r_q_recall", "ev2r_qa_recall", f"ev2r@{LEVEL}")
_COUNTS = {  # (precision's, recall's): support and count
    "question": (
        ("support predicted questions", "facts count predicted questions"),
        ("support reference questions", "facts count reference questions"),
    ),
    "qa_pair": (
        ("support predicted evidence", "facts count predicted evidence"),
        ("support reference evidence", "facts count reference evidence"),
    ),
}


def recall(response: Any, kind: str) -> float | None:
    """One answer's recall, or None where the scorer fails on it: a text that is not JSON, or
    counts it cannot divide (precision first, then recall: a failed precision loses the
    recall too)."""
    if type(response) is str:
        try:
            response = json.loads(response)
        except ValueError:
            return None
    (p_support, p_count), (r_support, r_count) = _COUNTS[kind]
    try:
        response[p_support] / response[p_count]
        return response[r_support] / response[r_count]
    except Exception:  # the scorer catches every exception here, and gives no answer
        return None


def _answers(recording: Any, kind: str) -> list:
    if not isinstance(recording, Mapping):
        raise ValueError(
            f"ev2r must be the recorded judge answers (a dict), got {shown(recording)}"
        )
    answers = recording.get(kind, [])
    if isinstance(answers, (str, bytes, Mapping)) or not isinstance(answers, Sequence):
        raise ValueError(f"ev2r: field '{kind}' must be a list of answers, got {shown(answers)}")
    for k, answer in enumerate(answers):
        if answer is not None and not (isinstance(answer, Mapping) and "response" in answer):
            raise ValueError(
                f"ev2r: field '{kind}[{k}]' must be an answer {{'id', 'response'}} or null, got "
                f"{shown(answer)}"
            )
        if answer is not None and kind == "qa_pair" and _number(answer.get("id")) is None:
            raise ValueError(
                f"ev2r: field '{kind}[{k}].id' must be the claim's id, a number (the scorer "
                f"compares it with the claim's position), got {shown(answer.get('id'))}"
            )
    return list(answers)


def check_recording(recording: Any) -> None:
    for kind in _COUNTS:
        _answers(recording, kind)


def scores(recording: Any, labels_right: Sequence[bool]) -> dict[str, float]:
    """The three Ev2R numbers of a recording, for the claims whose labels are right or not
    (in the gold's order)."""
    q_recalls = []
    for answer in _answers(recording, "question"):
        found = None if answer is None else recall(answer["response"], "question")
        q_recalls.append(0.0 if found is None else found)
    pairs = []
    for answer in _answers(recording, "qa_pair"):
        found = None if answer is None else recall(answer["response"], "qa_pair")
        pairs.append(None if found is None else (answer.get("id"), found))
    counted, recalls = [], []
    for position, right in enumerate(labels_right):
        this = None
        for pair in pairs:
            if pair is None:
                continue
            if _same_id(pair[0], position):
                this = pair[1]
                break
            if _larger_id(pair[0], position):
                break
        counted.append(1.0 if this is not None and this > LEVEL and right else 0.0)
        recalls.append(0.0 if this is None else this)
    return {
        "ev2r_q_recall": numpy_mean(q_recalls) if q_recalls else float("nan"),
        "ev2r_qa_recall": numpy_mean(recalls),
        f"ev2r@{LEVEL}": numpy_mean(counted),
    }


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _same_id(value: Any, position: int) -> bool:
    number = _number(value)
    return number is not None and number == position


def _larger_id(value: Any, position: int) -> bool:
    number = _number(value)
    return number is not None and number > position
