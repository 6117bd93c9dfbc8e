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

import collections
import contextlib
import functools
import hashlib
import io
import json
import math
import os
import pickle
import shutil
import socket
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd
from starlette.middleware import Middleware

from .api import read_official
from .contract import BarChart
from .defaults import DEFAULT_RESAMPLES
from .registry import contract, metric_dir, metric_module
from .space_pool import pool
from .space_worker import Limits, metric, mib, parse_rows, run, user_message

__all__ = [
    "SpaceSpec",
    "bar_chart",
    "build",
    "compute",
    "launch",
    "metric_module",
    "parse_rows",
    "read_official",
    "scores_table",
    "space_spec",
    "user_message",
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
    # The uploaded file names per side ("references", "predictions"), the chosen config name
    # and the chosen options → the config the names say (None: they say none, the chosen one
    # holds); raises a ValueError if the names disagree among themselves or with the options.
    check_uploads: Callable[[dict[str, list[str]], str | None, dict], str | None] | None = None
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


# What a request may hold and use; read once, when the Space starts (a mistyped one stops it).
try:
    _LIMITS = Limits()
except ValueError as e:
    raise SystemExit(f"taskeval Space: {e}") from None


class _Uploads:
    """The uploaded files, removed when the sessions using them end or once unused for a while,
    never by another user's request.

    gradio keeps every upload in its cache folder for as long as the server runs, at a path
    named by its content: two users who upload the same file (everyone uploads the official
    dev file) share one copy. So no request removes its uploads when done. Each session (a
    page, a script's ``Client``) holds the uploads it named, in its requests and in its page's
    upload events (``held``); when it ends (gradio's ``unload``: the page closed, the client
    closed) each upload it held that no other session holds is removed at once (``ended``),
    unless a step is using it or it was uploaded again since it was last held (a script uploads
    without an event: its copy is left to the sweep). The sweep, for the sessions that never
    end: each upload is removed ``Limits.upload_ttl`` seconds after it was last uploaded or
    used, held or not, and the uploads are kept within ``Limits.uploads_bytes`` in all (the
    oldest first). Neither ever touches a file a request is using, nor the example files'
    copies, nor anything outside gradio's upload folder.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: collections.Counter[str] = collections.Counter()
        self._used: dict[str, float] = {}  # path -> when a request last used it
        self._kept: set[str] = set()
        self._sweeper: threading.Thread | None = None
        self._held: dict[str, set[str]] = {}  # session -> the uploads it holds
        self._holders: dict[str, set[str]] = {}  # upload -> the sessions holding it
        self._copy: dict[str, tuple[int, int]] = {}  # upload -> the copy last held

    def keep(self, paths: Sequence[str]) -> None:
        """Paths never removed (the example files gradio serves from its cache)."""
        with self._lock:
            self._kept.update(str(Path(p).resolve()) for p in paths)

    def _ours(self, files: Sequence[Any]) -> list[str]:
        from gradio.utils import get_upload_folder

        folder = Path(get_upload_folder()).resolve()
        paths = []
        for path in (p for f in files for p in _paths(f)):
            real = Path(path).resolve()
            if real.is_relative_to(folder) and real != folder and str(real) not in self._kept:
                paths.append(str(real))
        return paths

    @contextlib.contextmanager
    def using(self, files: Sequence[Any]) -> Iterator[None]:
        """Hold ``files`` while a step runs: never swept then, and their time starts again."""
        paths = self._ours(files)
        with self._lock:
            self._running.update(paths)
        self._sweep_later()
        try:
            yield
        finally:
            now = time.time()
            with self._lock:
                self._running.subtract(paths)
                for path in paths:
                    self._used[path] = now
                    if self._running[path] <= 0:
                        del self._running[path]

    def sweep(self, ttl: float, total: float = math.inf) -> None:
        """Remove the uploads no step is using that were neither uploaded nor used for ``ttl``
        seconds, then the oldest of the others until they hold at most ``total`` bytes."""
        from gradio.utils import get_upload_folder

        now, found = time.time(), []
        for path, info in _upload_files(get_upload_folder()):
            if path in self._kept:
                continue
            # The upload's own time: gradio moves each new upload into place, its time kept.
            since = max(info.st_mtime, self._used.get(path, 0.0))
            found.append((since, info.st_size, path))
        found.sort()
        size = sum(f[1] for f in found)
        with self._lock:
            old = []
            for since, bytes_, path in found:
                if self._running[path] > 0:
                    continue
                if now - since > ttl or size > total:
                    old.append(path)
                    size -= bytes_
            here = {f[2] for f in found}
            for path in [p for p in {*self._used, *self._copy} if p not in here]:
                self._forget(path)  # gone: forgotten
            for path in old:
                self._forget(path)
        for path in old:
            _remove(path)
        self._sweep_empty(min(max(ttl, 10), 60))

    def held(self, fn: Callable[..., Any], inputs: Sequence[Any]) -> Callable[..., Any]:
        """``fn`` as the handler of an event on ``inputs``: the uploads of its ``gr.File``
        inputs held by the request's session first (gradio passes the ``gr.Request``)."""
        boxes = [i for i, c in enumerate(inputs) if isinstance(c, gr.File)]

        def handler(request: gr.Request, *values: Any) -> Any:
            self.hold(getattr(request, "session_hash", None), [values[i] for i in boxes])
            return fn(*values)

        return handler

    def hold(self, session: str | None, files: Sequence[Any]) -> None:
        """``session`` holds ``files`` (the copies there now) until it ends."""
        if not session:
            return
        paths = self._ours(files)
        with self._lock:
            for path in paths:
                with contextlib.suppress(OSError):
                    self._copy[path] = _copy(path)
                    self._held.setdefault(session, set()).add(path)
                    self._holders.setdefault(path, set()).add(session)

    def ended(self, request: gr.Request) -> None:
        """gradio's ``unload``: the session's page (or client) closed."""
        self.release(getattr(request, "session_hash", None))

    def release(self, session: str | None) -> None:
        """Remove now the uploads ``session`` held that no other session holds, unless a step
        is using one or it was uploaded again since it was last held (another client's copy,
        not yet held: left to the sweep)."""
        if not session:
            return
        gone = []
        with self._lock:
            for path in self._held.pop(session, set()):
                holders = self._holders.get(path, set())
                holders.discard(session)
                if holders:
                    continue
                del self._holders[path]
                if self._running[path] > 0:  # a step of no session's (a direct call)
                    continue
                with contextlib.suppress(OSError):
                    if _copy(path) == self._copy.get(path):
                        gone.append(path)
                        self._forget(path)
        for path in gone:
            _remove(path)

    def _forget(self, path: str) -> None:
        """Drop what is known of an upload removed (the lock held)."""
        self._used.pop(path, None)
        self._copy.pop(path, None)
        for session in self._holders.pop(path, set()):
            held = self._held.get(session, set())
            held.discard(path)
            if not held:
                self._held.pop(session, None)

    @staticmethod
    def _sweep_empty(age: float) -> None:
        """Remove the empty ``tmp*`` files gradio's upload route leaves beside the uploads (one
        per uploaded file), once older than ``age`` seconds: an upload still being received is
        written to continuously, so its file is never that old and empty."""
        from gradio.utils import get_upload_folder

        now = time.time()
        with contextlib.suppress(OSError), os.scandir(get_upload_folder()) as entries:
            for entry in entries:
                if not entry.name.startswith("tmp") or not entry.is_file(follow_symlinks=False):
                    continue
                with contextlib.suppress(OSError):
                    info = entry.stat(follow_symlinks=False)
                    if info.st_size == 0 and now - info.st_mtime > age:
                        os.unlink(entry.path)

    def _sweep_later(self) -> None:
        with self._lock:
            if self._sweeper is not None:
                return
            self._sweeper = threading.Thread(target=self._sweep_forever, daemon=True)
        self._sweeper.start()

    def _sweep_forever(self) -> None:
        ttl = _LIMITS.upload_ttl
        while True:  # often enough that a flood of uploads is cut back within seconds
            time.sleep(min(max(ttl / 4, 0.2), 5))
            self.sweep(ttl, _LIMITS.uploads_bytes)
            _give_back_memory()


def _give_back_memory() -> None:
    """Hand the memory freed by past requests back to the system (glibc keeps it in each
    thread's arena otherwise, and a server answering from many threads grows with no end)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _copy(path: str) -> tuple[int, int]:
    """Which copy of an upload is at ``path``: gradio moves each upload, new or again, into
    place as a new file."""
    info = os.stat(path, follow_symlinks=False)
    return info.st_ino, info.st_mtime_ns


def _upload_files(folder: str) -> Iterator[tuple[str, os.stat_result]]:
    """The uploads in gradio's upload ``folder`` (each in a folder of its own), with their
    status; resolved paths, as requests name them once resolved."""
    root = Path(folder).resolve()
    with contextlib.suppress(OSError), os.scandir(root) as folders:
        for entry in folders:
            if not entry.is_dir(follow_symlinks=False):
                continue
            with contextlib.suppress(OSError), os.scandir(entry.path) as files:
                for file in files:
                    with contextlib.suppress(OSError):
                        if file.is_file(follow_symlinks=False):
                            yield file.path, file.stat(follow_symlinks=False)


def _remove(path: str) -> None:
    """Remove an upload and the folder gradio made for it, if that is now empty."""
    with contextlib.suppress(OSError):
        os.unlink(path)
    with contextlib.suppress(OSError):
        os.rmdir(os.path.dirname(path))


_uploads = _Uploads()


def _paths(files: Any) -> list[str]:
    return [str(files)] if isinstance(files, (str, os.PathLike)) else [str(f) for f in files or []]


def file_box(spec: SpaceSpec, label: str, example: str | None, elem_id: str) -> Any:
    """An upload box of the page, holding the ``example`` side's files at first (none if None;
    several at once when the Space takes folders, or for the optional test inputs)."""
    return gr.File(
        label=label,
        file_count="multiple" if spec.folders or example is None else "single",
        value=None if example is None else _file_value(spec.example_files[example], spec.folders),
        elem_id=elem_id,
        min_width=300,  # side by side on a desktop, one above the other on a phone
    )


def still_uploaded(paths: Sequence[str]) -> None:
    """Refuse, naming it, an upload removed after an earlier request (the page still shows it
    when the user presses a button again), and anything but a file: a request may name any
    path, gradio's upload folder itself included, whose listing would show other users'
    uploads."""
    for path in paths:
        if not os.path.exists(path):
            raise ValueError(
                f"{Path(path).name}: no longer on the server (uploads are removed "
                f"{_LIMITS.upload_ttl:,.0f} s after their last use): upload it again"
            )
        if not os.path.isfile(path):  # named by nothing of the server's
            raise ValueError("a file input holds a folder, not a file: upload a file")


@contextlib.contextmanager
def _staged(spec: SpaceSpec, files: Any, side: str, optional: bool) -> Iterator[str | None]:
    """The uploaded file (or, for folder inputs, a temporary folder holding links to the
    uploads, removed afterwards), as ``read_official`` takes it."""
    paths = _paths(files)
    still_uploaded(paths)
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
            _link(path, Path(target) / Path(path).name)
        yield target


def _link(source: str, target: Path) -> None:
    try:
        target.symlink_to(Path(source).resolve())
    except OSError:  # no links on this file system
        shutil.copyfile(source, target)


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
#references-files .filename, #predictions-files .filename {
  white-space: normal !important; overflow-wrap: anywhere; max-width: none !important;
}
#references-files .filename *, #predictions-files .filename * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  display: inline !important; max-width: none !important;
}
#plot img { width: 100% !important; height: auto !important; max-width: 820px; margin: 0 auto; }
#breakdown th, #breakdown td, #breakdown .body-cell { min-width: 4em; }
/* Texts wrap between words only: a number or a name is never broken inside itself (a table
   wider than the screen scrolls in its box instead). */
#scores .cell-wrap, #scores .cell-wrap *, #groups .cell-wrap, #groups .cell-wrap *,
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


def _metric(name: str, config: str | None) -> Any:
    return metric(name, config)


def _task(
    spec: SpaceSpec, source: str, values: Sequence[Any], with_interval: bool, scores: bool = True
) -> Any:
    """The request's computation as a task for a worker (``space_worker.run``); a context, as
    folder uploads are linked into a temporary folder for as long as the task runs."""
    pred_text, ref_text, pred_files, ref_files, *_ = values
    config, options = _settings(spec, source, values)
    task = {
        "metric": spec.metric,
        "config": config,
        "options": options,
        "source": source,
        "with_interval": with_interval,
        "scores": scores,  # False: the intervals alone (the page's second step)
        "names": {},
        "folders": {},
    }
    if source == "json":
        return contextlib.nullcontext({**task, "predictions": pred_text, "references": ref_text})
    return _staged_task(spec, task, pred_files, ref_files)


def _settings(spec: SpaceSpec, source: str, values: Sequence[Any]) -> tuple[str | None, dict]:
    """The config and options of a request: the controls', the config named by the uploaded
    files' names where the Space reads it from them (``check_uploads``)."""
    _, _, pred_files, ref_files, *control_values = values
    config, options = spec.read_controls(*control_values)
    if source != "json" and spec.check_uploads is not None:
        names = {
            side: [Path(p).name for p in _paths(files)]
            for side, files in (("references", ref_files), ("predictions", pred_files))
        }
        config = spec.check_uploads(names, config, options) or config
    return config, options


