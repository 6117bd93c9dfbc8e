"""``taskeval check tydiqa``: every problem of a TyDi QA primary-task submission, before it is
scored.

Reached only through ``contract.py`` (evaluate never loads it). Each prediction line is checked
by the metric's own ``scoring.normalize_prediction``, one line at a time so that every bad line
is reported, not the first; each gold line by ``scoring.normalize_reference``.

* ``--inputs``: the test JSONL as the task distributes it (gzip when the name contains ``.gz``):
  ``example_id``, ``language``, ``document_plaintext`` and ``passage_answer_candidates`` (byte
  offsets into the UTF-8 text). The scorer matches predictions to examples by id: a prediction
  for an unknown example, a second one for an example and an example without one are errors, as
  are a language other than the example's, a passage index that is no candidate, and a minimal
  span outside the document or on no candidate. The official scorer checks none of these.
* ``--references``: the gold (the dev layout, with annotations); it stands for the inputs when
  none are given, since it holds the documents too.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterator
from operator import itemgetter
from typing import Any

from .file_lines import gzip_chunks, zlib
from .rows import normalize_prediction, normalize_reference

_SCORE_FIELDS = ("passage_answer_score", "minimal_answer_score")
_FEW = 10  # below this many predictions, no answer at all is no sign
_IDLE_LINES = 256  # prediction lines checked each time the inputs' reader waits for data


try:
    from orjson import loads as _fast_loads
except ImportError:  # the standard library alone: slower, same values
    _fast_loads = None

_DOCUMENT_KEY, _HTML_KEY = b'"document_plaintext"', b'"document_html"'
_WHITE = b" \t\r\n"


def _loads(data: bytes) -> Any:
    """A line as JSON (orjson when there: its ints may be floats beyond 2**64, which the
    checks refuse either way)."""
    if _fast_loads is not None:
        try:
            return _fast_loads(data)
        except ValueError:
            pass
    import json

    return json.loads(data.decode("utf-8"))


def _string_end(data: bytes, i: int) -> int:
    """The index of the quote closing the JSON string that opens at ``data[i]``, or -1."""
    k = data.find(b'"', i + 1)
    while k > 0:
        b = k - 1
        while data[b] == 0x5C:  # a backslash: an even run leaves the quote unescaped
            b -= 1
        if (k - 1 - b) % 2 == 0:
            return k
        k = data.find(b'"', k + 1)
    return -1


def _skip_white(data: bytes, j: int) -> int:
    while j < len(data) and data[j] in _WHITE:
        j += 1
    return j


def _string_value(data: bytes, key: bytes) -> tuple[int, int] | None:
    """Where the string value of ``key`` (a quoted key) first lies in a line: the indices of
    its quotes, or None. A raw quote cannot occur inside a JSON string, so the key found is a
    key; that it is the top level's, and not repeated, is for the caller to prove."""
    i = data.find(key)
    if i < 0:
        return None
    j = _skip_white(data, i + len(key))
    if data[j : j + 1] != b":":
        return None
    j = _skip_white(data, j + 1)
    k = _string_end(data, j) if data[j : j + 1] == b'"' else -1
    return (j, k) if k > 0 else None


def _example_line(data: bytes) -> Any:
    """An inputs line as JSON, its ``document_plaintext`` replaced by the document's length in
    UTF-8 bytes (an int) and its ``document_html`` (never read) by 0: the documents, most of
    the line, are measured and skipped, not decoded. Unless that succeeds (each key once, with a
    string value, at the top level), the line is read whole and the document measured after."""
    where = _string_value(data, _DOCUMENT_KEY)
    if where is not None:
        j, k = where
        # A key given twice, or not at the top level, fails the proof below (json keeps the
        # last of a repeated key): the line is then read whole.
        length = _measure(data, j + 1, k)
        if length is not None:
            short = data[:j] + str(length).encode() + data[k + 1 :]
            html = _string_value(short, _HTML_KEY)
            if html is not None:
                short = short[: html[0]] + b"0" + short[html[1] + 1 :]
            row = _loads(short)
            if type(row) is dict and row.get("document_plaintext") == length:
                return row
    row = _loads(data)
    if type(row) is dict:
        text = row.get("document_plaintext")
        row["document_plaintext"] = (
            len(text.encode("utf-8", "surrogatepass")) if type(text) is str else None
        )
    return row


