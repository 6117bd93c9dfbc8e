"""``taskeval check``: every problem of a submission, found before a scorer or a leaderboard does.

A leaderboard scores a file once, late, and says little. ``check(metric, predictions, inputs,
references)`` reads the submission with the task's unlabelled test inputs (and the gold, when the
user has it) and lists every problem, each with its file, line, id and field, at one of two
levels:

* ``error``: the official scorer would crash or refuse the file, or would score a line other than
  the user surely meant (a missing or unknown id, rows out of order where it pairs by position,
  a label outside the task's vocabulary, an index outside the document);
* ``warning``: legal, but likely a mistake (evidence beyond what the scorer counts, one label
  for every claim).

What is checked is the metric's own business: its ``contract.py`` declares a ``SubmissionCheck``
whose ``run(files, report)`` reads the files and reports through the ``Collector`` given to it.
This module holds what every metric shares: the report, its text and JSON forms, the reading of
JSONL files line by line with each unreadable line reported, and the command line's ``check``.
"""

from __future__ import annotations

import gc
import json
import os
import re
import stat
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .messages import and_more, listed
from .registry import contract as metric_contract

__all__ = [
    "ERROR",
    "WARNING",
    "CheckFiles",
    "Collector",
    "Problem",
    "Report",
    "check",
    "format_report",
]

ERROR, WARNING = "error", "warning"
_PathLike = str | os.PathLike


class _Fields:
    """What ``@dataclass`` gives these classes (repr, equality by field, and when ``_frozen``, a
    hash and no assignment), without importing dataclasses and inspect on every ``taskeval
    check``, where they cost more than checking a small file."""

    _fields: tuple[str, ...] = ()
    _frozen = False

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        if not self._frozen:
            raise TypeError(f"unhashable type: {type(self).__name__!r}")
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        if self._frozen:
            raise AttributeError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self._frozen:
            raise AttributeError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)


class Problem(_Fields):
    """One problem: its ``level`` (``"error"`` or ``"warning"``), where it is (``file``, 1-based
    ``line``, the row's ``id``, the ``field``; each None when it does not apply) and what it is.
    Frozen."""

    _fields = ("level", "file", "line", "id", "field", "message")
    _frozen = True
    level: str
    file: str | None
    line: int | None
    id: Any
    field: str | None
    message: str

    def __init__(
        self,
        level: str,
        file: str | None,
        line: int | None,
        id: Any,
        field: str | None,
        message: str,
    ) -> None:
        for name, value in zip(self._fields, (level, file, line, id, field, message)):
            object.__setattr__(self, name, value)

    def as_dict(self) -> dict[str, Any]:
        """The fields by name, in order."""
        return dict(zip(self._fields, self._values()))

    def location(self) -> str:
        """``file:line`` (or the part known)."""
        where = self.file or ""
        if self.line is not None:
            where += f":{self.line}"
        return where

    def text(self) -> str:
        """One line: ``file:line: level: id X, field F: message`` (each part there when known)."""
        about = []
        if self.id is not None:
            about.append(f"id {self.id!r}")
        if self.field:
            about.append(f"field {self.field}")
        head = f"{self.location()}: " if self.location() else ""
        return f"{head}{self.level}: " + (f"{', '.join(about)}: " if about else "") + self.message


class CheckFiles(_Fields):
    """The files a metric's check reads: the submission, the task's unlabelled test inputs (one
    or more files, in the order given) and the gold, when the user has it. Frozen."""

    _fields = ("predictions", "inputs", "references")
    _frozen = True
    predictions: Path
    inputs: tuple[Path, ...]
    references: Path | None

    def __init__(
        self, predictions: Path, inputs: tuple[Path, ...] = (), references: Path | None = None
    ) -> None:
        for name, value in zip(self._fields, (predictions, inputs, references)):
            object.__setattr__(self, name, value)


