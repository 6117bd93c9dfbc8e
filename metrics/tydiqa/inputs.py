"""Official TyDi QA files and Hub ``tydiqa`` dataset rows, turned into ``compute()`` inputs.

Plain Python; not imported by the metric script, so the folder stays loadable by ``evaluate``
alone. The gold file (JSONL, gzip when its path contains ``.gz``, as in ``tydi_eval.py``) is read
once, as a stream: of each line only ``example_id``, ``language`` and ``annotations`` are kept,
never the document text or HTML. A gzip file is inflated in a background thread that holds the
GIL only between large reads, so inflating and picking out the fields run on separate cores.
"""

from __future__ import annotations

import json
import queue
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from os import PathLike
from typing import Any

from .jsonl import iter_lines
from .scoring import (
    DEFAULT_THRESHOLD,
    Prediction,
    Reference,
    normalize_prediction,
    normalize_reference,
    prediction_record,
    reference_record,
    score,
)

try:  # ISA-L inflates gzip about 3x faster than zlib, with the same API (package isal)
    from isal import igzip
    from isal import isal_zlib as zlib
except ImportError:  # pragma: no cover - the folder alone needs only the standard library
    import zlib

    igzip = None

# compute() options: the parser of the command-line value, its metavar and its help.
OPTIONS = {
    f"{task}_non_null_threshold": (
        int,
        "N",
        f"how many annotators must give a non-null {task} answer for the gold of an example to "
        f"have one (default 2)",
    )
    for task in ("passage", "minimal")
}

_CHUNK = 1 << 20  # bytes per read: larger reads cost memory (the queue holds a few) for no speed
_QUEUED = 4  # inflated chunks waiting for the reader: bounds memory
_SCORE_FIELDS = ("passage_answer_score", "minimal_answer_score")
_IDLE_LINES = 256  # prediction lines parsed each time the gold reader waits for inflated data

Idle = Callable[[], bool]


# ---------------------------------------------------------------------------------------------
# Reading lines


def _inflate(path: str | PathLike) -> Iterator[bytes]:
    """Inflated chunks of a (possibly multi-member, zero-padded) gzip file, as gzip reads it.

    Each chunk is one call that runs long without the GIL, so the thread seldom waits for the
    parsing thread to hand the GIL back. ISA-L's gzip reader releases the GIL once per read
    (its zlib-style objects take it back for every output buffer they grow: several times per
    chunk, each a wait of up to the interpreter's switch interval).
    """
    if igzip is not None:
        with igzip.open(path, "rb") as f:
            while chunk := f.read(_CHUNK):
                yield chunk
        return
    with open(path, "rb") as f:
        inflater, started = None, False
        pending = b""
        while True:
            data = pending or f.read(_CHUNK)
            if not data:  # end of the file
                if inflater is None:
                    return
                out = inflater.flush()  # output held back by the size limit, if any
                if out:
                    yield out
                if not inflater.eof:
                    raise EOFError(
                        "compressed file ended before the end-of-stream marker was reached"
                    )
                pending, inflater = inflater.unused_data, None
                continue
            if inflater is None:
                if started:  # zero bytes may pad a member, as gzip allows
                    data = data.lstrip(b"\0")
                    if not data:
                        pending = b""
                        continue
                inflater, started = zlib.decompressobj(31), True
            out = inflater.decompress(data, _CHUNK)
            pending = inflater.unconsumed_tail
            if inflater.eof:  # end of a gzip member: another may follow
                pending, inflater = inflater.unused_data, None
            if out:
                yield out


def _gzip_chunks(path: str | PathLike, idle: Idle | None = None) -> Iterator[bytes]:
    """Inflated chunks of a gzip file, produced by a background thread.

    While no chunk is ready, ``idle()`` (if given) is called to do other work; it returns False
    once it has nothing left to do.
    """
    chunks: queue.Queue = queue.Queue(maxsize=_QUEUED)
    stop = threading.Event()

    def hand_over(item: Any) -> bool:
        while not stop.is_set():  # the reader may have stopped early (an error, a break)
            try:
                chunks.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for chunk in _inflate(path):
                if not hand_over(chunk):
                    return
            hand_over(b"")
        except BaseException as e:  # handed to the reading thread, which raises it
            hand_over(e)

    thread = threading.Thread(target=produce, name="tydiqa-gunzip", daemon=True)
    thread.start()
    try:
        while True:
            try:
                chunk = chunks.get_nowait() if idle is not None else chunks.get()
            except queue.Empty:
                if not idle():
                    idle = None
                continue
            if isinstance(chunk, BaseException):
                raise chunk
            if not chunk:
                return
            yield chunk
    finally:
        stop.set()
        thread.join()


