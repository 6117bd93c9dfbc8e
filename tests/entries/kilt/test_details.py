"""``compute(details=True)``: one flat record per gold record, whose values are the row's share
of the official numbers (their means, summed in gold order, are the official numbers of the
Space's example, made by the official scorers: see its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

import taskeval

EXAMPLES = Path(__file__).resolve().parents[3] / "spaces" / "kilt" / "examples"
OFFICIAL = {
    "downstream": {
        "KILT-accuracy": 0.25, "KILT-em": 0.375, "KILT-f1": 0.47794117647058826,
        "KILT-rougel": 0.303030301155877, "accuracy": 0.375, "em": 0.625,
        "f1": 0.7279411764705883, "rougel": 0.428030300530877, "Rprec": 0.8125, "recall@5": 1.0,
    },
    "retrieval": {
        "Rprec": 0.8125, "precision@1": 0.75, "answer_in_context@1": 0.375,
        "precision@5": 0.22499999999999998, "answer_in_context@5": 0.5, "recall@5": 1.0,
        "success_rate@5": 1.0,
    },
}  # fmt: skip


def _scored(**options):
    rows = taskeval.read_official(
        "kilt", references=EXAMPLES / "gold.jsonl", predictions=EXAMPLES / "guess.jsonl"
    )
    return taskeval.load("kilt").compute(**rows, details=True, **options)


@pytest.mark.parametrize("evaluation", ["downstream", "retrieval"])
def test_the_details_add_up_to_the_official_numbers(evaluation: str) -> None:
    options = {"evaluation": evaluation} if evaluation == "downstream" else {
        "evaluation": evaluation, "ks": [1, 5]}  # fmt: skip
    result = _scored(**options)
    details = result.pop("details")
    assert result == OFFICIAL[evaluation]
    assert [d["id"] for d in details][:2] == ["nq-1", "fever-2"]
    for name, value in OFFICIAL[evaluation].items():
        if name.startswith("KILT-"):
            column = [d[name[5:]] if d["kilt_credit"] else 0.0 for d in details]
        else:
            column = [d[name] for d in details]
        total = 0.0  # left to right, as the official loop adds (sum() compensates on 3.12+)
        for cell in column:
            total += cell
        assert total / len(details) == value, name
    assert (evaluation == "downstream") == ("answer" in details[0])


def test_a_blank_answer_and_a_right_answer_on_half_its_pages() -> None:
    details = {d["id"]: d for d in _scored()["details"]}
    assert details["triviaqa-5"] == {
        "id": "triviaqa-5", "answer": "", "gold_answers": "Mars", "accuracy": 0.0, "em": 0.0,
        "f1": 0.0, "rougel": 0.0, "kilt_credit": False, "Rprec": 1.0, "recall@5": 1.0,
    }  # fmt: skip
    assert details["hotpotqa-6"] == {
        "id": "hotpotqa-6", "answer": "blur", "gold_answers": "Blur", "accuracy": 0.0,
        "em": 1.0, "f1": 1.0, "rougel": 0.0, "kilt_credit": False, "Rprec": 0.5,
        "recall@5": 1.0,
    }  # fmt: skip
    retrieval = _scored(evaluation="retrieval", ks=[1, 2], commit="2664322")["details"][5]
    assert retrieval == {
        "id": "hotpotqa-6", "Rprec": 0.5, "entity_in_input": 0.0, "precision@1": 0.0,
        "answer_in_context@1": 0.0, "answer_and_ent_in_context@1": 0.0,
        "entity_in_context@1": 0.0, "precision@2": 0.5, "answer_in_context@2": 0.0,
        "answer_and_ent_in_context@2": 0.0, "entity_in_context@2": 0.0, "recall@2": 1.0,
        "success_rate@2": 1.0,
    }  # fmt: skip
