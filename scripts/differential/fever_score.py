"""fever_score against the real FEVER scorer (PyPI ``fever-scorer`` 2.0.39) on random files.

Each case writes a prediction JSONL (and, in blind mode, a gold JSONL) with edge cases: sentence
0, lines beyond 64 bits, escaped lone surrogates and Unicode in page titles, duplicates,
truncation bounds, empty groups and lists, ``\\r`` and ``\\r\\n`` line breaks; and lines of the
forms the official scorer reads in its own way: evidence items written as JSON objects, gold
pages that are ints, gold items longer than 4, NOT ENOUGH INFO gold evidence of any value (null
too), and a ``predicted_evidence`` that is no list (null, ``""``, ...) where the scorer never
reads it or reads it as empty. The official side reads the files as the shared-task scorer
script does (text mode, ``json.loads`` per line) and calls ``fever.scorer.fever_score``;
taskeval goes through ``compute(**read_official(...))``, ``taskeval.score_files``, every
``--batch-every``-th case ``add_batch`` then ``compute``, and every ``--cli-every``-th case
``taskeval score fever_score``.

Refusals the metric card lists among its deliberate differences count as documented. Failures
of ``add_batch`` on page titles holding lone surrogates (which Arrow cannot store) are counted
apart, on a second JSON line, with the cases they came from.

    python scripts/differential/fever_score.py --official DIR --cases 10000
"""

from __future__ import annotations

import copy
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from common import (
    Outcome,
    compare_values,
    int_edge,
    run,
    taskeval_cli,
    taskeval_compute,
    taskeval_files,
    write_jsonl,
)

# Refusals of lines the official scorer scores that the fever_score card lists among its
# deliberate differences (besides ints beyond int64, which common.py knows).
common.DOCUMENTED_REFUSALS += (
    # evidence items that are JSON objects in official files
    "list in an official file, got {",
    # malformed predicted items (a [null, null] where the scorer never looks, say)
    "must be a [page, line] list or a {'page', 'line'} record with a string page and an int line",
    # a predicted_evidence that is no list where the scorer reads it and does not fail
    "field 'predicted_evidence' must be a list of [page, line] items, got",
)

KEYS = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall", "evidence_f1")
LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
PAGES = ["A", "B", "Page_one", "Beyonce\u0301", "Beyoncé", "Ωmega", "\ud800", "x\udfff", "", "日本"]


def _sentence(rng: random.Random) -> list:
    return [rng.choice(PAGES), int_edge(rng, 3)]


# Values of a field the official scorer may never read (or read as empty): predicted_evidence
# beside a NOT ENOUGH INFO gold claim, or a NOT ENOUGH INFO claim's gold evidence.
ODD_VALUES = [None, "", {}, 0, True, "abc", {"a": 1}, [[None, None]], [["A", "1"]], [["A"]]]


def _odd_gold_item(rng: random.Random, item: list) -> object:
    """A gold item in a form the official scorer reads its own way, now and then."""
    roll = rng.random()
    if roll < 0.04:  # an int page: compared with the predicted string pages
        return [item[0], item[1], rng.choice([0, 5, 7]), item[3]]
    if roll < 0.08:  # longer than 4: positions 2 and 3 are read
        return item + [rng.choice([None, "x", 9])] * rng.choice([1, 2])
    if roll < 0.085:  # a record: the official scorer has no position 2 or 3 (KeyError)
        return dict(zip(("annotation_id", "evidence_id", "page", "line"), item))
    return item


def _odd_prediction_item(rng: random.Random, item: list) -> object:
    if rng.random() < 0.015:  # a record: never equal to a [page, line] list
        return {"page": item[0], "line": item[1]}
    return item


