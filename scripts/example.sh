#!/usr/bin/env bash
# Set up a virtual environment (.venv, or $TASKEVAL_VENV), install taskeval, and score the
# bundled example files of every metric (the ones the Spaces show) with the command-line scorer.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TASKEVAL_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -e .
run() { echo "\$ taskeval score $*"; "$venv/bin/taskeval" score "$@"; echo; }
run fever_score --references spaces/fever_score/examples/actual.jsonl \
    --predictions spaces/fever_score/examples/predictions.jsonl
for level in abstract sentence; do
    run "scifact_$level" --references spaces/scifact_abstract/examples/claims_dev.jsonl \
        --predictions spaces/scifact_abstract/examples/predictions.jsonl
done
run tydiqa --references spaces/tydiqa/examples/gold.jsonl.gz \
    --predictions spaces/tydiqa/examples/predictions.jsonl
# The eHealth-KD CLI takes whole gold and submission trees (three scenario folders); the
# example is one scenario-1 folder per side, which the Python API scores directly.
echo "\$ python: taskeval.load('ehealthkd', 'scenario1').compute(**taskeval.read_official(...))"
"$venv/bin/python" - <<'PY'
import json

import taskeval

inputs = taskeval.read_official(
    "ehealthkd",
    references="spaces/ehealthkd/examples/gold",
    predictions="spaces/ehealthkd/examples/submission",
)
print(json.dumps(taskeval.load("ehealthkd", "scenario1").compute(**inputs)))
PY
