"""FEVER-8's Ev2R numbers replayed from recorded judge answers, as the official
``EV2REvaluator`` methods compute them (``data/ev2r_recording.json``: the values below are what
``calculate_*_openai_response``, ``extract_recall_score`` and ``extract_ev2r_score`` of
``averitec_evaluate.py`` at 547e9f7 gave on it, run outside this repository)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics.averitec import ev2r

CASE, ORDER = json.loads((Path(__file__).parent / "data" / "ev2r_recording.json").read_text())
OFFICIAL = {
    "ev2r_q_recall": 0.1111111111111111,
    "ev2r_qa_recall": 0.36507936507936506,
    "ev2r@0.5": 0.3333333333333333,
}
# Claim 0: a recall of exactly 0.5 (not above). Claim 1: the first of its two answers. Claim 2:
# after ids 0 and 1 comes 3, a larger id: the search stops there and its answer is lost.
# Claim 3: found. Claim 4: id 4.0, recall 2/3, the label wrong. Nulls are skipped.
ORDER_OFFICIAL = {"ev2r_q_recall": 0.25, "ev2r_qa_recall": 0.5533333333333333, "ev2r@0.5": 0.4}


def test_the_official_numbers() -> None:
    right = [predicted == gold for predicted, gold in CASE["labels"]]
    # A failed precision loses the answer; text that is not JSON is no answer; the answer for
    # claim 1 comes after one with a larger id, where the scorer stops looking.
    assert ev2r.scores(CASE["recording"], right) == OFFICIAL
    right = [predicted == gold for predicted, gold in ORDER["labels"]]
    assert ev2r.scores(ORDER["recording"], right) == ORDER_OFFICIAL
    assert ev2r.recall("not json", "question") is None
    assert ev2r.recall({"support predicted evidence": 1}, "qa_pair") is None


def test_compute_with_a_recording(tmp_path: Path) -> None:
    gold, guess = [], []
    for k, (predicted, label) in enumerate(CASE["labels"]):
        answers = [{"answer": "A", "answer_type": None, "boolean_explanation": None}]
        gold.append(
            {"id": str(k), "label": label, "questions": [{"question": "Q?", "answers": answers}]}
        )
        guess.append(
            {"id": str(k), "label": predicted, "evidence": [{"question": "Q?", "answer": "A"}]}
        )
    result = taskeval.load("averitec").compute(
        predictions=guess, references=gold, edition="2025", ev2r=CASE["recording"]
    )
    assert {k: result[k] for k in OFFICIAL} == OFFICIAL
    with pytest.raises(ValueError, match="read by the 2025 edition only"):
        taskeval.load("averitec").compute(
            predictions=guess, references=gold, ev2r=CASE["recording"]
        )
    with pytest.raises(ValueError, match=r"field 'qa_pair\[0\]\.id' must be the claim's id"):
        ev2r.check_recording({"qa_pair": [{"id": "0", "response": {}}]})
    with pytest.raises(ValueError, match=r"field 'qa_pair\[1\]\.id' must be the claim's id"):
        ev2r.check_recording({"qa_pair": [None, {"id": True, "response": {}}]})
    with pytest.raises(ValueError, match=r"field 'question\[0\]' must be an answer"):
        ev2r.check_recording({"question": [{"id": 0}]})
    with pytest.raises(ValueError, match=r"field 'question' must be a list of answers"):
        ev2r.check_recording({"question": {"id": 0, "response": {}}})
    with pytest.raises(ValueError, match="must be the recorded judge answers"):
        ev2r.check_recording([])
    ev2r.check_recording({"question": [None, {"response": "x"}]})  # no id needed for questions