@contextlib.contextmanager
def _staged_task(spec: SpaceSpec, task: dict, pred_files: Any, ref_files: Any) -> Iterator[dict]:
    with (
        _staged(spec, ref_files, "references", spec.references_optional) as references,
        _staged(spec, pred_files, "predictions", False) as predictions,
    ):
        for side, staged, files in (
            ("references", references, ref_files),
            ("predictions", predictions, pred_files),
        ):
            for path in _paths(files):
                task["names"][path] = Path(path).name
                if staged is not None and staged != path:
                    task["names"][str(Path(staged) / Path(path).name)] = Path(path).name
            if staged is not None and staged not in _paths(files):
                task["folders"][staged] = side
        yield {**task, "predictions": predictions, "references": references}


def _run(
    spec: SpaceSpec, source: str, values: Sequence[Any], with_interval: bool, scores: bool = True
) -> dict:
    """The request computed by a worker process: ``{"result", "bounds"}`` or ``{"error"}``."""
    with _task(spec, source, values, with_interval, scores) as task:
        if _LIMITS.workers <= 0:  # no worker processes: computed here (for debugging)
            return run(task, _LIMITS)
        return pool(spec.metric).run(task)


def _message(error: Exception, values: Sequence[Any]) -> str:
    uploads = [p for files in values[2:4] for p in _paths(files)]
    return user_message(error, uploads, limit=_LIMITS.message_chars)


