"""One Space computation, bounded: the limits on what a request may hold, and the work itself
(read the uploads or the pasted rows, score them, the intervals), run in a worker process.

A Space is a public server. What a request may hold is checked before it is read (upload size,
the inflated size of a gzip file, the number of lines or rows, the length of pasted text), each
refusal one line naming the limit and its environment variable; what is left (a costly but
small input) runs in a worker process with a memory budget (``resource.RLIMIT_AS``) and a time
budget (``space_pool``), so that it can neither exhaust the server nor hold up other users.

``main`` is the worker process: it reads tasks from one pipe and writes replies to another, and
imports neither gradio nor anything of the page.
"""

from __future__ import annotations

import functools
import math
import os
import re
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .json_text import refusal
from .line_count import count_lines
from .messages import MAX_MESSAGE_CHARS, shorten
from .mistakes import with_sentence

MIB = 1 << 20


def _env_number(name: str, default: float, zero: bool = False) -> float:
    """The positive number in the environment variable ``name``; ``default`` if it is unset or
    empty. Anything else (0, a negative number, not a number) stops the Space, naming it: 0 is
    neither "no limit" nor a limit of nothing, and a mistyped limit is never replaced unseen.
    ``zero``: 0 is a setting too (no worker processes)."""
    raw = os.environ.get(name, "")
    if not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (0 <= value if zero else 0 < value) or not value < math.inf:
        expected = "0 or a positive number" if zero else "a positive number"
        raise ValueError(
            f"{name}={raw!r}: expected {expected} (unset it for the default, {default:,.0f})"
        )
    return value


class Limits:
    """What one request may hold and use, from the environment (read when a Space starts)."""

    def __init__(self) -> None:
        self.upload_bytes = int(_env_number("TASKEVAL_SPACE_MAX_UPLOAD_MB", 512) * MIB)
        self.inflated_bytes = int(_env_number("TASKEVAL_SPACE_MAX_INFLATED_MB", 4096) * MIB)
        self.rows = int(_env_number("TASKEVAL_SPACE_MAX_ROWS", 500_000))
        self.paste_chars = int(_env_number("TASKEVAL_SPACE_MAX_PASTE_MB", 64) * MIB)
        self.line_bytes = int(_env_number("TASKEVAL_MAX_LINE_BYTES", 64 * MIB))
        self.timeout = _env_number("TASKEVAL_SPACE_TIMEOUT", 300)
        self.memory_bytes = int(_env_number("TASKEVAL_SPACE_MEMORY_MB", 3072) * MIB)
        # 0: no worker processes, each computation in the server (for debugging).
        self.workers = int(_env_number("TASKEVAL_SPACE_WORKERS", 2, zero=True))
        # Inputs larger than this share all worker processes but one (``space_pool``).
        self.large_bytes = int(_env_number("TASKEVAL_SPACE_LARGE_MB", 4) * MIB)
        self.tasks_per_worker = int(_env_number("TASKEVAL_SPACE_TASKS_PER_WORKER", 200))
        self.upload_ttl = _env_number("TASKEVAL_SPACE_UPLOAD_TTL", 900)
        self.breakdown_rows = int(_env_number("TASKEVAL_SPACE_MAX_BREAKDOWN_ROWS", 2000))
        # Sessions whose page state (the components a request updated) the server keeps.
        self.sessions = int(_env_number("TASKEVAL_SPACE_SESSIONS", 256))
        self.queue_per_client = int(_env_number("TASKEVAL_SPACE_QUEUE_PER_CLIENT", 4))
        self.uploads_bytes = int(_env_number("TASKEVAL_SPACE_MAX_UPLOADS_MB", 4096) * MIB)
        self.message_chars = int(_env_number("TASKEVAL_SPACE_MAX_MESSAGE_CHARS", 1000))

    def note(self) -> str:
        """The limits as the page states them (Markdown)."""
        return (
            f"Limits of this Space: an uploaded file up to {mib(self.upload_bytes)} MiB "
            f"(`TASKEVAL_SPACE_MAX_UPLOAD_MB`), a gzip file up to "
            f"{mib(self.inflated_bytes)} MiB inflated (`TASKEVAL_SPACE_MAX_INFLATED_MB`), "
            f"up to {self.rows:,} lines or rows per file (`TASKEVAL_SPACE_MAX_ROWS`), JSON lines "
            f"up to {mib(self.line_bytes)} MiB (`TASKEVAL_MAX_LINE_BYTES`), pasted rows up "
            f"to {mib(self.paste_chars)} Mi characters (`TASKEVAL_SPACE_MAX_PASTE_MB`); "
            f"each computation up to {self.timeout:,.0f} s (`TASKEVAL_SPACE_TIMEOUT`) and "
            f"{mib(self.memory_bytes)} MiB of memory (`TASKEVAL_SPACE_MEMORY_MB`); up to "
            f"{self.queue_per_client:,} requests of one client at once "
            f"(`TASKEVAL_SPACE_QUEUE_PER_CLIENT`); uploads are removed when every page that "
            f"used them has closed, or {self.upload_ttl:,.0f} s after their last use "
            "(`TASKEVAL_SPACE_UPLOAD_TTL`). "
            "Larger files: `taskeval score` on your machine."
        )


