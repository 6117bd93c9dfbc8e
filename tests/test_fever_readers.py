"""fever_score's readers (metrics/fever_score/inputs.py): official files, their own gold on
prediction lines, the option parser and Hub rows, on fixed answers."""

from __future__ import annotations

import json

import pytest

from taskeval.registry import metric_module

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


def test_fever_score_reader_names_the_line_that_is_not_an_object(tmp_path):
    read_official = metric_module("fever_score", "inputs").read_official
    pred = '{"predicted_label": "SUPPORTS", "predicted_evidence": []}\n'
    gold = '{"label": "SUPPORTS", "evidence": []}\n'
    preds, refs = tmp_path / "p.jsonl", tmp_path / "g.jsonl"
    preds.write_text(pred + "[1]\n")
    refs.write_text(gold * 2)
    with pytest.raises(ValueError, match=r"p\.jsonl, line 2: expected a JSON object, got \[1\]"):
        read_official(refs, preds)
    preds.write_text(pred * 3)
    refs.write_text(gold + gold + "3\n")
    with pytest.raises(ValueError, match=r"g\.jsonl, line 3: expected a JSON object, got 3"):
        read_official(refs, preds)
    refs.write_text(gold * 2)
    with pytest.raises(ValueError, match=r"g\.jsonl has 2 lines but .*p\.jsonl has 3"):
        read_official(refs, preds)
    preds.write_text(pred)
    with pytest.raises(ValueError, match=r"g\.jsonl has 2 lines but .*p\.jsonl has 1"):
        read_official(refs, preds)