class Report(_Fields):
    """What ``check`` found: every problem, in the order found; ``rows``, the number of
    prediction rows read."""

    _fields = ("metric", "files", "problems", "rows")
    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value
    metric: str
    files: CheckFiles
    problems: list[Problem]
    rows: int

    def __init__(
        self,
        metric: str,
        files: CheckFiles,
        problems: list[Problem] | None = None,
        rows: int = 0,
    ) -> None:
        self.metric, self.files, self.rows = metric, files, rows
        self.problems = [] if problems is None else problems

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.level == WARNING]

    @property
    def ok(self) -> bool:
        """No error: the official scorer reads the submission as meant (warnings aside)."""
        return not self.errors

    def summary(self) -> str:
        n_errors, n_warnings = len(self.errors), len(self.warnings)
        counts = f"{_plural(n_errors, 'error')}, {_plural(n_warnings, 'warning')}"
        rows = f" in {_plural(self.rows, 'prediction')}" if self.rows else ""
        verdict = (
            "the scorer would fail on it or score it other than meant"
            if n_errors
            else "ready to score"
        )
        return f"{self.metric} {self.files.predictions}: {counts}{rows}: {verdict}"

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready values (what ``taskeval check --json`` prints)."""
        return {
            "metric": self.metric,
            "predictions": str(self.files.predictions),
            "inputs": [str(p) for p in self.files.inputs],
            "references": None if self.files.references is None else str(self.files.references),
            "rows": self.rows,
            "ok": self.ok,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "problems": [_json_ready(p.as_dict()) for p in self.problems],
        }


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _json_ready(problem: dict[str, Any]) -> dict[str, Any]:
    """A problem's fields as plain JSON values: an id JSON cannot hold as its repr, the field's
    leading name without the quotes the text puts around it (``'id'`` → ``id``,
    ``'evidence'['30']`` → ``evidence['30']``)."""
    value = problem["id"]
    if value is not None and not isinstance(value, (str, int, float, bool)):
        problem["id"] = repr(value)
    field = problem["field"]
    if field and field.startswith("'") and (end := field.find("'", 1)) > 0:
        problem["field"] = field[1:end] + field[end + 1 :]
    return problem


def report_text(report: Report, as_json: bool) -> str:
    """What ``taskeval check`` prints: the report as JSON (``--json``) or for people."""
    return json.dumps(report.to_dict(), ensure_ascii=False) if as_json else format_report(report)


def format_report(report: Report, limit: int | None = None) -> str:
    """The report for people: one line per problem (the first ``limit`` ones, when given), then
    the summary line."""
    shown = report.problems if limit is None else report.problems[:limit]
    lines = [p.text() for p in shown]
    if len(shown) < len(report.problems):
        lines.append("..." + and_more(len(report.problems) - len(shown)))
    lines.append(report.summary())
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# What a metric's check reports through


# "predictions[3] (id 5): " and "file, line 3: " prefixes of the metrics' row errors, and the
# field they name ("field 'evidence'[0]['label'] ...", "missing field 'id'").
_ROW_PREFIX = re.compile(r"^(?:\w+\[\d+\]|.+?, line \d+)(?: \((?:example_)?id [^)]*\))?: ")
_FIELD = re.compile(r"field ((?:'[^']*'|\w+)(?:\[[^\]]*\])*)")


class Collector:
    """Handed to a metric's check: it reports problems (``error``, ``warning``), turns a row
    error of the metric's own checks into a problem (``refused``) and reads JSONL files line by
    line (``jsonl``), reporting each unreadable line and going on."""

    def __init__(self, files: CheckFiles, reader: Any = None) -> None:
        self.files = files
        self.problems: list[Problem] = []
        self.rows = 0
        # The metric's JSON Lines reader module (its ``jsonl``): the line limit, the refusal
        # of a binary line and the names of whole-file mistakes are the scorer's own.
        self._reader = reader
        self.whole_file: dict[str, str] = {}  # file → the sentence naming what it is instead

    @property
    def reader(self) -> Any:
        if self._reader is None:  # a Collector made without its metric's: the package's
            import importlib

            self._reader = importlib.import_module("taskeval._metrics._shared.jsonl")
        return self._reader

    @staticmethod
    def listed(numbers: Sequence[Any]) -> str:
        """The first few of ``numbers`` (lines, ids) and how many more: ``"3, 7, 9, 12, 15 and 2
        more"`` (``taskeval.messages.listed``)."""
        return listed(numbers)

    def apart(self) -> Collector:
        """A collector for problems kept apart (to be put first, say): the same files, reader
        and whole-file mistakes."""
        other = Collector(self.files, self._reader)
        other.whole_file = self.whole_file
        return other

    def not_json_lines(self, path: _PathLike, sentence: str) -> None:
        """``path`` is not JSON Lines text as a whole (``sentence`` says what it is instead):
        reported once, at its line 1, in place of any other problem of the check."""
        self.whole_file.setdefault(str(path), sentence)

    def error(
        self,
        message: str,
        *,
        file: _PathLike | None = None,
        line: int | None = None,
        id: Any = None,
        field: str | None = None,
    ) -> None:
        self._add(ERROR, message, file, line, id, field)

    def warning(
        self,
        message: str,
        *,
        file: _PathLike | None = None,
        line: int | None = None,
        id: Any = None,
        field: str | None = None,
    ) -> None:
        self._add(WARNING, message, file, line, id, field)

    def _add(
        self, level: str, message: str, file: Any, line: int | None, id: Any, field: str | None
    ) -> None:
        name = None if file is None else str(file)
        self.problems.append(Problem(level, name, line, id, field, message))

    def refused(
        self,
        error: Exception,
        *,
        file: _PathLike | None = None,
        line: int | None = None,
        id: Any = None,
        level: str = ERROR,
    ) -> None:
        """A ``ValueError`` of the metric's row checks as a problem: the row's place is dropped
        from the message (``file``, ``line`` and ``id`` say it) and the field it names kept."""
        message = " ".join(str(error).split())
        message = _ROW_PREFIX.sub("", message, count=1)
        match = _FIELD.search(message)
        field = match.group(1) if match else None
        self._add(level, _without_field(message, field), file, line, id, field)

    def match_ids(
        self,
        expected: Sequence[tuple[int | None, Any]],
        expected_file: _PathLike,
        predicted: Sequence[tuple[int | None, Any]],
        predicted_file: _PathLike,
        *,
        by_position: bool,
        what: str = "item",
    ) -> None:
        """The predictions (``(line, id)``) answer each item of ``expected`` (``(line, id)`` in
        ``expected_file``) once, and, where the scorer pairs rows ``by_position``, in the same
        order (the order of ``predicted``). Reported: an unknown id, an id predicted twice, an
        item without prediction, and the first one out of order. A line is None for an item of
        a file that is not JSON Lines (a JSON object's keys, say): its problem names the file."""
        expected_ids = [item_id for _, item_id in expected]
        predicted_ids = [item_id for _, item_id in predicted]
        if (
            expected_ids == predicted_ids
            and list(map(type, expected_ids)) == list(map(type, predicted_ids))
            and set(map(type, expected_ids)) <= {int, str}
            and len(set(expected_ids)) == len(expected_ids)
        ):
            return  # the same ids, once each, in the same order: nothing to report
        known = {_key(item_id) for _, item_id in expected}
        # An id of the wrong type ("2" for 2) is that item's: said once, not also as missing.
        by_text = {_text(i): (n, i) for n, i in reversed(expected) if _text(i) is not None}
        seen: dict[Any, int] = {}
        for number, item_id in predicted:
            key = _key(item_id)
            meant = by_text.get(_text(item_id)) if key not in known and by_text else None
            if meant is not None and _key(meant[1]) not in seen:
                self.error(
                    f"is {_kind(item_id)} {item_id!r} where {expected_file} has "
                    f"{_kind(meant[1])} {meant[1]!r} (line {meant[0]})",
                    file=predicted_file,
                    line=number,
                    id=item_id,
                    field="'id'",
                )
                seen[_key(meant[1])] = number
            elif key not in known:
                self.error(
                    f"is not {_a(what)} of {expected_file}",
                    file=predicted_file,
                    line=number,
                    id=item_id,
                    field="'id'",
                )
            elif key in seen:
                first = seen[key]
                self.error(
                    "is predicted twice" + ("" if first is None else f" (first on line {first})"),
                    file=predicted_file,
                    line=number,
                    id=item_id,
                    field="'id'",
                )
            else:
                seen[key] = number
        missing = [(n, item_id) for n, item_id in expected if _key(item_id) not in seen]
        for number, item_id in missing:
            self.error(
                f"has no prediction ({len(missing):,} of {len(expected):,} {what}s have none)",
                file=expected_file,
                line=number,
                id=item_id,
                field="'id'",
            )
        if by_position:
            self._order(expected, expected_file, seen, predicted_file, what)

    def _order(
        self, expected: Sequence, expected_file: Any, seen: dict, predicted_file: Any, what: str
    ) -> None:
        predicted = list(seen)  # in the order predicted (dicts keep it), lines or not
        in_order = [_key(item_id) for _, item_id in expected if _key(item_id) in seen]
        out = [i for i, (a, b) in enumerate(zip(predicted, in_order)) if a != b]
        if out:
            first = out[0]
            self.error(
                f"out of order: the predictions hold id {predicted[first][1]!r} here where "
                f"{expected_file} has {in_order[first][1]!r} ({len(out):,} predictions out of "
                f"place); the scorer pairs rows by position",
                file=predicted_file,
                line=seen[predicted[first]],
                id=predicted[first][1],
                field="'id'",
            )

    def jsonl(
        self, path: _PathLike, *, gzip_by_name: bool = False, huge_ints: bool = True
    ) -> list[tuple[int, Any]]:
        """``(line number, value)`` of each line of a JSONL file that reads as JSON; each other
        line (blank, not JSON, not UTF-8) is reported as an error, as is a file that cannot be
        read. ``gzip_by_name``: a name containing ``.gz`` is read as gzip. ``huge_ints=False``:
        an integer beyond [-2**63, 2**64) may be read as a float (faster: for files where such a
        number is wrong either way, or never read)."""
        if not (gzip_by_name and ".gz" in Path(path).name):
            rows = _bulk(Path(path), huge_ints, self.reader.max_line_bytes())
            if rows is not None:
                return self._one_array(path, rows)
        rows = list(self.iter_jsonl(path, gzip_by_name=gzip_by_name, huge_ints=huge_ints))
        return self._one_array(path, rows)

    def _one_array(self, path: _PathLike, rows: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
        """``rows``, or none for a file that is one JSON array (as the scorer's reader says)."""
        if len(rows) == 1 and type(rows[0][1]) is list and str(path) not in self.whole_file:
            self.not_json_lines(path, self.reader.ONE_ARRAY)
            return []
        return rows

    def iter_jsonl(
        self,
        path: _PathLike,
        *,
        gzip_by_name: bool = False,
        huge_ints: bool = True,
        loads: Callable[[bytes], Any] | None = None,
        inflate: Callable[[Path], Iterable[bytes]] | None = None,
    ) -> Iterator[tuple[int, Any]]:
        """``jsonl`` one line at a time: for files too big to hold (documents). ``loads``: reads
        a line's bytes instead of the JSON reader (raising ``ValueError`` on a line that is not
        JSON), for a metric that picks a few fields out of long lines. ``inflate``: the
        inflated bytes of a gzip file, chunk by chunk, by a reader of the metric's own (one
        that inflates beside the parsing, say); by default ISA-L's threaded reader."""
        gzipped = gzip_by_name and ".gz" in Path(path).name
        try:
            mistake = _not_text(path, gzipped, self.reader)
            if mistake is not None:
                self.not_json_lines(path, mistake)
                return
            # (with a reader of the metric's own, no line is searched for huge integers)
            exact_only = huge_ints and loads is None
            lines = _lines(Path(path), gzipped, exact_only, self.reader, inflate)
            for number, data, exact in lines:
                if not data.strip():
                    self.error(
                        "blank line: the official scorer reads every line as JSON",
                        file=path,
                        line=number,
                    )
                    continue
                try:
                    value = _loads(data, exact) if loads is None else loads(data)
                except ValueError as e:  # UnicodeDecodeError too
                    mistake = self.reader.file_mistake(data) if number == 1 else None
                    if mistake is not None:  # the file is not JSON Lines: said once
                        self.not_json_lines(path, mistake)
                        return
                    self.error(f"not JSON: {e}", file=path, line=number)
                    continue
                yield number, value
        except (OSError, EOFError, zlib.error) as e:
            self.error(f"cannot be read: {getattr(e, 'strerror', None) or e}", file=path)
        except ValueError as e:  # the reader's refusal of a line: too long, or binary data
            number, message = _refused_line(path, e)
            self.error(message, file=path, line=number)


def _without_field(message: str, field: str | None) -> str:
    """A row error's message without the field it starts by naming (``field F must be ...``,
    ``missing field F``): the problem's ``field`` names it, in front of every message alike."""
    if field is None:
        return message
    for head, kept in ((f"field {field}", ""), (f"missing field {field}", "missing")):
        if message.startswith(head):
            rest = message[len(head) :].removeprefix(":").strip()
            return f"{kept} {rest}".strip() if kept else rest or message
    return message


def _key(value: Any) -> Any:
    """An id as a dict key: ids are compared by value and type (``1`` is not ``"1"`` nor
    ``True``), and an unhashable one by its JSON text."""
    kind = type(value)
    if kind is int or kind is str:
        return (kind, value)
    try:
        hash(value)
    except TypeError:
        return (kind, json.dumps(value, sort_keys=True, default=repr))
    return (kind, value)


def _text(value: Any) -> str | None:
    """An int or str id as text (``2`` and ``"2"`` alike), else None."""
    return str(value) if type(value) in (int, str) else None


def _kind(value: Any) -> str:
    return {str: "the string", int: "the integer"}.get(type(value), f"a {type(value).__name__}")


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


# Integers orjson reads as floats (beyond [-2**63, 2**64)) have 20 digits, or 19 after a minus.
_LONG_INT = re.compile(rb"\d{20}|-\d{19}")
# The regular expression tries every byte (a few ms per MB): a file is first searched for 19
# digits in a row as one byte string, its digits all made zeros (a C translation and search).
_DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"0" * 9)
_NINETEEN_DIGITS = b"0" * 19


