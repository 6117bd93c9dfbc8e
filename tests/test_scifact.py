"""scifact_abstract / scifact_sentence: the shared folders, combine, rules the parity corpus does not
pin, the official-file readers and the Hub-rows converter."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import evaluate
import numpy as np
import pytest
from scifact_cases import ABSTRACT_KEYS, SCIFACT_EXAMPLE_SCORES, SENTENCE_KEYS, random_rows

import taskeval
from taskeval._metrics.scifact_abstract.scoring import (
    ABSTRACT_OUTCOMES,
    SENTENCE_OUTCOMES,
    abstract_details,
    check_pairs,
    check_predictions,
    check_references,
    prediction_records,
    reference_records,
    scifact_scores,
    sentence_details,
)

from harness import PARITY, REPO, read_json, refusal

CASES = PARITY / "scifact" / "cases"
needs_corpus = pytest.mark.skipif(
    not CASES.is_dir() and not os.environ.get("CI"), reason="parity corpus absent"
)

CLAIM_52_GOLD = {
    "id": 52,
    "evidence": [
        {"doc_id": "11", "label": "SUPPORT", "sentences": [0, 1]},
        {"doc_id": "11", "label": "SUPPORT", "sentences": [11]},
        {"doc_id": "15", "label": "SUPPORT", "sentences": [4]},
    ],
}
CLAIM_52_PRED = {
    "id": 52,
    "evidence": [
        {"doc_id": "11", "label": "SUPPORT", "sentences": [1, 11, 13]},
        {"doc_id": "16", "label": "CONTRADICT", "sentences": [18, 20]},
    ],
}
CLAIM_52_SCORES = {
    **dict.fromkeys(ABSTRACT_KEYS, 0.5),
    "sentence_selection_precision": 0.2,
    "sentence_selection_recall": 0.25,
    "sentence_selection_f1": 0.22222222222222224,
    "sentence_label_precision": 0.2,
    "sentence_label_recall": 0.25,
    "sentence_label_f1": 0.22222222222222224,
}


@pytest.fixture(scope="module")
def both():
    return evaluate.combine([taskeval.load("scifact_abstract"), taskeval.load("scifact_sentence")])


def _one(gold_evidence: list, predicted_evidence: list) -> dict:
    return scifact_scores(
        [{"id": 1, "evidence": predicted_evidence}], [{"id": 1, "evidence": gold_evidence}]
    )


def _doc(sentences, label="SUPPORT", doc_id="9") -> dict:
    return {"doc_id": doc_id, "label": label, "sentences": sentences}


# --- the two folders share one core and one reader --------------------------------------------


@pytest.mark.parametrize(
    "module", ["scoring.py", "rows.py", "details.py", "fast_counts.py", "inputs.py"]
)
def test_sentence_folder_links_to_the_abstract_sources(module):
    link = REPO / "metrics" / "scifact_sentence" / module
    assert link.is_symlink()
    assert os.readlink(link) == f"../scifact_abstract/{module}"
    assert link.resolve() == (REPO / "metrics" / "scifact_abstract" / module).resolve()
    assert not (REPO / "metrics" / "scifact_abstract" / module).is_symlink()


@pytest.mark.parametrize("name", ["scifact_abstract", "scifact_sentence"])
def test_evaluate_load_of_each_folder_by_path(name):
    metric = evaluate.load(str(REPO / "metrics" / name))
    result = metric.compute(predictions=[CLAIM_52_PRED], references=[CLAIM_52_GOLD])
    keys = ABSTRACT_KEYS if name == "scifact_abstract" else SENTENCE_KEYS
    assert list(result) == keys
    assert result == {k: CLAIM_52_SCORES[k] for k in keys}


@pytest.mark.parametrize("name", ["scifact_abstract", "scifact_sentence"])
def test_evaluate_copies_every_module_the_metric_reaches(name):
    """evaluate's loader copies only the modules the script imports itself: the rule's modules,
    including those ``scoring`` reaches lazily (details, the one-pass file count), must be there."""
    import importlib
    import sys

    metric = evaluate.load(str(REPO / "metrics" / name))
    script = sys.modules[type(metric).__module__]
    copied = {p.name for p in Path(script.__file__).parent.glob("*.py")}
    assert {"scoring.py", "rows.py", "details.py", "fast_counts.py"} <= copied
    package = script.__name__.rpartition(".")[0]
    scoring = importlib.import_module(f"{package}.scoring")
    assert scoring.official_counts.__module__ == f"{package}.fast_counts"
    assert scoring.ABSTRACT_OUTCOMES[0] == scoring.SENTENCE_OUTCOMES[0] == "correct"
    assert scoring.check_pairs.__module__ == f"{package}.rows"
    assert not hasattr(scoring, "no_such_name")
    result = metric.compute(predictions=[CLAIM_52_PRED], references=[CLAIM_52_GOLD], details=True)
    assert len(result["details"]) == (3 if name == "scifact_abstract" else 7)


@needs_corpus
def test_combine_gives_the_leaderboard_numbers_of_a_real_case(both):
    case = CASES / "dev_multivers_covidfact_ckpt"
    inputs = taskeval.read_official(
        "scifact_abstract", references=case / "gold.jsonl", predictions=case / "predictions.jsonl"
    )
    result = both.compute(**inputs)
    expected = read_json(case / "expected.json")
    assert list(result) == list(expected)
    assert result == expected


def _one_entry_per_doc(inputs: dict) -> dict:
    """Random rows in the official form, where a claim predicts each doc at most once."""
    for pred in inputs["predictions"]:
        seen: set = set()
        pred["evidence"] = [
            e for e in pred["evidence"] if not (e["doc_id"] in seen or seen.add(e["doc_id"]))
        ]
    return inputs


# The official evaluator (verbose) on random_rows(Random(seed), n), one entry per predicted doc.
OFFICIAL_RANDOM = {
    (11, 400): {
        "abstract_label_only_precision": 0.2463295269168026,
        "abstract_label_only_recall": 0.34553775743707094,
        "abstract_label_only_f1": 0.28761904761904766,
        "abstract_rationalized_precision": 0.1272430668841762,
        "abstract_rationalized_recall": 0.17848970251716248,
        "abstract_rationalized_f1": 0.1485714285714286,
        "sentence_selection_precision": 0.5047318611987381,
        "sentence_selection_recall": 0.4878048780487805,
        "sentence_selection_f1": 0.49612403100775193,
        "sentence_label_precision": 0.2655099894847529,
        "sentence_label_recall": 0.25660569105691056,
        "sentence_label_f1": 0.26098191214470284,
    },
    (5, 300): {
        "abstract_label_only_precision": 0.2634032634032634,
        "abstract_label_only_recall": 0.3294460641399417,
        "abstract_label_only_f1": 0.2927461139896373,
        "abstract_rationalized_precision": 0.14219114219114218,
        "abstract_rationalized_recall": 0.17784256559766765,
        "abstract_rationalized_f1": 0.15803108808290156,
        "sentence_selection_precision": 0.49417249417249415,
        "sentence_selection_recall": 0.4612037708484409,
        "sentence_selection_f1": 0.477119279819955,
        "sentence_label_precision": 0.2517482517482518,
        "sentence_label_recall": 0.23495286439448876,
        "sentence_label_f1": 0.24306076519129782,
    },
}


def test_compute_gives_the_official_numbers_on_random_claims(both):
    inputs = _one_entry_per_doc(random_rows(random.Random(11), 400))
    assert both.compute(**inputs) == OFFICIAL_RANDOM[11, 400]


def test_score_files_prints_each_metric_its_six_keys(tmp_path):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    official_gold = {
        "id": 52,
        "claim": "c",
        "evidence": {
            "11": [
                {"sentences": [0, 1], "label": "SUPPORT"},
                {"sentences": [11], "label": "SUPPORT"},
            ],
            "15": [{"sentences": [4], "label": "SUPPORT"}],
        },
        "cited_doc_ids": [11, 15],
    }
    official_pred = {
        "id": 52,
        "evidence": {
            "11": {"sentences": [1, 11, 13], "label": "SUPPORT"},
            "16": {"sentences": [18, 20], "label": "CONTRADICT", "label_probs": [0.1, 0.9]},
        },
    }
    gold.write_text(json.dumps(official_gold) + "\n", encoding="utf-8")
    pred.write_text(json.dumps(official_pred) + "\n", encoding="utf-8")
    inputs = taskeval.read_official("scifact_sentence", references=gold, predictions=pred)
    assert inputs == {"predictions": [CLAIM_52_PRED], "references": [CLAIM_52_GOLD]}
    for name, keys in (("scifact_abstract", ABSTRACT_KEYS), ("scifact_sentence", SENTENCE_KEYS)):
        printed = taskeval.score_files(name, references=gold, predictions=pred)
        assert list(printed) == keys
        assert printed == {k: CLAIM_52_SCORES[k] for k in keys}


# --- rules of the spec ---------------------------------------------------------------------------


def test_worked_example_and_f1_from_float_precision_and_recall():
    scores = _one(CLAIM_52_GOLD["evidence"], CLAIM_52_PRED["evidence"])
    assert scores == CLAIM_52_SCORES
    assert scores["sentence_selection_f1"] != 2 / 9


def test_cut_is_raised_to_the_smallest_rationale_when_all_are_longer_than_three():
    long_only = [_doc([2, 3, 4, 5])]
    assert _one(long_only, [_doc([5, 4, 3, 2])])["abstract_rationalized_f1"] == 1.0
    assert _one(long_only, [_doc([9, 2, 3, 4, 5])])["abstract_rationalized_f1"] == 0.0
    two_long = [_doc([1, 2, 3, 4, 5]), _doc([6, 7, 8, 9])]
    assert _one(two_long, [_doc([6, 7, 8, 9, 1])])["abstract_rationalized_f1"] == 1.0
    # One short rationale keeps the cut at 3, even though the 4-sentence one is fully predicted.
    with_short = [_doc([1, 2, 3, 4]), _doc([7])]
    scores = _one(with_short, [_doc([1, 2, 3, 4])])
    assert scores["abstract_rationalized_f1"] == 0.0
    assert scores["sentence_selection_recall"] == 0.8


def test_duplicates_use_up_cut_slots_and_count_as_retrieved():
    scores = _one([_doc([4])], [_doc([3, 3, 3, 4])])
    assert scores["abstract_label_only_f1"] == 1.0
    assert scores["abstract_rationalized_f1"] == 0.0
    assert scores["sentence_selection_precision"] == 0.25
    assert scores["sentence_selection_recall"] == 1.0


def test_wrong_label_keeps_selection_credit_only():
    scores = _one([_doc([1, 2])], [_doc([2, 1], label="CONTRADICT")])
    assert scores["sentence_selection_recall"] == 1.0
    assert scores["sentence_label_recall"] == 0.0
    assert scores["abstract_label_only_recall"] == scores["abstract_rationalized_recall"] == 0.0


def test_a_repeated_predicted_doc_keeps_its_last_entry():
    last = _one([_doc([1])], [_doc([1]), _doc([7], label="CONTRADICT")])
    assert last == _one([_doc([1])], [_doc([7], label="CONTRADICT")])
    first = _one([_doc([1])], [_doc([7], label="CONTRADICT"), _doc([1])])
    assert first == _one([_doc([1])], [_doc([1])])


def test_doc_ids_are_compared_verbatim():
    scores = _one([_doc([3], doc_id="1200")], [_doc([3], doc_id="01200")])
    assert scores == dict.fromkeys(ABSTRACT_KEYS + SENTENCE_KEYS, 0.0)


def test_no_claims_or_no_evidence_gives_zeros(both):
    zeros = dict.fromkeys(ABSTRACT_KEYS + SENTENCE_KEYS, 0.0)
    assert both.compute(predictions=[], references=[]) == zeros
    nei = [{"id": 1, "evidence": []}, {"id": 6, "evidence": []}]
    assert both.compute(predictions=nei, references=nei) == zeros
    fp = [{"id": 1, "evidence": [_doc([0, 1])]}, {"id": 6, "evidence": []}]
    assert both.compute(predictions=fp, references=nei) == zeros


def test_tuples_and_numpy_integers_are_accepted(both):
    pred = {"id": np.int64(52), "evidence": tuple(CLAIM_52_PRED["evidence"])}
    gold = {
        "id": 52,
        "evidence": [
            {**e, "sentences": tuple(np.int32(s) for s in e["sentences"])}
            for e in CLAIM_52_GOLD["evidence"]
        ],
    }
    assert both.compute(predictions=[pred], references=[gold]) == CLAIM_52_SCORES


def test_add_checks_each_row_before_encoding():
    metric = taskeval.load("scifact_sentence")
    bad = {"id": 8, "evidence": [_doc(["1"])]}
    with pytest.raises(ValueError, match=r"predictions\[0\] \(id 8\): field 'evidence'\[0\]"):
        metric.add(prediction=bad, reference={"id": 8, "evidence": []})
    with pytest.raises(ValueError, match="does not match"):
        metric.add(prediction={"id": 8, "evidence": []}, reference={"id": 9, "evidence": []})


# --- official-file readers ------------------------------------------------------------------------

_GOLD_LINE = '{"id": 1, "evidence": {"11": [{"sentences": [1], "label": "SUPPORT"}]}}'
_PRED_LINE = '{"id": 1, "evidence": {"11": {"sentences": [1], "label": "SUPPORT"}}}'


@pytest.mark.parametrize(
    "gold,pred,fragments",
    [
        ("{not json", _PRED_LINE, ["gold.jsonl, line 1", "not a JSON value"]),
        (_GOLD_LINE + "\n\n" + _GOLD_LINE, _PRED_LINE, ["gold.jsonl, line 2"]),
        ("[1, 2]", _PRED_LINE, ["gold.jsonl, line 1", "JSON object"]),
        ('{"id": 1}', _PRED_LINE, ["gold.jsonl, line 1", "'evidence'"]),
        (_GOLD_LINE, '{"evidence": {}}', ["pred.jsonl, line 1", "'id'"]),
        (_GOLD_LINE, '{"id": 1, "evidence": []}', ["pred.jsonl, line 1 (id 1)", "'evidence'"]),
        ('{"id": 1, "evidence": {"11": []}}', _PRED_LINE, ["line 1 (id 1)", "'evidence'['11']"]),
        (
            '{"id": 1, "evidence": {"11": [{"sentences": [1]}]}}',
            _PRED_LINE,
            ["gold.jsonl, line 1 (id 1)", "'evidence'['11'][0]", "'label'"],
        ),
        (
            _GOLD_LINE,
            '{"id": 1, "evidence": {"11": {"label": "SUPPORT"}}}',
            ["pred.jsonl, line 1 (id 1)", "'evidence'['11']", "'sentences'"],
        ),
    ],
)
def test_read_official_names_file_line_and_field(tmp_path, gold, pred, fragments):
    (tmp_path / "gold.jsonl").write_text(gold + "\n", encoding="utf-8")
    (tmp_path / "pred.jsonl").write_text(pred + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as info:
        taskeval.read_official(
            "scifact_abstract",
            references=tmp_path / "gold.jsonl",
            predictions=tmp_path / "pred.jsonl",
        )
    for fragment in fragments:
        assert fragment in str(info.value)


def test_read_official_needs_the_gold_file(tmp_path):
    (tmp_path / "pred.jsonl").write_text(_PRED_LINE + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="gold"):
        taskeval.read_official("scifact_sentence", predictions=tmp_path / "pred.jsonl")


def test_read_official_keeps_the_last_of_a_repeated_doc_key(tmp_path):
    (tmp_path / "gold.jsonl").write_text(_GOLD_LINE + "\n", encoding="utf-8")
    pred = '{"id": 1, "evidence": {"11": {"sentences": [9], "label": "SUPPORT"}, "11": {"sentences": [1], "label": "CONTRADICT"}}}'
    (tmp_path / "pred.jsonl").write_text(pred + "\n", encoding="utf-8")
    inputs = taskeval.read_official(
        "scifact_abstract", references=tmp_path / "gold.jsonl", predictions=tmp_path / "pred.jsonl"
    )
    assert inputs["predictions"][0]["evidence"] == [_doc([1], "CONTRADICT", "11")]


# --- Hub rows (allenai/scifact, config "claims": one row per gold rationale) --------------------


def _hub(claim_id, doc_id="", label="", sentences=(), cited=(11, 15)) -> dict:
    return {
        "id": claim_id,
        "claim": f"claim {claim_id}",
        "evidence_doc_id": doc_id,
        "evidence_label": label,
        "evidence_sentences": None if sentences is None else list(sentences),
        "cited_doc_ids": list(cited),
    }


HUB_ROWS = [
    _hub(52, "11", "SUPPORT", [0, 1]),
    _hub(52, "11", "SUPPORT", [11]),
    _hub(52, "15", "SUPPORT", [4]),
    _hub(53, cited=[7]),
    _hub(54, "7", "CONTRADICT", [2], cited=[7]),
]


def test_references_from_hub_groups_rationale_rows_by_claim():
    refs = taskeval.references_from_hub("scifact_abstract", HUB_ROWS)
    assert refs == [
        CLAIM_52_GOLD,
        {"id": 53, "evidence": []},
        {"id": 54, "evidence": [_doc([2], "CONTRADICT", "7")]},
    ]
    preds = [CLAIM_52_PRED, {"id": 53, "evidence": []}, {"id": 54, "evidence": []}]
    scores = scifact_scores(preds, refs)
    assert scores["abstract_label_only_precision"] == 0.5
    assert scores["abstract_label_only_recall"] == 1 / 3
    assert scores["sentence_selection_recall"] == 0.2
    assert taskeval.references_from_hub("scifact_sentence", HUB_ROWS) == refs


def test_references_from_hub_keeps_claim_order_when_rows_interleave():
    rows = [HUB_ROWS[0], HUB_ROWS[3], HUB_ROWS[1], HUB_ROWS[2]]
    refs = taskeval.references_from_hub("scifact_abstract", rows)
    assert refs == [CLAIM_52_GOLD, {"id": 53, "evidence": []}]


@pytest.mark.parametrize(
    "rows,fragments",
    [
        ([{"id": 1, "claim": "c"}], ["rows[0]", "evidence_doc_id"]),
        ([_hub(1, cited=[])], ["rows[0] (id 1)", "test split"]),
        ([_hub(1, "", "SUPPORT", [])], ["rows[0] (id 1)", "'evidence_doc_id' is empty"]),
        ([_hub(1), _hub(1, "11", "SUPPORT", [1])], ["rows[1] (id 1)", "NOT ENOUGH INFO"]),
        ([_hub(1, "11", "SUPPORT", None)], ["rows[0] (id 1)", "'evidence_sentences'"]),
        (["not a row"], ["rows[0]"]),
    ],
)
def test_references_from_hub_errors(rows, fragments):
    with pytest.raises(ValueError) as info:
        taskeval.references_from_hub("scifact_abstract", rows)
    for fragment in fragments:
        assert fragment in str(info.value)


@needs_corpus
def test_hub_rows_built_from_the_real_dev_gold_score_like_the_official_file():
    case = CASES / "dev_multivers_healthver_ckpt"
    rows = []
    for line in (case / "gold.jsonl").read_text(encoding="utf-8").splitlines():
        claim = json.loads(line)
        if not claim["evidence"]:
            rows.append(_hub(claim["id"], cited=claim["cited_doc_ids"]))
        for doc_id, rationales in claim["evidence"].items():
            for r in rationales:
                rows.append(_hub(claim["id"], doc_id, r["label"], r["sentences"]))
    assert len(rows) == 450  # the Hub's validation split has 450 rows
    refs = taskeval.references_from_hub("scifact_abstract", rows)
    inputs = taskeval.read_official(
        "scifact_abstract", references=case / "gold.jsonl", predictions=case / "predictions.jsonl"
    )
    assert refs == inputs["references"]
    assert scifact_scores(inputs["predictions"], refs) == read_json(case / "expected.json")


def test_each_folder_has_the_contract_files():
    for name in ("scifact_abstract", "scifact_sentence"):
        files = {p.name for p in Path(taskeval.metric_dir(name)).iterdir()}
        assert files >= {f"{name}.py", "scoring.py", "inputs.py", "README.md", "requirements.txt"}


# --- per-item details ------------------------------------------------------------------------------

_DETAIL_COUNTS = {
    # metric: (retrieved, relevant, correct of the first metric, correct of the second metric)
    "scifact_abstract": ("predicted", "gold", "label_only", "rationalized"),
    "scifact_sentence": ("predicted", "relevant", "selected", "label_correct"),
}
KEYS_BY_METRIC = {"scifact_abstract": ABSTRACT_KEYS, "scifact_sentence": SENTENCE_KEYS}


def _tally(details: list[dict], name: str) -> tuple[int, ...]:
    return tuple(sum(1 for d in details if d[field]) for field in _DETAIL_COUNTS[name])


def _scores_from_tally(name: str, tally: tuple[int, ...]) -> dict[str, float]:
    retrieved, relevant, *corrects = tally
    out = {}
    for key, correct in zip(KEYS_BY_METRIC[name][::3], corrects):
        metric = key.rsplit("_", 1)[0]
        p = correct / retrieved if retrieved else 0.0
        r = correct / relevant if relevant else 0.0
        out |= {
            f"{metric}_precision": p,
            f"{metric}_recall": r,
            f"{metric}_f1": 2 * p * r / (p + r) if p + r else 0.0,
        }
    return out


@pytest.mark.parametrize("name", ["scifact_abstract", "scifact_sentence"])
def test_details_explain_each_item_and_add_up_to_the_scores(name):
    inputs = _one_entry_per_doc(random_rows(random.Random(5), 300))
    metric = taskeval.load(name)
    direct = metric.compute(**inputs, details=True)
    metric.add_batch(**inputs)
    assert metric.compute(details=True) == direct  # the Arrow path explains the same way
    details = direct.pop("details")
    keys = ABSTRACT_KEYS if name == "scifact_abstract" else SENTENCE_KEYS
    assert direct == {k: OFFICIAL_RANDOM[5, 300][k] for k in keys}
    assert direct == _scores_from_tally(name, _tally(details, name))
    outcomes = SENTENCE_OUTCOMES if name == "scifact_sentence" else ABSTRACT_OUTCOMES
    assert {d["outcome"] for d in details} == set(outcomes)  # random rows reach every outcome
    assert [d["row"] for d in details] == sorted(d["row"] for d in details)
    ids = [r["id"] for r in inputs["references"]]
    assert all(ids[d["row"]] == d["claim_id"] for d in details)
    for d in details:
        assert all(type(v) in (str, int, bool, type(None)) for v in d.values()), d
        assert d["why"]


@needs_corpus
def test_details_give_the_official_counters_of_every_parity_case():
    cases = [json.loads(line) for line in (CASES.parent / "cases.jsonl").open(encoding="utf-8")]
    checked = 0
    for meta in cases:
        case = CASES / meta["case"]
        if meta.get("official_counts") is None:
            continue  # the official evaluator raised
        inputs = taskeval.read_official(
            "scifact_abstract",
            references=case / "gold.jsonl",
            predictions=case / "predictions.jsonl",
        )
        if not _valid(inputs):
            continue  # input the metric refuses (questionable-input cases)
        abstracts, sentences = abstract_details(**inputs), sentence_details(**inputs)
        a, s = meta["official_counts"]["abstract"], meta["official_counts"]["sentence"]
        assert _tally(abstracts, "scifact_abstract") == (
            a["retrieved"], a["relevant"], a["correct_label_only"], a["correct_rationalized"]
        ), meta["case"]  # fmt: skip
        assert _tally(sentences, "scifact_sentence") == (
            s["retrieved"], s["relevant"], s["correct_selection"], s["correct_label"]
        ), meta["case"]  # fmt: skip
        checked += 1
    assert checked >= 30


def _valid(inputs: dict) -> bool:
    try:
        scifact_scores(**inputs)
    except ValueError:
        return False
    return True


def _details(name: str, gold_evidence: list, predicted_evidence: list) -> list[dict]:
    rows = {
        "predictions": [{"id": 1, "evidence": predicted_evidence}],
        "references": [{"id": 1, "evidence": gold_evidence}],
    }
    return taskeval.load(name).compute(**rows, details=True)["details"]


def test_abstract_details_say_why_an_abstract_was_lost():
    gold = [_doc([9]), _doc([2], "CONTRADICT", "5"), _doc([3], doc_id="6")]
    predicted = [_doc([0, 1, 2, 9]), _doc([2], "SUPPORT", "5"), _doc([1], doc_id="77")]
    rows = {d["doc_id"]: d for d in _details("scifact_abstract", gold, predicted)}
    assert list(rows) == ["9", "5", "77", "6"]  # predicted in order, then missed gold
    assert rows["9"]["outcome"] == "rationale not in first k"
    assert rows["9"]["label_only"] and not rows["9"]["rationalized"] and rows["9"]["k"] == 3
    assert "complete further down the list" in rows["9"]["why"]
    assert rows["5"]["outcome"] == "wrong label" and not rows["5"]["label_only"]
    assert rows["5"]["why"] == "predicted SUPPORT, gold CONTRADICT"
    assert rows["77"]["outcome"] == "false positive" and not rows["77"]["gold"]
    assert rows["6"]["outcome"] == "missed" and not rows["6"]["predicted"]
    assert rows["6"]["predicted_label"] is None


def test_abstract_details_report_the_raised_cut():
    (row,) = _details("scifact_abstract", [_doc([1, 2, 3, 4])], [_doc([4, 3, 2, 1])])
    assert row["outcome"] == "correct" and row["k"] == 4


def test_sentence_details_count_duplicates_once_and_flag_wrong_labels():
    rows = _details("scifact_sentence", [_doc([4]), _doc([6, 7])], [_doc([4, 4, 6], "CONTRADICT")])
    assert [(d["sentence"], d["position"], d["outcome"]) for d in rows] == [
        (4, 0, "wrong label"),
        (4, 1, "duplicate"),
        (6, 2, "incomplete rationale"),
        (7, None, "missed"),
    ]
    assert [(d["selected"], d["label_correct"], d["relevant"]) for d in rows] == [
        (True, False, True),
        (False, False, False),
        (False, False, True),
        (False, False, True),
    ]


def test_details_of_a_not_enough_info_claim_are_false_positives():
    (abstract,) = _details("scifact_abstract", [], [_doc([1])])
    assert abstract["outcome"] == "false positive" and "NOT ENOUGH INFO" in abstract["why"]
    (sentence,) = _details("scifact_sentence", [], [_doc([1])])
    assert sentence["outcome"] == "false positive" and sentence["gold_label"] is None


def test_compute_fast_path_checks_like_add_batch():
    bad = {
        "predictions": [{"id": 1, "evidence": [_doc(["1"])]}],
        "references": [{"id": 1, "evidence": []}],
    }
    for name in ("scifact_abstract", "scifact_sentence"):
        metric = taskeval.load(name)
        with pytest.raises(ValueError) as direct:
            metric.compute(**bad)
        with pytest.raises(ValueError) as batched:
            metric.add_batch(**bad)
        assert str(direct.value) == str(batched.value)


# --- Official files read as the evaluator reads them (text mode, Python's json) ---------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b'{"a": 1}\r{"a": 2}\r', [{"a": 1}, {"a": 2}]),  # a lone \r ends a line in text mode
        (b'{"a": 1}\r\n{"a": 2}', [{"a": 1}, {"a": 2}]),
        (b'{"a": 18446744073709551616}', [{"a": 2**64}]),  # orjson would give a float
        (b'{"a": -9223372036854775809}', [{"a": -(2**63) - 1}]),
        (b'{"a": 123456789012345678901234567890}', [{"a": 123456789012345678901234567890}]),
        (b'{"\\ud800": "x\\udfff"}', [{"\ud800": "x\udfff"}]),  # escaped lone surrogates
        (b'{"a": 1, "a": 2}\n', [{"a": 2}]),
        (b"", []),
    ],
)
@pytest.mark.usefixtures("jsonl_parser")
def test_jsonl_lines_and_values_as_the_official_reader(tmp_path, raw, expected):
    from taskeval._metrics.scifact_abstract.jsonl import read_jsonl

    path = tmp_path / "f.jsonl"
    path.write_bytes(raw)
    got = read_jsonl(path)
    assert got == expected
    assert [type(v) for row in got for v in row.values()] == [
        type(v) for row in expected for v in row.values()
    ]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'{"a": 1}\n\n', "line 2: a blank line"),
        (b'{"a": 1}\r\r', "line 2: a blank line"),  # text mode: "\r\r" is two line ends
        (b'{"a":\r1}', "line 1: not a JSON value"),  # the \r splits the value
        (b'{"a": "\xed\xa0\x80"}', "line 1: not UTF-8 text"),  # a raw surrogate
        (
            b'\xef\xbb\xbf{"a": 1}',
            "line 1: the file starts with a UTF-8 byte order mark",
        ),  # json.loads refuses it
    ],
)
@pytest.mark.usefixtures("jsonl_parser")
def test_jsonl_refuses_what_the_official_reader_refuses(tmp_path, raw, message):
    from taskeval._metrics.scifact_abstract.jsonl import read_jsonl

    path = tmp_path / "f.jsonl"
    path.write_bytes(raw)
    with pytest.raises(ValueError, match=message):
        read_jsonl(path)


@pytest.mark.usefixtures("jsonl_parser")
def test_nan_is_read_as_python_json_reads_it(tmp_path):
    from taskeval._metrics.scifact_abstract.jsonl import read_jsonl

    path = tmp_path / "f.jsonl"
    path.write_bytes(b'{"a": NaN}')
    assert np.isnan(read_jsonl(path)[0]["a"])


def _official_files(tmp_path, big, huge):
    gold = [
        {
            "id": big,
            "claim": "c",
            "evidence": {
                "\ud800": [{"sentences": [huge, 1], "label": "SUPPORT"}],
                "7": [{"sentences": [3], "label": "CONTRADICT"}],
            },
            "cited_doc_ids": [1],
        },
        {"id": 5, "claim": "c", "evidence": {}, "cited_doc_ids": [1]},
    ]
    pred = [
        {
            "id": big,
            "evidence": {
                "\ud800": {"sentences": [1, huge, 9], "label": "SUPPORT"},
                "7": {"sentences": [4], "label": "CONTRADICT"},
            },
        },
        {"id": 5, "evidence": {"8": {"sentences": [0], "label": "SUPPORT"}}},
    ]
    gold_path, pred_path = tmp_path / "claims.jsonl", tmp_path / "pred.jsonl"
    gold_path.write_text("\r".join(json.dumps(g) for g in gold), encoding="utf-8")
    pred_path.write_text("\r\n".join(json.dumps(p) for p in pred) + "\r\n", encoding="utf-8")
    return gold_path, pred_path


def test_official_files_with_surrogates_and_cr_breaks(tmp_path):
    gold_path, pred_path = _official_files(tmp_path, big=6, huge=70)
    # the official evaluator's numbers on these two files
    expected = {
        "abstract_label_only_precision": 0.6666666666666666,
        "abstract_label_only_recall": 1.0,
        "abstract_label_only_f1": 0.8,
        "abstract_rationalized_precision": 0.3333333333333333,
        "abstract_rationalized_recall": 0.5,
        "abstract_rationalized_f1": 0.4,
        "sentence_selection_precision": 0.4,
        "sentence_selection_recall": 0.6666666666666666,
        "sentence_selection_f1": 0.5,
        "sentence_label_precision": 0.4,
        "sentence_label_recall": 0.6666666666666666,
        "sentence_label_f1": 0.5,
    }
    inputs = taskeval.read_official("scifact_abstract", references=gold_path, predictions=pred_path)
    assert scifact_scores(**inputs) == expected


def test_official_files_with_ints_outside_int64_are_refused_as_documented(tmp_path):
    # Python's json reads 2**64 exactly (orjson would make it a float); the official scorer
    # scores it, but add_batch's Arrow storage cannot: every path refuses it the same way.
    gold_path, pred_path = _official_files(tmp_path, big=2**64, huge=70)
    inputs = taskeval.read_official("scifact_abstract", references=gold_path, predictions=pred_path)
    assert inputs["references"][0]["id"] == 2**64
    with pytest.raises(
        ValueError, match=r"field 'id' must be a claim id: expected a signed 64-bit int"
    ):
        scifact_scores(**inputs)
    gold_path, pred_path = _official_files(tmp_path, big=6, huge=2**70)
    inputs = taskeval.read_official("scifact_abstract", references=gold_path, predictions=pred_path)
    with pytest.raises(
        ValueError, match=r"sentence index \(at most 2\*\*63-1\), got 1180591620717411303424"
    ):
        scifact_scores(**inputs)


def _hub_rows(path: Path) -> list[dict]:
    """The rows the Hub allenai/scifact loading script writes (config claims, a labelled split):
    one per rationale, or one empty row for a claim without evidence."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        base = {"id": data["id"], "claim": data["claim"]}
        cited = data.get("cited_doc_ids", [])
        for doc_id, rationales in data["evidence"].items():
            for r in rationales:
                rows.append(
                    {**base, "evidence_doc_id": doc_id, "evidence_label": r["label"],
                     "evidence_sentences": r["sentences"], "cited_doc_ids": cited}
                )  # fmt: skip
        if not data["evidence"]:
            rows.append(
                {**base, "evidence_doc_id": "", "evidence_label": "", "evidence_sentences": [],
                 "cited_doc_ids": cited}
            )  # fmt: skip
    return rows


