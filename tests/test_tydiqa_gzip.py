"""The TyDi QA gold reader inflates gzip files as Python's gzip module reads them, with ISA-L's
reader and with the standard-library fallback the metric folder uses when isal is missing."""

from __future__ import annotations

import gzip
import subprocess
import sys
import threading
import time

import pytest
from counting_zlib import CountingZlib

from taskeval._metrics.tydiqa import file_lines


def _line(i: int) -> bytes:
    return b'{"annotations":[],"example_id":%d,"language":"english"}\n' % i


FILES = {
    "empty file": b"",
    "one member": gzip.compress(_line(1)),
    "two members": gzip.compress(_line(1)) + gzip.compress(_line(2)),
    "an empty member": gzip.compress(b"") + gzip.compress(_line(3)),
    "zero padding at the end": gzip.compress(_line(1)) + b"\0" * 100,
    "zero padding between members": gzip.compress(_line(1)) + b"\0" * 7 + gzip.compress(_line(2)),
    "zero padding longer than a read between members": (
        gzip.compress(_line(1)) + b"\0" * 10_000 + gzip.compress(_line(2))
    ),
    "many members, padded, over many chunks": b"".join(
        gzip.compress(b"".join(_line(i) for i in range(j, j + 3000))) + b"\0" * (j % 5)
        for j in range(0, 15000, 3000)
    ),
}
BROKEN = {
    "truncated": gzip.compress(_line(1) * 50)[:-30],
    "garbage after a member": gzip.compress(_line(1)) + b"xyz",
    "garbage after padding": gzip.compress(_line(1)) + b"\0\0\x1e",
    "garbage that starts as gzip does": gzip.compress(_line(1)) + b"\x1f\x00abc",
    "not gzip": b"plain text\n",
    "zero bytes only": b"\0" * 10,
}
# What the reader says of each: trailing garbage is not a truncated file.
REFUSALS = {
    "truncated": "cannot be read (compressed file ended before the end-of-stream marker",
    "garbage after a member": (
        f"trailing garbage after the gzip data, from byte {len(gzip.compress(_line(1)))} "
        "(neither another gzip member nor zero padding)"
    ),
    "garbage after padding": "trailing garbage after the gzip data, from byte ",
    "garbage that starts as gzip does": "trailing garbage after the gzip data, from byte ",
    "not gzip": "cannot be read (",
    "zero bytes only": "cannot be read (",
}


@pytest.fixture(params=["isal", "zlib"])
def reader(request, monkeypatch):
    if request.param == "zlib":
        monkeypatch.setattr(file_lines, "igzip", None)
    else:
        assert file_lines.igzip is not None  # taskeval requires isal
    monkeypatch.setattr(file_lines, "_CHUNK", 1 << 12)  # many chunks, members across their borders
    return request.param


@pytest.mark.parametrize("name", FILES)
def test_gzip_files_are_read_as_gzip_reads_them(tmp_path, reader, name):
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(FILES[name])
    expected = gzip.decompress(FILES[name]) if FILES[name] else b""
    got = b"".join(data[start : end + 1] for _, data, start, end in file_lines.lines(path, True))
    assert got == expected


@pytest.mark.parametrize("name", BROKEN)
def test_broken_gzip_files_are_refused(tmp_path, reader, name):
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(BROKEN[name])
    with pytest.raises(OSError if name != "truncated" else EOFError):
        gzip.decompress(BROKEN[name])
    with pytest.raises(ValueError) as refused:
        list(file_lines.lines(path, True))
    assert f"gold.jsonl.gz: {REFUSALS[name]}" in str(refused.value)


def test_without_isal_the_standard_library_inflates(tmp_path):
    """The metric folder alone needs only the standard library: with isal missing, the reader
    takes zlib (a fresh process, where importing isal fails)."""
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(FILES["many members, padded, over many chunks"])
    code = (
        "import sys; sys.modules['isal'] = None\n"
        "from taskeval._metrics.tydiqa import file_lines\n"
        "assert file_lines.igzip is None and file_lines.zlib.__name__ == 'zlib'\n"
        "print(sum(1 for _ in file_lines.lines(sys.argv[1], True)))"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "15000\n"


def test_a_reader_that_pauses_still_gets_every_line(tmp_path, reader):
    """The inflating thread waits while the queue is full (here for longer than its put
    timeout) and then goes on: nothing is lost and nothing stops early."""
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(FILES["many members, padded, over many chunks"])
    counted = []

    def read() -> None:
        lines = file_lines.lines(path, True)
        next(lines)
        time.sleep(0.5)
        counted.append(1 + sum(1 for _ in lines))

    reading = threading.Thread(target=read, daemon=True)  # a lost chunk would block it for good
    reading.start()
    reading.join(timeout=20)
    assert counted == [15000]


def test_many_members_are_inflated_in_time_linear_in_the_file(tmp_path, monkeypatch):
    """A member's leftover input is copied out by zlib: fed whole reads, a file of many tiny
    members costs a read per member (quadratic). Each byte is given to an inflater a few times
    at most, padded or not, whatever the read size."""
    monkeypatch.setattr(file_lines, "igzip", None)
    counting = CountingZlib(file_lines.zlib)
    monkeypatch.setattr(file_lines, "zlib", counting)
    monkeypatch.setattr(file_lines, "_CHUNK", 1 << 16)
    data = b"".join(gzip.compress(_line(i), mtime=0) + b"\0" * (i % 3) for i in range(3000))
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(data)
    assert sum(1 for _ in file_lines.lines(path, True)) == 3000
    assert counting.fed <= 3 * len(data)
