"""fever_score against the real official scorer (fever-scorer 2.0.39) on random valid input.

``scripts/install-official-fever.sh`` installs the official package; only a machine without it
(never CI) skips these tests.
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import taskeval
from taskeval._metrics.fever_score.inputs import references_from_hub
from taskeval._metrics.fever_score.scoring import fever_score

from entries.fever_score import random_rows

if os.environ.get("CI"):
    from fever.scorer import fever_score as official_fever_score
else:
    official_fever_score = pytest.importorskip("fever.scorer").fever_score

OFFICIAL_KEYS = (
    "strict_score",
    "label_accuracy",
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
)
NEI = "NOT ENOUGH INFO"

labels = st.sampled_from(
    ["SUPPORTS", "REFUTES", NEI, "supports", "Refutes", "not enough info", "NEI", "NOT_ENOUGH_INFO"]
)
pages = st.sampled_from(
    ["A", "B", "Page_one", "Page one", "Beyonce\u0301", "Beyoncé", "Ωmega"]
) | st.text(max_size=3)
lines = st.integers(min_value=-1, max_value=3)
sentence = st.tuples(pages, lines).map(list)
gold_item = st.tuples(
    st.none() | st.integers(0, 5),
    st.none() | st.integers(0, 5),
    pages | st.none(),
    lines | st.none(),
).map(list)


@st.composite
def instance(draw):
    gold_label = draw(labels)
    if gold_label == NEI and draw(st.booleans()):
        evidence = [[[draw(st.integers(0, 9)), None, None, None]]]
    else:
        evidence = draw(st.lists(st.lists(gold_item, max_size=3), max_size=3))
    predicted = draw(st.lists(sentence, max_size=8))
    if evidence and draw(st.booleans()):  # plant one gold group so recall and strict are exercised
        group = draw(st.sampled_from(evidence))
        for item in group:
            if isinstance(item[2], str) and isinstance(item[3], int):
                predicted.insert(draw(st.integers(0, len(predicted))), [item[2], item[3]])
    predicted_label = draw(st.sampled_from([gold_label, gold_label.lower()]) | labels)
    return (
        {"predicted_label": predicted_label, "predicted_evidence": predicted},
        {"label": gold_label, "evidence": evidence},
    )


max_evidence = st.none() | st.integers(min_value=-2, max_value=7)


def official(predictions, references, max_evidence):
    merged = [{**copy.deepcopy(p), **copy.deepcopy(r)} for p, r in zip(predictions, references)]
    return dict(zip(OFFICIAL_KEYS, official_fever_score(merged, max_evidence=max_evidence)))


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.lists(instance(), min_size=1, max_size=12), max_evidence)
def test_core_equals_official(rows, max_evidence):
    predictions, references = [p for p, _ in rows], [r for _, r in rows]
    ours = fever_score(predictions, references, max_evidence=max_evidence)
    assert ours == official(predictions, references, max_evidence)


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(instance(), min_size=1, max_size=12), max_evidence)
def test_compute_equals_official(rows, max_evidence):
    predictions, references = [p for p, _ in rows], [r for _, r in rows]
    metric = _metric()
    ours = metric.compute(predictions=predictions, references=references, max_evidence=max_evidence)
    assert ours == official(predictions, references, max_evidence)


_cache = {}


def _metric():
    if "m" not in _cache:
        _cache["m"] = taskeval.load("fever_score")
    return _cache["m"]


@pytest.mark.parametrize("seed", range(4))
def test_many_random_claims_equal_official(seed):
    """Thousands of claims from the harness generator, under every max_evidence bound."""
    inputs = random_rows(random.Random(seed), 5000)
    for bound in (None, -1, 0, 1, 5, 7):
        assert fever_score(**inputs, max_evidence=bound) == official(**inputs, max_evidence=bound)


def test_long_sequential_sum_matches_official():
    """Many per-claim precisions: only left-to-right summation gives the official last bit."""
    rng = random.Random(5)
    predictions, references = [], []
    for _ in range(5000):
        gold = [[f"P{rng.randint(0, 30)}", rng.randint(0, 9)] for _ in range(rng.randint(1, 3))]
        predictions.append(
            {
                "predicted_label": "SUPPORTS",
                "predicted_evidence": [
                    [f"P{rng.randint(0, 30)}", rng.randint(0, 9)] for _ in range(rng.randint(1, 7))
                ],
            }
        )
        references.append({"label": "SUPPORTS", "evidence": [[[0, 0, *g] for g in gold]]})
    assert fever_score(predictions, references) == official(predictions, references, 5)


# --- Official files and Hub rows, against the official scorer -------------------------------

EXAMPLES = Path(__file__).resolve().parents[1] / "spaces" / "fever_score" / "examples"


def _read_as_the_scorer_script(path):
    with open(path, encoding="utf-8") as f:  # text mode: "\r" and "\r\n" end lines too
        return [json.loads(line) for line in f]


def _hub_rows(gold):
    """The rows the Hub `fever` v1.0 loading script writes for official gold lines: one per
    evidence item, every falsy field written as -1 (ids, sentence) or "" (page)."""
    for record in gold:
        evidence = record.get("evidence", [])
        items = [item for group in evidence for item in group] if evidence else [[None] * 4]
        for annotation_id, evidence_id, page, line in items:
            yield {
                "id": record["id"],
                "label": record.get("label", ""),
                "claim": record.get("claim", ""),
                "evidence_annotation_id": annotation_id or -1,
                "evidence_id": evidence_id or -1,
                "evidence_wiki_url": page or "",
                "evidence_sentence_id": line or -1,
            }


def test_hub_rows_of_official_gold_score_as_the_official_gold():
    gold = _read_as_the_scorer_script(EXAMPLES / "actual.jsonl")
    preds = _read_as_the_scorer_script(EXAMPLES / "predictions.jsonl")
    gold = [{**g, "id": i} for i, g in enumerate(gold)]  # the example's ids are redacted to 0
    assert sum(item[3] == 0 for g in gold for group in g["evidence"] for item in group) > 50
    refs = references_from_hub(list(_hub_rows(gold)))
    predictions = [{k: p[k] for k in ("predicted_label", "predicted_evidence")} for p in preds]
    expected = official(predictions, gold, 5)
    assert fever_score(predictions, refs) == expected
    assert expected["strict_score"] == 0.26  # the official number of these files
    perfect = [
        {
            "predicted_label": g["label"],
            "predicted_evidence": [i[2:] for i in g["evidence"][0]] if g["label"] != NEI else [],
        }
        for g in gold
    ]
    assert fever_score(perfect, refs) == official(perfect, gold, 5)
    assert fever_score(perfect, refs)["strict_score"] == 1.0


def test_hub_rows_of_random_gold_score_as_the_official_gold():
    rng = random.Random(8)
    gold, predictions = [], []
    for number in range(3000):
        label = rng.choice(["SUPPORTS", "REFUTES", NEI])
        if label == NEI:
            evidence = [[[rng.randint(1, 99), None, None, None]]]
        else:  # a group's items share their ids, as in the FEVER files; lines are often 0
            evidence = [
                [[g, 1000 + g, rng.choice("ABC"), rng.choice([0, 0, 1, 2])]] * rng.randint(1, 2)
                for g in rng.sample(range(1, 50), rng.choice([0, 1, 1, 2, 3]))
            ]
        gold.append({"id": number, "label": label, "claim": "c", "evidence": evidence})
        predictions.append(
            {
                "predicted_label": rng.choice([label, label, "REFUTES"]),
                "predicted_evidence": [[rng.choice("ABC"), rng.choice([0, 1, 2])] for _ in "xyz"],
            }
        )
    refs = references_from_hub(list(_hub_rows(gold)))
    for bound in (None, 1, 5):
        assert fever_score(predictions, refs, max_evidence=bound) == official(
            predictions, gold, bound
        )


def _write_files(tmp_path, big, huge):
    gold = [
        {"id": 1, "label": "SUPPORTS", "evidence": [[[1, 2, "\ud800x", big]], [[3, 4, "B", 0]]]},
        {"id": 2, "label": "REFUTES", "evidence": [[[5, 6, "C", huge]]]},
        {"id": 3, "label": NEI, "evidence": [[[7, None, None, None]]]},
    ]
    preds = [
        {
            "id": 1,
            "predicted_label": "SUPPORTS",
            "predicted_evidence": [["\ud800x", big], ["D", 1]],
        },
        {"id": 2, "predicted_label": "REFUTES", "predicted_evidence": [["C", huge + 1]]},
        {"id": 3, "predicted_label": NEI, "predicted_evidence": []},
    ]
    gold_path, preds_path = tmp_path / "actual.jsonl", tmp_path / "predictions.jsonl"
    gold_path.write_text("\r".join(json.dumps(g) for g in gold) + "\r", encoding="utf-8")
    preds_path.write_text("\r\n".join(json.dumps(p) for p in preds), encoding="utf-8")
    return gold_path, preds_path


def test_files_with_cr_breaks_and_surrogates_score_as_the_official(tmp_path):
    big = 9
    gold_path, preds_path = _write_files(tmp_path, big=big, huge=7)
    inputs = taskeval.read_official("fever_score", references=gold_path, predictions=preds_path)
    assert inputs["references"][0]["evidence"][0] == [[1, 2, "\ud800x", big]]
    expected = dict(
        zip(
            OFFICIAL_KEYS,
            official_fever_score(
                _read_as_the_scorer_script(preds_path), _read_as_the_scorer_script(gold_path)
            ),
        )
    )
    assert expected == {
        "strict_score": 2 / 3,
        "label_accuracy": 1.0,
        "evidence_precision": 0.25,
        "evidence_recall": 0.5,
        "evidence_f1": 1 / 3,
    }
    assert fever_score(**inputs) == expected


def test_files_with_lines_outside_int64_are_refused_as_documented(tmp_path):
    # Python's json reads them exactly and the official scorer scores them, but add_batch's
    # Arrow storage cannot hold them: every path refuses them alike (the card says so).
    gold_path, preds_path = _write_files(tmp_path, big=2**64 + 1, huge=7)
    inputs = taskeval.read_official("fever_score", references=gold_path, predictions=preds_path)
    assert inputs["references"][0]["evidence"][0] == [[1, 2, "\ud800x", 2**64 + 1]]
    with pytest.raises(ValueError, match=r"signed 64-bit range .*18446744073709551617"):
        fever_score(**inputs)
    with pytest.raises(ValueError, match=r"signed 64-bit range"):
        taskeval.score_files("fever_score", references=gold_path, predictions=preds_path)
