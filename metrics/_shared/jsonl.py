"""Official JSONL files, read as the official scorers read them: one JSON value per line, a blank
line is an error, a repeated key keeps its last value.

The official scorers open their JSONL files in text mode (``open(path)``, then ``for line in f``
and ``json.loads(line)``): a line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (universal
newlines), the text must be UTF-8, and every JSON number and string is read by Python's ``json``
(integers of any size, escaped lone surrogates, ``NaN``). orjson parses the same lines several
times faster but reads integers outside [-2**63, 2**64) as floats and refuses lone surrogates and
``NaN``, so it is used only on lines it reads exactly; the others go to the standard library.
It is imported only for a file big enough to repay its import (a few milliseconds).

Neither is the ``json`` package imported for a line it would read without complaint: its import
(with the regular expressions it compiles) costs more than reading a small file. Such a line is
read by the very C scanner ``json.loads`` runs, with ``json.loads``'s settings; any other line,
and the lines of a Python without that scanner, go to ``json.loads`` itself, for its value or
its error.

Linked into the metric folders whose official files are JSONL (and TyDiQA-GoldP's, whose JSON
reader names a file that is not text, ``not_text``, in the same words); only their ``inputs``
and ``check`` modules use it, never the metric scripts.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

_CHUNK = 1 << 22  # bytes per read
_SMALL = 1 << 20  # bytes: below this, importing orjson costs more than it saves
_MAX_LINE = 256 << 20  # bytes: the default longest line (see max_line_bytes)
_GZIP_MAGIC = b"\x1f\x8b"
_fast_loads: Callable[[bytes], Any] | None = None
_long_digits: Callable[[bytes], Any] | None = None  # set with _fast_loads


class _JsonLoadsSettings:
    """What ``json.loads`` gives its scanner: the settings of ``json.JSONDecoder()``."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        # NaN, Infinity and -Infinity are json's own float objects (one NaN object for a file,
        # as ``x in list`` may tell), so json is imported for a line that holds one.
        import json

        return json.JSONDecoder().parse_constant(name)


try:
    from _json import make_scanner as _make_scanner
except ImportError:  # no C accelerator (another Python): json.loads reads every line
    _scan = None
else:
    _scan = _make_scanner(_JsonLoadsSettings)


def loads(text: str) -> Any:
    """``json.loads(text)``: the same value, or the same error."""
    if _scan is not None:
        try:
            value, end = _scan(text, 0)
        except (StopIteration, ValueError, RecursionError, SystemError):
            # Leading whitespace, a byte order mark or an error: json.loads decides. (On some
            # errors, such as ``{bad``, the scanner of this Python fails to set its exception
            # and raises a SystemError instead.)
            pass
        else:
            if end == len(text):
                return value
    import json

    return json.loads(text)


def max_line_bytes() -> int:
    """The longest line read, in bytes: ``TASKEVAL_MAX_LINE_BYTES``, else 256 MiB (TyDi QA's
    longest document lines are a few MiB). A longer line is refused before it fills memory."""
    try:
        return max(int(os.environ["TASKEVAL_MAX_LINE_BYTES"]), 1)
    except (KeyError, ValueError):
        return _MAX_LINE


def _line_refusal(path: Any, number: int, what: str) -> ValueError:
    where = f"{path}, line {number}" if path is not None else f"line {number}"
    return ValueError(f"{where}: {what}")


