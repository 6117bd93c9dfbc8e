#!/usr/bin/env bash
# Mutation testing of the scoring cores, readers, checked_metric and compare (outside CI: too
# slow for it). Arguments go to scripts/mutation.py: module paths (default: every module listed
# in scripts/mutation.toml), --minutes N (stop after N minutes; run again to go on), --recheck
# (run the survivors again after adding tests), --report. How to read the results:
# docs/mutation.md.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TASKEVAL_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c "import cosmic_ray, pytest_cov" 2>/dev/null || "$venv/bin/python" -m pip install -q -e ".[test,mutation]"
exec nice -n 19 "$venv/bin/python" scripts/mutation.py "$@"
