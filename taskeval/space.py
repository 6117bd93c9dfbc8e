"""The Gradio Space every metric shares: inputs, options, Compute, scores, breakdown and a plot.

An optional column gives each headline score its paired-bootstrap 95% interval
(``taskeval.compare``; how to read it: docs/compare.md).

A Space's ``app.py`` builds its ``SpaceSpec`` with ``space_spec``, from what the metric's contract
declares (``CONTRACT.space``: example files and rows, file help, breakdown columns, a bar chart;
see ``taskeval.contract``), adds what needs gradio (option controls, a plot of its own) and calls
``launch``. Errors in the input —
the metrics' ``ValueError``s, broken JSON, missing files — are shown in the page, never as a
traceback, and name the uploaded files as the user named them (never the server's copies).

This module and the ones it imports are also the code of every exported Hub Space
(``taskeval export``): there they run beside the metric's own files, without taskeval.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import tempfile
import textwrap
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd

from .api import read_official
from .compare import DEFAULT_RESAMPLES, intervals
from .contract import BarChart
from .registry import contract, metric_dir, metric_module

__all__ = [
    "SpaceSpec",
    "bar_chart",
    "build",
    "compute",
    "launch",
    "metric_module",
    "read_official",
    "scores_table",
    "space_spec",
]

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
    # The details (and the config name) → a matplotlib figure, shown in a ``gr.Plot``.
    plot: Callable[[Any, str | None], Any] | None = None
    # The uploaded file names per side ("references", "predictions") and the chosen config
    # name → the config the names say (None: they say none, the chosen one holds); raises a
    # ValueError if the names disagree among themselves.
    check_uploads: Callable[[dict[str, list[str]], str | None], str | None] | None = None
    # Official inputs are folders of files (the uploads are put in one folder per side).
    folders: bool = False
    references_optional: bool = False
    extra_notes: str = ""
    allowed_paths: list[str] = field(default_factory=list)


def _columns(columns: list[str], details: Any) -> pd.DataFrame:
    return pd.DataFrame(details, columns=columns)


def _chart(chart: BarChart, details: Any, config: str | None = None) -> Any:
    """The contract's bar chart of the details: each row the chart's ``rows`` give counts one."""
    frame = pd.DataFrame(chart.rows(details, config), columns=[chart.x, chart.color])
    frame[chart.y] = 1
    title = chart.title if isinstance(chart.title, str) else chart.title(config)
    return bar_chart(
        frame,
        x=chart.x,
        y=chart.y,
        color=chart.color,
        x_order=chart.x_order,
        colors=chart.colors,
        title=title,
    )


def space_spec(name: str, examples: str | os.PathLike, **overrides: Any) -> SpaceSpec:
    """The Space of metric ``name`` as its contract declares it (``CONTRACT.space``), its example
    files in the folder ``examples``. ``overrides`` are the ``SpaceSpec`` fields the Space's
    ``app.py`` sets itself (``controls``, ``read_controls``, ``plot``, ``breakdown``, ...)."""
    metric = contract(name)
    space = metric.space
    examples = Path(examples)
    # Resolved: an example may be a link to another Space's (gradio serves the real paths).
    paths = {side: (examples / space.examples[side]).resolve() for side in space.examples}
    fields: dict[str, Any] = {
        "metric": name,
        "example_files": {
            side: sorted(path.iterdir()) if path.is_dir() else [path]
            for side, path in paths.items()
        },
        "file_help": space.file_help,
        "folders": metric.files.predictions.kind == "folder",
        "references_optional": metric.files.references.optional,
    }
    if "example_rows" not in overrides:
        rows = read_official(name, references=paths["references"], predictions=paths["predictions"])
        fields["example_rows"] = space.example_rows(rows) if space.example_rows else rows
    if space.breakdown_columns is not None:
        fields["breakdown"] = functools.partial(_columns, space.breakdown_columns)
    if space.chart is not None:
        fields["plot"] = functools.partial(_chart, space.chart)
    return SpaceSpec(**{**fields, **overrides})


def metric_card(name: str) -> str:
    """The metric's README without its YAML header."""
    text = (metric_dir(name) / "README.md").read_text(encoding="utf-8")
    if text.startswith("---"):
        text = text.split("\n---", 2)[-1].split("\n", 1)[-1]
    return text


