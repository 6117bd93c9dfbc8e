"""``taskeval install`` keys each cached copy on the content of the metric's code, so that an
upgrade whose code changed (even without a new version number) is the copy evaluate loads."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

import taskeval.install as install


@pytest.fixture
def metric_copy(tmp_path, monkeypatch) -> Path:
    """A copy of the fever_score folder (links followed) that install reads instead."""
    folder = tmp_path / "metrics" / "fever_score"
    shutil.copytree(taskeval_metric_dir("fever_score"), folder, symlinks=False)
    monkeypatch.setattr(install, "metric_dir", lambda name: tmp_path / "metrics" / name)
    return folder


def taskeval_metric_dir(name: str) -> Path:
    import taskeval

    return taskeval.metric_dir(name)


def newest(cache: Path) -> Path:
    """The cached copy evaluate picks: the one whose script is newest."""
    scripts = (cache / "evaluate_modules/metrics/evaluate-metric--fever_score").glob(
        "*/fever_score.py"
    )
    return max(scripts, key=lambda p: p.stat().st_mtime_ns).parent


def test_changed_code_is_a_new_copy_and_the_one_loaded(metric_copy, tmp_path):
    cache = tmp_path / "cache"
    (first,) = install.install_metrics(["fever_score"], cache=cache)
    # The same code again: the same copy (refreshed as the newest).
    assert install.install_metrics(["fever_score"], cache=cache) == [first]
    # The code changes, the version does not.
    scoring = metric_copy / "scoring.py"
    scoring.write_text(scoring.read_text("utf-8") + "\n# changed\n", encoding="utf-8")
    (second,) = install.install_metrics(["fever_score"], cache=cache)
    assert second.parent != first.parent
    assert (second.parent / "scoring.py").read_text("utf-8").endswith("# changed\n")
    assert newest(cache) == second.parent
    # A change in a file that is not code (the card) keeps the copy.
    card = metric_copy / "README.md"
    card.write_text(card.read_text("utf-8") + "\nmore\n", encoding="utf-8")
    assert install.install_metrics(["fever_score"], cache=cache) == [second]
    # uninstall removes both copies it wrote, and nothing else.
    foreign = cache / "evaluate_modules/metrics/evaluate-metric--fever_score" / ("f" * 64)
    foreign.mkdir()
    (foreign / "fever_score.py").write_text("", encoding="utf-8")
    removed = install.uninstall_metrics(["fever_score"], cache=cache)
    assert sorted(removed) == sorted([first.parent, second.parent])
    assert foreign.is_dir() and not first.parent.exists() and not second.parent.exists()


def test_uninstall_removes_the_metric_folder_it_emptied(metric_copy, tmp_path):
    cache = tmp_path / "cache"
    (script,) = install.install_metrics(["fever_score"], cache=cache)
    parent = script.parent.parent  # evaluate-metric--fever_score
    assert install.uninstall_metrics(["fever_score"], cache=cache) == [script.parent]
    assert not parent.exists()


def test_install_writes_each_metric_where_evaluate_looks_for_it_offline(tmp_path, monkeypatch):
    """By default into evaluate's modules cache: every metric, each under the sha256 of its code
    files (name, NUL, content, NUL, in name order), with the package markers evaluate imports
    through, and a marker naming the folder it came from."""
    import hashlib

    import evaluate.config

    import taskeval

    cache = tmp_path / "modules"
    monkeypatch.setattr(evaluate.config, "HF_MODULES_CACHE", cache)
    assert install.modules_cache() == cache
    scripts = install.install_metrics()
    assert [p.stem for p in scripts] == taskeval.list_metrics()
    root = cache / "evaluate_modules" / "metrics"
    for script in scripts:
        name = script.stem
        digest = hashlib.sha256()
        for path in sorted(taskeval.metric_dir(name).glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        assert script == root / f"evaluate-metric--{name}" / digest.hexdigest() / f"{name}.py"
        copied = {p.name for p in script.parent.iterdir()}
        code = {p.name for p in taskeval.metric_dir(name).glob("*.py")}
        assert copied == code | {"__init__.py", install.MARKER}
        marker = (script.parent / install.MARKER).read_text()
        assert marker == str(taskeval.metric_dir(name)) + "\n"
        for folder in (root.parent, root, script.parent.parent, script.parent):
            assert (folder / "__init__.py").is_file(), folder
    # Installing again over it (folders and markers there already) gives the same copies.
    assert install.install_metrics() == scripts
    # uninstall without names removes every copy and the folders it emptied, nothing else
    other = root / "evaluate-metric--other" / ("a" * 64)
    other.mkdir(parents=True)
    assert install.uninstall_metrics() == [p.parent for p in scripts]
    assert sorted(p.name for p in root.iterdir()) == ["__init__.py", "evaluate-metric--other"]


def test_reinstalling_older_code_makes_its_copy_the_newest_again(metric_copy, tmp_path):
    cache = tmp_path / "cache"
    (first,) = install.install_metrics(["fever_score"], cache=cache)
    scoring = metric_copy / "scoring.py"
    original = scoring.read_text("utf-8")
    scoring.write_text(original + "\n# changed\n", encoding="utf-8")
    (second,) = install.install_metrics(["fever_score"], cache=cache)
    scoring.write_text(original, encoding="utf-8")
    os.utime(first, (1, 1))  # an old install, and a coarse clock
    os.utime(second, (2, 2))
    assert install.install_metrics(["fever_score"], cache=cache) == [first]
    assert newest(cache) == first.parent


def test_uninstall_keeps_a_metric_folder_holding_copies_it_did_not_write(metric_copy, tmp_path):
    cache = tmp_path / "cache"
    (script,) = install.install_metrics(["fever_score"], cache=cache)
    foreign = script.parent.parent / ("0" * 64)  # a name that sorts before "__init__.py"
    foreign.mkdir()
    assert install.uninstall_metrics(["fever_score"], cache=cache) == [script.parent]
    assert sorted(script.parent.parent.iterdir()) == [foreign, script.parent.parent / "__init__.py"]
    # Nothing installed: nothing removed, and no folder made.
    assert install.uninstall_metrics(["tydiqa"], cache=cache) == []
    assert not (script.parent.parent.parent / "evaluate-metric--tydiqa").exists()


@pytest.mark.parametrize(
    ("variable", "unset"),
    [
        ("HF_HOME", ["HF_MODULES_CACHE"]),
        ("HF_MODULES_CACHE", []),
        ("XDG_CACHE_HOME", ["HF_MODULES_CACHE", "HF_HOME"]),
    ],
)
def test_install_refuses_an_empty_cache_variable_and_writes_nothing(
    variable, unset, tmp_path, monkeypatch
):
    """A cache variable set to an empty string makes evaluate keep its modules in the current
    folder: install says so instead of writing there."""
    from harness import run_cli

    for name in unset:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, "")
    monkeypatch.chdir(tmp_path)
    for argv in (["install"], ["install", "--uninstall"]):
        code, out, err = run_cli(argv)
        assert (code, out) == (2, ""), err
        assert f"{variable} is set to an empty string" in err, err
        assert err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []
    # A folder given on the command line is used as it is.
    code, _, err = run_cli(["install", "fever_score", "--cache", str(tmp_path / "given")])
    assert code == 0, err


_LOADS = """
import shutil, sys
from pathlib import Path
import evaluate, taskeval
root = Path(taskeval.install_metrics(["fever_score", "tydiqa"])[0]).parents[2]
installed = next((root / "evaluate-metric--fever_score").glob("*/fever_score.py")).parent
other = root / "evaluate-metric--other" / ("a" * 64)  # a cached copy taskeval did not install
shutil.copytree(installed, other)
(other / "fever_score.py").rename(other / "other.py")
(other / "TASKEVAL_INSTALLED").unlink()
(other.parent / "__init__.py").touch()
for name in ("fever_score", "fever_score", "tydiqa", "other"):
    evaluate.load(name)
    print("loaded", name, file=sys.stderr, flush=True)
"""


def test_evaluate_notes_a_cached_copy_only_until_a_taskeval_metric_is_imported(tmp_path):
    """evaluate's "Using the latest cached version" notice on loading an installed copy by its
    bare name offline: once a taskeval metric is imported, dropped for taskeval's copies alone."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "XDG_"))}
    env.update(HF_HOME=str(tmp_path / "hf"), HF_EVALUATE_OFFLINE="1")
    err = subprocess.run(
        [sys.executable, "-c", _LOADS], env=env, capture_output=True, text=True, check=True
    ).stderr
    notice = re.compile(
        r"Using the latest cached version of the module from .*/evaluate-metric--(\w+)/"
    )
    lines = [
        f"notice {found[1]}" if (found := notice.match(line)) else line for line in err.splitlines()
    ]
    assert lines == [
        "notice fever_score",  # evaluate notes it before the metric's module is imported
        "loaded fever_score",
        "loaded fever_score",
        "loaded tydiqa",
        "notice other",
        "loaded other",
    ], err
