"""``taskeval install`` keys each cached copy on the content of the metric's code, so that an
upgrade whose code changed (even without a new version number) is the copy evaluate loads."""

from __future__ import annotations

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
