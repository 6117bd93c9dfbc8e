"""Every Space: its folder deploys as a Hub Space, it computes what compute() computes, it shows
bad input as a message (never a traceback), in-process, through gradio_client and in Chromium."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml

import taskeval

from browser import chromium

gr = pytest.importorskip("gradio")
from taskeval.space import build, compute, scores_table  # noqa: E402


def shown_scores(scores, groups) -> list[list[str]]:
    """The two score tables of the page, flattened back as ``scores_table`` flattens results."""
    rows = [[str(k), str(v)] for k, v in scores[["score", "value"]].values.tolist()]
    if groups is not None and not isinstance(groups, dict):
        rows += [[f"{g} / {k}", str(v)] for g, k, v in groups.values.tolist()]
    return rows


REPO = Path(__file__).resolve().parents[1]
SPACES = sorted(p.name for p in (REPO / "spaces").iterdir() if (p / "app.py").is_file())
# The browser tests' pictures of each page. They go to the (ignored) build folder, so a test
# run changes no tracked file; TASKEVAL_SCREENSHOTS=spaces refreshes each Space's own pictures
# (spaces/<name>/screenshot.png, which the README shows).
_SCREENSHOTS = os.environ.get("TASKEVAL_SCREENSHOTS", "build/screenshots")


def screenshot_path(name: str, suffix: str = "") -> Path:
    """Where the picture of Space ``name`` goes (``suffix``: ``-400px`` for the phone's)."""
    if _SCREENSHOTS == "spaces":
        return REPO / "spaces" / name / f"screenshot{suffix}.png"
    folder = REPO / _SCREENSHOTS
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}{suffix}.png"


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


def test_spaces_pin_the_gradio_they_are_tested_with():
    """Every exported Space installs spaces/requirements.txt; the cards name the same gradio."""
    requirements = (REPO / "spaces" / "requirements.txt").read_text(encoding="utf-8").split()
    assert f"gradio=={gr.__version__}" in requirements
    for name in SPACES:
        text = (taskeval.metric_dir(name) / "README.md").read_text(encoding="utf-8")
        header = yaml.safe_load(text.split("---\n")[1])
        assert header["sdk_version"] == gr.__version__


