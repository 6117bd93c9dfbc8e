"""The rows of ``scifact_abstract`` and ``scifact_sentence``: their checks, and the canonical form
the metric scripts store.

Plain Python, shared by both metric folders (one file; the other folder holds a symlink to it).
The checks raise a ``ValueError`` that names the row, its claim id and the field on anything the
official evaluator would crash on, assert on, or silently score as non-matching, so that the rule
(``scoring``) only ever sees rows it scores as the evaluator does:

* ``check_predictions`` / ``check_references`` check the rows of one side;
  ``prediction_records`` / ``reference_records`` also return them canonical (plain Python values);
* ``check_pairs``: both sides list the same claim ids in the same order;
* ``checked_rows``: all of it, the rows returned ready to count.

Gold labels are held to ``LABELS`` too: the evaluator silently never matches any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .plain_values import INT64, INT64_MAX, as_int, as_list, int_problem, shown
from .scoring import LABELS, predicted_abstracts

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    # A canonical row: {"id": int, "evidence": [{"doc_id": str, "label": str, "sentences": [int]}]}
    Record = dict[str, Any]
    Where = tuple[str, int, Any]  # (side, row index, row)

# Fast checks first (exact builtin types); the row's description is only built for an error
# message, so checking costs little next to counting.


def _where(at: Where) -> str:
    side, index, row = at
    row_id = row.get("id") if isinstance(row, Mapping) else None
    return f"{side}[{index}]" + (f" (id {shown(row_id)})" if row_id is not None else "")


def _is_list(value: Any) -> bool:
    # A 1-d numpy array or torch tensor is a list of ints too (see numbers.as_list).
    return type(value) is list or as_list(value) is not None


def _is_dict(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(f"{side} must be a list of dicts, got {type(rows).__name__}")


def _field(at: Where, mapping: Mapping, name: str, path: str = "") -> Any:
    if name not in mapping:
        raise ValueError(f"{_where(at)}: missing field {path}{shown(name)}")
    return mapping[name]


def _check_sentences(at: Where, path: str, doc_id: str, sentences: Any) -> list[int] | None:
    """Check a list of sentence indices: None when it is a list or tuple of plain ints, else
    them as a new list of plain ints (numpy or torch values, 1-d arrays)."""
    if type(sentences) is list or type(sentences) is tuple:
        # The literal is INT64_MAX (a constant is the fastest comparison in this hot loop).
        if all(type(s) is int and 0 <= s <= 9223372036854775807 for s in sentences):
            return None
        items = sentences
    else:
        items = as_list(sentences)
        if items is None:
            raise ValueError(
                f"{_where(at)}: field {path}['sentences'] (doc {shown(doc_id)}) must be a list of "
                f"sentence indices, got {shown(sentences)}"
            )
    plain = []
    for position, s in enumerate(items):
        number = as_int(s)
        if number is None or not 0 <= number <= INT64_MAX:
            raise ValueError(
                f"{_where(at)}: field {path}['sentences'][{position}] (doc {shown(doc_id)}) must be a "
                f"non-negative int sentence index (at most 2**63-1), got {shown(s)}"
            )
        plain.append(number)
    return plain


def _check_entry(at: Where, j: int, entry: Any, gold: bool) -> list[int] | None:
    """Check one evidence entry; None, or its sentences as plain ints (see _check_sentences)."""
    path = f"'evidence'[{j}]"
    if not _is_dict(entry):
        raise ValueError(
            f"{_where(at)}: field {path} must be a dict with 'doc_id', 'label' and 'sentences', "
            f"got {shown(entry)}"
        )
    doc_id = _field(at, entry, "doc_id", path)
    if type(doc_id) is not str and not isinstance(doc_id, str):
        raise ValueError(
            f"{_where(at)}: field {path}['doc_id'] must be a string (doc ids are compared "
            f"verbatim, as JSON object keys), got {shown(doc_id)}"
        )
    label = _field(at, entry, "label", path)
    if label not in LABELS or not isinstance(label, str):
        raise ValueError(
            f"{_where(at)}: field {path}['label'] (doc {shown(doc_id)}) must be 'SUPPORT' or "
            f"'CONTRADICT', got {shown(label)}"
            + ("" if gold else " (leave out abstracts predicted NOT ENOUGH INFO)")
        )
    given = _field(at, entry, "sentences", path)
    converted = _check_sentences(at, path, doc_id, given)
    sentences = given if converted is None else converted
    if gold:
        if not sentences:
            raise ValueError(
                f"{_where(at)}: field {path}['sentences'] (doc {shown(doc_id)}) is empty: a gold "
                f"rationale needs at least one sentence"
            )
        if len(set(sentences)) != len(sentences):
            raise ValueError(
                f"{_where(at)}: field {path}['sentences'] (doc {shown(doc_id)}) lists a sentence "
                f"twice: {shown(list(sentences))}"
            )
    return converted


def _check_row(at: Where) -> Sequence:
    """Check a row's ``id`` and the type of its ``evidence``; return the evidence."""
    row = at[2]
    if not _is_dict(row):
        raise ValueError(
            f"{_where(at)}: expected a dict with 'id' and 'evidence', got {shown(row)}"
        )
    claim_id = _field(at, row, "id")
    if type(claim_id) is not int or claim_id not in INT64:
        problem = int_problem(claim_id)
        if problem:
            raise ValueError(f"{_where(at)}: field 'id' must be a claim id: {problem}")
    evidence = _field(at, row, "evidence")
    if not _is_list(evidence):
        raise ValueError(
            f"{_where(at)}: field 'evidence' must be a list of {{'doc_id', 'label', "
            f"'sentences'}} entries, got {shown(evidence)}"
        )
    return evidence


