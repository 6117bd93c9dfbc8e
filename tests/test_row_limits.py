"""The Space's row limit, checked before a file is read (``space_worker.check_file``, which the
Compute and Check panels run): every line counts however it ends and however a gzip file is
split (members, zero padding), the count stops at the limit, and its work is linear in the file.
"""

from __future__ import annotations

import gzip

import pytest
from counting_zlib import CountingZlib

from taskeval._metrics._shared.jsonl import iter_lines
from taskeval._metrics.tydiqa import file_lines
from taskeval.line_count import count_lines
from taskeval.registry import contract
from taskeval.space_worker import Limits, check_file

LINE = b'{"example_id": 1}'


def _limits(rows: int) -> Limits:
    limits = Limits()
    limits.rows = rows
    return limits


def _refused(path, gzipped: bool, rows: int) -> bool:
    """The check the panels run, a gzip file inflated by TyDi QA's reader (its contract's)."""
    try:
        check_file(str(path), path.name, gzipped, _limits(rows), contract("tydiqa").files.inflate)
    except ValueError as e:
        assert str(e) == (
            f"{path.name}: more than {rows:,} lines, the most this Space reads "
            "(TASKEVAL_SPACE_MAX_ROWS)"
        )
        return True
    return False


@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"])
def test_every_line_counts_however_it_ends(tmp_path, end):
    path = tmp_path / "predictions.jsonl"
    path.write_bytes((LINE + end) * 3)
    assert not _refused(path, False, 3)
    path.write_bytes((LINE + end) * 4)
    assert _refused(path, False, 3)
    path.write_bytes((LINE + end) * 3 + LINE)  # the last line without its line break
    assert _refused(path, False, 3)


@pytest.mark.parametrize(
    "split",
    [
        pytest.param(lambda lines: b"".join(gzip.compress(line) for line in lines), id="members"),
        pytest.param(
            lambda lines: b"\0\0".join(gzip.compress(line) for line in lines), id="zero padding"
        ),
        pytest.param(
            lambda lines: (
                gzip.compress(lines[0]) + b"\0" * 70_000 + gzip.compress(b"".join(lines[1:]))
            ),
            id="padding longer than a read",
        ),
    ],
)
def test_every_line_of_a_gzip_file_counts_however_it_is_split(tmp_path, split):
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(split([LINE + b"\n"] * 4))
    assert sum(1 for _ in file_lines.lines(path, True)) == 4  # what the reader reads
    assert not _refused(path, True, 4)
    assert _refused(path, True, 3)


def test_counting_the_lines_of_many_gzip_members_is_linear_in_the_file(tmp_path, monkeypatch):
    counting = CountingZlib(file_lines.zlib)
    monkeypatch.setattr(file_lines, "zlib", counting)
    data = b"".join(gzip.compress(LINE + b"\n", mtime=0) for _ in range(5000))
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(data)
    assert not _refused(path, True, 5000)
    assert len(data) <= counting.fed <= 3 * len(data)  # the reader's inflater, each byte few times


def test_counting_stops_once_past_the_limit():
    read = []

    def chunks():
        for i in range(100):
            read.append(i)
            yield LINE + b"\n"

    assert count_lines(chunks(), 10) == 11
    assert len(read) == 11


@pytest.mark.parametrize(
    "chunks",
    [
        [b"a\r", b"\nb"],
        [b"a\r", b"\r\n", b"\n"],
        [b"a", b"", b"\r", b"b\r"],
        [b"\r\n\r\r\n\n"],
        [b"a\n", b""],
        [],
        [b"x"],
    ],
)
def test_the_count_is_never_below_the_lines_a_reader_finds(chunks):
    """A text-mode reader's lines, counted as they are split across reads."""
    found = sum(1 for _ in iter_lines(chunks, True))
    assert count_lines(chunks, 100) == found
