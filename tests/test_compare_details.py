"""taskeval compare: argument checks, chunked draws, worker processes, names and the table.

Each test pins a behaviour with a fixed expected value (see docs/mutation.md for the mutants
they were written against).
"""

from __future__ import annotations

import importlib
import itertools
from typing import ClassVar

import numpy as np
import pytest
from test_compare_exact import _exact_bootstrap_p, _mc_tolerance

from taskeval.compare import compare, compare_rows, format_result, intervals, short_names
from taskeval.registry import metric_module
from taskeval.units import identity_scores

from harness import resample_one_by_one

compare_module = importlib.import_module("taskeval.compare")

GOLD = {"label": "SUPPORTS", "evidence": [[[None, None, "page", 0]]]}
RIGHT = {"predicted_label": "SUPPORTS", "predicted_evidence": [["page", 0]]}
WRONG = {"predicted_label": "REFUTES", "predicted_evidence": [["page", 0]]}


def _fever(*outcomes: str) -> list[dict]:
    refs = [GOLD] * len(outcomes[0])
    return [
        {"predictions": [RIGHT if c == "1" else WRONG for c in o], "references": refs}
        for o in outcomes
    ]


def test_defaults_and_argument_checks():
    result = compare_rows("fever_score", _fever("01"))
    assert result["resamples"] == 1000
    assert result["seed"] == 12345 and result["confidence"] == 0.95
    assert result["method"] == "bootstrap"
    two = compare_rows("fever_score", _fever("01", "11"), resamples=3)
    assert [s["name"] for s in two["systems"]] == ["system 1", "system 2"]
    assert two["comparisons"][0]["system"] == "system 2"
    assert two["comparisons"][0]["baseline"] == "system 1"
    systems = _fever("01", "11")
    for kwargs in (
        {"confidence": 0.0},
        {"confidence": 1.0},
        {"confidence": -0.5},
        {"confidence": 1},
        {"workers": 0},
        {"workers": True},
        {"workers": 1.5},
        {"resamples": True},
        {"seed": True},
    ):
        with pytest.raises(ValueError):
            compare_rows("fever_score", systems, **{"resamples": 3, **kwargs})
    for bad in (1.0, 1.5, 0.0, -0.5):
        with pytest.raises(ValueError, match="confidence must be a float between 0 and 1"):
            compare_rows("fever_score", systems, resamples=3, confidence=bad)
    for kwargs in ({"workers": 2}, {"workers": 1}, {"seed": 0}, {"seed": None}, {"resamples": 1}):
        compare_rows("fever_score", systems, **{"resamples": 3, **kwargs})
    with pytest.raises(ValueError, match="3 names for 2 systems"):
        compare_rows("fever_score", systems, names=["a", "b", "c"])
    with pytest.raises(TypeError):
        compare_rows("fever_score", systems, ["a", "b"])
    with pytest.raises(ValueError, match="expected compute\\(\\) inputs"):
        compare_rows("fever_score", [{"predictions": systems[0]["predictions"]}])
    with pytest.raises(ValueError, match="expected compute\\(\\) inputs"):
        compare_rows("fever_score", [["predictions", "references"]])
    with pytest.raises(ValueError, match="at least one system"):
        compare_rows("fever_score", [])
    other = {**systems[1], "references": [GOLD, dict(GOLD, label="REFUTES")]}
    with pytest.raises(
        ValueError, match=r"system 1 \(B\) is scored against other references than A:"
    ):
        compare_rows("fever_score", [systems[0], other], names=["A", "B"])
    with pytest.raises(TypeError):
        compare("fever_score", "gold.jsonl", ["pred.jsonl"])
    with pytest.raises(TypeError):
        intervals("fever_score", systems[0], None)
    # other keys beside the two inputs are left alone
    extra = [{**system, "name": "x"} for system in systems]
    assert compare_rows("fever_score", extra, resamples=3)["units"] == 2
    with pytest.raises(ValueError, match=r"has no option foo \(it takes none\)"):
        compare_rows("scifact_abstract", [{"predictions": [], "references": []}], foo=1)
    with pytest.raises(ValueError, match=r"has no option foo \(options: max_evidence\)"):
        compare_rows("fever_score", systems, foo=1)


