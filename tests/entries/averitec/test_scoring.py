"""The official rules, one by one, with the values the official scorers gave (run outside this
repository; the Space's example under both nltk releases, and small cases built to isolate a
rule)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from taskeval._metrics.averitec import inputs, scoring

EXAMPLES = Path(__file__).resolve().parents[3] / "spaces" / "averitec" / "examples"

# evaluate_veracity.py on the Space's example (the numbers its README gives).
EXAMPLE_2024 = {
    "3.9.1": {
        "q_only": 0.5140878045868992,
        "q_and_a": 0.42110852208247246,
        "accuracy": 0.8333333333333334,
        "macro_f1": 0.7,
        "averitec@0.3": 0.5,
        "averitec@0.4": 0.3333333333333333,
        "by_type@0.25[Event/Property Claim]": 0.273219031445184,
        "by_type@0.25[Position Statement]": 0.7797766721945827,
    },
    "3.10.4": {
        "q_only": 0.5131980968519534,
        "q_and_a": 0.4318711401599222,
        "accuracy": 0.8333333333333334,
        "macro_f1": 0.7,
        "averitec@0.3": 0.6666666666666666,
        "averitec@0.4": 0.5,
        "by_type@0.25[Event/Property Claim]": 0.28905989668594706,
        "by_type@0.25[Position Statement]": 0.7797766721945827,
    },
}


@pytest.mark.parametrize("release", scoring.RELEASES)
def test_the_example_as_the_official_2024_scorer_scores_it(release: str) -> None:
    got = inputs.score_files(
        EXAMPLES / "dev.json", EXAMPLES / "predictions.json", edition="2024", nltk=release
    )
    assert {k: got[k] for k in EXAMPLE_2024[release]} == EXAMPLE_2024[release]


def _gold(*questions: tuple) -> dict:
    return {
        "id": "0",
        "label": "Supported",
        "claim_types": None,
        "justification": None,
        "questions": [
            {
                "question": q,
                "answers": [
                    {"answer": a, "answer_type": t, "boolean_explanation": e} for a, t, e in answers
                ],
            }
            for q, answers in questions
        ],
    }


def _prediction(pairs=(), strings=None, questions=None, justification=None) -> dict:
    return {
        "id": "0",
        "label": "Supported",
        "evidence": None if pairs is None else [{"question": q, "answer": a} for q, a in pairs],
        "string_evidence": strings,
        "questions": questions,
        "justification": justification,
    }


def test_the_gold_strings() -> None:
    gold = _gold(
        ("Q1?", [("Yes", "Boolean", "Because."), ("A", "Extractive", None)]),
        ("Q2?", []),
        ("Q1?", [("B", None, None)]),
    )
    assert scoring.gold_strings(gold) == [
        "Q1? Yes. Because.",
        "Q1? A",
        "Q2? No answer could be found.",
        "Q1? B",
    ]
    # 2024 and 2023: one question per question; 2025: each question text once.
    assert scoring.gold_questions(gold, "2024") == ["Q1?", "Q2?", "Q1?"]
    assert scoring.gold_questions(gold, "2023") == ["Q1?", "Q2?", "Q1?"]
    assert scoring.gold_questions(gold, "2025") == ["Q1?", "Q2?"]


def test_the_predicted_strings() -> None:
    pairs = [(f"q{k}", f"a{k}") for k in range(12)]
    row = _prediction(pairs, strings=["s1"])
    # The first ten; string evidence after the pairs (2024), none in 2025.
    assert scoring.predicted_strings(row, "2024") == [f"q{k} a{k}" for k in range(10)]
    assert scoring.predicted_strings(_prediction(pairs[:2], ["s1"]), "2024") == [
        "q0 a0",
        "q1 a1",
        "s1",
    ]
    assert scoring.predicted_strings(_prediction(pairs[:2], ["s1"]), "2025") == ["q0 a0", "q1 a1"]
    # Questions: those of the pairs; the string evidence only without pairs (an empty list of
    # pairs is pairs: no question).
    assert scoring.predicted_questions(_prediction(None, ["s1"]), "2024") == ["s1"]
    assert scoring.predicted_questions(_prediction([], ["s1"]), "2024") == []
    # 2023 reads the gold-shaped questions, not the pairs.
    questions = _gold(("Q?", [("Yes", "Boolean", "So.")]))["questions"]
    row = _prediction(pairs[:1], questions=questions)
    assert scoring.predicted_strings(row, "2023") == ["Q? Yes. So."]
    assert scoring.predicted_questions(row, "2023") == ["Q?"]
    assert scoring.predicted_justification(row) == "Q? Yes. So."
    assert scoring.predicted_justification({**row, "justification": "J."}) == "J."


def test_the_assignment_sums_in_numpys_order_and_divides_by_the_gold() -> None:
    table = {
        (f"p{i}", f"g{j}"): 1 / (1 + i + 2 * j) + (i == j) * 0.3
        for i in range(10)
        for j in range(10)
    }
    predicted, gold = [f"p{i}" for i in range(10)], [f"g{j}" for j in range(12)]

    def metric(p: str, g: str) -> float:
        return table.get((p, g), 0.01)

    matrix = np.array([[metric(p, g) for g in gold] for p in predicted])
    from scipy.optimize import linear_sum_assignment

    rows, columns = linear_sum_assignment(matrix, maximize=True)
    expected = matrix[rows, columns].sum() * (1 / float(len(gold)))
    assert scoring.hungarian_score(predicted, gold, metric) == expected
    assert scoring.hungarian_score([], gold, metric) == 0.0


def test_f1_as_scikit_learn_gives_it() -> None:
    # sklearn.metrics.f1_score(gold, predicted, labels=VERDICTS, average=None / "macro"),
    # scikit-learn 1.5.2.
    gold = ["Supported", "Refuted", "Refuted", "Not Enough Evidence", "Supported"]
    predicted = ["Supported", "Refuted", "Supported", "True", "Supported"]
    f1 = scoring.f1_scores(gold, predicted)
    assert f1 == {
        "Supported": 0.8,
        "Refuted": 0.6666666666666666,
        "Not Enough Evidence": 0.0,
        "Conflicting Evidence/Cherrypicking": 0.0,
        "macro": 0.3666666666666667,
    }


def test_a_type_listed_twice_counts_twice() -> None:
    values = [{"q_and_a": 0.5}, {"q_and_a": 0.2}, {"q_and_a": 0.3}]
    references = [
        {"claim_types": ["A", "A"]},
        {"claim_types": ["B", "A"]},
        {"claim_types": None},
    ]
    assert scoring.by_type(values, references, 0.25) == {"A": [0.5, 0.5, 0.0], "B": [0.0]}


def test_the_thresholds_are_strict() -> None:
    values = [{"q_only": 0.1, "q_and_a": 0.25, "label_correct": True, "label": "Supported"}]
    references = [{"label": "Supported", "claim_types": None}]
    scores = scoring.dataset_scores(values, references, "2025")
    assert scores["averitec@0.25"] == 0.0


def test_the_options_are_checked() -> None:
    with pytest.raises(ValueError, match="edition must be one of 2024, 2025, 2023"):
        scoring.check_options("2022", "3.9.1")
    with pytest.raises(ValueError, match="nltk must be one of"):
        scoring.check_options("2024", "3.10")
