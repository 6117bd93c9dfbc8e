"""The fast gold reader of ``tydiqa``: ``example_id``, ``language`` and ``annotations`` picked
out of a gold line without decoding the rest (the document text and HTML are most of its bytes).

Each line's top-level object is walked member by member, a string skipped up to its closing
quote and a container up to its end, so the fields picked are the top-level ones and a repeated
key keeps its last value, as in ``json.loads``; a line of unusual shape is parsed whole by
``json``. Only reading: the rows it gives are checked by ``rows.normalize_reference``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .file_lines import json_value, loads_text
from .plain_values import shown

_GOLD_FIELDS = (b"example_id", b"language", b"annotations")
_CLOSE = {0x5B: b"]", 0x7B: b"}"}
_ATTEMPTS = 4  # closing brackets tried as a container's end before the regular expression
# JSON values of bounded depth, as one regular expression: skips a container of depth at most 3
# in C. Every alternative starts with its own character and a string ends at the first
# unescaped quote, so on a valid line a match ends exactly where the value does.
_W = rb"[ \t\r\n]*"
_STRING = rb'"[^"\\]*(?:\\.[^"\\]*)*"'
_SCALAR = _STRING + rb"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null"


def _nested(inner: bytes) -> bytes:
    value = rb"(?:" + inner + rb")"
    member = _STRING + _W + rb":" + _W + value
    array = rb"\[" + _W + rb"(?:" + value + _W + rb"(?:," + _W + value + _W + rb")*)?\]"
    obj = rb"\{" + _W + rb"(?:" + member + _W + rb"(?:," + _W + member + _W + rb")*)?\}"
    return _SCALAR + rb"|" + array + rb"|" + obj


_VALUE = re.compile(_nested(_nested(_nested(_SCALAR))), re.DOTALL)


def _string_end(data: bytes, i: int, end: int) -> int:
    """Just after the string that opens at ``data[i]`` (a quote), or -1.

    A quote closes the string unless an odd number of backslashes precedes it.
    """
    k = i
    while (k := data.find(b'"', k + 1, end)) != -1:
        b = k - 1
        while data[b] == 0x5C:  # a backslash; data[i] is a quote, so this stops
            b -= 1
        if (k - b) % 2:
            return k + 1
    return -1


def _value_end(data: bytes, j: int, end: int, loads: Callable[[bytes], Any]) -> tuple[int, Any]:
    """Just after the value that starts at ``data[j]``, and the value if it was decoded; -1.

    On a valid line, an array ends at its first ``]`` when no ``[`` comes between and no
    backslash either, with an even number of quotes (each then opens or closes a string, so that
    ``]`` is outside every string); the annotations and passage candidates of the dev file take
    this way. Otherwise a container ends at the first of its closing brackets where ``loads``
    accepts the slice (a value that parses as a whole closes where the true one does), or where
    a regular expression for values of depth at most 3 says.
    """
    close = _CLOSE.get(data[j])
    if close is not None:
        k = data.find(close, j, end)
        if (
            close == b"]"
            and k > 0
            and data.find(b"[", j + 1, k) < 0
            and data.find(b"\\", j, k) < 0
            and data.count(b'"', j, k) % 2 == 0
        ):
            return k + 1, None
        for _ in range(_ATTEMPTS):
            if k < 0:
                break
            try:
                return k + 1, loads(data[j : k + 1])
            except (ValueError, RecursionError):
                k = data.find(close, k + 1, end)
    elif data[j] == 0x22:  # '"'
        return _string_end(data, j, end), None
    m = _VALUE.match(data, j, end)
    return (m.end() if m else -1), None


# A member's key (without escapes) and its colon: the first after '{', the next after ','.
_FIRST_KEY = re.compile(rb'\{[ \t\r\n]*"([^"\\]*)"[ \t\r\n]*:[ \t\r\n]*')
_NEXT_KEY = re.compile(rb'[ \t\r\n]*,[ \t\r\n]*"([^"\\]*)"[ \t\r\n]*:[ \t\r\n]*')
_END = re.compile(rb"[ \t\r\n]*\}[ \t\r\n]*")  # the end of the top-level object
_INT = re.compile(rb"-?(?:0|[1-9][0-9]*)")  # an int, which json.loads reads with int()
_PLAIN_STRING = re.compile(rb'"[^"\\\x00-\x1f]*"')  # a string without escapes or controls


def _decode(data: bytes, i: int, k: int, loads: Callable[[bytes], Any]) -> Any:
    """``loads(data[i:k])``, without the json machinery for a short int or a plain string."""
    if _INT.fullmatch(data, i, k):
        return int(data[i:k])
    if _PLAIN_STRING.fullmatch(data, i, k):
        # json decodes a text-mode line as strict UTF-8, a binary one with surrogatepass
        errors = "strict" if loads is loads_text else "surrogatepass"
        return data[i + 1 : k - 1].decode("utf-8", errors)
    return loads(data[i:k])


def gold_fields_fast(
    data: bytes, start: int, end: int, loads: Callable[[bytes], Any]
) -> tuple[Any, Any, Any] | None:
    """``(example_id, language, annotations)`` of a gold line, or None to take the slow path.

    Walks every member of the line's top-level object, skipping each value (a string up to its
    closing quote, a container up to its end) without decoding the document text, so each field
    picked is proven top-level and a repeated key keeps its last value, as in ``json.loads``.
    Only the three values kept are decoded, as ``json`` decodes them. A key with an escape, a
    value of unusual shape or anything unexpected sends the line to the slow path.
    """
    found: dict[bytes, tuple[int, int, Any]] = {}
    m = _FIRST_KEY.match(data, start, end)
    while m:
        j = m.end()
        if j >= end:
            return None
        if data[j] == 0x22:  # a string: most values
            k, value = _string_end(data, j, end), None
        else:
            k, value = _value_end(data, j, end, loads)
        if k < 0:
            return None
        key = m.group(1)
        if key in _GOLD_FIELDS:
            found[key] = (j, k, value)
        m = _NEXT_KEY.match(data, k, end)
        if m is None and not _END.fullmatch(data, k, end):
            return None
    if len(found) != 3:
        return None  # the slow path names the missing field
    values = []
    for field in _GOLD_FIELDS:
        i, k, value = found[field]
        if value is None:
            try:
                value = _decode(data, i, k, loads)
            except (ValueError, RecursionError):
                return None
        values.append(value)
    return values[0], values[1], values[2]


def gold_fields(
    data: bytes, start: int, end: int, where: str, loads: Callable[[bytes], Any]
) -> tuple[Any, Any, Any]:
    fields = gold_fields_fast(data, start, end, loads) if start < end else None
    if fields is not None:
        return fields
    record = json_value(data[start:end], where, loads)
    if not isinstance(record, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
    for field in ("example_id", "language", "annotations"):
        if field not in record:
            raise ValueError(f"{where}: missing field {shown(field)}")
    return record["example_id"], record["language"], record["annotations"]
