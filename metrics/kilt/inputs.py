"""Official KILT files and Hub rows turned into ``compute()`` inputs.

Plain Python; not imported by the metric script, so the folder stays loadable by ``evaluate``
alone. ``read_official`` reads what ``eval_downstream.py`` and ``eval_retrieval.py`` read: a gold
KILT JSONL file and a guess KILT JSONL file, one record per line (``kilt_utils.load_data``:
``json.loads`` of each line; a blank line is an error). Guesses are matched to the gold records
by ``str(id).strip()``; the official scorer drops a guess for an id the gold lacks (after a
warning), and so does ``read_official``. The predictions come back in gold order, so that every
system scored against one gold file gets the same references (``compare`` pairs them by row).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from os import PathLike

from .jsonl import read_jsonl
from .plain_values import gc_paused, shown
from .records import match_id
from .rows import CRASHES, PROVENANCE_FIELDS, RANK_FIELDS, checked, null_refusal
from .scoring import COMMITS, DEFAULT_COMMIT, EVALUATIONS, score

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any


def _choice(values: tuple[str, ...]):
    def parse(text: str) -> str:
        if text not in values:
            raise ValueError(text)
        return text

    return parse


def _ks(text: str) -> list[int]:
    return [int(k) for k in text.split(",")]


def _rank_keys(text: str) -> list[str]:
    keys = text.split(",")
    if any(key not in RANK_FIELDS for key in keys):
        raise ValueError(text)
    return keys


def _commit_note(commit: str) -> str:
    if commit == DEFAULT_COMMIT:
        return (
            f"KILT's scorers at commit {commit} (the commit whose tests pass); --commit 2664322 "
            "scores as the repository's HEAD"
        )
    return (
        f"KILT's scorers at commit {commit} (the repository's HEAD): retrieval adds "
        "entity_in_input, entity_in_context@k and answer_and_ent_in_context@k"
    )


# compute() options: the parser of the command-line value, its metavar, its help, its default
# and the note said beside the scores (None: none).
OPTIONS = {
    "evaluation": (
        _choice(EVALUATIONS),
        "|".join(EVALUATIONS),
        "which official script: downstream (eval_downstream.py: answers, their KILT variants, "
        "page R-precision and recall@5; the default) or retrieval (eval_retrieval.py)",
        "downstream",
        None,
    ),
    "ks": (
        _ks,
        "K,K,...",
        "retrieval only: the ks of precision@k, recall@k, success_rate@k and answer_in_context@k "
        "(default 1,5,10,20, as eval_retrieval.py's --ks)",
        None,
        None,
    ),
    "rank_keys": (
        _rank_keys,
        "FIELD,FIELD,...",
        "retrieval only: the passage fields that make one unit of the ranking (default "
        "wikipedia_id: page level; wikipedia_id,start_paragraph_id,end_paragraph_id: paragraph "
        "level), as eval_retrieval.py's --rank_keys",
        None,
        None,
    ),
    "commit": (
        _choice(COMMITS),
        "|".join(COMMITS),
        "KILT's scorer at which commit: 64e284a (the default; its tests pass) or 2664322 (HEAD: "
        "entity metrics added to retrieval; every gold record needs its input)",
        DEFAULT_COMMIT,
        _commit_note,
    ),
}


def _line(path: Any, number: int) -> str:
    return f"{path}, line {number}"


def _records(path: str | PathLike, side: str) -> list[dict[str, Any]]:
    """A KILT file's records in the stored shape, errors at their line."""
    lines = read_jsonl(path)
    for number, row in enumerate(lines, 1):
        if not isinstance(row, dict):
            raise ValueError(f"{_line(path, number)}: expected a KILT record (a JSON object)")
        refusal = null_refusal(row, side)
        if refusal:
            raise ValueError(f"{_line(path, number)} (id {shown(row.get('id'))}): {refusal}")

    def place(index: int, row: Any) -> str:
        return f"{_line(path, index + 1)} (id {shown(row.get('id'))})"

    return checked(lines, side, place=place)


