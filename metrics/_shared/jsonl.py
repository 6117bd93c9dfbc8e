"""Official JSONL files, read as the official scorers read them: one JSON value per line, a blank
line is an error, a repeated key keeps its last value.

Linked into the metric folders whose official files are JSONL; only their ``inputs`` modules
(the package's readers) use it, never the metric scripts.
"""

import gc
from os import PathLike
from typing import Any

try:  # the same JSON, parsed several times faster, when orjson is installed (taskeval requires it)
    from orjson import JSONDecodeError
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - the folder alone needs only the standard library
    from json import JSONDecodeError
    from json import loads as _loads


def read_jsonl(path: str | PathLike) -> list[Any]:
    """The JSON value of every line; a ``ValueError`` names the file and line of a bad one."""
    rows = []
    collecting = gc.isenabled()
    # Parsing makes millions of small lists and dicts and no cycles: the collector's passes over
    # them would cost several times the parsing.
    gc.disable()
    try:
        with open(path, "rb") as f:
            for number, line in enumerate(f, 1):
                try:
                    rows.append(_loads(line))
                except JSONDecodeError as e:
                    raise ValueError(f"{path}, line {number}: not a JSON value ({e})") from None
    finally:
        if collecting:
            gc.enable()
    return rows