def _has_long_int(data: bytes) -> bool:
    """Whether ``data`` holds an integer orjson may read as a float (``_LONG_INT``)."""
    if _NINETEEN_DIGITS not in data.translate(_DIGITS_AS_ZEROS):
        return False
    return _LONG_INT.search(data) is not None


def _open_gzip(path: Path) -> Any:
    """A gzip file for reading: inflated by ISA-L in a thread of its own when the package isal
    is there (about 3x faster than zlib, and beside the parsing), else by zlib."""
    try:
        from isal import igzip_threaded
    except ImportError:
        import gzip

        return gzip.open(path, "rb")
    return igzip_threaded.open(path, "rb", threads=1)


def _lines(
    path: Path,
    gzipped: bool,
    huge_ints: bool,
    reader: Any,
    inflate: Callable[[Path], Iterable[bytes]] | None = None,
) -> Iterator[tuple[int, bytes, bool]]:
    """The lines of a text file as the official scorers see them, numbered from 1, without
    their line end: split at ``\\n``, ``\\r\\n`` and a lone ``\\r`` (universal newlines; JSON
    text holds no raw ``\\r`` inside a value), by the scorer's ``reader``, which refuses a line
    longer than its limit or holding a NUL byte (``ValueError``) as soon as it is met. With
    each, whether orjson reads it exactly (no integer of 20 digits in it)."""
    if gzipped:
        chunks = inflate(path) if inflate is not None else _gzip_chunks(path)
    else:
        chunks = _file_chunks(path)
    for number, data, start, end in reader.iter_lines(chunks, True, path):
        line = data[start:end]
        yield number, line, not huge_ints or not _has_long_int(line)


