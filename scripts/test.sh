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
# The browser tests drive Debian's Chromium (never a downloaded browser build).
if ! command -v chromium >/dev/null; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
fi
"$venv/bin/ruff" check .
"$venv/bin/ruff" format --check .
"$venv/bin/python" -m pytest "$@"
