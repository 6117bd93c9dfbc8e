"""Every Space: its folder deploys as a Hub Space, it computes what compute() computes, it shows
bad input as a message (never a traceback), in-process, through gradio_client and in Chromium."""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

import taskeval

gr = pytest.importorskip("gradio")
from taskeval.space import build, compute, scores_table  # noqa: E402


def shown_scores(scores, groups) -> list[list[str]]:
    """The two score tables of the page, flattened back as ``scores_table`` flattens results."""
    rows = [[str(k), str(v)] for k, v in scores[["score", "value"]].values.tolist()]
    if groups is not None and not isinstance(groups, dict):
        for record in groups.to_dict("records"):
            group = record.pop("group")
            rows += [[f"{group} / {k}", v] for k, v in record.items()]
    return rows


REPO = Path(__file__).resolve().parents[1]
SPACES = sorted(p.name for p in (REPO / "spaces").iterdir() if (p / "app.py").is_file())
SCREENSHOTS = REPO / "docs" / "spaces"


def app_module(name: str):
    spec = importlib.util.spec_from_file_location(
        f"space_{name}", REPO / "spaces" / name / "app.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def default_controls(spec) -> list:
    with gr.Blocks():
        return [c.value for c in spec.controls()]


def expected_scores(spec) -> list[list[str]]:
    """The example files scored by the metric itself, with the Space's default options."""
    files = {side: paths for side, paths in spec.example_files.items()}
    pick = (lambda ps: str(Path(ps[0]).parent)) if spec.folders else (lambda ps: str(ps[0]))
    inputs = taskeval.read_official(
        spec.metric, references=pick(files["references"]), predictions=pick(files["predictions"])
    )
    config, options = spec.read_controls(*default_controls(spec))
    return scores_table(taskeval.load(spec.metric, config).compute(**inputs, **options))


def test_every_metric_has_a_space():
    assert SPACES == taskeval.list_metrics()


@pytest.mark.parametrize("name", SPACES)
def test_space_folder_is_deployable(name):
    folder = REPO / "spaces" / name
    text = (folder / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    header = yaml.safe_load(text.split("---\n")[1])
    assert header["sdk"] == "gradio"
    assert header["sdk_version"] == gr.__version__
    assert header["app_file"] == "app.py"
    assert {"evaluate", "metric"} <= set(header["tags"])
    requirements = (folder / "requirements.txt").read_text(encoding="utf-8").split()
    assert f"gradio=={gr.__version__}" in requirements
    assert any(r.startswith("taskeval") for r in requirements)


@pytest.mark.parametrize("name", SPACES)
def test_compute_button_in_process(name):
    spec = app_module(name).SPEC
    build(spec)
    controls = default_controls(spec)
    error, scores, groups, breakdown, *plot = compute(
        spec, "files", "", "", *_example_uploads(spec), *controls
    )
    assert error["visible"] is False
    assert shown_scores(scores, groups["value"]) == expected_scores(spec)
    assert len(breakdown) > 0
    if spec.plot:
        assert plot[0] is not None and getattr(plot[0], "empty", False) is False
    # JSON rows give the metric's own numbers too.
    rows = spec.example_rows
    _, scores, groups, *_ = compute(
        spec, "json", _json(rows["predictions"]), _json(rows["references"]), None, None, *controls
    )
    config, options = spec.read_controls(*controls)
    assert shown_scores(scores, groups["value"]) == scores_table(
        taskeval.load(spec.metric, config).compute(**rows, **options)
    )


@pytest.mark.parametrize("name", SPACES)
def test_bad_input_is_shown_not_raised(name):
    spec = app_module(name).SPEC
    controls = default_controls(spec)
    for predictions, fragment in (("[{", "not valid JSON"), ('[{"nonsense": 1}]', "predictions")):
        error, *_ = compute(
            spec, "json", predictions, _json(spec.example_rows["references"]), None, None, *controls
        )
        assert error["visible"] is True and fragment in error["value"]
        assert "Traceback" not in error["value"]
    error, *_ = compute(spec, "files", "", "", None, None, *controls)
    assert error["visible"] is True and "no file was uploaded" in error["value"]


def _json(rows) -> str:
    import json

    return json.dumps(rows)


def _example_uploads(spec) -> tuple:
    files = spec.example_files
    if spec.folders:
        return [str(p) for p in files["predictions"]], [str(p) for p in files["references"]]
    return str(files["predictions"][0]), str(files["references"][0])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("name", SPACES)
def test_gradio_client_against_a_served_space(name):
    from gradio_client import Client, handle_file

    spec = app_module(name).SPEC
    demo = build(spec)
    port = free_port()
    folders = sorted({str(Path(p).parent) for ps in spec.example_files.values() for p in ps})
    demo.launch(
        server_name="127.0.0.1",
        server_port=port,
        prevent_thread_lock=True,
        allowed_paths=folders,
        quiet=True,
        show_error=True,
    )
    try:
        client = Client(f"http://127.0.0.1:{port}/", verbose=False)
        preds, refs = _example_uploads(spec)
        wrap = (lambda v: [handle_file(p) for p in v]) if spec.folders else handle_file
        error, scores, groups, *_ = client.predict(
            "files", "", "", wrap(preds), wrap(refs), *default_controls(spec), api_name="/compute"
        )
        assert error is None or not error or "Error" not in str(error)
        shown = [list(map(str, r)) for r in scores["data"]]
        groups = (groups or {}).get("value") or {}  # an update: visible, and the table
        if groups.get("data"):
            for row in groups["data"]:
                shown += [
                    [f"{row[0]} / {k}", str(v)] for k, v in zip(groups["headers"][1:], row[1:])
                ]
        assert shown == expected_scores(spec)
    finally:
        demo.close()


def _chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (scripts/test.sh installs Debian's package)")
        pytest.skip("chromium is not installed")
    return path


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = _chromium()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=executable,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


def _serve(name: str):
    port = free_port()
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False"}
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "spaces" / name / "app.py")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the Space exited: {proc.stderr.read()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"http://127.0.0.1:{port}/"
        time.sleep(0.3)
    proc.kill()
    raise AssertionError("the Space did not start within 120 s")


@pytest.mark.slow
@pytest.mark.parametrize("name", SPACES)
def test_space_in_a_real_browser(name, browser):
    spec = app_module(name).SPEC
    expected = expected_scores(spec)
    proc, url = _serve(name)
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 1800})
        page.goto(url)
        page.locator("#compute").click()
        for key, value in expected:  # every exact value appears in its table
            table = page.locator("#groups" if key.count(" / ") >= 2 else "#scores")
            table.get_by_text(value, exact=True).last.wait_for(timeout=60_000)
        page.wait_for_timeout(1000)  # let the plot draw before the picture is taken
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
        page.get_by_role("tab", name="JSON rows").click()
        editor = page.locator("#predictions-json .cm-content")
        editor.click()
        page.keyboard.press("Control+A")
        page.keyboard.type("[{")
        page.locator("#compute").click()
        page.locator("#error").get_by_text("not valid JSON").wait_for(timeout=30_000)
        assert "Traceback" not in page.locator("#error").inner_text()
        page.close()
    finally:
        proc.kill()
        proc.wait()