def mib(size: float) -> str:
    """A size in MiB as the page states it: whole, or to a tenth (0.5 MiB is not "0 MiB")."""
    value = round(size / MIB, 1)
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


# ---------------------------------------------------------------------------------------------
# Checks before reading


_CHUNK = 1 << 20


def _chunks(path: str) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            yield chunk


def _gzip_inflate(path: str) -> Iterator[bytes]:
    """Python's ``gzip`` module's inflated chunks: for a metric that declares no inflater."""
    import gzip

    with gzip.open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            yield chunk


def _inflated(
    path: str, name: str, limit: int, inflate: Callable[[str], Iterable[bytes]] | None = None
) -> Iterator[bytes]:
    """The inflated bytes of a gzip file as the metric's reader inflates it (its contract's
    ``files.inflate``: every member, zero padding skipped), a chunk at a time, refused as soon
    as they pass ``limit``: a small gzip of zeros is never inflated whole. A file that is not
    gzip is left to the reader to name."""
    total = 0
    try:
        for out in (inflate or _gzip_inflate)(path):
            total += len(out)
            if total > limit:
                break
            yield out
    except (OSError, EOFError, zlib.error):
        return
    if total > limit:
        raise ValueError(
            f"{name}: more than {mib(limit)} MiB once decompressed, the most this "
            "Space inflates (TASKEVAL_SPACE_MAX_INFLATED_MB)"
        )


def check_file(
    path: str,
    name: str,
    gzipped: bool,
    limits: Limits,
    inflate: Callable[[str], Iterable[bytes]] | None = None,
) -> None:
    """Refuse an upload that is too large, inflates too much or holds too many lines
    (``inflate``: the metric's own inflater of gzip files, its contract's ``files.inflate``)."""
    size = os.path.getsize(path)
    if size > limits.upload_bytes:
        raise ValueError(
            f"{name}: {size:,} bytes, more than the {mib(limits.upload_bytes)} MiB this "
            "Space takes (TASKEVAL_SPACE_MAX_UPLOAD_MB)"
        )
    chunks = _inflated(path, name, limits.inflated_bytes, inflate) if gzipped else _chunks(path)
    if count_lines(chunks, limits.rows) > limits.rows:
        raise ValueError(
            f"{name}: more than {limits.rows:,} lines, the most this Space reads "
            "(TASKEVAL_SPACE_MAX_ROWS)"
        )


def check_rows(rows: Sequence[Any], side: str, limits: Limits) -> None:
    if len(rows) > limits.rows:
        raise ValueError(
            f"{side}: {len(rows):,} rows, more than the {limits.rows:,} this Space scores "
            "(TASKEVAL_SPACE_MAX_ROWS)"
        )


def check_text(text: str | None, side: str, limits: Limits) -> None:
    if text is not None and len(text) > limits.paste_chars:
        raise ValueError(
            f"{side}: {len(text):,} characters pasted, more than the {limits.paste_chars:,} "
            "this Space reads (TASKEVAL_SPACE_MAX_PASTE_MB): upload a file instead"
        )