def test_default_workers_are_the_cpus_up_to_eight(monkeypatch):
    for cpus, expected in ((16, 8), (8, 8), (3, 3), (1, 1), (None, 1)):
        monkeypatch.setattr(compare_module.os, "cpu_count", lambda cpus=cpus: cpus)
        assert compare_module._workers(None) == expected
    assert compare_module._workers(5) == 5


def test_draws_in_chunks_give_exactly_the_resamples_asked(monkeypatch):
    """With a tiny chunk size the resamples come in several chunks; their count is exact.

    A right on no claim, B on every one: no resample is as extreme (bootstrap), or one in 2^19
    (randomization), so p = 1 / (resamples + 1) tells how many resamples there were."""
    monkeypatch.setattr(compare_module, "_CELLS", 60)  # 3 resamples of 20 claims per chunk
    systems = _fever("0" * 20, "1" * 20)
    for method in ("bootstrap", "randomization"):
        result = compare_rows("fever_score", systems, method=method, resamples=10, seed=1)
        assert result["comparisons"][0]["scores"]["label_accuracy"]["p_value"] == 1 / 11
    assert compare_module._chunks(10, 20) == [3, 3, 3, 1]
    monkeypatch.setattr(compare_module, "_CELLS", 1)  # fewer cells than units: one at a time
    assert compare_module._chunks(3, 20) == [1, 1, 1]
    monkeypatch.setattr(compare_module, "_CELLS", 4)
    assert compare_module._chunks(5, 1) == [4, 1]
    monkeypatch.setattr(compare_module, "_CELLS", 60)
    assert compare_module._chunks(3, 20) == [3]


def test_one_unit():
    """One claim: every resample is the sample itself."""
    result = compare_rows("fever_score", _fever("1", "0"), resamples=5)
    assert result["units"] == 1
    assert result["systems"][0]["scores"]["label_accuracy"] == {
        "score": 1.0,
        "low": 1.0,
        "high": 1.0,
    }
    entry = result["comparisons"][0]["scores"]["label_accuracy"]
    assert (entry["difference"], entry["low"], entry["high"]) == (-1.0, -1.0, -1.0)


def test_three_systems_are_each_compared_with_the_first():
    """Resamples and swaps are shared by all systems: each comparison equals the comparison of
    that system alone with the first, under the same seed."""
    a, b, c = _fever("0" * 20, "1" * 10 + "0" * 10, "1" * 20)
    for method in ("bootstrap", "randomization"):
        three = compare_rows("fever_score", [a, b, c], method=method, resamples=300, seed=3)
        for system, comparison in zip((b, c), three["comparisons"]):
            two = compare_rows("fever_score", [a, system], method=method, resamples=300, seed=3)
            assert comparison["scores"] == two["comparisons"][0]["scores"]
        assert three["comparisons"][0]["scores"] != three["comparisons"][1]["scores"]


def test_no_units_at_all():
    empty = {"predictions": [], "references": []}
    for method in ("bootstrap", "randomization"):
        result = compare_rows("scifact_abstract", [empty], method=method, resamples=4)
        assert result["units"] == 0
        for score in result["systems"][0]["scores"].values():
            assert score == {"score": 0.0, "low": 0.0, "high": 0.0}
        result = compare_rows("scifact_abstract", [empty, empty], method=method, resamples=4)
        for entry in result["comparisons"][0]["scores"].values():
            assert entry["p_value"] == 1.0 and entry["difference"] == 0.0


# ---------------------------------------------------------------------------------------------
# Worker processes for the metrics scored resample by resample (TyDi QA)


def _tydi(outcomes_a: str, outcomes_b: str) -> list[dict]:
    """One language; per example, 1: the system picks the gold passage (all scores equal)."""
    annotation = {"candidate_index": 0, "start_byte": -1, "end_byte": -1, "yes_no_answer": "none"}
    refs = [
        {"example_id": 10 + i, "language": "thai", "annotations": [annotation] * 3}
        for i in range(len(outcomes_a))
    ]

    def prediction(i: int, right: str) -> dict:
        return {
            "example_id": 10 + i,
            "language": "thai",
            "passage_answer_index": 0 if right == "1" else 1,
            "passage_answer_score": 5.0,
            "minimal_answer": {"start_byte_offset": -1, "end_byte_offset": -1},
            "minimal_answer_score": 0.0,
            "yes_no_answer": "none",
        }

    return [
        {"predictions": [prediction(i, c) for i, c in enumerate(o)], "references": refs}
        for o in (outcomes_a, outcomes_b)
    ]


