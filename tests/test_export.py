"""``taskeval export``: each metric's Hub Space repository, tested as the Hub runs it.

For every metric the export is checked as files (plain files, Space front matter, pinned
published requirements, no taskeval), then run in a virtual environment holding only the
export's ``requirements.txt`` (built once per requirements set and run, from pip's cache):
``evaluate.load(DIR)`` gives taskeval's exact numbers on the example, and ``python app.py``
serves the Space from a folder not named after the metric (as on the Hub), which computes the
same numbers through gradio_client. One exported Space is driven in Chromium.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

import taskeval
from taskeval.export import export, spaces_root
from taskeval.registry import metric_module

from browser import chromium
from harness import run_cli

REPO = Path(__file__).resolve().parents[1]
NAMES = taskeval.list_metrics()


def _space(name: str):
    """What the metric's contract says its Space shows (example files, their config)."""
    return metric_module(name, "contract").CONTRACT.space


def _example_paths(name: str, root: Path) -> tuple[Path, Path]:
    examples = _space(name).examples
    return root / examples["references"], root / examples["predictions"]


def _example_inputs(name: str) -> dict:
    refs, preds = _example_paths(name, spaces_root() / name / "examples")
    return taskeval.read_official(name, references=refs, predictions=preds)


def _expected(name: str) -> dict:
    return taskeval.load(name, _space(name).example_config).compute(**_example_inputs(name))


def _default_controls(name: str) -> list:
    """The values of the Space's option widgets as the page opens (its app.py, in-process)."""
    import importlib.util

    import gradio as gr

    path = spaces_root() / name / "app.py"
    spec = importlib.util.spec_from_file_location(f"export_space_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with gr.Blocks():
        return [c.value for c in module.SPEC.controls()]


@pytest.fixture(scope="session")
def exports(tmp_path_factory) -> dict[str, Path]:
    """Every metric exported once, each into a folder named after it (as ``evaluate.load``
    of a folder expects)."""
    root = tmp_path_factory.mktemp("exports")
    for name in NAMES:
        export(name, root / name)
    return {name: root / name for name in NAMES}


@pytest.fixture(scope="session")
def hub_python(tmp_path_factory):
    """``hub_python(requirements)``: the Python of a fresh virtual environment holding only
    ``requirements``, built once per requirements set and test run (pip's cache makes the
    downloads a one-off)."""
    venvs: dict[str, Path] = {}

    def python_for(requirements: Path) -> Path:
        key = requirements.read_text(encoding="utf-8")
        if key not in venvs:
            venv = tmp_path_factory.mktemp("hub-venv")
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            python = venv / "bin" / "python"
            subprocess.run(
                [
                    str(python),
                    "-m",
                    "pip",
                    "install",
                    "-q",
                    "--no-compile",
                    "-r",
                    str(requirements),
                ],
                check=True,
                env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
            )
            venvs[key] = python
        return venvs[key]

    return python_for


@pytest.fixture(scope="session")
def hub_env(tmp_path_factory) -> dict[str, str]:
    """Environment of the Hub-like processes: their own caches, no taskeval on any path."""
    home = tmp_path_factory.mktemp("hub-home")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "PYTHON"))}
    env.update(HF_HOME=str(home), HF_EVALUATE_OFFLINE="1", GRADIO_ANALYTICS_ENABLED="False")
    return env


@pytest.mark.parametrize("name", NAMES)
def test_export_is_a_complete_space_repository(name, exports):
    folder = exports[name]
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert not [p for p in folder.rglob("*") if p.is_symlink()]
    assert {f"{name}.py", "README.md", "app.py", "requirements.txt"} <= set(files)
    assert any(f.startswith("examples/") and f.endswith("README.md") for f in files)
    # Every module the metric script imports is there (evaluate copies them from the Space).
    script = folder / f"{name}.py"
    imported = {
        node.module
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level == 1
    }
    assert imported and all((folder / f"{m}.py").is_file() for m in imported)
    # app.py runs with the folder first on sys.path: no module of it may hide a standard one
    # (a numbers.py once broke gradio's import of the standard library's numbers).
    top_level = {p.stem for p in folder.glob("*.py")} | {
        p.name for p in folder.iterdir() if p.is_dir()
    }
    assert not top_level & set(sys.stdlib_module_names)
    # README: the metric card, with the Space's front matter.
    text = (folder / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(text.split("---\n")[1])
    assert text == (taskeval.metric_dir(name) / "README.md").read_text(encoding="utf-8")
    assert header["sdk"] == "gradio" and header["app_file"] == "app.py"
    assert {"evaluate", "metric"} <= set(header["tags"])
    # requirements: published packages, each pinned, never taskeval; gradio as the header says.
    requirements = (folder / "requirements.txt").read_text(encoding="utf-8").split()
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.]*", r) for r in requirements)
    assert f"gradio=={header['sdk_version']}" in requirements
    assert {"evaluate", "datasets", "gradio", "matplotlib"} <= {
        r.split("==")[0] for r in requirements
    }
    assert not any("taskeval" in r for r in requirements)
    # No file of the Space imports taskeval.
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(m.split(".")[0] == "taskeval" for m in modules), path


