"""Official JSONL files, read as the official scorers read them: one JSON value per line, a blank
line is an error, a repeated key keeps its last value.

The official scorers open their JSONL files in text mode (``open(path)``, then ``for line in f``
and ``json.loads(line)``): a line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (universal
newlines), the text must be UTF-8, and every JSON number and string is read by Python's ``json``
(integers of any size, escaped lone surrogates, ``NaN``). orjson parses the same lines several
times faster but reads integers outside [-2**63, 2**64) as floats and refuses lone surrogates and
``NaN``, so it is used only on lines it reads exactly; the others go to the standard library.

Linked into the metric folders whose official files are JSONL; only their ``inputs`` modules
(the package's readers) use it, never the metric scripts.
"""

import gc
import json
import re
from collections.abc import Iterable, Iterator
from os import PathLike
from typing import Any

try:  # the same JSON, parsed several times faster, when orjson is installed (taskeval requires it)
    from orjson import JSONDecodeError as _FastError
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - the folder alone needs only the standard library
    _FastError = ValueError
    _fast_loads = json.loads

_CHUNK = 1 << 22  # bytes per read
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


def loads_text_line(line: bytes) -> Any:
    """``json.loads`` of one line of a UTF-8 text-mode file, with orjson wherever it agrees.

    Raises ``ValueError`` (``UnicodeDecodeError`` and ``JSONDecodeError`` are ones) or
    ``RecursionError``, as ``json.loads`` does.
    """
    if not _LONG_DIGITS.search(line):
        try:
            return _fast_loads(line)
        except _FastError:
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


def read_jsonl(path: str | PathLike) -> list[Any]:
    """The JSON value of every line; a ``ValueError`` names the file and line of a bad one."""
    rows = []
    collecting = gc.isenabled()
    # Parsing makes millions of small lists and dicts and no cycles: the collector's passes over
    # them would cost several times the parsing.
    gc.disable()
    try:
        with open(path, "rb") as f:
            for number, data, start, end in iter_lines(iter(lambda: f.read(_CHUNK), b""), True):
                line = data[start:end]
                try:
                    rows.append(loads_text_line(line))
                except (ValueError, RecursionError) as e:
                    raise line_error(path, number, line, e) from None
    finally:
        if collecting:
            gc.enable()
    return rows
