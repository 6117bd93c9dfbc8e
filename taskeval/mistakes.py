"""Common mistakes named: swapped predictions and references, a file of another task.

When a reader refuses a file, its message says where (file, line, field). That the whole file
is the wrong one — the gold given as predictions, a FEVER file given to SciFact — is plainer
at a glance than from a row: this module adds one sentence saying so.

Each metric's contract declares how to tell its files (``Files.kinds``: its task's name and a
``recognise(sample)`` that says ``"references"`` or ``"predictions"`` with the evidence, or
None). On a refusal the file given for each side is sampled once, cheaply (the first JSON value
of its first ``PREFIX_BYTES`` bytes, inflated when it is gzip; the names in a folder), and the
contracts are asked what it is. Nothing here runs unless an error was raised, and it never
raises itself: a hint is an addition to a message, never a new error.
"""

from __future__ import annotations

import os
import stat
import zlib
from collections.abc import Sequence

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    from .contract import FileKinds

__all__ = [
    "PREFIX_BYTES",
    "Sample",
    "add_hint",
    "hint",
    "sample",
    "with_sentence",
]

PREFIX_BYTES = 1 << 16  # of a file (inflated, for gzip): a JSON record's opening fields
MAX_NAMES = 500  # names listed in a folder, at most three levels deep
_SIDES = ("predictions", "references")
_SAYS = {"references": "the gold references", "predictions": "predictions"}


class Sample:
    """What a recogniser sees of a path: ``name`` (the last part of the path), ``folder``,
    ``names`` (a folder's files and folders as relative ``/``-separated paths, at most
    ``MAX_NAMES``, three levels deep) and ``first``: a file's first JSON value as far as its
    first ``PREFIX_BYTES`` bytes go (a value cut there keeps what was read: an object its members
    so far, the last one cut short), or None when the file does not start with JSON; for a
    folder, that of its only file, if it holds one file and nothing else."""

    __slots__ = ("first", "folder", "name", "names")

    def __init__(
        self, name: str, *, folder: bool = False, names: Sequence[str] = (), first: Any = None
    ) -> None:
        self.name, self.folder, self.names, self.first = name, folder, tuple(names), first


# ---------------------------------------------------------------------------------------------
# Reading a sample


class _Invalid(Exception):
    """The text is not JSON."""


class _Cut(Exception):
    """The text ended inside a value: ``value`` is what was read of it."""

    def __init__(self, value: Any) -> None:
        self.value = value


_WHITESPACE = " \t\n\r"
_LITERALS = {"true": True, "false": False, "null": None, "NaN": float("nan")}
_MAX_DEPTH = 64


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WHITESPACE:
        i += 1
    return i


def _string(text: str, i: int) -> tuple[str, int]:
    from json.decoder import scanstring

    try:
        return scanstring(text, i + 1)
    except ValueError:
        if text.find('"', i + 1) == -1:  # unterminated: the prefix ended inside it
            raise _Cut(text[i + 1 :]) from None
        raise _Invalid from None


def _scalar(text: str, i: int) -> tuple[Any, int]:
    from json.scanner import NUMBER_RE

    for word, value in _LITERALS.items():
        if text.startswith(word, i):
            return value, i + len(word)
        if len(text) - i < len(word) and word.startswith(text[i:]):
            raise _Cut(None)
    match = NUMBER_RE.match(text, i)
    if match is None:
        raise _Invalid
    if match.end() == len(text):
        raise _Cut(None)  # perhaps more digits beyond the prefix
    number, fraction, exponent = match.groups()
    if fraction or exponent:
        return float(number + (fraction or "") + (exponent or "")), match.end()
    return int(number), match.end()


def _value(text: str, i: int, depth: int) -> tuple[Any, int]:
    """The JSON value at ``text[i]`` and the index after it; ``_Cut`` where the text ends."""
    i = _skip(text, i)
    if i >= len(text):
        raise _Cut(None)
    if depth > _MAX_DEPTH:
        raise _Invalid
    head = text[i]
    if head == '"':
        return _string(text, i)
    if head == "{":
        return _object(text, i + 1, depth)
    if head == "[":
        return _array(text, i + 1, depth)
    return _scalar(text, i)


def _object(text: str, i: int, depth: int) -> tuple[dict, int]:
    out: dict = {}
    while True:
        i = _skip(text, i)
        if i >= len(text):
            raise _Cut(out)
        if text[i] == "}" and not out:
            return out, i + 1
        if text[i] != '"':
            raise _Invalid
        try:
            key, i = _string(text, i)
        except _Cut:
            raise _Cut(out) from None
        i = _skip(text, i)
        if i >= len(text):
            raise _Cut(out)
        if text[i] != ":":
            raise _Invalid
        try:
            out[key], i = _value(text, i + 1, depth + 1)
        except _Cut as cut:
            out[key] = cut.value
            raise _Cut(out) from None
        i = _skip(text, i)
        if i >= len(text):
            raise _Cut(out)
        if text[i] == "}":
            return out, i + 1
        if text[i] != ",":
            raise _Invalid
        i += 1


def _array(text: str, i: int, depth: int) -> tuple[list, int]:
    out: list = []
    while True:
        i = _skip(text, i)
        if i >= len(text):
            raise _Cut(out)
        if text[i] == "]" and not out:
            return out, i + 1
        try:
            item, i = _value(text, i, depth + 1)
        except _Cut as cut:
            out.append(cut.value)
            raise _Cut(out) from None
        out.append(item)
        i = _skip(text, i)
        if i >= len(text):
            raise _Cut(out)
        if text[i] == "]":
            return out, i + 1
        if text[i] != ",":
            raise _Invalid
        i += 1


