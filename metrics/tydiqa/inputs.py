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

# compute() options, each with the parser of its command-line value.
OPTIONS = {"passage_non_null_threshold": int, "minimal_non_null_threshold": int}

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
    """``(line number, buffer, start, end)`` for each line, without copying it out."""
    try:
        number = 0
        rest = b""
        for chunk in _gzip_chunks(path, idle) if gzipped else _plain_chunks(path):
            data = rest + chunk if rest else chunk
            start = 0
            while (end := data.find(b"\n", start)) != -1:
                number += 1
                yield number, data, start, end
                start = end + 1
            rest = data[start:]
        if rest:
            yield number + 1, rest, 0, len(rest)
    except (OSError, EOFError, zlib.error) as e:
        raise ValueError(f"{path}: cannot be read ({e})") from None


def _json(data: bytes, where: str) -> Any:
    try:
        return json.loads(data)
    except ValueError as e:
        what = "a blank line" if not data.strip() else f"not a JSON value ({e})"
        raise ValueError(f"{where}: {what}") from None


# ---------------------------------------------------------------------------------------------
# Gold


_SPACE = b" \t\r\n"
_INT = re.compile(rb"-?(?:0|[1-9][0-9]*)(?=[ \t\r]*[,}])")


def _key_value_start(data: bytes, key: bytes, start: int, end: int, last: bool) -> int:
    """Where the value of the top-level ``key`` starts, or -1 to take the slow path.

    Inside a JSON string every quote is escaped, so a ``"key"`` not preceded by a backslash is a
    real key (TyDi QA's nested records never reuse these three names). The search runs from the
    end (``last``) or from the start, whichever skips the document text in the dev file's key
    order (``annotations`` first, ``example_id`` and ``language`` after the document). Anything
    unusual sends the line to ``json.loads``.
    """
    if last:
        i = data.rfind(key, start, end)
        while i > start and data[i - 1] == 0x5C:  # an escaped quote: inside a string
            i = data.rfind(key, start, i)
    else:
        i = data.find(key, start, end)
        while i > start and data[i - 1] == 0x5C:
            i = data.find(key, i + 1, end)
    if i <= start:
        return -1
    j = i + len(key)
    while j < end and data[j] in _SPACE:
        j += 1
    if j >= end or data[j] != 0x3A:  # ':'
        return -1
    j += 1
    while j < end and data[j] in _SPACE:
        j += 1
    return j


def _gold_fields_fast(data: bytes, start: int, end: int) -> tuple[Any, Any, Any] | None:
    """``(example_id, language, annotations)`` of a gold line, or None to take the slow path."""
    if data[start] != 0x7B:  # '{'
        return None
    j = _key_value_start(data, b'"example_id"', start, end, True)
    if j < 0 or not (m := _INT.match(data, j, end)):
        return None
    example_id = int(m.group())
    j = _key_value_start(data, b'"language"', start, end, True)
    if j < 0 or data[j] != 0x22:
        return None
    k = data.find(b'"', j + 1, end)
    if k < 0 or data.find(b"\\", j + 1, k) != -1:
        return None
    try:
        language = data[j + 1 : k].decode("utf-8")
    except UnicodeDecodeError:
        return None
    j = _key_value_start(data, b'"annotations"', start, end, False)
    if j < 0 or data[j] != 0x5B:  # '['
        return None
    # Annotations hold no lists, so the first ']' closes them unless a string holds one: the
    # slice then fails to parse, and the line takes the slow path.
    k = data.find(b"]", j, end)
    if k < 0:
        return None
    try:
        annotations = json.loads(data[j : k + 1])
    except ValueError:
        return None
    return example_id, language, annotations


def _gold_fields(data: bytes, start: int, end: int, where: str) -> tuple[Any, Any, Any]:
    fields = _gold_fields_fast(data, start, end) if start < end else None
    if fields is not None:
        return fields
    record = _json(data[start:end], where)
    if not isinstance(record, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
    for field in ("example_id", "language", "annotations"):
        if field not in record:
            raise ValueError(f"{where}: missing field {field!r}")
    return record["example_id"], record["language"], record["annotations"]


def iter_gold(path: str | PathLike, idle: Idle | None = None) -> Iterator[Reference]:
    """Compact references of a TyDi QA gold file, one per line, read as a stream.

    Only ``example_id``, ``language`` and ``annotations`` are kept; ``question_text``,
    ``document_plaintext``, HTML and passage candidates are neither kept nor checked (nor is
    the rest of the line's JSON, and a repeated ``annotations`` key is read with its first
    value).
    """
    for number, data, start, end in _lines(path, ".gz" in str(path), idle):
        where = f"{path}, line {number}"
        example_id, language, annotations = _gold_fields(data, start, end, where)
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
        row = _json(data[start:end], where)
        if not isinstance(row, dict):
            raise ValueError(f"{where}: expected a JSON object, got {type(row).__name__}")
        for field in _SCORE_FIELDS:
            # The official script passes scores through float(): numeric strings are accepted.
            value = row.get(field)
            if isinstance(value, str):
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
