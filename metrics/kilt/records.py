"""Pairing each gold record with its guess, as the official ``validate_input`` (and
``filter_answers``, for retrieval) do, on records ``rows.checked`` has checked field by field.

Ids are matched by ``str(id).strip()`` (the int ``7`` and the string ``" 7"`` are one id); gold
ids and guess ids must each be distinct; every gold id needs a guess; guesses for other ids are
ignored (the official scorer prints a warning and drops them). The pairs come in gold order.

What is checked here depends on the evaluation: downstream scores a guess's only output, which
must have an answer; retrieval its only output with ``provenance``; and each passage read must
have every rank key (the official scorer would join the ones it has, or match a missing one as
"None"). Every refusal is a ``ValueError`` naming the row (side, index, id), the field and what
was expected; "(the official scorer crashes)" marks the inputs it stops on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .plain_values import shown
from .rows import CRASHES, where

DOWNSTREAM_KEYS = ("wikipedia_id",)


def match_id(record: Mapping[str, Any]) -> str:
    """The id a record is matched by: ``str(id).strip()``."""
    return str(record["id"]).strip()


def check_paired(
    gold: Sequence[Mapping[str, Any]], guess: Sequence[Mapping[str, Any]], start: int = 0
) -> None:
    """``compute()`` rows: each guess has its gold record's id (rows numbered from ``start``)."""
    for index, (gold_row, guess_row) in enumerate(zip(gold, guess), start):
        if match_id(gold_row) != match_id(guess_row):
            raise ValueError(
                f"{where('predictions', index, guess_row)}: field 'id' is not the id of "
                f"references[{index}] ({shown(gold_row['id'])}): compute() pairs rows by position, "
                "their ids compared as str(id).strip() (taskeval.read_official puts a guess file "
                "in gold order)"
            )


def check_provenance(
    output: Mapping[str, Any], field: str, at: str, rank_keys: Sequence[str]
) -> None:
    """Every passage of an output has every rank key."""
    for number, item in enumerate(output.get("provenance", ())):
        for key in rank_keys:
            if key not in item:
                raise ValueError(
                    f"{at}: missing field '{field}.provenance[{number}].{key}' (a rank key: "
                    "each passage needs it)"
                )


def check_gold(record: Mapping[str, Any], at: str, rank_keys: Sequence[str]) -> None:
    if not record["output"]:
        raise ValueError(f"{at}: field 'output' must hold at least one output{CRASHES}")
    for number, output in enumerate(record["output"]):
        check_provenance(output, f"output[{number}]", at, rank_keys)


def scored_output(
    record: Mapping[str, Any], at: str, rank_keys: Sequence[str], downstream: bool
) -> Mapping[str, Any]:
    """The one output of a guess that is scored: its only output, which must have an
    ``answer`` (downstream), or its only output with ``provenance`` (retrieval)."""
    outputs = record["output"]
    if downstream:
        if len(outputs) != 1:
            raise ValueError(
                f"{at}: field 'output' must hold exactly one output (eval_downstream.py scores "
                f"the only one), got {len(outputs)}{CRASHES}"
            )
        if "answer" not in outputs[0]:
            raise ValueError(f"{at}: missing field 'output[0].answer'{CRASHES}")
        number = 0
    else:
        with_provenance = [n for n, o in enumerate(outputs) if "provenance" in o]
        if len(with_provenance) != 1:
            raise ValueError(
                f"{at}: field 'output' must hold exactly one output with 'provenance', got "
                f"{len(with_provenance)}{CRASHES}"
            )
        number = with_provenance[0]
    check_provenance(outputs[number], f"output[{number}]", at, rank_keys)
    return outputs[number]


def _by_id(side: str, rows: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, Mapping]]:
    found: dict[str, tuple[str, Mapping]] = {}
    for index, record in enumerate(rows):
        at = where(side, index, record)
        key = match_id(record)
        if key in found:
            raise ValueError(
                f"{at}: the id is also {found[key][0]}'s (ids are matched by str(id).strip()): "
                f"ids must be distinct{CRASHES}"
            )
        found[key] = (at, record)
    return found


def pair_records(
    gold: Sequence[Mapping[str, Any]],
    guess: Sequence[Mapping[str, Any]],
    rank_keys: Sequence[str],
    downstream: bool,
) -> list[tuple[str, Mapping[str, Any], Mapping[str, Any]]]:
    """``(where, gold record, scored guess output)`` for each gold record, in gold order."""
    golds = _by_id("references", gold)
    guesses = _by_id("predictions", guess)
    pairs = []
    for key, (at, record) in golds.items():
        if key not in guesses:
            raise ValueError(
                f"{at}: no prediction has this id {shown(key)} (every gold id needs one){CRASHES}"
            )
        check_gold(record, at, rank_keys)
        guess_at, guess_record = guesses[key]
        output = scored_output(guess_record, guess_at, rank_keys, downstream)
        pairs.append((at, record, output))
    return pairs
