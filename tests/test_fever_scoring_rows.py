"""fever_score's scoring core on unusual rows: which it refuses (naming the row and field), which
it scores, and with which numbers (fixed expected values, the official scorer's output on the
same rows)."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from taskeval.registry import metric_module

from harness import refusal

core = metric_module("fever_score", "scoring")


def test_an_empty_gold_group_before_others_keeps_their_sentences():
    """Evidence groups after an empty one still count as gold sentences for precision.

    fever-scorer 2.0.39 gives (strict 1.0, accuracy 1.0, precision 0.5, recall 1.0, f1 2/3)."""
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["p", 0], ["q", 1]]}]
    references = [{"label": "SUPPORTS", "evidence": [[], [[None, None, "p", 0]]]}]
    expected = {
        "strict_score": 1.0,
        "label_accuracy": 1.0,
        "evidence_precision": 0.5,
        "evidence_recall": 1.0,
        "evidence_f1": 0.6666666666666666,
    }
    assert core.fever_score(predictions, references) == expected
    # the same rows through the checked path (a record-form sentence leaves the fast path)
    slow = [
        {"predicted_label": "SUPPORTS", "predicted_evidence": [{"page": "p", "line": 0}, ["q", 1]]}
    ]
    assert core.fever_score(slow, references) == expected


def test_rows_off_the_fast_path_score_the_same():
    """Read-only mappings are rows too; they take the checked path, with the same numbers."""
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["p", 0], ["q", 1]]}]
    references = [{"label": "SUPPORTS", "evidence": [[], [[None, None, "p", 0]]]}]
    frozen_predictions = [MappingProxyType(row) for row in predictions]
    frozen_references = [MappingProxyType(row) for row in references]
    assert core.fever_score(frozen_predictions, frozen_references)["evidence_precision"] == 0.5
    assert core.fever_score(predictions, frozen_references)["evidence_precision"] == 0.5


def test_a_predicted_sentence_record_needs_exactly_page_and_line():
    references = [{"label": "SUPPORTS", "evidence": [[[None, None, "p", 0]]]}]
    for record in ({"page": "p", "line": 0, "score": 1.0}, {"page": "p"}):
        predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [record]}]
        with pytest.raises(ValueError, match=r"predictions\[0\].*predicted_evidence"):
            core.fever_score(predictions, references)
    ok = [{"predicted_label": "SUPPORTS", "predicted_evidence": [{"line": 0, "page": "p"}]}]
    assert core.fever_score(ok, references)["evidence_precision"] == 1.0


def test_details_say_why_a_claim_is_not_strictly_right():
    predictions = [
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["p", 0]]},
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["q", 0]]},
        {"predicted_label": "REFUTES", "predicted_evidence": []},
    ]
    references = [
        {"label": "SUPPORTS", "evidence": []},
        {"label": "SUPPORTS", "evidence": [[[None, None, "p", 0]]]},
        {"label": "SUPPORTS", "evidence": []},
    ]
    details = core.fever_score(predictions, references, details=True)["details"]
    assert [d["why"] for d in details] == [
        "right label, but the gold has no evidence group",
        "right label, but no complete gold evidence group in the first 5 sentences",
        "wrong label",
    ]


def test_a_tuple_gold_sentence_is_refused():
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["p", 0]]}]
    references = [{"label": "SUPPORTS", "evidence": [[(None, None, "p", 0)]]}]
    with pytest.raises(ValueError, match=r"references\[0\]"):
        core.fever_score(predictions, references)


def test_a_gold_sentence_with_an_int_page_never_matches_among_valid_ones():
    """Every valid (page, line) type pair in one group, plus an int page, which the official
    scorer compares with the predicted string pages: the group is never complete.

    fever-scorer 2.0.39 gives (0.0, 1.0, 1.0, 0.0, 0.0)."""
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["p", 0]]}]
    group = [
        [None, None, "p", 0],
        [None, None, None, 0],
        [None, None, "p", None],
        [None, None, None, None],
        [None, None, 5, 0],
    ]
    got = core.fever_score(predictions, [{"label": "SUPPORTS", "evidence": [group]}])
    assert tuple(got.values()) == (0.0, 1.0, 1.0, 0.0, 0.0)
    # an int page equal to a predicted page's digits still never matches
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["5", 0]]}]
    got = core.fever_score(predictions, [{"label": "SUPPORTS", "evidence": [[[0, 0, 5, 0]]]}])
    assert tuple(got.values()) == (0.0, 1.0, 0.0, 0.0, 0.0)


def test_rows_that_are_not_records_are_refused():
    good_prediction = {"predicted_label": "SUPPORTS", "predicted_evidence": []}
    good_reference = {"label": "SUPPORTS", "evidence": []}
    for predictions, references, where in (
        ([["SUPPORTS", []]], [good_reference], r"predictions\[0\]"),
        ([good_prediction], [["SUPPORTS", []]], r"references\[0\]"),
    ):
        with pytest.raises(ValueError, match=where):
            core.fever_score(predictions, references)


def test_gold_sentences_without_page_or_line_never_match():
    """fever-scorer 2.0.39 gives (0.0, 1.0, 0.0, 0.0, 0.0): such gold items are accepted and
    never predicted. Through the checked path too (a read-only mapping leaves the fast one)."""
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["p", 0]]}]
    reference = {
        "label": "SUPPORTS",
        "evidence": [[[None, None, None, None]], [[None, None, "p", None]]],
    }
    expected = {
        "strict_score": 0.0,
        "label_accuracy": 1.0,
        "evidence_precision": 0.0,
        "evidence_recall": 0.0,
        "evidence_f1": 0.0,
    }
    assert core.fever_score(predictions, [reference]) == expected
    assert core.fever_score(predictions, [MappingProxyType(reference)]) == expected


def _claims(n: int) -> tuple[list[dict], list[dict]]:
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["A", 1]]}] * n
    references = [{"label": "SUPPORTS", "evidence": [[[0, 0, "A", 1]]]}] * n
    return list(predictions), list(references)


@pytest.mark.parametrize("item", [["A"], []])
def test_a_predicted_item_of_fewer_than_two_fields_is_named(item):
    predictions, references = _claims(1)
    predictions[0] = {"predicted_label": "SUPPORTS", "predicted_evidence": [item]}
    with pytest.raises(ValueError, match=r"predictions\[0\]: field 'predicted_evidence'\[0\]"):
        core.fever_score(predictions, references)


@pytest.mark.parametrize("rows", [[1], [0, 1, 2]])
def test_a_gold_group_that_is_a_tuple_is_refused(rows):
    """Among list groups, and where every group is a tuple (the column-wise check must not take
    a set of other types for lists)."""
    predictions, references = _claims(3)
    for k in rows:
        references[k] = {"label": "SUPPORTS", "evidence": [([0, 0, "A", 1],)]}
    at = rows[0]
    with pytest.raises(
        ValueError, match=rf"references\[{at}\]: field 'evidence'\[0\] must be a list"
    ):
        core.fever_score(predictions, references)


def test_a_line_below_int64_is_refused():
    predictions, references = _claims(2)
    predictions[1] = {"predicted_label": "SUPPORTS", "predicted_evidence": [["A", -(2**70)]]}
    with pytest.raises(ValueError, match=r"predictions\[1\]: .*outside the signed 64-bit range"):
        core.fever_score(predictions, references)


def test_rows_past_the_first_chunk_are_numbered_from_start():
    _, references = _claims(core._CHUNK + 10)
    references[core._CHUNK + 3] = {"label": "SUPPORTS"}
    with pytest.raises(ValueError, match=rf"references\[{core._CHUNK + 8}\]: missing field"):
        core.normalize_references(references, start=5)


@pytest.mark.parametrize("page", [3, None, b"A"])
def test_a_predicted_page_that_is_no_string_is_named_even_when_all_are(page):
    """Every predicted page of the rows of one type other than str (the column-wise check must
    not take a set of other types for strings)."""
    predictions, references = _claims(3)
    predictions = [{**p, "predicted_evidence": [[page, 1]]} for p in predictions]
    assert refusal(core.fever_score, predictions, references) == (
        "predictions[0]: field 'predicted_evidence'[0] must be a [page, line] list or a "
        f"{{'page', 'line'}} record with a string page and an int line, got [{page!r}, 1]"
    )


def test_a_gold_page_that_is_no_string_never_matches_where_every_line_is_none():
    """fever-scorer 2.0.39 gives (0.0, 1.0, 0.0, 0.0, 0.0)."""
    predictions, references = _claims(3)
    references = [{"label": "SUPPORTS", "evidence": [[[None, None, 5, None]]]}] * 3
    got = core.fever_score(predictions, references)
    assert tuple(got.values()) == (0.0, 1.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("n_predictions", [1, 3])
def test_the_official_form_path_leaves_rows_of_other_lengths_to_the_checks(n_predictions):
    predictions, references = _claims(2)
    predictions = (predictions * 2)[:n_predictions]
    assert core.official_form_score(predictions, references, 5) is None
    with pytest.raises(ValueError, match="must have the same length"):
        core.fever_score(predictions, references)


@pytest.mark.parametrize("enabled", [True, False])
def test_scoring_leaves_the_garbage_collector_as_it_was(enabled):
    import gc

    predictions, references = _claims(3)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert core.official_form_score(predictions, references, 5)["strict_score"] == 1.0
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_predicted_rows_past_the_first_chunk_are_numbered_from_start():
    predictions, _ = _claims(core._CHUNK + 10)
    predictions[core._CHUNK + 3] = {"predicted_label": "SUPPORTS"}
    with pytest.raises(ValueError, match=rf"predictions\[{core._CHUNK + 8}\]: missing field"):
        core.normalize_predictions(predictions, start=5)


def test_a_gold_item_of_five_fields_is_read_at_positions_2_and_3():
    """fever-scorer 2.0.39 gives (1.0, 1.0, 1.0, 1.0, 1.0); an item of three is refused."""
    predictions, references = _claims(2)
    references[1] = {"label": "SUPPORTS", "evidence": [[[0, 0, "A", 1, "x"]]]}
    assert tuple(core.fever_score(predictions, references).values()) == (1.0,) * 5
    references[1] = {"label": "SUPPORTS", "evidence": [[[0, "A", 1]]]}
    with pytest.raises(ValueError, match=r"^references\[1\]: field 'evidence'\[0\]\[0\] must be"):
        core.fever_score(predictions, references)


def test_a_string_gold_line_among_ints_and_nulls_is_refused():
    """Lines of three types in one chunk: int, None and one str (the column-wise check must not
    take a wider set of types for the allowed ones)."""
    predictions, references = _claims(3)
    references[1] = {"label": "SUPPORTS", "evidence": [[[0, 0, "A", None]]]}
    references[2] = {"label": "SUPPORTS", "evidence": [[[0, 0, "A", "1"]]]}
    with pytest.raises(ValueError, match=r"^references\[2\]: field 'evidence'\[0\]\[0\] must be"):
        core.fever_score(predictions, references)
