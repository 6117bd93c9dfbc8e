"""The JSONL reader on hostile and mistaken files: linear for any line length, bounded by a line
limit, ending at once on binary data, and naming the common mistakes (a JSON array, a gzip
file, a byte order mark) in one line."""

from __future__ import annotations

import gzip
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics._shared import jsonl

REPO = Path(__file__).resolve().parents[1]
FEVER = REPO / "spaces" / "fever_score" / "examples"
ROW = {"id": 1, "predicted_label": "SUPPORTS", "predicted_evidence": [["Page", 0]]}


def lines_of(chunks: list[bytes], universal: bool = True) -> list[bytes]:
    return [data[s:e] for _, data, s, e in jsonl.iter_lines(chunks, universal)]


def test_a_line_over_many_chunks_is_read_whole():
    text = b"x" * 10_000
    chunks = [text[i : i + 7] for i in range(0, len(text), 7)] + [b"\r", b"\nnext\r", b"\r\n"]
    assert lines_of(chunks) == [text, b"next", b""]
    assert lines_of([b"ab", b"c\r"]) == [b"abc"]
    assert lines_of([b"a\r", b"\r"]) == [b"a", b""]
    assert lines_of([b"a\r", b"b"], universal=False) == [b"a\rb"]


def test_a_line_longer_than_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("TASKEVAL_MAX_LINE_BYTES", "100")
    path = tmp_path / "long.jsonl"
    path.write_bytes(b'{"a": 1}\n' + b'"' + b"x" * 200 + b'"\n')
    with pytest.raises(ValueError) as refused:
        jsonl.read_jsonl(path)
    assert str(refused.value) == (
        f"{path}, line 2: longer than 100 bytes (the limit, TASKEVAL_MAX_LINE_BYTES): is this a "
        "JSON Lines file?"
    )
    # The same line over many chunks, unfinished: refused as soon as it passes the limit.
    endless = iter([b"y" * 60] * 10**9)
    with pytest.raises(ValueError, match=r"^line 1: longer than 100 bytes"):
        lines_of(endless)
    monkeypatch.setenv("TASKEVAL_MAX_LINE_BYTES", "202")
    assert len(jsonl.read_jsonl(path)) == 2


def test_binary_data_is_refused_at_its_line(tmp_path):
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n\x00\x00\x00')
    with pytest.raises(ValueError) as refused:
        jsonl.read_jsonl(path)
    assert str(refused.value) == (
        f"{path}, line 3: a NUL byte: binary data, not JSON Lines text (one JSON value per line)"
    )
    # An earlier bad line is the one named, as the official scorer would stop there.
    path.write_bytes(b'{"a": 1}\n{"b"\n\x00')
    with pytest.raises(ValueError, match="line 2: not a JSON value"):
        jsonl.read_jsonl(path)
    endless_zeros = iter([b"\x00" * 4096] * 10**9)
    with pytest.raises(ValueError, match=r"^line 1: a NUL byte"):
        lines_of(endless_zeros)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            json.dumps([ROW, ROW], indent=2).encode(),
            "line 1: the file is a JSON array, not JSON Lines: write one JSON object per line",
        ),
        (
            json.dumps([ROW, ROW]).encode() + b"\n",
            "line 1: the file is a JSON array, not JSON Lines: write one JSON object per line",
        ),
        (
            gzip.compress(json.dumps(ROW).encode() + b"\n"),
            "line 1: a gzip file, not JSON Lines text: decompress it first (gunzip)",
        ),
        (
            b"\xef\xbb\xbf" + json.dumps(ROW).encode() + b"\n",
            "line 1: the file starts with a UTF-8 byte order mark (BOM)",
        ),
    ],
    ids=["pretty-printed array", "one-line array", "gzip", "BOM"],
)
def test_common_mistakes_are_named(tmp_path, content, message):
    path = tmp_path / "predictions.jsonl"
    path.write_bytes(content)
    with pytest.raises(ValueError) as refused:
        taskeval.read_official("fever_score", references=FEVER / "actual.jsonl", predictions=path)
    assert str(refused.value).startswith(f"{path}, {message}")
    assert len(str(refused.value)) < 300  # never the file's content


def _limited_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))


def _cli(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "taskeval", *argv],
        capture_output=True,
        timeout=120,
        preexec_fn=_limited_memory,
        **kwargs,
    )


@pytest.mark.slow
def test_the_command_line_given_dev_zero_ends_with_one_line():
    done = _cli(["score", "fever_score", "--predictions", "/dev/zero"])
    err = done.stderr.decode()
    assert done.returncode == 1 and len(err.splitlines()) == 1, err[-2000:]
    assert "/dev/zero, line 1: a NUL byte" in err


@pytest.mark.slow
def test_the_command_line_given_an_endless_line_ends_with_one_line():
    """A 1 GiB line (fed through a pipe, never written to disk): refused at the line limit, in
    bounded memory (the process may not grow past 1.5 GiB of address space)."""
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "taskeval", "score", "fever_score", "--predictions",
             "/dev/stdin"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err,
            preexec_fn=_limited_memory,
        )  # fmt: skip
        piece = b"a" * (1 << 20)
        try:
            for _ in range(1024):
                process.stdin.write(piece)
            process.stdin.close()
        except BrokenPipeError:
            pass  # the reader stopped early, as it should
        assert process.wait(timeout=120) == 1
        err.seek(0)
        text = err.read().decode()
    assert len(text.splitlines()) == 1, text[-2000:]
    assert "/dev/stdin, line 1: longer than 268,435,456 bytes" in text


@pytest.mark.parametrize("loads", ["loads_binary", "loads_text"])
def test_tydi_qa_lines_past_python_s_json_limits_are_named_in_plain_words(loads):
    from taskeval._metrics.tydiqa import file_lines

    where = "gold.jsonl.gz, line 2"
    too_many = b'{"example_id": ' + b"7" * 10_001 + b"}"
    with pytest.raises(ValueError, match=rf"^{where}: an integer of more than 4,300 digits, "):
        file_lines.json_value(too_many, where, getattr(file_lines, loads))
    deep = b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(ValueError, match=rf"^{where}: JSON nested too deeply to be read$"):
        file_lines.json_value(deep, where, getattr(file_lines, loads))
