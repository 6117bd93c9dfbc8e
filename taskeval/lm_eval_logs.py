"""Runs of EleutherAI's lm-evaluation-harness, scored and compared with the official metrics.

A metric may ship task configs for the harness (``MetricContract.lm_eval``), so that a harness
run prints the official numbers: ``include_path()`` is the folder to give the harness
(``--include_path``, or ``TaskManager(include_path=...)``), ``lm_eval_tasks()`` the tasks by
metric. A run with ``--log_samples`` writes one ``samples_<task>_<time>.jsonl`` per task, one
JSON object per question (its ``doc``, the generation in ``filtered_resps``);
``read_run`` turns one run's samples of a metric's tasks into ``compute()`` inputs, and
``compare_runs`` compares two or more runs paired by question, as ``compare`` does official
files. The harness itself is not imported: its logs are plain JSON Lines.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from os import PathLike
from typing import Any

from .registry import contract, list_metrics, metrics_root

StrPath = str | PathLike
# What the harness names a task's samples file: the task, then the run's time
# (``datetime.now().isoformat()`` with ``-`` for ``:``).
_SAMPLES_FILE = re.compile(r"samples_(?P<task>.+)_(?P<time>\d{4}-\d\d-\d\dT[\d.-]+)\.jsonl")


def include_path() -> str:
    """The folder the harness searches for taskeval's task configs: the folder of the metric
    folders, each metric's configs in the folder its contract names."""
    return os.fspath(metrics_root())


def lm_eval_tasks() -> dict[str, tuple[str, ...]]:
    """The harness tasks and groups each metric ships, to run first, by metric."""
    found = {}
    for name in list_metrics():
        tasks = contract(name).lm_eval
        if tasks is not None:
            found[name] = tasks.tasks
    return found


def _tasks_of(name: str) -> Any:
    tasks = contract(name).lm_eval
    if tasks is None:
        having = ", ".join(lm_eval_tasks()) or "none"
        raise ValueError(
            f"{name} has no lm-evaluation-harness tasks whose logs taskeval reads (metrics that "
            f"have: {having})"
        )
    return tasks


def samples_files(run: StrPath) -> dict[str, list[str]]:
    """The samples files of a run, by task: ``run`` is one ``samples_<task>_<time>.jsonl``
    file, or a folder searched with its subfolders (the harness's ``--output_path``)."""
    path = os.fspath(run)
    if os.path.isfile(path):
        paths = [path]
    elif os.path.isdir(path):
        paths = sorted(
            os.path.join(folder, file)
            for folder, _, files in os.walk(path)
            for file in files
            if file.endswith(".jsonl")
        )
    else:
        raise ValueError(f"{path}: no such file or folder (a harness run's --output_path)")
    found: dict[str, list[str]] = {}
    for file in paths:
        match = _SAMPLES_FILE.fullmatch(os.path.basename(file))
        if match is None:
            if file == path:
                raise ValueError(
                    f"{path}: not a harness samples file (samples_<task>_<time>.jsonl, written "
                    "with --log_samples)"
                )
            continue
        found.setdefault(match["task"], []).append(file)
    return found


def _samples(file: str) -> list[dict]:
    """One samples file's JSON objects, one per line."""
    out = []
    try:
        with open(file, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    sample = json.loads(line)
                except ValueError as e:
                    raise ValueError(f"{file}, line {number}: not JSON ({e})") from None
                if not isinstance(sample, dict):
                    raise ValueError(f"{file}, line {number}: expected a JSON object per line")
                out.append(sample)
    except UnicodeDecodeError as e:
        raise ValueError(f"{file}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise ValueError(f"{file}: cannot read it: {e.strerror or e}") from None
    return out


def read_run(name: str, run: StrPath) -> dict[str, list]:
    """One run's logged samples of the tasks metric ``name`` reads → its ``compute()`` inputs.

    Each task must be logged once in ``run`` (a folder holding two runs of a task is refused:
    give the folder or file of one)."""
    tasks = _tasks_of(name)
    files = {task: paths for task, paths in samples_files(run).items() if tasks.knows(task)}
    if not files:
        raise ValueError(
            f"{os.fspath(run)}: no samples of a task {name} reads (run the harness with "
            f"--log_samples and --output_path; taskeval's tasks: {', '.join(tasks.tasks)})"
        )
    for task, paths in files.items():
        if len(paths) > 1:
            raise ValueError(
                f"{os.fspath(run)} holds {len(paths)} runs' samples of {task} "
                f"({', '.join(map(os.path.basename, paths))}): give the folder or file of one run"
            )
    samples = {task: _samples(paths[0]) for task, paths in sorted(files.items())}
    try:
        return tasks.read(samples)
    except ValueError as e:
        raise ValueError(f"{os.fspath(run)}: {e}") from None


def compare_runs(
    name: str,
    runs: Sequence[StrPath],
    *,
    names: Sequence[str] | None = None,
    **settings: Any,
) -> dict[str, Any]:
    """``taskeval compare --lm-eval-logs``: two or more harness runs (each a ``--output_path``
    folder or a samples file), paired by question; the first is the baseline. ``settings``
    are ``compare_rows``'s (method, resamples, seed, confidence) and the metric's options. The
    result is the one ``compare`` gives on the equivalent official files."""
    from .compare import compare_rows, short_names

    if isinstance(runs, (str, PathLike)):
        runs = [runs]
    systems = [read_run(name, run) for run in runs]
    names = list(names) if names is not None else short_names(runs)
    return compare_rows(name, systems, names=names, **settings)
