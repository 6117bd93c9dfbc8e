"""tydiqa: rules the parity corpus does not pin, output types, file readers, Hub rows."""

from __future__ import annotations

import gzip
import json
import random
import tracemalloc
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics.tydiqa import file_lines, gold_fields, inputs, scoring
from taskeval._metrics.tydiqa import rows as row_checks
from taskeval.cli import main as cli_main

from harness import assert_same, refusal

REPO = Path(__file__).resolve().parents[1]
PARITY = REPO.parent / "shared" / "parity" / "tydiqa" / "cases"
needs_corpus = pytest.mark.skipif(not PARITY.is_dir(), reason="parity corpus absent")

NULL = {"candidate_index": -1, "start_byte": -1, "end_byte": -1, "yes_no_answer": "NONE"}


def _gold(case: str) -> Path:
    return next(p for p in (PARITY / case).iterdir() if p.name.startswith("gold.jsonl"))


def _score_case(case: str, **options) -> dict:
    return inputs.score_files(_gold(case), PARITY / case / "predictions.jsonl", **options)


def _ann(index=0, start=-1, end=-1, yes_no="NONE") -> dict:
    return {"candidate_index": index, "start_byte": start, "end_byte": end, "yes_no_answer": yes_no}


def _pred(example_id, language="arabic", index=0, score=1.0, span=(-1, -1), yes_no="NONE"):
    return {
        "example_id": example_id,
        "language": language,
        "passage_answer_index": index,
        "passage_answer_score": score,
        "minimal_answer": {"start_byte_offset": span[0], "end_byte_offset": span[1]},
        "minimal_answer_score": score,
        "yes_no_answer": yes_no,
    }


# --- output types: the official int-zero quirks ------------------------------------------------


@needs_corpus
def test_unreached_targets_and_empty_macro_are_int_zero():
    result = _score_case("edge_c26_english_only")
    for key in scoring.AVG_KEYS:
        assert type(result[key]) is int and result[key] == 0
    assert list(result["per_language"]) == ["english"]
    c17 = _score_case("edge_c17_missing_pred_null_gold_negscore")["per_language"]["arabic"]
    assert type(c17["passage-recall-at-precision>=0.9"]) is int
    assert type(c17["passage-precision-at-precision>=0.9"]) is int
    assert type(c17["passage-recall-at-precision>=0.5"]) is float


@needs_corpus
def test_threshold_types_follow_the_official_json_exactly():
    # The official JSON writes 0 or 0.0 for each threshold: the first score object of that value.
    for case in ("synth_gen_n300_s21", "real_tiny_dev_partial", "synth_gen_n5000_s25"):
        expected = json.loads((PARITY / case / "expected.json").read_text())
        result = _score_case(case)
        for language, values in expected["per_language"].items():
            for key, value in values.items():
                got = result["per_language"][language][key]
                assert type(got) is type(value) and repr(got) == repr(value), (case, language, key)


@needs_corpus
def test_compute_keeps_the_types():
    metric = taskeval.load("tydiqa")
    case = "synth_gen_n300_s21"
    result = metric.compute(
        **taskeval.read_official(
            "tydiqa", references=_gold(case), predictions=PARITY / case / "predictions.jsonl"
        )
    )
    expected = json.loads((PARITY / case / "expected.json").read_text())
    assert json.dumps(result) == json.dumps(expected)  # same reprs, so same types


@needs_corpus
def test_pretty_print_case_agrees_with_what_the_official_script_printed():
    # edge_c08 crashed under --pretty_print after printing these numbers (then an unreached
    # R@P target: None formatted with {:.4}); the metric reports that target as int 0.
    arabic = _score_case("edge_c08_pretty_unreachable")["per_language"]["arabic"]
    printed = (PARITY / "edge_c08_pretty_unreachable" / "expected_stdout.txt").read_text()
    assert "Passage & arabic & \\fpr{50.0}{50.0}{50.0}" in printed
    assert "Minimal Answer & arabic & \\fpr{50.0}{50.0}{50.0}" in printed
    assert "Optimal threshold: 2.0" in printed
    assert "R@P=0.5: 50.00% (actual p=50.00%, score threshold=2.0)" in printed
    assert arabic["passage-best-threshold-f1"] == 0.5
    assert arabic["passage-best-threshold"] == 2.0
    assert arabic["minimal-best-threshold-f1"] == 0.5
    assert arabic["passage-recall-at-precision>=0.5"] == 0.5
    assert arabic["passage-recall-at-precision>=0.75"] == 0
    assert type(arabic["passage-recall-at-precision>=0.75"]) is int


# --- scoring rules -----------------------------------------------------------------------------


# --- each official rule on its own (expected values from eval_utils.py / tydi_eval.py) -----------


def test_is_null_span_when_both_offsets_are_negative_in_either_order():
    for span in [(-1, -1), (-1, -7), (-7, -1), (-3, -3), (-(2**63), -1)]:
        assert scoring.is_null_span(*span), span
    for span in [(0, 0), (3, 5), (0, 1)]:
        assert not scoring.is_null_span(*span), span


def test_gold_votes_per_task():
    # the spec's examples, threshold 2: indices [27, -1, -1] null, [0, 1, -1] non-null
    assert not scoring.gold_has_passage_answer([(27, -1, -1, "none"), (-1, -1, -1, "none")] * 1, 2)
    assert scoring.gold_has_passage_answer([(0, -1, -1, "none"), (1, -1, -1, "none")], 2)
    assert scoring.gold_has_passage_answer([(0, -1, -1, "none")], 1)
    # a yes/no answer votes for a minimal answer; a null span (in either order) does not
    yes = [(0, -1, -7, "yes"), (0, -7, -1, "no"), (-1, -1, -1, "none")]
    assert scoring.gold_has_minimal_answer(yes, 2) and not scoring.gold_has_minimal_answer(yes, 3)
    null = [(0, -1, -7, "none"), (0, -7, -1, "none"), (0, -2, -2, "none")]
    assert not scoring.gold_has_minimal_answer(null, 1)
    spans = [(0, 3, 5, "none"), (0, 0, 0, "none"), (-1, -1, -1, "none")]
    assert scoring.gold_has_minimal_answer(spans, 2)


def test_passage_credit_from_any_annotator_with_a_passage():
    annotations = [(-1, -1, -1, "none"), (4, -1, -1, "none"), (2, -1, -1, "none")]
    assert scoring.passage_credit(2, annotations) and scoring.passage_credit(4, annotations)
    assert not scoring.passage_credit(-1, annotations)  # a null annotator gives no credit
    assert scoring.score_passage_answer(annotations, None, 2) == (True, False, 0, 0)
    assert scoring.score_passage_answer(annotations, None, 3) == (False, True, 0, 0)


def test_span_f1_and_minimal_credit_as_compute_partial_match_scores():
    assert scoring.span_f1((90, 104), (100, 112)) == 0.30769230769230765
    assert scoring.span_f1((10, 20), (20, 30)) == 0.0
    assert scoring.span_f1((10, 20), (10, 10)) == 0.0  # zero length on an edge
    assert scoring.span_f1((10, 20), (15, 15)) is None  # strictly inside: the official assert
    annotations = [(0, 39, 50, "none"), (0, 38, 50, "none"), (0, 34, 50, "none")]
    pred = (1, "thai", 0, 1.0, 30, 40, 1.0, "none")
    assert scoring.minimal_credit(pred, annotations) == 0.4615384615384615  # the third
    yes = (1, "thai", 0, 1.0, -1, -7, 1.0, "yes")
    assert scoring.minimal_credit(yes, [(0, 1, 2, "none"), (0, -1, -1, "yes")]) == 1.0
    assert scoring.minimal_credit(yes, [(0, 1, 2, "none"), (0, -1, -1, "no")]) == 0.0
    # a null span written backwards is no prediction of a span
    null = (1, "thai", 0, 1.0, -1, -7, 0.5, "none")
    assert scoring.score_minimal_answer(annotations, null, 2) == (True, False, 0.0, 0.5)