def first_value(text: str) -> Any:
    """The first JSON value of ``text``, which may be cut short anywhere (see ``Sample``); None
    when it does not start with one."""
    try:
        return _value(text, 0, 0)[0]
    except _Cut as cut:
        return cut.value
    except (_Invalid, ValueError, RecursionError):
        return None


def _prefix(path: str) -> bytes:
    with open(path, "rb") as f:
        data = f.read(PREFIX_BYTES)
    if data[:2] == b"\x1f\x8b":  # gzip: the start of what it holds
        try:
            data = zlib.decompressobj(wbits=31).decompress(data, PREFIX_BYTES)
        except zlib.error:
            return b""
    return data


def _names(folder: str) -> list[str]:
    names: list[str] = []

    def walk(path: str, prefix: str, depth: int) -> None:
        with os.scandir(path) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if len(names) >= MAX_NAMES:
                    return
                names.append(prefix + entry.name)
                if depth < 3 and entry.is_dir(follow_symlinks=True):
                    walk(entry.path, f"{prefix}{entry.name}/", depth + 1)

    walk(folder, "", 1)
    return names


def sample(path: str | os.PathLike) -> Sample | None:
    """The ``Sample`` of a regular file or a folder, or None (a pipe, a device, a missing or
    unreadable path: nothing is read from those)."""
    path = os.fspath(path)
    try:
        mode = os.stat(path).st_mode
        name = os.path.basename(os.path.normpath(path))
        if stat.S_ISDIR(mode):
            names = _names(path)
            # A folder of one file (a Space's uploads of a side): that file's first value too.
            only = os.path.join(path, names[0]) if len(names) == 1 else None
            first = _first(only) if only and os.path.isfile(only) else None
            return Sample(name, folder=True, names=names, first=first)
        if not stat.S_ISREG(mode):
            return None
        return Sample(name, first=_first(path))
    except (OSError, ValueError):
        return None


def _first(path: str) -> Any:
    return first_value(_prefix(path).decode("utf-8", errors="replace").lstrip("\ufeff"))


# ---------------------------------------------------------------------------------------------
# The hint


def _kinds(metric: str) -> FileKinds | None:
    from .registry import contract

    return contract(metric).files.kinds


def _every_kind() -> list[FileKinds]:
    from .registry import list_metrics

    found, tasks = [], set()
    for metric in list_metrics():
        try:
            kinds = _kinds(metric)
        except Exception:  # a folder that does not load is not asked
            continue
        if kinds is not None and kinds.task not in tasks:
            tasks.add(kinds.task)
            found.append(kinds)
    return found


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _recognised(kinds: FileKinds, seen: Sample) -> tuple[str, str] | None:
    try:
        found = kinds.recognise(seen)
    except Exception:  # a recogniser's slip never hides the error being reported
        return None
    if found is None or found[0] not in _SIDES:
        return None
    return found


def _side_hint(own: list[FileKinds], side: str, label: str, seen: Sample) -> str | None:
    """The sentence for the path given as ``side`` (called ``label``), or None: a file the
    metrics' own tasks take as ``side`` (or do not know, nor does any other task) has none."""
    for kinds in own:
        found = _recognised(kinds, seen)
        if found is not None:
            if found[0] == side:
                return None
            return (
                f"The {label} looks like {_SAYS[found[0]]} ({found[1]}): were the predictions "
                f"and references swapped?"
            )
    tasks = {kinds.task for kinds in own}
    for kinds in _every_kind():
        if kinds.task in tasks:
            continue
        found = _recognised(kinds, seen)
        if found is not None:
            wanted = " or ".join(kinds.task for kinds in own)
            return (
                f"The {label} looks like {kinds.task} {_SAYS[found[0]].replace('the ', '')} "
                f"({found[1]}), not {_a(wanted)} file."
            )
    return None


def hint(
    metrics: str | Sequence[str],
    references: Any = None,
    predictions: Any = None,
    *,
    named: bool = False,
) -> str | None:
    """One sentence naming the mistake behind a refused pair of files, or None.

    ``metrics``: the metric (or metrics) that refused them. The predictions are looked at first,
    then the references; ``named``: the sentence names the predictions' path (one of several).
    """
    try:
        names = [metrics] if isinstance(metrics, str) else list(metrics)
        own = [kinds for kinds in map(_kinds, names) if kinds is not None]
        if not own:
            return None
        for side, path in (("predictions", predictions), ("references", references)):
            if not isinstance(path, (str, os.PathLike)):
                continue
            seen = sample(path)
            if seen is None:
                continue
            label = f"{side} {'folder' if seen.folder else 'file'}"
            if named and side == "predictions":
                label += f" {os.fspath(path)}"
            sentence = _side_hint(own, side, label, seen)
            if sentence is not None:
                return sentence
    except Exception:  # the hint is a courtesy: never an error of its own
        return None
    return None


def add_hint(
    error: ValueError, metrics: str | Sequence[str], references: Any, predictions: Any
) -> ValueError:
    """``error`` with the hint (if any) after its message, once: the same object for a plain
    ``ValueError`` (its traceback kept), else a new ``ValueError`` of the same text."""
    message = str(error)
    sentence = hint(metrics, references, predictions)
    if sentence is None or sentence in message:
        return error
    if type(error) is ValueError:
        error.args = (with_sentence(message, sentence),)
        return error
    return ValueError(with_sentence(message, sentence))


def with_sentence(message: str, sentence: str | None) -> str:
    """``message`` followed by ``sentence`` (none, or one it already holds: as it is)."""
    if not sentence or sentence in message:
        return message
    return f"{message}{'' if message.rstrip().endswith(('.', '?', '!')) else '.'} {sentence}"
