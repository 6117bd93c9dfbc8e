"""SciFact files scored in one pass (``leaderboard_scores``): the official numbers on every parity
case, and on anything unusual the numbers or the error of the checking path."""

from __future__ import annotations

import copy
import gc
import json
import random
from pathlib import Path

import pytest
from scifact_cases import random_rows

from taskeval._metrics.scifact_abstract import inputs
from taskeval._metrics.scifact_abstract.scoring import official_counts, scifact_scores

PARITY = Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "scifact"
CASES = sorted(p for p in (PARITY / "cases").iterdir() if (p / "gold.jsonl").exists())


def _outcome(fn, *args):
    try:
        return fn(*args)
    except ValueError as e:
        return ("error", str(e))


def _checked(gold: Path, predictions: Path):
    return scifact_scores(**inputs.read_official(gold, predictions))


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_parity_cases(case):
    gold, predictions = case / "gold.jsonl", case / "predictions.jsonl"
    got = _outcome(inputs.leaderboard_scores, gold, predictions)
    expected = case / "expected.json"
    if expected.exists() and not isinstance(got, tuple):
        official = json.loads(expected.read_text(encoding="utf-8"))
        assert list(got.items()) == list(official.items())  # the official keys, order and values
    assert got == _outcome(_checked, gold, predictions)


def test_the_one_pass_counts_the_valid_parity_cases():
    """The fast path must not leave valid files to the checking path (that would be slow)."""
    from taskeval._metrics.scifact_abstract.jsonl import read_jsonl

    counted = [
        c.name
        for c in CASES
        if (c / "expected.json").exists()
        and official_counts(read_jsonl(c / "gold.jsonl"), read_jsonl(c / "predictions.jsonl"))
        is not None
    ]
    assert (
        "dev_multivers_scifact_ckpt" in counted and "edge_claim_10_duplicate_sentences" in counted
    )
    assert len(counted) >= 30


def _official_lines(rows: dict) -> tuple[list[dict], list[dict]]:
    gold, predictions = [], []
    for ref in rows["references"]:
        evidence: dict[str, list] = {}
        for e in ref["evidence"]:
            evidence.setdefault(e["doc_id"], []).append(
                {"sentences": e["sentences"], "label": e["label"]}
            )
        gold.append({"id": ref["id"], "evidence": evidence})
    for pred in rows["predictions"]:
        evidence = {
            e["doc_id"]: {"sentences": e["sentences"], "label": e["label"]}
            for e in pred["evidence"]
        }
        predictions.append({"id": pred["id"], "evidence": evidence})
    return gold, predictions


def _files(tmp_path: Path, gold: list[dict], predictions: list[dict]) -> tuple[Path, Path]:
    gold_path, pred_path = tmp_path / "gold.jsonl", tmp_path / "predictions.jsonl"
    gold_path.write_text("".join(json.dumps(g) + "\n" for g in gold), encoding="utf-8")
    pred_path.write_text("".join(json.dumps(p) + "\n" for p in predictions), encoding="utf-8")
    return gold_path, pred_path


def _gold(*rationales: dict) -> dict:
    return {"id": 8, "evidence": {"11": list(rationales)}}


def _pred(**entry) -> dict:
    return {"id": 8, "evidence": {"11": {"sentences": [1], "label": "SUPPORT", **entry}}}