def test_best_threshold_as_compute_pr_curves():
    stats = [(True, True, 1.0, 2.0), (True, True, 0.5, 1.0), (False, True, 0.0, 1.0),
             (True, False, 0.0, 0.5), (False, True, 0, 0), (True, True, 0.25, 0.0),
             (True, True, 1.0, -1.0)]  # fmt: skip
    best, at_targets = scoring.best_threshold(stats)
    assert best == [0.5, 0.4583333333333333, 0.55, -1.0]
    assert at_targets == [[0.3, 0.5], [0.2, 1.0], [0.2, 1.0]]
    # the threshold keeps the first score object of its tie group: the int 0 of a missing one
    best, at_targets = scoring.best_threshold(
        [(False, True, 0, 0), (True, True, 0.4, 0.0), (True, False, 0, 0)]
    )
    assert best == [0.20000000000000004, 0.2, 0.2, 0] and type(best[3]) is int
    assert at_targets == [[0, 0]] * 3 and all(type(v) is int for t in at_targets for v in t)
    for stats, kind in (
        ([(True, False, 0, 0), (True, True, 0.4, 0.0)], int),
        ([(True, True, 0.4, 0.0), (True, False, 0, 0)], float),
    ):
        best, _ = scoring.best_threshold(stats)
        assert best == [0.26666666666666666, 0.4, 0.2, 0] and type(best[3]) is kind
    assert scoring.best_threshold([(False, False, 0.0, 1.0)]) == ([0.0] * 4, [[0, 0]] * 3)


def test_macro_averages_leave_english_out_and_add_left_to_right():
    values = {
        "english": [1.0] * 20,
        "arabic": [0.1] * 10 + [0.7] * 10,
        "thai": [0.2] * 10 + [0.3] * 10,
        "korean": [0.3] * 10 + [0.6] * 10,
    }
    result = scoring.macro_averages(values)
    assert result["avg_passage_f1"] == ((0 + 0.1) + 0.2 + 0.3) / 3 == 0.20000000000000004
    assert result["avg_minimal_recall"] == (0.7 + 0.3 + 0.6) / 3
    assert scoring.macro_averages({"english": [1.0] * 20}) == dict.fromkeys(scoring.AVG_KEYS, 0)
    assert scoring.safe_average([]) == 0 and type(scoring.safe_average([])) is int


def test_ties_are_summed_in_python_set_order():
    # Ids 1, 2, 8 are visited as set([1, 2, 8]) iterates: 8, 1, 2. Their minimal F1s 2/3, 1/2
    # and 2/5 then sum to 1.5666666666666667; in file order they would give ...64.
    gold = [_ann(0, 0, 2)] * 3
    refs = [{"example_id": i, "language": "arabic", "annotations": gold} for i in (1, 2, 8)]
    preds = [_pred(1, span=(1, 2)), _pred(2, span=(1, 3)), _pred(8, span=(1, 4))]
    preds += [{"example_id": None}] * (len(refs) - len(preds))  # rows pair by example_id
    result = scoring.tydiqa_score(preds, refs)["per_language"]["arabic"]
    assert list(set([1, 2, 8])) == [8, 1, 2]
    set_order = 0.4 + 2 / 3 + 0.5
    file_order = 2 / 3 + 0.5 + 0.4
    assert set_order != file_order
    assert result["minimal-best-threshold-precision"] == set_order / 3
    assert result["minimal-best-threshold-precision"] != file_order / 3


def test_missing_prediction_is_a_phantom_wrong_answer_with_int_score_zero():
    refs = [
        {"example_id": 1, "language": "thai", "annotations": [_ann(0, 10, 20)] * 3},
        {"example_id": 2, "language": "thai", "annotations": [NULL] * 3},
    ]
    missing = scoring.tydiqa_score([_pred(1, "thai", score=-1.0), {"example_id": None}], refs)
    explicit = scoring.tydiqa_score(
        [_pred(1, "thai", score=-1.0), _pred(2, "thai", index=-1, score=-5.0)], refs
    )
    assert missing["avg_passage_precision"] == 0.5 and explicit["avg_passage_precision"] == 1.0
    # a missing prediction on answerable gold is only a miss
    recall = scoring.tydiqa_score([{"example_id": None}, _pred(2, "thai", index=-1)], refs)
    assert recall["per_language"]["thai"]["passage-best-threshold-f1"] == 0.0


def test_unknown_prediction_id_and_languages_without_predictions():
    refs = [
        {"example_id": 1, "language": "thai", "annotations": [_ann(0)] * 3},
        {"example_id": 2, "language": "korean", "annotations": [_ann(0)] * 3},
        {"example_id": None},
    ]
    preds = [_pred(1, "thai"), {"example_id": None}, _pred(99, "bengali")]
    preds += [{"example_id": None}] * (len(refs) - len(preds))  # rows pair by example_id
    result = scoring.tydiqa_score(preds, refs)
    # korean has gold but no prediction: left out; bengali has only an unknown id: a zero
    assert list(result["per_language"]) == ["bengali", "thai"]
    assert result["avg_passage_f1"] == 0.5


def test_yes_no_matches_any_annotator_case_insensitively_and_counts_as_a_vote():
    refs = [
        {
            "example_id": 5,
            "language": "swahili",
            "annotations": [_ann(0, yes_no="YES"), _ann(0, yes_no="yes"), _ann(1, yes_no="NO")],
        }
    ]
    result = scoring.tydiqa_score([_pred(5, "swahili", yes_no="No")], refs)
    assert result["avg_minimal_f1"] == 1.0
    span = scoring.tydiqa_score([_pred(5, "swahili", span=(0, 4))], refs)
    assert span["avg_minimal_f1"] == 0.0  # spans against yes/no-only gold get nothing


def test_best_span_over_annotators_and_passage_from_any_annotator():
    # upstream example: annotators [39, 50), [38, 50), [34, 50), prediction [30, 40)
    refs = [
        {
            "example_id": 3,
            "language": "finnish",
            "annotations": [_ann(-1, 39, 50), _ann(4, 38, 50), _ann(7, 34, 50)],
        }
    ]
    result = scoring.tydiqa_score([_pred(3, "finnish", index=4, span=(30, 40))], refs)
    p, r = 6 / 10, 6 / 16
    assert result["avg_minimal_f1"] == 2 * p * r / (p + r)
    assert result["avg_passage_f1"] == 1.0


def test_vote_thresholds():
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann(0, 1, 5), NULL, NULL]}]
    preds = [_pred(1, span=(1, 5))]
    assert scoring.tydiqa_score(preds, refs)["avg_passage_f1"] == 0.0
    one = scoring.tydiqa_score(preds, refs, 1, 1)
    assert one["avg_passage_f1"] == 1.0 and one["avg_minimal_f1"] == 1.0


def test_zero_length_span_on_an_edge_scores_zero_but_inside_raises():
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann(0, 10, 20)] * 3}]
    edge = scoring.tydiqa_score([_pred(1, span=(10, 10))], refs)
    assert edge["avg_minimal_f1"] == 0.0
    with pytest.raises(ValueError, match=r"predictions\[0\] \(example_id 1\).*zero-length"):
        scoring.tydiqa_score([_pred(1, span=(12, 12))], refs)
    gold_inside = [{"example_id": 1, "language": "arabic", "annotations": [_ann(0, 15, 15)] * 3}]
    with pytest.raises(ValueError, match="zero-length"):
        scoring.tydiqa_score([_pred(1, span=(10, 20))], gold_inside)


def test_a_zero_length_span_inside_is_named_with_both_spans():
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann(0, 15, 15)] * 3}]
    with pytest.raises(ValueError) as raised:
        scoring.tydiqa_score([_pred(1, span=(10, 20))], refs)
    assert str(raised.value) == (
        "predictions[0] (example_id 1): field 'minimal_answer' [10, 20) and annotation 0 "
        "[15, 15) of references[0]: a zero-length span strictly inside the other span, on which "
        "the official script fails an assertion"
    )


@pytest.mark.parametrize("side", ["predictions", "references"])
@pytest.mark.parametrize("rows", ["ab", b"ab", {"example_id": 1}])
def test_a_side_that_is_no_list_of_rows_is_named(side, rows):
    sides = {"predictions": [_pred(1)], "references": [{"example_id": 1, "annotations": []}]}
    sides[side] = rows
    with pytest.raises(ValueError) as raised:
        scoring.tydiqa_score(**sides)
    assert str(raised.value) == f"{side} must be a list of dicts, got {type(rows).__name__}"


