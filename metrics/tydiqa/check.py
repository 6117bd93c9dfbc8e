"""``taskeval check tydiqa``: every problem of a TyDi QA primary-task submission, before it is
scored.

Reached only through ``contract.py`` (evaluate never loads it). Each prediction line is checked
by the metric's own ``scoring.normalize_prediction``, one line at a time so that every bad line
is reported, not the first; each gold line by ``scoring.normalize_reference``.

* ``--inputs``: the test JSONL as the task distributes it (gzip when the name contains ``.gz``):
  ``example_id``, ``language``, ``document_plaintext`` and ``passage_answer_candidates`` (byte
  offsets into the UTF-8 text). The scorer matches predictions to examples by id: a prediction
  for an unknown example, a second one for an example and an example without one are errors, as
  are a language other than the example's, a passage index that is no candidate, and a minimal
  span outside the document or on no candidate. The official scorer checks none of these.
* ``--references``: the gold (the dev layout, with annotations); it stands for the inputs when
  none are given, since it holds the documents too.
"""

from __future__ import annotations

from typing import Any

from .scoring import normalize_prediction, normalize_reference

_SCORE_FIELDS = ("passage_answer_score", "minimal_answer_score")
_FEW = 10  # below this many predictions, no answer at all is no sign
_SHOWN = 5  # lines named in a warning about many rows


class _Example:
    """What a prediction is checked against: the example's line, language, document length in
    UTF-8 bytes and passage candidates as ``(start, end)`` byte offsets."""

    __slots__ = ("candidates", "language", "length", "line")

    def __init__(self, line: int, language: Any, length: int, candidates: list) -> None:
        self.line, self.language, self.length, self.candidates = line, language, length, candidates


def _as_official(row: dict) -> dict:
    """Scores as the official script reads them, through ``float()``: numeric strings and
    true/false (1.0/0.0) are numbers (the metric's file reader does the same)."""
    converted = None
    for name in _SCORE_FIELDS:
        value = row.get(name)
        if isinstance(value, (bool, str)):
            try:
                number = float(value)
            except ValueError:
                continue  # reported by normalize_prediction
            converted = converted or dict(row)
            converted[name] = number
    return converted or row


def _predictions(report: Any, path: Any) -> tuple[list[tuple[int, tuple]], list[tuple[int, Any]]]:
    """(line, compact prediction) of each line the scorer reads, the others reported; and
    (line, example_id) of every line that names one, read or not."""
    out, ids = [], []
    lines = report.jsonl(path)
    for number, row in lines:
        row_id = row.get("example_id") if type(row) is dict else None
        if row_id is not None:
            ids.append((number, row_id))
        try:
            if type(row) is not dict:
                raise ValueError(f"expected a JSON object, got {row!r}")
            pred = normalize_prediction(_as_official(row), "predictions[0]")
        except ValueError as e:
            report.refused(e, file=path, line=number, id=row_id)
            continue
        if pred[4] >= 0 and pred[4] == pred[5]:
            report.error(
                f"[{pred[4]}, {pred[5]}) is empty, surely not meant (the official scorer fails on one "
                f"inside a gold span: AssertionError); -1, -1 is the null span",
                file=path,
                line=number,
                id=row_id,
                field="'minimal_answer'",
            )
            continue
        out.append((number, pred))
    report.rows = len(lines)
    return out, ids


def _candidates(value: Any) -> list | None:
    if type(value) is not list:
        return None
    spans = []
    for item in value:
        if type(item) is not dict:
            return None
        start, end = item.get("plaintext_start_byte"), item.get("plaintext_end_byte")
        if type(start) is not int or type(end) is not int:
            return None
        spans.append((start, end))
    return spans


def _examples(report: Any, path: Any, gold: bool) -> dict[int, _Example]:
    """The examples of an inputs (or gold) file by id; a line that is not one is reported."""
    examples: dict[int, _Example] = {}
    for number, row in report.jsonl(path, gzip_by_name=True):
        if type(row) is not dict or type(row.get("example_id")) is not int:
            report.error("expected a JSON object with an int 'example_id'", file=path, line=number)
            continue
        example_id = row["example_id"]
        if gold:
            try:
                normalize_reference(row, "references[0]")
            except ValueError as e:
                report.refused(e, file=path, line=number, id=example_id)
        text, candidates = (
            row.get("document_plaintext"),
            _candidates(row.get("passage_answer_candidates")),
        )
        if type(text) is not str or candidates is None:
            report.error(
                "expected 'document_plaintext' (a string) and 'passage_answer_candidates' "
                "(objects with int plaintext_start_byte and plaintext_end_byte)",
                file=path,
                line=number,
                id=example_id,
            )
            continue
        if example_id in examples:
            report.error(
                f"appears twice (first on line {examples[example_id].line})",
                file=path,
                line=number,
                id=example_id,
                field="'example_id'",
            )
            continue
        length = len(text.encode("utf-8", "surrogatepass"))
        examples[example_id] = _Example(number, row.get("language"), length, candidates)
    return examples


def _within(span: tuple[int, int], candidate: tuple[int, int]) -> bool:
    return candidate[0] <= span[0] and span[1] <= candidate[1]


def _against(report: Any, path: Any, number: int, pred: tuple, example: _Example) -> None:
    """One prediction against its example: language, passage index, minimal span."""
    example_id, language, index, _, start, end, _, _ = pred

    def error(message: str, field: str) -> None:
        report.error(message, file=path, line=number, id=example_id, field=field)

    if language != example.language:
        error(f"is {language!r} but the example is {example.language!r}", "'language'")
    n = len(example.candidates)
    if index >= n:
        error(
            f"{index} is no passage candidate of the example (it has {n}, indices 0 to {n - 1}; "
            f"-1 for none)",
            "'passage_answer_index'",
        )
    if start < 0:
        return
    span = (start, end)
    if end > example.length:
        error(
            f"[{start}, {end}) ends outside the document ({example.length} bytes of UTF-8 text)",
            "'minimal_answer'",
        )
    elif not any(_within(span, c) for c in example.candidates):
        error(
            f"[{start}, {end}) lies within no passage candidate (byte offsets into the UTF-8 "
            f"document; a character offset is a common cause)",
            "'minimal_answer'",
        )
    elif 0 <= index < n and not _within(span, example.candidates[index]):
        report.warning(
            f"[{start}, {end}) lies outside the predicted passage {index} "
            f"{list(example.candidates[index])}",
            file=path,
            line=number,
            id=example_id,
            field="'minimal_answer'",
        )


def run(files: Any, report: Any) -> None:
    """Check ``files.predictions`` (with ``files.inputs``, ``files.references``) into
    ``report``."""
    path = files.predictions
    predictions, ids = _predictions(report, path)
    examples: dict[int, _Example] = {}
    source = None
    for inputs in files.inputs:
        examples.update(_examples(report, inputs, gold=False))
        source = inputs
    if files.references is not None:
        gold = _examples(report, files.references, gold=True)
        if source is None:
            examples, source = gold, files.references
    if source is not None:
        expected = [(e.line, example_id) for example_id, e in examples.items()]
        report.match_ids(expected, source, ids, path, by_position=False, what="example")
        for number, pred in predictions:
            example = examples.get(pred[0])
            if example is not None:
                _against(report, path, number, pred, example)
    null = [n for n, pred in predictions if pred[2] < 0 and pred[4] < 0 and pred[7] == "none"]
    if len(predictions) >= _FEW and len(null) == len(predictions):
        report.warning(
            "no prediction gives a passage, a minimal span or a yes/no answer: every score is 0",
            file=path,
        )
