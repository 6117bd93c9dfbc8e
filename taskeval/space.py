"""The Gradio Space every metric shares: inputs, options, Compute, scores, breakdown and a plot.

An optional column gives each headline score its paired-bootstrap 95% interval
(``taskeval.compare``; how to read it: docs/compare.md).

A Space's ``app.py`` describes only what differs (a ``SpaceSpec``: example files and rows,
option controls, how to plot the per-item details) and calls ``launch``. Errors in the input —
the metrics' ``ValueError``s, broken JSON, missing files — are shown in the page, never as a
traceback, and the app keeps working.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd

from .api import load, read_official
from .compare import DEFAULT_RESAMPLES, intervals
from .registry import metric_dir

Controls = Callable[[], list[Any]]


@dataclass
class SpaceSpec:
    """What one metric's Space adds to the shared layout."""

    metric: str
    # The compute() inputs shown, pre-filled, in the "JSON rows" tab.
    example_rows: dict[str, list]
    # Official files (absolute paths) pre-filled in the "Official files" tab, per side.
    example_files: dict[str, list[Path]]
    file_help: str
    # Option widgets; ``read_controls`` maps their values to (config name, compute() options).
    controls: Controls = list
    read_controls: Callable[..., tuple[str | None, dict[str, Any]]] = lambda: (None, {})
    # The per-item details of ``compute(details=True)`` → rows of the breakdown table.
    breakdown: Callable[[Any], pd.DataFrame] = pd.DataFrame
    # The details → the plot's data, and a factory of the plot component.
    plot_data: Callable[[Any], pd.DataFrame] | None = None
    plot: Callable[[], Any] | None = None
    # Official inputs are folders of files (the uploads are put in one folder per side).
    folders: bool = False
    references_optional: bool = False
    extra_notes: str = ""
    allowed_paths: list[str] = field(default_factory=list)


def metric_card(name: str) -> str:
    """The metric's README without its YAML header."""
    text = (metric_dir(name) / "README.md").read_text(encoding="utf-8")
    if text.startswith("---"):
        text = text.split("\n---", 2)[-1].split("\n", 1)[-1]
    return text


def parse_rows(text: str, side: str) -> list:
    """A JSON array, or one JSON value per line (JSONL), as pasted in the page."""
    text = (text or "").strip()
    if not text:
        raise ValueError(f"{side}: nothing was pasted")
    try:
        rows = json.loads(text)
    except json.JSONDecodeError:
        rows = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError(f"{side}, line {number}: not valid JSON ({e})") from None
        return rows
    if not isinstance(rows, list):
        raise ValueError(f"{side}: expected a JSON array of rows (or one JSON object per line)")
    return rows


def _uploaded(files: Any, side: str, folder: bool, optional: bool) -> str | None:
    paths = [files] if isinstance(files, (str, os.PathLike)) else list(files or [])
    if not paths:
        if optional:
            return None
        raise ValueError(f"{side}: no file was uploaded")
    if not folder:
        if len(paths) != 1:
            raise ValueError(f"{side}: upload one file, got {len(paths)}")
        return str(paths[0])
    target = Path(tempfile.mkdtemp(prefix=f"taskeval-{side}-"))
    for path in paths:
        shutil.copyfile(path, target / Path(path).name)
    return str(target)


def scores_table(result: dict[str, Any], prefix: str = "") -> list[list[str]]:
    """Every score with its exact value (repr), nested results flattened as ``a / b``."""
    rows = []
    for key, value in result.items():
        if isinstance(value, dict):
            rows += scores_table(value, f"{prefix}{key} / ")
        else:
            rows.append([prefix + key, repr(value)])
    return rows