@pytest.mark.parametrize("n_predictions", [1, 3])
def test_sides_of_different_lengths_are_refused_either_way(n_predictions):
    refs = [{"example_id": k, "language": "arabic", "annotations": [_ann()]} for k in (1, 2)]
    preds = [_pred(k) for k in range(1, n_predictions + 1)]
    assert refusal(scoring.tydiqa_score, preds, refs) == (
        "predictions and references must have the same length (pad the shorter side with rows "
        f"whose example_id is None), got {n_predictions} predictions and 2 references"
    )


def test_a_null_minimal_answer_is_empty_in_a_placeholder_prediction_only():
    nulls = {"start_byte_offset": None, "end_byte_offset": None}
    placeholder = {"example_id": None, "minimal_answer": nulls}
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann()]}]
    assert scoring.tydiqa_score([_pred(1), placeholder], [*refs, {"example_id": None}])
    with pytest.raises(ValueError, match=r"^references\[1\]: .* values in \['minimal_answer'\]$"):
        scoring.tydiqa_score([_pred(1), {"example_id": None}], [*refs, placeholder])
    # the null answer left out, not the rest (keys on both sides of it)
    other = {**placeholder, "language": "arabic", "yes_no_answer": "YES"}
    with pytest.raises(
        ValueError, match=r"^predictions\[1\]: .* values in \['language', 'yes_no_answer'\]$"
    ):
        scoring.tydiqa_score([_pred(1), other], [*refs, {"example_id": None}])


def test_a_score_too_large_for_a_float_is_named():
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann()]}]
    with pytest.raises(ValueError) as raised:
        scoring.tydiqa_score([{**_pred(1), "passage_answer_score": 10**400}], refs)
    assert str(raised.value).startswith(
        "predictions[0] (example_id 1): field 'passage_answer_score' is too large for a float: 1000"
    )


@pytest.mark.parametrize("side", ["predictions", "references"])
def test_a_placeholder_with_values_is_named_for_its_side(side):
    placeholder = {"example_id": None, "annotations": [_ann()], "language": "arabic"}
    preds = [_pred(1), placeholder if side == "predictions" else {"example_id": None}]
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann()] * 3}]
    refs.append(placeholder if side == "references" else {"example_id": None})
    with pytest.raises(ValueError) as raised:
        scoring.tydiqa_score(preds, refs)
    assert str(raised.value) == (
        f"{side}[1]: field 'example_id' is null, which marks a row with no {side[:-1]} "
        "(a placeholder), but it has values in ['annotations', 'language']"
    )


def test_an_official_annotation_with_only_a_minimal_answer_is_named_as_one():
    annotation = {
        "minimal_answer": {"plaintext_start_byte": 3, "plaintext_end_byte": 9},
        "yes_no_answer": "NONE",
    }
    refs = [{"example_id": 1, "language": "arabic", "annotations": [annotation]}]
    with pytest.raises(ValueError, match=r"an official annotation needs passage_answer"):
        scoring.tydiqa_score([_pred(1)], refs)


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("end_byte", None, "expected an int, got None"),
        ("end_byte", True, "expected an int, got True"),
        ("start_byte", 5.0, "expected an int, got 5.0"),
        ("candidate_index", "0", "expected an int, got '0'"),
        ("yes_no_answer", None, "must be 'YES', 'NO' or 'NONE' (any case), got None"),
        ("yes_no_answer", 5, "must be 'YES', 'NO' or 'NONE' (any case), got 5"),
        ("start_byte", 0, "one null (negative) offset and one non-null: [0, -1)"),
        ("start_byte", 5, "one null (negative) offset and one non-null: [5, -1)"),
        ("end_byte", 5, "one null (negative) offset and one non-null: [-1, 5)"),
        ("end_byte", 0, "one null (negative) offset and one non-null: [-1, 0)"),
    ],
)
def test_a_wrong_annotation_value_is_named(field, value, problem):
    """The gold annotation's fast path takes only plainly valid ones; the rest are named."""
    refs = [{"example_id": 1, "language": "arabic", "annotations": [{**_ann(), field: value}]}]
    with pytest.raises(ValueError) as raised:
        scoring.tydiqa_score([_pred(1)], refs)
    assert str(raised.value).startswith("references[0] (example_id 1): field 'annotations'[0]: ")
    assert problem in str(raised.value)


@pytest.mark.parametrize(
    ("span", "yes_no", "problem"),
    [
        ((5, -1), "NONE", "field 'minimal_answer' has one null (negative) offset and one "
         "non-null: [5, -1); a null span has both offsets negative"),
        ((0, 5), "YES", "field 'yes_no_answer' is 'YES' but 'minimal_answer' is a span [0, 5): "
         "a yes/no answer and a span cannot coexist"),
        ((3, 5), "NO", "field 'yes_no_answer' is 'NO' but 'minimal_answer' is a span [3, 5): "
         "a yes/no answer and a span cannot coexist"),
    ],
)  # fmt: skip
def test_a_wrong_predicted_answer_is_named(span, yes_no, problem):
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann(0, 10, 20)] * 3}]
    with pytest.raises(ValueError) as raised:
        scoring.tydiqa_score([_pred(1, span=span, yes_no=yes_no)], refs)
    assert str(raised.value) == f"predictions[0] (example_id 1): {problem}"


# --- null spans: both offsets negative, in any order ---------------------------------------------

# The official Span is null when both offsets are negative, whatever their order, in the gold and
# in the predictions: [-1, -7) is as null as [-1, -1). Gold and predictions of mixed null spans,
# scored by tydi_eval.py (default flags): arabic minimal 0.9444444444444444 at threshold 0.7
# (example 3's prediction, null, has the top minimal score 0.9: counted non-null it would cost
# precision; example 3's gold, null by every annotator, counted non-null would cost recall).
_BACKWARDS_GOLD = [
    (1, "arabic", [(0, 2, 8, "NONE"), (0, 3, 8, "NONE"), (-1, -1, -7, "NONE")]),
    (2, "arabic", [(0, -5, -2, "YES"), (1, -2, -5, "YES"), (-1, -7, -1, "NONE")]),
    (3, "arabic", [(-1, -1, -7, "NONE"), (-1, -7, -1, "NONE"), (-1, -3, -3, "NONE")]),
    (4, "thai", [(2, 10, 20, "NONE"), (2, -1, -9, "NO"), (-1, -9, -1, "NONE")]),
]
_BACKWARDS_PREDICTIONS = [
    # example_id, language, passage index and score, span, minimal score, yes/no
    (1, "arabic", 0, 0.5, (4, 8), 0.7, "NONE"),
    (2, "arabic", 1, 0.9, (-9, -3), 0.8, "YES"),
    (3, "arabic", -1, 0.1, (-1, -7), 0.9, "NONE"),
    (4, "thai", 2, 1.0, (-2, -20), 0.4, "no"),
]
_BACKWARDS_OFFICIAL = {
    "avg_passage_f1": 1.0,
    "avg_passage_recall": 1.0,
    "avg_passage_precision": 1.0,
    "avg_minimal_f1": 0.9722222222222222,
    "avg_minimal_recall": 0.9722222222222222,
    "avg_minimal_precision": 0.9722222222222222,
}


def _backwards_rows() -> dict[str, list]:
    references = [
        {"example_id": i, "language": lang, "annotations": [_ann(*a) for a in answers]}
        for i, lang, answers in _BACKWARDS_GOLD
    ]
    predictions = []
    for i, lang, index, passage_score, span, minimal_score, yes_no in _BACKWARDS_PREDICTIONS:
        row = _pred(i, lang, index, passage_score, span, yes_no)
        predictions.append({**row, "minimal_answer_score": minimal_score})
    return {"predictions": predictions, "references": references}


