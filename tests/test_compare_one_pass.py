"""A metric's official numbers and unit statistics in one pass (``official_and_stats``) are, to
the last bit and type, its ``official`` and ``stats`` computed apart: on the parity corpus'
files, on rows in the other forms ``compute()`` takes (where the one pass falls back), and on
rows it refuses (the same error)."""

from __future__ import annotations

import copy

import pytest

import taskeval
from taskeval.registry import contract

from harness import PARITY

FEVER = sorted((PARITY / "fever" / "cases").glob("*/predictions.jsonl"))
EHEALTHKD = PARITY / "ehealthkd" / "real"
needs_parity = pytest.mark.skipif(not PARITY.is_dir(), reason="the parity corpus is absent")


def _outcome(function, inputs: dict):
    """The result, or the message of the ValueError raised."""
    try:
        return function(inputs)
    except ValueError as e:
        return str(e)


def _check(name: str, config: str | None, options: dict, inputs: dict) -> None:
    statistics = contract(name).statistics(config, options)
    before = copy.deepcopy(inputs)
    together = _outcome(statistics.official_and_stats, inputs)
    assert inputs == before  # the caller's rows are not touched
    official, rows = _outcome(statistics.official, inputs), _outcome(statistics.stats, inputs)
    if isinstance(official, str):  # refused rows: the same error
        assert together == official
        return
    official_once, rows_once = together
    assert official_once == official
    assert list(official_once) == list(official)
    assert [type(v) for v in official_once.values()] == [type(v) for v in official.values()]
    assert [tuple(r) for r in rows_once] == [tuple(r) for r in rows]


def _fever_cases() -> list[dict]:
    cases = []
    for predictions in FEVER:
        gold = predictions.parent / "actual.jsonl"
        try:
            cases.append(
                taskeval.read_official(
                    "fever_score",
                    references=gold if gold.is_file() else None,
                    predictions=predictions,
                )
            )
        except ValueError:  # a case of a refused file
            continue
    return cases


@needs_parity
@pytest.mark.parametrize("max_evidence", [5, 1, None])
def test_fever_one_pass_on_the_parity_files(max_evidence):
    cases = _fever_cases()
    assert len(cases) > 20
    for inputs in cases:
        options = {"max_evidence": max_evidence}
        _check("fever_score", None, options, inputs)


@needs_parity
def test_fever_one_pass_on_rows_in_other_forms_and_refused_rows():
    inputs = _fever_cases()[0]
    # evidence as {"page", "line"} records: not the official list form, the checking path
    records = {
        "predictions": [
            {
                **p,
                "predicted_evidence": [
                    {"page": e[0], "line": e[1]} for e in p["predicted_evidence"]
                ],
            }
            for p in inputs["predictions"]
        ],
        "references": inputs["references"],
    }
    _check("fever_score", None, {}, records)
    broken = {**inputs, "predictions": [*inputs["predictions"][:-1], {"predicted_label": 3}]}
    with pytest.raises(ValueError):
        contract("fever_score").statistics(None, {}).official(broken)
    _check("fever_score", None, {}, broken)


@needs_parity
@pytest.mark.parametrize("scenario", ["scenario1", "scenario2", "scenario3"])
def test_ehealthkd_one_pass_on_real_runs(scenario):
    folder = {"scenario1": "scenario1-main", "scenario2": "scenario2-taskA"}.get(
        scenario, "scenario3-taskB"
    )
    runs = sorted((EHEALTHKD / "cases").glob(f"*/submission/{folder}"))
    assert runs
    for run in runs[:2]:
        inputs = taskeval.read_official(
            "ehealthkd", references=EHEALTHKD / "gold" / folder, predictions=run
        )
        _check("ehealthkd", scenario, {}, inputs)
