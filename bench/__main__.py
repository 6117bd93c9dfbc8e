"""Run every benchmark and rewrite bench/README.md with one table.

    python -m bench [--only fever scifact ...] [--tydiqa-data DIR] [--official DIR]

Each ``bench_<task>.py`` runs in its own process with its default sizes, writes its own report
(``bench/<task>.md``) and its row(s) of the table (``bench/results/<task>.json``); the table then
gathers those rows. ``--official`` (or ``$TASKEVAL_OFFICIAL``) names the folder holding the
official checkouts (``scifact-evaluator``, ``ehealthkd-2019``, ``tydiqa``), run side by side with
taskeval; FEVER's official scorer is the installed package ``fever-scorer``. Without the folder,
the figures of the specs (or recorded on this machine class) stand in. The TyDi QA files take
minutes to generate: ``--tydiqa-data`` keeps and reuses them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.common import OFFICIAL_ENV, RESULTS, machine, table

HERE = Path(__file__).resolve().parent
TASKS = {
    "fever": ["--n", "200000", "--repeat", "3"],
    "scifact": ["--n", "99900", "--repeat", "5"],
    "ehealthkd": ["--repeat", "5"],
    "tydiqa": ["--sizes", "18670", "200000", "--repeat", "3", "--repeat-large", "2"],
    "load": ["--repeat", "5"],
}
COLUMNS = [
    "task",
    "size",
    "what",
    "official",
    "taskeval",
    "taskeval / official",
    "target",
    "verdict",
]
KEYS = ["size", "what", "official", "taskeval", "ratio", "target", "verdict"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=list(TASKS), default=list(TASKS))
    parser.add_argument("--tydiqa-data", help="folder to keep and reuse the TyDi QA files in")
    parser.add_argument(
        "--official",
        default=os.environ.get(OFFICIAL_ENV),
        help=f"folder of the official checkouts (default ${OFFICIAL_ENV})",
    )
    args = parser.parse_args()
    for task in args.only:
        extra = ["--keep", args.tydiqa_data] if task == "tydiqa" and args.tydiqa_data else []
        if args.official and task != "load":
            extra += ["--official", args.official]
        command = [sys.executable, str(HERE / f"bench_{task}.py"), *TASKS[task], *extra]
        print("$", " ".join(command[1:]), flush=True)
        subprocess.run(command, check=True, cwd=HERE.parent)
    write_readme()


def write_readme() -> None:
    rows = []
    for task in TASKS:
        path = RESULTS / f"{task}.json"
        if path.exists():
            for row in json.loads(path.read_text(encoding="utf-8")):
                rows.append([f"[{task}]({task}.md)", *(row.get(k, "—") for k in KEYS)])
    text = f"""# Benchmarks

Written by `python -m bench --official DIR`, which runs every `bench/bench_<task>.py` with the
sizes below and gathers their rows; each task's own report (linked) has the commands, every
run and the medians. Machine of the last run: {machine()}.

Each row is measured side by side in one run: the official scorer and taskeval, each a fresh
process (whole process: interpreter start, reading the files, scoring, printing) or in the same
process (in memory), runs taken in turn so that the load of the shared machine hits both alike;
the ratio is taskeval / official and the target is its ceiling. The official scorers are the
checkouts in the folder given by `--official` or `$TASKEVAL_OFFICIAL` (SciFact's
`scifact-evaluator`, eHealth-KD's `ehealthkd-2019`, TyDi QA's `tydiqa`; never part of this
repository) and the installed `fever-scorer` package. A figure marked "(spec)" or
"(recorded figure)" stands in where the folder is not given. Whole processes run, on both
sides, in a fresh virtual environment where taskeval is installed from its wheel, as users
install it (`taskeval score ...` is that environment's command), from compiled bytecode; the
official scorers' packages are reached from it. (This checkout's editable install would
load pathlib and re into every process, official or not, and hide what taskeval imports.) A run
with `--only` refreshes the rows of the tasks it names; the others are from their last run (the
machine and load of each are in the task's report).

{table(COLUMNS, rows)}

The `load` row times `taskeval.load(name)` and a bare-name `evaluate.load(name)` after
`taskeval install`. The speed of `taskeval compare` (paired bootstrap and approximate
randomization) is in [compare.md](compare.md).
"""
    (HERE / "README.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