def iter_lines(
    chunks: Iterable[bytes], universal: bool, path: Any = None
) -> Iterator[tuple[int, bytes, int, int]]:
    """``(line number, buffer, start, end)`` of each line of the bytes ``chunks``.

    ``universal``: lines as a text-mode file gives them (``\\n``, ``\\r\\n`` and a lone ``\\r``
    each end a line); otherwise as a binary file gives them (only ``\\n``, as ``gzip.GzipFile``).
    ``buffer[start:end]`` is the line without its line break; the last line needs none.

    Linear in time and memory whatever the line lengths: the unfinished line's pieces are kept
    apart and joined once, when the line ends. A line holding a NUL byte (never JSON text: a
    binary file; UTF-16 text is named as such) or longer than ``max_line_bytes()`` is refused
    with a ``ValueError`` naming ``path`` and the line as soon as it is met, so that
    ``/dev/zero`` ends at once.
    """
    limit = max_line_bytes()
    number = 0
    pending: list[bytes] = []  # the unfinished line, in pieces
    pending_size = 0
    held = b""  # a "\r" that may be the first half of a "\r\n" split between two chunks
    for chunk in chunks:
        if not number and not pending and _utf16(chunk[:4]):  # its NULs: not "binary data"
            raise _line_refusal(path, 1, UTF16)
        if held:
            chunk, held = held + chunk, b""
        if universal and b"\r" in chunk:
            if chunk[-1] == 0x0D:
                chunk, held = chunk[:-1], b"\r"
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        nul = chunk.find(b"\0")  # one scan of the chunk; -1 almost always
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            number += 1
            if 0 <= nul < end:
                raise _binary(path, number)
            if pending:  # joined with its line break, as a line within a chunk has it
                data = b"".join((*pending, chunk[start : end + 1]))
                pending, pending_size = [], 0
                if len(data) - 1 > limit:
                    raise _too_long(path, number, limit)
                yield number, data, 0, len(data) - 1
            else:
                if end - start > limit:
                    raise _too_long(path, number, limit)
                yield number, chunk, start, end
            start = end + 1
        if start < len(chunk):
            if nul >= start:
                raise _binary(path, number + 1)
            pending.append(chunk[start:] if start else chunk)
            pending_size += len(chunk) - start
            if pending_size > limit:
                raise _too_long(path, number + 1, limit)
    if held:  # a final lone "\r" ends the last line
        pending.append(b"")
    if pending:
        data = b"".join(pending)
        yield number + 1, data, 0, len(data)


def _too_long(path: Any, number: int, limit: int) -> ValueError:
    return _line_refusal(
        path,
        number,
        f"longer than {limit:,} bytes (the limit, TASKEVAL_MAX_LINE_BYTES): is this a JSON "
        "Lines file?",
    )


def _binary(path: Any, number: int) -> ValueError:
    return _line_refusal(
        path, number, "a NUL byte: binary data, not JSON Lines text (one JSON value per line)"
    )


def fast_parser() -> Callable[[bytes], Any] | None:
    """``orjson.loads``, imported on first use, or None where orjson is not installed (the metric
    folder alone needs only the standard library; taskeval requires orjson)."""
    global _fast_loads, _long_digits
    if _fast_loads is None:
        try:
            from orjson import loads as fast
        except ImportError:
            return None
        import re

        # 19 digits in a row may be an integer orjson turns into a float (2**64 has 20, -2**63-1
        # has 19); shorter integers and any float it reads as Python does.
        _long_digits = re.compile(rb"[0-9]{19}").search
        _fast_loads = fast
    return _fast_loads


def loads_text_line(line: bytes, fast: Callable[[bytes], Any] | None = None) -> Any:
    """``json.loads`` of one line of a UTF-8 text-mode file, with the ``fast`` parser (as
    ``fast_parser`` gives it) wherever it agrees.

    Raises ``ValueError`` (``UnicodeDecodeError`` and ``JSONDecodeError`` are ones) or
    ``RecursionError``, as ``json.loads`` does.
    """
    if fast is not None and not _long_digits(line):
        try:
            return fast(line)
        except ValueError:  # orjson's JSONDecodeError is one
            pass  # refused: the standard library decides (lone surrogates, NaN, or an error)
    return loads(line.decode("utf-8"))


def line_error(path: Any, number: int, line: bytes, error: BaseException) -> ValueError:
    """The ``ValueError`` for a line that is not one JSON value, naming the common mistakes."""
    mistake = file_mistake(line) if number == 1 else None
    if mistake is not None:
        return ValueError(f"{path}, line 1: {mistake}")
    return ValueError(f"{path}, line {number}: {value_problem(line, error)}")


def value_problem(line: bytes, error: BaseException) -> str:
    """What is wrong with a line ``json.loads`` refused with ``error``, in plain words."""
    if not line.strip():
        return "a blank line (one JSON value per line)"
    if isinstance(error, UnicodeDecodeError):
        return f"not UTF-8 text ({error})"
    if isinstance(error, RecursionError):
        return "JSON nested too deeply to be read"
    if "integer string conversion" in str(error):  # Python's bound on the digits of an int
        import sys

        return (
            f"an integer of more than {sys.get_int_max_str_digits():,} digits, more than "
            "Python's json (and so the official scorer) reads"
        )
    return f"not a JSON value ({error})"


