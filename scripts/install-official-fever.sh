#!/usr/bin/env bash
# Install the official FEVER scorer (fever-scorer 2.0.39, from PyPI) into a virtual environment,
# for the differential tests and the benchmark. Its sdist only builds with setuptools <= 56.1
# (its setup.py trips newer ones), so the wheel is built in a throw-away environment.
set -euo pipefail
venv=${1:?usage: install-official-fever.sh VENV}
if "$venv/bin/python" -c "import fever.scorer" 2>/dev/null; then exit 0; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/build"
"$work/build/bin/pip" install -q "setuptools<=56.1.0" wheel
"$work/build/bin/pip" wheel -q --no-build-isolation --no-deps fever-scorer==2.0.39 -w "$work/wheels"
"$venv/bin/pip" install -q "$work"/wheels/fever_scorer-2.0.39-*.whl
