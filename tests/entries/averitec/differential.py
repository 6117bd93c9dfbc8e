"""averitec, every path, against the official scorers of the three editions under nltk 3.9.1 and
3.10.4: random claims (``random_records``: tokenizer and METEOR edge cases) written as official
files, scored by the official code (``official_runner.py``, in the interpreters given) and by
``taskeval score averitec``'s function (``score_files``), the evaluate metric (``compute()`` on
``read_official``'s rows, and every ``--batch-every`` case the same rows through ``add_batch``
in random batches) and, every ``--cli-every`` case, the command line. Every value is compared with ``==`` and its type.

Where the official code raises, every path must raise ``ValueError``; a refusal where the
official code scores is counted, and is documented when the card says so (a 2025 submission
without a row for a gold id, which the official code pairs with the wrong claims).

    python scripts/differential/run.py averitec --official DIR \\
        --python 3.9.1=PYTHON --python 3.10.4=PYTHON --cases 3000 --cli-every 100

(``DIR`` as ``official_runner.py`` reads it; each PYTHON with that nltk release, scipy, numpy,
pandas and scikit-learn, and the nltk data under ``NLTK_DATA``.)
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from official_files import expected, official_case, run_official, write_case  # noqa: E402
from random_records import random_inputs  # noqa: E402

import taskeval  # noqa: E402
from taskeval._metrics.averitec import inputs  # noqa: E402

EDITIONS = ("2024", "2025", "2023")
DOCUMENTED = ("no prediction for",)


def spoil(rows: dict, edition: str, rng: random.Random) -> None:
    """Make a case invalid in a way the official code fails on (before it is written)."""
    gold = rng.choice(rows["references"])
    way = 0 if edition == "2025" else rng.randrange(2)  # the CSV holds no Boolean answer
    if way == 0:
        gold["questions"] = []  # a division by zero
    else:
        gold["questions"].append(
            {"question": "Is it so?", "answers": [{"answer": "Yes", "answer_type": "Boolean",
                                                   "boolean_explanation": None}]}
        )  # fmt: skip


def spoil_csv(case: dict, rng: random.Random) -> None:
    """A 2025 submission the official code fails on or misreads: an empty evi, a piece without
    its separator, a repeated id, a missing id."""
    header, *rows = csv.reader(io.StringIO(case["submission_csv"]))
    way = rng.randrange(4)
    k = rng.randrange(len(rows))
    if way == 0:
        rows[k][2] = ""
    elif way == 1:
        rows[k][2] = "only a question"
    elif way == 2:
        rows.append(rows[k])
    else:
        del rows[k]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    case["submission_csv"] = out.getvalue()


_METRICS: list[Any] = []


def _metric() -> Any:
    """One metric object for every case (``compute()`` clears what ``add_batch`` stored)."""
    if not _METRICS:
        _METRICS.append(taskeval.load("averitec"))
    return _METRICS[0]


def _ours(
    references: Path, predictions: Path, options: dict, rng: random.Random, cli: bool, batches: bool
):
    """Each path's result (or the ``ValueError`` it raised), by path."""
    results: dict[str, Any] = {}

    def attempt(name, call):
        try:
            results[name] = call()
        except ValueError as error:
            results[name] = error

    attempt("score_files", lambda: inputs.score_files(references, predictions, **options))
    metric = _metric()

    def by_batches():
        rows = inputs.read_official(references, predictions)
        n = len(rows["references"])
        start = 0
        while start < n:
            stop = min(n, start + rng.randint(1, 4))
            metric.add_batch(
                predictions=rows["predictions"][start:stop],
                references=rows["references"][start:stop],
            )
            start = stop
        return metric.compute(**options)

    attempt(
        "compute",
        lambda: metric.compute(**inputs.read_official(references, predictions), **options),
    )
    if batches:
        attempt("add_batch", by_batches)
        if isinstance(results["add_batch"], ValueError):
            # a refused batch leaves the batches before it stored (for a later compute()): the
            # next case gets a fresh metric
            _METRICS.clear()
    if cli:
        argv = [
            sys.executable,
            "-m",
            "taskeval",
            "score",
            "averitec",
            "--references",
            str(references),
        ]
        argv += ["--predictions", str(predictions), "--edition", options["edition"]]
        argv += ["--nltk", options["nltk"]]
        done = subprocess.run(argv, capture_output=True, text=True)
        results["cli"] = (
            json.loads(done.stdout) if done.returncode == 0 else ValueError(done.stderr)
        )
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="run.py averitec")
    parser.add_argument("--official", required=True)
    parser.add_argument("--python", action="append", required=True, help="RELEASE=PYTHON")
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cli-every", type=int, default=100)
    parser.add_argument("--batch-every", type=int, default=4, help="add_batch path every N-th case")
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--edition", action="append", choices=EDITIONS, help="default: all")
    args = parser.parse_args(argv)
    pythons = dict(item.split("=", 1) for item in args.python)
    rng = random.Random(args.seed)
    tally = dict.fromkeys(
        ("cases", "values", "differing", "official_raised", "documented", "undocumented", "cli"), 0
    )
    shown = 0
    with tempfile.TemporaryDirectory() as folder:
        editions = args.edition or EDITIONS
        for edition in editions:
            cases = []
            for k in range(args.cases // len(editions)):
                rows = random_inputs(rng, rng.randint(1, 12), edition)
                spoilt = rng.random() < 1 / 8
                if spoilt and (edition != "2025" or rng.random() < 0.5):
                    spoil(rows, edition, rng)
                    spoilt = False
                case = official_case(f"{edition}-{k:05d}", rows, edition, rng)
                if spoilt:
                    spoil_csv(case, rng)
                case["files"] = write_case(Path(folder, case["case"]), case)
                cases.append(case)
            for release, python in pythons.items():
                runnable = [{k: v for k, v in c.items() if k != "files"} for c in cases]
                outputs = run_official(python, args.official, edition, runnable)
                for n, case in enumerate(cases):
                    tally["cases"] += 1
                    found = outputs[case["case"]]
                    options = {"edition": edition, "nltk": release}
                    cli = args.cli_every > 0 and n % args.cli_every == 0
                    tally["cli"] += cli
                    ours = _ours(*case["files"], options, rng, cli, n % args.batch_every == 0)
                    if "result" not in found:
                        tally["official_raised"] += 1
                        for path, got in ours.items():
                            if not isinstance(got, ValueError):
                                tally["differing"] += 1
                                if shown < args.show:
                                    shown += 1
                                    print(
                                        case["case"],
                                        release,
                                        path,
                                        "scored where the official code raised",
                                        found["error"],
                                    )
                        continue
                    want = expected(edition, found["result"])
                    for path, got in ours.items():
                        if isinstance(got, ValueError):
                            documented = any(d in str(got) for d in DOCUMENTED)
                            tally["documented" if documented else "undocumented"] += 1
                            if not documented and shown < args.show:
                                shown += 1
                                print(case["case"], release, path, "refused:", got)
                            continue
                        tally["values"] += len(want)
                        wrong = {
                            k: (got.get(k), v)
                            for k, v in want.items()
                            if got.get(k) != v or type(got.get(k)) is not type(v)
                        }
                        if wrong or set(got) != set(want):
                            tally["differing"] += 1
                            if shown < args.show:
                                shown += 1
                                print(case["case"], release, path, wrong, set(got) ^ set(want))
            print(edition, json.dumps(tally), flush=True)
    print(json.dumps(tally))
    return 1 if tally["differing"] or tally["undocumented"] else 0
