"""A file wrong as a whole (one JSON array, gzip, a byte order mark, UTF-16) named in one
sentence, the same from ``taskeval score``, ``taskeval check`` and ``read_official``, for a JSON
Lines metric and for TyDiQA-GoldP's one JSON object alike."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics._shared import jsonl
from taskeval.export import spaces_root

from harness import run_cli

FEVER_ROWS = [{"id": i, "predicted_label": "REFUTES", "predicted_evidence": []} for i in (1, 2)]
FEVER_GOLD = [
    {"id": i, "label": "NOT ENOUGH INFO", "claim": "c", "evidence": [[[7, None, None, None]]]}
    for i in (1, 2)
]
GOLDP = spaces_root() / "tydiqa_goldp" / "examples"
BOM = b"\xef\xbb\xbf"

# What the predictions are made of, from the file's right bytes → the sentence naming it.
KINDS = {
    "gzip": (lambda data: gzip.compress(data, mtime=0), jsonl.not_text(b"\x1f\x8b")),
    "bom": (lambda data: BOM + data, jsonl.not_text(BOM)),
    "utf16": (lambda data: data.decode().encode("utf-16"), jsonl.UTF16),
    "utf16_no_mark": (lambda data: data.decode().encode("utf-16-le"), jsonl.UTF16),
}


def _every_path(metric: str, references: Path, predictions: Path) -> tuple[str, str, str]:
    """The refusal of ``predictions`` by ``score`` (its error line), ``read_official`` and
    ``check`` (its one problem), each as ``<file>, line <n>: <sentence>``."""
    code, out, err = run_cli(
        ["score", metric, "--references", str(references), "--predictions", str(predictions)]
    )
    assert (code, out) == (1, "") and len(err.splitlines()) == 1, err
    with pytest.raises(ValueError) as read:
        taskeval.read_official(metric, references=references, predictions=predictions)
    (problem,) = taskeval.check(metric, predictions, references=references).problems
    checked = f"{problem.file}, line {problem.line}: {problem.message}"
    return err.rstrip("\n").split(": error: ", 1)[1], str(read.value), checked


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_fever_file_wrong_as_a_whole(tmp_path, kind):
    make, sentence = KINDS[kind]
    references = tmp_path / "gold.jsonl"
    references.write_text("".join(json.dumps(r) + "\n" for r in FEVER_GOLD))
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_bytes(make("".join(json.dumps(r) + "\n" for r in FEVER_ROWS).encode()))
    expected = f"{predictions}, line 1: {sentence}"
    assert _every_path("fever_score", references, predictions) == (expected,) * 3


def test_a_one_line_array_is_named_alike(tmp_path):
    references = tmp_path / "gold.jsonl"
    references.write_text("".join(json.dumps(r) + "\n" for r in FEVER_GOLD))
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(json.dumps(FEVER_ROWS) + "\n")
    expected = f"{predictions}, line 1: {jsonl.ONE_ARRAY}"
    assert _every_path("fever_score", references, predictions) == (expected,) * 3


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_goldp_file_wrong_as_a_whole(tmp_path, kind):
    make, sentence = KINDS[kind]
    predictions = tmp_path / "predictions.json"
    predictions.write_bytes(make((GOLDP / "predictions.json").read_bytes()))
    sentence = sentence.replace("JSON Lines text", "JSON text")  # GoldP's files are JSON
    expected = f"{predictions}, line 1: {sentence}"
    assert _every_path("tydiqa_goldp", GOLDP / "gold.json", predictions) == (expected,) * 3


@pytest.mark.parametrize("metric", ["fever_score", "tydiqa_goldp"])
def test_the_space_names_a_utf16_upload_as_score_does(tmp_path, metric):
    """The Space's Compute reads an upload with the same reader: UTF-16 is not "binary data"."""
    from test_spaces import _gradio_upload, app_module, default_controls

    from taskeval.space import compute

    spec = app_module(metric).SPEC
    gold = str(spec.example_files["references"][0])
    upload = Path(_gradio_upload(tmp_path, "mine.json", ""))
    upload.write_bytes(Path(spec.example_files["predictions"][0]).read_bytes().decode().encode("utf-16"))  # fmt: skip
    error, *_ = compute(spec, "files", "", "", str(upload), gold, *default_controls(spec))
    assert error["value"] == f"mine.json, line 1: {jsonl.UTF16}"
