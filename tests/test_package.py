"""The front door: registry, load, install for bare-name evaluate.load, and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import taskeval

from harness import run_cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_list_metrics_names_folders_with_a_script():
    names = taskeval.list_metrics()
    assert "fever_score" in names
    for name in names:
        assert (taskeval.metric_dir(name) / f"{name}.py").is_file()
        assert (taskeval.metric_dir(name) / "README.md").is_file()
        assert (taskeval.metric_dir(name) / "requirements.txt").is_file()


def test_unknown_metric_is_a_value_error():
    with pytest.raises(ValueError, match="unknown metric 'fever'"):
        taskeval.load("fever")
    with pytest.raises(ValueError, match="unknown metric"):
        taskeval.read_official("nope", predictions="x")


def test_load_forwards_evaluate_arguments(tmp_path):
    metric = taskeval.load(
        "fever_score", experiment_id="exp-1", cache_dir=str(tmp_path), keep_in_memory=True
    )
    assert metric.experiment_id == "exp-1"
    assert metric.keep_in_memory
    assert metric.name == "fever_score"


def test_cli_list_and_errors(tmp_path):
    code, out, _ = run_cli(["list"])
    assert code == 0 and out.split() == taskeval.list_metrics()
    bad = tmp_path / "p.jsonl"
    bad.write_text('{"predicted_label": 1, "predicted_evidence": []}\n', encoding="utf-8")
    code, out, err = run_cli(
        ["score", "fever_score", "--predictions", str(bad), "--references", str(bad)]
    )
    assert code == 2 and not out
    assert "line 1: missing gold field 'label'" in err
    code, out, err = run_cli(
        ["score", "fever_score", "--predictions", str(tmp_path / "missing.jsonl")]
    )
    assert code == 2 and "No such file" in err


def test_cli_max_evidence_none_and_ints():
    args = [
        "score",
        "fever_score",
        "--predictions",
        str(EXAMPLES / "fever_score" / "predictions.jsonl"),
        "--references",
        str(EXAMPLES / "fever_score" / "gold.jsonl"),
    ]
    for text, value in (("none", None), ("0", 0), ("-1", -1), ("7", 7)):
        code, out, _ = run_cli([*args, "--max-evidence", text])
        inputs = taskeval.read_official("fever_score", references=args[5], predictions=args[3])
        assert code == 0
        assert json.loads(out) == taskeval.load("fever_score").compute(**inputs, max_evidence=value)


def _python(code: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


def test_install_makes_bare_name_load_work_offline_and_uninstall_removes_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(HF_HOME=str(tmp_path / "hf"), HF_EVALUATE_OFFLINE="1")
    installed = subprocess.run(
        [sys.executable, "-m", "taskeval", "install"], env=env, capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stderr
    scripts = [Path(p) for p in installed.stdout.split()]
    assert {p.stem for p in scripts} == set(taskeval.list_metrics())
    assert all(str(p).startswith(str(tmp_path / "hf" / "modules")) for p in scripts)

    gold = {"label": "REFUTES", "evidence": [[[None, None, "page1", 1], [None, None, "page2", 2]]]}
    code = (
        "import evaluate, json; m = evaluate.load('fever_score'); "
        "print(json.dumps(m.compute(predictions=[{'predicted_label': 'REFUTES', "
        "'predicted_evidence': [['page1', 1]]}], references=[" + repr(gold) + "])))"
    )
    loaded = _python(code, env)
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout) == {
        "strict_score": 0.0,
        "label_accuracy": 1.0,
        "evidence_precision": 1.0,
        "evidence_recall": 0.0,
        "evidence_f1": 0.0,
    }

    removed = subprocess.run(
        [sys.executable, "-m", "taskeval", "install", "--uninstall"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert removed.returncode == 0, removed.stderr
    assert not any(p.exists() for p in scripts)
    assert _python("import evaluate; evaluate.load('fever_score')", env).returncode != 0
