"""fever_score's scoring core on cases mutation testing found unchecked (fixed expected values,
the official scorer's output on the same rows)."""

from __future__ import annotations

import json
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


# --- the FEVER readers (inputs.py) ---------------------------------------------------------------

inputs = metric_module("fever_score", "inputs")
RIGHT = {"predicted_label": "SUPPORTS", "predicted_evidence": [["A", 1]]}
OWN_GOLD = {"label": "SUPPORTS", "evidence": [[[0, 0, "A", 1]]]}


def _jsonl(path, rows: list) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_prediction_lines_with_their_own_gold_keep_it_among_others(tmp_path, monkeypatch):
    """Lines 0 and 1 carry their gold (the gold file's lines 0 and 1 then do not count); lines
    2 and 3 take the gold file's: label accuracy 3/4, strict 3/4 (line 2's label is wrong).
    Valid lines are scored as parsed, without the checking path."""

    def checking_path(*args, **kwargs):
        raise AssertionError("valid lines went to the checking path")

    monkeypatch.setattr(inputs, "read_official", checking_path)
    predictions = [{**RIGHT, **OWN_GOLD}, {**RIGHT, **OWN_GOLD}, RIGHT, RIGHT]
    other = {"label": "REFUTES", "evidence": [[[0, 0, "B", 2]]]}
    gold = [other, other, other, OWN_GOLD]
    scores = inputs.score_files(
        _jsonl(tmp_path / "g.jsonl", gold), _jsonl(tmp_path / "p.jsonl", predictions)
    )
    assert (scores["label_accuracy"], scores["strict_score"]) == (0.75, 0.75)
    alone = inputs.score_files(None, _jsonl(tmp_path / "own.jsonl", predictions[:2]))
    assert (alone["label_accuracy"], alone["strict_score"]) == (1.0, 1.0)


def test_lines_without_gold_and_a_gold_file_of_another_length_are_refused(tmp_path):
    predictions = _jsonl(tmp_path / "p.jsonl", [{**RIGHT, **OWN_GOLD}, RIGHT, RIGHT])
    gold = _jsonl(tmp_path / "g.jsonl", [OWN_GOLD] * 2)
    with pytest.raises(ValueError, match=r"has 2 lines but .* has 3"):
        inputs.score_files(gold, predictions)


def test_read_official_keeps_an_id_from_either_file(tmp_path):
    gold = _jsonl(tmp_path / "g.jsonl", [OWN_GOLD, {**OWN_GOLD, "id": 7}, OWN_GOLD])
    preds = _jsonl(tmp_path / "p.jsonl", [{**RIGHT, "id": 5}, RIGHT, RIGHT])
    refs = inputs.read_official(gold, preds)["references"]
    assert [r.get("id", "none") for r in refs] == [5, 7, "none"]


def test_the_max_evidence_option_reads_none_or_an_int():
    parse = inputs.OPTIONS["max_evidence"][0]
    assert [parse(t) for t in ("None", "null", "NONE", "3", "0")] == [None, None, None, 3, 0]


def _hub(claim_id, label, annotation_id, evidence_id, page, line) -> dict:
    return dict(id=claim_id, label=label, claim="c", evidence_annotation_id=annotation_id,
                evidence_id=evidence_id, evidence_wiki_url=page, evidence_sentence_id=line)  # fmt: skip


def test_hub_ids_of_minus_one_are_none_and_others_kept():
    rows = [
        _hub(1, "SUPPORTS", -1, -1, "A", -1),
        _hub(1, "SUPPORTS", 0, 0, "A", 3),
        _hub(1, "SUPPORTS", 1, 1, "A", 0),
        _hub(1, "SUPPORTS", -2, -2, "A", 1),
        _hub(1, "SUPPORTS", 2, 2, "A", -2),  # only -1 is the "first sentence" of the Hub
        _hub(2, "NOT ENOUGH INFO", -1, -1, "", -1),
    ]
    assert inputs.references_from_hub(rows) == [
        {
            "id": 1,
            "label": "SUPPORTS",
            "evidence": [
                [[None, None, "A", 0]], [[0, 0, "A", 3]], [[1, 1, "A", 0]], [[-2, -2, "A", 1]],
                [[2, 2, "A", -2]],
            ],
        },
        {"id": 2, "label": "NOT ENOUGH INFO", "evidence": [[[None, None, None, None]]]},
    ]  # fmt: skip


@pytest.mark.parametrize("labels", [("REFUTES", "SUPPORTS"), ("SUPPORTS", "REFUTES")])
def test_hub_rows_of_one_claim_with_two_labels_are_refused(labels):
    rows = [_hub(1, labels[0], 0, 0, "A", 1), _hub(1, labels[1], 1, 1, "A", 2)]
    with pytest.raises(ValueError, match=rf"is '{labels[1]}' but an earlier row of the same claim"):
        inputs.references_from_hub(rows)