def _error(message: str, plot: bool) -> tuple[Any, ...]:
    return (
        gr.update(value=message, visible=True),
        gr.update(visible=True),
        gr.update(value=None, visible=False),
        gr.update(value=None, visible=False),
        gr.update(value=None, visible=False),
        *([gr.update(value=None, visible=False)] if plot else []),
    )


def compute(
    spec: SpaceSpec, source: str, *values: Any, with_interval: bool = False
) -> tuple[Any, ...]:
    """The Compute button: (error box, placeholder, scores, per-group scores, breakdown, plot).

    ``with_interval`` adds the paired-bootstrap 95% interval of each headline score (the page
    adds it in a second step, ``add_intervals``, so that the scores show at once). The uploads
    stay until their sessions end, or ``Limits.upload_ttl`` seconds unused (``_Uploads``).
    """
    try:
        with _uploads.using(values[2:4]):
            reply = _run(spec, source, values, with_interval)
        if "error" in reply:
            return _error(reply["error"], bool(spec.plot))
        result, bounds = reply["result"], reply["bounds"]
        config = _settings(spec, source, values)[0]
        details = result.pop("details")
        plot = [_plot(spec, details, config)] if spec.plot else []
    except Exception as e:  # shown in the page; a ValueError is the Space explaining bad input
        return _error(_message(e, values), bool(spec.plot))
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
        _breakdown(spec, details),
        *[gr.update(value=figure, visible=True) for figure in plot],
    )