def _by_id(path: Any, rows: list[dict], what: str) -> dict[str, tuple[int, dict]]:
    """``(line, record)`` of each id (``str(id).strip()``), a repeated id refused at its line."""
    found: dict[str, tuple[int, dict]] = {}
    for number, row in enumerate(rows, 1):
        key = match_id(row)
        if key in found:
            raise ValueError(
                f"{_line(path, number)} (id {shown(row['id'])}): the id is also line "
                f"{found[key][0]}'s (ids are matched by str(id).strip()): {what} ids must be "
                f"distinct{CRASHES}"
            )
        found[key] = (number, row)
    return found


def read_official(
    references: str | PathLike | None, predictions: str | PathLike
) -> dict[str, list[dict]]:
    """The gold KILT file (``references``) and a guess KILT file (``predictions``) →
    ``compute()`` inputs: every gold record, and its guess, in gold order."""
    if references is None:
        raise ValueError("KILT needs the gold file (references) beside the guess file")
    with gc_paused():
        gold = _records(references, "references")
        guess = _records(predictions, "predictions")
        _by_id(references, gold, "gold")
        by_id = _by_id(predictions, guess, "prediction")
        ordered = []
        for number, row in enumerate(gold, 1):
            found = by_id.get(match_id(row))
            if found is None:
                raise ValueError(
                    f"{_line(references, number)} (id {shown(row['id'])}): {predictions} has no "
                    f"prediction for this id (every gold id needs one){CRASHES}"
                )
            ordered.append(found[1])
    return {"predictions": ordered, "references": gold}


def score_files(
    references: str | PathLike | None,
    predictions: str | PathLike,
    evaluation: str = "downstream",
    ks: list[int] | None = None,
    rank_keys: list[str] | None = None,
    commit: str = DEFAULT_COMMIT,
) -> dict[str, float]:
    """What ``taskeval score kilt`` prints: ``compute(**read_official(...), **options)``."""
    return score(
        **read_official(references, predictions),
        evaluation=evaluation,
        ks=ks,
        rank_keys=rank_keys,
        commit=commit,
    )


def row_id(row: Mapping[str, Any]) -> Any:
    return row.get("id")


def _hub_passage(item: Mapping[str, Any]) -> dict[str, Any]:
    """A Hub passage as the KILT file has it: the loader writes an absent string as "" and an
    absent int as -1; both are dropped here (so are ``bleu_score`` and ``meta``)."""
    return {
        name: item[name]
        for name in PROVENANCE_FIELDS
        if name in item and item[name] not in ("", -1, None)
    }


def references_from_hub(rows: Iterable[Mapping]) -> list[dict]:
    """KILT gold records from the rows of the Hub ``kilt_tasks`` dataset (any of its configs,
    a split with gold outputs: the test splits have none).

    The Hub's loader fills what a gold file leaves out: an absent ``answer`` becomes ``""``, an
    absent ``provenance`` ``[]``, an absent passage string ``""`` and an absent int ``-1``. The
    official numbers read an empty ``provenance`` otherwise than an absent one (an empty gold
    evidence set can never be complete: recall@k and success_rate@k change), so each of these is
    turned back into an absent field, as in the gold files, where no output has an empty
    ``provenance``."""
    references = []
    for index, row in enumerate(rows):
        try:
            record = {"id": row["id"], "input": row.get("input") or None, "output": []}
            outputs = list(row["output"])
        except (KeyError, TypeError) as e:
            raise ValueError(f"rows[{index}]: expected a Hub kilt_tasks row, missing {e}") from None
        if not outputs:
            raise ValueError(
                f"rows[{index}] (id {shown(row['id'])}): field 'output' is empty: a test split "
                "row (kilt_tasks publishes no gold for the test splits)"
            )
        for output in outputs:
            passages = output.get("provenance") or None
            record["output"].append(
                {
                    "answer": output.get("answer") or None,
                    "provenance": passages and [_hub_passage(p) for p in passages],
                }
            )
        references.append(record)
    return references
