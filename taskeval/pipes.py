"""The command line and streams: its reader going away (stdout closed early, as by ``| head``),
and files that can be read only once (a pipe, process substitution, a named FIFO)."""

from __future__ import annotations

import os
import stat
import sys

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from typing import Any


def silence_stdout() -> None:
    """After a ``BrokenPipeError``: nothing more to say, and nothing for Python to complain about
    when it flushes stdout at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


_FILE_OPTIONS = ("--predictions", "--references", "--inputs")
_CHUNK = 1 << 20


def settle_streams(argv: list[str]) -> list[str]:
    """``argv`` with every file it names (the values of ``--predictions``, ``--references`` and
    ``--inputs``) made readable again and again: the readers open a file more than once (a fast
    path, then the checking one), and a pipe gives its content to the first only. A stream is
    read once, whole, into a temporary file (unlinked at once: nothing is left behind). Where
    the argument names a descriptor (``/dev/stdin``, ``/dev/fd/63`` of process substitution),
    the file takes the descriptor's place, so that the argument, and every message naming it,
    stays the user's; a named FIFO's argument becomes the file's descriptor."""
    out = list(argv)
    taking = False
    for i, arg in enumerate(argv):
        if arg.startswith("-"):
            taking = arg.split("=", 1)[0] in _FILE_OPTIONS
            if "=" in arg and taking:
                option, value = arg.split("=", 1)
                out[i] = f"{option}={_settled(value)}"
                taking = False
            continue
        if taking:
            out[i] = _settled(arg)
    return out


def _descriptor(path: str) -> int | None:
    """The descriptor of this process that ``path`` names (/dev/stdin, /dev/fd/N,
    /proc/self/fd/N), or None."""
    if path == "/dev/stdin":
        return 0
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        number = path.removeprefix(prefix)
        if number != path and number.isdigit() and number.isascii():
            return int(number)
    return None


def settled(path: Any) -> Any:
    """``path`` (a ``str`` or ``PathLike``) readable again and again (see ``settle_streams``);
    anything else as it is."""
    if isinstance(path, (str, os.PathLike)):
        text = os.fspath(path)
        if isinstance(text, str):
            found = _settled(text)
            return path if found == text else found
    return path


def _settled(path: str) -> str:
    descriptor = _descriptor(path)
    try:
        mode = os.fstat(descriptor).st_mode if descriptor is not None else os.stat(path).st_mode
    except (OSError, ValueError):
        return path  # the readers say what is wrong with it
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        # Files, folders and devices (/dev/zero gives the same again) are read as they are.
        return path
    import tempfile

    copy = tempfile.TemporaryFile()
    if descriptor is not None:
        _copy(descriptor, copy)
        os.dup2(copy.fileno(), descriptor)  # the descriptor now reads the whole copy, each time
        copy.close()
        return path
    with open(path, "rb", buffering=0) as stream:  # a named FIFO: opened once
        _copy(stream.fileno(), copy)
    _kept.append(copy)
    return f"/dev/fd/{copy.fileno()}"


_kept: list = []  # the copies of named FIFOs, open until the process ends


def _copy(source: int, copy) -> None:
    """The rest of ``source``'s content written to the file ``copy``, left at its start; the
    copy ends with a line longer than the readers take (they refuse it there, with their own
    message), so an endless line never fills the disk."""
    import importlib

    # The readers' own limit. Imported by name: only the command line and the API meet
    # streams, and a Space exported with this module carries no taskeval._metrics.
    limit = importlib.import_module("taskeval._metrics._shared.jsonl").max_line_bytes()
    line = 0  # bytes of the last line so far
    while chunk := os.read(source, _CHUNK):
        copy.write(chunk)
        end = chunk.rfind(b"\n")
        line = line + len(chunk) if end < 0 else len(chunk) - end - 1
        if line > limit:
            break
    copy.flush()
    copy.seek(0)