def test_space_code_exists_once():
    """The Spaces' shared code lives in the package; a Space folder holds its app, examples and
    pictures."""
    assert not (taskeval.metric_dir("scifact_abstract") / "scifact_space.py").exists()
    for name in NAMES:
        files = {p.name for p in (spaces_root() / name).iterdir()} - {"__pycache__"}
        assert files == {"app.py", "examples", "screenshot.png", "screenshot-400px.png"}
        assert not [p for p in taskeval.metric_dir(name).iterdir() if "space" in p.name]


def test_cli_export(tmp_path):
    code, out, err = run_cli(["export", "fever_score", str(tmp_path / "space")])
    assert code == 0
    assert str(tmp_path / "space" / "app.py") in out.split()
    # How to use it, on stderr (stdout lists the files): a folder not named after the metric
    # loads through the metric's script.
    script = tmp_path / "space" / "fever_score.py"
    assert f"load it with evaluate.load({str(script)!r})" in err, err
    assert f"python {tmp_path / 'space' / 'app.py'}" in err, err
    named = tmp_path / "fever_score"
    code, _, err = run_cli(["export", "fever_score", str(named)])
    assert code == 0 and f"evaluate.load({str(named)!r})" in err, err
    code, out, err = run_cli(["export", "fever_score", str(tmp_path / "space")])
    assert code == 2 and "is not empty" in err and not out
    assert run_cli(["export", "fever_score", str(tmp_path / "space"), "--overwrite"])[0] == 0
    code, _, err = run_cli(["export", "fever", str(tmp_path / "other")])
    assert code == 2 and "unknown metric 'fever'" in err