@pytest.mark.parametrize("name", SPACES)
def test_compute_button_in_process(name):
    spec = app_module(name).SPEC
    build(spec)
    controls = default_controls(spec)
    error, placeholder, scores, groups, breakdown, *plot = compute(
        spec, "files", "", "", *_example_uploads(spec), *controls
    )
    assert error["visible"] is False and placeholder["visible"] is False
    assert shown_scores(scores["value"], groups["value"]) == expected_scores(spec)
    assert len(breakdown["value"]) > 0 and breakdown["visible"]
    if spec.plot:
        assert plot[0]["visible"] and plot[0]["value"].axes
    # JSON rows give the metric's own numbers too.
    rows = spec.example_rows
    _, _, scores, groups, *_ = compute(
        spec, "json", _json(rows["predictions"]), _json(rows["references"]), None, None, *controls
    )
    config, options = spec.read_controls(*controls)
    assert shown_scores(scores["value"], groups["value"]) == scores_table(
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
        error, _, scores, groups, *_ = client.predict(
            "files", "", "", wrap(preds), wrap(refs), *default_controls(spec), api_name="/compute"
        )
        assert not error.get("visible"), error
        shown = [list(map(str, r)) for r in scores["value"]["data"]]
        groups = (groups or {}).get("value") or {}  # an update: visible, and the table
        shown += [[f"{g} / {k}", str(v)] for g, k, v in groups.get("data") or []]
        assert shown == expected_scores(spec)
    finally:
        demo.close()


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = chromium()
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
    # Its messages go to a file: a pipe nobody reads would stop a long-lived server once full.
    log = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "spaces" / name / "app.py")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            raise AssertionError(f"the Space exited: {log.read()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"http://127.0.0.1:{port}/"
        time.sleep(0.3)
    proc.kill()
    raise AssertionError("the Space did not start within 120 s")


@pytest.mark.slow
@pytest.mark.parametrize("name", SPACES)
def test_space_in_a_real_browser(name, browser, served):
    spec = app_module(name).SPEC
    expected = expected_scores(spec)
    url = served(name)
    page = browser.new_page(viewport={"width": 1280, "height": 1800})
    page.goto(url)
    # Before the first Compute: only the note, no empty table or plot.
    page.locator("#placeholder").wait_for(state="visible", timeout=60_000)
    for empty in ("#scores", "#breakdown", "#plot"):
        assert not page.locator(empty).is_visible()
    page.locator("#compute").click()
    for key, value in expected:  # every exact value appears in its table
        if key.count(" / ") < 2:
            page.locator("#scores").get_by_text(value, exact=True).last.wait_for(timeout=60_000)
    # The per-group table draws the rows in sight only: scrolled through, it shows them all.
    groups = [[key, value] for key, value in expected if key.count(" / ") >= 2]
    if groups:
        page.locator("#groups [role=gridcell]").first.wait_for(timeout=60_000)
        assert sorted(_scrolled_rows(page, "#groups")) == sorted(groups)
    page.locator("#plot img").wait_for(state="visible", timeout=30_000)
    assert not page.locator("#placeholder").is_visible()
    # No component label over the figure (it covered TyDi QA's left title).
    label = page.locator("#plot [data-testid='block-label']")
    assert label.count() == 0 or not label.first.is_visible(), label.first.evaluate(
        "e => e.outerHTML"
    )
    # Every breakdown column fits the page: long texts wrap instead of being cut off (a
    # table whose columns, as wide as their longest word, do not fit scrolls in its box).
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280
    viewport = page.locator("#breakdown .virtual-table-viewport")
    if not viewport.evaluate("e => e.scrollWidth > e.clientWidth + 1"):
        right = page.locator("#breakdown").bounding_box()
        for header in page.locator("#breakdown th").all():
            box = header.bounding_box()
            assert box["x"] + box["width"] <= right["x"] + right["width"] + 1, header.inner_text()
    page.wait_for_timeout(1000)  # let the plot draw before the picture is taken
    page.screenshot(path=str(screenshot_path(name)), full_page=True)
    page.get_by_role("tab", name="JSON rows").click()
    editor = page.locator("#predictions-json .cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("[{")
    page.locator("#compute").click()
    # The error box is plain text (a read-only text area): the message as written.
    page.wait_for_function(
        "() => document.querySelector('#error textarea')?.value.includes('not valid JSON')",
        timeout=30_000,
    )
    assert "Traceback" not in page.locator("#error textarea").input_value()
    page.close()


def _scrolled_rows(page, table: str) -> list[list[str]]:
    """The rows of a gradio table, scrolled through from top to bottom (rows out of sight are
    not drawn), as ``group / score`` and value."""
    viewport = page.locator(f"{table} .virtual-table-viewport")
    rows, top = {}, 0
    while True:
        viewport.evaluate("(e, top) => { e.scrollTop = top; }", top)
        page.wait_for_timeout(150)
        for row in page.locator(f"{table} [role=row][data-index]").all():
            cells = [c.strip() for c in row.locator("[role=gridcell]").all_text_contents()]
            if len(cells) == 3 and all(cells):
                rows[row.get_attribute("data-index")] = [f"{cells[0]} / {cells[1]}", cells[2]]
        height, shown = viewport.evaluate("e => [e.scrollHeight, e.clientHeight]")
        if top + shown >= height:
            return list(rows.values())
        top += shown // 2


# ---------------------------------------------------------------------------------------------
# Defects a user saw in the page, each checked where the user saw it.


def test_one_pasted_json_object_is_one_row():
    spec = app_module("fever_score").SPEC
    rows = spec.example_rows
    controls = default_controls(spec)
    error, _, scores, *_ = compute(
        spec,
        "json",
        _json(rows["predictions"][0]),
        _json(rows["references"][0]),
        None,
        None,
        *controls,
    )
    assert error["visible"] is False
    expected = taskeval.load("fever_score").compute(
        predictions=rows["predictions"][:1], references=rows["references"][:1]
    )
    assert shown_scores(scores["value"], None) == scores_table(expected)


def test_fever_json_example_has_the_claim_ids():
    rows = app_module("fever_score").SPEC.example_rows
    ids = [r["id"] for r in rows["references"]]
    assert ids == [p["id"] for p in rows["predictions"]] and len(set(ids)) == len(ids)


def _gradio_upload(tmp_path: Path, name: str, text: str) -> str:
    """A file where gradio keeps uploads: a cache folder and a content hash."""
    folder = tmp_path / "gradio" / ("3f" * 32)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return str(folder / name)


def test_errors_name_the_uploaded_file_never_a_server_path(tmp_path):
    spec = app_module("fever_score").SPEC
    controls = default_controls(spec)
    good = str(spec.example_files["references"][0])
    bad = _gradio_upload(tmp_path, "mine.jsonl", '{"predicted_label": "SUPPORTS"}\n{"x": \n')
    error, *_ = compute(spec, "files", "", "", bad, good, *controls)
    message = error["value"]
    assert "mine.jsonl, line 2" in message
    assert str(tmp_path) not in message and "gradio" not in message
    assert len(re.findall(r"line \d+", message)) == 1  # no parser position besides the line
    # Pasted JSONL: one line number and a column.
    error, *_ = compute(spec, "json", '{"id": 1}\n{"id": 2,', "[]", None, None, *controls)
    assert "predictions, line 2, column" in error["value"]
    assert len(re.findall(r"line \d+", error["value"])) == 1


def _ehealthkd_uploads(tmp_path: Path, scenario: int = 1) -> tuple[list[str], list[str]]:
    spec = app_module("ehealthkd").SPEC
    out = []
    for side in ("predictions", "references"):
        paths = []
        for path in spec.example_files[side]:
            name = path.name.replace("scenario1", f"scenario{scenario}")
            paths.append(_gradio_upload(tmp_path / side, name, path.read_text(encoding="utf-8")))
        out.append(paths)
    return out[0], out[1]


def test_ehealthkd_uploads_leave_no_temporary_folder(tmp_path):
    import tempfile

    spec = app_module("ehealthkd").SPEC
    preds, refs = _ehealthkd_uploads(tmp_path)
    before = sorted(Path(tempfile.gettempdir()).glob("taskeval-*"))
    for _ in range(3):
        error, *_ = compute(spec, "files", "", "", preds, refs, "scenario1", with_interval=True)
        assert error["visible"] is False
        error, *_ = compute(spec, "files", "", "", preds[:1], refs, "scenario1")
        assert error["visible"] is True
        assert "taskeval-" not in error["value"] and str(tmp_path) not in error["value"]
    assert sorted(Path(tempfile.gettempdir()).glob("taskeval-*")) == before


def test_ehealthkd_scenario_comes_from_the_file_names(tmp_path):
    spec = app_module("ehealthkd").SPEC
    preds3, refs3 = _ehealthkd_uploads(tmp_path / "s3", scenario=3)
    error, _, scores, *_ = compute(spec, "files", "", "", preds3, refs3, "scenario1")
    assert error["visible"] is False
    inputs = taskeval.read_official(
        "ehealthkd",
        references=spec.example_files["references"][0].parent,
        predictions=spec.example_files["predictions"][0].parent,
    )
    expected = taskeval.load("ehealthkd", "scenario3").compute(**inputs)
    assert shown_scores(scores["value"], None) == scores_table(expected)


def _bars(figure) -> dict[str, set[str]]:
    """Colour (hex) of each legend entry, and the legend's order."""
    from matplotlib.colors import to_hex

    ax = figure.axes[0]
    legend = ax.get_legend()
    return {
        text.get_text(): to_hex(handle.get_facecolor())
        for text, handle in zip(legend.get_texts(), legend.legend_handles)
    }


def test_plots_keep_colours_order_and_headroom():
    spec = app_module("ehealthkd").SPEC
    rows = spec.example_rows
    colours = {}
    for scenario in ("scenario1", "scenario2", "scenario3", "scenario1"):
        details = taskeval.load("ehealthkd", scenario).compute(**rows, details=True)["details"]
        figure = spec.plot(details, scenario)
        ax = figure.axes[0]
        for label, colour in _bars(figure).items():
            assert colours.setdefault(label, colour) == colour  # same colour in every scenario
        assert [t.get_text() for t in ax.get_xticklabels()][:5] == [
            "correct",
            "incorrect",
            "partial",
            "missing",
            "spurious",
        ]
        assert ax.get_title().startswith(f"Scenario {scenario[-1]}:")
    assert set(colours) == {"A: key phrases", "B: relations"}
    fever = app_module("fever_score").SPEC
    inputs = taskeval.read_official(
        "fever_score",
        references=fever.example_files["references"][0],
        predictions=fever.example_files["predictions"][0],
    )
    details = taskeval.load("fever_score").compute(**inputs, details=True)["details"]
    ax = fever.plot(details, None).axes[0]
    axis = [t.get_text().replace("\n", " ") for t in ax.get_xticklabels()]
    assert axis == ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
    assert list(_bars(ax.figure)) == axis  # the legend in the order of the axis
    tallest = max(
        sum(p.get_height() for p in ax.patches if p.get_x() < i < p.get_x() + 1) for i in range(3)
    )
    assert tallest == 45 and ax.get_ylim()[1] > tallest * 1.1  # room above the tallest bar


def test_tydiqa_legend_is_outside_the_curves():
    spec = app_module("tydiqa").SPEC
    inputs = taskeval.read_official(
        "tydiqa",
        references=spec.example_files["references"][0],
        predictions=spec.example_files["predictions"][0],
    )
    details = taskeval.load("tydiqa").compute(**inputs, details=True)["details"]
    figure = spec.plot(details, None)
    assert all(ax.get_legend() is None for ax in figure.axes)  # no legend over the curves
    (legend,) = figure.legends
    assert len(legend.get_texts()) == 11
    # the legend sits below the panels, the panels' titles below the figure's title
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    legend_top = legend.get_window_extent(renderer).y1
    assert all(legend_top <= ax.get_window_extent(renderer).y0 for ax in figure.axes)


@pytest.fixture(scope="module")
def fever_space():
    """The FEVER Space served in this process, and a gradio_client on it."""
    from gradio_client import Client

    spec = app_module("fever_score").SPEC
    demo = build(spec)
    port = free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield spec, Client(f"http://127.0.0.1:{port}/", verbose=False)
    finally:
        demo.close()


def _compute_fever(client, rows: dict, max_evidence) -> tuple:
    """The FEVER Space's /compute on rows pasted as JSON, with this max_evidence."""
    predictions, references = _json(rows["predictions"]), _json(rows["references"])
    args = ("json", predictions, references, None, None, max_evidence, False)
    return client.predict(*args, api_name="/compute")


def test_fever_max_evidence_refuses_what_compute_refuses(fever_space):
    spec, client = fever_space
    rows = spec.example_rows
    for value, fragment in ((-1, "0 or more, got -1"), (2.7, "must be an int or None, got 2.7")):
        error, _, scores, *_ = _compute_fever(client, rows, value)
        assert error["visible"] and fragment in error["value"], error
        assert not scores["visible"]
    error, _, scores, *_ = _compute_fever(client, rows, 2.0)
    expected = taskeval.load("fever_score").compute(**rows, max_evidence=2)
    assert [list(map(str, r)) for r in scores["value"]["data"]] == scores_table(expected)


def test_twenty_concurrent_requests_each_get_their_own_result(fever_space):
    from concurrent.futures import ThreadPoolExecutor

    from gradio_client import Client

    spec, client = fever_space
    inputs = taskeval.read_official(
        "fever_score",
        references=spec.example_files["references"][0],
        predictions=spec.example_files["predictions"][0],
    )
    requests = [(5 + 4 * i, i % 6) for i in range(20)]  # (claims, max_evidence): all different
    # Five users, four requests each at once: the most the Space takes from one client.
    users = [client, *(Client(client.src, verbose=False) for _ in range(4))]

    def ask(request):
        n, max_evidence = request
        rows = {k: v[:n] for k, v in inputs.items()}
        _, _, scores, *_ = _compute_fever(users[n % 5], rows, max_evidence)
        return [list(map(str, r)) for r in scores["value"]["data"]]

    with ThreadPoolExecutor(20) as pool:
        shown = list(pool.map(ask, requests))
    metric = taskeval.load("fever_score")
    for (n, max_evidence), got in zip(requests, shown):
        rows = {k: v[:n] for k, v in inputs.items()}
        assert got == scores_table(metric.compute(**rows, max_evidence=max_evidence))
    assert len({json.dumps(s) for s in shown}) == 20
