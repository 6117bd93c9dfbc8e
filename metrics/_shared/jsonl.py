"""Official JSONL files, read as the official scorers read them: one JSON value per line, a blank
line is an error, a repeated key keeps its last value.

The official scorers open their JSONL files in text mode (``open(path)``, then ``for line in f``
and ``json.loads(line)``): a line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (universal
newlines), the text must be UTF-8, and every JSON number and string is read by Python's ``json``
(integers of any size, escaped lone surrogates, ``NaN``). orjson parses the same lines several
times faster but reads integers outside [-2**63, 2**64) as floats and refuses lone surrogates and
``NaN``, so it is used only on lines it reads exactly; the others go to the standard library.
It is imported only for a file big enough to repay its import (a few milliseconds).

Linked into the metric folders whose official files are JSONL; only their ``inputs`` modules
(the package's readers) use it, never the metric scripts.
"""

from __future__ import annotations

import gc
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

_CHUNK = 1 << 22  # bytes per read
_SMALL = 1 << 20  # bytes: below this, importing orjson costs more than it saves
_fast_loads: Callable[[bytes], Any] | None = None
# 19 digits in a row may be an integer orjson turns into a float (2**64 has 20, -2**63-1 has 19);
# shorter integers and any float it reads as Python does.
_LONG_DIGITS = re.compile(rb"[0-9]{19}")


def iter_lines(chunks: Iterable[bytes], universal: bool) -> Iterator[tuple[int, bytes, int, int]]:
    """``(line number, buffer, start, end)`` of each line of the bytes ``chunks``, not copied out.

    ``universal``: lines as a text-mode file gives them (``\\n``, ``\\r\\n`` and a lone ``\\r``
    each end a line); otherwise as a binary file gives them (only ``\\n``, as ``gzip.GzipFile``).
    ``buffer[start:end]`` is the line without its line break; the last line needs none.
    """
    number = 0
    rest = b""
    for chunk in chunks:
        data = rest + chunk if rest else chunk
        held = b""
        if universal and b"\r" in data:
            if data[-1] == 0x0D:  # maybe the first half of a "\r\n" split between two chunks
                data, held = data[:-1], b"\r"
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        start = 0
        while (end := data.find(b"\n", start)) != -1:
            number += 1
            yield number, data, start, end
            start = end + 1
        rest = data[start:] + held if held or start else data
    if universal and rest.endswith(b"\r"):
        rest = rest[:-1] + b"\n"
    if rest:
        start = 0
        while (end := rest.find(b"\n", start)) != -1:
            number += 1
            yield number, rest, start, end
            start = end + 1
        if start < len(rest):
            yield number + 1, rest, start, len(rest)


def fast_parser() -> Callable[[bytes], Any]:
    """``orjson.loads``, imported on first use; ``json.loads`` where orjson is not installed (the
    metric folder alone needs only the standard library; taskeval requires orjson)."""
    global _fast_loads
    if _fast_loads is None:
        try:
            from orjson import loads
        except ImportError:
            loads = json.loads
        _fast_loads = loads
    return _fast_loads


def loads_text_line(line: bytes, fast: Callable[[bytes], Any] | None = None) -> Any:
    """``json.loads`` of one line of a UTF-8 text-mode file, with the ``fast`` parser (see
    ``fast_parser``) wherever it agrees.

    Raises ``ValueError`` (``UnicodeDecodeError`` and ``JSONDecodeError`` are ones) or
    ``RecursionError``, as ``json.loads`` does.
    """
    if fast is not None and not _LONG_DIGITS.search(line):
        try:
            return fast(line)
        except ValueError:  # orjson's JSONDecodeError is one
            pass  # refused: the standard library decides (lone surrogates, NaN, or an error)
    return json.loads(line.decode("utf-8"))


def line_error(path: Any, number: int, line: bytes, error: BaseException) -> ValueError:
    """The ``ValueError`` for a line that is not one JSON value."""
    if not line.strip():
        return ValueError(f"{path}, line {number}: a blank line (one JSON value per line)")
    if isinstance(error, UnicodeDecodeError):
        return ValueError(f"{path}, line {number}: not UTF-8 text ({error})")
    if isinstance(error, RecursionError):
        return ValueError(f"{path}, line {number}: JSON nested too deeply to be read")
    return ValueError(f"{path}, line {number}: not a JSON value ({error})")


def read_jsonl(path: str | os.PathLike) -> list[Any]:
    """The JSON value of every line; a ``ValueError`` names the file and line of a bad one."""
    rows = []
    collecting = gc.isenabled()
    # Parsing makes millions of small lists and dicts and no cycles: the collector's passes over
    # them would cost several times the parsing.
    gc.disable()
    try:
        with open(path, "rb") as f:
            fast = fast_parser() if os.fstat(f.fileno()).st_size >= _SMALL else None
            for number, data, start, end in iter_lines(iter(lambda: f.read(_CHUNK), b""), True):
                line = data[start:end]
                try:
                    rows.append(loads_text_line(line, fast))
                except (ValueError, RecursionError) as e:
                    raise line_error(path, number, line, e) from None
    finally:
        if collecting:
            gc.enable()
    return rows
