"""The work of a Space's "Check a submission" panel, run where the Space's computations run.

The uploads are held to the limits the page states (``space_worker.check_file``: upload size,
inflated size of a gzip file, lines), then ``taskeval.check`` reads them, in a worker process
with the Space's time and memory budgets (``space_pool``, ``space_worker.main``). The reply names
every file as the user named it, never by the server's copy, each line cut as the page's other
messages are (``space_worker.user_message``). Imports no gradio.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from .check import check, format_report
from .registry import contract
from .space_worker import Limits, check_file, over_memory, uploaded_files, user_message

# Problems listed in the page and in its JSON report (the report's counts are of them all).
SHOWN = 200
_GZIP_MAGIC = b"\x1f\x8b"
_JAVASCRIPT_INTEGERS = 2**53 - 1  # the largest integer a JavaScript number holds exactly


def _gzipped(path: str, name: str) -> bool:
    """Whether the check's readers inflate the file: gzip-named (as they decide) and gzip data
    (a file merely named so is counted as it is)."""
    if ".gz" not in name:
        return False
    try:
        with open(path, "rb") as f:
            return f.read(2) == _GZIP_MAGIC
    except OSError:
        return False


def _exact_in_javascript(value: Any) -> Any:
    """An id as the page's JSON viewer shows it exactly: an integer beyond 2**53 (TyDi QA's
    64-bit example ids), which JavaScript would round, as its decimal text."""
    if type(value) is int and abs(value) > _JAVASCRIPT_INTEGERS:
        return str(value)
    return value


def _uploaded(task: dict) -> Iterator[tuple[str, str]]:
    """Each file the check reads (the members of a folder side) with its name as uploaded."""
    for path in (task["predictions"], *task["inputs"], task["references"]):
        if path is not None:
            yield from uploaded_files(path, task["names"])


@contextlib.contextmanager
def _line_limit(limits: Limits) -> Iterator[None]:
    """The readers' line limit (``TASKEVAL_MAX_LINE_BYTES``) held at the one the page states
    while the check reads: a worker process starts with it set, a check run in the server's
    own process (no workers) is held to it too."""
    name = "TASKEVAL_MAX_LINE_BYTES"
    before = os.environ.get(name)
    os.environ[name] = str(limits.line_bytes)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def run_check(task: dict, limits: Limits | None = None) -> dict[str, Any]:
    """One Check request: ``{"summary", "problems", "report", "ok"}`` or ``{"error": message}``.

    ``task``: ``metric``; ``predictions`` (a file, or the temporary folder the uploads of a
    folder side were linked into), ``inputs`` (files) and ``references`` (or None); ``names``
    (each upload's path → the name the user gave it) and ``folders`` (temporary folder → side).
    ``summary`` is the report's summary line, ``problems`` the first ``SHOWN`` problems one per
    line (``format_report``), ``report`` its ``to_dict()`` with those problems (an id beyond
    2**53 as its decimal text).
    """
    limits = limits or Limits()
    uploads = [*task["names"], *(p for p in (task["predictions"], task["references"]) if p)]

    def named(text: str) -> str:
        return user_message(ValueError(text), uploads, task["folders"], limits.message_chars)

    try:
        inflate = contract(task["metric"]).files.inflate
        for path, name in _uploaded(task):
            check_file(path, name, _gzipped(path, name), limits, inflate)
        with _line_limit(limits):
            report = check(task["metric"], task["predictions"], task["inputs"], task["references"])
        summary = report.summary()
        listed = format_report(report, limit=SHOWN).removesuffix(summary).rstrip("\n")
        problems = "\n".join(named(line) for line in listed.split("\n")) if listed else ""
        data = report.to_dict()
        data["problems"] = [
            {
                **p,
                "file": p["file"] and named(p["file"]),
                "id": _exact_in_javascript(p["id"]),
                "message": named(p["message"]),
            }
            for p in data["problems"][:SHOWN]
        ]
        for side in ("predictions", "references"):
            data[side] = data[side] and named(data[side])
        data["inputs"] = [named(p) for p in data["inputs"]]
        return {"summary": named(summary), "problems": problems, "report": data, "ok": report.ok}
    except MemoryError:
        return over_memory("the check", limits)
    except Exception as e:  # a ValueError is the check or a limit explaining the input
        return {"error": user_message(e, uploads, task["folders"], limits.message_chars)}