# ---------------------------------------------------------------------------------------------
# Messages


# JSON parsers add their own position inside the line ("line 1 column 5 (char 4)"), which
# contradicts the file's line number the message already gives. Linear: literal text first.
_PARSER_POSITION = re.compile(r":? line \d+ column \d+ \(char \d+\)")


def user_message(
    error: BaseException,
    uploads: Sequence[str],
    folders: dict[str, str] | None = None,
    limit: int = MAX_MESSAGE_CHARS,
    hint: str | None = None,
) -> str:
    """The error as the page shows it: uploads named as the user named them, no server paths,
    cut to ``limit`` characters. Linear in the length of the message, whatever it quotes.

    ``folders`` maps each temporary folder that holds a side's uploads to the side's name: its
    path means "the uploaded <side> files". ``hint``: a sentence naming the mistake behind the
    error (``taskeval.mistakes``), kept whole at the end however much of the rest is cut."""
    message = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
    if hint:
        message = message.replace(hint, "").rstrip()
        limit = max(limit - len(hint) - 2, 0)
    for folder, side in (folders or {}).items():
        message = message.replace(folder + os.sep, "")
        message = message.replace(folder, f"the uploaded {side} files")
    for path in sorted(uploads, key=len, reverse=True):  # a path before any path it starts
        message = message.replace(path, os.path.basename(path))
    message = _server_paths().sub(lambda m: os.path.basename(m.group()), message)
    return with_sentence(shorten(_PARSER_POSITION.sub("", message), limit), hint)


def _server_paths() -> re.Pattern[str]:
    """Any path under gradio's upload folder or the temporary folder (as given and resolved):
    what the uploads above did not name (another form of an upload's path, a library's own
    copy) is still shown as its last part only, never as the server's path."""
    temporary = tempfile.gettempdir()
    uploads = os.environ.get("GRADIO_TEMP_DIR") or os.path.join(temporary, "gradio")
    roots = {os.path.abspath(r) for r in (uploads, temporary)}
    roots |= {os.path.realpath(r) for r in roots}
    alternatives = "|".join(re.escape(r.rstrip(os.sep)) for r in sorted(roots, key=len)[::-1])
    return re.compile(f"(?:{alternatives}){re.escape(os.sep)}[^\\s'\",;:()\\[\\]]*")


# ---------------------------------------------------------------------------------------------
# The work


def parse_rows(text: str, side: str) -> list:
    """A JSON array, one JSON object (one row), or one JSON value per line (JSONL)."""
    import json

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
            except (ValueError, RecursionError) as e:
                raise refusal(e, line, side, number) from None
        return rows
    except (ValueError, RecursionError) as e:  # Python's own limits (digits, depth)
        raise refusal(e, text, side) from None
    if isinstance(rows, dict):
        return [rows]
    if not isinstance(rows, list):
        raise ValueError(
            f"{side}: expected rows (a JSON array, one JSON object, or one object per line), "
            f"got a JSON {type(rows).__name__}"
        )
    return rows


@functools.lru_cache(maxsize=8)
def metric(name: str, config: str | None) -> Any:
    """The evaluate metric ``name`` (config ``config``), loaded once per process."""
    import evaluate

    from .registry import metric_dir

    # By the script's path, not the folder's: evaluate looks for <folder name>.py in a folder,
    # and a Hub Space's folder is not named after its metric.
    return evaluate.load(str(metric_dir(name) / f"{name}.py"), config)


def uploaded_files(path: str, names: dict[str, str]) -> Iterator[tuple[str, str]]:
    """The files of one side (the members of a folder side), each with its name as uploaded
    (``names``: server path → the user's name)."""
    if os.path.isdir(path):
        for member in sorted(os.listdir(path)):
            full = os.path.join(path, member)
            yield full, names.get(full, member)
    else:
        yield path, names.get(path, os.path.basename(path))