def _backwards_files(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold.jsonl.gz"
    lines = []
    for i, lang, answers in _BACKWARDS_GOLD:
        official = [
            {
                "passage_answer": {"candidate_index": index},
                "minimal_answer": {"plaintext_start_byte": start, "plaintext_end_byte": end},
                "yes_no_answer": yes_no,
            }
            for index, start, end, yes_no in answers
        ]
        lines.append(
            json.dumps({"example_id": i, "language": lang, "question_text": "q",
                        "document_plaintext": "d" * 30, "annotations": official})
        )  # fmt: skip
    gold.write_bytes(gzip.compress("".join(line + "\n" for line in lines).encode()))
    predictions = tmp_path / "predictions.jsonl"
    rows = _backwards_rows()["predictions"]
    predictions.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return gold, predictions


def _check_backwards(result: dict, where: str) -> None:
    for key, value in _BACKWARDS_OFFICIAL.items():
        assert result[key] == value, (where, key)
    arabic = result["per_language"]["arabic"]
    assert arabic["minimal-best-threshold-f1"] == 0.9444444444444444, where
    assert arabic["minimal-best-threshold"] == 0.7, where
    assert result["per_language"]["thai"]["minimal-best-threshold"] == 0.4, where


def test_null_spans_written_backwards_score_as_officially_on_every_path(tmp_path, capsys):
    rows = _backwards_rows()
    metric = taskeval.load("tydiqa")
    _check_backwards(scoring.tydiqa_score(**rows), "tydiqa_score")
    _check_backwards(metric.compute(**rows), "compute")
    metric.add_batch(predictions=rows["predictions"][:2], references=rows["references"][:2])
    metric.add_batch(predictions=rows["predictions"][2:], references=rows["references"][2:])
    _check_backwards(metric.compute(), "add_batch")
    for prediction, reference in zip(rows["predictions"], rows["references"]):
        metric.add(prediction=prediction, reference=reference)
    _check_backwards(metric.compute(), "add")
    gold, predictions = _backwards_files(tmp_path)
    read = taskeval.read_official("tydiqa", references=gold, predictions=predictions)
    _check_backwards(metric.compute(**read), "read_official")
    _check_backwards(inputs.score_files(gold, predictions), "score_files")
    files = taskeval.score_files("tydiqa", references=gold, predictions=predictions)
    _check_backwards(files, "taskeval.score_files")
    assert cli_main(["score", "tydiqa", "--references", str(gold), "--predictions",
                     str(predictions)]) == 0  # fmt: skip
    _check_backwards(json.loads(capsys.readouterr().out), "cli")
    # the gold reader keeps the spans as they are written, and the plain annotation check (the
    # one records the fast path declines take) accepts each of them too
    plain = [
        (i, lang, tuple((a[0], a[1], a[2], a[3].lower()) for a in answers))
        for i, lang, answers in _BACKWARDS_GOLD
    ]
    assert list(inputs.iter_gold(gold)) == plain
    for reference, (_, _, answers) in zip(rows["references"], plain):
        for item, expected in zip(reference["annotations"], answers):
            assert row_checks.normalize_annotation(item, "x") == expected


@pytest.mark.parametrize(
    ("span", "problem"),
    [
        ((8, 2), "starts after it ends: [8, 2)"),
        ((1, 0), "starts after it ends: [1, 0)"),
        ((-1, 0), "has one null (negative) offset and one non-null: [-1, 0)"),
        ((0, -7), "has one null (negative) offset and one non-null: [0, -7)"),
    ],
)
def test_only_half_null_and_backwards_non_null_spans_are_refused(span, problem):
    # as the official Span (ValueError), on either side
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann(0, 10, 20)] * 3}]
    with pytest.raises(ValueError) as raised:
        scoring.tydiqa_score([_pred(1, span=span)], refs)
    assert str(raised.value).startswith(
        f"predictions[0] (example_id 1): field 'minimal_answer' {problem}"
    )
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann(0, *span)] * 3}]
    with pytest.raises(ValueError) as raised:
        scoring.tydiqa_score([_pred(1)], refs)
    assert str(raised.value).startswith(
        f"references[0] (example_id 1): field 'annotations'[0]: field 'start_byte/end_byte' "
        f"{problem}"
    )


def test_an_official_annotation_whose_passage_answer_is_null_is_named():
    annotation = {
        "passage_answer": None,
        "minimal_answer": {"plaintext_start_byte": 3, "plaintext_end_byte": 9},
        "yes_no_answer": "NONE",
    }
    refs = [{"example_id": 1, "language": "arabic", "annotations": [annotation]}]
    with pytest.raises(ValueError, match=r"an official annotation needs passage_answer"):
        scoring.tydiqa_score([_pred(1)], refs)


def test_a_float_start_of_a_valid_looking_span_is_named():
    annotation = {"candidate_index": 0, "start_byte": 5.0, "end_byte": 9, "yes_no_answer": "NONE"}
    refs = [{"example_id": 1, "language": "arabic", "annotations": [annotation]}]
    with pytest.raises(ValueError, match=r"'annotations'\[0\]: .* expected an int, got 5.0"):
        scoring.tydiqa_score([_pred(1)], refs)


def test_a_minimal_answer_record_may_hold_more_fields():
    refs = [{"example_id": 1, "language": "arabic", "annotations": [_ann(0, 10, 20)] * 3}]
    pred = _pred(1, span=(12, 20))
    more = {**pred, "minimal_answer": {**pred["minimal_answer"], "text": "x"}}
    assert scoring.tydiqa_score([more], refs) == scoring.tydiqa_score([pred], refs)


def test_duplicates_last_wins_in_the_first_position():
    refs = [
        {"example_id": 1, "language": "arabic", "annotations": [NULL] * 3},
        {"example_id": 1, "language": "arabic", "annotations": [_ann(2)] * 3},
    ]
    preds = [_pred(1, index=2), _pred(1, index=0)]
    assert scoring.tydiqa_score(preds, refs)["avg_passage_f1"] == 0.0
    assert scoring.tydiqa_score(preds[::-1], refs)["avg_passage_f1"] == 1.0


def test_inputs_are_not_mutated_and_official_annotation_form_is_accepted():
    official = {
        "annotation_id": 1,
        "passage_answer": {"candidate_index": 0},
        "minimal_answer": {"plaintext_start_byte": 3, "plaintext_end_byte": 9},
        "yes_no_answer": "NONE",
    }
    refs = [{"example_id": 1, "language": "arabic", "annotations": [official] * 3}]
    preds = [_pred(1, span=(3, 9))]
    before = json.dumps([refs, preds])
    assert scoring.tydiqa_score(preds, refs)["avg_minimal_f1"] == 1.0
    assert json.dumps([refs, preds]) == before


# --- official files ----------------------------------------------------------------------------


def _write_gold(path: Path, records: list, raw_lines: list[str] = ()) -> Path:
    lines = [json.dumps(r, ensure_ascii=False) for r in records] + list(raw_lines)
    data = ("\n".join(lines) + "\n").encode()
    if ".gz" in path.name:
        data = gzip.compress(data)
    path.write_bytes(data)
    return path


def _record(example_id=1, language="arabic", doc="text", **extra) -> dict:
    annotation = {
        "annotation_id": 9,
        "passage_answer": {"candidate_index": 0},
        "minimal_answer": {"plaintext_start_byte": 0, "plaintext_end_byte": 4},
        "yes_no_answer": "NONE",
    }
    return {
        "example_id": example_id,
        "language": language,
        "question_text": "q",
        "document_plaintext": doc,
        "annotations": [annotation] * 3,
        **extra,
    }


def test_gold_reader_fast_path_agrees_with_json(tmp_path):
    tricky = [
        _record(1, doc='a "language": "thai", "example_id": 5, "annotations": [] \\" ]'),
        _record(2, doc="ends with a backslash \\"),
        {"language": "korean", "annotations": _record()["annotations"], "example_id": -(2**63)},
        _record(4, language="thai", document_html='<p>"]"</p>'),
    ]
    spaced = json.dumps(_record(5), indent=None, separators=(" , ", " : "))
    gold = _write_gold(tmp_path / "g.jsonl.gz", tricky, [spaced])
    got = list(inputs.iter_gold(gold))
    expected = [
        scoring.normalize_reference(json.loads(line), "x")
        for line in gzip.decompress(gold.read_bytes()).decode().splitlines()
    ]
    assert got == expected
    assert [r[0] for r in got] == [1, 2, -(2**63), 4, 5]


