"""fever_score specifics the parity corpus does not pin: file reading, Hub rows, the front door."""

from __future__ import annotations

import json

import pytest

import taskeval
from taskeval._metrics.fever_score.inputs import read_official, references_from_hub
from taskeval._metrics.fever_score.scoring import fever_score


def write_jsonl(path, rows) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_blank_line_names_file_and_line(tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text(
        '{"predicted_label": "SUPPORTS", "predicted_evidence": []}\n\n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"p\.jsonl, line 2: a blank line"):
        read_official(None, preds)


def test_blind_mode_without_references_names_the_line(tmp_path):
    preds = write_jsonl(
        tmp_path / "p.jsonl", [{"predicted_label": "SUPPORTS", "predicted_evidence": []}]
    )
    with pytest.raises(ValueError, match=r"line 1: no gold 'label' and 'evidence'"):
        read_official(None, preds)


def test_blind_mode_length_mismatch(tmp_path):
    preds = write_jsonl(
        tmp_path / "p.jsonl", [{"predicted_label": "S", "predicted_evidence": []}] * 2
    )
    gold = write_jsonl(tmp_path / "g.jsonl", [{"label": "S", "evidence": []}])
    with pytest.raises(ValueError, match=r"has 1 lines but .* has 2"):
        read_official(gold, preds)


def test_gold_line_without_label_is_named(tmp_path):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"predicted_label": "S", "predicted_evidence": []}])
    gold = write_jsonl(tmp_path / "g.jsonl", [{"evidence": []}])
    with pytest.raises(ValueError, match=r"g\.jsonl, line 1: missing gold field 'label'"):
        read_official(gold, preds)


def test_read_official_keeps_ids_and_drops_gold_fields_from_predictions(tmp_path):
    row = {
        "id": 9,
        "predicted_label": "S",
        "predicted_evidence": [["a", 1]],
        "label": "S",
        "evidence": [],
    }
    preds = write_jsonl(tmp_path / "p.jsonl", [row])
    got = read_official(None, preds)
    assert got == {
        "predictions": [{"id": 9, "predicted_label": "S", "predicted_evidence": [["a", 1]]}],
        "references": [{"id": 9, "label": "S", "evidence": []}],
    }


def test_records_and_official_lists_score_the_same():
    lists = {
        "predictions": [
            {"predicted_label": "SUPPORTS", "predicted_evidence": [["A", 1], ["D", 5], ["B", 2]]}
        ],
        "references": [
            {"label": "SUPPORTS", "evidence": [[[1, 2, "A", 1]], [[3, 4, "B", 2], [3, 4, "C", 0]]]}
        ],
    }
    records = {
        "predictions": [
            {
                "predicted_label": "SUPPORTS",
                "predicted_evidence": [
                    {"page": "A", "line": 1},
                    {"page": "D", "line": 5},
                    {"page": "B", "line": 2},
                ],
            }
        ],
        "references": [
            {
                "label": "SUPPORTS",
                "evidence": [
                    [{"page": "A", "line": 1}],
                    [
                        {"annotation_id": 3, "evidence_id": 4, "page": "B", "line": 2},
                        {"page": "C", "line": 0},
                    ],
                ],
            }
        ],
    }
    # official (fever-scorer 2.0.39): two of three sentences are gold; group 1 is complete
    expected = {
        "strict_score": 1.0,
        "label_accuracy": 1.0,
        "evidence_precision": 2 / 3,
        "evidence_recall": 1.0,
        "evidence_f1": 0.8,
    }
    assert fever_score(**lists) == expected
    assert fever_score(**records) == expected
    assert taskeval.load("fever_score").compute(**records) == expected


HUB_ROWS = [
    # One row per evidence sentence, as in the Hub `fever` dataset, config v1.0.
    dict(id=75397, label="SUPPORTS", claim="c1", evidence_annotation_id=92206, evidence_id=104971,
         evidence_wiki_url="Nikolaj_Coster-Waldau", evidence_sentence_id=7),
    dict(id=75397, label="SUPPORTS", claim="c1", evidence_annotation_id=92206, evidence_id=104971,
         evidence_wiki_url="Fox_Broadcasting_Company", evidence_sentence_id=0),
    dict(id=150448, label="SUPPORTS", claim="c2", evidence_annotation_id=174271, evidence_id=187498,
         evidence_wiki_url="Roman_Atwood", evidence_sentence_id=1),
    dict(id=75397, label="SUPPORTS", claim="c1", evidence_annotation_id=92207, evidence_id=104972,
         evidence_wiki_url="Nikolaj_Coster-Waldau", evidence_sentence_id=7),
    dict(id=225709, label="NOT ENOUGH INFO", claim="c3", evidence_annotation_id=265402, evidence_id=-1,
         evidence_wiki_url="", evidence_sentence_id=-1),
]  # fmt: skip


def test_references_from_hub_groups_by_annotation_and_evidence_id():
    assert references_from_hub(HUB_ROWS) == [
        {
            "id": 75397,
            "label": "SUPPORTS",
            "evidence": [
                [
                    [92206, 104971, "Nikolaj_Coster-Waldau", 7],
                    [92206, 104971, "Fox_Broadcasting_Company", 0],
                ],
                [[92207, 104972, "Nikolaj_Coster-Waldau", 7]],
            ],
        },
        {"id": 150448, "label": "SUPPORTS", "evidence": [[[174271, 187498, "Roman_Atwood", 1]]]},
        {"id": 225709, "label": "NOT ENOUGH INFO", "evidence": [[[265402, None, None, None]]]},
    ]
    assert taskeval.references_from_hub("fever_score", HUB_ROWS) == references_from_hub(HUB_ROWS)


