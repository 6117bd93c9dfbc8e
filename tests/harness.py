"""The shared test harness: what a metric declares to join every common test.

A metric joins by adding ``tests/entries/<name>.py`` that defines ``ENTRY = MetricEntry(...)``;
``test_harness.py`` then runs every common check on it (doctests, parity with the official
outputs, CLI == compute(read_official), batching, distributed mode, no mutation, plain types,
invalid input). Nothing else needs to be copied.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import io
import json
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PARITY = REPO.parent / "shared" / "parity"


@dataclass
class ParityCase:
    """One case of the parity corpus, in the terms of our API.

    ``references``/``predictions`` are what ``read_official`` takes; ``cli_references`` and
    ``cli_predictions`` what ``taskeval score`` takes (the same unless the CLI works on a parent
    folder), and ``cli_key`` picks this case's part of the CLI output (e.g. ``"scenario2"``).
    ``expected`` is the official output under our key names, or None when the official scorer
    failed: then a ``ValueError`` is required.
    """

    id: str
    predictions: Path
    references: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)
    config_name: str | None = None
    expected: dict[str, Any] | None = None
    questionable: bool = False
    cli_references: Path | None = None
    cli_predictions: Path | None = None
    cli_key: str | None = None

    def cli_argv(self, metric: str) -> list[str]:
        argv = ["score", metric, "--predictions", str(self.cli_predictions or self.predictions)]
        refs = self.cli_references or self.references
        if refs is not None:
            argv += ["--references", str(refs)]
        for name, value in self.options.items():
            argv += ["--" + name.replace("_", "-"), "none" if value is None else str(value)]
        return argv


@dataclass
class InvalidCase:
    """Inputs on which ``compute`` must raise a ``ValueError`` whose message has every fragment."""

    id: str
    inputs: dict[str, Any]
    fragments: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    config_name: str | None = None


@dataclass
class MetricEntry:
    name: str
    # Every parity case of the corpus (``PARITY / <folder>``); called only when it exists.
    parity_cases: Callable[[Path], Iterable[ParityCase]]
    # compute() inputs (predictions=..., references=...) of ``n`` random valid rows.
    random_inputs: Callable[[random.Random, int], dict[str, list]]
    invalid_cases: list[InvalidCase]
    configs: list[str | None] = field(default_factory=lambda: [None])
    # Extra compute() options tried in the batching and distributed checks.
    options: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    parity_folder: str | None = None


def entries() -> list[MetricEntry]:
    folder = Path(__file__).parent / "entries"
    names = sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))
    return [importlib.import_module(f"entries.{n}").ENTRY for n in names]


def assert_plain(value: Any, where: str = "result") -> None:
    """Results hold only plain Python types (no numpy scalars), so doctests and loggers work."""
    if isinstance(value, dict):
        for k, v in value.items():
            assert type(k) is str, f"{where}: key {k!r} is not a str"
            assert_plain(v, f"{where}[{k!r}]")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            assert_plain(v, f"{where}[{i}]")
    else:
        assert type(value) in (float, int, str, bool, type(None)), (
            f"{where} is a {type(value).__name__}, not a plain Python value"
        )


def assert_same(actual: Any, expected: Any, where: str = "result") -> None:
    """Exact equality (``==`` on floats, NaN equal to NaN), reporting the first differing key."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected a dict, got {actual!r}"
        assert sorted(actual) == sorted(expected), f"{where}: keys {sorted(actual)}"
        for k in expected:
            assert_same(actual[k], expected[k], f"{where}[{k!r}]")
    elif isinstance(expected, float) and math.isnan(expected):
        assert isinstance(actual, float) and math.isnan(actual), f"{where}: {actual!r} is not NaN"
    else:
        assert actual == expected, f"{where}: {actual!r} != official {expected!r}"


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """Run ``taskeval`` in this process; returns (exit code, stdout, stderr)."""
    from taskeval.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def snapshot(value: Any) -> Any:
    return copy.deepcopy(value)


def read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)