def _claim(rng: random.Random, number: int) -> tuple[dict, dict]:
    gold_label = rng.choice(LABELS)
    if gold_label == "NOT ENOUGH INFO":
        evidence = [[[rng.randint(1, 9**6), None, None, None]] for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.15:  # never read: null, or anything else
            evidence = rng.choice([None, None, *ODD_VALUES, [[{"page": "A", "line": 1}]]])
    else:
        evidence = []
        for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
            ann, ev = rng.randint(1, 9**6), rng.randint(1, 9**6)
            evidence.append(
                [[ann, ev, *_sentence(rng)] for _ in range(rng.choice([0, 1, 1, 2, 3]))]
            )
    predicted = [_sentence(rng) for _ in range(rng.choice([0, 1, 2, 4, 5, 6, 8]))]
    if evidence and gold_label != "NOT ENOUGH INFO" and rng.random() < 0.6:
        for item in rng.choice(evidence):  # plant a gold group, maybe twice, maybe past the cap
            for _ in range(rng.choice([1, 1, 2])):
                predicted.insert(rng.randint(0, len(predicted)), list(item[2:]))
    if gold_label != "NOT ENOUGH INFO":
        evidence = [[_odd_gold_item(rng, item) for item in group] for group in evidence]
        if rng.random() < 0.02:  # iterated and found empty, as []
            evidence = rng.choice(["", {}, [""], [{}, *evidence], [*evidence, ""]])
    predicted = [_odd_prediction_item(rng, item) for item in predicted]
    roll = rng.random()
    label = gold_label if roll < 0.5 else gold_label.lower() if roll < 0.6 else rng.choice(LABELS)
    if rng.random() < 0.1:  # a predicted_evidence that is no list
        predicted = rng.choice(ODD_VALUES[:7])
        where = rng.random()
        if gold_label == "NOT ENOUGH INFO" and where < 0.4:  # never read
            label = rng.choice(["SUPPORTS", "REFUTES"])
        elif gold_label == "NOT ENOUGH INFO" and where < 0.7:  # its length 0 is all that is read
            predicted, label = rng.choice(["", {}]), gold_label
        elif gold_label != "NOT ENOUGH INFO" and where < 0.7:  # nothing looked up in a ""
            predicted, evidence = "", rng.choice([[], [[]], [[], *evidence]])
    prediction = {"id": number, "predicted_label": label, "predicted_evidence": predicted}
    gold = {
        "id": number,
        "verifiable": "?",
        "label": gold_label,
        "claim": "c",
        "evidence": evidence,
    }
    return prediction, gold


def _official(predictions: Path, actual: Path | None, max_evidence: int | None) -> dict:
    from fever.scorer import fever_score

    with open(predictions) as f:  # as the shared-task scorer script reads its files
        preds = [json.loads(line) for line in f]
    gold = None
    if actual is not None:
        with open(actual) as f:
            gold = [json.loads(line) for line in f]
    return dict(zip(KEYS, fever_score(preds, gold, max_evidence=max_evidence)))


SURROGATE_FAILURES: list[str] = []  # add_batch on lone surrogates (Arrow), counted apart
BATCH_EVERY = 10


def _add_batch_compute(inputs: dict, options: dict) -> dict:
    """``add_batch`` then ``compute``, on a fresh metric kept in memory."""
    import taskeval

    metric = taskeval.load("fever_score", keep_in_memory=True)
    metric.add_batch(**inputs)
    return metric.compute(**options)


def _has_surrogate(value: object) -> bool:
    text = json.dumps(value, ensure_ascii=False)
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    outcome = Outcome()
    pairs = [_claim(rng, i) for i in range(rng.randint(1, 6))]
    blind = rng.random() < 0.7
    predictions = [p if blind else {**p, **g} for p, g in pairs]
    max_evidence = rng.choice([5, 5, 5, None, 0, 1, 3, 7, -1])
    with tempfile.TemporaryDirectory() as folder:
        preds_path = Path(folder) / "predictions.jsonl"
        gold_path = Path(folder) / "actual.jsonl" if blind else None
        write_jsonl(rng, preds_path, copy.deepcopy(predictions))
        if gold_path is not None:
            write_jsonl(rng, gold_path, [g for _, g in pairs])
        try:
            expected = _official(preds_path, gold_path, max_evidence)
        except Exception as e:  # the official scorer refuses this case: nothing to compare
            outcome.skipped = True
            options = {} if max_evidence == 5 else {"max_evidence": max_evidence}
            try:  # ... but taskeval must refuse it too (a ValueError), never score it
                got = taskeval_compute("fever_score", gold_path, preds_path, **options)
            except ValueError:
                pass
            else:
                outcome.differences.append(f"official {type(e).__name__}: {e}; taskeval {got}")
            return outcome
        options = {} if max_evidence == 5 else {"max_evidence": max_evidence}
        try:
            got = taskeval_compute("fever_score", gold_path, preds_path, **options)
            compare_values(expected, got, "compute", outcome)
            got = taskeval_files("fever_score", gold_path, preds_path, **options)
            compare_values(expected, got, "files", outcome)
            if rng.random() < 1 / BATCH_EVERY:
                import taskeval

                inputs = taskeval.read_official(
                    "fever_score", references=gold_path, predictions=preds_path
                )
                try:
                    got = _add_batch_compute(inputs, options)
                except UnicodeError as e:
                    if not _has_surrogate(inputs):
                        raise
                    SURROGATE_FAILURES.append(f"{type(e).__name__}: {e}"[:200])
                else:
                    compare_values(expected, got, "add_batch", outcome)
            if with_cli:
                flags = [] if max_evidence == 5 else ["--max-evidence", str(max_evidence)]
                got = taskeval_cli("fever_score", gold_path, preds_path, *flags)
                compare_values(expected, got, "cli", outcome)
        except ValueError as e:
            outcome.refusals.append(f"refused: {e}")
    return outcome


if __name__ == "__main__":
    status = run("fever_score", check)
    print(json.dumps({"add_batch_lone_surrogate_failures": len(SURROGATE_FAILURES)}))
    for line in SURROGATE_FAILURES[:3]:
        print(f"add_batch: {line}", file=sys.stderr)
    sys.exit(status)
