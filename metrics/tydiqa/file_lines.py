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
import re
import threading
from collections.abc import Callable, Iterator
from os import PathLike
from typing import Any

from .jsonl import iter_lines, value_problem

try:  # ISA-L inflates gzip about 3x faster than zlib, with the same API (package isal)
    from isal import igzip
    from isal import isal_zlib as zlib
except ImportError:  # pragma: no cover - the folder alone needs only the standard library
    import zlib

    igzip = None

_CHUNK = 1 << 20  # bytes per read: larger reads cost memory (the queue holds a few) for no speed
_QUEUED = 4  # inflated chunks waiting for the reader: bounds memory

Idle = Callable[[], bool]


class TrailingGarbage(OSError):
    """Bytes after the last gzip member that are neither zero padding nor another member."""


_FIRST_FEED = 64  # bytes of a member first given to the inflater; doubled while it asks for more
_ZEROS = re.compile(rb"\0*")


def inflate(path: str | PathLike) -> Iterator[bytes]:
    """Inflated chunks of a (possibly multi-member, zero-padded) gzip file, as gzip reads it,
    with zlib's inflater: in time and memory linear in the file, however many members it holds.

    Each member is fed a window that starts small and doubles while the member goes on, so that
    the input left over at a member's end (which zlib copies out) is never much more than the
    member itself: feeding whole reads would copy the rest of the read once per member.
    Raises ``EOFError`` for a file that ends inside a member, ``TrailingGarbage`` for bytes
    after a member that start no other, ``zlib.error`` for a broken member.
    """
    with open(path, "rb") as f:
        buffer, at = b"", 0  # the input not yet given to an inflater: buffer[at:]
        inflater, window, members = None, _FIRST_FEED, 0
        while True:
            if at == len(buffer):
                buffer, at = f.read(_CHUNK), 0
                if not buffer:  # end of the file
                    if inflater is not None:
                        if out := inflater.flush():
                            yield out
                        raise EOFError(
                            "compressed file ended before the end-of-stream marker was reached"
                        )
                    return
            if inflater is None:
                if members:  # zero bytes may pad a member, as gzip allows
                    at = _ZEROS.match(buffer, at).end()
                    if at == len(buffer):
                        continue
                    if buffer[at : at + 2] not in (b"\x1f", b"\x1f\x8b"):  # gzip's magic number
                        raise TrailingGarbage(
                            f"trailing garbage after the gzip data, from byte "
                            f"{f.tell() - len(buffer) + at:,} (neither another gzip member nor "
                            "zero padding)"
                        )
                inflater, window = zlib.decompressobj(31), _FIRST_FEED
            piece = buffer[at : at + window]
            out = inflater.decompress(piece, _CHUNK)
            if inflater.eof:  # end of a member: another may follow
                at += len(piece) - len(inflater.unused_data)
                inflater, members = None, members + 1
            else:
                left = len(inflater.unconsumed_tail)  # output held back by the size limit
                at += len(piece) - left
                if not left:
                    window = min(window * 2, _CHUNK)
            if out:
                yield out


def _inflate(path: str | PathLike) -> Iterator[bytes]:
    """Inflated chunks of a gzip file: ISA-L's reader when installed, else ``inflate``.

    Each chunk of ISA-L's reader is one call that runs long without the GIL, so the thread
    seldom waits for the parsing thread to hand the GIL back (its zlib-style objects take the
    GIL back for every output buffer they grow: several times per chunk). Its reader calls
    trailing garbage a truncated file: an error is named by ``inflate``.
    """
    if igzip is None:
        yield from inflate(path)
        return
    try:
        with igzip.open(path, "rb") as f:
            while chunk := f.read(_CHUNK):
                yield chunk
    except (OSError, EOFError):
        for _ in inflate(path):  # raises the error that names the problem
            pass
        raise


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
    except TrailingGarbage as e:
        raise ValueError(f"{path}: {e}") from None
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
        raise ValueError(f"{where}: {value_problem(data, e)}") from None