@pytest.mark.parametrize("name", NAMES)
def test_export_bundles_every_module_its_package_imports(name, exports):
    """The bundled package holds each taskeval module its files import, transitively, and no
    other: read here from the exported files themselves."""
    from taskeval.export import PACKAGE

    package = exports[name] / PACKAGE
    bundled = {p.stem for p in package.glob("*.py")} - {"__init__"}
    imported = set()
    for path in [*exports[name].glob("*.py"), *package.glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                top, _, rest = node.module.partition(".")
                if node.level == 1 and path.parent == package:
                    imported.add(top)
                elif node.level == 0 and top == PACKAGE:
                    imported.add(rest.split(".")[0])
    assert "space" in imported and "registry" in bundled
    assert bundled == imported


def test_space_files_import_taskeval_modules_from_the_package_only():
    from taskeval.export import _taskeval_imports

    source = (
        "import os\nfrom .sibling import x\nfrom taskeval.space import a\n"
        "from taskeval.table.inner import b\nfrom other.taskeval import c\n"
    )
    assert _taskeval_imports(source) == {"space", "table"}
    for by_name in ("import taskeval\n", "import os, taskeval.space\n", "from taskeval import x\n"):
        with pytest.raises(ValueError, match="imports from taskeval's modules by name"):
            _taskeval_imports(by_name)


def test_a_metric_without_a_space_is_refused(tmp_path, monkeypatch):
    import taskeval.export

    (tmp_path / "fever_score").mkdir()
    monkeypatch.setattr(taskeval.export, "spaces_root", lambda: tmp_path)
    with pytest.raises(ValueError, match=r"^fever_score has no Space$"):
        export("fever_score", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_overwrite_is_keyword_only(tmp_path):
    with pytest.raises(TypeError):
        export("fever_score", tmp_path / "out", True)
    assert not (tmp_path / "out").exists()


LOAD_SCRIPT = """
import json, sys
try:
    import taskeval
except ImportError:
    pass
else:
    sys.exit("taskeval is importable: " + taskeval.__file__)
import evaluate
folder, config, inputs = sys.argv[1], sys.argv[2] or None, json.load(open(sys.argv[3]))
print(json.dumps(evaluate.load(folder, config).compute(**inputs)))
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_exported_metric_loads_with_its_requirements_only(
    name, exports, hub_python, hub_env, tmp_path
):
    folder = exports[name]
    python = hub_python(folder / "requirements.txt")
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps(_example_inputs(name)), encoding="utf-8")
    run = subprocess.run(
        [
            str(python),
            "-c",
            LOAD_SCRIPT,
            str(folder),
            _space(name).example_config or "",
            str(inputs),
        ],
        cwd=tmp_path,
        env=hub_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout.splitlines()[-1]) == _expected(name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(python: Path, folder: Path, env: dict) -> tuple[subprocess.Popen, str]:
    """``python app.py`` in ``folder``, as the Hub starts a Space; waits until it answers."""
    port = free_port()
    log = open(folder.parent / f"{folder.name}-{port}.log", "w+")
    proc = subprocess.Popen(
        [str(python), "app.py"],
        cwd=folder,
        env={**env, "GRADIO_SERVER_PORT": str(port)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.time() + 180
    while time.time() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            raise AssertionError(f"the Space exited: {log.read()[-3000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"http://127.0.0.1:{port}/"
        time.sleep(0.3)
    proc.kill()
    raise AssertionError("the Space did not start within 180 s")


def hub_copy(folder: Path, tmp_path: Path) -> Path:
    # On the Hub a Space runs from a folder named "app", not after its metric.
    app = tmp_path / "app"
    shutil.copytree(folder, app)
    return app


def flatten(scores: dict) -> list[list[str]]:
    from taskeval.space import scores_table

    return scores_table({k: v for k, v in scores.items() if not isinstance(v, dict)})


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_exported_space_serves_and_computes(name, exports, hub_python, hub_env, tmp_path):
    from gradio_client import Client, handle_file

    folder = hub_copy(exports[name], tmp_path)
    python = hub_python(folder / "requirements.txt")
    proc, url = serve(python, folder, hub_env)
    try:
        client = Client(url, verbose=False)
        refs, preds = _example_paths(name, folder / "examples")
        if refs.is_dir():  # a folder of files with official names: each file uploaded
            refs = [handle_file(p) for p in sorted(refs.iterdir())]
            preds = [handle_file(p) for p in sorted(preds.iterdir())]
        else:
            refs, preds = handle_file(refs), handle_file(preds)
        controls = _default_controls(name)
        error, _, scores, *_ = client.predict(
            "files", "", "", preds, refs, *controls, api_name="/compute"
        )
        assert not (error or {}).get("visible", False), error
        shown = [list(map(str, r)) for r in scores["value"]["data"]]
        assert shown == flatten(_expected(name))
        # The "Check a submission" panel answers too, with what the export bundled.
        error, summary, *_ = client.predict(preds, None, refs, api_name="/check")
        assert not (error or {}).get("visible", False), error
        assert summary["value"].startswith(f"{name} "), summary
    finally:
        proc.kill()
        proc.wait()


def _choose(page, scenario: int) -> None:
    page.locator("#scenario input").click()
    page.get_by_role("option", name=f"Scenario {scenario}:").click()


@pytest.mark.slow
def test_exported_space_in_chromium(exports, hub_python, hub_env, tmp_path):
    """The exported eHealth-KD Space, served as on the Hub, in a real browser: the note before
    the first Compute, the scenario the file names say, switching scenarios, and an
    error in an uploaded file named as the user named it."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = chromium()
    folder = hub_copy(exports["ehealthkd"], tmp_path)
    python = hub_python(folder / "requirements.txt")
    proc, url = serve(python, folder, hub_env)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=executable, args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": 1280, "height": 1800})
            page.goto(url)
            page.locator("#placeholder").wait_for(state="visible", timeout=60_000)
            for empty in ("#scores", "#breakdown", "#plot"):
                assert not page.locator(empty).is_visible()

            # The example files are scenario 1's, as their names say: with scenario 3 chosen
            # they are still scored as scenario 1 (the menu is for files named otherwise).
            _choose(page, 3)
            page.locator("#compute").click()
            page.locator("#scores").get_by_text("correct_A", exact=True).last.wait_for(
                timeout=60_000
            )
            error = page.locator("#error")
            assert not error.is_visible()

            # JSON rows, scenario 2 then 3: each plot is drawn, the second one anew.
            page.get_by_role("tab", name="JSON rows").click()
            plots = []
            for scenario in (2, 3):
                _choose(page, scenario)
                page.locator("#compute").click()
                image = page.locator("#plot img")
                image.wait_for(state="visible", timeout=60_000)
                page.wait_for_function(
                    "prev => { const i = document.querySelector('#plot img');"
                    " return i && i.src && !prev.includes(i.src); }",
                    arg=plots,
                    timeout=60_000,
                )
                plots.append(image.get_attribute("src"))
                # The new picture may replace the element (a box measured then is None): the
                # one in the page, once it is drawn taller than 200 px.
                page.wait_for_function(
                    "() => { const i = document.querySelector('#plot img');"
                    " return i !== null && i.getBoundingClientRect().height > 200; }",
                    timeout=60_000,
                )
                assert not page.locator("#error").is_visible()
            page.screenshot(path=str(tmp_path / "scenario3.png"), full_page=True)

            # A broken uploaded file: the message names it as uploaded, no server path.
            page.get_by_role("tab", name="Official files").click()
            _choose(page, 1)
            bad = tmp_path / "upload" / "output_a_scenario1.txt"
            bad.parent.mkdir()
            bad.write_text("garbage line\n", encoding="utf-8")
            examples = folder / "examples" / "submission"
            box = page.locator("#predictions-files")
            box.get_by_role("button", name="Clear").click()
            box.locator("input[type=file]").set_input_files(
                [
                    str(bad),
                    str(examples / "output_b_scenario1.txt"),
                    str(examples / "output_scenario1.txt"),
                ]
            )
            box.get_by_text("output_b_scenario1").wait_for(timeout=30_000)
            page.locator("#compute").click()
            # The error box is plain text (a read-only text area): read its value.
            page.wait_for_function(
                "() => document.querySelector('#error textarea')?.value"
                ".includes('output_a_scenario1.txt, line 1')",
                timeout=60_000,
            )
            message = page.locator("#error textarea").input_value()
            assert "/tmp" not in message and "gradio" not in message and "taskeval-" not in message
            browser.close()
    finally:
        proc.kill()
        proc.wait()