def parse_rows(text: str, side: str) -> list:
    """A JSON array, one JSON object (one row), or one JSON value per line (JSONL)."""
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
                raise ValueError(
                    f"{side}, line {number}, column {e.colno}: not valid JSON ({e.msg})"
                ) from None
        return rows
    if isinstance(rows, dict):
        return [rows]
    if not isinstance(rows, list):
        raise ValueError(
            f"{side}: expected rows (a JSON array, one JSON object, or one object per line), "
            f"got a JSON {type(rows).__name__}"
        )
    return rows


def _paths(files: Any) -> list[str]:
    return [str(files)] if isinstance(files, (str, os.PathLike)) else [str(f) for f in files or []]


@contextlib.contextmanager
def _staged(spec: SpaceSpec, files: Any, side: str, optional: bool) -> Iterator[str | None]:
    """The uploaded file (or, for folder inputs, a temporary folder holding the uploads, removed
    afterwards), as ``read_official`` takes it."""
    paths = _paths(files)
    if not paths:
        if optional:
            yield None
            return
        raise ValueError(f"{side}: no file was uploaded")
    if not spec.folders:
        if len(paths) != 1:
            raise ValueError(f"{side}: upload one file, got {len(paths)}")
        yield paths[0]
        return
    names = [Path(p).name for p in paths]
    if len(set(names)) != len(names):
        raise ValueError(f"{side}: two uploaded files have the same name")
    with tempfile.TemporaryDirectory(prefix=f"taskeval-{side}-") as target:
        for path in paths:
            shutil.copyfile(path, Path(target) / Path(path).name)
        yield target


# JSON parsers add their own position inside the line ("line 1 column 5 (char 4)"), which
# contradicts the file's line number the message already gives.
_PARSER_POSITION = re.compile(r":? line \d+ column \d+ \(char \d+\)")


def user_message(error: Exception, uploads: Sequence[Any]) -> str:
    """The error as the page shows it: uploads named as the user named them, no server paths."""
    message = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
    for files in uploads:
        for path in _paths(files):
            message = message.replace(path, Path(path).name)
    # Folder inputs are read from a temporary folder: its path means "the uploaded files".
    message = re.sub(
        r"\S*taskeval-(references|predictions)-[\w-]+(/?)",
        lambda m: "" if m.group(2) else f"the uploaded {m.group(1)} files",
        message,
    )
    return _PARSER_POSITION.sub("", message)


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
    """Nested results (e.g. scores per language) as one row per group and score: three
    columns, which fit a phone's width (twenty score columns would not); None when the result
    is flat. ``scores_table`` flattens the same values."""
    rows = [
        [f"{key} / {name}", score, repr(value)]
        for key, groups in result.items()
        if isinstance(groups, dict)
        for name, scores in groups.items()
        for score, value in scores.items()
    ]
    return pd.DataFrame(rows, columns=["group", "score", "value"]) if rows else None


INTERVAL_LABEL = f"bootstrap 95% interval ({DEFAULT_RESAMPLES:,} resamples)"
INTERVAL_COLUMN = "95% interval"
# The page at any width (a phone's 400 px too): the score tables wrap inside the page instead
# of scrolling sideways, file names show whole, the plot is not stretched beyond the size its
# fonts are made for, and breakdown texts wrap between words, never inside one (a table wider
# than the screen scrolls in its own box).
CSS = """
#scores .cell-wrap, #scores .cell-wrap *, #groups .cell-wrap, #groups .cell-wrap * {
  white-space: normal !important; overflow-wrap: anywhere;
}
#references-files .filename, #predictions-files .filename {
  white-space: normal !important; overflow-wrap: anywhere; max-width: none !important;
}
#references-files .filename *, #predictions-files .filename * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  display: inline !important; max-width: none !important;
}
#plot img { width: 100% !important; height: auto !important; max-width: 820px; margin: 0 auto; }
#breakdown th, #breakdown td, #breakdown .body-cell { min-width: 4em; }
#breakdown .cell-wrap, #breakdown .cell-wrap * {
  white-space: normal !important; overflow-wrap: normal !important; word-break: normal !important;
  hyphens: none;
}
"""
PLACEHOLDER = (
    "Press **Compute**: the scores, the per-item breakdown and the plot of the inputs above "
    "appear here."
)


