"""The "Check a submission" panel every Space shows: ``taskeval check`` in the page.

The user uploads a submission, optionally the task's unlabelled test inputs (as the metric's
contract describes them: ``CONTRACT.check.inputs``) and the gold, and sees the report: its
summary line, every problem at its file, line, id and field as plain text, and the report as JSON.
A check is a request like Compute: its uploads are held to the limits the page states and read
in the Space's worker processes, with the same time and memory budgets (``space_check_worker``),
and removed as Compute's are (``space._Uploads``).
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

import gradio as gr

from .registry import contract
from .space import (
    _LIMITS,
    SpaceSpec,
    _paths,
    _staged_task,
    _uploads,
    _values,
    file_box,
    still_uploaded,
)
from .space_check_worker import SHOWN, run_check
from .space_pool import pool
from .space_worker import user_message

NO_PROBLEMS = "No problems found."


def panel(spec: SpaceSpec) -> None:
    """The panel, inside the page ``space.build`` is building (nothing for a metric whose
    contract declares no check). Its uploads start as the Space's example files."""
    declared = contract(spec.metric).check
    if declared is None:
        return
    with gr.Accordion("Check a submission", open=False, elem_id="check"):
        gr.Markdown(
            "Every problem of a submission before it is scored, as `taskeval check "
            f"{spec.metric}` finds it: **errors** (the official scorer would fail on it or score "
            "it other than meant) and **warnings** (legal, but likely a mistake), each at its "
            f"file, line, id and field. **test inputs** (optional): {declared.inputs}. "
            "**gold** (optional): the references, held to the same ids."
        )
        with gr.Row(elem_id="check-files"):
            predictions = file_box(
                spec, "predictions (the submission)", "predictions", "check-predictions"
            )
            inputs = file_box(spec, "test inputs (optional)", None, "check-inputs")
            references = file_box(spec, "gold (optional)", "references", "check-references")
        button = gr.Button("Check", elem_id="check-button")
        # Plain text, as written: no Markdown eats an id's underscores or a page's brackets.
        error = gr.Textbox(
            label="Error",
            visible=False,
            interactive=False,
            lines=1,
            max_lines=12,
            elem_id="check-error",
        )
        summary = gr.Textbox(
            label="summary", visible=False, interactive=False, max_lines=4, elem_id="check-summary"
        )
        problems = gr.Textbox(
            label=f"problems (the first {SHOWN})",
            visible=False,
            interactive=False,
            lines=2,
            max_lines=20,
            elem_id="check-problems",
        )
        with gr.Accordion("report as JSON", open=False, visible=False) as report_box:
            report = gr.JSON(elem_id="check-report")
    button.click(
        _uploads.held(functools.partial(check_submission, spec), [predictions, inputs, references]),
        [predictions, inputs, references],
        [error, summary, problems, report_box, report],
        api_name="check",
    )
    _uploads.keep([v["path"] for c in (predictions, references) for v in _values(c)])


def check_submission(
    spec: SpaceSpec, predictions: Any, inputs: Any, references: Any
) -> tuple[Any, ...]:
    """The Check button: (error box, summary, problems, the JSON report's box, the report).

    The uploads stay until their sessions end, or ``Limits.upload_ttl`` seconds unused."""
    files = (predictions, inputs, references)
    try:
        with _uploads.using(files):
            reply = _run(spec, predictions, inputs, references)
    except Exception as e:  # shown in the page: the Space explaining the request
        uploads = [p for f in files for p in _paths(f)]
        reply = {"error": user_message(e, uploads, limit=_LIMITS.message_chars)}
    if "error" in reply:
        hidden = gr.update(visible=False)
        return (gr.update(value=reply["error"], visible=True), hidden, hidden, hidden, None)
    return (
        gr.update(value="", visible=False),
        gr.update(value=reply["summary"], visible=True),
        gr.update(value=reply["problems"] or NO_PROBLEMS, visible=True),
        gr.update(visible=True),
        reply["report"],
    )


def _run(spec: SpaceSpec, predictions: Any, inputs: Any, references: Any) -> dict:
    """The check, in a worker process; uploads of a folder side linked into a temporary folder
    for as long as it runs (as for Compute)."""
    still_uploaded([p for files in (predictions, inputs, references) for p in _paths(files)])
    # The gold is optional here, whatever scoring needs.
    checking = dataclasses.replace(spec, references_optional=True)
    paths = _paths(inputs)
    task = {
        "kind": "check",
        "metric": spec.metric,
        "inputs": paths,
        "names": {p: Path(p).name for p in paths},
        "folders": {},
    }
    with _staged_task(checking, task, predictions, references) as task:
        if _LIMITS.workers <= 0:  # no worker processes: checked here (for debugging)
            return run_check(task, _LIMITS)
        return pool(spec.metric).run(task)
