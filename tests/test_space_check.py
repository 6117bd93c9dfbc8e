"""Every Space's "Check a submission" panel, driven through the function its button calls: each
problem of a crafted submission named at its file, line, id and field as the user named the
files, the Space's example ready to score, the page's limits holding, the uploads removed, and the
check run in the Space's worker processes."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

gr = pytest.importorskip("gradio")
from test_spaces import SPACES, app_module  # noqa: E402

from taskeval import space  # noqa: E402
from taskeval.export import export  # noqa: E402
from taskeval.space_check import NO_PROBLEMS, check_submission  # noqa: E402
from taskeval.space_pool import pool  # noqa: E402

from entries.tydiqa import tydi_example, tydi_prediction  # noqa: E402
from harness import entries  # noqa: E402

MIB = 1 << 20


@pytest.fixture
def uploads(tmp_path, monkeypatch):
    """gradio's upload folder for this test: ``upload(name, text)`` puts a file there as gradio
    does (a folder named by its content's hash), returning its path."""
    folder = tmp_path / "uploads"
    folder.mkdir()
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(folder))

    def upload(name: str, data: str | bytes | list | dict) -> str:
        if isinstance(data, list):  # JSON lines
            data = "".join(json.dumps(row) + "\n" for row in data)
        elif isinstance(data, dict):  # one JSON value
            data = json.dumps(data)
        if isinstance(data, str):
            data = data.encode("utf-8")
        target = folder / hashlib.sha256(name.encode() + data).hexdigest() / name
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(data)
        return str(target)

    upload.folder = folder
    return upload


@pytest.fixture
def in_process(monkeypatch):
    """Checks run in the test's process (the worker pool is tested on its own)."""
    monkeypatch.setattr(space._LIMITS, "workers", 0)


