"""Lines of the TyDi QA files as the official script reads them, without copying them out.

A gzip file (its path contains ``.gz``, as in ``tydi_eval.py``) is read in binary mode, where
only ``\\n`` ends a line; a plain file in text mode (``\\n``, ``\\r\\n`` and a lone ``\\r``). A gzip
file is inflated in a background thread that holds the GIL only between large reads, so
inflating and picking out the fields run on separate cores. Plain Python (ISA-L's ``isal`` when
installed: it inflates about 3x faster than zlib).
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from os import PathLike
from typing import Any

from .jsonl import iter_lines

try:  # ISA-L inflates gzip about 3x faster than zlib, with the same API (package isal)
    from isal import igzip
    from isal import isal_zlib as zlib
except ImportError:  # pragma: no cover - the folder alone needs only the standard library
    import zlib

    igzip = None

_CHUNK = 1 << 20  # bytes per read: larger reads cost memory (the queue holds a few) for no speed
_QUEUED = 4  # inflated chunks waiting for the reader: bounds memory

Idle = Callable[[], bool]


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


def gzip_chunks(path: str | PathLike, idle: Idle | None = None) -> Iterator[bytes]:
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


def lines(
    path: str | PathLike, gzipped: bool, idle: Idle | None = None
) -> Iterator[tuple[int, bytes, int, int]]:
    """``(line number, buffer, start, end)`` for each line, without copying it out.

    Lines as the official script reads them: a gzip file in binary mode (only ``\\n`` ends a
    line), a plain file in text mode (``\\n``, ``\\r\\n`` and a lone ``\\r``).
    """
    try:
        chunks = gzip_chunks(path, idle) if gzipped else _plain_chunks(path)
        yield from iter_lines(chunks, universal=not gzipped)
    except (OSError, EOFError, zlib.error) as e:
        raise ValueError(f"{path}: cannot be read ({e})") from None


def loads_binary(data: bytes) -> Any:
    """``json.loads`` of a line of a binary-mode file (bytes: UTF-8 with ``surrogatepass``)."""
    return json.loads(data)


def loads_text(data: bytes) -> Any:
    """``json.loads`` of a line of a text-mode file (a ``str`` decoded as strict UTF-8)."""
    return json.loads(data.decode("utf-8"))


def json_value(data: bytes, where: str, loads: Callable[[bytes], Any]) -> Any:
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