_CHUNK = 1 << 22  # bytes per read


def _file_chunks(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            yield chunk


def _gzip_chunks(path: Path) -> Iterator[bytes]:
    with _open_gzip(path) as raw:
        while chunk := raw.read(_CHUNK):
            yield chunk


def _not_text(path: _PathLike, gzipped: bool, reader: Any) -> str | None:
    """The sentence naming a file that is not UTF-8 text as a whole (UTF-16, gzip not read as
    gzip, a byte order mark), in the scorer's reader's words (its ``not_text``), or None."""
    with open(path, "rb") as f:
        head = f.read(4)
    return reader.not_text(head, gzipped=gzipped)


def _refused_line(path: _PathLike, error: ValueError) -> tuple[int | None, str]:
    """The line and the message of the reader's ``"<path>, line <n>: <what>"``."""
    message = str(error)
    head = f"{os.fspath(path)}, line "
    if message.startswith(head):
        number, _, what = message[len(head) :].partition(": ")
        if number.isdigit():
            return int(number), what
    return None, message


def _bulk(path: Path, huge_ints: bool, limit: int) -> list[tuple[int, Any]] | None:
    """Every line of a plain file read by orjson in one pass, or None (then line by line, for
    the problems): for a regular file of ``\\n``-ended lines, none longer than ``limit`` bytes,
    that orjson reads exactly, all JSON. (A device or a pipe is never read whole.)"""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size < _SMALL:
            return None  # a small file: read line by line with json (orjson not imported)
        fast = _fast_parser()
        if fast is None:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\r" in data or (huge_ints and _has_long_int(data)):
        return None
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    if max(map(len, lines), default=0) > limit:
        return None
    try:
        return list(enumerate(map(fast, lines), 1))
    except ValueError:  # a blank line or one that is not JSON: reported line by line
        return None


_SMALL = 1 << 20  # bytes: below this, importing orjson costs more than it saves
_fast_loads: Callable[[bytes], Any] | None = None  # orjson's, once a big file is read


def _fast_parser() -> Callable[[bytes], Any] | None:
    """``orjson.loads``, imported on first use, or None where orjson is missing (json alone:
    slower, same values)."""
    global _fast_loads
    if _fast_loads is None:
        try:
            from orjson import loads
        except ImportError:
            return None
        _fast_loads = loads
    return _fast_loads


def _loads(data: bytes, exact: bool) -> Any:
    """A line's JSON value as Python's ``json`` reads it from UTF-8 text: orjson (once imported
    for a big file) where it reads the same (``exact``; it refuses NaN and lone surrogates,
    which json then reads)."""
    if exact and _fast_loads is not None:
        try:
            return _fast_loads(data)
        except ValueError:
            pass
    return json.loads(data.decode("utf-8"))


# ---------------------------------------------------------------------------------------------
# The entry point


def _paths(inputs: _PathLike | Sequence[_PathLike] | None) -> tuple[Path, ...]:
    if inputs is None:
        return ()
    if isinstance(inputs, (str, os.PathLike)):
        return (Path(inputs),)
    return tuple(Path(p) for p in inputs)


def check(
    metric: str,
    predictions: _PathLike,
    inputs: _PathLike | Sequence[_PathLike] | None = None,
    references: _PathLike | None = None,
) -> Report:
    """Every problem of the submission ``predictions`` for ``metric``, read with the task's
    unlabelled test ``inputs`` (a path, or several: a claims file and a corpus, say) and the gold
    ``references`` when given. Raises ``ValueError`` for an unknown metric, one without a check,
    or a missing predictions path; problems of the files themselves are in the report."""
    from .api import metric_names

    (name,) = metric_names([metric])
    declared = metric_contract(name).check
    if declared is None:
        raise ValueError(f"metric {name!r} declares no submission check")
    from .pipes import settled

    inputs = tuple(Path(settled(p)) for p in _paths(inputs))
    files = CheckFiles(
        Path(settled(predictions)),
        inputs,
        None if references is None else Path(settled(references)),
    )
    for path in (files.predictions, *files.inputs, *filter(None, [files.references])):
        if not path.exists():
            raise ValueError(f"{path}: no such file or folder")
    collector = Collector(files, _jsonl_reader(name))
    # Reading makes many long-lived objects and no cycles: the collector's passes over them
    # would cost more than the checks.
    collecting = gc.isenabled()
    gc.disable()
    try:
        declared.run(files, collector)
    finally:
        if collecting:
            gc.enable()
    if collector.whole_file:  # a file that is not JSON Lines: the rest follows from it
        problems = [
            Problem(ERROR, file, 1, None, None, sentence)
            for file, sentence in collector.whole_file.items()
        ]
        return Report(name, files, _hinted(problems, name, files), 0)
    problems = _in_file_order(collector.problems)
    return Report(name, files, _hinted(problems, name, files), collector.rows)


def _jsonl_reader(name: str) -> Any:
    """The metric's JSON Lines reader (its folder's ``jsonl``), or None for a metric without
    one (its check reads no JSON Lines)."""
    from .registry import metric_module

    try:
        return metric_module(name, "jsonl")
    except ImportError:
        return None


def _hinted(problems: list[Problem], name: str, files: CheckFiles) -> list[Problem]:
    """The problems, the first error followed by the sentence naming the mistake behind them
    (swapped files, a file of another task; ``taskeval.mistakes``), when the files show one."""
    first = next((i for i, p in enumerate(problems) if p.level == ERROR), None)
    if first is None:
        return problems
    from .mistakes import hint, with_sentence

    sentence = hint(name, files.references, files.predictions)
    if sentence is None:
        return problems
    p = problems[first]
    named = Problem(p.level, p.file, p.line, p.id, p.field, with_sentence(p.message, sentence))
    return [*problems[:first], named, *problems[first + 1 :]]


def _in_file_order(problems: list[Problem]) -> list[Problem]:
    """Problems file by file (in the order first named), each file's in line order; problems of
    a whole file first."""
    files: dict[str | None, int] = {}
    for p in problems:
        files.setdefault(p.file, len(files))
    return sorted(problems, key=lambda p: (files[p.file], p.line or 0))