def test_hub_rows_of_official_gold_give_the_official_numbers():
    examples = REPO / "spaces" / "scifact_abstract" / "examples"
    refs = taskeval.references_from_hub(
        "scifact_abstract", _hub_rows(examples / "claims_dev.jsonl")
    )
    inputs = taskeval.read_official(
        "scifact_abstract",
        references=examples / "claims_dev.jsonl",
        predictions=examples / "predictions.jsonl",
    )
    assert refs == inputs["references"]
    assert scifact_scores(inputs["predictions"], refs) == SCIFACT_EXAMPLE_SCORES


# --- messages of refused rows, whole ----------------------------------------------------------


def _refused(predictions: list, references: list) -> str:
    return refusal(scifact_scores, predictions, references)


def test_a_row_or_entry_that_is_no_dict_is_named_as_such():
    gold = [{"id": 1, "evidence": [_doc([1])]}]
    assert _refused([[1, []]], gold) == (
        "predictions[0]: expected a dict with 'id' and 'evidence', got [1, []]"
    )
    assert _refused([{"id": 1, "evidence": [["9", [1]]]}], gold) == (
        "predictions[0] (id 1): field 'evidence'[0] must be a dict with 'doc_id', 'label' and "
        "'sentences', got ['9', [1]]"
    )


