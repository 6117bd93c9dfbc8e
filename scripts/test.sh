#!/usr/bin/env bash
# Set up a virtual environment (.venv, or $TASKEVAL_VENV) with what the tests need, check lint
# and formatting, and run the test suite with pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TASKEVAL_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -e ".[test]"
bash scripts/install-official-fever.sh "$venv"
"$venv/bin/ruff" check .
"$venv/bin/ruff" format --check .
"$venv/bin/python" -m pytest "$@"
