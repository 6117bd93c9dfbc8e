"""Checking KILT records and pairing each gold record with its guess, as the official
``validate_input`` (and ``filter_answers``, for retrieval) do.

Ids are matched by ``str(id).strip()`` (the int ``7`` and the string ``" 7"`` are one id); gold
ids and guess ids must each be distinct; every gold id needs a guess; guesses for other ids are
ignored (the official scorer prints a warning and drops them). The pairs come in gold order.

Every refusal is a ``ValueError`` naming the row (side, index, id), the field and what was
expected. Where the official scorer crashes (an assertion, ``KeyError``, ``max()`` of nothing, a
method missing on a non-string) it is marked "(the official scorer crashes)"; the other
refusals are inputs it scores silently in a way its documentation does not give:

* an id, or a provenance's rank-key value, that is neither a string nor an int (it scores
  ``str(value)``: ``None`` becomes "None", ``1.0`` becomes "1.0");
* a guess answer that is not a string (it scores ``str(answer)``);
* a gold answer that is not a string (``None``, ``0``, ``False`` are skipped silently; other
  values crash it);
* a provenance without one of the rank keys (R-precision skips it, the rank joins the keys it
  has);
* an ``output`` or ``provenance`` that is not a list of objects (a string or dict is iterated
  by character or key).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

CRASHES = " (the official scorer crashes)"
DOWNSTREAM_KEYS = ("wikipedia_id",)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_id(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def record_id(record: Mapping[str, Any], where: str) -> str:
    """The id a record is matched by: ``str(id).strip()``."""
    if "id" not in record:
        raise ValueError(f"{where}: missing field 'id'{CRASHES}")
    value = record["id"]
    if not _is_id(value):
        raise ValueError(f"{where}: field 'id' must be a string or an int, got {_shown(value)}")
    return str(value).strip()


def _rows(side: str, rows: Any) -> list[tuple[str, str, Mapping[str, Any]]]:
    """``(where, id, record)`` for each row, its id checked."""
    if not isinstance(rows, Sequence) or isinstance(rows, (str, bytes)):
        raise ValueError(f"{side} must be a list of KILT records, got {type(rows).__name__}")
    named = []
    for index, record in enumerate(rows):
        if not isinstance(record, Mapping):
            raise ValueError(
                f"{side} row {index}: expected a KILT record (an object), got {_shown(record)}"
            )
        where = f"{side} row {index}"
        key = record_id(record, where)
        named.append((f"{where} (id {_shown(record['id'])})", key, record))
    return named


def _outputs(record: Mapping[str, Any], where: str) -> Sequence[Mapping[str, Any]]:
    if "output" not in record:
        raise ValueError(f"{where}: missing field 'output'{CRASHES}")
    outputs = record["output"]
    if not isinstance(outputs, list) or not all(isinstance(o, Mapping) for o in outputs):
        raise ValueError(
            f"{where}: field 'output' must be a list of objects, got {_shown(outputs)}"
        )
    return outputs


def check_provenance(
    output: Mapping[str, Any], field: str, where: str, rank_keys: Sequence[str], texts: bool
) -> None:
    """An output's ``provenance``, if any: a list of objects, each with every rank key (a string
    or an int) and, when ``texts``, a string ``text`` if it has one."""
    if "provenance" not in output:
        return
    provenance = output["provenance"]
    if not isinstance(provenance, list) or not all(isinstance(p, Mapping) for p in provenance):
        raise ValueError(
            f"{where}: field '{field}.provenance' must be a list of objects, got {_shown(provenance)}"
        )
    for number, item in enumerate(provenance):
        name = f"{field}.provenance[{number}]"
        for key in rank_keys:
            if key not in item:
                raise ValueError(
                    f"{where}: missing field '{name}.{key}' (a rank key: each provenance needs it)"
                )
            if not _is_id(item[key]):
                raise ValueError(
                    f"{where}: field '{name}.{key}' must be a string or an int, got {_shown(item[key])}"
                )
        if texts and "text" in item and not isinstance(item["text"], str):
            raise ValueError(
                f"{where}: field '{name}.text' must be a string, got {_shown(item['text'])}{CRASHES}"
            )


def check_gold(record: Mapping[str, Any], where: str, rank_keys: Sequence[str]) -> None:
    outputs = _outputs(record, where)
    if not outputs:
        raise ValueError(f"{where}: field 'output' must hold at least one output{CRASHES}")
    for number, output in enumerate(outputs):
        field = f"output[{number}]"
        if "answer" in output and not isinstance(output["answer"], str):
            raise ValueError(
                f"{where}: field '{field}.answer' must be a string, got {_shown(output['answer'])}"
            )
        check_provenance(output, field, where, rank_keys, texts=False)


def scored_output(
    record: Mapping[str, Any], where: str, rank_keys: Sequence[str], downstream: bool
) -> Mapping[str, Any]:
    """The one output of a guess that is scored: its only output, which must have an
    ``answer`` (downstream), or its only output with ``provenance`` (retrieval)."""
    outputs = _outputs(record, where)
    if downstream:
        if len(outputs) != 1 or "answer" not in outputs[0]:
            raise ValueError(
                f"{where}: field 'output' must hold exactly one output, with an 'answer', got "
                f"{len(outputs)} output(s){CRASHES}"
            )
        number, output = 0, outputs[0]
        if not isinstance(output["answer"], str):
            raise ValueError(
                f"{where}: field 'output[0].answer' must be a string, got {_shown(output['answer'])}"
            )
    else:
        with_provenance = [n for n, o in enumerate(outputs) if "provenance" in o]
        if len(with_provenance) != 1:
            raise ValueError(
                f"{where}: field 'output' must hold exactly one output with 'provenance', got "
                f"{len(with_provenance)}{CRASHES}"
            )
        number = with_provenance[0]
        output = outputs[number]
    check_provenance(output, f"output[{number}]", where, rank_keys, texts=True)
    return output


def pair_records(
    gold: Any, guess: Any, rank_keys: Sequence[str], downstream: bool
) -> list[tuple[str, Mapping[str, Any], Mapping[str, Any]]]:
    """``(where, gold record, scored guess output)`` for each gold record, in gold order."""
    gold_rows = _rows("gold", gold)
    guess_rows = _rows("guess", guess)
    golds: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for where, key, record in gold_rows:
        if key in golds:
            raise ValueError(
                f"{where}: the id is also {golds[key][0]}'s: ids must be distinct{CRASHES}"
            )
        golds[key] = (where, record)
    guesses: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for where, key, record in guess_rows:
        if key in guesses:
            raise ValueError(
                f"{where}: the id is also {guesses[key][0]}'s: ids must be distinct{CRASHES}"
            )
        guesses[key] = (where, record)
    pairs = []
    for key, (where, record) in golds.items():
        if key not in guesses:
            raise ValueError(f"{where}: no guess has this id (every gold id needs one){CRASHES}")
        check_gold(record, where, rank_keys)
        guess_where, guess_record = guesses[key]
        output = scored_output(guess_record, guess_where, rank_keys, downstream)
        pairs.append((where, record, output))
    return pairs