BREAKDOWN_LABEL = "per-item breakdown"


def _breakdown(spec: SpaceSpec, details: Any) -> Any:
    """The breakdown's update, cut to ``Limits.breakdown_rows`` rows (the page holds a table of
    every item otherwise: 54 MB of JSON for 490,000 claims, per request), its label saying so."""
    frame = spec.breakdown(details)
    limit, label = _LIMITS.breakdown_rows, BREAKDOWN_LABEL
    if len(frame) > limit:
        label += (
            f": the first {limit:,} of {len(frame):,} items (TASKEVAL_SPACE_MAX_BREAKDOWN_ROWS; "
            "all of them: the metric's `compute(..., details=True)`)"
        )
        frame = frame.head(limit)
    return {**_breakdown_update(_readable(frame)), "label": label}


_FIGURES: collections.OrderedDict[bytes, Any] = collections.OrderedDict()
_FIGURES_KEPT = 16
_FIGURES_LOCK = threading.Lock()


def _plot(spec: SpaceSpec, details: Any, config: str | None) -> Any:
    """``spec.plot(details, config)``, drawn once for the same details: the example, Compute
    after Compute, costs a lookup instead of a figure (most of a small request's time). The
    figure keeps its picture too: gradio turns it into a PNG on every answer."""
    try:
        key = hashlib.blake2b(
            pickle.dumps((id(spec), details, config), protocol=5), digest_size=20
        ).digest()
    except Exception:  # details that do not pickle: drawn each time
        return spec.plot(details, config)
    with _FIGURES_LOCK:
        figure = _FIGURES.get(key)
        if figure is not None:
            _FIGURES.move_to_end(key)
            return figure
    figure = _keeps_its_picture(spec.plot(details, config))
    with _FIGURES_LOCK:
        _FIGURES[key] = figure
        while len(_FIGURES) > _FIGURES_KEPT:
            _FIGURES.popitem(last=False)
    return figure