def left(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


def swept(folder: Path) -> list[Path]:
    """What is left of the uploads once past their time unused: nothing (no request holds an
    upload once answered)."""
    space._uploads.sweep(-1)
    return left(folder)


def shown(outputs: tuple) -> tuple[str, str, dict]:
    """The panel's answer: summary, problems, report; asserts no error was shown."""
    error, summary, problems, report_box, report = outputs
    assert error["visible"] is False, error
    assert summary["visible"] and problems["visible"] and report_box["visible"]
    return summary["value"], problems["value"], report


def refused(outputs: tuple) -> str:
    error, summary, problems, report_box, report = outputs
    assert error["visible"] is True
    assert not (summary["visible"] or problems["visible"] or report_box["visible"])
    assert report is None
    return error["value"]


# Each metric's crafted submission and the lines its panel must show are in its test entry
# (``MetricEntry.space_check``).
ENTRIES = {entry.name: entry for entry in entries()}
_fever = ENTRIES["fever_score"].space_check.craft  # the panel's shared behaviour, on FEVER


@pytest.mark.parametrize("name", SPACES)
def test_each_problem_at_its_place_as_the_user_named_the_files(name, uploads, in_process):
    spec = app_module(name).SPEC
    case = ENTRIES[name].space_check
    expected_summary, expected_lines = case.summary, case.lines
    predictions, inputs, references = case.craft(uploads)
    summary, problems, report = shown(check_submission(spec, predictions, inputs, references))
    assert summary == expected_summary
    assert problems.split("\n") == expected_lines
    # The report as JSON: the same problems, the files as uploaded (no server path).
    assert report["ok"] is False and report["errors"] == len(expected_lines)
    assert [
        f"{p['file']}:{p['line']}: " if p["line"] else f"{p['file']}: " for p in report["problems"]
    ] == [line.split("error: ")[0] for line in expected_lines]
    assert report["inputs"] == [Path(p).name for p in inputs]
    if case.ids is not None:
        assert [p["id"] for p in report["problems"]] == case.ids
    assert str(uploads.folder) not in json.dumps(report) + summary + problems
    assert "taskeval-" not in json.dumps(report) + summary + problems
    # Checked, the uploads are gone.
    assert swept(uploads.folder) == []


@pytest.mark.parametrize("name", SPACES)
def test_the_example_is_ready_to_score(name, in_process):
    """The files the panel starts with (the Space's example): no error. Their gold is left out
    where the entry says the example leaves items unanswered on purpose (TyDi QA's two)."""
    spec = app_module(name).SPEC
    files = {
        side: [str(p) for p in paths] if spec.folders else str(paths[0])
        for side, paths in spec.example_files.items()
    }
    case = ENTRIES[name].space_check
    references = files["references"] if case.example_gold else None
    summary, problems, report = shown(
        check_submission(spec, files["predictions"], None, references)
    )
    assert summary.endswith(": ready to score") and " 0 errors, " in summary, summary
    assert report["ok"] is True and report["errors"] == 0
    warnings = case.example_warnings  # what the example holds on purpose
    assert report["warnings"] == warnings and len(report["problems"]) == warnings
    if not warnings:
        assert problems == NO_PROBLEMS
    # The example files are the Space's own: never removed.
    for paths in spec.example_files.values():
        assert all(Path(p).is_file() for p in paths)


def test_the_pages_limits_hold(uploads, in_process, monkeypatch):
    spec = app_module("tydiqa").SPEC
    rows = [tydi_prediction(i) for i in range(1, 5)]
    big = uploads("big.jsonl", "x" * (MIB + MIB // 2))
    monkeypatch.setattr(space._LIMITS, "upload_bytes", MIB)
    message = refused(check_submission(spec, big, None, None))
    assert message == (
        "big.jsonl: 1,572,864 bytes, more than the 1 MiB this Space takes "
        "(TASKEVAL_SPACE_MAX_UPLOAD_MB)"
    )
    monkeypatch.setattr(space._LIMITS, "rows", 3)
    message = refused(check_submission(spec, uploads("my_run.jsonl", rows), None, None))
    assert message == (
        "my_run.jsonl: more than 3 lines, the most this Space reads (TASKEVAL_SPACE_MAX_ROWS)"
    )
    # A test file that inflates beyond the limit (a few KiB of gzip, 2 MiB of data).
    monkeypatch.setattr(space._LIMITS, "rows", 1000)
    monkeypatch.setattr(space._LIMITS, "inflated_bytes", MIB)
    test = json.dumps(tydi_example(1)) + " " * (2 * MIB) + "\n"
    bomb = uploads("tydiqa-test.jsonl.gz", gzip.compress(test.encode(), mtime=0))
    assert os.path.getsize(bomb) < 10_000
    message = refused(check_submission(spec, uploads("my_run.jsonl", rows), [bomb], None))
    assert message == (
        "tydiqa-test.jsonl.gz: more than 1 MiB once decompressed, the most this Space inflates "
        "(TASKEVAL_SPACE_MAX_INFLATED_MB)"
    )
    # A request refused before the check: named as uploaded, removed all the same.
    bomb = uploads("tydiqa-test.jsonl.gz", gzip.compress(test.encode(), mtime=0))
    message = refused(check_submission(spec, None, [bomb], None))
    assert message == "predictions: no file was uploaded"
    assert swept(uploads.folder) == []
    # Checked again, a removed upload: said so.
    message = refused(check_submission(spec, big, None, None))
    assert message == (
        "big.jsonl: no longer on the server (uploads are removed 900 s after their last use): "
        "upload it again"
    )


def test_long_messages_are_cut(uploads, in_process, monkeypatch):
    spec = app_module("fever_score").SPEC
    page = "Page_" + "x" * 5000
    row = {"id": 1, "predicted_label": "SUPPORTS", "predicted_evidence": [[page, "zero"]]}
    monkeypatch.setattr(space._LIMITS, "message_chars", 300)
    _, problems, report = shown(check_submission(spec, uploads("p.jsonl", [row]), None, None))
    (line,) = problems.split("\n")
    assert line.startswith("p.jsonl:1: error: id 1, field 'predicted_evidence'[0]: must be a")
    shown_part, cut = line.rsplit("… (", 1)
    assert len(shown_part) == 300 and cut.endswith(" more characters)")
    assert report["problems"][0]["message"].endswith(" more characters)")


def test_the_check_runs_in_the_spaces_worker_processes(uploads, monkeypatch):
    """With the Space's worker processes (its default), under their time budget."""
    spec = app_module("fever_score").SPEC
    predictions, inputs, references = _fever(uploads)
    summary, *_ = shown(check_submission(spec, predictions, inputs, references))
    assert summary == ENTRIES["fever_score"].space_check.summary
    assert swept(uploads.folder) == []
    workers = pool("fever_score")
    monkeypatch.setattr(workers.limits, "timeout", 0.5)
    # Every worker paused: none can reply, however the machine schedules this process (the
    # pool replaces the one that timed out; the others go on).
    paused = [w.process.pid for w in list(workers._all)]
    for pid in paused:
        os.kill(pid, signal.SIGSTOP)
    try:
        predictions, inputs, references = _fever(uploads)
        message = refused(check_submission(spec, predictions, inputs, references))
    finally:
        for pid in paused:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
    assert message == (
        "the computation took longer than 0.5 s, the most this Space gives one request "
        "(TASKEVAL_SPACE_TIMEOUT)"
    )
    assert swept(uploads.folder) == []


# The exported Space, with taskeval out of reach: its panel checks the example with what the
# export bundled (in-process: the worker processes run the same modules).
EXPORTED = """
import json, runpy, sys
sys.modules["taskeval"] = None  # what the Space imports must be in the export
sys.path.insert(0, ".")
app = runpy.run_path("app.py")
from spacekit.space_check import check_submission
out = check_submission(app["SPEC"], sys.argv[1], None, sys.argv[2])
print(json.dumps([out[0]["visible"], out[1]["value"], out[4]]))
"""


def test_an_exported_space_checks_with_what_it_bundles(tmp_path):
    folder = tmp_path / "space"
    export("fever_score", folder)
    examples = folder / "examples"
    run = subprocess.run(
        [sys.executable, "-c", EXPORTED, str(examples / "predictions.jsonl"),
         str(examples / "actual.jsonl")],
        cwd=folder,
        env={**os.environ, "TASKEVAL_SPACE_WORKERS": "0", "GRADIO_ANALYTICS_ENABLED": "False"},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    error_shown, summary, report = json.loads(run.stdout.splitlines()[-1])
    assert not error_shown
    assert summary == (
        "fever_score predictions.jsonl: 0 errors, 0 warnings in 100 predictions: ready to score"
    )
    assert report["references"] == "actual.jsonl" and report["ok"] is True


def test_compute_pressed_again_after_its_uploads_were_removed(uploads, in_process):
    """The page keeps showing an upload the server removed after its time unused; a
    second Compute names it and asks for it again (planted: the existence check left out, which
    showed the reader's 'no such file' with the server's path cleaned away)."""
    from test_spaces import default_controls

    spec = app_module("fever_score").SPEC
    controls = default_controls(spec)
    example = spec.example_files["predictions"][0]
    mine = uploads("mine.jsonl", Path(example).read_text(encoding="utf-8"))
    references = str(spec.example_files["references"][0])
    values = ("", "", mine, references, *controls)
    error, *_ = space.compute(spec, "files", *values)
    assert error["visible"] is False
    space.add_intervals(spec, "files", *values, False, None)
    space._uploads.sweep(-1)  # unused for longer than their time: removed
    assert left(uploads.folder) == []
    error, *_ = space.compute(spec, "files", *values)
    assert error["value"] == (
        "mine.jsonl: no longer on the server (uploads are removed 900 s after their last use): "
        "upload it again"
    )
    assert Path(references).exists()  # the example files are never removed


def test_the_page_line_limit_and_whole_file_mistakes(uploads, in_process, monkeypatch):
    """A line beyond the limit the page states is refused at its line, in the readers' words;
    a file that is not JSON Lines as a whole is named once."""
    spec = app_module("fever_score").SPEC
    row = {"id": 1, "predicted_label": "REFUTES", "predicted_evidence": []}
    long_row = {**row, "id": 2, "predicted_label": "x" * 2000}
    monkeypatch.setattr(space._LIMITS, "line_bytes", 1000)
    _, problems, _ = shown(check_submission(spec, uploads("p.jsonl", [row, long_row]), None, None))
    assert problems.split("\n") == [
        "p.jsonl:2: error: longer than 1,000 bytes (the limit, TASKEVAL_MAX_LINE_BYTES): is this "
        "a JSON Lines file?"
    ]
    text = json.dumps(row) + "\n"
    _, problems, _ = shown(
        check_submission(spec, uploads("u.jsonl", text.encode("utf-16")), None, None)
    )
    assert problems == (
        "u.jsonl:1: error: the file is UTF-16 text, not UTF-8: save it as UTF-8 (the official "
        "scorer reads UTF-8)"
    )
