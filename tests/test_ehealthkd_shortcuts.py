"""ehealthkd's shortcuts (``shortcuts.py``) give the very records the official rule gives.

Each shortcut is compared with the rule function it stands in for wherever it applies, and whole
results (the eleven values and the per-item details) with the shortcuts on and off, on random
sentences drawn to make the shortcuts apply or nearly apply, and on the real 2019 submissions.
"""

from __future__ import annotations

import copy
import json
import random
import warnings
from pathlib import Path

import pytest

from taskeval._metrics.ehealthkd import scoring, shortcuts
from taskeval._metrics.ehealthkd.inputs import SCENARIO_FOLDERS, read_scenario
from taskeval._metrics.ehealthkd.rows import normalize_rows

from entries.ehealthkd import random_rows

PARITY = Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "ehealthkd"
needs_corpus = pytest.mark.skipif(not PARITY.is_dir(), reason="parity corpus absent")


def _near_gold(rng: random.Random, gold: dict) -> dict:
    """A prediction that copies the gold key phrases (as scenario 3 submissions do), now and then
    with one label changed, two phrases swapped or an id renamed, and relations that repeat a
    line, or none."""
    pred = copy.deepcopy(gold)
    phrases = pred["keyphrases"]
    change = rng.random()
    if phrases and change < 0.15:
        rng.choice(phrases)["label"] = rng.choice(["Concept", "Action", "concept"])
    elif len(phrases) > 1 and change < 0.3:
        i, j = rng.sample(range(len(phrases)), 2)
        phrases[i], phrases[j] = phrases[j], phrases[i]
    elif phrases and change < 0.4:
        old = rng.choice(phrases)["id"]
        for p in phrases:
            p["id"] = 500 if p["id"] == old else p["id"]
        for r in pred["relations"]:
            r["source"] = 500 if r["source"] == old else r["source"]
            r["target"] = 500 if r["target"] == old else r["target"]
    if rng.random() < 0.3:
        pred["relations"] = []
    elif pred["relations"] and rng.random() < 0.3:
        pred["relations"].append(dict(rng.choice(pred["relations"])))
    return pred


def _inputs(seed: int) -> dict[str, list]:
    rng = random.Random(seed)
    inputs = random_rows(rng, 200)
    near = [_near_gold(rng, g) for g in inputs["references"]]
    return {
        "predictions": inputs["predictions"] + near,
        "references": inputs["references"] * 2,
    }


def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule alone: no shortcut applies."""
    monkeypatch.setattr(shortcuts, "keyphrase_match", lambda submitted, gold: None)
    monkeypatch.setattr(shortcuts, "relation_match", lambda submitted, gold: None)


def test_each_shortcut_gives_the_records_of_its_rule():
    applied = {"keyphrases": 0, "relations": 0, "declined": 0}
    for seed in range(6):
        inputs = _inputs(seed)
        preds = normalize_rows(inputs["predictions"], "predictions")
        refs = normalize_rows(inputs["references"], "references")
        for sub, gold in zip(preds, refs):
            try:
                rule_a = scoring.match_keyphrases(sub.keyphrases, gold.keyphrases)
            except ValueError:
                continue  # where the official tool asserts; no shortcut applies there
            fast_a = shortcuts.keyphrase_match(sub.keyphrases, gold.keyphrases)
            if fast_a is not None:
                assert fast_a == rule_a, (sub, gold)
                applied["keyphrases"] += 1
            elif [(p.pairs, p.label) for p in sub.keyphrases] == [
                (g.pairs, g.label) for g in gold.keyphrases
            ]:
                applied["declined"] += 1  # the same phrases under other ids: the rule runs
            rule_b = scoring.match_relations(sub, gold, rule_a.mapping())
            fast_b = shortcuts.relation_match(sub.relations, gold.relations)
            if fast_b is not None:
                assert fast_b == rule_b, (sub, gold)
                applied["relations"] += 1
    assert min(applied.values()) > 50, applied


@pytest.mark.parametrize("scenario", ["scenario1", "scenario2", "scenario3"])
def test_results_and_details_are_the_same_without_shortcuts(monkeypatch, scenario):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # differing texts are skipped with a warning
        inputs = [
            _inputs(seed) for seed in (12, 14, 20)
        ]  # seeds where the official tool gives numbers
        fast = [scoring.ehealthkd(**i, scenario=scenario, details=True) for i in inputs]
        _plain(monkeypatch)
        plain = [scoring.ehealthkd(**i, scenario=scenario, details=True) for i in inputs]
    assert fast == plain
    assert all(r["details"] for r in fast)


@needs_corpus
def test_real_submissions_score_the_same_without_shortcuts(monkeypatch):
    manifest = json.loads((PARITY / "manifest.json").read_text(encoding="utf-8"))
    scored = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # relations across sentences are dropped with a warning
        for case in manifest["cases"]:
            if case["kind"] != "real":
                continue
            for scenario, folder in SCENARIO_FOLDERS.items():
                sides = read_scenario(
                    PARITY / case["gold"] / folder, PARITY / case["submission"] / folder
                )
                scored.append((scenario, sides))
        fast = [
            scoring.score(sub, gold, scenario, names) for scenario, (sub, gold, names) in scored
        ]
        _plain(monkeypatch)
        plain = [
            scoring.score(sub, gold, scenario, names) for scenario, (sub, gold, names) in scored
        ]
    assert len(scored) == 39
    assert fast == plain