def with_intervals(
    rows: list[list[str]], bounds: dict[str, tuple[float, float]]
) -> list[list[str]]:
    """The scores table with a third column: the interval of each headline score ("" if none)."""
    return [
        [key, value, f"[{bounds[key][0]:.4f}, {bounds[key][1]:.4f}]" if key in bounds else ""]
        for key, value in rows
    ]


@functools.cache
def _metric(name: str, config: str | None) -> Any:
    import evaluate

    # By the script's path, not the folder's: evaluate looks for <folder name>.py in a folder,
    # and a Hub Space's folder is not named after its metric.
    return evaluate.load(str(metric_dir(name) / f"{name}.py"), config)


# A Space serves requests from threads; an evaluate module writes its inputs to its own Arrow
# cache, so calls to one module must not overlap.
_COMPUTE_LOCK = threading.Lock()


def _inputs(spec: SpaceSpec, source: str, pred_text, ref_text, pred_files, ref_files) -> dict:
    if source == "json":
        return {
            "predictions": parse_rows(pred_text, "predictions"),
            "references": parse_rows(ref_text, "references"),
        }
    with (
        _staged(spec, ref_files, "references", spec.references_optional) as references,
        _staged(spec, pred_files, "predictions", False) as predictions,
    ):
        return read_official(spec.metric, references=references, predictions=predictions)


def _bounds(spec: SpaceSpec, inputs: dict, config: str | None, options: dict) -> dict:
    # One process: a Space serves requests from threads, which forking does not mix with.
    return intervals(spec.metric, inputs, config_name=config, workers=1, **options)


def _read(spec: SpaceSpec, source: str, values: Sequence[Any]) -> tuple[dict, str | None, dict]:
    pred_text, ref_text, pred_files, ref_files, *control_values = values
    config, options = spec.read_controls(*control_values)
    if source != "json" and spec.check_uploads is not None:
        names = {
            side: [Path(p).name for p in _paths(files)]
            for side, files in (("references", ref_files), ("predictions", pred_files))
        }
        config = spec.check_uploads(names, config) or config
    return _inputs(spec, source, pred_text, ref_text, pred_files, ref_files), config, options


def compute(
    spec: SpaceSpec, source: str, *values: Any, with_interval: bool = False
) -> tuple[Any, ...]:
    """The Compute button: (error box, placeholder, scores, per-group scores, breakdown, plot).

    ``with_interval`` adds the paired-bootstrap 95% interval of each headline score (the page
    adds it in a second step, ``add_intervals``, so that the scores show at once).
    """
    try:
        inputs, config, options = _read(spec, source, values)
        with _COMPUTE_LOCK:
            result = _metric(spec.metric, config).compute(**inputs, **options, details=True)
        bounds = _bounds(spec, inputs, config, options) if with_interval else None
        details = result.pop("details")
        plot = [spec.plot(details, config)] if spec.plot else []
    except Exception as e:  # shown in the page; a ValueError is the metric explaining bad input
        return (
            gr.update(value=f"**Error:** {user_message(e, values[2:4])}", visible=True),
            gr.update(visible=True),
            gr.update(value=None, visible=False),
            gr.update(value=None, visible=False),
            gr.update(value=None, visible=False),
            *([gr.update(value=None, visible=False)] if spec.plot else []),
        )
    flat = {k: v for k, v in result.items() if not isinstance(v, dict)}
    rows, columns = scores_table(flat), ["score", "value"]
    if bounds is not None:
        rows, columns = with_intervals(rows, bounds), [*columns, INTERVAL_COLUMN]
    groups = group_table(result)
    return (
        gr.update(value="", visible=False),
        gr.update(visible=False),
        gr.update(value=pd.DataFrame(rows, columns=columns), visible=True),
        gr.update(value=groups, visible=groups is not None),
        _breakdown_update(_readable(spec.breakdown(details))),
        *[gr.update(value=figure, visible=True) for figure in plot],
    )


