"""Adding a metric touches four places only: ``metrics/<name>/``, ``spaces/<name>/``, its test
entry (``tests/entries/<name>.py`` or the package ``tests/entries/<name>/``) and one row of the
README's table of metrics (``test_harness.py`` holds each metric to its row and picture).

The shared files (the package, scripts, packaging, CI, the harness) may name a metric only where
listed below, each with the reason a new metric needs no line of its own there; a metric added
later is listed nowhere, so any shared file naming it fails here.
"""

from __future__ import annotations

import re
import subprocess

import taskeval

from harness import REPO, entries

METRICS = taskeval.list_metrics()
NAMED = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, METRICS)) + r")(?![\w])")
SHARED = [
    "taskeval",
    "scripts",
    ".ci",
    "pyproject.toml",
    "setup.cfg",
    "MANIFEST.in",
    "tests/harness.py",
    "tests/conftest.py",
]
_FIRST = (
    "fever_score",
    "scifact_abstract",
    "scifact_sentence",
    "ehealthkd",
    "tydiqa",
    "tydiqa_goldp",
)
ALLOWED = {
    ("taskeval/__init__.py", "fever_score"): "the module's usage example",
    ("taskeval/trainer.py", "fever_score"): "the module's usage example",
    ("scripts/differential/common.py", "tydiqa"): "the official checkouts' folder names",
    ("scripts/differential/common.py", "ehealthkd"): "the official checkouts' folder names",
    ("scripts/differential/fever2.py", "fever_score"): "FEVER 2.0's check, of fever_score",
    # The first metrics' own differential checks and mutation selections, from before a metric's
    # could live in its entry (run.py and mutation.py read those too).
    **{(f"scripts/differential/{m}.py", m): "its own differential check" for m in _FIRST},
    ("scripts/differential/scifact.py", "scifact_abstract"): "SciFact's check",
    ("scripts/differential/scifact.py", "scifact_sentence"): "SciFact's check",
    ("scripts/differential/tydiqa_goldp.py", "tydiqa"): "GoldP's check reads TyDi QA's folders",
    **{("scripts/mutation.toml", m): "the first metrics' mutation selections" for m in _FIRST},
}


def _shared_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", *SHARED], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    return [f for f in listed.split("\0") if f and (REPO / f).is_file()]


def test_shared_files_name_no_metric_but_where_listed():
    files = _shared_files()
    assert "taskeval/check.py" in files and "scripts/differential/run.py" in files
    found = set()
    for name in files:
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a picture
        for number, line in enumerate(text.splitlines(), 1):
            for metric in NAMED.findall(line):
                if (name, metric) not in ALLOWED:
                    found.add(f"{name}:{number}: {metric}: {line.strip()[:100]}")
    assert not found, "a shared file names a metric:\n" + "\n".join(sorted(found))


def test_a_metric_added_later_is_listed_nowhere():
    later = [m for m in METRICS if m not in _FIRST]
    assert "feverous_score" in later
    assert not [key for key in ALLOWED if key[1] in later]


def test_the_pattern_finds_a_metric_name():
    """Planted: the check above sees a shared file naming a metric, and only whole names."""
    assert NAMED.findall('metric_module("tydiqa", "file_lines")') == ["tydiqa"]
    assert NAMED.findall("tests/test_tydiqa.py tydiqa_goldp fever_scorer") == ["tydiqa_goldp"]


def test_every_metric_has_its_four_places():
    assert sorted(entry.name for entry in entries()) == METRICS
    for name in METRICS:
        assert (taskeval.metric_dir(name) / "contract.py").is_file(), name
        assert (REPO / "spaces" / name / "app.py").is_file(), name
        entry = REPO / "tests" / "entries"
        assert (entry / f"{name}.py").is_file() or (entry / name / "__init__.py").is_file(), name


def test_the_package_ships_the_folders_by_wildcard():
    """setup.cfg's package data takes every metric and Space folder alike."""
    text = (REPO / "setup.cfg").read_text(encoding="utf-8")
    assert "taskeval._spaces = requirements.txt, */app.py, */examples/*, */examples/*/*" in text
    assert not NAMED.findall(text)