def test_references_from_hub_scores():
    refs = references_from_hub(HUB_ROWS)
    preds = [
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["Nikolaj_Coster-Waldau", 7]]},
        {"predicted_label": "REFUTES", "predicted_evidence": [["Roman_Atwood", 1]]},
        {"predicted_label": "NOT ENOUGH INFO", "predicted_evidence": []},
    ]
    assert fever_score(preds, refs) == {
        "strict_score": 2 / 3,
        "label_accuracy": 2 / 3,
        "evidence_precision": 1.0,
        "evidence_recall": 1.0,
        "evidence_f1": 1.0,
    }


def test_hub_sentence_minus_one_with_a_page_is_sentence_zero():
    # The Hub loading script writes sentence 0 (falsy) as -1; a claim and its perfect prediction.
    rows = [
        dict(id=1, label="SUPPORTS", claim="c", evidence_annotation_id=5, evidence_id=6,
             evidence_wiki_url="A", evidence_sentence_id=-1),
        dict(id=2, label="REFUTES", claim="c", evidence_annotation_id=7, evidence_id=8,
             evidence_wiki_url="B", evidence_sentence_id=3),
        dict(id=2, label="REFUTES", claim="c", evidence_annotation_id=7, evidence_id=8,
             evidence_wiki_url="C", evidence_sentence_id=-1),
        dict(id=3, label="SUPPORTS", claim="c", evidence_annotation_id=-1, evidence_id=-1,
             evidence_wiki_url="", evidence_sentence_id=-1),
    ]  # fmt: skip
    refs = references_from_hub(rows)
    assert refs == [
        {"id": 1, "label": "SUPPORTS", "evidence": [[[5, 6, "A", 0]]]},
        {"id": 2, "label": "REFUTES", "evidence": [[[7, 8, "B", 3], [7, 8, "C", 0]]]},
        {"id": 3, "label": "SUPPORTS", "evidence": []},  # the script's row for empty evidence
    ]
    preds = [
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["A", 0]]},
        {"predicted_label": "REFUTES", "predicted_evidence": [["C", 0], ["B", 3]]},
        {"predicted_label": "SUPPORTS", "predicted_evidence": []},
    ]
    # official on the original gold: an empty gold evidence list gives recall 1 but strict 0
    assert fever_score(preds, refs) == {
        "strict_score": 2 / 3,
        "label_accuracy": 1.0,
        "evidence_precision": 1.0,
        "evidence_recall": 1.0,
        "evidence_f1": 1.0,
    }


def test_references_from_hub_rejects_bad_rows():
    with pytest.raises(ValueError, match=r"rows\[0\].*evidence_id"):
        references_from_hub([{"id": 1, "label": "SUPPORTS", "evidence_annotation_id": 1}])
    conflicting = [HUB_ROWS[0], {**HUB_ROWS[1], "label": "REFUTES"}]
    with pytest.raises(ValueError, match=r"rows\[1\] \(id 75397\): field 'label'"):
        references_from_hub(conflicting)
    unlabelled = {**HUB_ROWS[0], "label": ""}
    with pytest.raises(ValueError, match=r"rows\[0\] \(id 75397\).*unlabelled"):
        references_from_hub([unlabelled])
    empty_and_evidence = [{**HUB_ROWS[0], "evidence_wiki_url": "", "evidence_sentence_id": -1}]
    with pytest.raises(ValueError, match=r"rows\[1\] \(id 75397\).*empty gold evidence"):
        references_from_hub([*empty_and_evidence, HUB_ROWS[1]])


def test_core_does_not_mutate_and_rejects_generators():
    preds = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["A", 1]]}]
    refs = [{"label": "SUPPORTS", "evidence": [[[1, 2, "A", 1]]]}]
    before = json.dumps([preds, refs])
    fever_score(preds, refs, max_evidence=0)
    assert json.dumps([preds, refs]) == before
    with pytest.raises(ValueError, match="predictions must be a list"):
        fever_score((p for p in preds), refs)


def test_details_explain_each_claim_and_add_up_to_the_scores():
    import random

    from entries.fever_score import random_rows

    inputs = random_rows(random.Random(3), 300)
    metric = taskeval.load("fever_score")
    direct = metric.compute(**inputs, details=True)
    metric.add_batch(**inputs)
    assert metric.compute(details=True) == direct  # the Arrow path explains the same way
    rows = direct["details"]
    assert [r["row"] for r in rows] == list(range(300))
    assert direct["label_accuracy"] == sum(r["label_correct"] for r in rows) / 300
    assert direct["strict_score"] == sum(r["strict"] for r in rows) / 300
    counted = [r for r in rows if r["evidence_precision"] is not None]
    total = 0.0
    for r in counted:
        total += r["evidence_precision"]
    assert direct["evidence_precision"] == total / len(counted)
    assert {r["why"] for r in rows} >= {
        "wrong label",
        "right label; NOT ENOUGH INFO needs no evidence",
        "right label and a complete gold evidence group",
    }
    # the numbers themselves are the official scorer's (blind mode: gold from `actual`)
    official = pytest.importorskip("fever.scorer").fever_score
    keys = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall")
    expected = official(
        [dict(p) for p in inputs["predictions"]], [dict(r) for r in inputs["references"]]
    )
    assert {k: v for k, v in direct.items() if k != "details"} == dict(
        zip((*keys, "evidence_f1"), expected)
    )