@pytest.mark.parametrize("name", ["gold.jsonl", "gold.jsonl.gz"])
def test_a_gold_line_with_an_unterminated_string_is_named(tmp_path, name):
    line = json.dumps(_record(1))[:-1] + ', "document_title": "abc}'
    gold = _write_gold(tmp_path / name, [], [line])
    with pytest.raises(ValueError, match=r", line 1: not a JSON value \(Unterminated string"):
        list(inputs.iter_gold(gold))


def test_raw_surrogates_are_read_as_the_official_script_reads_each_file(tmp_path):
    """A gzip gold file is read in binary mode (json decodes it with surrogatepass), a plain
    one in text mode (strict UTF-8), as tydi_eval.py opens them."""
    raw = json.dumps(_record(1)).encode().replace(b'"arabic"', b'"arab\xed\xa0\x80ic"') + b"\n"
    (tmp_path / "gold.jsonl.gz").write_bytes(gzip.compress(raw))
    assert [r[:2] for r in inputs.iter_gold(tmp_path / "gold.jsonl.gz")] == [(1, "arab\ud800ic")]
    (tmp_path / "gold.jsonl").write_bytes(raw)
    with pytest.raises(ValueError, match=r", line 1: not UTF-8 text"):
        list(inputs.iter_gold(tmp_path / "gold.jsonl"))


@needs_corpus
def test_gold_reader_matches_json_on_every_corpus_gold():
    for folder in sorted(PARITY.iterdir()):
        if folder.name == "edge_c12_empty_annotations":
            continue
        path = _gold(folder.name)
        opener = gzip.open if ".gz" in path.name else open
        with opener(path, "rt", encoding="utf-8") as f:
            expected = [scoring.normalize_reference(json.loads(line), "x") for line in f]
        assert list(inputs.iter_gold(path)) == expected, folder.name


def test_gold_reader_errors_name_file_line_id_and_field(tmp_path):
    def error(records, raw=(), name="g.jsonl") -> str:
        path = _write_gold(tmp_path / name, records, raw)
        with pytest.raises(ValueError) as info:
            list(inputs.iter_gold(path))
        return str(info.value)

    message = error([_record(1), _record(2, annotations=[])])
    assert "g.jsonl, line 2 (example_id 2)" in message and "'annotations'" in message
    message = error([_record(1)], ["", json.dumps(_record(3))])
    assert "line 2" in message and "blank line" in message
    message = error([_record("7")], name="g.jsonl.gz")
    assert "g.jsonl.gz, line 1" in message and "'example_id'" in message and "'7'" in message
    no_annotations = {k: v for k, v in _record().items() if k != "annotations"}
    assert "missing field 'annotations'" in error([no_annotations])
    bad = _record(4)
    bad["annotations"] = [{**bad["annotations"][0], "yes_no_answer": "MAYBE"}]
    message = error([bad])
    assert "line 1 (example_id 4)" in message and "'yes_no_answer'" in message
    assert "not a JSON value" in error([], ["{not json"])


def test_gold_gzip_is_chosen_by_the_path_like_the_official_script(tmp_path):
    plain = _write_gold(tmp_path / "gold.jsonl", [_record(1)])
    assert next(inputs.iter_gold(plain))[0] == 1
    gz = _write_gold(tmp_path / "gold.gz.jsonl", [_record(2)])  # ".gz" anywhere in the path
    assert next(inputs.iter_gold(gz))[0] == 2
    members = tmp_path / "members.jsonl.gz"  # concatenated gzip members, as `cat a.gz b.gz`
    members.write_bytes(
        b"".join(gzip.compress(json.dumps(_record(i)).encode() + b"\n") for i in (7, 8, 9))
    )
    assert [r[0] for r in inputs.iter_gold(members)] == [7, 8, 9]
    (tmp_path / "empty.jsonl.gz").write_bytes(b"")
    assert list(inputs.iter_gold(tmp_path / "empty.jsonl.gz")) == []
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(gzip.compress(json.dumps(_record(1)).encode() * 50)[:-30])
    with pytest.raises(ValueError, match="cannot be read"):
        list(inputs.iter_gold(truncated))
    (tmp_path / "not.gz").write_bytes(b"plain text\n")
    with pytest.raises(ValueError, match="cannot be read"):
        list(inputs.iter_gold(tmp_path / "not.gz"))


def test_gold_is_streamed_without_keeping_documents(tmp_path, monkeypatch):
    doc = "ข้อความ " * 20_000  # ~440 KB of UTF-8 per line, ~26 MB in all
    records = [_record(i, doc=doc) for i in range(60)]
    gold = _write_gold(tmp_path / "big.jsonl.gz", records)
    # small chunks, so that what is in flight is far below the file size
    monkeypatch.setattr(file_lines, "_CHUNK", 1 << 16)
    tracemalloc.start()
    try:
        refs = list(inputs.iter_gold(gold))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(refs) == 60
    assert peak < 3 * 2**20, peak  # a line and a few chunks in flight, never the documents


def test_prediction_reader(tmp_path):
    preds = tmp_path / "p.jsonl"
    rows = [{**_pred(1), "passage_answer_score": "2.5"}, {**_pred(2), "minimal_answer_score": 3}]
    preds.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    got = list(inputs.iter_predictions(preds))
    assert got[0][3] == 2.5 and got[1][6] == 3.0 and type(got[1][6]) is float
    preds.write_text(json.dumps({**_pred(1), "passage_answer_score": "high"}) + "\n")
    with pytest.raises(ValueError, match=r"p.jsonl, line 1: .*'passage_answer_score'"):
        list(inputs.iter_predictions(preds))
    preds.write_text(json.dumps(_pred(1)) + "\n" + json.dumps({"example_id": 2}) + "\n")
    with pytest.raises(ValueError, match=r"line 2 \(example_id 2\): field 'language'"):
        list(inputs.iter_predictions(preds))
    preds.write_text(json.dumps(_pred(1)) + "\n\n")
    with pytest.raises(ValueError, match="line 2: a blank line"):
        list(inputs.iter_predictions(preds))
    preds.write_bytes(gzip.compress(b"{}\n"))
    with pytest.raises(ValueError, match="gzip"):
        list(inputs.iter_predictions(preds))


def test_read_official_pads_the_shorter_side_with_placeholders(tmp_path):
    gold = _write_gold(tmp_path / "g.jsonl", [_record(1), _record(2)])
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps(_pred(1, span=(0, 4))) + "\n")
    official = inputs.read_official(gold, preds)
    assert len(official["predictions"]) == len(official["references"]) == 2
    assert official["predictions"][1]["example_id"] is None
    assert scoring.tydiqa_score(**official) == inputs.score_files(gold, preds)


@needs_corpus
def test_cli_options(capsys):
    case = "synth_gen_small_n300_s1_thr1"
    argv = [
        "score",
        "tydiqa",
        "--references",
        str(_gold(case)),
        "--predictions",
        str(PARITY / case / "predictions.jsonl"),
        "--passage-non-null-threshold",
        "1",
        "--minimal-non-null-threshold",
        "1",
    ]
    assert cli_main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads((PARITY / case / "expected.json").read_text())


# --- Hub rows ----------------------------------------------------------------------------------


def _hub_row(language, indices, starts, ends, yes_no) -> dict:
    # the Hub's tydiqa primary_task layout (no example_id; annotations as a dict of lists)
    return {
        "passage_answer_candidates": {
            "plaintext_start_byte": [0, 50],
            "plaintext_end_byte": [50, 90],
        },
        "question_text": "swali?",
        "document_title": "Kichwa",
        "language": language,
        "annotations": {
            "passage_answer_candidate_index": indices,
            "minimal_answers_start_byte": starts,
            "minimal_answers_end_byte": ends,
            "yes_no_answer": yes_no,
        },
        "document_plaintext": "maandishi " * 9,
        "document_url": "https://sw.wikipedia.org/wiki/Kichwa",
    }