def _plain_chunks(path: str | PathLike) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            yield chunk


def _lines(
    path: str | PathLike, gzipped: bool, idle: Idle | None = None
) -> Iterator[tuple[int, bytes, int, int]]:
    """``(line number, buffer, start, end)`` for each line, without copying it out.

    Lines as the official script reads them: a gzip file in binary mode (only ``\\n`` ends a
    line), a plain file in text mode (``\\n``, ``\\r\\n`` and a lone ``\\r``).
    """
    try:
        chunks = _gzip_chunks(path, idle) if gzipped else _plain_chunks(path)
        yield from iter_lines(chunks, universal=not gzipped)
    except (OSError, EOFError, zlib.error) as e:
        raise ValueError(f"{path}: cannot be read ({e})") from None


def _loads_binary(data: bytes) -> Any:
    """``json.loads`` of a line of a binary-mode file (bytes: UTF-8 with ``surrogatepass``)."""
    return json.loads(data)


def _loads_text(data: bytes) -> Any:
    """``json.loads`` of a line of a text-mode file (a ``str`` decoded as strict UTF-8)."""
    return json.loads(data.decode("utf-8"))


def _json(data: bytes, where: str, loads: Callable[[bytes], Any]) -> Any:
    try:
        return loads(data)
    except (ValueError, RecursionError) as e:
        if not data.strip():
            what = "a blank line"
        elif isinstance(e, UnicodeDecodeError):
            what = f"not UTF-8 text ({e})"
        elif isinstance(e, RecursionError):
            what = "JSON nested too deeply to be read"
        else:
            what = f"not a JSON value ({e})"
        raise ValueError(f"{where}: {what}") from None


# ---------------------------------------------------------------------------------------------
# Gold


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
        errors = "strict" if loads is _loads_text else "surrogatepass"
        return data[i + 1 : k - 1].decode("utf-8", errors)
    return loads(data[i:k])


