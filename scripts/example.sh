#!/usr/bin/env bash
# Set up a virtual environment (.venv, or $TASKEVAL_VENV), install taskeval, and score the
# bundled example files of every metric with the command-line scorer.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TASKEVAL_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -e .
run() { echo "\$ taskeval score $*"; "$venv/bin/taskeval" score "$@"; echo; }
run fever_score --predictions examples/fever_score/predictions.jsonl \
    --references examples/fever_score/gold.jsonl