R = {"sentences": [1], "label": "SUPPORT"}
WRONG = {
    "negative predicted sentence": ([_gold(R)], [_pred(sentences=[1, -1])]),
    "negative gold sentence": ([_gold({**R, "sentences": [-1]})], [_pred()]),
    "bool predicted sentence": ([_gold(R)], [_pred(sentences=[True])]),
    "float gold sentence": ([_gold({**R, "sentences": [1.0]})], [_pred()]),
    "sentence repeated in a gold rationale": ([_gold({**R, "sentences": [1, 1]})], [_pred()]),
    "empty gold rationale": ([_gold({**R, "sentences": []})], [_pred()]),
    "no gold rationale": ([_gold()], [_pred()]),
    "two labels for one gold abstract": (
        [_gold(R, {"sentences": [2], "label": "CONTRADICT"})],
        [_pred()],
    ),
    "two labels for one gold abstract, CONTRADICT first": (
        [_gold({"sentences": [2], "label": "CONTRADICT"}, R)],
        [_pred()],
    ),
    "two gold rationales share a sentence": ([_gold(R, {**R, "sentences": [2, 1]})], [_pred()]),
    "predicted label NOT ENOUGH INFO": ([_gold(R)], [_pred(label="NOT ENOUGH INFO")]),
    "predicted label missing": ([_gold(R)], [{"id": 8, "evidence": {"11": {"sentences": [1]}}}]),
    "gold label lowercase": ([_gold({**R, "label": "support"})], [_pred()]),
    "string claim id": ([{**_gold(R), "id": "8"}], [{**_pred(), "id": "8"}]),
    "bool claim id": ([{**_gold(R), "id": True}], [{**_pred(), "id": True}]),
    "claim ids differ": ([_gold(R)], [{**_pred(), "id": 9}]),
    "more predictions than claims": ([_gold(R)], [_pred(), {**_pred(), "id": 9}]),
    "evidence a list": ([_gold(R)], [{"id": 8, "evidence": []}]),
    "a line not an object": ([_gold(R)], [[8]]),
    "gold label missing": ([_gold({"sentences": [1]})], [_pred()]),
    "second gold label missing": ([_gold(R, {"sentences": [2]})], [_pred()]),
    "predicted sentence beyond int64": ([_gold(R)], [_pred(sentences=[1, 2**63])]),
    "gold sentence beyond int64": ([_gold({**R, "sentences": [2**63]})], [_pred()]),
    "claim id beyond int64": ([{**_gold(R), "id": 2**63}], [{**_pred(), "id": 2**63}]),
    "claim id below int64": ([{**_gold(R), "id": -(2**63) - 1}], [{**_pred(), "id": -(2**63) - 1}]),
}


@pytest.mark.parametrize("name", WRONG)
def test_wrong_files_get_the_error_of_the_checking_path(tmp_path, name):
    gold, predictions = _files(tmp_path, *WRONG[name])
    expected = _outcome(_checked, gold, predictions)
    assert isinstance(expected, tuple)  # the checking path refuses it
    assert _outcome(inputs.leaderboard_scores, gold, predictions) == expected


ODD_VALUES = [
    None,
    -1,
    0,
    3,
    "1",
    1.0,
    True,
    [],
    {},
    [1, 1],
    [2, 1],
    "SUPPORTS",
    "CONTRADICT",
    2**70,
]


def _mutate(rng: random.Random, lines: list[dict]) -> None:
    """Replace or delete one value at a random place of one random line."""
    node: object = rng.choice(lines)
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))  # type: ignore[arg-type]
        if not keys:
            return
        key = rng.choice(keys)
        child = node[key]  # type: ignore[index]
        if isinstance(child, (dict, list)) and child and rng.random() < 0.6:
            node = child
            continue
        if isinstance(node, dict) and rng.random() < 0.2:
            del node[key]
        else:
            node[key] = copy.deepcopy(rng.choice(ODD_VALUES))  # type: ignore[index]
        return


def test_random_files_unusual_or_wrong_agree_with_the_checking_path(tmp_path):
    rng = random.Random(15)
    outcomes = set()
    for _ in range(300):
        gold, predictions = _official_lines(random_rows(rng, rng.randint(1, 6)))
        for _ in range(rng.choice([0, 1, 1, 2])):
            _mutate(rng, rng.choice([gold, predictions]))
        if rng.random() < 0.05:
            (gold if rng.random() < 0.5 else predictions).pop()
        gold_path, pred_path = _files(tmp_path, gold, predictions)
        got = _outcome(inputs.leaderboard_scores, gold_path, pred_path)
        assert got == _outcome(_checked, gold_path, pred_path)
        outcomes.add(isinstance(got, tuple))
    assert outcomes == {True, False}  # both scored files and refused ones were met


@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize("name", ["valid", "two labels for one gold abstract"])
def test_scoring_files_leaves_the_garbage_collector_as_it_was(tmp_path, enabled, name):
    """The collector is paused while the files are read and counted, valid or not."""
    files = (
        _files(tmp_path, *WRONG[name])
        if name in WRONG
        else (CASES[0] / "gold.jsonl", CASES[0] / "predictions.jsonl")
    )
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        _outcome(inputs.leaderboard_scores, *files)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
