"""``taskeval check`` on files that are wrong as a whole, and on lines beyond the readers' limit:
each such file named once, in one sentence, in the words ``taskeval score`` uses; the line limit
the scorer's own.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from test_check import tydi_example, tydi_prediction, write

import taskeval
from taskeval._metrics._shared.jsonl import UTF16, file_mistake
from taskeval.check import format_report

FEVER_ROWS = [{"id": i, "predicted_label": "REFUTES", "predicted_evidence": []} for i in (1, 2)]
SCIFACT_ROWS = [{"id": i, "evidence": {}} for i in (1, 2)]
TYDI_ROWS = [tydi_prediction(i) for i in range(1, 4)]
ROWS = {"fever_score": FEVER_ROWS, "scifact_abstract": SCIFACT_ROWS, "tydiqa": TYDI_ROWS}
LINES = "".join(json.dumps(row) + "\n" for row in FEVER_ROWS)

# What the file is made of → the sentence naming it (the readers' own words).
WHOLE_FILE = {
    "one_line_array": (lambda rows: json.dumps(rows).encode(), file_mistake(b"[")),
    "indented_array": (lambda rows: json.dumps(rows, indent=2).encode(), file_mistake(b"[")),
    "gzip": (lambda rows: gzip.compress(_lines(rows), mtime=0), file_mistake(b"\x1f\x8b")),
    "bom": (lambda rows: b"\xef\xbb\xbf" + _lines(rows), file_mistake(b"\xef\xbb\xbf")),
    "utf16": (lambda rows: _lines(rows).decode().encode("utf-16"), UTF16),
    "utf16_no_mark": (lambda rows: _lines(rows).decode().encode("utf-16-le"), UTF16),
}


def _gold(tmp_path: Path, ids: tuple = (1, 2)) -> Path:
    return write(
        tmp_path / "gold.jsonl",
        [{"id": i, "label": "NOT ENOUGH INFO", "claim": "c", "evidence": [[[7, None, None, None]]]}
         for i in ids],
    )  # fmt: skip


def _lines(rows: list) -> bytes:
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def _inputs(tmp_path: Path, metric: str) -> Path:
    """301 test items: a file that is wrong as a whole once drew an error for each."""
    if metric == "tydiqa":
        return write(tmp_path / "test.jsonl", [tydi_example(i) for i in range(1, 302)])
    return write(tmp_path / "test.jsonl", [{"id": i, "claim": "c"} for i in range(1, 302)])


@pytest.mark.parametrize("kind", sorted(WHOLE_FILE))
@pytest.mark.parametrize("metric", sorted(ROWS))
def test_a_file_wrong_as_a_whole_is_named_once(tmp_path, metric, kind):
    make, sentence = WHOLE_FILE[kind]
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_bytes(make(ROWS[metric]))
    report = taskeval.check(metric, predictions, inputs=_inputs(tmp_path, metric))
    assert [p.text() for p in report.problems] == [f"{predictions}:1: error: {sentence}"], (
        format_report(report)
    )
    assert report.rows == 0 and not report.ok


@pytest.mark.parametrize("kind", ["indented_array", "gzip", "bom"])
def test_check_and_score_name_a_whole_file_alike(tmp_path, kind):
    make, sentence = WHOLE_FILE[kind]
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_bytes(make(FEVER_ROWS))
    references = _gold(tmp_path)
    with pytest.raises(ValueError) as scored:
        taskeval.read_official("fever_score", references=references, predictions=predictions)
    (problem,) = taskeval.check("fever_score", predictions).problems
    assert str(scored.value) == f"{predictions}, line 1: {problem.message}"
    assert problem.message == sentence


def test_a_whole_file_mistake_of_the_inputs_is_named_once(tmp_path):
    predictions = write(tmp_path / "predictions.jsonl", FEVER_ROWS)
    inputs = tmp_path / "test.jsonl"
    inputs.write_bytes(gzip.compress(LINES.encode(), mtime=0))
    report = taskeval.check("fever_score", predictions, inputs=inputs)
    assert [(p.file, p.line, p.message) for p in report.problems] == [
        (str(inputs), 1, file_mistake(b"\x1f\x8b"))
    ]


def test_a_gzip_file_read_as_gzip_is_no_mistake(tmp_path):
    inputs = tmp_path / "test.jsonl.gz"
    inputs.write_bytes(gzip.compress(_lines([tydi_example(i) for i in (1, 2, 3)]), mtime=0))
    predictions = write(tmp_path / "predictions.jsonl", TYDI_ROWS)
    assert taskeval.check("tydiqa", predictions, inputs=inputs).problems == []


# ---------------------------------------------------------------------------------------------
# The line limit


@pytest.mark.parametrize("size", [100, 2 << 20])  # a small file, and one read in bulk
def test_a_line_beyond_the_limit_is_refused_as_score_refuses_it(tmp_path, monkeypatch, size):
    rows = [*FEVER_ROWS, {"id": 3, "predicted_label": "x" * size, "predicted_evidence": []}]
    predictions = write(tmp_path / "predictions.jsonl", rows)
    monkeypatch.setenv("TASKEVAL_MAX_LINE_BYTES", str(size))
    report = taskeval.check("fever_score", predictions)
    references = _gold(tmp_path, (1, 2, 3))
    with pytest.raises(ValueError) as scored:
        taskeval.read_official("fever_score", references=references, predictions=predictions)
    (problem,) = report.errors
    assert (problem.file, problem.line) == (str(predictions), 3)
    assert str(scored.value) == f"{predictions}, line 3: {problem.message}"
    assert problem.message.startswith(f"longer than {size:,} bytes (the limit")


def test_a_gzip_line_beyond_the_limit_is_refused(tmp_path, monkeypatch):
    inputs = tmp_path / "test.jsonl.gz"
    inputs.write_bytes(gzip.compress(b'{"example_id": 1, "x": "' + b"y" * 5000 + b'"}\n'))
    monkeypatch.setenv("TASKEVAL_MAX_LINE_BYTES", "1000")
    report = taskeval.check("tydiqa", write(tmp_path / "p.jsonl", TYDI_ROWS[:1]), inputs=inputs)
    (problem,) = [p for p in report.problems if p.file == str(inputs)]
    assert problem.line == 1 and problem.message.startswith("longer than 1,000 bytes (the limit")


def test_an_endless_device_ends_in_one_problem():
    report = taskeval.check("fever_score", "/dev/zero")
    assert [p.text() for p in report.problems] == [
        "/dev/zero:1: error: a NUL byte: binary data, not JSON Lines text (one JSON value per line)"
    ]
