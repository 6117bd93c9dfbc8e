"""Official TyDiQA-GoldP files and Hub ``tydiqa`` (``secondary_task``) rows, turned into
``compute()`` inputs.

Plain Python; not imported by the metric script, so the folder stays loadable by ``evaluate``
alone. The gold is SQuAD 1.1 JSON (``{"version", "data": [{"paragraphs": [{"qas": [...]}]}]}``):
the combined dev file ``tydiqa-goldp-v1.1-dev.json``, one of the per-language files of
``tydiqa-goldp-v1.1-dev.tgz``, several of them, or a folder holding them. The predictions are
one JSON object ``{id: answer text}`` covering every language, the file the official split takes.
Both are read as the SQuAD 1.1 script reads them (``json.load``, UTF-8): a repeated prediction
id keeps its last answer; every gold question counts, a repeated one too.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping
from os import PathLike

from .conventions import CONVENTIONS, DEFAULT_CONVENTION, check_convention
from .jsonl import not_text
from .plain_values import shown
from .rows import reference_of, score_rows

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

# compute() options: the parser of the command-line value, its metavar and its help.
OPTIONS = {
    "convention": (
        check_convention,
        "|".join(CONVENTIONS),
        "official: TyDi QA's procedure (mean of the 8 non-English languages, percent; default); "
        "xtreme: XTREME's avg_exact_match, avg_f1 and avg_metric (English averaged in); "
        "lm_eval: lm-evaluation-harness's per-language numbers (fractions)",
    )
}


# What each file must be, as messages name it.
EXPECTED = {
    "gold file": 'one SQuAD 1.1 JSON object {"version", "data": [...]}',
    "predictions file": "one JSON object {question id: answer text}, the file the official "
    "procedure splits",
}
# evaluate's squad rows, the commonest other form of predictions, turned into the official one.
_FROM_SQUAD_ROWS = "'map({(.id): .prediction_text}) | add'"  # a jq filter


def _load(path: str | PathLike, what: str) -> Any:
    """The JSON value of a whole file, as the SQuAD 1.1 script reads it (``json.load``); a
    refusal is one line naming the file and, where it shows, the form found instead."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ValueError(f"{path}: cannot read the {what}: {e.strerror or e}") from None
    mistake = not_text(data[:4], "JSON")  # gzip, a BOM, UTF-16: as every reader names them
    if mistake is not None:
        raise ValueError(f"{path}, line 1: {mistake}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(
            f"{path}: the {what} is not UTF-8 ({e.reason} at byte {e.start})"
        ) from None
    if "\r" in text:  # the newlines of a text-mode file, as json.load reads it
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise ValueError(f"{path}: the {what} is empty; expected {EXPECTED[what]}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        found = _json_lines(text) if e.msg == "Extra data" else None
        if found is None:
            raise ValueError(f"{path}: the {what} is not JSON: {e}") from None
        raise ValueError(
            f"{path}: the {what} is {found[0]}; expected {EXPECTED[what]}{found[1]}"
        ) from None
    except RecursionError:
        raise ValueError(f"{path}: the {what} holds JSON nested too deeply to be read") from None
    except ValueError:  # Python's bound on the digits of an int
        raise ValueError(
            f"{path}: the {what} holds an integer of more than {sys.get_int_max_str_digits():,} "
            "digits, more than Python's json (and so the official script) reads"
        ) from None


def _json_lines(text: str) -> tuple[str, str] | None:
    """The file's form and how to mend it, when it is one JSON value per line, else None."""
    first = text.lstrip().partition("\n")[0]
    try:
        row = json.loads(first)
    except (ValueError, RecursionError):
        return None
    if isinstance(row, dict) and "id" in row and "prediction_text" in row:
        return (
            'JSON Lines of {"id", "prediction_text"} records (evaluate\'s squad rows)',
            f": turn the lines into one object with jq -s {_FROM_SQUAD_ROWS}",
        )
    return "JSON Lines (one JSON value per line)", ""


def gold_files(references: str | PathLike | Iterable[str | PathLike]) -> list[str]:
    """The gold files: the file given, the ``.json`` files of a folder (by name), or each path of
    a list."""
    if isinstance(references, (str, PathLike)):
        path = os.fspath(references)
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
            if not names:
                raise ValueError(f"{path}: the folder holds no .json gold file")
            return [os.path.join(path, n) for n in names]
        return [path]
    paths = [os.fspath(p) for p in references]
    if not paths:
        raise ValueError("references: give at least one gold file")
    return paths


def _expect(value: Any, kind: type, where: str, what: str) -> Any:
    if not isinstance(value, kind):
        raise ValueError(f"{where}: expected {what}, got {shown(value, 80)}")
    return value


def read_gold(path: str) -> list[dict]:
    """One SQuAD-format gold file → one reference row per question, in file order."""
    dataset = _expect(_load(path, "gold file"), dict, path, "a SQuAD JSON object")
    if "data" not in dataset:
        raise ValueError(f"{path}: no 'data' list (a SQuAD 1.1 file has one)")
    rows = []
    articles = _expect(dataset["data"], list, f"{path}: 'data'", "a list of articles")
    for i, article in enumerate(articles):
        where = f"{path}: data[{i}]"
        article = _expect(article, dict, where, "an article object")
        paragraphs = _expect(article.get("paragraphs"), list, where, "a 'paragraphs' list")
        for j, paragraph in enumerate(paragraphs):
            where = f"{path}: data[{i}].paragraphs[{j}]"
            paragraph = _expect(paragraph, dict, where, "a paragraph object")
            qas = _expect(paragraph.get("qas"), list, where, "a 'qas' list")
            for k, qa in enumerate(qas):
                rows.append(_reference(qa, f"{where}.qas[{k}]"))
    return rows


def _reference(qa: Any, where: str) -> dict:
    qa = _expect(qa, dict, where, "a question object")
    if "id" not in qa:
        raise ValueError(f"{where}: the question has no 'id'")
    where = f"{where} (id {shown(qa['id'])})"
    answers = _expect(qa.get("answers"), list, where, "an 'answers' list")
    texts, starts = [], []
    for n, answer in enumerate(answers):
        answer = _expect(answer, dict, f"{where}: answers[{n}]", "an answer object")
        if "text" not in answer:
            raise ValueError(f"{where}: answers[{n}] has no 'text'")
        texts.append(answer["text"])
        starts.append(answer.get("answer_start"))
    row = {"id": qa["id"], "answers": {"text": texts}}
    # The SQuAD script never reads the starts: they are kept when they are plain ints.
    if all(type(s) is int for s in starts):
        row["answers"]["answer_start"] = starts
    return row


def read_predictions(path: str | PathLike) -> list[dict]:
    """The predictions JSON object → one row per id (a repeated key keeps its last value, as
    ``json.load`` gives it)."""
    answers = _load(path, "predictions file")
    if _squad_rows(answers):
        raise ValueError(
            f'{os.fspath(path)}: the predictions file is a list of {{"id", "prediction_text"}} '
            f"records (evaluate's squad rows, which compute() takes); expected "
            f"{EXPECTED['predictions file']}: turn it into one with jq {_FROM_SQUAD_ROWS}"
        )
    answers = _expect(answers, dict, os.fspath(path), "a JSON object")
    return [{"id": k, "prediction_text": v} for k, v in answers.items()]


def _squad_rows(value: Any) -> bool:
    """Whether ``value`` is a list of evaluate's squad prediction rows."""
    return (
        isinstance(value, list)
        and bool(value)
        and isinstance(value[0], dict)
        and {"id", "prediction_text"} <= value[0].keys()
    )


def read_official(
    references: str | PathLike | Iterable[str | PathLike], predictions: str | PathLike
) -> dict[str, list[dict]]:
    """Gold SQuAD JSON (file, files or folder) + predictions JSON → ``compute()`` inputs.

    Every question and every prediction becomes one row, in file order; the shorter side is
    padded with placeholder rows (``{"id": None}``), since compute() pairs rows by id.
    """
    if references is None:
        raise ValueError("tydiqa_goldp needs the gold SQuAD-format file(s) (references)")
    refs = [row for path in gold_files(references) for row in read_gold(path)]
    preds = read_predictions(predictions)
    n = max(len(preds), len(refs))
    preds += [{"id": None}] * (n - len(preds))
    refs += [{"id": None}] * (n - len(refs))
    return {"predictions": preds, "references": refs}


def score_files(
    references: str | PathLike | Iterable[str | PathLike],
    predictions: str | PathLike,
    convention: str = DEFAULT_CONVENTION,
) -> dict[str, Any]:
    """What ``taskeval score tydiqa_goldp`` prints (compute() on ``read_official``)."""
    return score_rows(**read_official(references, predictions), convention=convention)


def references_from_hub(rows: Iterable[Mapping]) -> list[dict]:
    """Rows of the Hub ``tydiqa`` dataset, config ``secondary_task`` (``id``, ``title``,
    ``context``, ``question``, ``answers: {"text", "answer_start"}``) → ``references``.

    The language is the id's prefix, as in the official files. The dataset's loader strips each
    answer text, which changes no score (whitespace is dropped by the normalisation anyway).
    """
    out = []
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping) or "id" not in row or "answers" not in row:
            raise ValueError(
                f"rows[{index}]: expected a Hub tydiqa secondary_task row (a dict with 'id' and "
                f"'answers'), got {shown(row, 80)}"
            )
        answers = row["answers"]
        reference = {"id": row["id"], "answers": answers}
        if isinstance(answers, Mapping):
            reference["answers"] = {
                k: list(v) if isinstance(v, (list, tuple)) else v for k, v in answers.items()
            }
        # fail here, on the row, rather than later inside compute()
        try:
            reference_of(reference, index)
        except ValueError as e:
            raise ValueError(str(e).replace(f"references[{index}]", f"rows[{index}]", 1)) from None
        out.append(reference)
    return out
