"""Lines the official scorer (fever-scorer 2.0.39) reads in its own way, on every path: fields it
never reads, values it reads as empty, gold pages that are no strings, gold items longer than 4,
and JSON objects as evidence items in official files. Each expectation is the official scorer's
output on the same rows (the official package is run here); the fast path (rows in the official
list form) and the checking path agree on random rows.
"""

from __future__ import annotations

import copy
import json
import os
import random

import pytest

import taskeval
from taskeval._metrics.fever_score import rules, scoring

from entries.fever_score import random_rows
from harness import run_cli

if os.environ.get("CI"):
    from fever.scorer import fever_score as official_fever_score
else:
    official_fever_score = pytest.importorskip("fever.scorer").fever_score

NEI = "NOT ENOUGH INFO"
GOLD = {"label": "SUPPORTS", "evidence": [[[1, 2, "A", 1]]]}


def official(predictions: list, references: list, **options) -> tuple:
    merged = [{**p, **r} for p, r in zip(copy.deepcopy(predictions), copy.deepcopy(references))]
    return official_fever_score(merged, **options)


def every_path(predictions: list, references: list, **options) -> dict[str, tuple]:
    """The five numbers by compute(), add_batch() then compute(), and add() row by row."""
    out = {}
    metric = taskeval.load("fever_score", keep_in_memory=True)
    out["compute"] = metric.compute(predictions=predictions, references=references, **options)
    metric = taskeval.load("fever_score", keep_in_memory=True)
    metric.add_batch(predictions=predictions, references=references)
    out["add_batch"] = metric.compute(**options)
    metric = taskeval.load("fever_score", keep_in_memory=True)
    for prediction, reference in zip(predictions, references):
        metric.add(prediction=prediction, reference=reference)
    out["add"] = metric.compute(**options)
    out["core"] = scoring.fever_score(predictions, references, **options)
    return {path: tuple(scores.values()) for path, scores in out.items()}


def files(tmp_path, predictions: list, references: list) -> tuple[str, str]:
    preds, gold = tmp_path / "predictions.jsonl", tmp_path / "actual.jsonl"
    preds.write_text("".join(json.dumps(p) + "\n" for p in predictions), encoding="utf-8")
    gold.write_text("".join(json.dumps(r) + "\n" for r in references), encoding="utf-8")
    return str(gold), str(preds)


def every_file_path(tmp_path, predictions: list, references: list, **options) -> dict[str, tuple]:
    gold, preds = files(tmp_path, predictions, references)
    inputs = taskeval.read_official("fever_score", references=gold, predictions=preds)
    metric = taskeval.load("fever_score")
    return {
        "read_official": tuple(metric.compute(**inputs, **options).values()),
        "score_files": tuple(
            taskeval.score_files(
                "fever_score", references=gold, predictions=preds, **options
            ).values()
        ),
    }


def pred(evidence, label="SUPPORTS") -> dict:
    return {"predicted_label": label, "predicted_evidence": evidence}