def test_references_from_hub():
    rows = [
        _hub_row("swahili", [1, 1, -1], [55, 57, -1], [60, 60, -1], ["NONE"] * 3),
        _hub_row("swahili", [0, 0, 0], [-1, -1, -1], [-1, -1, -1], ["YES", "YES", "NONE"]),
        _hub_row("thai", [-1], [-1], [-1], ["NONE"]),
    ]
    refs = inputs.references_from_hub(rows, example_ids=[11, -12, 13])
    assert refs[0] == {
        "example_id": 11,
        "language": "swahili",
        "annotations": [
            {"candidate_index": 1, "start_byte": 55, "end_byte": 60, "yes_no_answer": "NONE"},
            {"candidate_index": 1, "start_byte": 57, "end_byte": 60, "yes_no_answer": "NONE"},
            {"candidate_index": -1, "start_byte": -1, "end_byte": -1, "yes_no_answer": "NONE"},
        ],
    }
    assert taskeval.references_from_hub("tydiqa", rows, example_ids=[11, -12, 13]) == refs
    preds = [
        _pred(11, "swahili", 1, span=(55, 60)),
        _pred(-12, "swahili", 0, yes_no="yes"),
        {"example_id": None},
    ]
    preds += [{"example_id": None}] * (len(refs) - len(preds))  # rows pair by example_id
    result = scoring.tydiqa_score(preds, refs)
    assert result["avg_passage_f1"] == 1.0 and result["avg_minimal_f1"] == 1.0


def test_references_from_hub_errors():
    row = _hub_row("thai", [0, 0], [1, 1], [4, 4], ["NONE", "NONE"])
    with pytest.raises(ValueError, match="one id per row"):
        inputs.references_from_hub([row], example_ids=[])
    uneven = _hub_row("thai", [0, 0], [1], [4, 4], ["NONE", "NONE"])
    with pytest.raises(ValueError, match=r"rows\[0\] \(example_id 5\).*one entry per annotator"):
        inputs.references_from_hub([uneven], example_ids=[5])
    flat = {**row, "annotations": [{"candidate_index": 0}]}
    with pytest.raises(ValueError, match=r"rows\[0\].*'annotations' must be a dict of lists"):
        inputs.references_from_hub([flat], example_ids=[5])
    with pytest.raises(ValueError, match=r"rows\[0\].*'example_id'"):
        inputs.references_from_hub([row], example_ids=["5"])
    empty = _hub_row("thai", [], [], [], [])
    with pytest.raises(ValueError, match="non-empty"):
        inputs.references_from_hub([empty], example_ids=[5])


def test_stopping_early_does_not_leave_the_inflating_thread_blocked(tmp_path, monkeypatch):
    monkeypatch.setattr(file_lines, "_CHUNK", 1 << 12)
    monkeypatch.setattr(file_lines, "_QUEUED", 1)
    records = [_record(i, doc="x" * 5000) for i in range(200)]
    records[0] = _record("bad")
    gold = _write_gold(tmp_path / "g.jsonl.gz", records)
    with pytest.raises(ValueError, match="line 1"):
        list(inputs.iter_gold(gold))
    reader = inputs.iter_gold(_write_gold(tmp_path / "h.jsonl.gz", records[1:]))
    assert next(reader)[0] == 1
    reader.close()  # joins the thread, which must notice the reader is gone


def test_gold_errors_come_before_prediction_errors(tmp_path, monkeypatch):
    monkeypatch.setattr(file_lines, "_CHUNK", 1 << 12)  # the predictions are read while inflating
    records = [_record(i, doc="y" * 3000) for i in range(100)]
    preds = tmp_path / "p.jsonl"
    preds.write_text("\n".join(json.dumps(_pred(i)) for i in range(100)) + "\n{oops\n")
    good = _write_gold(tmp_path / "g.jsonl.gz", records)
    with pytest.raises(ValueError, match=r"p.jsonl, line 101: not a JSON value"):
        inputs.score_files(good, preds)
    bad = _write_gold(tmp_path / "b.jsonl.gz", [*records, _record(7, annotations=[])])
    with pytest.raises(ValueError, match=r"b.jsonl.gz, line 101 \(example_id 7\)"):
        inputs.score_files(bad, preds)
    preds.write_text("\n".join(json.dumps(_pred(i, span=(0, 4))) for i in range(100)) + "\n")
    assert inputs.score_files(good, preds)["avg_minimal_f1"] == 1.0


def test_details_list_each_scored_gold_example_in_gold_order():
    refs = [
        {"example_id": 9, "language": "thai", "annotations": [_ann(0, 10, 20)] * 3},
        {"example_id": 3, "language": "thai", "annotations": [NULL] * 3},
        {"example_id": 5, "language": "korean", "annotations": [_ann(1)] * 3},  # not scored
    ]
    preds = [_pred(9, "thai", span=(12, 20), score=0.5), {"example_id": None}, {"example_id": None}]
    plain = scoring.tydiqa_score(preds, refs)
    result = taskeval.load("tydiqa").compute(predictions=preds, references=refs, details=True)
    details = result.pop("details")
    assert result == plain
    # the official script's numbers on these rows written as files (korean has no prediction)
    assert list(result["per_language"]) == ["thai"]
    thai = result["per_language"]["thai"]
    assert [thai[f"{t}-best-threshold-f1"] for t in ("passage", "minimal")] == [
        1.0,
        0.888888888888889,
    ]
    assert thai["minimal-best-threshold"] == 0.5 and thai["minimal-recall-at-precision>=0.9"] == 0
    assert {k: result[k] for k in ("avg_passage_f1", "avg_minimal_f1", "avg_minimal_recall")} == {
        "avg_passage_f1": 1.0,
        "avg_minimal_f1": 0.888888888888889,
        "avg_minimal_recall": 0.888888888888889,
    }
    assert [d["example_id"] for d in details] == [9, 3]
    assert details[0] == {
        "example_id": 9, "language": "thai", "predicted": True,
        "passage_gold": True, "passage_predicted": True, "passage_correct": True,
        "passage_score": 0.5, "minimal_gold": True, "minimal_predicted": True,
        "minimal_f1": 2 * 0.8 / 1.8, "minimal_score": 0.5,
    }  # fmt: skip
    assert details[1] == {
        "example_id": 3, "language": "thai", "predicted": False,
        "passage_gold": False, "passage_predicted": False, "passage_correct": False,
        "passage_score": None, "minimal_gold": False, "minimal_predicted": False,
        "minimal_f1": 0.0, "minimal_score": None,
    }  # fmt: skip


# --- the gold and prediction readers: lines, top-level fields and scores as the official -------


def _official_ann(index, start=-1, end=-1, yes_no="NONE") -> dict:
    return {
        "annotation_id": 2**64 + 1,  # beyond 64 bits, as Python's json reads it
        "minimal_answer": {"plaintext_end_byte": end, "plaintext_start_byte": start},
        "passage_answer": {"candidate_index": index},
        "yes_no_answer": yes_no,
    }


def _odd_gold_lines() -> list[str]:
    """Gold lines whose fields a byte search would take from the wrong place."""
    dump = json.dumps
    return [
        # a nested object holding example_id and language before the top-level ones
        '{"meta": {"example_id": 99, "language": "thai"}, "annotations": '
        + dump([_official_ann(1, 0, 4)] * 3)
        + ', "document_plaintext": "x \\"example_id\\": 7 ]", "example_id": 1, '
        '"language": "arabic", "question_text": "q"}',
        # a nested annotations key before the top-level one
        '{"extra": {"annotations": []}, "annotations": '
        + dump([_official_ann(0)] * 3)
        + ', "document_plaintext": "", "example_id": 2, "language": "arabic", '
        '"question_text": "q"}',
        # a repeated key: json.loads keeps the last value
        '{"language": "thai", "annotations": '
        + dump([_official_ann(2, 5, 9)] * 2 + [_official_ann(-1)])
        + ', "document_plaintext": "d", "example_id": 3, "language": "arabic", '
        '"question_text": "q"}',
        # an escaped key is the same key
        '{"annotations": '
        + dump([_official_ann(0, yes_no="YES")] * 3)
        + ', "document_plaintext": "d", "exampl\\u0065_id": 4, "language": "arabic", '
        '"question_text": "q"}',
    ]