# Breakdown columns: as wide as their longest word (a word never wraps inside itself), and as
# their text up to this many characters (longer texts wrap over several lines).
_WRAP_AT = 20
_CHAR_PX, _CELL_PX = 8.5, 30


def column_widths(frame: pd.DataFrame) -> list[str]:
    """The width of each breakdown column, in pixels: its longest word and its header's fit,
    texts wrap from ``_WRAP_AT`` characters on. The table may be wider than a phone's screen:
    it then scrolls in its own box, and no word is cut."""
    widths = []
    for column in frame.columns:
        texts = [str(column), *map(str, frame[column].tolist())]
        longest_word = max((len(w) for t in texts for w in t.split()), default=1)
        longest_text = max((len(t) for t in texts[1:]), default=0)  # headers wrap early
        characters = max(longest_word, min(longest_text, _WRAP_AT))
        widths.append(f"{round(characters * _CHAR_PX + _CELL_PX)}px")
    return widths


def _breakdown_update(frame: pd.DataFrame) -> Any:
    return gr.update(value=frame, visible=True, column_widths=column_widths(frame))


def _readable(frame: pd.DataFrame) -> pd.DataFrame:
    # Headers wrap between words: "label correct", not "label_correc" + "t".
    return frame.rename(columns=lambda c: str(c).replace("_", " "))


def add_intervals(spec: SpaceSpec, source: str, *values: Any) -> Any:
    """After Compute: the scores table with the interval column, if the box is ticked.

    ``values`` are Compute's inputs, then the checkbox and the scores table Compute produced.
    Nothing changes when the box is clear or Compute failed (its error is already shown).
    """
    *values, with_interval, table = values
    if not with_interval or table is None or len(table) == 0:
        return gr.update()
    try:
        inputs, config, options = _read(spec, source, values)
        bounds = _bounds(spec, inputs, config, options)
    except Exception:  # Compute has shown the message
        return gr.update()
    rows = [[str(k), str(v)] for k, v in table[["score", "value"]].values.tolist()]
    return pd.DataFrame(with_intervals(rows, bounds), columns=["score", "value", INTERVAL_COLUMN])


# Figures are drawn FIGURE_WIDTH inches wide with no text under FONT_SIZE points: shown 360 px
# wide on a phone, their smallest text is still 336 / (72 * 6) * 12 = 9.3 px high.
FIGURE_WIDTH = 6.0
FONT_SIZE = 12


def _grey(i: int) -> str:
    """The ``i``-th of five grey shades, as a matplotlib colour (``#707070`` ... ``#d0d0d0``)."""
    return "#" + f"{0x70 + 0x18 * (i % 5):02x}" * 3


