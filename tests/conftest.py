"""Test-run setup: one evaluate modules cache (and gradio folder) for the whole run, and no
network.

evaluate reads its cache locations and ``HF_EVALUATE_OFFLINE`` when it is first imported, and
imports the ``evaluate_modules`` package once, so both are fixed here, before any test imports it.
"""

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

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
# gradio's uploads and example copies: this run's own folder, not the machine's /tmp/gradio
# (another user's run may own that one).
os.environ["GRADIO_TEMP_DIR"] = os.path.join(_RUN_CACHE, "gradio")
os.environ["HF_EVALUATE_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(params=["json", "orjson"])
def jsonl_parser(request, monkeypatch):
    """Both parsers of the shared JSONL reader, which must read every line alike: the standard
    library's (files under ``_SMALL`` bytes) and orjson where it agrees (bigger files)."""
    from taskeval.registry import list_metrics, metric_dir, metric_module

    for name in list_metrics():
        if (metric_dir(name) / "jsonl.py").exists():
            module = metric_module(name, "jsonl")
            monkeypatch.setattr(module, "_SMALL", 0 if request.param == "orjson" else 2**62)
    return request.param


def pytest_collection_modifyitems(items):
    """The tests that use a served Space last, those of one Space next to each other, so that
    ``served`` starts each Space once and keeps one running at a time; then the commands of the
    collected modules that list some (``early_commands``) are started, to run beside the rest."""
    uses = [i for i in items if "served" in getattr(i, "fixturenames", ())]
    if uses:
        rest = [i for i in items if "served" not in getattr(i, "fixturenames", ())]
        uses.sort(key=lambda i: str(i.callspec.params.get("name", "")))  # stable: file order kept
        items[:] = rest + uses
    import early

    modules = {id(i.module): i.module for i in items if getattr(i, "module", None) is not None}
    for module in modules.values():
        if hasattr(module, "early_commands"):
            for key, command in module.early_commands().items():
                early.start(key, command)


def pytest_sessionfinish(session, exitstatus):
    import early

    early.stop_all()


@pytest.fixture(scope="session")
def served():
    """``served(name)``: the URL of the Space ``name``, started once for the browser tests of
    every file (a start-up costs seconds). One runs at a time, as a Space with its workers holds
    over a GiB: asking for another stops it."""
    from test_spaces import _serve

    running: dict = {}

    def stop() -> None:
        for proc, _ in running.values():
            proc.kill()
            proc.wait()
        running.clear()

    def serve(name: str) -> str:
        if name not in running:
            stop()
            running[name] = _serve(name)
        proc, url = running[name]
        assert proc.poll() is None, f"the {name} Space stopped"
        return url

    yield serve
    stop()
