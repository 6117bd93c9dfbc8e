"""FEVER files scored straight from their parsed lines (``score_files``): on every parity case
and on mutated files, the numbers or the error of the checking path
(``fever_score(**read_official(...))``), and the official numbers where the corpus has them."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from taskeval._metrics.fever_score import inputs
from taskeval._metrics.fever_score.scoring import fever_score

PARITY = Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "fever" / "cases"
CASES = sorted(p for p in PARITY.iterdir() if (p / "predictions.jsonl").exists())


def _outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except ValueError as e:
        return ("error", str(e))


def _checked(gold, predictions, **options):
    return fever_score(**inputs.read_official(gold, predictions), **options)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_parity_cases(case):
    gold = case / "actual.jsonl" if (case / "actual.jsonl").exists() else None
    predictions = case / "predictions.jsonl"
    args = case / "args.json"
    options = json.loads(args.read_text(encoding="utf-8")) if args.exists() else {}
    got = _outcome(inputs.score_files, gold, predictions, **options)
    assert got == _outcome(_checked, gold, predictions, **options)
    expected = case / "expected.json"
    if expected.exists() and not isinstance(got, tuple):
        official = json.loads(expected.read_text(encoding="utf-8"))
        assert list(got.values()) == list(
            official.values() if isinstance(official, dict) else official
        )


def test_a_bad_max_evidence_is_reported_as_the_checking_path_does(tmp_path):
    case = PARITY / "edge_A2_readme_example2_blind"
    gold, predictions = case / "actual.jsonl", case / "predictions.jsonl"
    got = _outcome(inputs.score_files, gold, predictions, max_evidence=1.5)
    assert isinstance(got, tuple)
    assert got == _outcome(_checked, gold, predictions, max_evidence=1.5)


ODD = [None, -1, 0, "0", 1.5, True, [], {}, ["Page", 1], ["Page", "1"], "SUPPORTS", "REFUTES"]


def _mutate(rng: random.Random, lines: list) -> None:
    node = rng.choice(lines)
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = rng.choice(keys)
        child = node[key]
        if isinstance(child, (dict, list)) and child and rng.random() < 0.7:
            node = child
            continue
        if isinstance(node, dict) and rng.random() < 0.2:
            del node[key]
        else:
            node[key] = copy.deepcopy(rng.choice(ODD))
        return


def _lines(path: Path) -> list:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_mutated_files_agree_with_the_checking_path(tmp_path):
    rng = random.Random(15)
    sources = [c for c in CASES if c.name.startswith("synthetic_s2101") or "blind" in c.name]
    outcomes = set()
    for _ in range(200):
        case = rng.choice(sources)
        predictions = _lines(case / "predictions.jsonl")[:40]
        gold = _lines(case / "actual.jsonl")[:40] if (case / "actual.jsonl").exists() else None
        for _ in range(rng.choice([0, 1, 1, 2])):
            _mutate(rng, rng.choice([predictions, gold]) if gold else predictions)
        if gold and rng.random() < 0.05:
            gold.pop()
        pred_path, gold_path = tmp_path / "predictions.jsonl", tmp_path / "actual.jsonl"
        pred_path.write_text("".join(json.dumps(x) + "\n" for x in predictions), encoding="utf-8")
        if gold is not None:
            gold_path.write_text("".join(json.dumps(x) + "\n" for x in gold), encoding="utf-8")
        references = gold_path if gold is not None else None
        got = _outcome(inputs.score_files, references, pred_path)
        assert got == _outcome(_checked, references, pred_path)
        outcomes.add(isinstance(got, tuple))
    assert outcomes == {True, False}
