"""The loop every differential check shares: random cases, taskeval against the official code.

Each ``scripts/differential/<metric>.py`` defines how to draw a random valid case and how to
score it both ways, then calls ``run``. The official code is never part of this repository: it
is read from ``--official DIR`` (or ``$TASKEVAL_OFFICIAL``), a folder holding the checkouts
``scifact-evaluator``, ``ehealthkd-2019``, ``ehealthkd-2020``, ``ehealthkd-corpora`` and
``tydiqa`` (FEVER's scorer is the PyPI package).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class PathsDiffer(Exception):
    """Two library paths disagreed on one case (numbers, or accepting it): a difference."""


@dataclass
class Outcome:
    """What one case gave: the values compared, and each difference or refusal found."""

    values: int = 0
    skipped: bool = False  # the official code refused the case: nothing to compare
    differences: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)


# Refusals the metric cards document (files the official scorer still scores): ints outside
# int64, which add_batch's Arrow storage cannot hold, are refused on every path alike.
DOCUMENTED_REFUSALS = ("signed 64-bit", "(at most 2**63-1)")


def documented(refusal: str) -> bool:
    return any(phrase in refusal for phrase in DOCUMENTED_REFUSALS)


def official_dir(value: str | None) -> Path:
    path = value or os.environ.get("TASKEVAL_OFFICIAL")
    if not path or not Path(path).is_dir():
        sys.exit("differential: give --official DIR (or TASKEVAL_OFFICIAL): the official checkouts")
    return Path(path).resolve()


def compare_values(expected: dict, actual: dict, where: str, outcome: Outcome) -> None:
    """Python ``==`` on every official key (floats bit for bit, int vs float types too)."""
    for key, value in expected.items():
        outcome.values += 1
        got = actual.get(key, "<missing>")
        if got != value or type(got) is not type(value):
            outcome.differences.append(f"{where}: {key}: official {value!r}, taskeval {got!r}")


def run(
    metric: str,
    check: Callable[[random.Random, Path, bool], Outcome],
    argv: list[str] | None = None,
) -> int:
    """Run ``check(rng, official, with_cli)`` on many cases; print a summary; 1 on any difference.

    ``with_cli`` asks the case to go through the ``taskeval score`` command as well as
    ``compute()`` (every ``--cli-every``-th case: a subprocess per case is slow).
    """
    parser = argparse.ArgumentParser(description=f"{metric}: taskeval against the official code")
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--start", type=int, default=0, help="first case number (to run in parts)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--official", help="folder of the official checkouts")
    parser.add_argument("--cli-every", type=int, default=50, help="CLI path every N-th case")
    parser.add_argument("--show", type=int, default=10, help="differences to print")
    args = parser.parse_args(argv)
    official = official_dir(args.official)
    total = Outcome()
    cli_cases = skipped = 0
    as_documented: list[str] = []
    start = time.perf_counter()
    for i in range(args.start, args.start + args.cases):
        rng = random.Random(f"{args.seed}-{i}")
        with_cli = args.cli_every > 0 and i % args.cli_every == 0
        cli_cases += with_cli
        try:
            one = check(rng, official, with_cli)
        except PathsDiffer as e:
            one = Outcome(differences=[str(e)])
        except Exception as e:  # a crash of the harness or of taskeval: shown, never hidden
            one = Outcome(refusals=[f"unexpected {type(e).__name__}: {e}"])
        total.values += one.values
        skipped += one.skipped
        total.differences += [f"case {i}: {d}" for d in one.differences]
        as_documented += [f"case {i}: {r}" for r in one.refusals if documented(r)]
        total.refusals += [f"case {i}: {r}" for r in one.refusals if not documented(r)]
    summary: dict[str, Any] = {
        "metric": metric,
        "cases": args.cases,
        "first_case": args.start,
        "cli_cases": cli_cases,
        "seed": args.seed,
        "official_refused": skipped,
        "values_compared": total.values,
        "differing_values": len(total.differences),
        "refusals": len(total.refusals),
        "documented_refusals": len(as_documented),
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(summary))
    for line in (total.differences + total.refusals)[: args.show]:
        print(line, file=sys.stderr)
    return 1 if total.differences or total.refusals else 0


# ---------------------------------------------------------------------------------------------
# Helpers for the metric scripts


LINE_BREAKS = ("\n", "\n", "\r\n", "\r")  # text-mode readers split on all three


def dumps(rng: random.Random, value: Any) -> str:
    """One JSON text, spelt as different writers spell it (escapes or raw UTF-8, spacing).

    Lone surrogates are always escaped: raw, they are not UTF-8.
    """
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        ensure_ascii = rng.random() < 0.5
    except UnicodeEncodeError:
        ensure_ascii = True
    separators = rng.choice([(", ", ": "), (",", ":"), (" ,  ", " :\t")])
    return json.dumps(value, ensure_ascii=ensure_ascii, separators=separators)


def write_jsonl(
    rng: random.Random, path: Path, values: list, breaks: tuple[str, ...] = LINE_BREAKS
) -> None:
    """``values`` one per line, each line break drawn from ``breaks``; maybe no final break."""
    text = [dumps(rng, value) + rng.choice(breaks) for value in values]
    if text and rng.random() < 0.2:
        text[-1] = text[-1].rstrip("\r\n")
    path.write_text("".join(text), encoding="utf-8", newline="")


def int_edge(rng: random.Random, small: int = 5, negative: bool = True) -> int:
    """A small int mostly; now and then int64's edge, and rarely one beyond it (Python's json
    reads any size; the cards document that every path refuses those)."""
    roll = rng.random()
    if roll < 0.004:
        return rng.choice([2**63, 2**64 - 1, 2**64, 2**70 + 3, 10**25])
    if roll < 0.02:
        return 2**63 - 1
    if roll < 0.03 and negative:
        return -rng.choice([2**63, 2**63 + 1, 2**64 + 5])
    return rng.randint(0, small)


_metrics: dict[str, Any] = {}


def metric(name: str) -> Any:
    """``taskeval.load(name)``, once per process."""
    if name not in _metrics:
        import taskeval

        _metrics[name] = taskeval.load(name)
    return _metrics[name]


def taskeval_compute(name: str, references: Path | None, predictions: Path, **options: Any) -> dict:
    """``compute(**read_official(...))``: the library path a user takes with official files.

    The same rows also go through ``add_batch`` in chunks on a fresh metric object, which must
    give the same numbers, or refuse them with the same message (else ``PathsDiffer``)."""
    import taskeval

    inputs = taskeval.read_official(name, references=references, predictions=predictions)
    try:
        result: dict | None = metric(name).compute(**inputs, **options)
        refusal = None
    except ValueError as e:
        result, refusal = None, str(e)
    try:
        batched: dict | None = in_chunks(name, inputs, **options)
        batched_refusal = None
    except ValueError as e:
        batched, batched_refusal = None, str(e)
    # Both refusing, they may name different rows when several are bad: add_batch stops at the
    # first chunk holding one, compute() checks every prediction before the references.
    both_refuse = refusal is not None and batched_refusal is not None
    if both_refuse and documented(refusal) == documented(batched_refusal):
        raise ValueError(refusal)
    if refusal != batched_refusal:
        raise PathsDiffer(
            f"add_batch: compute() {'refused: ' + refusal if refusal else 'scored'}, add_batch "
            f"{'refused: ' + batched_refusal if batched_refusal else 'scored'}"
        )
    if refusal is not None:
        raise ValueError(refusal)
    assert result is not None and batched is not None
    differing = [key for key in result if not _same(batched.get(key), result[key])]
    if differing or set(batched) != set(result):
        key = (differing or sorted(set(batched) ^ set(result)))[0]
        raise PathsDiffer(
            f"add_batch: {key}: compute() {result.get(key)!r}, add_batch {batched.get(key)!r}"
        )
    return result


def _same(a: Any, b: Any) -> bool:
    """``==`` with the types of numbers too (1 is not 1.0), at every level."""
    if isinstance(b, dict):
        return isinstance(a, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in b)
    if isinstance(b, list):
        return isinstance(a, list) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


CHUNKS = (1, 2, 3, 1, 4)  # chunk sizes, in turn: single rows and batches of several


def in_chunks(name: str, inputs: dict, **options: Any) -> dict:
    """A fresh metric object: ``add_batch`` of the rows in chunks, then ``compute(**options)``."""
    import uuid

    import taskeval

    # Its own experiment id: a metric object refused in mid-course holds its cache file's lock
    # until it is collected, and a new object would wait a second for it.
    fresh = taskeval.load(name, experiment_id=uuid.uuid4().hex)
    predictions, references = inputs["predictions"], inputs["references"]
    start = turn = 0
    while start < len(predictions) or start < len(references):
        end = start + CHUNKS[turn % len(CHUNKS)]
        fresh.add_batch(predictions=predictions[start:end], references=references[start:end])
        start, turn = end, turn + 1
    if turn == 0:  # no rows: compute() refuses them as it refuses them directly
        return fresh.compute(predictions=predictions, references=references, **options)
    return fresh.compute(**options)


def taskeval_files(name: str, references: Path | None, predictions: Path, **options: Any) -> dict:
    """``taskeval.score_files``: what the CLI prints (its fast file paths), in this process."""
    import taskeval

    return taskeval.score_files(name, references=references, predictions=predictions, **options)


def taskeval_cli(name: str, references: Path | None, predictions: Path, *options: str) -> dict:
    """``taskeval score NAME`` in a fresh process; its JSON, or a ValueError with its stderr."""
    import subprocess

    gold = [] if references is None else ["--references", str(references)]
    done = subprocess.run(
        [sys.executable, "-m", "taskeval", "score", name, *gold, "--predictions", str(predictions),
         *options],
        capture_output=True,
        text=True,
    )  # fmt: skip
    if done.returncode != 0:
        raise ValueError(f"taskeval score {name} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)