# A backslash and what follows it: u and four hex digits, a one-character escape, or nothing
# JSON allows (empty).
_ESCAPE = re.compile(rb'\\(u[0-9a-fA-F]{4}|["\\/bfnrt]|)')
_ONE_CHAR = frozenset(b'"\\/bfnrt')  # what follows the backslash of a one-character escape
_HEX4 = re.compile(rb"[0-9a-fA-F]{4}")
_WALKED = 256  # escapes walked one at a time; a document with more is measured by _counted


def _measure(data: bytes, start: int, end: int) -> int | None:
    """The UTF-8 length of the text of the inside of a JSON string, ``data[start:end]`` (lone
    surrogates 3 bytes, as json reads them), or None for an escape JSON does not have where the
    string holds a ``\\u`` (see ``_counted``).

    The escapes, a few dozen in a document, are walked from one backslash to the next (each
    found by memchr), as ``_ESCAPE`` matches them: three passes over the document saved. A
    document with many escapes, or one JSON does not have, is left to ``_counted``."""
    length = end - start
    p = data.find(b"\\", start, end)
    walked, high_end = 0, -1
    while p >= 0:
        walked += 1
        if walked > _WALKED:
            return _counted(data, start, end)
        if data[p + 1] in _ONE_CHAR:  # the closing quote is unescaped: p + 1 < end
            length -= 1  # two bytes for one
            p = data.find(b"\\", p + 2, end)
            continue
        if data[p + 1] != 0x75 or not _HEX4.fullmatch(data, p + 2, min(p + 6, end)):
            return _counted(data, start, end)  # an escape JSON does not have
        code = int(data[p + 2 : p + 6], 16)
        if 0xDC00 <= code <= 0xDFFF and p == high_end:
            length -= 5  # the pair is one 4-byte character: its high half counted 3
            high_end = -1
        else:
            length -= 6 - (1 if code < 0x80 else 2 if code < 0x800 else 3)
            high_end = p + 6 if 0xD800 <= code <= 0xDBFF else -1
        p = data.find(b"\\", p + 6, end)
    return length


def _counted(data: bytes, start: int, end: int) -> int | None:
    """``_measure`` by C-level counts and, where the string holds a ``\\u``, every escape
    matched: one-character escapes alone are not validated (no scorer reads the document)."""
    length = end - start
    backslashes = data.count(b"\\", start, end)
    if not backslashes:
        return length
    if data.find(b"\\u", start, end) < 0:
        # One-character escapes only: each is two bytes for one; pairs of backslashes, counted
        # from the left, are escaped backslashes.
        return length - (backslashes - data.count(b"\\\\", start, end))
    high_end = -1
    for m in _ESCAPE.finditer(data, start, end):
        escape = m.group(1)
        if len(escape) < 2:
            if not escape:
                return None
            length -= 1  # two bytes for one
            continue
        code = int(escape[1:], 16)
        if 0xDC00 <= code <= 0xDFFF and m.start() == high_end:
            length -= 5  # the pair is one 4-byte character: its high half counted 3
            high_end = -1
            continue
        length -= 6 - (1 if code < 0x80 else 2 if code < 0x800 else 3)
        high_end = m.end() if 0xD800 <= code <= 0xDBFF else -1
    return length


class _Example:
    """What a prediction is checked against: the example's line, language, document length in
    UTF-8 bytes and passage candidates as ``(starts, ends)``, byte offsets."""

    __slots__ = ("candidates", "language", "length", "line")

    def __init__(self, line: int, language: Any, length: int, candidates: tuple) -> None:
        self.line, self.language, self.length, self.candidates = line, language, length, candidates