def group_table(result: dict[str, Any]) -> pd.DataFrame | None:
    """Nested results (e.g. TyDi QA's ``per_language``) as one row per group, one column per
    score; None when the result is flat. ``scores_table`` flattens the same values."""
    rows, columns = [], ["group"]
    for key, groups in result.items():
        if not isinstance(groups, dict):
            continue
        for name, scores in groups.items():
            columns += [k for k in scores if k not in columns]
            rows.append({"group": f"{key} / {name}", **{k: repr(v) for k, v in scores.items()}})
    return pd.DataFrame(rows, columns=columns) if rows else None


INTERVAL_LABEL = f"bootstrap 95% interval ({DEFAULT_RESAMPLES:,} resamples)"
INTERVAL_COLUMN = "95% interval"


def with_intervals(
    rows: list[list[str]], bounds: dict[str, tuple[float, float]]
) -> list[list[str]]:
    """The scores table with a third column: the interval of each headline score ("" if none)."""
    return [
        [key, value, f"[{bounds[key][0]:.4f}, {bounds[key][1]:.4f}]" if key in bounds else ""]
        for key, value in rows
    ]


@functools.cache
def _metric(name: str, config: str | None):
    return load(name, config)


def _inputs(spec: SpaceSpec, source: str, pred_text, ref_text, pred_files, ref_files) -> dict:
    if source == "json":
        return {
            "predictions": parse_rows(pred_text, "predictions"),
            "references": parse_rows(ref_text, "references"),
        }
    references = _uploaded(ref_files, "references", spec.folders, spec.references_optional)
    predictions = _uploaded(pred_files, "predictions", spec.folders, False)
    return read_official(spec.metric, references=references, predictions=predictions)


def _bounds(spec: SpaceSpec, inputs: dict, config: str | None, options: dict) -> dict:
    # One process: a Space serves requests from threads, which forking does not mix with.
    return intervals(spec.metric, inputs, config_name=config, workers=1, **options)


def compute(
    spec: SpaceSpec, source: str, *values: Any, with_interval: bool = False
) -> tuple[Any, ...]:
    """The Compute button: (error box, scores, per-group scores, breakdown, plot data).

    ``with_interval`` adds the paired-bootstrap 95% interval of each headline score (the page
    adds it in a second step, ``add_intervals``, so that the scores show at once).
    """
    pred_text, ref_text, pred_files, ref_files, *control_values = values
    try:
        inputs = _inputs(spec, source, pred_text, ref_text, pred_files, ref_files)
        config, options = spec.read_controls(*control_values)
        result = _metric(spec.metric, config).compute(**inputs, **options, details=True)
        bounds = _bounds(spec, inputs, config, options) if with_interval else None
    except Exception as e:  # shown in the page; a ValueError is the metric explaining bad input
        message = str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}"
        return (
            gr.update(value=f"**Error:** {message}", visible=True),
            gr.update(value=None),
            gr.update(value=None, visible=False),
            gr.update(value=None),
            *([gr.update(value=None)] if spec.plot else []),
        )
    details = result.pop("details")
    plot = [spec.plot_data(details)] if spec.plot else []
    flat = {k: v for k, v in result.items() if not isinstance(v, dict)}
    rows, columns = scores_table(flat), ["score", "value"]
    if bounds is not None:
        rows, columns = with_intervals(rows, bounds), [*columns, INTERVAL_COLUMN]
    groups = group_table(result)
    return (
        gr.update(value="", visible=False),
        pd.DataFrame(rows, columns=columns),
        gr.update(value=groups, visible=groups is not None),
        spec.breakdown(details),
        *plot,
    )


def add_intervals(spec: SpaceSpec, source: str, *values: Any) -> Any:
    """After Compute: the scores table with the interval column, if the box is ticked.

    ``values`` are Compute's inputs, then the checkbox and the scores table Compute produced.
    Nothing changes when the box is clear or Compute failed (its error is already shown).
    """
    *values, with_interval, table = values
    if not with_interval or table is None or len(table) == 0:
        return gr.update()
    pred_text, ref_text, pred_files, ref_files, *control_values = values
    try:
        inputs = _inputs(spec, source, pred_text, ref_text, pred_files, ref_files)
        config, options = spec.read_controls(*control_values)
        bounds = _bounds(spec, inputs, config, options)
    except Exception:  # Compute has shown the message
        return gr.update()
    rows = [[str(k), str(v)] for k, v in table[["score", "value"]].values.tolist()]
    return pd.DataFrame(with_intervals(rows, bounds), columns=["score", "value", INTERVAL_COLUMN])