def over_memory(what: str, limits: Limits) -> dict:
    """The reply to a request whose work ran out of its memory budget (its worker restarts)."""
    return {
        "error": f"{what} needs more than the {mib(limits.memory_bytes)} MiB of memory "
        "this Space gives one request (TASKEVAL_SPACE_MEMORY_MB)",
        "restart": True,
    }


def _read(task: dict, limits: Limits) -> dict:
    from .api import read_official
    from .registry import contract

    if task["source"] == "json":
        rows = {}
        for side in ("predictions", "references"):
            check_text(task[side], side, limits)
            rows[side] = parse_rows(task[side], side)
            check_rows(rows[side], side, limits)
        return rows
    files = contract(task["metric"]).files
    for side in ("references", "predictions"):
        if task[side] is None:
            continue
        gzip = getattr(files, side).gzip
        for path, name in uploaded_files(task[side], task["names"]):
            check_file(path, name, gzip and ".gz" in name, limits, files.inflate)
    return read_official(
        task["metric"], references=task["references"], predictions=task["predictions"]
    )


def run(task: dict, limits: Limits | None = None) -> dict:
    """One request's computation: ``{"result": ..., "bounds": ...}`` (``result`` None when
    ``scores`` is false) or ``{"error": message}``.

    ``task``: ``metric``, ``config``, ``options``, ``source`` ("files" or "json"),
    ``predictions`` and ``references`` (paths, or pasted text), ``names`` (each upload's path →
    the name the user gave it), ``folders`` (temporary folder → side), ``with_interval``,
    ``scores``.
    """
    limits = limits or Limits()
    try:
        inputs = _read(task, limits)
        result = None
        if task.get("scores", True):  # else the intervals alone, the scores already shown
            result = metric(task["metric"], task["config"]).compute(
                **inputs, **task["options"], details=True
            )
        bounds = None
        if task["with_interval"]:
            from .compare import intervals

            bounds = intervals(
                task["metric"], inputs, config_name=task["config"], workers=1, **task["options"]
            )
        return {"result": result, "bounds": bounds}
    except MemoryError:
        return over_memory("the computation", limits)
    except Exception as e:  # a ValueError is the metric explaining bad input
        uploads = [p for p in (task["predictions"], task["references"]) if task["source"] != "json"]
        return {
            "error": user_message(
                e,
                [*task["names"], *[p for p in uploads if p]],
                task["folders"],
                limits.message_chars,
                _mistake(task) if isinstance(e, ValueError) else None,
            )
        }


def _mistake(task: dict) -> str | None:
    """The sentence naming the mistake behind a refusal of uploaded files, if they show one."""
    if task["source"] == "json":
        return None
    from .mistakes import hint

    return hint(task["metric"], task["references"], task["predictions"])


def _virtual_size() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _limit_memory(budget: int) -> None:
    """Address space: what the process holds now (interpreter, libraries) plus ``budget``."""
    try:
        import resource
    except ImportError:  # not on this system: the time budget still holds
        return
    now = _virtual_size()
    if now is not None:
        resource.setrlimit(resource.RLIMIT_AS, (now + budget, now + budget))


def main(argv: Sequence[str]) -> None:
    """The worker process: ``argv`` = task pipe fd, reply pipe fd, metric to load first."""
    from multiprocessing.connection import Connection

    tasks = Connection(int(argv[0]), writable=False)
    replies = Connection(int(argv[1]), readable=False)
    os.dup2(2, 1)  # what libraries print goes to the log, never into the reply pipe
    sys.stdout = sys.stderr
    limits = Limits()
    os.environ.setdefault("TASKEVAL_MAX_LINE_BYTES", str(limits.line_bytes))
    if len(argv) > 2 and argv[2]:
        metric(argv[2], None)
        from .compare import intervals  # noqa: F401  (imported before the budget is set)
    from .space_check_worker import run_check  # the "Check a submission" panel's tasks

    _limit_memory(limits.memory_bytes)
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):  # the server is gone
            return
        reply = (run_check if task.get("kind") == "check" else run)(task, limits)
        try:
            replies.send(reply)
        except MemoryError:
            replies.send({"error": "the result is too large to send", "restart": True})
        except (BrokenPipeError, OSError):
            return