class _InlinePool:
    """Stands in for the process pool: runs the parts here, and records that it was used."""

    used: ClassVar[list[int]] = []
    parts: ClassVar[list[int]] = []

    def __init__(self, workers, mp_context=None):
        _InlinePool.used.append(workers)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, function, *iterables):
        out = list(map(function, *iterables))
        _InlinePool.parts.append(len(out))
        return out


def test_worker_processes_split_the_resamples_without_changing_the_result(monkeypatch):
    # Resamples scored one by one (a stratified metric without ManyResamples) use the workers.
    resample_one_by_one(monkeypatch)
    systems = _tydi("10110", "11011")
    args = dict(method="randomization", resamples=9, seed=4)
    serial = compare_rows("tydiqa", systems, workers=1, **args)
    monkeypatch.setattr(compare_module, "ProcessPoolExecutor", _InlinePool)
    # Threads other tests left running (servers) must not decide: the count is set here.
    threads = [1]
    monkeypatch.setattr(compare_module.threading, "active_count", lambda: threads[0])
    _InlinePool.used = []
    split = compare_rows("tydiqa", systems, workers=2, **args)
    assert _InlinePool.used == [2, 2]  # the bootstrap and the randomization
    assert split == serial
    # too few resamples for two workers, one worker, or threads running: no pool
    _InlinePool.used = []
    assert compare_rows("tydiqa", systems, workers=5, **args) == serial
    assert compare_rows("tydiqa", systems, workers=1, **args) == serial
    assert _InlinePool.used == []
    _InlinePool.parts = []
    assert compare_rows("tydiqa", systems, workers=3, **args) == serial
    assert _InlinePool.used == [3, 3] and _InlinePool.parts == [3, 3]
    _InlinePool.used = []
    threads[0] = 2
    assert compare_rows("tydiqa", systems, workers=2, **args) == serial
    assert _InlinePool.used == []
    threads[0] = 1
    _InlinePool.used = []
    compare_rows("tydiqa", systems, workers=2, method="bootstrap", resamples=4, seed=4)
    assert _InlinePool.used == [2]


def test_tydiqa_language_predicted_without_gold():
    """A language with predictions and no gold example is scored (all zeros) in every resample:
    the macro averages over thai and korean are half of thai's."""
    systems = _tydi("11111", "11111")
    for system in systems:
        system["predictions"] = [
            *system["predictions"],
            dict(system["predictions"][0], example_id=99, language="korean"),
        ]
        system["references"] = [*system["references"], {"example_id": None}]
    result = compare_rows("tydiqa", systems, method="randomization", resamples=20, workers=1)
    for system in result["systems"]:
        score = system["scores"]["avg_passage_f1"]
        assert score == {"score": 0.5, "low": 0.5, "high": 0.5}
    assert result["comparisons"][0]["scores"]["avg_passage_f1"]["p_value"] == 1.0


def test_tydiqa_units_of_an_example_without_prediction():
    """Thai: gold example 13 answered right with score -1, gold example 14 without answer and
    without prediction, which the official sweep counts as a predicted null with score 0 (a
    quirk). Sorted by score: 0 (1 predicted, 0 right), then -1 (2 predicted, 1 right): the best
    F1 is 2 * 0.5 * 1 / 1.5 = 2/3. Korean, one example right: 1. Macro: 5/6. Example 14's id is
    just below the largest, 15: the units must not take it for a free id."""
    no_answer = {"candidate_index": -1, "start_byte": -1, "end_byte": -1, "yes_no_answer": "none"}
    answer = dict(no_answer, candidate_index=0)
    references = [
        {"example_id": 13, "language": "thai", "annotations": [answer] * 3},
        {"example_id": 14, "language": "thai", "annotations": [no_answer] * 3},
        {"example_id": 15, "language": "korean", "annotations": [answer] * 3},
    ]
    base = _tydi("1", "1")[0]["predictions"][0]
    predictions = [
        dict(base, example_id=13, language="thai", passage_answer_score=-1.0),
        {"example_id": None},
        dict(base, example_id=15, language="korean"),
    ]
    inputs = {"predictions": predictions, "references": references}
    assert identity_scores("tydiqa", inputs)["avg_passage_f1"] == pytest.approx(5 / 6)
    result = compare_rows("tydiqa", [inputs], resamples=5, workers=1)
    assert result["units"] == 3
    assert result["systems"][0]["scores"]["avg_passage_f1"]["score"] == pytest.approx(5 / 6)


