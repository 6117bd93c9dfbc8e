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
# Both SciFact levels in one call: the leaderboard's 12 numbers.
run scifact_abstract,scifact_sentence --references spaces/scifact_abstract/examples/claims_dev.jsonl \
    --predictions spaces/scifact_abstract/examples/predictions.jsonl
run tydiqa --references spaces/tydiqa/examples/gold.jsonl.gz \
    --predictions spaces/tydiqa/examples/predictions.jsonl
# One scenario folder per side (a whole gold tree and submission tree work too).
run ehealthkd --references spaces/ehealthkd/examples/gold \
    --predictions spaces/ehealthkd/examples/submission