@pytest.mark.parametrize("longer", ["predictions", "references"])
def test_rows_without_a_counterpart_are_named_on_their_side(longer):
    rows = [{"id": k, "evidence": [_doc([1])]} for k in (1, 2)]
    predictions, references = (rows, rows[:1]) if longer == "predictions" else (rows[:1], rows)
    assert _refused(predictions, references) == (
        f"predictions and references must have the same length (one row per claim, paired by "
        f"position), got {len(predictions)} predictions and {len(references)} references; "
        f"{longer}[1] (id 2) has no counterpart"
    )


@pytest.mark.parametrize("ids", ["plain ids", "array ids"])
@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_sentences_as_arrays_in_every_row_score_as_lists(kind, ids):
    """Every sentence list a 1-d array or tensor (no plain row left to tell the rows apart),
    with claim ids plain or 0-d arrays, an index as large as int64 allows among them: the
    numbers of the plain values."""
    make = np.array if kind == "numpy" else pytest.importorskip("torch").tensor
    inputs = random_rows(random.Random(7), 40)
    big = 2**63 - 1
    inputs["predictions"][0]["evidence"].append(_doc([big], doc_id="big"))

    def arrays(rows: list) -> list:
        return [
            {
                "id": make(row["id"]) if ids == "array ids" else row["id"],
                "evidence": [{**e, "sentences": make(e["sentences"])} for e in row["evidence"]],
            }
            for row in rows
        ]

    expected = scifact_scores(inputs["predictions"], inputs["references"])
    assert scifact_scores(arrays(inputs["predictions"]), inputs["references"]) == expected
    assert scifact_scores(inputs["predictions"], arrays(inputs["references"])) == expected


