"""``compare`` and ``score --ci`` of several metrics over the same files (the SciFact
leaderboard's 12 numbers), and the messages for systems that cannot be paired."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import taskeval

from harness import run_cli

REPO = Path(__file__).resolve().parents[1]
SCIFACT = REPO / "spaces" / "scifact_abstract" / "examples"
TYDIQA = REPO / "spaces" / "tydiqa" / "examples"
EHEALTHKD = REPO / "spaces" / "ehealthkd" / "examples"
BOTH = "scifact_abstract,scifact_sentence"


@pytest.fixture(scope="module")
def systems(tmp_path_factory) -> list[str]:
    """The example predictions and a copy with every third claim's evidence dropped."""
    folder = tmp_path_factory.mktemp("systems")
    lines = (SCIFACT / "predictions.jsonl").read_text("utf-8").splitlines()
    worse = []
    for i, line in enumerate(lines):
        row = json.loads(line)
        if i % 3 == 0:
            row["evidence"] = {}
        worse.append(json.dumps(row))
    (folder / "worse.jsonl").write_text("\n".join(worse) + "\n", encoding="utf-8")
    return [str(SCIFACT / "predictions.jsonl"), str(folder / "worse.jsonl")]


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_both_scifact_levels_compared_at_once_are_each_level_compared(systems, method):
    kwargs = dict(
        references=SCIFACT / "claims_dev.jsonl", predictions=systems, resamples=200, seed=3
    )
    both = taskeval.compare(BOTH, method=method, **kwargs)
    alone = [taskeval.compare(m, method=method, **kwargs) for m in BOTH.split(",")]
    assert both["metric"] == BOTH and (both["unit"], both["units"]) == ("claim", 40)
    assert sorted(both) == sorted(alone[0])  # no "options" where no metric has one
    for i in range(2):
        assert both["systems"][i]["scores"] == {
            **alone[0]["systems"][i]["scores"],
            **alone[1]["systems"][i]["scores"],
        }
        assert len(both["systems"][i]["official"]) == 12
    assert both["comparisons"][0]["scores"] == {
        **alone[0]["comparisons"][0]["scores"],
        **alone[1]["comparisons"][0]["scores"],
    }
    assert any(s["p_value"] < 1 for s in both["comparisons"][0]["scores"].values())
    # The command line prints the same.
    argv = ["compare", BOTH, "--references", str(SCIFACT / "claims_dev.jsonl"), "--predictions"]
    argv += [*systems, "--resamples", "200", "--seed", "3", "--method", method]
    code, out, err = run_cli(argv)
    assert code == 0, err
    printed = json.loads(out)
    assert printed["systems"][1]["scores"] == both["systems"][1]["scores"]


def test_score_ci_of_both_levels(systems):
    argv = ["score", BOTH, "--references", str(SCIFACT / "claims_dev.jsonl"), "--predictions"]
    code, out, err = run_cli([*argv, systems[0], "--ci", "--resamples", "50"])
    assert code == 0, err
    result = json.loads(out)
    assert len(result["systems"][0]["scores"]) == 12
    assert result["systems"][0]["official"] == taskeval.score_files(
        BOTH, references=SCIFACT / "claims_dev.jsonl", predictions=systems[0]
    )


def test_a_metric_with_configs_is_compared_alone():
    with pytest.raises(ValueError, match="ehealthkd has configs: compare it alone"):
        taskeval.compare(
            "scifact_abstract,ehealthkd",
            references=SCIFACT / "claims_dev.jsonl",
            predictions=[SCIFACT / "predictions.jsonl"],
        )


def test_tydiqa_systems_predicting_other_examples_are_named(tmp_path):
    lines = (TYDIQA / "predictions.jsonl").read_text("utf-8").splitlines()
    extra = [json.dumps({**json.loads(lines[0]), "example_id": 10**9 + i}) for i in range(9)]
    more = tmp_path / "more.jsonl"
    more.write_text("\n".join(lines + extra) + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        taskeval.compare(
            "tydiqa",
            references=TYDIQA / "gold.jsonl.gz",
            predictions=[TYDIQA / "predictions.jsonl", more],
            resamples=10,
        )
    assert str(refused.value) == (
        "system 1 (more.jsonl) and predictions.jsonl predict other rows (ids 1000000000, "
        "1000000001, 1000000002, 1000000003, 1000000004 and 4 more only in more.jsonl): a "
        "paired comparison needs predictions for the same rows"
    )


def test_ehealthkd_submissions_of_other_scenarios_are_not_paired(tmp_path):
    shutil.copytree(EHEALTHKD / "gold", tmp_path / "gold" / "scenario1-main")
    shutil.copytree(EHEALTHKD / "gold", tmp_path / "gold" / "scenario2-taskA")
    for name in ("scenario1-main", "scenario2-taskA"):
        shutil.copytree(EHEALTHKD / "submission", tmp_path / "a" / name)
    shutil.copytree(EHEALTHKD / "submission", tmp_path / "b" / "scenario2-taskA")
    with pytest.raises(ValueError) as refused:
        taskeval.compare(
            "ehealthkd",
            references=tmp_path / "gold",
            predictions=[tmp_path / "a", tmp_path / "b"],
            resamples=10,
        )
    assert str(refused.value) == (
        f"{tmp_path / 'b'} holds scenario2 but {tmp_path / 'a'} holds scenario1, scenario2: "
        "compare the same scenarios (or pick one)"
    )