def bar_chart(
    frame: pd.DataFrame,
    *,
    x: str,
    y: str,
    color: str,
    x_order: Sequence[str],
    colors: dict[str, str],
    title: str,
) -> Any:
    """Stacked bars of ``frame`` (one row per (x, color) with its count ``y``), drawn the same
    way whatever the data: bars in ``x_order``, each ``color`` value in its fixed colour and the
    legend in the order of ``colors``, totals above the bars and room above the tallest."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import MaxNLocator

    # Values outside the given orders (a label the metric tolerates) come last, in grey shades.
    x_order = [*x_order, *sorted(set(frame[x]) - set(x_order))]
    extra = sorted(set(frame[color]) - set(colors))
    colors = {**colors, **{v: _grey(i) for i, v in enumerate(extra)}}
    counts = frame.pivot_table(index=x, columns=color, values=y, aggfunc="sum", fill_value=0)
    counts = counts.reindex(index=x_order, columns=list(colors), fill_value=0)
    figure, ax = plt.subplots(figsize=(FIGURE_WIDTH, 4.8))
    bottom = [0] * len(x_order)
    for name, colour in colors.items():
        heights = counts[name].tolist()
        if any(heights):
            ax.bar(list(x_order), heights, bottom=bottom, color=colour, label=name, width=0.6)
            bottom = [b + h for b, h in zip(bottom, heights)]
    top = max(bottom, default=0)
    for position, total in enumerate(bottom):
        if total:
            ax.annotate(
                str(total),
                (position, total),
                ha="center",
                va="bottom",
                fontsize=FONT_SIZE,
                xytext=(0, 2),
                textcoords="offset points",
            )
    ax.set_ylim(0, max(1, top) * 1.18)  # room for the totals: no bar touches the frame
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    # Long tick labels ("rationale not in first k") on several lines, not over each other.
    labels = [textwrap.fill(str(v), 8, break_long_words=False) for v in x_order]
    ax.set_xticks(range(len(x_order)), labels)
    legend_at = -0.3
    if len(labels) > 5:  # too many side by side: every other one below the others
        lines = max(label.count("\n") + 1 for label in labels)
        for tick in ax.xaxis.get_major_ticks()[1::2]:
            tick.set_pad(tick.get_pad() + lines * FONT_SIZE * 1.25)
        legend_at -= 0.1 * lines
        figure.set_figheight(figure.get_figheight() + 0.4 * lines)
    ax.tick_params(labelsize=FONT_SIZE)
    ax.set_ylabel(y, fontsize=FONT_SIZE)
    ax.set_xlabel(x, fontsize=FONT_SIZE)
    ax.set_title(textwrap.fill(title, 52), fontsize=FONT_SIZE + 1)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    if ax.get_legend_handles_labels()[0]:
        # Below the bars: at the right it would take a third of a phone's width.
        ax.legend(
            title=color,
            loc="upper center",
            bbox_to_anchor=(0.5, legend_at),
            ncol=3,
            frameon=False,
            fontsize=FONT_SIZE,
            title_fontsize=FONT_SIZE,
        )
    figure.tight_layout()
    plt.close(figure)
    return figure


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
                        min_width=300,  # side by side on a desktop, one above the other on a phone
                    )
                    pred_files = gr.File(
                        label="predictions",
                        file_count=count,
                        value=_file_value(spec.example_files["predictions"], spec.folders),
                        elem_id="predictions-files",
                        min_width=300,  # side by side on a desktop, one above the other on a phone
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
        # Until the first Compute only this note shows: no empty table, no empty plot.
        placeholder = gr.Markdown(PLACEHOLDER, elem_id="placeholder")
        scores = gr.Dataframe(
            headers=["score", "value"],
            label="scores",
            interactive=False,
            wrap=True,
            # Shares of the table's width: every column stays on the screen.
            column_widths=["44%", "31%", "25%"],
            max_height=2000,  # every score in sight, no scrolling inside the table
            visible=False,
            elem_id="scores",
        )
        groups = gr.Dataframe(
            label="scores per group",
            interactive=False,
            wrap=True,
            column_widths=["34%", "38%", "28%"],
            visible=False,
            max_height=1000,
            elem_id="groups",
        )
        # The figure carries its own title: a component label would sit on top of it.
        plot = [gr.Plot(show_label=False, visible=False, elem_id="plot")] if spec.plot else []
        breakdown = gr.Dataframe(
            label="per-item breakdown",
            interactive=False,
            visible=False,
            wrap=True,  # long "why" texts wrap instead of being cut off
            elem_id="breakdown",
        )
        with gr.Accordion("Metric card", open=False):
            gr.Markdown(card + spec.extra_notes)
        inputs = [source, pred_text, ref_text, pred_files, ref_files, *controls]
        button.click(
            functools.partial(compute, spec),
            inputs,
            [error, placeholder, scores, groups, breakdown, *plot],
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
        **{"css": CSS, **kwargs},
    )
    return demo
