"""TyDiQA-GoldP inside EleutherAI's lm-evaluation-harness (``taskeval[lmeval]``), end to end.

The harness's own command line runs taskeval's tasks on made-up questions in the nine languages,
answering with recorded generations (``replay_lm.py``), offline; its printed group number and
per-language numbers must equal ``taskeval score`` on the same generations written as the
official files, and ``taskeval compare --lm-eval-logs`` on two runs' logs must equal
``taskeval compare`` on the two runs' official files. The harness's own ``tydiqa_goldp_<xx>``
tasks are run too, where its release has them: their logs give the same official numbers.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taskeval import lm_eval_logs
from taskeval._metrics.tydiqa_goldp.scoring import AVERAGED, LANGUAGES, average
from taskeval.cli import main

from entries.tydiqa_goldp import compensated_sum
from entries.tydiqa_goldp.lm_eval_data import (
    CODES,
    GROUP,
    harness_own_configs,
    made_up,
    official_files,
    task_configs,
)

try:
    import lm_eval  # noqa: F401 (whether the harness is there)
except ImportError:  # the lmeval extra, which the test environment has: CI fails without it
    if os.environ.get("CI"):
        raise
    pytest.skip(
        "lm-evaluation-harness is not installed (taskeval[lmeval])", allow_module_level=True
    )

HERE = Path(__file__).resolve().parent
HARNESS = tuple(int(part) for part in importlib.metadata.version("lm_eval").split(".")[:3])


def _sensitive_seed() -> int:
    """The first seed whose official F1 mean, for both systems, has other last bits when the
    eight languages are added with compensation (as the harness's group mean would be, on
    Python 3.12 and later, without ``InOrder``)."""
    from taskeval._metrics.tydiqa_goldp.rows import score_rows

    for seed in range(200):
        data = made_up(seed)
        ok = True
        for generations in data["systems"]:
            predictions = [{"id": k, "prediction_text": v} for k, v in generations.items()]
            references = [{"id": r["id"], "answers": r["answers"]} for r in data["rows"]]
            result = score_rows(predictions, references)
            f1s = [result["per_language"][language]["f1"] for language in AVERAGED]
            ok = ok and compensated_sum(f1s) / len(f1s) != average(f1s)
        if ok:
            return seed
    raise AssertionError("no seed among 200 tells the two sums apart")


def _run_harness(tasks: Path, generations: dict, names: list[str], out: Path) -> dict:
    """The harness's command line on ``names``; its results JSON."""
    out.mkdir()
    recorded = out / "generations.json"
    recorded.write_text(json.dumps(generations, ensure_ascii=False), encoding="utf-8")
    env = {
        **os.environ,
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_CACHE": str(out / "cache"),
        "HF_HOME": str(out / "hf"),
    }
    command = [sys.executable, str(HERE / "replay_lm.py"), "run"]
    command += ["--model", "taskeval-replay", "--model_args", f"generations={recorded}"]
    command += ["--tasks", ",".join(names), "--include_path", str(tasks)]
    command += ["--log_samples", "--output_path", str(out / "run")]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=out, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    (results,) = (out / "run").rglob("results_*.json")
    return {"results": json.loads(results.read_text(encoding="utf-8")), "stdout": done.stdout}


@pytest.fixture(scope="module")
def harness_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lm_eval")
    data = made_up(_sensitive_seed())
    tasks = task_configs(data, folder)
    gold, predictions = official_files(data, folder)
    ours = [GROUP, f"{GROUP}_en"]
    runs = [
        _run_harness(tasks, generations, ours, folder / f"system{i}")
        for i, generations in enumerate(data["systems"])
    ]
    own = None
    if harness_own_configs():
        own = _run_harness(
            tasks, data["systems"][0], [f"tydiqa_goldp_{c}" for c in CODES.values()], folder / "own"
        )
    return {"data": data, "gold": gold, "predictions": predictions, "runs": runs, "own": own,
            "folder": folder}  # fmt: skip


