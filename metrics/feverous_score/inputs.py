"""Official FEVEROUS files turned into ``compute()`` inputs.

Plain Python; not imported by the metric script, so the folder stays loadable by ``evaluate``
alone. ``read_official`` reads what the official ``evaluate.py`` reads: one JSONL file whose
first line (the dataset's header) is skipped and whose every other line holds a claim's gold
(``label``; ``evidence``, a list of evidence sets with their element ids in ``content``) and the
prediction (``predicted_label``; ``predicted_evidence``, element id strings). Element ids stay
strings here: ``compute()`` reads them under its ``id_reading`` option.

With a gold file as well (``references``: the dataset file), the predictions may be a leaderboard
submission (``prepare_submission.py``'s output: ``predicted_label`` and ``predicted_evidence``
as ``[page, type, position]`` lists, no header), paired with the gold claims by position.
"""

from __future__ import annotations

from os import PathLike

from .element_ids import DEFAULT_READING, READINGS
from .jsonl import iter_lines, line_error, loads_text_line, read_jsonl
from .plain_values import gc_paused, shown
from .rules import DEFAULT_MAX_EVIDENCE, DEFAULT_MAX_EVIDENCE_CELL
from .scoring import feverous_score

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any


def _int_or_none(text: str) -> int | None:
    return None if text.lower() in ("none", "null") else int(text)


def _reading(text: str) -> str:
    if text not in READINGS:
        raise ValueError(text)
    return text


def _reading_note(id_reading: str) -> str:
    if id_reading == "exact":
        return (
            "element ids read at their type (id_reading exact): a page with '_' is read whole, "
            "unlike the official evaluate.py, which ends the page at the first '_'"
        )
    return (
        "element ids read as the official evaluate.py reads them (the page ends at the first "
        "'_'); --id-reading exact reads a page with '_' whole"
    )


# compute() options: the parser of the command-line value, its metavar, its help, its default
# and the note said beside the scores (None: none).
OPTIONS = {
    "max_evidence": (
        _int_or_none,
        "N|none",
        "count only the first N predicted sentences (and items of other non-table types) of each "
        "claim, as the official scorer does (default 5; none: all of them)",
        DEFAULT_MAX_EVIDENCE,
        None,
    ),
    "max_evidence_cell": (
        _int_or_none,
        "N|none",
        "count only the first N predicted cell, header_cell, table_caption and item elements of "
        "each claim (default 25; none: all of them)",
        DEFAULT_MAX_EVIDENCE_CELL,
        None,
    ),
    "id_reading": (
        _reading,
        "|".join(READINGS),
        "how an element id is split into page, type and position: official (as evaluate.py: the "
        "page ends at the first '_'; the default) or exact (at the element type)",
        DEFAULT_READING,
        _reading_note,
    ),
}


# The official evaluate.py reads with jsonlines (pinned to 2.0 to 3.1 by the FEVEROUS package):
# it opens the file as utf-8-sig (a byte order mark opening the file is dropped), skips one byte
# order mark or record separator (RFC 7464) at the start of each line, and reads the rest with
# json.loads, as the shared reader does.
_SKIPPED_FIRST = (b"\xef\xbb\xbf", b"\x1e")


def read_lines(path: str | PathLike) -> list[Any]:
    """The JSON value of every line, as the official evaluate.py reads them."""
    try:
        return read_jsonl(path)
    except ValueError:
        with open(path, "rb") as f:
            whole = f.read()
        if not any(mark in whole for mark in _SKIPPED_FIRST):
            raise
    if whole.startswith(_SKIPPED_FIRST[0]):  # the utf-8-sig codec's
        whole = whole[len(_SKIPPED_FIRST[0]) :]
    rows = []
    for number, data, start, end in iter_lines((whole,), True, path):
        line = data[start:end]
        for mark in _SKIPPED_FIRST:
            if line.startswith(mark):
                line = line[len(mark) :]
                break
        try:
            rows.append(loads_text_line(line))
        except (ValueError, RecursionError) as e:
            raise line_error(path, number, line, e) from None
    return rows


def _where(path: Any, line: int) -> str:
    return f"{path}, line {line}"


def _object(row: Any, path: Any, line: int) -> dict:
    if type(row) is not dict:
        raise ValueError(f"{_where(path, line)}: expected a JSON object, got {shown(row)}")
    return row


def _field(row: dict, field: str, path: Any, line: int) -> Any:
    if field not in row:
        raise ValueError(f"{_where(path, line)}: missing field {shown(field)}")
    return row[field]


def _label(row: dict, field: str, path: Any, line: int) -> str:
    label = _field(row, field, path, line)
    if type(label) is not str:
        raise ValueError(
            f"{_where(path, line)}: field {shown(field)} must be a string, got {shown(label)}"
        )
    return label


