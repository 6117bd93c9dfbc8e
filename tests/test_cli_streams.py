"""Files that can be read only once: a pipe on stdin (``--predictions /dev/stdin``), process
substitution (``/dev/fd/63``), a named FIFO. The readers open a file more than once (a fast
path, then the checking one; ``check``'s reading and its scoring), so each stream is read once,
whole, and every reader finds all of it: the numbers and the messages are those of the same
content in a regular file, and nothing hangs."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import taskeval

REPO = Path(__file__).resolve().parents[1]
FEVER = REPO / "spaces" / "fever_score" / "examples"
TYDI = REPO / "spaces" / "tydiqa" / "examples"


def _run(*args: str, stdin: bytes | None = None, pass_fds=()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "taskeval", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        pass_fds=pass_fds,
        timeout=120,
    )


def _broken(text: str, line: int) -> bytes:
    lines = text.splitlines(keepends=True)
    lines[line - 1] = "{broken\n"
    return "".join(lines).encode()


def _fever_files(tmp_path: Path) -> tuple[bytes, Path]:
    predictions = (FEVER / "predictions.jsonl").read_text("utf-8")
    return predictions.encode(), FEVER / "actual.jsonl"


@pytest.mark.parametrize("command", ["score", "check"])
def test_a_pipe_on_stdin_is_read_as_the_same_file_would_be(tmp_path, command):
    content, gold = _fever_files(tmp_path)
    regular = tmp_path / "predictions.jsonl"
    regular.write_bytes(content)
    for text in (content, _broken(content.decode(), 3)):
        regular.write_bytes(text)
        piped = _run(
            command,
            "fever_score",
            "--predictions",
            "/dev/stdin",
            "--references",
            str(gold),
            stdin=text,
        )
        filed = _run(
            command, "fever_score", "--predictions", str(regular), "--references", str(gold)
        )
        assert piped.returncode == filed.returncode, piped.stderr
        assert piped.stdout.replace(b"/dev/stdin", str(regular).encode()) == filed.stdout
        assert piped.stderr.replace(b"/dev/stdin", str(regular).encode()) == filed.stderr
    named = b"/dev/stdin, line 3:" if command == "score" else b"/dev/stdin:3: error"
    assert named in piped.stderr + piped.stdout  # the broken line is named, not "empty"


def test_a_broken_tydi_line_on_stdin_is_named_not_scored_as_zeros():
    lines = (TYDI / "predictions.jsonl").read_text("utf-8").splitlines(keepends=True)
    broken = "".join([*lines[:2], "{broken\n", *lines[3:]]).encode()
    done = _run(
        "score", "tydiqa", "--predictions", "/dev/stdin", "--references",
        str(TYDI / "gold.jsonl.gz"), stdin=broken,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout
    assert b"/dev/stdin" in done.stderr and b"line 3" in done.stderr, done.stderr
    assert b"no prediction at all" not in done.stderr


def test_process_substitution(tmp_path):
    """``<(...)`` gives ``/dev/fd/N``, a pipe: ``<(zcat gold.jsonl.gz)`` for TyDi's gold (gzip
    is read where the name says ``.gz``, as the official script reads it)."""
    predictions = (TYDI / "predictions.jsonl").read_bytes()
    gold = gzip.decompress((TYDI / "gold.jsonl.gz").read_bytes())
    expected = _run(
        "score", "tydiqa", "--predictions", str(TYDI / "predictions.jsonl"), "--references",
        str(TYDI / "gold.jsonl.gz"),
    )  # fmt: skip
    assert expected.returncode == 0, expected.stderr
    pipes = [os.pipe(), os.pipe()]
    writers = [
        threading.Thread(target=_write, args=(w, data))
        for (_, w), data in zip(pipes, (predictions, gold))
    ]
    for t in writers:
        t.start()
    (p, _), (g, _) = pipes
    done = _run(
        "score", "tydiqa", "--predictions", f"/dev/fd/{p}", "--references", f"/dev/fd/{g}",
        pass_fds=(p, g),
    )  # fmt: skip
    for t in writers:
        t.join()
    for r, _ in pipes:
        os.close(r)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.stdout


def _write(descriptor: int, data: bytes) -> None:
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)


@pytest.mark.parametrize("command", ["score", "check"])
def test_a_named_fifo_is_read_once_and_nothing_hangs(tmp_path, command):
    content, gold = _fever_files(tmp_path)
    fifo = tmp_path / "predictions.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as out:  # waits for the reader, writes once, closes
            out.write(content)

    writer = threading.Thread(target=feed)
    writer.start()
    done = _run(command, "fever_score", "--predictions", str(fifo), "--references", str(gold))
    writer.join(timeout=10)
    assert done.returncode == 0, done.stderr
    if command == "score":
        expected = taskeval.score_files(
            "fever_score", predictions=FEVER / "predictions.jsonl", references=gold
        )
        assert json.loads(done.stdout) == expected
    else:
        assert b"0 errors" in done.stdout


def test_the_api_reads_a_pipe_whole(tmp_path):
    content, gold = _fever_files(tmp_path)
    read, write = os.pipe()
    writer = threading.Thread(target=_write, args=(write, _broken(content.decode(), 4)))
    writer.start()
    try:
        with pytest.raises(ValueError, match=rf"^/dev/fd/{read}, line 4: not a JSON value"):
            taskeval.score_files("fever_score", predictions=f"/dev/fd/{read}", references=gold)
    finally:
        writer.join()
        os.close(read)


def test_a_broken_line_is_a_value_error_in_a_fresh_process(tmp_path):
    """In a process that has not imported ``json``, the C scanner the readers use fails on
    ``{broken`` without its exception (a SystemError): the line is then read by json.loads."""
    content, gold = _fever_files(tmp_path)
    broken = tmp_path / "predictions.jsonl"
    broken.write_bytes(_broken(content.decode(), 2))
    code = (
        "import sys, taskeval\n"
        "try:\n"
        "    taskeval.score_files('fever_score', predictions=sys.argv[1], references=sys.argv[2])\n"
        "except ValueError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(broken), str(gold)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{broken}, line 2: not a JSON value"), done.stdout


def test_an_endless_line_in_a_pipe_is_not_copied_past_the_line_limit():
    """The copy stops once a line passes the readers' limit (they refuse it there): a pipe that
    never ends a line never fills the disk. /dev/zero, a device, is read as it is."""
    env = {**os.environ, "TASKEVAL_MAX_LINE_BYTES": "1000"}
    process = subprocess.Popen(
        [sys.executable, "-m", "taskeval", "score", "fever_score", "--predictions", "/dev/stdin"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    written = 0
    try:
        for _ in range(4096):  # 4 GiB, were it all read
            process.stdin.write(b"a" * (1 << 20))
            written += 1
        process.stdin.close()
    except BrokenPipeError:
        pass
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1
    assert written < 64, written  # the reader went away early
    assert "/dev/stdin, line 1: longer than 1,000 bytes" in err, err


def test_a_pipe_is_copied_whole_up_to_the_line_past_the_limit():
    """Over a megabyte of good lines (the copy's chunks end inside lines), then a line that never
    ends: every good line is copied, and the endless one is refused at its own line number."""
    env = {**os.environ, "TASKEVAL_MAX_LINE_BYTES": "1000"}
    good = (FEVER / "predictions.jsonl").read_bytes() * 60  # 6,000 lines, 1.4 MB
    process = subprocess.Popen(
        [sys.executable, "-m", "taskeval", "score", "fever_score", "--predictions", "/dev/stdin",
         "--references", str(FEVER / "actual.jsonl")],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=REPO,
    )  # fmt: skip
    try:
        process.stdin.write(good)
        for _ in range(64):  # 64 MiB without a line end, were it all read
            process.stdin.write(b"a" * (1 << 20))
        process.stdin.close()
    except BrokenPipeError:
        pass
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1
    lines = good.count(b"\n")
    assert f"/dev/stdin, line {lines + 1}: longer than 1,000 bytes" in err, err