# Rows the official scorer scores (a good row first, so that averages show a misread row).
SCORED = {
    "nei-gold-evidence-null": ([pred([["A", 1]], NEI)], [{"label": NEI, "evidence": None}]),
    "nei-gold-evidence-odd": (
        [pred([["A", 1]], NEI), pred([], "REFUTES")],
        [{"label": "not enough info", "evidence": "x"}, {"label": NEI, "evidence": [[["A", 1]]]}],
    ),
    "predicted-evidence-null-never-read": (
        [pred(None, "SUPPORTS")],
        [{"label": NEI, "evidence": []}],
    ),
    "predicted-evidence-odd-never-read": (
        [pred(0, "REFUTES"), pred("abc"), pred({"a": 1}), pred(True)],
        [{"label": NEI, "evidence": [[[1, None, None, None]]]}] * 4,
    ),
    "predicted-evidence-empty-string-nei-right": (
        [pred("", NEI), pred({}, "not enough info")],
        [{"label": NEI, "evidence": [[[1, None, None, None]]]}] * 2,
    ),
    "predicted-evidence-empty-string-nothing-looked-up": (
        [pred(""), pred("", "REFUTES"), pred("")],
        [
            {"label": "SUPPORTS", "evidence": []},
            {"label": "SUPPORTS", "evidence": [[]]},
            {"label": "REFUTES", "evidence": [[], [[1, 2, "A", 1]]]},
        ],
    ),
    "gold-page-int": (
        [pred([["5", 1], ["A", 1]]), pred([["A", 1]])],
        [
            {"label": "SUPPORTS", "evidence": [[[1, 2, 5, 1]], [[1, 2, "B", 1]]]},
            {"label": "SUPPORTS", "evidence": [[[1, 2, "A", 1], [1, 2, 0, None]]]},
        ],
    ),
    "gold-item-of-five-and-six": (
        [pred([["A", 1], ["B", 2]]), pred([["C", 3]])],
        [
            {"label": "SUPPORTS", "evidence": [[[1, 2, "A", 1, "x"], [1, 2, "B", 2, None, 7]]]},
            {"label": "SUPPORTS", "evidence": [[[1, 2, "D", 3, "C"]]]},
        ],
    ),
    "gold-evidence-and-group-empty-string-or-object": (
        [pred([["A", 1]]), pred([["A", 1]]), pred([])],
        [
            {"label": "SUPPORTS", "evidence": ""},
            {"label": "SUPPORTS", "evidence": [{}, [[1, 2, "B", 2]]]},
            {"label": "REFUTES", "evidence": {}},
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(SCORED))
@pytest.mark.parametrize("max_evidence", [5, None, 0])
def test_lines_the_official_scorer_scores_are_scored_alike_on_every_path(case, max_evidence):
    predictions, references = SCORED[case]
    predictions = [pred([["A", 1]]), *predictions]
    references = [GOLD, *references]
    before = copy.deepcopy((predictions, references))
    expected = official(predictions, references, max_evidence=max_evidence)
    got = every_path(predictions, references, max_evidence=max_evidence)
    assert got == dict.fromkeys(got, expected)
    assert (predictions, references) == before


@pytest.mark.parametrize("case", sorted(SCORED))
def test_such_lines_in_official_files_score_as_the_official_scorer(case, tmp_path):
    predictions, references = SCORED[case]
    expected = official(predictions, references)
    got = every_file_path(tmp_path, predictions, references)
    assert got == dict.fromkeys(got, expected)


def test_the_command_line_scores_a_null_nei_gold_evidence_as_the_official(tmp_path):
    predictions, references = SCORED["nei-gold-evidence-null"]
    predictions, references = [pred([["A", 1]]), *predictions], [GOLD, *references]
    gold, preds = files(tmp_path, predictions, references)
    code, out, err = run_cli(["score", "fever_score", "--references", gold, "--predictions", preds])
    assert code == 0, err
    assert tuple(json.loads(out).values()) == official(predictions, references)


# Rows the official scorer fails on: refused with a ValueError naming the row and field.
CRASHING = {
    "null-evidence-right-nei": (pred(None, NEI), {"label": NEI, "evidence": []}, "TypeError"),
    "null-evidence-verifiable": (pred(None, "REFUTES"), GOLD, "TypeError"),
    "string-evidence-looked-up": (pred("", "REFUTES"), GOLD, "TypeError"),
    "object-evidence-sliced": (
        pred({}, "REFUTES"),
        {"label": "SUPPORTS", "evidence": []},
        "TypeError",
    ),
    "gold-evidence-null": (pred([["A", 1]]), {"label": "SUPPORTS", "evidence": None}, "TypeError"),
    "gold-item-of-three": (
        pred([["A", 1]]),
        {"label": "SUPPORTS", "evidence": [[[1, "A", 1]]]},
        "IndexError",
    ),
}


@pytest.mark.parametrize("case", sorted(CRASHING))
def test_lines_the_official_scorer_fails_on_are_refused_on_every_path(case):
    prediction, reference, error = CRASHING[case]
    predictions, references = [pred([["A", 1]]), prediction], [GOLD, reference]
    with pytest.raises(Exception) as info:
        official(predictions, references)
    assert type(info.value).__name__ == error
    messages = set()
    for path in ("compute", "add_batch", "add"):
        metric = taskeval.load("fever_score", keep_in_memory=True)
        with pytest.raises(ValueError) as refused:
            if path == "compute":
                metric.compute(predictions=predictions, references=references)
            elif path == "add_batch":
                metric.add_batch(predictions=predictions, references=references)
            else:
                for p, r in zip(predictions, references):
                    metric.add(prediction=p, reference=r)
        messages.add(str(refused.value))
    (message,) = messages  # the same message on every path
    assert ("references[1]" if "gold" in case else "predictions[1]") in message, message


def test_records_in_official_files_are_refused_where_the_official_scorer_reads_them(tmp_path):
    """compute() takes records; an official file's JSON object is what the official scorer reads:
    a predicted one never matches (wrong label: scored as a miss; right label: AssertionError),
    a gold one of a verifiable claim has no position 2 or 3 (KeyError)."""
    record = {"page": "A", "line": 1}
    predictions = [pred([["A", 1]]), pred([record], "REFUTES")]
    references = [GOLD, GOLD]
    # compute() reads the record as a sentence
    assert scoring.fever_score(predictions, references)["evidence_precision"] == 1.0
    # the official scorer never matches it
    assert official(predictions, references)[2] == 0.5
    gold, preds = files(tmp_path, predictions, references)
    message = r"predictions.jsonl, line 2: field 'predicted_evidence'\[0\] must be a \[page, line\]"
    with pytest.raises(ValueError, match=message):
        taskeval.read_official("fever_score", references=gold, predictions=preds)
    with pytest.raises(ValueError, match=message):
        taskeval.score_files("fever_score", references=gold, predictions=preds)
    code, out, err = run_cli(["score", "fever_score", "--references", gold, "--predictions", preds])
    assert code == 1 and not out and "line 2" in err and "official file" in err

    gold_record = {
        "label": "SUPPORTS",
        "evidence": [[{"annotation_id": 1, "evidence_id": 2, **record}]],
    }
    with pytest.raises(KeyError):
        official([pred([["A", 1]])], [gold_record])
    gold, preds = files(tmp_path, [pred([["A", 1]]), pred([["A", 1]])], [GOLD, gold_record])
    message = r"actual.jsonl, line 2: field 'evidence'\[0\]\[0\] must be an \[annotation_id"
    with pytest.raises(ValueError, match=message):
        taskeval.read_official("fever_score", references=gold, predictions=preds)
    with pytest.raises(ValueError, match=message):
        taskeval.score_files("fever_score", references=gold, predictions=preds)
    # the line carrying its own gold names the predictions file
    own = tmp_path / "own.jsonl"
    own.write_text(json.dumps({**pred([["A", 1]]), **gold_record}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"own.jsonl, line 1: field 'evidence'"):
        taskeval.score_files("fever_score", references=None, predictions=str(own))


def test_records_in_a_nei_claims_gold_of_a_file_are_never_read(tmp_path):
    nei = {"label": NEI, "evidence": [[{"page": None, "line": None}]]}
    predictions, references = [pred([["A", 1]]), pred([], NEI)], [GOLD, nei]
    got = every_file_path(tmp_path, predictions, references)
    assert got == dict.fromkeys(got, official(predictions, references))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_evidence", [5, None, 2, 0, -1])
def test_fast_and_checking_paths_agree(seed, max_evidence):
    """The fast path (official list form, gold items read with itemgetter(2, 3)) and the
    checking path (normalized rows) give the same numbers, and the per-claim rule adds up to
    them; all equal the official scorer's."""
    rows = random_rows(random.Random(seed), 300)
    predictions, references = rows["predictions"], rows["references"]
    fast = scoring.official_form_score(predictions, references, max_evidence)
    assert fast is not None  # these rows are in the official form
    preds = scoring.normalize_predictions(predictions)
    refs = scoring.normalize_references(references)
    plain = scoring.score(preds, refs, max_evidence)
    with_details = scoring.fever_score(predictions, references, max_evidence, details=True)
    details = with_details.pop("details")
    totals = rules.new_totals()
    for label_ok, strict, precision, recall in scoring.claim_scores(preds, refs, max_evidence):
        totals[0] += strict
        totals[1] += label_ok
        if precision is not None:
            totals[2] += 1
            totals[3] += precision
            totals[4] += recall
    by_claim = rules.scores(totals, len(preds))
    expected = dict(
        zip(rules.OUTPUT_KEYS, official(predictions, references, max_evidence=max_evidence))
    )
    assert fast == plain == with_details == by_claim == expected
    assert [d["strict"] for d in details] == [
        s for _, s, _, _ in scoring.claim_scores(preds, refs, max_evidence)
    ]
