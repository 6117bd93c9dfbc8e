"""KILT's official rules, one by one, with the numbers the official scorer (64e284a) gives.

ROUGE-L itself is tested in ``test_rouge_l.py``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from taskeval._metrics.kilt import answers, ranking, scoring

from .cases import EVIDENCE_SETS, IDS_AND_CREDIT, JOINED_KEYS, out

DATA = Path(__file__).resolve().parent / "fixtures"


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines()]


def same(actual: Any, expected: Any) -> bool:
    """``==`` with the types of numbers too, at every level."""
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and list(actual) == list(expected)
            and all(same(actual[k], expected[k]) for k in expected)
        )
    return type(actual) is type(expected) and actual == expected


# ---------------------------------------------------------------------------------------------
# KILT's own tests: their fixtures, their asserted floats, and every other value returned


def test_official_downstream_test_floats() -> None:
    result = scoring.downstream_scores(load("gold1.jsonl"), load("guess1_1.jsonl"))
    assert result["kilt"]["KILT-em"] == 1 / 3
    assert result["kilt"]["KILT-f1"] == 1 / 3
    assert result["kilt"]["KILT-rougel"] == 0.3333333316666667
    assert result["downstream"]["em"] == 2 / 3
    assert result["downstream"]["f1"] == 0.8333333333333334
    assert result["downstream"]["rougel"] == 0.7222222178240741
    assert result["retrieval"]["Rprec"] == 1 / 3
    assert result["retrieval"]["recall@5"] == 1 / 3
    assert result["kilt"]["KILT-accuracy"] == result["downstream"]["accuracy"] == 1 / 3

    result = scoring.downstream_scores(load("gold1.jsonl"), load("gold1.jsonl"))
    assert same(
        result,
        {
            "kilt": {
                "KILT-accuracy": 1.0,
                "KILT-em": 1.0,
                "KILT-f1": 1.0,
                "KILT-rougel": 0.999999995,
            },
            "downstream": {"accuracy": 1.0, "em": 1.0, "f1": 1.0, "rougel": 0.999999995},
            "retrieval": {"Rprec": 1.0, "recall@5": 1.0},
        },
    )

    result = scoring.downstream_scores(load("gold3.jsonl"), load("guess3_1.jsonl"))
    assert same(
        result,
        {
            "kilt": {
                "KILT-accuracy": 0.0,
                "KILT-em": 0.0,
                "KILT-f1": 0.25510204081632654,
                "KILT-rougel": 0.22352940932318338,
            },
            "downstream": {
                "accuracy": 0.0,
                "em": 0.0,
                "f1": 0.5102040816326531,
                "rougel": 0.44705881864636676,
            },
            "retrieval": {"Rprec": 0.5, "recall@5": 0.5},
        },
    )


RANK_KEYS = (
    ["wikipedia_id"],
    ["wikipedia_id", "section"],
    ["wikipedia_id", "start_paragraph_id", "end_paragraph_id"],
)


@pytest.mark.parametrize("rank_keys", RANK_KEYS)
@pytest.mark.parametrize(
    ("guess", "expected"),
    [
        ("guess2_1.jsonl", (0.5, 1.0, 0.4, 2 / 3, 1.0)),
        ("guess2_2.jsonl", (1.0, 1.0, 0.2, 1 / 3, 1.0)),
    ],
)
def test_official_retrieval_test_floats(guess: str, expected: tuple, rank_keys: list) -> None:
    result = scoring.retrieval_scores(load("gold2.jsonl"), load(guess), [1, 5], rank_keys)
    rprec, p1, p5, r5, s5 = expected
    assert same(
        result,
        {
            "Rprec": rprec,
            "precision@1": p1,
            "answer_in_context@1": 0.0,
            "precision@5": p5,
            "answer_in_context@5": 0.0,
            "recall@5": r5,
            "success_rate@5": s5,
        },
    )


def test_default_ks_are_1_5_10_20_and_recall_at_1_is_not_reported() -> None:
    result = scoring.retrieval_scores(load("gold2.jsonl"), load("guess2_2.jsonl"))
    assert same(
        result,
        {
            "Rprec": 1.0,
            "precision@1": 1.0,
            "answer_in_context@1": 0.0,
            "precision@5": 0.2,
            "answer_in_context@5": 0.0,
            "recall@5": 1 / 3,
            "success_rate@5": 1.0,
            "precision@10": 0.1,
            "answer_in_context@10": 0.0,
            "recall@10": 1 / 3,
            "success_rate@10": 1.0,
            "precision@20": 0.05,
            "answer_in_context@20": 0.0,
            "recall@20": 1 / 3,
            "success_rate@20": 1.0,
        },
    )


# ---------------------------------------------------------------------------------------------
# Hand-made sets (expected values from the official scorer)


def test_ids_blank_answer_and_kilt_credit() -> None:
    gold, guess = IDS_AND_CREDIT
    # Row 1: a blank answer, 0 but counted. Row q2: EM after normalisation, R-precision 1 (KILT
    # credit). Row 3: EM, R-precision 0.5: no credit. Row 4: "..." vs "x. y" (rouge refuses).
    assert same(
        scoring.downstream_scores(gold, guess),
        {
            "kilt": {"KILT-accuracy": 0.0, "KILT-em": 0.25, "KILT-f1": 0.25, "KILT-rougel": 0.0},
            "downstream": {"accuracy": 0.0, "em": 0.5, "f1": 0.5, "rougel": 0.16666666555555557},
            "retrieval": {"Rprec": 0.875, "recall@5": 0.75},
        },
    )
    assert same(
        scoring.retrieval_scores(gold, guess, [5, 1, 2]),
        {
            "Rprec": 0.875,
            "precision@1": 0.75,
            "answer_in_context@1": 0.0,
            "precision@2": 0.375,
            "answer_in_context@2": 0.0,
            "recall@2": 0.625,
            "success_rate@2": 0.75,
            "precision@5": 0.2,
            "answer_in_context@5": 0.0,
            "recall@5": 0.75,
            "success_rate@5": 0.75,
        },
    )


def test_evidence_sets_ranked_as_units() -> None:
    gold, guess = EVIDENCE_SETS
    assert same(
        scoring.downstream_scores(gold, guess),
        {
            "kilt": {
                "KILT-accuracy": 1 / 3,
                "KILT-em": 1 / 3,
                "KILT-f1": 1 / 3,
                "KILT-rougel": 0.3333333316666667,
            },
            "downstream": {
                "accuracy": 2 / 3,
                "em": 2 / 3,
                "f1": 2 / 3,
                "rougel": 0.6666666633333334,
            },
            "retrieval": {"Rprec": 0.5, "recall@5": 0.5555555555555555},
        },
    )
    result = scoring.retrieval_scores(gold, guess, [5, 1, 2])
    assert same(
        result,
        {
            "Rprec": 0.5,
            "precision@1": 1 / 3,
            "answer_in_context@1": 1 / 3,
            "precision@2": 1 / 3,
            "answer_in_context@2": 2 / 3,
            "recall@2": 0.4444444444444444,
            "success_rate@2": 2 / 3,
            "precision@5": 0.20000000000000004,  # 0.0 + 0.2 + 0.4 + 0.0, then / 3
            "answer_in_context@5": 2 / 3,
            "recall@5": 0.5555555555555555,
            "success_rate@5": 2 / 3,
        },
    )
    # Without "section" in the provenance the official scorer silently drops those pages from
    # R-precision (0.0 here) and ranks them by their other keys: refused instead.
    with pytest.raises(
        ValueError, match=r"references\[0\] \(id 'e1'\): missing field 'output\[0\]"
    ):
        scoring.retrieval_scores(gold, guess, [1, 3], ["wikipedia_id", "section"])


def test_joined_rank_keys_collide() -> None:
    gold, guess = JOINED_KEYS
    result = scoring.retrieval_scores(gold, guess, [1, 3], ["wikipedia_id", "section"])
    assert same(
        result,
        {
            "Rprec": 1.0,
            "precision@1": 1.0,
            "answer_in_context@1": 0.0,
            "precision@3": 1 / 3,
            "answer_in_context@3": 0.0,
            "recall@3": 1.0,
            "success_rate@3": 1.0,
        },
    )
    # "a" normalises to nothing: EM 1 (equal empty texts), F1 the int 0 (no token), summed to 0.0.
    assert same(
        scoring.downstream_scores(gold, guess),
        {
            "kilt": {"KILT-accuracy": 0.0, "KILT-em": 0.0, "KILT-f1": 0.0, "KILT-rougel": 0.0},
            "downstream": {"accuracy": 1.0, "em": 1.0, "f1": 0.0, "rougel": 0.999999995},
            "retrieval": {"Rprec": 0.0, "recall@5": 0.0},
        },
    )


def test_no_records() -> None:
    # The official scorer reports 0 for every number of an empty file: refused, as documented.
    for call in (scoring.downstream_scores, scoring.retrieval_scores):
        with pytest.raises(ValueError, match="references is empty"):
            call([], [])


def test_a_null_gold_answer_is_no_answer() -> None:
    # get_gold_answers skips a falsy answer: null, as an absent one, leaves "dog" the only gold.
    gold, guess = _valid()
    expected = scoring.downstream_scores(gold, guess)
    gold[2]["output"].append({"answer": None})
    assert same(scoring.downstream_scores(gold, guess), expected)


def test_inputs_are_not_changed() -> None:
    for gold, guess in (IDS_AND_CREDIT, EVIDENCE_SETS, JOINED_KEYS):
        before = copy.deepcopy((gold, guess))
        scoring.downstream_scores(gold, guess)
        scoring.retrieval_scores(gold, guess)
        assert (gold, guess) == before


# ---------------------------------------------------------------------------------------------
# The rules one by one


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("The  Cat!", "cat"),
        ("an apple, a pear", "apple pear"),
        ("theatre Anne", "theatre anne"),  # articles only as whole words
        ("a.b", "ab"),  # punctuation goes first: "a.b" is one word "ab"
        ("U.S. the-end", "us theend"),
        ("Ünïcode  \u00a0 text\n", "ünïcode text"),  # any Unicode whitespace splits
        ("«quoted»", "«quoted»"),  # only ASCII punctuation goes
        ("the", ""),
        ("?!", ""),
    ],
)
def test_normalize_answer(text: str, normal: str) -> None:
    assert answers.normalize_answer(text) == normal


def test_gold_answers_strip_and_drop_blanks() -> None:
    gold = {"output": [out(" Paris "), out("Paris"), out("   "), out(""), out(None, ["1"])]}
    assert answers.gold_answers(gold) == {"Paris"}


def test_accuracy_is_strict_and_em_normalised() -> None:
    assert answers.accuracy("Paris", {"Paris"}) == 1
    assert answers.accuracy("paris", {"Paris"}) == 0
    assert answers.exact_match("the Paris!", "paris") is True
    assert answers.exact_match("the", "a") is True  # both normalise to ""


def test_token_f1() -> None:
    assert same(answers.token_f1("a b c", "x y"), 0)
    assert same(answers.token_f1("the", "the"), 0)  # no token left
    assert same(answers.token_f1("b b c", "b c d e"), 0.5714285714285715)
    assert same(answers.token_f1("Paris!", "the paris"), 1.0)


def test_best_over_golds_keeps_the_first_highest() -> None:
    assert answers.best_over_golds(lambda p, g: len(g) // 2, "x", ["ab", "cd", "e"]) == 1
    assert answers.best_over_golds(answers.exact_match, "x", ["y"]) is False
    with pytest.raises(ValueError):
        answers.best_over_golds(answers.exact_match, "x", [])


def test_r_precision() -> None:
    assert same(ranking.r_precision(["1", "2", "3"], [["2", "1"]]), 1.0)
    assert same(ranking.r_precision(["1", "3", "2"], [["2", "1"]]), 0.5)  # only the first R
    assert same(ranking.r_precision(["1"], [[], ["9"]]), 0)  # an output without ids: int 0
    assert same(ranking.r_precision(["9"], [["1"], ["9", "8"], ["9"]]), 1.0)  # the best output


def test_evidence_rank() -> None:
    sets = [{"1", "2"}, {"3"}, set()]
    rank = ranking.evidence_rank(["1", "9", "3", "2"], sets)
    # {1, 2} stands at its last page; an empty set never completes.
    assert rank == [False, True, True]
    assert same(ranking.precision_at_k(rank, 2), 0.5)
    assert same(ranking.recall_at_k(rank, len(sets), 3), 2 / 3)
    assert ranking.success_at_k(rank, 1) == 0
    assert ranking.success_at_k(rank, 2) == 1
    assert sets == [{"1", "2"}, {"3"}, set()]  # the sets themselves are kept
    # A page in two sets advances both: one place in the rank each.
    assert ranking.evidence_rank(["5", "6"], [{"5"}, {"5", "6"}]) == [True, True]


def test_answer_in_context() -> None:
    provenance = [{"wikipedia_id": 1}, {"text": "The Eiffel tower, Paris."}]
    assert ranking.answer_in_context(provenance, {"paris"}, 1) == 0
    assert ranking.answer_in_context(provenance, {"paris"}, 2) == 1
    assert ranking.answer_in_context(provenance, {"the"}, 2) == 1  # "" is in every text
    assert ranking.answer_in_context(provenance, set(), 2) == 0


def test_ids_joined_from_rank_keys() -> None:
    record = {"output": [{"provenance": [{"a": " 1", "b": 2}, {"a": 1, "b": "2 "}]}, {}]}
    assert ranking.output_ids(record, ["a", "b"]) == [["1+2"], []]


# ---------------------------------------------------------------------------------------------
# Invalid input: ValueError naming the row, the field and what was expected


def _valid() -> tuple[list, list]:
    return copy.deepcopy(IDS_AND_CREDIT)


def _spoil(change: Any) -> tuple[list, list]:
    gold, guess = _valid()
    change(gold, guess)
    return gold, guess


INVALID = [
    # (change, where, field or phrase, which scorers refuse it)
    (lambda g, q: q.pop(2), "references[0] (id '1')", "no prediction has this id", "both"),
    (
        lambda g, q: g.append({"id": "1 ", "output": []}),
        "references[4]",
        "ids must be distinct",
        "both",
    ),
    (lambda g, q: q.append({"id": 3, "output": []}), "predictions[5] (id '3')", "distinct", "both"),
    (lambda g, q: g[1].pop("id"), "references[1]", "missing field 'id'", "both"),
    (
        lambda g, q: g[1].update(id=2.0),
        "references[1]",
        "field 'id' must be a string or an int",
        "both",
    ),
    (lambda g, q: q[0].update(id=None), "predictions[0]", "field 'id'", "both"),
    (lambda g, q: g[0].pop("output"), "references[0] (id 1)", "missing field 'output'", "both"),
    (lambda g, q: g[0].update(output=[]), "references[0] (id '1')", "at least one output", "both"),
    (lambda g, q: g[0].update(output={"answer": "x"}), "references[0]", "list of outputs", "both"),
    (lambda g, q: g[0]["output"].append(out(7)), "references[0]", "output[1].answer", "both"),
    (
        lambda g, q: g[0]["output"][0]["provenance"].append({"title": "x"}),
        "references[0]",
        "output[0].provenance[1].wikipedia_id",
        "both",
    ),
    (
        lambda g, q: g[0]["output"][0].update(provenance={"wikipedia_id": 1}),
        "references[0]",
        "output[0].provenance' must be a list",
        "both",
    ),
    (
        lambda g, q: q[3]["output"][0]["provenance"].append({"wikipedia_id": None}),
        "predictions[3] (id 'q2')",
        "missing field 'output[0].provenance[3].wikipedia_id' (a rank key",
        "both",
    ),
    (
        lambda g, q: q[3]["output"][0]["provenance"].append({"wikipedia_id": 1, "text": 5}),
        "predictions[3] (id 'q2')",
        "output[0].provenance[3].text' must be a string",
        "both",
    ),
    (
        lambda g, q: q[1]["output"][0].update(answer=5),
        "predictions[1]",
        "output[0].answer",
        "both",  # refused in both: a KILT answer is a string
    ),
    (
        lambda g, q: q[1]["output"].append(out("x")),
        "predictions[1]",
        "exactly one output",
        "downstream",
    ),
    (
        lambda g, q: q[1]["output"][0].pop("answer"),
        "predictions[1]",
        "missing field 'output[0].answer'",
        "downstream",
    ),
    (
        lambda g, q: q[1]["output"].append(out("x", [])),
        "predictions[1]",
        "exactly one output",
        "both",
    ),
    (
        lambda g, q: q[1]["output"][0].pop("provenance"),
        "predictions[1]",
        "exactly one output with 'provenance', got 0",
        "retrieval",
    ),
    (
        lambda g, q: g[2].update(output=[out("", ["1"]), out(None, ["2"])]),
        "references[2] (id '3')",
        "no gold answer",
        "downstream",
    ),
]


@pytest.mark.parametrize(("change", "where", "phrase", "which"), INVALID)
def test_invalid_input(change: Any, where: str, phrase: str, which: str) -> None:
    gold, guess = _spoil(change)
    for name in ("downstream", "retrieval"):
        function = {
            "downstream": lambda: scoring.downstream_scores(gold, guess),
            "retrieval": lambda: scoring.retrieval_scores(gold, guess),
        }[name]
        if which in (name, "both"):
            with pytest.raises(ValueError) as refused:
                function()
            assert where in str(refused.value) and phrase in str(refused.value)
        else:
            function()  # the other scorer does not read that field


@pytest.mark.parametrize(
    ("ks", "phrase"),
    [([1, 0], "positive int"), ([5, 5], "distinct"), ([True], "positive int"), ("15", "list")],
)
def test_invalid_ks(ks: Any, phrase: str) -> None:
    gold, guess = _valid()
    with pytest.raises(ValueError, match=phrase):
        scoring.retrieval_scores(gold, guess, ks)


@pytest.mark.parametrize(
    "rank_keys", [[], "wikipedia_id", [1], ["wikipedia_id", "wikipedia_id"], ["meta"]]
)
def test_invalid_rank_keys(rank_keys: Any) -> None:
    gold, guess = _valid()
    with pytest.raises(ValueError, match="rank_keys"):
        scoring.retrieval_scores(gold, guess, [1], rank_keys)


@pytest.mark.parametrize("rows", ["abc", {"id": 1}, None, 5])
def test_rows_must_be_a_list_of_records(rows: Any) -> None:
    from taskeval._metrics.kilt import rows as kilt_rows

    with pytest.raises(ValueError, match="predictions must be a list of KILT records"):
        kilt_rows.checked(rows, "predictions")
