"""Scoring core of ``scifact_abstract`` and ``scifact_sentence``: the SciFact leaderboard evaluator.

Plain Python, shared by both metric folders (one file; the other folder holds a symlink to it).
It reproduces allenai/scifact-evaluator ``evaluator/eval.py`` (2021-12-28) run with ``--verbose``.

Rows, one per claim, paired by position and required to carry the same claim ``id``:

* a prediction is ``{"id": int, "evidence": [{"doc_id": str, "label": str, "sentences": [int]}]}``,
  one evidence entry per predicted abstract (a repeated ``doc_id`` keeps its last entry, as a
  repeated key of an official JSON object does);
* a reference has the same shape with one evidence entry per gold rationale: an abstract with two
  rationales appears twice. NOT ENOUGH INFO claims have no entries.

Steps, usable on their own:

* ``check_predictions`` / ``check_references`` raise a ``ValueError`` that names the row, its
  claim id and the field on anything the official evaluator would crash on, assert on, or
  silently score as non-matching; ``prediction_records`` / ``reference_records`` also return the
  rows in that canonical shape (what the metric scripts store);
* ``check_pairs`` checks that both sides list the same claim ids in the same order;
* ``count`` pools the eight official counters over checked rows;
* ``abstract_scores`` / ``sentence_scores`` turn them into the official P/R/F1.

``scifact_scores(predictions, references)`` does all of it and returns the leaderboard's 12 numbers;
``abstract_level`` / ``sentence_level`` return one half each, optionally with per-item ``details``
(``abstract_details`` / ``sentence_details``) for error analysis.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .plain_values import INT64, INT64_MAX, as_int, as_list, int_problem

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    # A canonical row: {"id": int, "evidence": [{"doc_id": str, "label": str, "sentences": [int]}]}
    Record = dict[str, Any]
    Where = tuple[str, int, Any]  # (side, row index, row)

LABELS = ("SUPPORT", "CONTRADICT")
# The abstract-level Label+Rationale check reads at most this many predicted sentences, unless
# every gold rationale of the abstract is longer.
MIN_SENTENCE_CAP = 3
ABSTRACT_KEYS = tuple(
    f"abstract_{m}_{s}"
    for m in ("label_only", "rationalized")
    for s in ("precision", "recall", "f1")
)
SENTENCE_KEYS = tuple(
    f"sentence_{m}_{s}" for m in ("selection", "label") for s in ("precision", "recall", "f1")
)


# ---------------------------------------------------------------------------------------------
# Validation. Fast checks first (exact builtin types); the row's description is only built for an
# error message, so checking costs little next to counting.


def _where(at: Where) -> str:
    side, index, row = at
    row_id = row.get("id") if isinstance(row, Mapping) else None
    return f"{side}[{index}]" + (f" (id {row_id!r})" if row_id is not None else "")


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
        raise ValueError(f"{_where(at)}: missing field {path}{name!r}")
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
                f"{_where(at)}: field {path}['sentences'] (doc {doc_id!r}) must be a list of "
                f"sentence indices, got {sentences!r}"
            )
    plain = []
    for position, s in enumerate(items):
        number = as_int(s)
        if number is None or not 0 <= number <= INT64_MAX:
            raise ValueError(
                f"{_where(at)}: field {path}['sentences'][{position}] (doc {doc_id!r}) must be a "
                f"non-negative int sentence index (at most 2**63-1), got {s!r}"
            )
        plain.append(number)
    return plain


def _check_entry(at: Where, j: int, entry: Any, gold: bool) -> list[int] | None:
    """Check one evidence entry; None, or its sentences as plain ints (see _check_sentences)."""
    path = f"'evidence'[{j}]"
    if not _is_dict(entry):
        raise ValueError(
            f"{_where(at)}: field {path} must be a dict with 'doc_id', 'label' and 'sentences', "
            f"got {entry!r}"
        )
    doc_id = _field(at, entry, "doc_id", path)
    if type(doc_id) is not str and not isinstance(doc_id, str):
        raise ValueError(
            f"{_where(at)}: field {path}['doc_id'] must be a string (doc ids are compared "
            f"verbatim, as JSON object keys), got {doc_id!r}"
        )
    label = _field(at, entry, "label", path)
    if label not in LABELS or not isinstance(label, str):
        raise ValueError(
            f"{_where(at)}: field {path}['label'] (doc {doc_id!r}) must be 'SUPPORT' or "
            f"'CONTRADICT', got {label!r}"
            + ("" if gold else " (leave out abstracts predicted NOT ENOUGH INFO)")
        )
    given = _field(at, entry, "sentences", path)
    converted = _check_sentences(at, path, doc_id, given)
    sentences = given if converted is None else converted
    if gold:
        if not sentences:
            raise ValueError(
                f"{_where(at)}: field {path}['sentences'] (doc {doc_id!r}) is empty: a gold "
                f"rationale needs at least one sentence"
            )
        if len(set(sentences)) != len(sentences):
            raise ValueError(
                f"{_where(at)}: field {path}['sentences'] (doc {doc_id!r}) lists a sentence "
                f"twice: {list(sentences)!r}"
            )
    return converted


def _check_row(at: Where) -> Sequence:
    """Check a row's ``id`` and the type of its ``evidence``; return the evidence."""
    row = at[2]
    if not _is_dict(row):
        raise ValueError(f"{_where(at)}: expected a dict with 'id' and 'evidence', got {row!r}")
    claim_id = _field(at, row, "id")
    if type(claim_id) is not int or claim_id not in INT64:
        problem = int_problem(claim_id)
        if problem:
            raise ValueError(f"{_where(at)}: field 'id' must be a claim id: {problem}")
    evidence = _field(at, row, "evidence")
    if not _is_list(evidence):
        raise ValueError(
            f"{_where(at)}: field 'evidence' must be a list of {{'doc_id', 'label', "
            f"'sentences'}} entries, got {evidence!r}"
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
                f"{_where(at)}: field 'evidence'[{j}]['label'] of doc {doc_id!r} is {label!r} "
                f"but 'evidence'[{first}] of the same doc is {first_label!r}: one abstract has "
                f"one label"
            )
        for s in sentences:
            other = owner.setdefault((doc_id, s), j)
            if other != j:
                raise ValueError(
                    f"{_where(at)}: field 'evidence'[{j}]['sentences'] of doc {doc_id!r}: "
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


def _predicted_abstracts(evidence: Sequence[Mapping]) -> Sequence[Mapping]:
    """One entry per doc id: a repeated one keeps its first position and its last content, as
    Python's ``json`` does with a repeated key of the official ``evidence`` object."""
    return evidence if len(evidence) < 2 else list({e["doc_id"]: e for e in evidence}.values())


def prediction_records(
    rows: Sequence[Mapping], side: str = "predictions", start: int = 0
) -> list[Record]:
    """Check prediction rows; return them canonical (plain Python values), one entry per
    predicted abstract."""
    check_predictions(rows, side, start)
    return _prediction_records(rows)


def _prediction_records(rows: Sequence[Mapping]) -> list[Record]:
    return [
        {"id": int(r["id"]), "evidence": [_entry(e) for e in _predicted_abstracts(r["evidence"])]}
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
                f"predictions[{index}] (id {pred['id']!r}): field 'id' does not match "
                f"references[{index}] (id {ref['id']!r}); both must list the same claims in the "
                f"same order"
            )
    if len(predictions) != len(references):
        n = min(len(predictions), len(references))
        extra = predictions[n] if len(predictions) > n else references[n]
        side = "predictions" if len(predictions) > n else "references"
        raise ValueError(
            f"predictions and references must have the same length (one row per claim, paired "
            f"by position), got {len(predictions)} predictions and {len(references)} references; "
            f"{side}[{start + n}] (id {extra['id']!r}) has no counterpart"
        )


# ---------------------------------------------------------------------------------------------
# Counting and scores


class Counts:
    """The official evaluator's counters, pooled over all claims (micro averages); ``Counts(*v)``
    takes them in the order of ``FIELDS``. (Not a dataclass: dataclasses imports inspect, which
    costs the command line more than scoring a small file.)"""

    FIELDS = (
        "abstract_relevant",
        "abstract_retrieved",
        "abstract_label_only",
        "abstract_rationalized",
        "sentence_relevant",
        "sentence_retrieved",
        "sentence_selection",
        "sentence_label",
    )
    __slots__ = FIELDS

    def __init__(self, *values: int) -> None:
        for name, value in zip(self.FIELDS, values or (0,) * len(self.FIELDS), strict=True):
            setattr(self, name, value)


def _gold_docs(evidence: Sequence[Mapping]) -> dict[str, tuple[str, list[frozenset]]]:
    """doc_id -> (label of its first rationale, its rationales as sets)."""
    docs: dict[str, tuple[str, list[frozenset]]] = {}
    for entry in evidence:
        docs.setdefault(entry["doc_id"], (entry["label"], []))[1].append(
            frozenset(entry["sentences"])
        )
    return docs


def count(predictions: Sequence[Mapping], references: Sequence[Mapping]) -> Counts:
    """Pool the eight counters over checked rows (see ``check_*``), raw or canonical."""
    c = Counts()
    for pred, ref in zip(predictions, references):
        gold = _gold_docs(ref["evidence"])
        c.abstract_relevant += len(gold)
        c.sentence_relevant += sum(len(e["sentences"]) for e in ref["evidence"])
        for entry in _predicted_abstracts(pred["evidence"]):
            listed = entry["sentences"]
            c.abstract_retrieved += 1
            c.sentence_retrieved += len(listed)  # duplicates count, nothing is cut
            if entry["doc_id"] not in gold:
                continue
            gold_label, rationales = gold[entry["doc_id"]]
            label_ok = entry["label"] == gold_label
            # Sentence level: a sentence earns credit only when its whole rationale is predicted.
            predicted = set(listed)
            selected = sum(len(r) for r in rationales if r <= predicted)
            c.sentence_selection += selected
            if label_ok:
                c.sentence_label += selected
                c.abstract_label_only += 1
                # Abstract level: a whole rationale among the first k sentences, in list order.
                k = max(MIN_SENTENCE_CAP, min(len(r) for r in rationales))
                head = set(listed[:k])
                if any(r <= head for r in rationales):
                    c.abstract_rationalized += 1
    return c


def _plain_sentences(sentences: Any) -> bool:
    return type(sentences) is list and all(type(s) is int and s >= 0 for s in sentences)


def official_counts(gold_lines: Sequence[Any], prediction_lines: Sequence[Any]) -> Counts | None:
    """The eight counters straight from the parsed lines of the official files, in one pass, or
    None when any line is not plainly valid.

    Gold lines are ``{"id", "evidence": {doc_id: [{"sentences", "label"}, ...]}}`` and prediction
    lines ``{"id", "evidence": {doc_id: {"sentences", "label"}}}`` (the leaderboard's files).
    Only what ``check_*`` would accept without a word is counted here: JSON types exactly (an
    int id, non-negative int sentences, a known label), non-empty gold rationales without a
    repeated sentence, one label per gold abstract, no sentence in two of its rationales, the
    same claim ids in the same order. On anything else (None) the caller takes the checking
    path, which names the problem or scores what is unusual but valid. The counting is
    ``count``'s, with the same operations in the same order.
    """
    if len(gold_lines) != len(prediction_lines):
        return None
    c = Counts()
    for gold_line, pred_line in zip(gold_lines, prediction_lines):
        if type(gold_line) is not dict or type(pred_line) is not dict:
            return None
        claim_id, gold_evidence = gold_line.get("id"), gold_line.get("evidence")
        pred_evidence = pred_line.get("evidence")
        if (
            type(claim_id) is not int
            or type(pred_line.get("id")) is not int
            or pred_line["id"] != claim_id
            or type(gold_evidence) is not dict
            or type(pred_evidence) is not dict
        ):
            return None
        gold: dict[str, tuple[str, list[frozenset]]] = {}
        for doc_id, rationales in gold_evidence.items():
            if type(rationales) is not list or not rationales:
                return None
            label, sets, seen = None, [], 0
            for r in rationales:
                if type(r) is not dict:
                    return None
                sentences, r_label = r.get("sentences"), r.get("label")
                if (
                    r_label not in LABELS
                    or type(r_label) is not str
                    or (label is not None and r_label != label)
                    or not sentences
                    or not _plain_sentences(sentences)
                ):
                    return None
                label = r_label
                s = frozenset(sentences)
                sets.append(s)
                seen += len(s)
                c.sentence_relevant += len(sentences)
                if len(s) != len(sentences):  # a sentence listed twice in one rationale
                    return None
            if len(sets) > 1 and len(frozenset().union(*sets)) != seen:  # shared sentences
                return None
            gold[doc_id] = (label, sets)  # type: ignore[assignment]
        c.abstract_relevant += len(gold)
        for doc_id, entry in pred_evidence.items():
            if type(entry) is not dict:
                return None
            listed, p_label = entry.get("sentences"), entry.get("label")
            if p_label not in LABELS or type(p_label) is not str or not _plain_sentences(listed):
                return None
            c.abstract_retrieved += 1
            c.sentence_retrieved += len(listed)
            if doc_id not in gold:
                continue
            gold_label, rationales = gold[doc_id]
            predicted = set(listed)
            selected = sum(len(r) for r in rationales if r <= predicted)
            c.sentence_selection += selected
            if p_label == gold_label:
                c.sentence_label += selected
                c.abstract_label_only += 1
                k = max(MIN_SENTENCE_CAP, min(len(r) for r in rationales))
                head = set(listed[:k])
                if any(r <= head for r in rationales):
                    c.abstract_rationalized += 1
    return c


def _div(a: float, b: float) -> float:
    return 0.0 if b == 0 else a / b


def _prf(prefix: str, correct: int, retrieved: int, relevant: int) -> dict[str, float]:
    # F1 from the float precision and recall, division last: 2c/(ret+rel) differs in the last bit.
    precision = _div(correct, retrieved)
    recall = _div(correct, relevant)
    f1 = _div(2 * precision * recall, precision + recall)
    return {f"{prefix}_precision": precision, f"{prefix}_recall": recall, f"{prefix}_f1": f1}


def abstract_scores(c: Counts) -> dict[str, float]:
    """The six abstract-level numbers (Label-Only, Label+Rationale) in the leaderboard's order."""
    return {
        **_prf(
            "abstract_label_only", c.abstract_label_only, c.abstract_retrieved, c.abstract_relevant
        ),
        **_prf(
            "abstract_rationalized",
            c.abstract_rationalized,
            c.abstract_retrieved,
            c.abstract_relevant,
        ),
    }


def sentence_scores(c: Counts) -> dict[str, float]:
    """The six sentence-level numbers (Selection-Only, Selection+Label) in the leaderboard's order."""
    return {
        **_prf(
            "sentence_selection", c.sentence_selection, c.sentence_retrieved, c.sentence_relevant
        ),
        **_prf("sentence_label", c.sentence_label, c.sentence_retrieved, c.sentence_relevant),
    }


# ---------------------------------------------------------------------------------------------
# Per-item details, for error analysis. Each record says how one item entered the counters above;
# summing its booleans gives those counters back (the tests check it on every parity case).

ABSTRACT_OUTCOMES = (
    "correct",
    "rationale not in first k",
    "wrong label",
    "false positive",
    "missed",
)
SENTENCE_OUTCOMES = (
    "correct",
    "wrong label",
    "incomplete rationale",
    "duplicate",
    "false positive",
    "missed",
)


def _show(sentences: Any) -> str:
    return "[" + ", ".join(str(s) for s in sentences) + "]"


def _rationales(gold: Mapping[str, tuple[str, list[frozenset]]], doc_id: str) -> str:
    return " or ".join(_show(sorted(r)) for r in gold[doc_id][1])


def _abstract_record(row: int, claim_id: int, doc_id: str, **fields: Any) -> Record:
    return {
        "row": row,
        "claim_id": claim_id,
        "doc_id": str(doc_id),
        "gold_label": None,
        "predicted_label": None,
        "predicted": True,
        "gold": True,
        "label_only": False,
        "rationalized": False,
        "k": None,
        **fields,
    }


def abstract_details(predictions: Sequence[Mapping], references: Sequence[Mapping]) -> list[Record]:
    """One record per (claim, abstract) pair that is predicted or gold, for checked rows.

    ``predicted`` / ``gold`` say which counters (retrieved / relevant) the pair is in;
    ``label_only`` / ``rationalized`` whether it counted as correct; ``k`` the number of predicted
    sentences Label+Rationale read (when the label is right); ``outcome`` one of
    ``ABSTRACT_OUTCOMES`` and ``why`` a short reason. Predicted abstracts come first, in the
    order given, then the gold abstracts that were not predicted.
    """
    out: list[Record] = []
    for row, (pred, ref) in enumerate(zip(predictions, references)):
        claim_id = int(pred["id"])
        gold = _gold_docs(ref["evidence"])
        predicted_docs = set()
        for entry in _predicted_abstracts(pred["evidence"]):
            doc_id, label, listed = entry["doc_id"], str(entry["label"]), entry["sentences"]
            predicted_docs.add(doc_id)
            if doc_id not in gold:
                why = "not a gold evidence abstract of this claim" + (
                    "" if gold else " (the claim is NOT ENOUGH INFO)"
                )
                out.append(
                    _abstract_record(
                        row, claim_id, doc_id, predicted_label=label, gold=False,
                        outcome="false positive", why=why,
                    )
                )  # fmt: skip
                continue
            gold_label, rationales = gold[doc_id]
            record = _abstract_record(
                row, claim_id, doc_id, gold_label=str(gold_label), predicted_label=label
            )
            if label != gold_label:
                record.update(outcome="wrong label", why=f"predicted {label}, gold {gold_label}")
                out.append(record)
                continue
            k = max(MIN_SENTENCE_CAP, min(len(r) for r in rationales))
            head = set(listed[:k])
            record.update(label_only=True, k=k)
            found = next((r for r in rationales if r <= head), None)
            read = f"the first {k} " if len(listed) >= k else "the "
            read += f"predicted sentences {_show(listed[:k])}"
            if found is not None:
                record.update(
                    rationalized=True,
                    outcome="correct",
                    why=f"right label; gold rationale {_show(sorted(found))} within {read}",
                )
            elif not listed:
                record.update(
                    outcome="rationale not in first k",
                    why=f"right label, but no sentence predicted (gold: {_rationales(gold, doc_id)})",
                )
            else:
                later = any(r <= set(listed) for r in rationales)
                record.update(
                    outcome="rationale not in first k",
                    why=f"right label, but {read} hold no whole gold rationale "
                    f"({_rationales(gold, doc_id)})"
                    + ("; one is complete further down the list" if later else ""),
                )
            out.append(record)
        for doc_id, (gold_label, _) in gold.items():
            if doc_id not in predicted_docs:
                out.append(
                    _abstract_record(
                        row, claim_id, doc_id, gold_label=str(gold_label), predicted=False,
                        outcome="missed", why=f"gold {gold_label} abstract not predicted",
                    )
                )  # fmt: skip
    return out


def sentence_details(predictions: Sequence[Mapping], references: Sequence[Mapping]) -> list[Record]:
    """One record per predicted sentence (each slot of each predicted list, duplicates too) and
    per gold rationale sentence not predicted, for checked rows.

    ``predicted`` marks a slot of a predicted list (retrieved); ``relevant`` the one record that
    stands for each gold rationale sentence (its first predicted slot, or a ``missed`` record);
    ``selected`` / ``label_correct`` whether it counted as correct at Selection-Only /
    Selection+Label; ``position`` is the slot in the predicted list (None when not predicted);
    ``outcome`` one of ``SENTENCE_OUTCOMES`` and ``why`` a short reason.
    """
    out: list[Record] = []
    for row, (pred, ref) in enumerate(zip(predictions, references)):
        out += _sentence_records(
            row, int(pred["id"]), _gold_docs(ref["evidence"]), pred["evidence"]
        )
    return out


def _sentence_records(
    row: int, claim_id: int, gold: Mapping[str, tuple[str, list[frozenset]]], evidence: Sequence
) -> list[Record]:
    """The records of ``sentence_details`` for one claim."""
    out: list[Record] = []
    predicted_docs = set()

    def record(doc_id: str, sentence: Any, position: int | None, **fields: Any) -> None:
        out.append(
            {
                "row": row,
                "claim_id": claim_id,
                "doc_id": str(doc_id),
                "sentence": int(sentence),
                "position": position,
                "gold_label": str(gold[doc_id][0]) if doc_id in gold else None,
                "predicted_label": None,
                "predicted": True,
                "relevant": False,
                "selected": False,
                "label_correct": False,
                **fields,
            }
        )

    def missed(doc_id: str, predicted: set, why: str) -> None:
        for rationale in gold[doc_id][1]:
            for s in sorted(rationale):
                if s not in predicted:
                    record(
                        doc_id, s, None, predicted=False, relevant=True, outcome="missed",
                        why=why,
                    )  # fmt: skip

    for entry in _predicted_abstracts(evidence):
        doc_id, label, listed = entry["doc_id"], str(entry["label"]), entry["sentences"]
        predicted_docs.add(doc_id)
        predicted = set(listed)
        if doc_id in gold:
            gold_label, rationales = gold[doc_id]
            owner = {s: r for r in rationales for s in r}
            label_ok = label == gold_label
        else:
            owner, label_ok = {}, False
        first: dict[Any, int] = {}
        for position, s in enumerate(listed):
            kept = first.setdefault(s, position)
            if kept != position:
                record(
                    doc_id, s, position, predicted_label=label, outcome="duplicate",
                    why=f"repeats position {kept}: retrieved again, never correct twice",
                )  # fmt: skip
            elif doc_id not in gold:
                record(
                    doc_id, s, position, predicted_label=label, outcome="false positive",
                    why="the abstract is not gold evidence for this claim",
                )  # fmt: skip
            elif s not in owner:
                record(
                    doc_id, s, position, predicted_label=label, outcome="false positive",
                    why="in no gold rationale of this abstract",
                )  # fmt: skip
            elif owner[s] <= predicted:
                record(
                    doc_id, s, position, predicted_label=label, relevant=True,
                    selected=True, label_correct=label_ok,
                    outcome="correct" if label_ok else "wrong label",
                    why=f"its whole gold rationale {_show(sorted(owner[s]))} is predicted"
                    + ("" if label_ok else f", but the label is {label}, gold {gold_label}"),
                )  # fmt: skip
            else:
                record(
                    doc_id, s, position, predicted_label=label, relevant=True,
                    outcome="incomplete rationale",
                    why=f"its gold rationale {_show(sorted(owner[s]))} lacks "
                    f"{_show(sorted(owner[s] - predicted))}",
                )  # fmt: skip
        if doc_id in gold:
            missed(doc_id, predicted, "not among the predicted sentences of its abstract")
    for doc_id in gold:
        if doc_id not in predicted_docs:
            missed(doc_id, set(), "its abstract is not predicted")
    return out


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


def abstract_level(
    predictions: Sequence[Mapping], references: Sequence[Mapping], details: bool = False
) -> dict[str, Any]:
    """Check the rows and return the six abstract-level numbers (what ``scifact_abstract``
    computes); with ``details=True`` also ``"details"``, see ``abstract_details``."""
    predictions, references = checked_rows(predictions, references)
    result: dict[str, Any] = abstract_scores(count(predictions, references))
    if details:
        result["details"] = abstract_details(predictions, references)
    return result


def sentence_level(
    predictions: Sequence[Mapping], references: Sequence[Mapping], details: bool = False
) -> dict[str, Any]:
    """Check the rows and return the six sentence-level numbers (what ``scifact_sentence``
    computes); with ``details=True`` also ``"details"``, see ``sentence_details``."""
    predictions, references = checked_rows(predictions, references)
    result: dict[str, Any] = sentence_scores(count(predictions, references))
    if details:
        result["details"] = sentence_details(predictions, references)
    return result


def scifact_scores(
    predictions: Sequence[Mapping], references: Sequence[Mapping]
) -> dict[str, float]:
    """Check the rows and return the leaderboard's 12 numbers, as ``eval.py --verbose`` writes them."""
    c = count(*checked_rows(predictions, references))
    return {**abstract_scores(c), **sentence_scores(c)}
