"""fever_score against the real FEVER scorer (PyPI ``fever-scorer`` 2.0.39) on random files.

Each case writes a prediction JSONL (and, in blind mode, a gold JSONL) with edge cases: sentence
0, lines beyond 64 bits, escaped lone surrogates and Unicode in page titles, duplicates,
truncation bounds, empty groups and lists, ``\\r`` and ``\\r\\n`` line breaks. The official side
reads the files as the shared-task scorer script does (text mode, ``json.loads`` per line) and
calls ``fever.scorer.fever_score``; taskeval goes through ``compute(**read_official(...))`` and,
every ``--cli-every``-th case, ``taskeval score fever_score``.

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

KEYS = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall", "evidence_f1")
LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
PAGES = ["A", "B", "Page_one", "Beyonce\u0301", "Beyoncé", "Ωmega", "\ud800", "x\udfff", "", "日本"]


def _sentence(rng: random.Random) -> list:
    return [rng.choice(PAGES), int_edge(rng, 3)]


def _claim(rng: random.Random, number: int) -> tuple[dict, dict]:
    gold_label = rng.choice(LABELS)
    if gold_label == "NOT ENOUGH INFO":
        evidence = [[[rng.randint(1, 9**6), None, None, None]] for _ in range(rng.randint(1, 2))]
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
    roll = rng.random()
    label = gold_label if roll < 0.5 else gold_label.lower() if roll < 0.6 else rng.choice(LABELS)
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
        except Exception:  # the official scorer refuses this case: nothing to compare
            outcome.skipped = True
            return outcome
        options = {} if max_evidence == 5 else {"max_evidence": max_evidence}
        try:
            got = taskeval_compute("fever_score", gold_path, preds_path, **options)
            compare_values(expected, got, "compute", outcome)
            got = taskeval_files("fever_score", gold_path, preds_path, **options)
            compare_values(expected, got, "files", outcome)
            if with_cli:
                flags = [] if max_evidence == 5 else ["--max-evidence", str(max_evidence)]
                got = taskeval_cli("fever_score", gold_path, preds_path, *flags)
                compare_values(expected, got, "cli", outcome)
        except ValueError as e:
            outcome.refusals.append(f"refused: {e}")
    return outcome


if __name__ == "__main__":
    sys.exit(run("fever_score", check))
