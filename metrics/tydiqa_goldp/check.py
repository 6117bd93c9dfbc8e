"""``taskeval check tydiqa_goldp``: every problem of a TyDiQA-GoldP submission, before it is
scored.

Reached only through ``contract.py`` (evaluate never loads it). The predictions are one JSON
object ``{id: answer text}``: its problems are at the line of their id (``_key_lines``), with
the field (``'id'`` for the key, ``answer`` for the value); a question's at the line of its id in
the SQuAD-layout file (``_id_lines``). The ids and answers are held to the metric's own checks
(``rows.prediction_of``, ``scoring.language_of``); the gold to its reader and row checks
(``inputs.read_gold``, ``rows.reference_of``).

* ``--inputs``: the task's questions in SQuAD 1.1 layout (``data`` → ``paragraphs`` →
  ``context``, ``qas`` with ``id``; answers absent or ignored), a file, several or a folder.
* ``--references``: the gold in the same layout, when the user has it; the predictions are held
  to its questions when no inputs are given.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from .inputs import _load, gold_files, read_gold
from .rows import prediction_of, reference_of
from .scoring import AVERAGED, language_of

# A question: (file, id, its paragraph's context or None, the line of its id or None).
_Question = tuple[str, Any, Any, int | None]


def _unreadable(report: Any, path: Any, error: ValueError) -> None:
    """A file the metric's reader refuses as a whole (not readable, not UTF-8, not JSON): one
    that is not text at all (gzip, UTF-16, a BOM) at its line 1, in the reader's sentence."""
    message = str(error)
    whole = message.removeprefix(f"{os.fspath(path)}, line 1: ")
    if whole != message:
        report.not_json_lines(path, whole)
        return
    report.error(message.removeprefix(f"{os.fspath(path)}: "), file=path)


_SPACE = re.compile(r"[ \t\n\r]*")


def _key_lines(path: Any) -> dict[str, int]:
    """The line of each key of the JSON object in ``path`` (of its last occurrence: json keeps
    the last value of a repeated key); as far as it reads, for a file that is not one."""
    from json.decoder import scanstring

    lines: dict[str, int] = {}
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        decoder, line, counted = json.JSONDecoder(), 1, 0
        i = _SPACE.match(text).end()
        if text[i : i + 1] != "{":
            return lines
        i = _SPACE.match(text, i + 1).end()
        while text[i : i + 1] == '"':
            line, counted = line + text.count("\n", counted, i), i
            key, i = scanstring(text, i + 1)
            lines[key] = line
            i = _SPACE.match(text, i).end()
            if text[i : i + 1] != ":":
                break
            i = decoder.raw_decode(text, _SPACE.match(text, i + 1).end())[1]
            i = _SPACE.match(text, i).end()
            if text[i : i + 1] != ",":
                break
            i = _SPACE.match(text, i + 1).end()
    except (OSError, ValueError, RecursionError):
        pass
    return lines


# A question's id in the SQuAD layout: "id": "<text>" (a quote inside a string is escaped).
_QUESTION_ID = re.compile(r'"id"[ \t\n\r]*:[ \t\n\r]*("(?:[^"\\]|\\.)*")')


def _id_lines(path: Any) -> dict[str, int]:
    """The line of each question id of a SQuAD-layout file (its first occurrence)."""
    lines: dict[str, int] = {}
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, ValueError):
        return lines
    line, counted = 1, 0
    for match in _QUESTION_ID.finditer(text):
        line, counted = line + text.count("\n", counted, match.start()), match.start()
        try:
            lines.setdefault(json.loads(match.group(1)), line)
        except ValueError:
            continue
    return lines


def _predictions(
    report: Any, path: Any
) -> tuple[dict[str, None], dict[str, str], dict[str, int]] | None:
    """The ids the metric takes, the answers it takes by id and the line of each id; each refused
    id or answer reported. None when the file is not a JSON object."""
    try:
        value = _load(path, "predictions file")
    except ValueError as e:
        _unreadable(report, path, e)
        return None
    if not isinstance(value, dict):
        report.error(
            f"expected one JSON object {{id: answer text}}, got a {type(value).__name__} "
            f"{value!r:.80}",
            file=path,
        )
        return None
    report.rows = len(value)
    lines = _key_lines(path)
    ids: dict[str, None] = {}  # a set in file order: the problems come out in that order
    answers = {}
    for index, (key, answer) in enumerate(value.items()):
        line = lines.get(key)
        try:
            prediction_of({"id": key, "prediction_text": ""}, index)
        except ValueError as e:
            report.refused(e, file=path, line=line, id=key)
            continue
        ids[key] = None
        try:
            prediction_of({"id": key, "prediction_text": answer}, index)
        except ValueError:
            report.error(
                f"must be a string, got {answer!r:.80}: the SQuAD script normalises every "
                f"answer as text",
                file=path,
                line=line,
                id=key,
                field="answer",
            )
            continue
        answers[key] = answer
    return ids, answers, lines