UTF16 = "the file is UTF-16 text, not UTF-8: save it as UTF-8 (the official scorer reads UTF-8)"
_UTF8_BOM = b"\xef\xbb\xbf"


def _utf16(head: bytes) -> bool:
    """Whether a file's first bytes are UTF-16: its byte order mark, or JSON's first ASCII
    characters each beside a NUL byte (no text of another encoding starts so)."""
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return head[:4] != b"\xff\xfe\0\0"  # (that one is UTF-32's mark)
    return len(head) >= 4 and bool(
        (head[1] == head[3] == 0 and head[0] and head[2])
        or (head[0] == head[2] == 0 and head[1] and head[3])
    )


def not_text(head: bytes, form: str = "JSON Lines", *, gzipped: bool = False) -> str | None:
    """The sentence naming a file that is not UTF-8 ``form`` text as a whole, from its first
    bytes ``head`` (four are enough): UTF-16, a UTF-8 byte order mark, or gzip (unless it is read
    as gzip: ``gzipped``). None for any other file: its lines are read and named one by one. The
    one place these are named, for every reader (the JSON ones of metrics that read no lines
    too) and for ``taskeval check``."""
    if _utf16(head):
        return UTF16
    if head.startswith(_UTF8_BOM):
        return (
            "the file starts with a UTF-8 byte order mark (BOM), which the official scorer "
            "cannot read either: save it as UTF-8 without a BOM"
        )
    if head.startswith(_GZIP_MAGIC) and not gzipped:
        return f"a gzip file, not {form} text: decompress it first (gunzip)"
    return None


# A file that is one JSON array (on one line or many), in the same words wherever it is met.
ONE_ARRAY = (
    "the file is a JSON array, not JSON Lines: write one JSON object per line (for example "
    "with jq -c '.[]')"
)


def file_mistake(first_line: bytes) -> str | None:
    """What the whole file is, when its first line shows it is not JSON Lines text."""
    mistake = not_text(first_line)
    if mistake is None and first_line.lstrip().startswith(b"["):
        return ONE_ARRAY
    return mistake


def _text_rows(data: bytes) -> list[Any] | None:
    """The value of every line of a whole small file, or None if a line is not one JSON value
    (the line-by-line reading then names it)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if not lines[-1]:  # the last line's line break, or an empty file
        lines.pop()
    try:
        return [loads(line) for line in lines]
    except (ValueError, RecursionError):
        return None


def read_jsonl(path: str | os.PathLike) -> list[Any]:
    """The JSON value of every line; a ``ValueError`` names the file and line of a bad one."""
    rows = _read(path)
    if len(rows) == 1 and isinstance(rows[0], list):
        raise ValueError(f"{path}, line 1: {ONE_ARRAY}")
    return rows


def _read(path: str | os.PathLike) -> list[Any]:
    collecting = gc.isenabled()
    # Parsing makes millions of small lists and dicts and no cycles: the collector's passes over
    # them would cost several times the parsing.
    gc.disable()
    try:
        with open(path, "rb") as f:
            if f.peek(2)[:2] == _GZIP_MAGIC:  # compressed bytes hold NULs: say what it is first
                raise ValueError(f"{path}, line 1: {not_text(_GZIP_MAGIC)}")
            size = os.fstat(f.fileno()).st_size  # 0 for a pipe, read as it comes
            if 0 < size < min(_SMALL, max_line_bytes()):
                data = f.read()
                rows = _text_rows(data)
                if rows is not None:
                    return rows
                chunks: Iterable[bytes] = (data,)
                fast = None
            else:
                chunks = iter(lambda: f.read(_CHUNK), b"")
                fast = fast_parser() if size >= _SMALL else None
            rows = []
            for number, data, start, end in iter_lines(chunks, True, path):
                line = data[start:end]
                try:
                    rows.append(loads_text_line(line, fast))
                except (ValueError, RecursionError) as e:
                    raise line_error(path, number, line, e) from None
    finally:
        if collecting:
            gc.enable()
    return rows
