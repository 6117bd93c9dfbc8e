"""The loop every differential check shares: random cases, taskeval against the official code.

Each ``scripts/differential/<metric>.py`` defines how to draw a random valid case and how to
score it both ways, then calls ``run``. The official code is never part of this repository: it
is read from ``--official DIR`` (or ``$TASKEVAL_OFFICIAL``), a folder holding the checkouts
``scifact-evaluator``, ``ehealthkd-2019`` and ``tydiqa`` (FEVER's scorer is the PyPI package).
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


@dataclass
class Outcome:
    """What one case gave: the values compared, and each difference or refusal found."""

    values: int = 0
    differences: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)


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
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--official", help="folder of the official checkouts")
    parser.add_argument("--cli-every", type=int, default=50, help="CLI path every N-th case")
    parser.add_argument("--show", type=int, default=10, help="differences to print")
    args = parser.parse_args(argv)
    official = official_dir(args.official)
    total = Outcome()
    cli_cases = 0
    start = time.perf_counter()
    for i in range(args.cases):
        rng = random.Random(f"{args.seed}-{i}")
        with_cli = args.cli_every > 0 and i % args.cli_every == 0
        cli_cases += with_cli
        one = check(rng, official, with_cli)
        total.values += one.values
        total.differences += [f"case {i}: {d}" for d in one.differences]
        total.refusals += [f"case {i}: {r}" for r in one.refusals]
    summary: dict[str, Any] = {
        "metric": metric,
        "cases": args.cases,
        "cli_cases": cli_cases,
        "seed": args.seed,
        "values_compared": total.values,
        "differing_values": len(total.differences),
        "refusals": len(total.refusals),
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(summary))
    for line in (total.differences + total.refusals)[: args.show]:
        print(line, file=sys.stderr)
    return 1 if total.differences or total.refusals else 0