def _layout(report: Any, path: str) -> list[_Question] | None:
    """The questions of one SQuAD-layout file, with their contexts; a part not in the layout
    reported (answers are not read). None when the file cannot be read as one."""
    try:
        dataset = _load(path, "questions file")
    except ValueError as e:
        _unreadable(report, path, e)
        return None
    data = dataset.get("data") if isinstance(dataset, dict) else None
    if not isinstance(data, list):
        report.error("expected a SQuAD 1.1 JSON object with a 'data' list", file=path)
        return None
    questions, lines = [], _id_lines(path)
    for i, article in enumerate(data):
        paragraphs = article.get("paragraphs") if isinstance(article, dict) else None
        if not isinstance(paragraphs, list):
            report.error(
                "expected an article with a 'paragraphs' list", file=path, field=f"data[{i}]"
            )
            continue
        for j, paragraph in enumerate(paragraphs):
            where = f"data[{i}].paragraphs[{j}]"
            qas = paragraph.get("qas") if isinstance(paragraph, dict) else None
            if not isinstance(qas, list):
                report.error("expected a paragraph with a 'qas' list", file=path, field=where)
                continue
            context = paragraph.get("context")
            for k, qa in enumerate(qas):
                if not isinstance(qa, dict) or "id" not in qa:
                    report.error(
                        "expected a question with an 'id'", file=path, field=f"{where}.qas[{k}]"
                    )
                    continue
                question_id = qa["id"]
                line = lines.get(question_id) if isinstance(question_id, str) else None
                questions.append((path, question_id, context, line))
    return questions


def _questions(report: Any, given: Any, gold: bool) -> tuple[list[_Question], bool]:
    """The questions of the files ``given`` (a file or folder, or several), and whether every
    file could be read; the gold's rows also held to the metric's reader and row checks."""
    paths, complete = [], True
    for path in given:
        try:
            paths += gold_files(path)
        except ValueError as e:
            _unreadable(report, path, e)
            complete = False
    questions = []
    for path in paths:
        found = _layout(report, path)
        if found is None:
            complete = False
            continue
        questions += found
        if gold:
            _gold_rows(report, path)
    return questions, complete


def _gold_rows(report: Any, path: str) -> None:
    try:
        rows = read_gold(path)
    except ValueError as e:
        _unreadable(report, path, e)
        return
    lines = None  # read on the first refusal
    for index, row in enumerate(rows):
        try:
            reference_of(row, index)
        except ValueError as e:
            lines = _id_lines(path) if lines is None else lines
            line = lines.get(row["id"]) if isinstance(row["id"], str) else None
            report.refused(e, file=path, line=line, id=row["id"])


def _match(
    report: Any,
    path: Any,
    answers: dict[str, None],
    questions: list[_Question],
    lines: dict[str, int],
) -> None:
    """Each prediction answers a question, and each question has a prediction (the SQuAD
    script scores a question without one 0, and ignores a prediction for no question)."""
    known = {question_id for _, question_id, *_ in questions if isinstance(question_id, str)}
    names = sorted({file for file, *_ in questions})
    where = names[0] if len(names) == 1 else f"{len(names)} files"
    for key in answers:
        if key not in known:
            report.error(
                f"is not a question of {where}: the scorer ignores it",
                file=path,
                line=lines.get(key),
                id=key,
                field="'id'",
            )
    missing = [(file, qid, line) for file, qid, _, line in questions if qid not in answers]
    for file, question_id, line in missing:
        report.error(
            f"has no prediction ({len(missing):,} of {len(questions):,} questions have none): "
            f"the scorer counts it 0",
            file=file,
            line=line,
            id=question_id,
            field="'id'",
        )


def _warnings(
    report: Any,
    path: Any,
    answers: dict[str, str],
    questions: list[_Question],
    lines: dict[str, int],
) -> None:
    if answers and not any(answer.strip() for answer in answers.values()):
        report.warning("every answer is empty: each question scores 0", file=path, field="answer")
    contexts = {qid: context for _, qid, context, _ in questions if isinstance(context, str)}
    for key, answer in answers.items():
        context = contexts.get(key)
        if context is not None and answer.strip() and answer.strip() not in context:
            report.warning(
                "does not occur in the question's context: GoldP answers are spans of it (a "
                "post-processing mistake?)",
                file=path,
                line=lines.get(key),
                id=key,
                field="answer",
            )
    languages = {language_of(key) for key in answers}
    if answers and not languages & set(AVERAGED):
        report.warning(
            "every prediction is English, which the official mean leaves out: its scores are None",
            file=path,
            field="'id'",
        )


def run(files: Any, report: Any) -> None:
    """Check ``files.predictions`` (with ``files.inputs``, ``files.references``) into
    ``report``."""
    path = files.predictions
    predicted = _predictions(report, path)
    inputs, inputs_read = _questions(report, files.inputs, gold=False)
    gold, gold_read = _questions(report, filter(None, [files.references]), gold=True)
    if predicted is None:
        return
    ids, answers, lines = predicted
    if report.rows == 0:
        report.error("has no prediction: the scores are means over questions", file=path)
    # The predictions are held to the inputs, else to the gold; not to files that could not be
    # read, against which every id would be reported.
    if files.inputs and inputs_read:
        _match(report, path, ids, inputs, lines)
    elif not files.inputs and files.references is not None and gold_read:
        _match(report, path, ids, gold, lines)
    _warnings(report, path, answers, inputs + gold, lines)