def test_tydiqa_bootstrap_p_value_equals_the_exact_enumeration():
    """Each example right for exactly one system (equal scores, so F1 = the share right): the
    resampled difference is (2k - 5) / 5 for k draws of B's four examples, as for accuracies."""
    diffs = [1, 1, 1, 1, -1]
    exact = _exact_bootstrap_p(diffs)
    assert exact == pytest.approx(0.05792)  # P(Binomial(5, 4/5) <= 2)
    result = compare_rows("tydiqa", _tydi("00001", "11110"), resamples=4000, seed=12, workers=1)
    entry = result["comparisons"][0]["scores"]["avg_passage_f1"]
    assert entry["difference"] == 0.8 - 0.2
    assert entry["p_value"] == pytest.approx(exact, abs=_mc_tolerance(exact, 4000))


def test_tydiqa_bootstrap_p_value_is_a_bootstrap_one():
    """B right and A wrong on every example: every resample has the same difference, so the
    centred bootstrap finds none as extreme, p = 1 / (resamples + 1) (randomization: 2/32)."""
    result = compare_rows("tydiqa", _tydi("00000", "11111"), resamples=99, seed=2, workers=1)
    entry = result["comparisons"][0]["scores"]["avg_passage_f1"]
    assert entry["p_value"] == 1 / 100
    assert entry["low"] == entry["high"] == entry["difference"] == 1.0


def test_tydiqa_randomization_swaps_each_example_with_probability_one_half():
    """Five examples where B alone picks the gold passage (equal scores, so F1 = the share
    right): |difference| is as large as observed only when no example or every example is
    swapped, 2 of the 32 swaps. Swapping with probability 2/3 would give 33/243."""
    systems = _tydi("00000", "11111")
    core = metric_module("tydiqa", "scoring")
    observed = core.tydiqa_score(**systems[1])["avg_passage_f1"]
    assert observed == 1.0 and core.tydiqa_score(**systems[0])["avg_passage_f1"] == 0
    hits = 0
    for swap in itertools.product((False, True), repeat=5):
        a = "".join("1" if s else "0" for s in swap)
        b = "".join("0" if s else "1" for s in swap)
        first, second = (core.tydiqa_score(**s)["avg_passage_f1"] for s in _tydi(a, b))
        hits += abs(second - first) >= 1.0
    assert hits == 2
    result = compare_rows(
        "tydiqa", systems, method="randomization", resamples=4000, seed=8, workers=1
    )
    p = result["comparisons"][0]["scores"]["avg_passage_f1"]["p_value"]
    assert abs(p - 2 / 32) < 0.025


# ---------------------------------------------------------------------------------------------
# Names and the table


def test_short_names_are_the_shortest_distinct_tails():
    assert short_names(["a/b/c.jsonl", "d/b/e.jsonl"]) == ["c.jsonl", "e.jsonl"]
    assert short_names(["/r/a/p.jsonl", "/r/b/p.jsonl"]) == ["a/p.jsonl", "b/p.jsonl"]
    assert short_names(["x/run1/p.jsonl", "x/run2/p.jsonl"]) == ["run1/p.jsonl", "run2/p.jsonl"]
    assert short_names(["p.jsonl", "p.jsonl"]) == ["p.jsonl", "p.jsonl"]  # nothing tells them apart
    assert short_names([]) == []
    # the whole path is tried as parts too, so it comes out normalized
    assert short_names(["./a/p.jsonl", "./b/p.jsonl"]) == ["a/p.jsonl", "b/p.jsonl"]


@pytest.fixture
def fixed_resamples(monkeypatch):
    """Resample k of system i is k * (i + 1) / 100."""

    def fake(a, systems, method, resamples, seed, workers):
        values = np.arange(resamples, dtype=np.float64) / 100
        return [{key: values * (i + 1) for key in a.keys} for i in range(len(systems))], None, 2

    monkeypatch.setattr(compare_module, "_resample", fake)