def _keeps_its_picture(figure: Any) -> Any:
    """``figure`` whose ``savefig`` into a file object draws once per format, then writes the
    same bytes (one drawing at a time: the figure may be answered to two requests at once)."""
    draw = getattr(figure, "savefig", None)
    if draw is None:
        return figure
    pictures: dict[str, bytes] = {}
    lock = threading.Lock()

    def savefig(target: Any, *args: Any, **kwargs: Any) -> Any:
        if not hasattr(target, "write") or args:
            with lock:
                return draw(target, *args, **kwargs)
        key = repr(sorted(kwargs.items()))
        with lock:
            if key not in pictures:
                buffer = io.BytesIO()
                draw(buffer, **kwargs)
                pictures[key] = buffer.getvalue()
        target.write(pictures[key])
        return None

    figure.savefig = savefig
    return figure


# Table columns: as wide as their longest word (a number or a name never wraps inside itself),
# and as their text up to ``_WRAP_AT`` characters (longer texts wrap over several lines); the
# texts narrower still when the table would not fit a 1280 px screen's page (``_TABLE_PX``).
_WRAP_AT = 20
_CHAR_PX, _CELL_PX = 8.5, 30
_TABLE_PX = 1180


def _characters(text: str) -> int:
    """``text``'s width in characters of the table's font: wide (CJK) ones count two, combining
    marks none."""
    import unicodedata

    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def column_widths(
    frame: pd.DataFrame, wrap_at: int = _WRAP_AT, fit: float = _TABLE_PX
) -> list[str]:
    """The width of each column of a table, in pixels: its longest word and its header's fit,
    texts wrap from ``wrap_at`` characters on, and earlier (down to their longest word) where
    the table would be wider than ``fit``. A table whose words alone are wider (on a phone)
    scrolls in its own box: no word is cut or broken."""
    floors, wants = [], []
    for column in frame.columns:
        texts = [str(column), *map(str, frame[column].tolist())]
        floor = max((_characters(w) for t in texts for w in t.split()), default=1)
        longest_text = max((_characters(t) for t in texts[1:]), default=0)  # headers wrap early
        floors.append(floor)
        wants.append(max(floor, min(longest_text, wrap_at)))
    spare = max(fit / _CHAR_PX - len(wants) * _CELL_PX / _CHAR_PX - sum(floors), 0)
    slack = sum(wants) - sum(floors)
    if slack > spare:  # every wrapping text gives up the same share of its width beyond a word
        share = spare / slack
        wants = [f + int((w - f) * share) for f, w in zip(floors, wants)]
    return [f"{int(w * _CHAR_PX + _CELL_PX)}px" for w in wants]  # (down: the sum fits)