def _as_official(row: dict) -> dict:
    """Scores as the official script reads them, through ``float()``: numeric strings and
    true/false (1.0/0.0) are numbers (the metric's file reader does the same)."""
    converted = None
    for name in _SCORE_FIELDS:
        value = row.get(name)
        if isinstance(value, (bool, str)):
            try:
                number = float(value)
            except ValueError:
                continue  # reported by normalize_prediction
            converted = converted or dict(row)
            converted[name] = number
    return converted or row


def _prediction_steps(report: Any, path: Any, out: list, ids: list) -> Iterator[None]:
    """Into ``out``, (line, compact prediction) of each line the scorer reads, the others
    reported; into ``ids``, (line, example_id) of every line that names one, read or not. A
    step per ``_IDLE_LINES`` lines, so that the lines are checked while the inputs' reader
    waits for inflated data."""
    lines = report.jsonl(path)
    yield
    for first in range(0, len(lines), _IDLE_LINES):
        for number, row in lines[first : first + _IDLE_LINES]:
            row_id = row.get("example_id") if type(row) is dict else None
            if row_id is not None:
                ids.append((number, row_id))
            try:
                if type(row) is not dict:
                    raise ValueError(f"expected a JSON object, got {row!r}")
                pred = normalize_prediction(_as_official(row), "predictions[0]")
            except ValueError as e:
                report.refused(e, file=path, line=number, id=row_id)
                continue
            if pred[4] >= 0 and pred[4] == pred[5]:
                report.error(
                    f"[{pred[4]}, {pred[5]}) is empty, surely not meant (the official scorer "
                    f"fails on one inside a gold span: AssertionError); -1, -1 is the null span",
                    file=path,
                    line=number,
                    id=row_id,
                    field="'minimal_answer'",
                )
                continue
            out.append((number, pred))
        yield
    report.rows = len(lines)


_START, _END = itemgetter("plaintext_start_byte"), itemgetter("plaintext_end_byte")


def _candidates(value: Any) -> tuple[list, list] | None:
    """The candidates as ``(starts, ends)`` byte offsets, or None unless each is an object with
    two int offsets (whole columns at a time: documents have dozens of candidates)."""
    if type(value) is not list:
        return None
    try:  # (an item that is no object, read from JSON, is no mapping: TypeError)
        starts, ends = list(map(_START, value)), list(map(_END, value))
    except (KeyError, TypeError):
        return None
    if not set(map(type, starts)) | set(map(type, ends)) <= {int}:
        return None
    return starts, ends


def _packed(candidates: tuple[list, list]) -> tuple:
    """The offsets as arrays of 64-bit ints where they fit (the parsed ints then freed: a dev
    file's are millions), else as they are."""
    try:
        return array("q", candidates[0]), array("q", candidates[1])
    except OverflowError:
        return candidates


def _inflated(path: Any, idle: Callable[[], bool] | None = None) -> Iterator[bytes]:
    """A gzip file's inflated bytes, by the metric's reader (``file_lines``: inflated in a
    thread of its own beside the parsing, ``idle()`` called while none is ready); ISA-L's
    error on a corrupt stream as an OSError."""
    try:
        yield from gzip_chunks(path, idle)
    except zlib.error as e:
        raise OSError(str(e)) from None


def _examples(
    report: Any, path: Any, gold: bool, idle: Callable[[], bool] | None = None
) -> dict[int, _Example]:
    """The examples of an inputs (or gold) file by id; a line that is not one is reported."""
    examples: dict[int, _Example] = {}
    # Only example_id (an int64: a larger integer, read as a float, is refused either way),
    # language, the document's length and the candidates are read (and the gold annotations).
    rows = report.iter_jsonl(
        path, gzip_by_name=True, loads=_example_line, inflate=lambda p: _inflated(p, idle)
    )
    for number, row in rows:
        if type(row) is not dict or type(row.get("example_id")) is not int:
            report.error("expected a JSON object with an int 'example_id'", file=path, line=number)
            continue
        example_id = row["example_id"]
        if gold:
            try:
                normalize_reference(row, "references[0]")
            except ValueError as e:
                report.refused(e, file=path, line=number, id=example_id)
        length, candidates = (
            row.get("document_plaintext"),
            _candidates(row.get("passage_answer_candidates")),
        )
        if type(length) is not int or candidates is None:
            report.error(
                "expected 'document_plaintext' (a string) and 'passage_answer_candidates' "
                "(objects with int plaintext_start_byte and plaintext_end_byte)",
                file=path,
                line=number,
                id=example_id,
            )
            continue
        if example_id in examples:
            report.error(
                f"appears twice (first on line {examples[example_id].line})",
                file=path,
                line=number,
                id=example_id,
                field="'example_id'",
            )
            continue
        examples[example_id] = _Example(number, row.get("language"), length, _packed(candidates))
    return examples