def _taskeval(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_the_group_prints_the_official_number_of_the_same_generations(harness_runs, capsys):
    for run, predictions in zip(harness_runs["runs"], harness_runs["predictions"]):
        results = run["results"]["results"]
        official = _taskeval(
            capsys, "score", "tydiqa_goldp", "--references", str(harness_runs["gold"]),
            "--predictions", str(predictions),
        )  # fmt: skip
        assert results[GROUP]["taskeval_exact_match,none"] == official["exact_match"]
        assert results[GROUP]["taskeval_f1,none"] == official["f1"]
        for language, code in CODES.items():
            task = results[f"{GROUP}_{code}"]
            assert (
                task["taskeval_exact_match,none"]
                == official["per_language"][language]["exact_match"]
            )
            assert task["taskeval_f1,none"] == official["per_language"][language]["f1"]
        assert GROUP in run["stdout"] and "taskeval_f1" in run["stdout"]  # the printed table


# The made-up data's official numbers: each language's questions through the real
# evaluate-v1.1.py (allenai/bi-att-flow), then the mean of the eight non-English languages.
EXPECTED_GROUP = [(69.18154761904762, 63.57638888888889), (56.94940476190476, 56.08630952380952)]


def test_the_numbers_are_fixed(harness_runs):
    """The group's numbers of the made-up data, as the official procedure gives them."""
    results = [run["results"]["results"][GROUP] for run in harness_runs["runs"]]
    got = [(r["taskeval_exact_match,none"], r["taskeval_f1,none"]) for r in results]
    assert got == EXPECTED_GROUP


def test_compare_on_two_runs_logs_equals_compare_on_theirofficial_files(harness_runs, capsys):
    runs = [str(harness_runs["folder"] / f"system{i}" / "run") for i in range(2)]
    settings = ["--names", "A", "B", "--resamples", "400", "--seed", "7"]
    from_logs = _taskeval(capsys, "compare", "tydiqa_goldp", "--lm-eval-logs", *runs, *settings)
    from_files = _taskeval(
        capsys, "compare", "tydiqa_goldp", "--references", str(harness_runs["gold"]),
        "--predictions", *map(str, harness_runs["predictions"]), *settings,
    )  # fmt: skip
    assert from_logs == from_files
    assert from_logs["units"] == len(harness_runs["data"]["rows"])
    assert from_logs["comparisons"][0]["scores"]["f1"]["difference"] != 0


def test_the_harness_own_tasks_logs_give_the_official_numbers(harness_runs, capsys):
    own = harness_runs["own"]
    if own is None:
        assert HARNESS < (0, 4, 13)  # the harness's tydiqa_goldp_<xx> came with 0.4.13
        return
    run = str(harness_runs["folder"] / "own" / "run")
    baseline = str(harness_runs["folder"] / "system0" / "run")
    settings = ["--names", "own", "ours", "--resamples", "400"]
    result = _taskeval(
        capsys, "compare", "tydiqa_goldp", "--lm-eval-logs", run, baseline, *settings
    )
    official = _taskeval(
        capsys, "score", "tydiqa_goldp", "--references", str(harness_runs["gold"]),
        "--predictions", str(harness_runs["predictions"][0]),
    )  # fmt: skip
    assert result["systems"][0]["official"] == official
    assert result["comparisons"][0]["scores"]["f1"]["difference"] == 0.0
    # ... while the harness's own numbers are other ones (its normalisation, fractions)
    results = own["results"]["results"]
    harness_f1 = {
        language: results[f"tydiqa_goldp_{code}"]["f1,none"] for language, code in CODES.items()
    }
    lm_eval_convention = _taskeval(
        capsys, "score", "tydiqa_goldp", "--convention", "lm_eval", "--references",
        str(harness_runs["gold"]), "--predictions", str(harness_runs["predictions"][0]),
    )  # fmt: skip
    convention = {
        language: scores["f1"] for language, scores in lm_eval_convention["per_language"].items()
    }
    if sys.version_info < (3, 12):
        assert harness_f1 == convention
    else:
        # The harness's mean is sum() / len, and sum() compensates float rounding from Python
        # 3.12 on: its fractions can have other last bits than the convention's left-to-right
        # sums (the convention is the harness's numbers on Python 3.11 and earlier).
        logged = lm_eval_logs.samples_files(run)
        for language, code in CODES.items():
            (path,) = logged[f"tydiqa_goldp_{code}"]
            rows = [
                json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()
            ]
            f1s = [row["f1"] for row in sorted(rows, key=lambda row: row["doc_id"])]
            assert harness_f1[language] == sum(f1s) / len(f1s)
            assert harness_f1[language] == pytest.approx(convention[language], rel=1e-15)
    assert any(
        harness_f1[language] * 100 != official["per_language"][language]["f1"]
        for language in LANGUAGES
    )