def _breakdown_update(frame: pd.DataFrame) -> Any:
    return gr.update(value=frame, visible=True, column_widths=column_widths(frame))


# The interval column's widest text, "[100.0000, 100.0000]": a percentage's (the column is
# filled in the page's second step, after the widths are set).
_INTERVAL_TEXT = f"[{100:.4f}, {100:.4f}]"


def _scores_update(update: Any, intervals: bool) -> Any:
    """The scores (or per-group) table's update with the widths of its columns: its names and
    numbers on one line each, texts such as ``per_language / english`` on one line on a wide
    screen."""
    frame = update.get("value") if isinstance(update, dict) else None
    if not isinstance(frame, pd.DataFrame):
        return update
    if intervals and len(frame.columns) == 2:
        frame = frame.assign(**{INTERVAL_COLUMN: _INTERVAL_TEXT})
    return {**update, "column_widths": column_widths(frame, wrap_at=2 * _WRAP_AT)}


def _laid_out(spec: SpaceSpec, *values: Any) -> tuple[Any, ...]:
    """``compute`` for the page: its tables' columns as wide as their words."""
    error, placeholder, scores, groups, *rest = compute(spec, *values)
    return (error, placeholder, _scores_update(scores, True), _scores_update(groups, False), *rest)


def _readable(frame: pd.DataFrame) -> pd.DataFrame:
    # Headers wrap between words: "label correct", not "label_correc" + "t".
    return frame.rename(columns=lambda c: str(c).replace("_", " "))


def add_intervals(spec: SpaceSpec, source: str, *values: Any) -> Any:
    """After Compute: the scores table with the interval column, if the box is ticked.

    ``values`` are Compute's inputs, then the checkbox and the scores table Compute produced.
    Nothing changes when the box is clear or Compute failed (its error is already shown).
    """
    *values, with_interval, table = values
    with _uploads.using(values[2:4]):
        if not with_interval or table is None or len(table) == 0:
            return gr.update()
        try:
            reply = _run(spec, source, values, True, scores=False)  # Compute showed them
        except Exception:  # Compute has shown the message
            return gr.update()
    if "error" in reply:
        return gr.update()
    rows = [[str(k), str(v)] for k, v in table[["score", "value"]].values.tolist()]
    return pd.DataFrame(
        with_intervals(rows, reply["bounds"]), columns=["score", "value", INTERVAL_COLUMN]
    )


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
    if len(labels) > 5:  # too many side by side: every other one below the others
        lines = max(label.count("\n") + 1 for label in labels)
        for tick in ax.xaxis.get_major_ticks()[1::2]:
            tick.set_pad(tick.get_pad() + lines * FONT_SIZE * 1.25)
        figure.set_figheight(figure.get_figheight() + 0.4 * lines)
    ax.tick_params(labelsize=FONT_SIZE)
    ax.set_ylabel(y, fontsize=FONT_SIZE)
    ax.set_xlabel(x, fontsize=FONT_SIZE)
    ax.set_title(textwrap.fill(title, 52), fontsize=FONT_SIZE + 1)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    if ax.get_legend_handles_labels()[0]:
        _legend_below(figure, ax, color)
    figure.tight_layout()
    plt.close(figure)
    return figure


