"""Test-run setup: one evaluate modules cache for the whole run, and no network.

evaluate reads its cache locations and ``HF_EVALUATE_OFFLINE`` when it is first imported, and
imports the ``evaluate_modules`` package once, so both are fixed here, before any test imports it.
"""

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

_RUN_CACHE = tempfile.mkdtemp(prefix="taskeval-tests-")
atexit.register(shutil.rmtree, _RUN_CACHE, ignore_errors=True)
for _var, _sub in (
    ("HF_HOME", "hf"),
    ("HF_MODULES_CACHE", "modules"),
    ("HF_EVALUATE_CACHE", "evaluate"),
    ("HF_METRICS_CACHE", "metrics"),
    ("HF_DATASETS_CACHE", "datasets"),
):
    os.environ[_var] = os.path.join(_RUN_CACHE, _sub)
os.environ["HF_EVALUATE_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"

sys.path.insert(0, str(Path(__file__).parent))