def test_rows_and_entries_may_be_any_mapping():
    """A mapping that is no dict (a read-only view here) is read like the dict it shows."""
    from types import MappingProxyType

    inputs = random_rows(random.Random(8), 30)

    def views(rows: list) -> list:
        return [
            MappingProxyType({**r, "evidence": [MappingProxyType(e) for e in r["evidence"]]})
            for r in rows
        ]

    expected = scifact_scores(inputs["predictions"], inputs["references"])
    assert scifact_scores(views(inputs["predictions"]), views(inputs["references"])) == expected


def test_abstract_details_see_a_rationale_complete_further_down_through_repeats():
    """The first k = 3 predicted sentences repeat one; the whole list is exactly the rationale."""
    (row,) = _details("scifact_abstract", [_doc([1, 2])], [_doc([1, 1, 1, 2])])
    assert row["outcome"] == "rationale not in first k" and row["k"] == 3
    assert row["why"] == (
        "right label, but the first 3 predicted sentences [1, 1, 1] hold no whole gold "
        "rationale ([1, 2]); one is complete further down the list"
    )


def test_sentence_details_name_the_gold_label():
    records = _details("scifact_sentence", [_doc([1], "CONTRADICT")], [_doc([1, 5], "SUPPORT")])
    assert [(r["sentence"], r["gold_label"], r["predicted_label"]) for r in records] == [
        (1, "CONTRADICT", "SUPPORT"),
        (5, "CONTRADICT", "SUPPORT"),
    ]


