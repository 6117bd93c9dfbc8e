"""The front door: registry, load, install for bare-name evaluate.load, and the CLI."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import taskeval

from harness import run_cli

EXAMPLES = Path(__file__).resolve().parents[1] / "spaces" / "fever_score" / "examples"


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
    assert code == 1 and not out
    assert "line 1: missing gold field 'label'" in err
    code, out, err = run_cli(
        ["score", "fever_score", "--predictions", str(tmp_path / "missing.jsonl")]
    )
    assert code == 1 and "missing.jsonl: No such file" in err


def test_cli_max_evidence_none_and_ints():
    args = [
        "score",
        "fever_score",
        "--predictions",
        str(EXAMPLES / "predictions.jsonl"),
        "--references",
        str(EXAMPLES / "actual.jsonl"),
    ]
    for text, value in (("none", None), ("0", 0), ("-1", -1), ("7", 7)):
        code, out, _ = run_cli([*args, "--max-evidence", text])
        inputs = taskeval.read_official("fever_score", references=args[5], predictions=args[3])
        assert code == 0
        assert json.loads(out) == taskeval.load("fever_score").compute(**inputs, max_evidence=value)


def _python(code: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


def _taskeval(args: list[str], env: dict) -> list[Path]:
    done = subprocess.run(
        [sys.executable, "-m", "taskeval", *args], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return [Path(p) for p in done.stdout.split()]


# Loads every metric by its bare name and scores the inputs in the JSON file argv[1].
_BARE_NAME_SCRIPT = """
import json, sys
import evaluate
inputs = json.load(open(sys.argv[1]))
print(json.dumps({name: evaluate.load(name).compute(**rows) for name, rows in inputs.items()}))
"""


def _bare_name_results(inputs_file: Path, env: dict) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _BARE_NAME_SCRIPT, str(inputs_file)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_install_makes_bare_name_load_work_offline_and_uninstall_removes_it(tmp_path):
    from harness import entries

    inputs = {e.name: e.random_inputs(random.Random(1), 6) for e in entries()}
    inputs_file = tmp_path / "inputs.json"
    inputs_file.write_text(json.dumps(inputs), encoding="utf-8")
    expected = {name: taskeval.load(name).compute(**rows) for name, rows in inputs.items()}

    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env["HF_HOME"] = str(tmp_path / "hf")
    # A stale copy from an earlier version, newer than nothing: the install must win over it.
    stale = (
        tmp_path / "hf/modules/evaluate_modules/metrics/evaluate-metric--fever_score" / ("0" * 64)
    )
    stale.mkdir(parents=True)
    (stale / "fever_score.py").write_text("raise RuntimeError('stale version')\n", encoding="utf-8")

    scripts = _taskeval(["install"], env)
    assert {p.stem for p in scripts} == set(taskeval.list_metrics())
    assert all(str(p).startswith(str(tmp_path / "hf" / "modules")) for p in scripts)
    assert _bare_name_results(inputs_file, {**env, "HF_EVALUATE_OFFLINE": "1"}) == json.loads(
        json.dumps(expected)
    )
    # Without the flag evaluate probes the Hub first, fails (no network here), and falls back.
    without_flag = {"fever_score": inputs["fever_score"]}
    without_file = tmp_path / "fever.json"
    without_file.write_text(json.dumps(without_flag), encoding="utf-8")
    assert _bare_name_results(without_file, env) == json.loads(
        json.dumps({"fever_score": expected["fever_score"]})
    )

    assert _taskeval(["install", "--uninstall"], env) == [p.parent for p in scripts]
    assert not any(p.exists() for p in scripts)
    assert stale.is_dir()  # not ours: left alone
    gone = _python("import evaluate; evaluate.load('tydiqa')", {**env, "HF_EVALUATE_OFFLINE": "1"})
    assert gone.returncode != 0 and "FileNotFoundError" in gone.stderr


def test_each_metric_folder_loads_and_scores_without_the_package(tmp_path):
    """A folder copied with links followed (as pushed to the Hub) needs only evaluate, datasets
    and numpy: here taskeval, orjson and isal are made unimportable."""
    import shutil

    from harness import entries

    inputs = {e.name: e.random_inputs(random.Random(2), 5) for e in entries()}
    (tmp_path / "inputs.json").write_text(json.dumps(inputs), encoding="utf-8")
    for name in inputs:
        shutil.copytree(taskeval.metric_dir(name), tmp_path / name, symlinks=False)
    script = (
        "import json, sys\n"
        "for blocked in ('taskeval', 'orjson', 'isal'):\n"
        "    sys.modules[blocked] = None\n"
        "import evaluate\n"
        "inputs = json.load(open(sys.argv[1] + '/inputs.json'))\n"
        "print(json.dumps({n: evaluate.load(sys.argv[1] + '/' + n).compute(**rows)"
        " for n, rows in inputs.items()}))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(HF_HOME=str(tmp_path / "hf"), HF_EVALUATE_OFFLINE="1")
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    expected = {name: taskeval.load(name).compute(**rows) for name, rows in inputs.items()}
    assert json.loads(done.stdout) == json.loads(json.dumps(expected))


# ---------------------------------------------------------------------------------------------
# The release: sdist and wheel, installed into a clean environment.

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_sdist_and_wheel_install_into_a_clean_venv_and_score(tmp_path):
    import tarfile
    import zipfile

    dist = tmp_path / "dist"
    # The default build makes the sdist, then the wheel from the unpacked sdist: a file the
    # sdist forgets is missing from the wheel too.
    run = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "taskeval/py.typed"} <= names
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        link = archive.getinfo("taskeval/_spaces/scifact_sentence/examples/claims_dev.jsonl")
    version = taskeval.__version__
    assert {
        "taskeval/py.typed",
        f"taskeval-{version}.dist-info/licenses/LICENSE",
        "taskeval/_spaces/requirements.txt",
        "taskeval/_spaces/ehealthkd/examples/gold/input_scenario1.txt",
        "taskeval/_metrics/scifact_sentence/scoring.py",
    } <= names
    assert link.file_size > 1000  # a linked example is shipped as the file itself
    # each metric's lm-evaluation-harness task configs, whole
    from taskeval.lm_eval_logs import lm_eval_tasks
    from taskeval.registry import contract

    for metric in lm_eval_tasks():
        folder = taskeval.metric_dir(metric) / contract(metric).lm_eval.folder
        shipped = {
            f"taskeval/_metrics/{metric}/{folder.name}/{p.name}"
            for p in folder.iterdir()
            if p.is_file() and not p.name.endswith(".pyc")
        }
        assert len(shipped) > 2 and shipped <= names, shipped - names

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile", str(wheel)],
        check=True,
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    score = subprocess.run(
        [
            str(venv / "bin" / "taskeval"),
            "score",
            "fever_score",
            "--references",
            str(EXAMPLES / "actual.jsonl"),
            "--predictions",
            str(EXAMPLES / "predictions.jsonl"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert score.returncode == 0, score.stderr
    assert json.loads(score.stdout) == {
        "strict_score": 0.26,
        "label_accuracy": 0.48,
        "evidence_precision": 0.09189189189189195,
        "evidence_recall": 0.3783783783783784,
        "evidence_f1": 0.14787200994097552,
    }
    # The installed package is the wheel's, and it can export a Space.
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import taskeval; print(taskeval.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(venv)
    # The folder the harness is given holds the installed task configs.
    include = subprocess.run(
        [str(venv / "bin" / "taskeval"), "lm-eval-tasks"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    configs = list(Path(include.stdout.strip()).glob("*/*/*.yaml"))
    assert configs and all(p.is_relative_to(venv) for p in configs)
    export = subprocess.run(
        [str(venv / "bin" / "taskeval"), "export", "scifact_sentence", str(tmp_path / "space")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert export.returncode == 0, export.stderr
    assert (tmp_path / "space" / "examples" / "claims_dev.jsonl").stat().st_size > 1000