TABLE = """\
fever_score: 2 claims, 101 resamples, seed 12345; 95% paired-bootstrap intervals; p-values: paired bootstrap (centred)

score               system                value   95% interval      diff vs aaaaaaaaaaaaaaaaaaaa  95% interval        p
------------------  --------------------  ------  ----------------  ----------------------------  ------------------  ------
strict_score        aaaaaaaaaaaaaaaaaaaa  0.5000  [0.0250, 0.9750]
                    b                     1.0000  [0.0500, 1.9500]  +0.5000                       [+0.0250, +0.9750]  0.0294
label_accuracy      aaaaaaaaaaaaaaaaaaaa  0.5000  [0.0250, 0.9750]
                    b                     1.0000  [0.0500, 1.9500]  +0.5000                       [+0.0250, +0.9750]  0.0294
evidence_precision  aaaaaaaaaaaaaaaaaaaa  1.0000  [0.0250, 0.9750]
                    b                     1.0000  [0.0500, 1.9500]  +0.0000                       [+0.0250, +0.9750]  1.0000
evidence_recall     aaaaaaaaaaaaaaaaaaaa  1.0000  [0.0250, 0.9750]
                    b                     1.0000  [0.0500, 1.9500]  +0.0000                       [+0.0250, +0.9750]  1.0000
evidence_f1         aaaaaaaaaaaaaaaaaaaa  1.0000  [0.0250, 0.9750]
                    b                     1.0000  [0.0500, 1.9500]  +0.0000                       [+0.0250, +0.9750]  1.0000"""


def test_table(fixed_resamples):
    """Resamples 0..1 (A) and 0..2 (B) in 101 steps: 95% intervals at the 2.5% and 97.5% points;
    centred differences at least 0.5 from their mean 0.5: the first and the last, p = 3/102."""
    systems = _fever("10", "11")
    result = compare_rows("fever_score", systems, names=["a" * 20, "b"], resamples=101)
    assert format_result(result) == TABLE
    short = compare_rows("fever_score", systems, names=["a", "b"], resamples=101)
    assert "diff vs a " in format_result(short).splitlines()[2]
    # a longer baseline name is not repeated in the header
    result = compare_rows("fever_score", systems, names=["a" * 21, "b"], resamples=101)
    assert "diff vs the first" in format_result(result).splitlines()[2]
    three = compare_rows(
        "fever_score", [*systems, systems[1]], names=["a", "b", "c"], resamples=101
    )
    rows = format_result(three).splitlines()
    # b and c against a: differences 0.01 k and 0.02 k, centred at 0.5 and 1.0
    assert rows[5].split()[-4:] == ["+0.5000", "[+0.0250,", "+0.9750]", "0.0294"]
    assert rows[6].split()[-4:] == ["+0.5000", "[+0.0500,", "+1.9500]", f"{53 / 102:.4f}"]
    single = format_result(compare_rows("fever_score", systems[:1], names=["x"], resamples=101))
    assert single.splitlines()[:5] == [
        "fever_score: 2 claims, 101 resamples, seed 12345; 95% paired-bootstrap intervals",
        "",
        "score               system  value   95% interval",
        "------------------  ------  ------  ----------------",
        "strict_score        x       0.5000  [0.0250, 0.9750]",
    ]


def test_table_of_ehealthkd_scenarios(fixed_resamples):
    row = {"text": "a b", "keyphrases": [], "relations": []}
    one = {"predictions": [row], "references": [row]}
    result = {
        "scenario2": compare_rows("ehealthkd", [one], config_name="scenario2", resamples=5),
    }
    text = format_result(result)
    assert text.splitlines()[:2] == [
        "== scenario2",
        "ehealthkd scenario2: 2 sentences, 5 resamples, seed 12345; 95% paired-bootstrap intervals",
    ]
    randomization = compare_rows(
        "ehealthkd", [one, one], config_name="scenario2", method="randomization", resamples=5
    )
    assert (
        format_result(randomization)
        .splitlines()[0]
        .endswith("; p-values: approximate randomization")
    )
