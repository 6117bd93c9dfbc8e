"""The shared test harness: what a metric declares to join every common test.

A metric joins by adding ``tests/entries/<name>.py`` that defines ``ENTRY = MetricEntry(...)``;
``test_harness.py`` then runs every common check on it (doctests, parity with the official
outputs, CLI == compute(read_official), batching, distributed mode, no mutation, plain types,
invalid input, the same errors on every path, model outputs as numpy and torch values).
Nothing else needs to be copied.
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

import pytest

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
class SpaceCheck:
    """The Space's "Check a submission" panel on a crafted submission: ``craft(upload)`` uploads
    files (``upload(name, data)`` returns the uploaded path) and returns ``(predictions, inputs,
    references)``; the panel must show ``summary`` and, word for word, ``lines``. ``ids``: the
    ids of the report's problems where they must be exactly these (None: not checked).
    ``example_warnings``: the warnings the Space's own example holds on purpose; ``example_gold``:
    whether the example is checked with its gold (an example that leaves items unanswered on
    purpose is not)."""

    craft: Callable[[Callable[..., str]], tuple[Any, list, Any]]
    summary: str
    lines: list[str]
    ids: list[Any] | None = None
    example_warnings: int = 0
    example_gold: bool = True


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
    # A variant of valid compute() inputs in the shapes users give that a careless check would
    # change: unsorted lists, tuples where the metric takes them, nested records (the inputs are
    # the caller's: the variant may share their objects, it is never scored against them).
    awkward: Callable[[dict[str, Any], random.Random], dict[str, Any]] | None = None
    # The Space's check panel on a crafted submission (see ``SpaceCheck``).
    space_check: SpaceCheck | None = None
    # A parity corpus the entry carries itself (a folder beside it, cases made by the official
    # code), for a metric with none in the shared corpus: read instead of ``PARITY``, always.
    parity_root: Path | None = None

    def parity_folder_path(self) -> Path:
        """Where this metric's parity cases are: its own corpus, or its folder of ``PARITY``."""
        return self.parity_root or PARITY / (self.parity_folder or self.name)


def entries() -> list[MetricEntry]:
    # An entry is a module (``<name>.py``) or, where it carries files (its own parity corpus),
    # a package (``<name>/__init__.py``).
    folder = Path(__file__).parent / "entries"
    modules = [p.stem for p in folder.glob("*.py")] + [
        p.parent.name for p in folder.glob("*/__init__.py")
    ]
    names = sorted(name for name in modules if not name.startswith("_"))
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


def refusal(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """The message of the ``ValueError`` that ``call(*args, **kwargs)`` must raise."""
    with pytest.raises(ValueError) as refused:
        call(*args, **kwargs)
    return str(refused.value)


def resample_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``compare`` scoring every resample with the metric's own ``score``, one by one: its
    contract's ``ManyResamples`` set aside (the reference the vectorized path is tested on)."""
    import dataclasses

    module = importlib.import_module("taskeval.compare")
    adapter = module.adapter
    monkeypatch.setattr(
        module, "adapter", lambda *a, **k: dataclasses.replace(adapter(*a, **k), many=None)
    )


def run_cli(argv: list[str], full: bool = False) -> tuple[int, str, str]:
    """Run ``taskeval`` in this process; returns (exit code, stdout, stderr). Through its entry
    point, or with ``full`` through the full command-line interface alone (which the entry point
    hands every call but a plain ``score``)."""
    if full:
        from taskeval.cli import main
    else:
        from taskeval.entry import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def snapshot(value: Any) -> Any:
    return copy.deepcopy(value)


def assert_unchanged(actual: Any, before: Any, where: str = "inputs") -> None:
    """``actual`` still equals its ``snapshot`` ``before``, types included at every level (``==``
    alone would take a tuple made a list, or an np.int64 made an int, for no change)."""
    assert type(actual) is type(before), (
        f"{where}: a {type(before).__name__} became a {type(actual).__name__}"
    )
    if isinstance(before, dict):
        assert list(actual) == list(before), f"{where}: keys {list(before)} became {list(actual)}"
        for k in before:
            assert_unchanged(actual[k], before[k], f"{where}[{k!r}]")
    elif isinstance(before, (list, tuple)):
        assert len(actual) == len(before), f"{where}: length {len(before)} became {len(actual)}"
        for i, (a, b) in enumerate(zip(actual, before)):
            assert_unchanged(a, b, f"{where}[{i}]")
    elif hasattr(before, "tolist") and hasattr(before, "dtype"):  # numpy or torch values
        assert (str(actual.dtype), actual.tolist()) == (str(before.dtype), before.tolist()), (
            f"{where}: {before!r} became {actual!r}"
        )
    elif isinstance(before, float) and math.isnan(before):
        assert math.isnan(actual), f"{where}: NaN became {actual!r}"
    else:
        assert actual == before, f"{where}: {before!r} became {actual!r}"


def model_outputs(value: Any, rng: random.Random, kind: str) -> tuple[Any, Any]:
    """``value`` as a model's post-processing may leave it, and the plain value that stands for.

    Every int becomes a numpy integer scalar or 0-d array (``kind="numpy"``) or a 0-d torch
    tensor (``kind="torch"``), every float a float64 or float32 one, and every non-empty list of
    ints a 1-d array or tensor. The second value is the same structure with the plain Python
    values they stand for (a float32's exact value as a float). Bools, strings and None stay.
    """
    import numpy as np

    torch = None
    if kind == "torch":
        import torch

    if type(value) is int:
        if torch is not None:
            return torch.tensor(value), value
        if -(2**31) <= value < 2**31 and rng.random() < 0.4:
            return np.int32(value), value
        return rng.choice([np.int64, np.array])(value), value
    if type(value) is float:
        if torch is not None:
            typed = torch.tensor(value, dtype=rng.choice([torch.float64, torch.float32]))
        else:
            typed = rng.choice([np.float64, np.float32, np.array])(value)
        return typed, typed.item()
    if type(value) is list and value and all(type(v) is int for v in value):
        typed = torch.tensor(value) if torch is not None else np.array(value, dtype=np.int64)
        return typed, list(value)
    if isinstance(value, (list, tuple)):
        pairs = [model_outputs(v, rng, kind) for v in value]
        return type(value)(t for t, _ in pairs), type(value)(p for _, p in pairs)
    if isinstance(value, dict):
        pairs = {k: model_outputs(v, rng, kind) for k, v in value.items()}
        return {k: t for k, (t, _) in pairs.items()}, {k: p for k, (_, p) in pairs.items()}
    return value, value


def read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)