def _odd_predictions() -> list[dict]:
    def pred(i, index, score, span=(-1, -1), minimal_score=None, yes_no="NONE"):
        return {
            "example_id": i,
            "language": "arabic",
            "passage_answer_index": index,
            "passage_answer_score": score,
            "minimal_answer": {"start_byte_offset": span[0], "end_byte_offset": span[1]},
            "minimal_answer_score": score if minimal_score is None else minimal_score,
            "yes_no_answer": yes_no,
        }

    # JSON true/false scores are 1.0/0.0 (the official float()), numeric strings are numbers
    return [
        pred(1, 1, True, (0, 3)),
        pred(2, 0, "2.5"),
        pred(3, 2, False, (6, 9)),
        pred(4, 0, 1, minimal_score=True, yes_no="YES"),
    ]


# The official script's numbers on those files, whichever line breaks and compression.
ODD_OFFICIAL = {
    "avg_passage_f1": 1.0,
    "avg_passage_recall": 1.0,
    "avg_passage_precision": 1.0,
    "avg_minimal_f1": 0.9047619047619048,
    "avg_minimal_recall": 0.9047619047619048,
    "avg_minimal_precision": 0.9047619047619048,
}


@pytest.mark.parametrize(
    ("name", "gold_break", "pred_break"),
    [
        ("gold.jsonl", "\r", "\r"),  # text mode: a lone \r ends a line
        ("gold.jsonl", "\r\n", "\n"),
        ("gold.jsonl.gz", "\n", "\r\n"),  # gzip: binary lines
    ],
)
def test_gold_fields_are_the_top_level_ones_and_lines_split_as_the_official(
    tmp_path, name, gold_break, pred_break
):
    text = gold_break.join(_odd_gold_lines()) + gold_break
    gold = tmp_path / name
    gold.write_bytes(gzip.compress(text.encode()) if name.endswith(".gz") else text.encode())
    preds = tmp_path / "p.jsonl"
    preds.write_text(pred_break.join(json.dumps(p) for p in _odd_predictions()), newline="")
    refs = list(inputs.iter_gold(gold))
    assert [(r[0], r[1]) for r in refs] == [(i, "arabic") for i in (1, 2, 3, 4)]
    assert refs[0][2][0] == (1, 0, 4, "none") and refs[2][2][0] == (2, 5, 9, "none")
    result = taskeval.load("tydiqa").compute(**inputs.read_official(gold, preds))
    assert {k: result[k] for k in ODD_OFFICIAL} == ODD_OFFICIAL
    assert (
        inputs.score_files(gold, preds)["per_language"]["arabic"]["passage-best-threshold"] == 0.0
    )


def test_gzip_gold_lines_end_only_at_newline(tmp_path):
    # In a gzip file the official reader splits binary lines: "\r" is JSON whitespace there.
    text = "\r".join(_odd_gold_lines()[:2]) + "\n"
    gold = tmp_path / "g.jsonl.gz"
    gold.write_bytes(gzip.compress(text.encode()))
    with pytest.raises(ValueError, match=r"g\.jsonl\.gz, line 1: not a JSON value"):
        list(inputs.iter_gold(gold))


def test_fast_gold_path_refuses_a_span_that_starts_after_its_end(tmp_path):
    line = json.dumps(
        {"annotations": [_official_ann(0, 5, 3)] * 3, "document_plaintext": "d" * 50,
         "example_id": 8, "language": "thai", "question_text": "q"}
    )  # fmt: skip
    assert (
        gold_fields.gold_fields_fast(line.encode(), 0, len(line), file_lines.loads_text) is not None
    )
    gold = tmp_path / "g.jsonl.gz"
    gold.write_bytes(gzip.compress(line.encode() + b"\n"))
    with pytest.raises(ValueError, match=r"line 1 \(example_id 8\).*starts after it ends"):
        list(inputs.iter_gold(gold))


def test_fast_gold_fields_agree_with_json_or_decline():
    """Random awkward lines: the fast path gives json.loads' top-level fields, or None."""
    import random

    rng = random.Random(4)
    pieces = ['"x"', '"a]b\\"[]"', '"\\\\"', "[1, [2, {}]]", '{"example_id": 9, "language": "z"}',
              '"\\u0041"', "12345678901234567890123", "-0", "1.5e3", "true", "null", "[[[[1]]]]",
              '"\\ud800"', '{"annotations": [{"a": [1]}]}']  # fmt: skip
    ann = [_official_ann(0, 2, 5)]
    taken = declined = 0
    for _ in range(3000):
        members = [
            ("annotations", json.dumps(ann)),
            ("example_id", str(rng.randint(-5, 5))),
            ("language", json.dumps(rng.choice(["en", "é", 'a"b', "x\\y"]))),
        ]
        for _ in range(rng.randint(0, 4)):
            key = rng.choice(["doc", "example_id", "language", "annotations", "exampl\\u0065_id"])
            members.insert(rng.randint(0, len(members)), (key, rng.choice(pieces)))
        sep = rng.choice([",", ", ", " ,\t"])
        body = sep.join(f'"{k}"{rng.choice([":", " : "])}{v}' for k, v in members)
        data = ("{" + body + rng.choice(["}", " } ", "}\t"])).encode()
        record = json.loads(data)
        got = gold_fields.gold_fields_fast(data, 0, len(data), file_lines.loads_binary)
        if got is None:
            declined += 1
            continue
        taken += 1
        want = (record.get("example_id"), record.get("language"), record.get("annotations"))
        assert got == want and type(got[0]) is type(want[0]), data
    assert taken > 1000 and declined > 100


def _hub_rows(path: Path) -> tuple[list[dict], list[int]]:
    """The rows the Hub tydiqa loading script writes (config primary_task), and the ids it drops."""
    rows, ids = [], []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            data = json.loads(line)
            annotations = data["annotations"]
            rows.append(
                {
                    "language": data["language"],
                    "annotations": {
                        "passage_answer_candidate_index": [
                            a["passage_answer"]["candidate_index"] for a in annotations
                        ],
                        "minimal_answers_start_byte": [
                            a["minimal_answer"]["plaintext_start_byte"] for a in annotations
                        ],
                        "minimal_answers_end_byte": [
                            a["minimal_answer"]["plaintext_end_byte"] for a in annotations
                        ],
                        "yes_no_answer": [a["yes_no_answer"] for a in annotations],
                    },
                }
            )
            ids.append(data["example_id"])
    return rows, ids


def test_hub_rows_of_official_gold_give_the_official_numbers():
    examples = Path(__file__).resolve().parents[1] / "spaces" / "tydiqa" / "examples"
    rows, ids = _hub_rows(examples / "gold.jsonl.gz")
    refs = taskeval.references_from_hub("tydiqa", rows, example_ids=ids)
    preds = [json.loads(line) for line in (examples / "predictions.jsonl").open(encoding="utf-8")]
    preds += [{"example_id": None}] * (len(refs) - len(preds))  # rows pair by example_id
    result = scoring.tydiqa_score(preds, refs)
    # the official script's numbers on the two example files
    assert {k: result[k] for k in scoring.AVG_KEYS} == {
        "avg_passage_f1": 0.7109180872271779,
        "avg_passage_recall": 0.6601406970110698,
        "avg_passage_precision": 0.7881882006882008,
        "avg_minimal_f1": 0.5669310682099976,
        "avg_minimal_recall": 0.545621438459318,
        "avg_minimal_precision": 0.6077278205464693,
    }


_TRICKY_STRINGS = ["]", "[", "\\", '"', "language", "example_id", ":", ",", "}", "{", "] , ", ""]
_TRICKY_KEYS = ["language", "example_id", "annotations", "a", "x y"]