@pytest.mark.parametrize("name", ["scifact_abstract", "scifact_sentence"])
def test_details_give_plain_claim_ids_for_numpy_ones(name):
    inputs = random_rows(random.Random(9), 20)
    typed = {
        side: [{**row, "id": np.int64(row["id"])} for row in rows] for side, rows in inputs.items()
    }
    metric = taskeval.load(name)
    expected = metric.compute(**inputs, details=True)
    got = metric.compute(**typed, details=True)
    assert got == expected
    assert {type(r["claim_id"]) for r in got["details"]} == {int}


def test_rows_are_numbered_from_zero_unless_told():
    bad = [{"id": 1, "evidence": [_doc([1], "MAYBE")]}]
    for check in (check_predictions, prediction_records, check_references, reference_records):
        with pytest.raises(ValueError, match=r"^(predictions|references)\[0\] \(id 1\)"):
            check(bad)
    with pytest.raises(ValueError, match=r"^predictions\[0\] \(id 1\): field 'id' does not"):
        check_pairs([{"id": 1}], [{"id": 2}])


@pytest.mark.parametrize(
    ("predictions", "references", "message"),
    [
        (
            [{"id": 1, "evidence": [_doc([1], "NOT ENOUGH INFO")]}],
            [{"id": 1, "evidence": [_doc([1])]}],
            "predictions[0] (id 1): field 'evidence'[0]['label'] (doc '9') must be 'SUPPORT' or "
            "'CONTRADICT', got 'NOT ENOUGH INFO' (leave out abstracts predicted NOT ENOUGH INFO)",
        ),
        (
            [{"id": 1, "evidence": [_doc([1])]}],
            [{"id": 1, "evidence": [_doc([1], "support")]}],
            "references[0] (id 1): field 'evidence'[0]['label'] (doc '9') must be 'SUPPORT' or "
            "'CONTRADICT', got 'support'",
        ),
        ("abc", [{"id": 1, "evidence": []}], "predictions must be a list of dicts, got str"),
        ([{"id": 1, "evidence": []}], b"ab", "references must be a list of dicts, got bytes"),
    ],
)
def test_wrong_labels_and_sides_are_named_whole(predictions, references, message):
    assert _refused(predictions, references) == message


def test_doc_ids_may_be_str_subclasses():
    """numpy's str_, as a dataset column may give them: compared as the strings they are."""
    inputs = random_rows(random.Random(10), 30)
    typed = {
        side: [
            {**row, "evidence": [{**e, "doc_id": np.str_(e["doc_id"])} for e in row["evidence"]]}
            for row in rows
        ]
        for side, rows in inputs.items()
    }
    assert scifact_scores(**typed) == scifact_scores(**inputs)


def test_a_doc_predicted_twice_among_more_keeps_its_first_place_and_last_content():
    """As ``json`` reads an object with a repeated key: doc 9 predicted first with [7], then
    again with the gold rationale, is the second of them in the first place."""
    gold = [_doc([1, 2])]
    repeated = _one(gold, [_doc([7]), _doc([3], doc_id="4"), _doc([1, 2])])
    assert repeated == _one(gold, [_doc([1, 2]), _doc([3], doc_id="4")])
    assert repeated["abstract_rationalized_precision"] == 0.5
    assert repeated["sentence_selection_precision"] == 2 / 3