def build(spec: SpaceSpec) -> gr.Blocks:
    card = metric_card(spec.metric)
    title = f"taskeval · {spec.metric}"
    with gr.Blocks(title=title) as demo:
        gr.Markdown(
            f"# {title}\n{_metric(spec.metric, None).info.description}\n\n"
            "Score the example as it is with **Compute**, or upload your own official files, or "
            "paste JSON rows (the metric's `compute()` inputs). The per-item breakdown says how "
            "each item was counted."
        )
        # Which tab the inputs come from: a hidden input (not a State) so the API takes it too.
        source = gr.Radio(["files", "json"], value="files", visible=False, label="source")
        with gr.Tabs():
            with gr.Tab("Official files", id="files") as files_tab:
                gr.Markdown(spec.file_help)
                count = "multiple" if spec.folders else "single"
                with gr.Row():
                    ref_files = gr.File(
                        label="references (gold)",
                        file_count=count,
                        value=_file_value(spec.example_files["references"], spec.folders),
                        elem_id="references-files",
                    )
                    pred_files = gr.File(
                        label="predictions",
                        file_count=count,
                        value=_file_value(spec.example_files["predictions"], spec.folders),
                        elem_id="predictions-files",
                    )
            with gr.Tab("JSON rows", id="json") as json_tab:
                with gr.Row():
                    ref_text = gr.Code(
                        _pretty(spec.example_rows["references"]),
                        language="json",
                        label="references",
                        elem_id="references-json",
                    )
                    pred_text = gr.Code(
                        _pretty(spec.example_rows["predictions"]),
                        language="json",
                        label="predictions",
                        elem_id="predictions-json",
                    )
        files_tab.select(lambda: "files", None, source)
        json_tab.select(lambda: "json", None, source)
        controls = spec.controls()
        interval = gr.Checkbox(True, label=INTERVAL_LABEL, elem_id="interval")
        button = gr.Button("Compute", variant="primary", elem_id="compute")
        error = gr.Markdown(visible=False, elem_id="error")
        scores = gr.Dataframe(
            headers=["score", "value"], label="scores", interactive=False, elem_id="scores"
        )
        groups = gr.Dataframe(
            label="scores per group",
            interactive=False,
            visible=False,
            max_height=1000,
            elem_id="groups",
        )
        plot = [spec.plot()] if spec.plot else []
        breakdown = gr.Dataframe(label="per-item breakdown", interactive=False, elem_id="breakdown")
        with gr.Accordion("Metric card", open=False):
            gr.Markdown(card + spec.extra_notes)
        inputs = [source, pred_text, ref_text, pred_files, ref_files, *controls]
        button.click(
            functools.partial(compute, spec),
            inputs,
            [error, scores, groups, breakdown, *plot],
            api_name="compute",
        ).then(
            functools.partial(add_intervals, spec),
            [*inputs, interval, scores],
            [scores],
            api_name="intervals",
        )
    return demo


def _file_value(paths: Sequence[Path], folder: bool) -> Any:
    if not paths:
        return None
    return [str(p) for p in paths] if folder else str(paths[0])


def _pretty(rows: list) -> str:
    return "[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n]"


def launch(spec: SpaceSpec, **kwargs: Any) -> gr.Blocks:
    """Serve the Space on 127.0.0.1 (port from ``GRADIO_SERVER_PORT``, else gradio's default)."""
    demo = build(spec)
    folders = {str(Path(p).parent) for side in spec.example_files.values() for p in side}
    demo.launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        allowed_paths=sorted(folders) + spec.allowed_paths,
        **kwargs,
    )
    return demo
