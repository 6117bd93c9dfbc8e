"""kilt, every path: the official ``eval_downstream.evaluate`` and ``eval_retrieval.evaluate``
(KILT at 64e284a, the checkout ``kilt-64e284a``, and at 2664322, ``kilt-head``, in the official
folder) against ``taskeval score kilt``'s function (``score_files``), the evaluate metric
(``compute()`` on ``read_official``'s rows, or the same rows through ``add_batch`` in random
batches) and, every ``--cli-every`` case, the command line, on random gold and guess files.

The cases are those of ``differential_core`` (one in six made invalid), with a random
evaluation, commit, ks and rank keys. Where the official code raises, every path must raise
``ValueError``; where a case is invalid in a way the card documents as refused, too. Every value
is compared with ``==`` and its type.

    python scripts/differential/run.py kilt --official DIR --cases 10000 --cli-every 50
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

from common import Outcome, compare_values, run

import taskeval
from taskeval._metrics.kilt import inputs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from differential_core import run_quietly, spoil
from random_records import random_case, with_answer_outputs

CHECKOUTS = {"64e284a": "kilt-64e284a", "2664322": "kilt-head"}
DOCUMENTED = ("references is empty", "is null")
_official: dict[str, tuple[Any, Any]] = {}
_metric: list[Any] = []
stats = dict.fromkeys(("scored", "official_raised", "refused", "head", "retrieval", "cli"), 0)


def official_modules(folder: Path, commit: str) -> tuple[Any, Any]:
    """The official scripts of one commit. Both checkouts are the package ``kilt``: each is
    imported in turn and kept under its commit (its modules hold their own references)."""
    if commit not in _official:
        for name in [m for m in sys.modules if m == "kilt" or m.startswith("kilt.")]:
            del sys.modules[name]
        sys.path.insert(0, str(folder / CHECKOUTS[commit]))
        try:
            importlib.import_module("nltk")
        except ImportError:  # kilt_utils imports it for functions the scorers never call
            sys.modules["nltk"] = types.ModuleType("nltk")
        try:
            _official[commit] = (
                importlib.import_module("kilt.eval_downstream"),
                importlib.import_module("kilt.eval_retrieval"),
            )
        finally:
            sys.path.pop(0)
    return _official[commit]


def _flat(result: dict) -> dict:
    flat = {}
    for value in result.values() if "kilt" in result else [result]:
        flat.update(value)
    return flat


def _write(folder: Path, name: str, rows: list) -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _compute(rng: random.Random, gold: Path, guess: Path, options: dict) -> Any:
    """compute() on read_official's rows, in one call or through add_batch."""
    if not _metric:
        _metric.append(taskeval.load("kilt", keep_in_memory=True))
    metric = _metric[0]
    try:
        rows = inputs.read_official(gold, guess)
        if rng.random() < 0.5:
            return metric.compute(**rows, **options)
        # A batch refused after one was added leaves that one in: a fresh metric each time.
        metric = taskeval.load("kilt", keep_in_memory=True)
        n = len(rows["predictions"])
        cut = rng.randint(0, n)
        for lo, hi in ((0, cut), (cut, n)):
            metric.add_batch(
                predictions=rows["predictions"][lo:hi], references=rows["references"][lo:hi]
            )
        return metric.compute(**options)
    except Exception as e:
        return e


def _cli(gold: Path, guess: Path, options: dict) -> Any:
    argv = [sys.executable, "-m", "taskeval", "score", "kilt", "--references", str(gold)]
    argv += ["--predictions", str(guess)]
    for name, value in options.items():
        text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        argv += ["--" + name.replace("_", "-"), text]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode == 1:
        return ValueError(done.stderr.strip())
    if done.returncode:
        return RuntimeError(done.stderr.strip())
    return json.loads(done.stdout)


def _compare(outcome: Outcome, where: str, refuse: bool, official: Any, ours: Any) -> None:
    if isinstance(ours, Exception) and not isinstance(ours, ValueError):
        outcome.refusals.append(f"{where}: taskeval raised {type(ours).__name__}: {ours}")
    elif isinstance(official, Exception):
        if not isinstance(ours, ValueError):
            outcome.differences.append(
                f"{where}: official raised {type(official).__name__}, taskeval scored"
            )
    elif refuse:
        if not isinstance(ours, ValueError):
            outcome.differences.append(f"{where}: undocumented input scored, not refused")
    elif isinstance(ours, ValueError):
        if any(phrase in str(ours) for phrase in DOCUMENTED):
            return
        outcome.refusals.append(f"{where}: taskeval refused a valid case: {ours}")
    else:
        expected = _flat(dict(official))
        compare_values(expected, ours, where, outcome)
        for key in ours.keys() - expected.keys():
            outcome.differences.append(f"{where}: {key}: only taskeval has it")


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    case = random_case(rng, spoil)
    evaluation = rng.choice(("downstream", "retrieval"))
    commit = rng.choice(("64e284a", "2664322"))
    options: dict[str, Any] = {"evaluation": evaluation, "commit": commit}
    guess = case["guess"]
    refuse = case["refuse"][evaluation]
    if evaluation == "retrieval":
        options.update(ks=case["ks"], rank_keys=case["rank_keys"])
        guess = with_answer_outputs(rng, guess)
        stats["retrieval"] += 1
        # A repeated or non-positive k is refused before any file is read.
        refuse = refuse or len(set(case["ks"])) != len(case["ks"])
    stats["head"] += commit != "64e284a"
    downstream, retrieval = official_modules(official, commit)
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        gold_path = _write(Path(tmp), "gold.jsonl", case["gold"])
        guess_path = _write(Path(tmp), "guess.jsonl", guess)
        if evaluation == "downstream":
            theirs = run_quietly(downstream.evaluate, str(gold_path), str(guess_path))
        else:
            ks, keys = case["ks"], case["rank_keys"]
            theirs = run_quietly(retrieval.evaluate, str(gold_path), str(guess_path), ks, keys)
        stats["official_raised" if isinstance(theirs, Exception) else "scored"] += 1
        shown = {k: v for k, v in options.items() if k in ("ks", "rank_keys")}
        where = f"{evaluation} {commit} {shown}"
        paths = {
            "score_files": run_quietly(inputs.score_files, gold_path, guess_path, **options),
            "compute": _compute(rng, gold_path, guess_path, options),
        }
        if with_cli:
            stats["cli"] += 1
            paths["cli"] = _cli(gold_path, guess_path, options)
        for name, ours in paths.items():
            _compare(outcome, f"{where} {name}", refuse, theirs, ours)
        stats["refused"] += isinstance(paths["score_files"], ValueError)
    return outcome


def main(argv: list[str] | None = None) -> int:
    code = run("kilt", check, argv)
    print(json.dumps({"scorer_runs": stats}), file=sys.stderr)
    return code