def _legend_below(figure: Any, ax: Any, title: str) -> Any:
    """The legend of ``ax`` under its x-axis title, centred on the figure, in as many columns
    (three at most) as the figure's width holds: at the right it would take a third of a
    phone's width; placed by a share of the axes' height it lands on a tall (wrapped or
    lowered) tick label's axis title; wider than the figure its last entry is cut."""
    from matplotlib.transforms import ScaledTranslation, blended_transform_factory

    figure.draw_without_rendering()  # places the axis title under the tick labels
    renderer = figure.canvas.get_renderer()
    # Inches from the axes' bottom to under the axis title: tight_layout moves the axes, not
    # this distance (tick labels, pads and titles are sized in points).
    below = ax.bbox.y0 - ax.xaxis.label.get_window_extent(renderer).y0
    drop = ScaledTranslation(0, -(below / figure.dpi + FONT_SIZE / 2 / 72), figure.dpi_scale_trans)
    anchor = blended_transform_factory(figure.transFigure, ax.transAxes + drop)
    entries = len(ax.get_legend_handles_labels()[0])
    for columns in range(min(3, entries), 0, -1):
        legend = ax.legend(
            title=title,
            loc="upper center",
            bbox_to_anchor=(0.5, 0),
            bbox_transform=anchor,
            ncol=columns,
            frameon=False,
            fontsize=FONT_SIZE,
            title_fontsize=FONT_SIZE,
        )
        if legend.get_window_extent(renderer).width <= 0.96 * figure.bbox.width:
            break
    return legend


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
                with gr.Row():
                    ref_files = file_box(
                        spec, "references (gold)", "references", "references-files"
                    )
                    pred_files = file_box(spec, "predictions", "predictions", "predictions-files")
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
        # Plain text, as the message was written: no Markdown eats a page title's underscores.
        error = gr.Textbox(
            label="Error", visible=False, interactive=False, lines=1, max_lines=12, elem_id="error"
        )
        # Until the first Compute only this note shows: no empty table, no empty plot.
        placeholder = gr.Markdown(PLACEHOLDER, elem_id="placeholder")
        scores = gr.Dataframe(
            headers=["score", "value"],
            label="scores",
            interactive=False,
            wrap=True,  # between words only (CSS): the widths come with the scores
            max_height=2000,  # every score in sight, no scrolling inside the table
            visible=False,
            elem_id="scores",
        )
        groups = gr.Dataframe(
            label="scores per group",
            interactive=False,
            wrap=True,
            visible=False,
            max_height=1000,
            elem_id="groups",
        )
        # The figure carries its own title: a component label would sit on top of it.
        plot = [gr.Plot(show_label=False, visible=False, elem_id="plot")] if spec.plot else []
        breakdown = gr.Dataframe(
            label=BREAKDOWN_LABEL,
            interactive=False,
            visible=False,
            wrap=True,  # long "why" texts wrap instead of being cut off
            elem_id="breakdown",
        )
        from .space_check import panel  # (imports this module)

        panel(spec)
        with gr.Accordion("Metric card", open=False):
            gr.Markdown(card + spec.extra_notes)
        gr.Markdown(_LIMITS.note(), elem_id="limits")
        inputs = [source, pred_text, ref_text, pred_files, ref_files, *controls]
        button.click(
            _uploads.held(functools.partial(_laid_out, spec), inputs),
            inputs,
            [error, placeholder, scores, groups, breakdown, *plot],
            api_name="compute",
            concurrency_limit=_concurrency(),
        ).then(
            _uploads.held(functools.partial(add_intervals, spec), inputs),
            [*inputs, interval, scores],
            [scores],
            api_name="intervals",
            concurrency_limit=_concurrency(),
        )
        _uploads.keep([v["path"] for c in (ref_files, pred_files) for v in _values(c)])
        _tie_uploads_to_sessions(demo)
    if _LIMITS.workers > 0:  # the workers start now, not on the first request
        pool(spec.metric)
    # Requests run side by side: each waits in the queue only for a free worker process.
    demo.queue(default_concurrency_limit=_concurrency(), max_size=_MAX_QUEUE)
    _share_per_client(demo._queue, _LIMITS.queue_per_client)
    return demo


def _tie_uploads_to_sessions(demo: gr.Blocks) -> None:
    """Every upload box's upload held by its session as soon as the page uploads it (a script's
    uploads fire no event: its requests hold them), all released when the session ends."""
    for box in [b for b in demo.blocks.values() if isinstance(b, gr.File)]:
        box.upload(
            _uploads.held(lambda *files: None, [box]),
            [box],
            None,
            queue=False,  # a moment's work: never behind the computations in the queue
            show_progress="hidden",
            api_visibility="private",
        )
    demo.unload(_uploads.ended)


