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
# Fonts for the scripts of the TyDi examples (Bengali, Telugu, Arabic, Korean, ...): without them
# Chromium draws empty boxes, which both the screenshots and the 400 px layout checks would measure.
if [ -z "$(fc-list :lang=bn family)" ] || [ -z "$(fc-list :lang=ko family)" ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends fonts-noto-core fonts-noto-cjk >/dev/null
fi
"$venv/bin/ruff" check .
"$venv/bin/ruff" format --check .
"$venv/bin/python" -m pytest "$@"
