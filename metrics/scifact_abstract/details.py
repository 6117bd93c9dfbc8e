"""Per-item details of ``scifact_abstract`` and ``scifact_sentence``, for error analysis.

Plain Python, shared by both metric folders (one file; the other folder holds a symlink to it).
Each record says how one item entered the counters of ``scoring``, judged by the same rule
functions; summing its booleans gives those counters back (the tests check it on every parity
case). Rows must be checked first (``rows``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .scoring import (
    complete_rationales,
    label_match,
    predicted_abstracts,
    rationale_within_cap,
    row_gold,
    sentence_cap,
)

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    from .rows import Record
    from .scoring import GoldAbstract

    Gold = Mapping[str, GoldAbstract]

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


def _rationales(abstract: GoldAbstract) -> str:
    return " or ".join(_show(sorted(r)) for r in abstract[1])


# ---------------------------------------------------------------------------------------------
# Abstracts


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
        gold = row_gold(ref["evidence"])
        predicted_docs = set()
        for entry in predicted_abstracts(pred["evidence"]):
            predicted_docs.add(entry["doc_id"])
            out.append(_predicted_abstract(row, claim_id, gold, entry))
        for doc_id, (gold_label, _) in gold.items():
            if doc_id not in predicted_docs:
                out.append(
                    _abstract_record(
                        row, claim_id, doc_id, gold_label=str(gold_label), predicted=False,
                        outcome="missed", why=f"gold {gold_label} abstract not predicted",
                    )
                )  # fmt: skip
    return out


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


def _predicted_abstract(row: int, claim_id: int, gold: Gold, entry: Mapping) -> Record:
    """The record of one predicted abstract."""
    doc_id, label, listed = entry["doc_id"], str(entry["label"]), entry["sentences"]
    abstract = gold.get(doc_id)
    if abstract is None:
        why = "not a gold evidence abstract of this claim" + (
            "" if gold else " (the claim is NOT ENOUGH INFO)"
        )
        return _abstract_record(
            row, claim_id, doc_id, predicted_label=label, gold=False, outcome="false positive",
            why=why,
        )  # fmt: skip
    gold_label = abstract[0]
    record = _abstract_record(
        row, claim_id, doc_id, gold_label=str(gold_label), predicted_label=label
    )
    if not label_match(label, abstract):
        record.update(outcome="wrong label", why=f"predicted {label}, gold {gold_label}")
        return record
    k = sentence_cap(abstract[1])
    found = rationale_within_cap(listed, abstract)
    record.update(label_only=True, k=k, rationalized=found is not None)
    read = f"the first {k} " if len(listed) >= k else "the "
    read += f"predicted sentences {_show(listed[:k])}"
    if found is not None:
        why = f"right label; gold rationale {_show(sorted(found))} within {read}"
    elif not listed:
        why = f"right label, but no sentence predicted (gold: {_rationales(abstract)})"
    else:
        why = f"right label, but {read} hold no whole gold rationale ({_rationales(abstract)})"
        if complete_rationales(listed, abstract):
            why += "; one is complete further down the list"
    record.update(outcome="correct" if found is not None else "rationale not in first k", why=why)
    return record


# ---------------------------------------------------------------------------------------------
# Sentences


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
        out += _SentenceRecords(row, int(pred["id"]), row_gold(ref["evidence"])).claim(
            pred["evidence"]
        )
    return out


class _SentenceRecords:
    """The records of ``sentence_details`` for one claim."""

    def __init__(self, row: int, claim_id: int, gold: Gold) -> None:
        self.row, self.claim_id, self.gold = row, claim_id, gold
        self.out: list[Record] = []

    def claim(self, evidence: Sequence[Mapping]) -> list[Record]:
        predicted_docs = set()
        for entry in predicted_abstracts(evidence):
            doc_id, listed = entry["doc_id"], entry["sentences"]
            predicted_docs.add(doc_id)
            self.predicted_abstract(doc_id, str(entry["label"]), listed)
            if doc_id in self.gold:
                self.missed(
                    doc_id, set(listed), "not among the predicted sentences of its abstract"
                )
        for doc_id in self.gold:
            if doc_id not in predicted_docs:
                self.missed(doc_id, set(), "its abstract is not predicted")
        return self.out

    def record(self, doc_id: str, sentence: Any, position: int | None, **fields: Any) -> None:
        self.out.append(
            {
                "row": self.row,
                "claim_id": self.claim_id,
                "doc_id": str(doc_id),
                "sentence": int(sentence),
                "position": position,
                "gold_label": str(self.gold[doc_id][0]) if doc_id in self.gold else None,
                "predicted_label": None,
                "predicted": True,
                "relevant": False,
                "selected": False,
                "label_correct": False,
                **fields,
            }
        )

    def missed(self, doc_id: str, predicted: set, why: str) -> None:
        for rationale in self.gold[doc_id][1]:
            for s in sorted(rationale):
                if s not in predicted:
                    self.record(
                        doc_id, s, None, predicted=False, relevant=True, outcome="missed", why=why
                    )

    def predicted_abstract(self, doc_id: str, label: str, listed: Sequence) -> None:
        abstract = self.gold.get(doc_id)
        first: dict[Any, int] = {}
        for position, s in enumerate(listed):
            kept = first.setdefault(s, position)
            if kept != position:
                fields = {
                    "outcome": "duplicate",
                    "why": f"repeats position {kept}: retrieved again, never correct twice",
                }
            elif abstract is None:
                fields = {
                    "outcome": "false positive",
                    "why": "the abstract is not gold evidence for this claim",
                }
            else:
                fields = _gold_slot(s, label, listed, abstract)
            self.record(doc_id, s, position, predicted_label=label, **fields)


def _gold_slot(s: Any, label: str, listed: Sequence, abstract: GoldAbstract) -> dict[str, Any]:
    """How the first slot of sentence ``s`` in a gold abstract's predicted list is counted."""
    owner = next((r for r in abstract[1] if s in r), None)
    if owner is None:
        return {"outcome": "false positive", "why": "in no gold rationale of this abstract"}
    if owner not in complete_rationales(listed, abstract):
        missing = owner - set(listed)
        return {
            "relevant": True,
            "outcome": "incomplete rationale",
            "why": f"its gold rationale {_show(sorted(owner))} lacks {_show(sorted(missing))}",
        }
    label_ok = label_match(label, abstract)
    why = f"its whole gold rationale {_show(sorted(owner))} is predicted"
    return {
        "relevant": True,
        "selected": True,
        "label_correct": label_ok,
        "outcome": "correct" if label_ok else "wrong label",
        "why": why if label_ok else f"{why}, but the label is {label}, gold {abstract[0]}",
    }