def _ids(value: Any, path: Any, line: int, field: str, triples: bool = False) -> list:
    """A list of element id strings (each split by the official reader at its '_'), or with
    ``triples`` also ``[page, type, position]`` lists (a leaderboard submission)."""
    if type(value) is not list:
        raise ValueError(
            f"{_where(path, line)}: field {field} must be a list of element ids, got {shown(value)}"
        )
    for k, item in enumerate(value):
        if type(item) is str and "_" in item:
            continue
        if triples and type(item) is list and len(item) == 3 and all(type(p) is str for p in item):
            continue
        expected = "an element id string with an '_' such as 'Page_sentence_1'"
        if triples:
            expected += " or a [page, type, position] list of strings"
        raise ValueError(
            f"{_where(path, line)}: field {field}[{k}] must be {expected} (the official "
            f"evaluate.py splits each id at its '_'), got {shown(item)}"
        )
    return value


def _gold(row: dict, path: Any, line: int) -> dict:
    """A gold line's claim: ``label`` and the ``content`` of each evidence set."""
    label = _label(row, "label", path, line)
    sets = _field(row, "evidence", path, line)
    if type(sets) is not list:
        raise ValueError(
            f"{_where(path, line)}: field 'evidence' must be a list of evidence sets, got "
            f"{shown(sets)}"
        )
    groups = []
    for g, evidence_set in enumerate(sets):
        if type(evidence_set) is not dict or "content" not in evidence_set:
            raise ValueError(
                f"{_where(path, line)}: field 'evidence'[{g}] must be an evidence set, a JSON "
                f"object with 'content' (its element ids), got {shown(evidence_set)}"
            )
        groups.append(_ids(evidence_set["content"], path, line, f"'evidence'[{g}]['content']"))
    reference = {"label": label, "evidence": groups}
    return {"id": row["id"], **reference} if "id" in row else reference


def _prediction(row: dict, path: Any, line: int, triples: bool = False) -> dict:
    label = _label(row, "predicted_label", path, line)
    items = _ids(
        _field(row, "predicted_evidence", path, line), path, line, "'predicted_evidence'", triples
    )
    prediction = {"predicted_label": label, "predicted_evidence": items}
    return {"id": row["id"], **prediction} if "id" in row else prediction


def _is_header(row: Any, field: str) -> bool:
    """The dataset's first line: a JSON object without a claim's label."""
    return type(row) is dict and not row.get(field)


def read_official(
    references: str | PathLike | None, predictions: str | PathLike
) -> dict[str, list[dict]]:
    """The official evaluate.py's input file (``predictions``; its first line skipped) →
    ``predictions``/``references``; or a gold dataset file and a submission (see the module)."""
    lines = read_lines(predictions)
    with gc_paused():
        if references is None:
            if not lines:
                raise ValueError(
                    f"{predictions} is empty: the official evaluate.py skips the first line (the "
                    f"dataset's header) and scores the claims on the lines after it"
                )
            if lines[0] is None:  # jsonlines refuses a null line, the header's too
                raise ValueError(
                    f"{_where(predictions, 1)}: null, which the official evaluate.py (jsonlines) "
                    f"refuses on any line, its header line too"
                )
            preds, refs = [], []
            for line, row in enumerate(lines[1:], 2):
                row = _object(row, predictions, line)
                refs.append(_gold(row, predictions, line))
                preds.append(_prediction(row, predictions, line))
            return {"predictions": preds, "references": refs}
        gold = read_lines(references)
        gold_from = 2 if gold and _is_header(gold[0], "label") else 1
        preds_from = 2 if lines and _is_header(lines[0], "predicted_label") else 1
        gold, lines = gold[gold_from - 1 :], lines[preds_from - 1 :]
        if len(gold) != len(lines):
            raise ValueError(
                f"{references} has {len(gold)} claims but {predictions} has {len(lines)} "
                f"predictions (a first line without a label is the dataset's header, not "
                f"counted): claims and predictions are paired by position"
            )
        refs = [
            _gold(_object(row, references, n), references, n)
            for n, row in enumerate(gold, gold_from)
        ]
        preds = [
            _prediction(_object(row, predictions, n), predictions, n, triples=True)
            for n, row in enumerate(lines, preds_from)
        ]
        return {"predictions": preds, "references": refs}


def score_files(
    references: str | PathLike | None,
    predictions: str | PathLike,
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
    max_evidence_cell: int | None = DEFAULT_MAX_EVIDENCE_CELL,
    id_reading: str = DEFAULT_READING,
) -> dict[str, float]:
    """What ``taskeval score feverous_score`` prints: ``compute(**read_official(...))``."""
    return feverous_score(
        **read_official(references, predictions),
        max_evidence=max_evidence,
        max_evidence_cell=max_evidence_cell,
        id_reading=id_reading,
    )