def _share_per_client(queue: Any, limit: int) -> None:
    """gradio's queue, each client (a page, a script's ``Client``: a session) holding at most
    ``limit`` requests queued or running at once; one past it is refused at once, in words.
    gradio's own bounds (``max_size``, ``concurrency_limit``) are one for all clients: one
    client's flood of requests filled the queue, and every other user was refused."""
    push = queue.push
    joining: collections.Counter[str] = collections.Counter()  # pushes under way (they await)

    async def push_within_share(body: Any, request: Any, username: str | None) -> Any:
        session = body.session_hash or ""
        events = list(queue.event_ids_to_events.values())
        held = joining[session] + sum(e.session_hash == session for e in events)
        if held >= limit:
            return (
                False,
                f"this client has {held} requests queued or running, the most this Space takes "
                "from one client at once (TASKEVAL_SPACE_QUEUE_PER_CLIENT): wait for their "
                "answers",
                "error",
            )
        joining[session] += 1
        try:
            return await push(body, request, username)
        finally:
            joining[session] -= 1
            if joining[session] <= 0:
                del joining[session]

    queue.push = push_within_share


_MAX_QUEUE = 64  # requests waiting at once; more are refused at once ("the queue is full")


def _concurrency() -> int:
    # Twice the workers: a request's own work in the server (tables, plot) overlaps the
    # workers' computations.
    return max(2 * _LIMITS.workers, 1)


def _values(component: Any) -> list[dict]:
    value = component.value
    return [] if value is None else value if isinstance(value, list) else [value]


def _file_value(paths: Sequence[Path], folder: bool) -> Any:
    if not paths:
        return None
    return [str(p) for p in paths] if folder else str(paths[0])


def _pretty(rows: list) -> str:
    return "[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n]"


def launch(spec: SpaceSpec, **kwargs: Any) -> gr.Blocks:
    """Serve the Space on 127.0.0.1 (port from ``GRADIO_SERVER_PORT``, else gradio's default:
    the first free one from 7860 on). A port the variable names is the Space's or it stops."""
    host = os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1")
    port = _asked_port(host)
    demo = build(spec)
    folders = {str(Path(p).parent) for side in spec.example_files.values() for p in side}
    demo.launch(
        server_name=host,
        allowed_paths=sorted(folders) + spec.allowed_paths,
        **{
            "css": CSS,
            "max_file_size": _LIMITS.upload_bytes,
            "server_port": port,
            # gradio keeps each session's updated components (tables, plot) for this many
            # sessions, 10,000 by default: the server grew with every new client.
            "state_session_capacity": _LIMITS.sessions,
            "app_kwargs": {"middleware": [Middleware(_UploadLimitMessage)]},
            **kwargs,
        },
    )
    return demo


def _asked_port(host: str) -> int | None:
    """The port ``GRADIO_SERVER_PORT`` names, free; the Space stops saying so when it is taken
    (gradio would serve on the next free port without a word)."""
    raw = os.environ.get("GRADIO_SERVER_PORT", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise SystemExit(f"taskeval Space: GRADIO_SERVER_PORT={raw!r} is not a port number")
    port = int(raw)
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind((host.strip("[]"), port))
        except OSError:
            raise SystemExit(
                f"taskeval Space: port {port} (GRADIO_SERVER_PORT) is in use on {host}: stop "
                "what serves there, or choose another port"
            ) from None
    return port


class _UploadLimitMessage:
    """gradio's refusal of an upload over ``max_file_size`` (413, in bytes and its own words),
    said as the Space's other limits are: the limit as the page states it and its variable."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].endswith("/upload"):
            await self.app(scope, receive, send)
            return
        replaced = False

        async def answer(message: dict) -> None:
            nonlocal replaced
            if message["type"] == "http.response.start" and message["status"] == 413:
                replaced = True
                body = (
                    f"an uploaded file is larger than the {mib(_LIMITS.upload_bytes)} MiB "
                    "this Space takes (TASKEVAL_SPACE_MAX_UPLOAD_MB): score it with "
                    "`taskeval score` on your machine"
                ).encode()
                headers = [(k, v) for k, v in message["headers"] if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(body)).encode()))
                await send({**message, "headers": headers})
                await send({"type": "http.response.body", "body": body})
            elif not replaced:  # gradio's own words, once replaced, are left out
                await send(message)

        await self.app(scope, receive, answer)
