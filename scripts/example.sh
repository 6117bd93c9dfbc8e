#!/usr/bin/env bash
# Set up a virtual environment (.venv, or $TASKEVAL_VENV), install taskeval, and score the
# bundled example files of every metric (the ones the Spaces show, as each metric's contract
# names them) with the command-line scorer.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TASKEVAL_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -e .
run() { echo "\$ taskeval score $*"; "$venv/bin/taskeval" score "$@"; echo; }
# One line per call: METRICS REFERENCES PREDICTIONS. Metrics that read the same files (the two
# SciFact levels: the leaderboard's 12 numbers) are scored in one call.
examples() {
    "$venv/bin/python" - <<'PY'
import os

import taskeval
from taskeval.export import spaces_root
from taskeval.registry import contract

calls = {}
for name in taskeval.list_metrics():
    metric = contract(name)
    folder = spaces_root() / name / "examples"
    paths = [folder / metric.space.examples[side] for side in ("references", "predictions")]
    key = (metric.reader.group or name, *(str(p.resolve()) for p in paths))
    calls.setdefault(key, ([], [os.path.relpath(p) for p in paths]))[0].append(name)
for names, (references, predictions) in calls.values():
    print(",".join(names), references, predictions)
PY
}
examples | while read -r metrics references predictions; do
    run "$metrics" --references "$references" --predictions "$predictions"
done
