"""Run every benchmark and rewrite bench/README.md with one table.

    python -m bench [--only fever scifact ...] [--tydiqa-data DIR]

Each ``bench_<task>.py`` runs in its own process with its default sizes, writes its own report
(``bench/<task>.md``) and its row(s) of the table (``bench/results/<task>.json``); the table then
gathers those rows. The TyDi QA files take minutes to generate: ``--tydiqa-data`` keeps and
reuses them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from bench.common import RESULTS, machine, table

HERE = Path(__file__).resolve().parent
TASKS = {
    "fever": ["--n", "200000", "--repeat", "3"],
    "scifact": ["--n", "100000", "--repeat", "3"],
    "ehealthkd": ["--repeat", "5"],
    "tydiqa": ["--sizes", "18670", "200000", "--repeat", "3"],
    "load": ["--repeat", "5"],
}
COLUMNS = [
    "task",
    "size",
    "official",
    "taskeval core",
    "taskeval compute()",
    "CLI",
    "memory",
    "target",
]
KEYS = ["size", "official", "core", "compute", "cli", "memory", "verdict"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=list(TASKS), default=list(TASKS))
    parser.add_argument("--tydiqa-data", help="folder to keep and reuse the TyDi QA files in")
    args = parser.parse_args()
    for task in args.only:
        extra = ["--keep", args.tydiqa_data] if task == "tydiqa" and args.tydiqa_data else []
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

Written by `python -m bench`, which runs every `bench/bench_<task>.py` with the sizes below and
gathers their rows; each task's own report (linked) has the details, the commands and the
medians. Machine of the last run: {machine()}. "Official" is the official scorer where it runs
here (FEVER), else the figures of the specs, measured on this machine class.

{table(COLUMNS, rows)}

The `load` row times `taskeval.load(name)` and a bare-name `evaluate.load(name)` after
`taskeval install`. The speed of `taskeval compare` (paired bootstrap and approximate
randomization) is in [compare.md](compare.md).
"""
    (HERE / "README.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