def _gold_fields_fast(
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


def _gold_fields(
    data: bytes, start: int, end: int, where: str, loads: Callable[[bytes], Any]
) -> tuple[Any, Any, Any]:
    fields = _gold_fields_fast(data, start, end, loads) if start < end else None
    if fields is not None:
        return fields
    record = _json(data[start:end], where, loads)
    if not isinstance(record, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
    for field in ("example_id", "language", "annotations"):
        if field not in record:
            raise ValueError(f"{where}: missing field {field!r}")
    return record["example_id"], record["language"], record["annotations"]


def iter_gold(path: str | PathLike, idle: Idle | None = None) -> Iterator[Reference]:
    """Compact references of a TyDi QA gold file, one per line, read as a stream.

    Only ``example_id``, ``language`` and ``annotations`` are kept; ``question_text``,
    ``document_plaintext``, HTML and passage candidates are neither kept nor checked (their
    strings are skipped, not decoded).
    """
    gzipped = ".gz" in str(path)
    loads = _loads_binary if gzipped else _loads_text
    for number, data, start, end in _lines(path, gzipped, idle):
        where = f"{path}, line {number}"
        example_id, language, annotations = _gold_fields(data, start, end, where, loads)
        # the same checks as compute() rows, named by file and line
        ref = {"example_id": example_id, "language": language, "annotations": annotations}
        yield normalize_reference(ref, where)


# ---------------------------------------------------------------------------------------------
# Predictions


def iter_predictions(path: str | PathLike) -> Iterator[Prediction]:
    """Compact predictions of an official prediction file (plain JSONL), one per line."""
    with open(path, "rb") as f:
        if f.read(2) == b"\x1f\x8b":
            raise ValueError(
                f"{path}: is a gzip file; the official script reads predictions as plain JSONL"
            )
    for number, data, start, end in _lines(path, gzipped=False):
        where = f"{path}, line {number}"
        row = _json(data[start:end], where, _loads_text)
        if not isinstance(row, dict):
            raise ValueError(f"{where}: expected a JSON object, got {type(row).__name__}")
        for field in _SCORE_FIELDS:
            # The official script passes scores through float(): numeric strings are accepted,
            # and true/false are 1.0/0.0.
            value = row.get(field)
            if isinstance(value, bool):
                row[field] = float(value)
            elif isinstance(value, str):
                try:
                    row[field] = float(value)
                except ValueError:
                    raise ValueError(
                        f"{where}: field {field!r} must be a number, got {value!r}"
                    ) from None
        yield normalize_prediction(row, where)


# ---------------------------------------------------------------------------------------------
# Entry points


def _read(references: str | PathLike, predictions: str | PathLike) -> tuple[list, list]:
    """Both files as compact rows, the shorter side padded with placeholders (None).

    The prediction file is parsed while the gold reader waits for inflated data; its errors are
    raised after the gold has been read, so the gold's come first, as in the official script.
    """
    if references is None:
        raise ValueError("tydiqa needs the gold file (references)")
    pending = iter_predictions(predictions)
    preds: list[Prediction] = []
    failure: list[ValueError] = []

    def idle() -> bool:
        try:
            for _ in range(_IDLE_LINES):
                preds.append(next(pending))
        except StopIteration:
            return False
        except ValueError as e:
            failure.append(e)
            return False
        return True

    refs: list[Reference] = list(iter_gold(references, idle))
    if failure:
        raise failure[0]
    preds.extend(pending)
    n = max(len(preds), len(refs))
    return preds + [None] * (n - len(preds)), refs + [None] * (n - len(refs))


def read_official(references: str | PathLike, predictions: str | PathLike) -> dict[str, list[dict]]:
    """Gold JSONL(.gz) + prediction JSONL → ``predictions``/``references`` rows for compute().

    Every line becomes one row, in file order; the shorter side is padded with placeholder rows
    (``{"example_id": None}``), since compute() pairs rows by ``example_id``, not by position.
    """
    preds, refs = _read(references, predictions)
    return {
        "predictions": [prediction_record(p) for p in preds],
        "references": [reference_record(r) for r in refs],
    }


def score_files(
    references: str | PathLike,
    predictions: str | PathLike,
    passage_non_null_threshold: int = DEFAULT_THRESHOLD,
    minimal_non_null_threshold: int = DEFAULT_THRESHOLD,
) -> dict[str, Any]:
    """What ``taskeval score tydiqa`` prints (compute() on ``read_official``, without rows)."""
    preds, refs = _read(references, predictions)
    return score(preds, refs, passage_non_null_threshold, minimal_non_null_threshold)


_HUB_FIELDS = (
    "passage_answer_candidate_index",
    "minimal_answers_start_byte",
    "minimal_answers_end_byte",
    "yes_no_answer",
)


def references_from_hub(rows: Iterable[Mapping], example_ids: Sequence[int]) -> list[dict]:
    """Rows of the Hub ``tydiqa`` dataset (config ``primary_task``) → ``references``.

    That dataset drops TyDi QA's ``example_id``, so the caller supplies one id per row (the ids
    its predictions carry, e.g. the official ones in the dev file's order). Each row's
    ``annotations`` is a dict of lists (``passage_answer_candidate_index``,
    ``minimal_answers_start_byte``, ``minimal_answers_end_byte``, ``yes_no_answer``), one entry
    per annotator; it becomes a list of ``{candidate_index, start_byte, end_byte,
    yes_no_answer}`` records.
    """
    rows = list(rows)
    ids = list(example_ids)
    if len(ids) != len(rows):
        raise ValueError(
            f"example_ids has {len(ids)} ids but there are {len(rows)} rows: give one id per row"
        )
    out = []
    for index, (row, example_id) in enumerate(zip(rows, ids)):
        where = f"rows[{index}] (example_id {example_id!r})"
        if not isinstance(row, Mapping):
            raise ValueError(f"{where}: expected a Hub tydiqa primary_task row (a dict)")
        annotations = row.get("annotations")
        if not isinstance(annotations, Mapping):
            raise ValueError(
                f"{where}: field 'annotations' must be a dict of lists ({', '.join(_HUB_FIELDS)}), "
                f"got {annotations!r}"
            )
        columns = []
        for field in _HUB_FIELDS:
            column = annotations.get(field)
            if not isinstance(column, (list, tuple)):
                raise ValueError(
                    f"{where}: field 'annotations.{field}' must be a list, got {column!r}"
                )
            columns.append(list(column))
        if len({len(c) for c in columns}) != 1:
            raise ValueError(
                f"{where}: the lists in 'annotations' must have one entry per annotator, got "
                f"lengths {[len(c) for c in columns]}"
            )
        reference = {
            "example_id": example_id,
            "language": row.get("language"),
            "annotations": [
                {"candidate_index": i, "start_byte": s, "end_byte": e, "yes_no_answer": y}
                for i, s, e, y in zip(*columns)
            ],
        }
        # fail here, on the row, rather than later inside compute()
        normalize_reference(reference, f"rows[{index}]")
        out.append(reference)
    return out
