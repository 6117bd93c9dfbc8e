"""KILT records as ``compute()`` takes them: checked field by field and stored in one shape.

A row is a KILT record: ``id`` (a string or an int), for the references ``input`` (the question
or claim; read only by the entity metrics of KILT's later commit) and ``output``, a list of
outputs, each with an ``answer`` and a ``provenance``, a list of Wikipedia passages. A
passage's fields (``wikipedia_id``, ``title``, ``section``, ``start_paragraph_id``,
``start_character``, ``end_paragraph_id``, ``end_character``, ``text``) are kept, others
(``bleu_score``, ``meta``) are dropped: no official number reads them.

The stored shape (``checked``) is the one the metric's features hold: every field present,
``None`` where the record has none, ids and passage positions as strings (``str(value)``, which
is what the official scorer matches: ``str(7)`` and ``"7"`` are one id, one page). ``record``
turns a stored row back into the KILT record the official rules read. In ``compute()`` rows a
``None`` is the field's absence; in official files (``read_official``) a ``null`` the official
scorer reads otherwise is refused (``null_refusal``).

Every refusal is a ``ValueError`` naming the row (side, index, id), the field and what was
expected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .plain_values import as_int, plain, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The fields of a passage the scorers may read: its rank keys (any of them, chosen by
# ``rank_keys``), the title (the entity metrics) and the text (answer in context).
RANK_FIELDS = (
    "wikipedia_id",
    "title",
    "section",
    "start_paragraph_id",
    "start_character",
    "end_paragraph_id",
    "end_character",
)
TEXT_FIELDS = ("title", "text")  # strings only: the official scorer calls string methods on them
PROVENANCE_FIELDS = (*RANK_FIELDS, "text")
CRASHES = " (the official scorer crashes)"


def where(side: str, index: int, row: Any) -> str:
    """A row's place in messages: ``references[3] (id 'x')``."""
    row_id = row.get("id") if isinstance(row, Mapping) else None
    return f"{side}[{index}]" + (f" (id {shown(row_id)})" if row_id is not None else "")


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(
            f"{side} must be a list of KILT records (dicts), got {type(rows).__name__}"
        )


def _key(value: Any, at: str, field: str) -> str:
    """An id or a passage position: a string, or an int stored as ``str(int)``."""
    value = plain(value)
    if isinstance(value, str):
        return value
    number = as_int(value)
    if number is None:
        raise ValueError(f"{at}: field '{field}' must be a string or an int, got {shown(value)}")
    return str(number)


def _passage(item: Any, at: str, field: str) -> dict[str, str | None]:
    if not isinstance(item, Mapping):
        raise ValueError(f"{at}: field '{field}' must be a passage (a dict), got {shown(item)}")
    stored: dict[str, str | None] = {}
    for name in PROVENANCE_FIELDS:
        value = plain(item.get(name))
        if value is None:
            stored[name] = None
        elif name in TEXT_FIELDS:
            if not isinstance(value, str):
                raise ValueError(
                    f"{at}: field '{field}.{name}' must be a string, got {shown(value)}{CRASHES}"
                )
            stored[name] = value
        else:
            stored[name] = _key(value, at, f"{field}.{name}")
    return stored


def _list(value: Any, at: str, field: str, what: str) -> Sequence:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ValueError(f"{at}: field '{field}' must be a list of {what}, got {shown(value)}")
    return value


def _output(output: Any, at: str, field: str) -> dict[str, Any]:
    if not isinstance(output, Mapping):
        raise ValueError(f"{at}: field '{field}' must be an output (a dict), got {shown(output)}")
    answer = plain(output.get("answer"))
    if answer is not None and not isinstance(answer, str):
        raise ValueError(f"{at}: field '{field}.answer' must be a string, got {shown(answer)}")
    provenance = output.get("provenance")
    if provenance is not None:
        items = _list(provenance, at, f"{field}.provenance", "passages (dicts)")
        provenance = [
            _passage(item, at, f"{field}.provenance[{n}]") for n, item in enumerate(items)
        ]
    return {"answer": answer, "provenance": provenance}


def checked(
    rows: Sequence[Any], side: str, start: int = 0, place: Callable[[int, Any], str] | None = None
) -> list[dict[str, Any]]:
    """The rows in the stored shape; ``side`` is "predictions" or "references" (whose rows also
    keep ``input``). Errors number the rows from ``start``, or name them by ``place(index,
    row)`` (a file's line)."""
    check_rows(rows, side)
    stored = []
    for index, row in enumerate(rows, start):
        at = place(index, row) if place else where(side, index, row)
        if not isinstance(row, Mapping):
            raise ValueError(f"{at}: expected a KILT record (a dict), got {shown(row)}")
        if row.get("id") is None:
            raise ValueError(f"{at}: missing field 'id'{CRASHES}")
        record: dict[str, Any] = {"id": _key(row["id"], at, "id")}
        if side == "references":
            value = plain(row.get("input"))
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{at}: field 'input' must be a string, got {shown(value)}")
            record["input"] = value
        if row.get("output") is None:
            raise ValueError(f"{at}: missing field 'output'{CRASHES}")
        outputs = _list(row["output"], at, "output", "outputs (dicts)")
        record["output"] = [_output(o, at, f"output[{n}]") for n, o in enumerate(outputs)]
        stored.append(record)
    return stored


def record(row: Mapping[str, Any]) -> dict[str, Any]:
    """A stored row as the KILT record the official rules read: every ``None`` field absent."""
    kilt: dict[str, Any] = {"id": row["id"]}
    if row.get("input") is not None:
        kilt["input"] = row["input"]
    outputs = []
    for output in row["output"]:
        out: dict[str, Any] = {}
        if output["answer"] is not None:
            out["answer"] = output["answer"]
        if output["provenance"] is not None:
            out["provenance"] = [
                {k: v for k, v in item.items() if v is not None} for item in output["provenance"]
            ]
        outputs.append(out)
    kilt["output"] = outputs
    return kilt


def null_refusal(row: Mapping[str, Any], side: str) -> str | None:
    """What the official scorer does with a ``null`` of an official file where ``compute()``
    would read the field as absent, or None when the two agree: a ``null`` gold answer or title
    is skipped as an absent one, and a ``null`` rank key is refused as a missing one (the
    official scorer would match it as the page "None")."""
    if "id" in row and row["id"] is None:
        return "field 'id' is null: the official scorer matches it as the id 'None'"
    outputs = row.get("output")
    if not isinstance(outputs, list):
        return None
    for n, output in enumerate(outputs):
        if not isinstance(output, Mapping):
            continue
        if side == "predictions" and "answer" in output and output["answer"] is None:
            return f"field 'output[{n}].answer' is null: the official scorer scores it as 'None'"
        if "provenance" in output and output["provenance"] is None:
            return f"field 'output[{n}].provenance' is null{CRASHES}"
        for p, item in enumerate(output.get("provenance") or ()):
            if isinstance(item, Mapping) and "text" in item and item["text"] is None:
                return f"field 'output[{n}].provenance[{p}].text' is null{CRASHES}"
    return None