def _check_gold_abstracts(at: Where, evidence: Sequence[Mapping], plain: bool) -> None:
    """One label per abstract, and no sentence in two rationales of one abstract.

    The official evaluator stops on conflicting labels and asserts when a *predicted* sentence
    lies in two rationales; both are errors here whatever is predicted. The entries are checked
    (``plain``: their sentences are lists or tuples of plain ints).
    """
    labels: dict[str, tuple[int, str]] = {}
    owner: dict[tuple[str, Any], int] = {}
    for j, entry in enumerate(evidence):
        doc_id, label, sentences = entry["doc_id"], entry["label"], entry["sentences"]
        if not plain:  # numpy or torch values (a tensor hashes by identity): made plain
            sentences = list(map(as_int, as_list(sentences)))
        first, first_label = labels.setdefault(doc_id, (j, label))
        if label != first_label:
            raise ValueError(
                f"{_where(at)}: field 'evidence'[{j}]['label'] of doc {shown(doc_id)} is {shown(label)} "
                f"but 'evidence'[{first}] of the same doc is {shown(first_label)}: one abstract has "
                f"one label"
            )
        for s in sentences:
            other = owner.setdefault((doc_id, s), j)
            if other != j:
                raise ValueError(
                    f"{_where(at)}: field 'evidence'[{j}]['sentences'] of doc {shown(doc_id)}: "
                    f"sentence {s} is already in rationale 'evidence'[{other}]; rationales of "
                    f"one abstract must not share sentences"
                )


def check_predictions(rows: Sequence[Mapping], side: str = "predictions", start: int = 0) -> bool:
    """Raise a ``ValueError`` naming the row (numbered from ``start``), claim id and field unless
    every row is valid. Return True when every number is a plain Python int (else the rows are
    valid but hold numpy or torch values: count their ``prediction_records``)."""
    check_rows(rows, side)
    plain = True
    for index, row in enumerate(rows, start):
        at = (side, index, row)
        for j, entry in enumerate(_check_row(at)):
            if _check_entry(at, j, entry, gold=False) is not None:
                plain = False
        if type(row["id"]) is not int:
            plain = False
    return plain


def check_references(rows: Sequence[Mapping], side: str = "references", start: int = 0) -> bool:
    """``check_predictions`` for gold rows."""
    check_rows(rows, side)
    plain = True
    for index, row in enumerate(rows, start):
        at = (side, index, row)
        evidence = _check_row(at)
        row_plain = True
        for j, entry in enumerate(evidence):
            if _check_entry(at, j, entry, gold=True) is not None:
                row_plain = False
        if len(evidence) > 1:
            _check_gold_abstracts(at, evidence, row_plain)
        plain = plain and row_plain
        if type(row["id"]) is not int:
            plain = False
    return plain


def _entry(entry: Mapping) -> Record:
    return {
        "doc_id": entry["doc_id"],
        "label": entry["label"],
        "sentences": [int(s) for s in entry["sentences"]],
    }


def prediction_records(
    rows: Sequence[Mapping], side: str = "predictions", start: int = 0
) -> list[Record]:
    """Check prediction rows; return them canonical (plain Python values), one entry per
    predicted abstract."""
    check_predictions(rows, side, start)
    return _prediction_records(rows)


def _prediction_records(rows: Sequence[Mapping]) -> list[Record]:
    return [
        {"id": int(r["id"]), "evidence": [_entry(e) for e in predicted_abstracts(r["evidence"])]}
        for r in rows
    ]


def reference_records(
    rows: Sequence[Mapping], side: str = "references", start: int = 0
) -> list[Record]:
    """Check reference rows; return them canonical (plain Python values), one entry per gold
    rationale."""
    check_references(rows, side, start)
    return _reference_records(rows)


def _reference_records(rows: Sequence[Mapping]) -> list[Record]:
    return [{"id": int(r["id"]), "evidence": [_entry(e) for e in r["evidence"]]} for r in rows]


def check_pairs(
    predictions: Sequence[Mapping], references: Sequence[Mapping], start: int = 0
) -> None:
    """The official evaluator scores only when both files list the same claim ids in order."""
    for index, (pred, ref) in enumerate(zip(predictions, references), start):
        if pred["id"] != ref["id"]:
            raise ValueError(
                f"predictions[{index}] (id {shown(pred['id'])}): field 'id' does not match "
                f"references[{index}] (id {shown(ref['id'])}); both must list the same claims in the "
                f"same order"
            )
    if len(predictions) != len(references):
        n = min(len(predictions), len(references))
        extra = predictions[n] if len(predictions) > n else references[n]
        side = "predictions" if len(predictions) > n else "references"
        raise ValueError(
            f"predictions and references must have the same length (one row per claim, paired "
            f"by position), got {len(predictions)} predictions and {len(references)} references; "
            f"{side}[{start + n}] (id {shown(extra['id'])}) has no counterpart"
        )


def checked_rows(
    predictions: Sequence[Mapping], references: Sequence[Mapping], start: int = 0
) -> tuple[Sequence[Mapping], Sequence[Mapping]]:
    """Check the rows (numbered from ``start`` in errors) and return them ready to count and
    describe: as given when every number is a plain int, else canonical."""
    plain = check_predictions(predictions, start=start)
    plain = check_references(references, start=start) and plain
    if not plain:  # numpy or torch values: count plain ints (a tensor hashes by identity)
        predictions, references = _prediction_records(predictions), _reference_records(references)
    check_pairs(predictions, references, start)
    return predictions, references