def _within(span: tuple[int, int], candidate: tuple[int, int]) -> bool:
    return candidate[0] <= span[0] and span[1] <= candidate[1]


def _against(report: Any, path: Any, number: int, pred: tuple, example: _Example) -> None:
    """One prediction against its example: language, passage index, minimal span."""
    example_id, language, index, _, start, end, _, _ = pred

    def error(message: str, field: str) -> None:
        report.error(message, file=path, line=number, id=example_id, field=field)

    if language != example.language:
        error(f"is {language!r} but the example is {example.language!r}", "'language'")
    starts, ends = example.candidates
    n = len(starts)
    if index >= n:
        error(
            f"{index} is no passage candidate of the example (it has {n}, indices 0 to {n - 1}; "
            f"-1 for none)",
            "'passage_answer_index'",
        )
    if start < 0:
        return
    if end <= example.length and 0 <= index < n and starts[index] <= start and end <= ends[index]:
        return  # within the document and the predicted passage: nothing to report
    span = (start, end)
    if end > example.length:
        error(
            f"[{start}, {end}) ends outside the document ({example.length} bytes of UTF-8 text)",
            "'minimal_answer'",
        )
    elif not any(_within(span, c) for c in zip(starts, ends)):
        error(
            f"[{start}, {end}) lies within no passage candidate (byte offsets into the UTF-8 "
            f"document; a character offset is a common cause)",
            "'minimal_answer'",
        )
    elif 0 <= index < n and not _within(span, (starts[index], ends[index])):
        report.warning(
            f"[{start}, {end}) lies outside the predicted passage {index} "
            f"{[starts[index], ends[index]]}",
            file=path,
            line=number,
            id=example_id,
            field="'minimal_answer'",
        )


def run(files: Any, report: Any) -> None:
    """Check ``files.predictions`` (with ``files.inputs``, ``files.references``) into
    ``report``."""
    path = files.predictions
    # The predictions are checked while the inputs' reader waits for inflated data, into a
    # collector of their own: their problems then go first, as if checked first.
    own = report.apart()
    predictions: list[tuple[int, tuple]] = []
    ids: list[tuple[int, Any]] = []
    steps = _prediction_steps(own, path, predictions, ids)

    def idle() -> bool:
        return next(steps, False) is None

    examples: dict[int, _Example] = {}
    source = None
    for inputs in files.inputs:
        examples.update(_examples(report, inputs, gold=False, idle=idle))
        source = inputs
    if files.references is not None:
        gold = _examples(report, files.references, gold=True, idle=idle)
        if source is None:
            examples, source = gold, files.references
    for _ in steps:  # what the waits left
        pass
    report.problems[:0] = own.problems
    report.rows = own.rows
    if source is not None:
        expected = [(e.line, example_id) for example_id, e in examples.items()]
        report.match_ids(expected, source, ids, path, by_position=False, what="example")
        for number, pred in predictions:
            example = examples.get(pred[0])
            if example is not None:
                _against(report, path, number, pred, example)
    null = [n for n, pred in predictions if pred[2] < 0 and pred[4] < 0 and pred[7] == "none"]
    if len(predictions) >= _FEW and len(null) == len(predictions):
        report.warning(
            "no prediction gives a passage, a minimal span or a yes/no answer: every score is 0",
            file=path,
        )