def _tricky_value(rng, depth: int = 0):
    kind = rng.randrange(5 if depth < 3 else 3)
    if kind == 0:
        return "".join(rng.choice(_TRICKY_STRINGS) for _ in range(rng.randrange(4)))
    if kind == 1:
        return rng.choice([0, -1, 7, 1.5, True, None])
    if kind == 2:
        return rng.choice(["thai", "english"])
    if kind == 3:
        return [_tricky_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(_TRICKY_KEYS): _tricky_value(rng, depth + 1) for _ in range(rng.randrange(4))
    }


def test_gold_reader_agrees_with_json_on_tricky_lines(tmp_path):
    """Extra fields holding arrays within objects within arrays, brackets, quotes, backslashes
    and the picked keys themselves in strings and nested records, before and after the picked
    fields, with and without spaces: the fast path reads the top-level fields as json does."""
    rng = random.Random(11)
    lines = []
    for n in range(400):
        record = _record(n)
        items = list(record.items())
        for _ in range(rng.randrange(4)):
            items.insert(
                rng.randrange(len(items) + 1), (rng.choice(_TRICKY_KEYS[3:]), _tricky_value(rng))
            )
        separators = rng.choice([(",", ":"), (", ", ": "), (" , ", " : ")])
        lines.append(
            json.dumps(dict(items), separators=separators, ensure_ascii=rng.random() < 0.5)
        )
    for name in ("gold.jsonl", "gold.jsonl.gz"):
        gold = _write_gold(tmp_path / name, [], lines)
        expected = [scoring.normalize_reference(json.loads(line), "x") for line in lines]
        assert list(inputs.iter_gold(gold)) == expected


def test_an_empty_prediction_file_scores_every_example_unpredicted(tmp_path):
    """The official script's output on the Space's gold with an empty prediction file: int 0s
    (and no language with a prediction)."""
    empty = tmp_path / "predictions.jsonl"
    empty.write_bytes(b"")
    gold = REPO / "spaces" / "tydiqa" / "examples" / "gold.jsonl.gz"
    with pytest.warns(UserWarning, match="no prediction at all; every one of the 300 gold"):
        scores = inputs.score_files(gold, empty)
    assert scores.pop("per_language") == {}
    assert scores == dict.fromkeys(
        [f"avg_{t}_{m}" for t in ("passage", "minimal") for m in ("f1", "recall", "precision")], 0
    )
    assert {type(v) for v in scores.values()} == {int}


def test_the_gold_fast_path_decodes_only_the_annotations_of_a_dev_like_line():
    """Passage candidates (arrays of flat records), document strings with escapes and the other
    fields are skipped without json; the annotations (nested records) are decoded once."""
    record = _record(7, doc='he said \\"yes\\" [1] \\\\', question_text="what?")
    record["passage_answer_candidates"] = [
        {"plaintext_start_byte": k, "plaintext_end_byte": k + 9} for k in range(0, 50, 10)
    ]
    record["document_title"] = "a [title]"
    line = json.dumps(record, ensure_ascii=False).encode()
    calls = []

    def counting(data: bytes):
        calls.append(bytes(data[:1]))
        return json.loads(data)

    fields = gold_fields.gold_fields_fast(line, 0, len(line), counting)
    assert fields == (7, "arabic", record["annotations"])
    assert calls == [b"["]  # the annotations, and nothing else


def test_a_last_gold_line_cut_after_a_key_is_named(tmp_path):
    """No line break at the end, and the line ends right after a key's colon."""
    gold = tmp_path / "gold.jsonl"
    gold.write_bytes(json.dumps(_record(1)).encode() + b'\n{"example_id":')
    with pytest.raises(ValueError, match=r", line 2: not a JSON value \(Expecting value"):
        list(inputs.iter_gold(gold))


# --- fast paths agree with the plain ones ------------------------------------------------------


def test_the_fast_annotation_check_agrees_with_the_plain_one_or_declines():
    """``rows.annotation_fast`` takes every plainly valid annotation (null spans in either
    order included) exactly as ``rows.normalize_annotation`` reads it, and declines the rest."""
    rng = random.Random(7)
    offsets = [-(2**63) - 1, -(2**63), -7, -1, 0, 1, 5, 9, 2**63 - 1, 2**63, 5.0, True, "3", None]
    taken = 0
    for _ in range(5000):
        start, end = rng.choice(offsets), rng.choice(offsets)
        if rng.random() < 0.5:  # mostly plausible spans
            start = rng.choice([-1, -7, -3, 0, 4])
            end = rng.choice([-1, -7, -2, 0, 4, 9])
        index = rng.choice([-1, 0, 3, 2**64, 1.0, False])
        yes_no = rng.choice(["NONE", "none", "YES", "No", "maybe", None, 1])
        if rng.random() < 0.5:
            item = {"candidate_index": index, "start_byte": start, "end_byte": end,
                    "yes_no_answer": yes_no}  # fmt: skip
        else:
            item = {
                "passage_answer": {"candidate_index": index},
                "minimal_answer": {"plaintext_start_byte": start, "plaintext_end_byte": end},
                "yes_no_answer": yes_no,
            }
        fast = row_checks.annotation_fast(item)
        try:
            plain = row_checks.normalize_annotation(item, "x")
        except ValueError:
            assert fast is None, item
            continue
        exact = all(type(v) is int for v in (index, start, end)) and isinstance(yes_no, str)
        assert fast == plain if exact else fast in (None, plain), item
        taken += fast is not None
    assert taken > 300


@pytest.mark.parametrize("seed", range(25))
def test_the_file_paths_agree_with_the_row_paths(tmp_path, seed):
    """``score_files`` (the fast gold reader, the CLI's path) and ``compute(**read_official)``
    give what ``tydiqa_score`` gives on the same rows, null spans in either order included."""
    rng = random.Random(seed)
    ids = rng.sample(range(-50, 50), rng.randint(1, 12))
    nulls = [(-1, -1), (-1, -7), (-7, -1), (-2, -2)]
    records, references, predictions = [], [], []
    for example_id in ids:
        language = rng.choice(["english", "arabic", "thai", "korean"])
        answers = []
        for _ in range(rng.choice([1, 3, 5])):
            start, end = rng.choice(nulls)
            index = rng.randint(-1, 3)
            if index >= 0 and rng.random() < 0.6:
                start = rng.randint(0, 20)
                end = start + rng.randint(1, 6)
            answers.append(_ann(index, start, end, rng.choice(["NONE", "NONE", "YES"])))
        references.append({"example_id": example_id, "language": language, "annotations": answers})
        official = [
            _official_ann(a["candidate_index"], a["start_byte"], a["end_byte"], a["yes_no_answer"])
            for a in answers
        ]
        records.append(_record(example_id, language, doc='d"]}', annotations=official))
        if rng.random() < 0.85:
            start, end = rng.choice(nulls)
            yes_no = rng.choice(["NONE", "YES", "no"])
            if yes_no == "NONE" and rng.random() < 0.6:
                start = rng.randint(0, 22)
                end = start + rng.randint(1, 6)
            score = rng.choice([-1.0, 0.0, 0.5, 1.0, rng.uniform(-2, 2)])
            predictions.append(
                _pred(example_id, language, rng.randint(-1, 3), score, (start, end), yes_no)
            )
    gold = _write_gold(tmp_path / ("gold.jsonl.gz" if seed % 2 else "gold.jsonl"), records)
    preds = tmp_path / "predictions.jsonl"
    preds.write_text("".join(json.dumps(p) + "\n" for p in predictions))
    n = max(len(predictions), len(references))
    rows = {
        "predictions": predictions + [{"example_id": None}] * (n - len(predictions)),
        "references": references + [{"example_id": None}] * (n - len(references)),
    }
    metric = _metric()
    for options in ({}, {"passage_non_null_threshold": 1, "minimal_non_null_threshold": 3}):
        expected = scoring.tydiqa_score(**rows, **options)
        assert_same(inputs.score_files(gold, preds, **options), expected)
        read = taskeval.read_official("tydiqa", references=gold, predictions=preds)
        assert_same(metric.compute(**read, **options), expected)
        with_details = scoring.tydiqa_score(**rows, **options, details=True)
        assert_same({k: v for k, v in with_details.items() if k != "details"}, expected)


_loaded: list = []


def _metric():
    if not _loaded:
        _loaded.append(taskeval.load("tydiqa"))
    return _loaded[0]
