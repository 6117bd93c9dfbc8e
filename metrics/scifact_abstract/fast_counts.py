"""The counters of ``scoring`` straight from the parsed lines of the official files, in one pass:
the fast path of ``taskeval score`` (see ``inputs.leaderboard_scores``).

Plain Python, shared by both metric folders (one file; the other folder holds a symlink to it).
Gold lines are ``{"id", "evidence": {doc_id: [{"sentences", "label"}, ...]}}`` and prediction
lines ``{"id", "evidence": {doc_id: {"sentences", "label"}}}`` (the leaderboard's files). Only
what the row checks (``rows``) accept without a word is counted here: JSON types exactly (an int
id and non-negative int sentences within int64, a known label), non-empty gold rationales, no
sentence twice in the rationales of one gold abstract, one label per gold abstract, the same
claim ids in the same order. Anything else gives None, and the caller takes the checking path,
which names the problem or scores what is unusual but valid. The counting is ``scoring``'s own.
"""

from __future__ import annotations

from .scoring import LABELS, Counts, count_abstract, count_gold, gold_abstracts

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from .scoring import GoldAbstract


def official_counts(gold_lines: Sequence[Any], prediction_lines: Sequence[Any]) -> Counts | None:
    """The eight counters of the official files' parsed lines, or None when any line is not
    plainly valid (see the module's docs)."""
    if len(gold_lines) != len(prediction_lines):
        return None
    c = Counts()
    for gold_line, pred_line in zip(gold_lines, prediction_lines):
        predicted = _predicted_evidence(gold_line, pred_line)
        gold = _gold(gold_line["evidence"]) if predicted is not None else None
        if gold is None:
            return None
        count_gold(c, gold)
        for doc_id, entry in predicted.items():
            if not _plain_prediction(entry):
                return None
            count_abstract(c, gold, doc_id, entry["label"], entry["sentences"])
    return c


def _plain_id(value: Any) -> bool:
    return type(value) is int and -9223372036854775808 <= value <= 9223372036854775807


def _plain_label(value: Any) -> bool:
    return type(value) is str and value in LABELS


def _plain_sentences(sentences: Any) -> bool:
    # The literal is INT64_MAX (a constant is the fastest comparison in this hot loop).
    return type(sentences) is list and all(
        type(s) is int and 0 <= s <= 9223372036854775807 for s in sentences
    )


def _predicted_evidence(gold_line: Any, pred_line: Any) -> dict | None:
    """The prediction line's evidence when both lines are objects with the same int id and an
    ``evidence`` object each, else None."""
    if type(gold_line) is not dict or type(pred_line) is not dict:
        return None
    claim_id, evidence = pred_line.get("id"), pred_line.get("evidence")
    if (
        not _plain_id(claim_id)
        or type(gold_line.get("id")) is not int
        or gold_line["id"] != claim_id
        or type(gold_line.get("evidence")) is not dict
        or type(evidence) is not dict
    ):
        return None
    return evidence


def _gold(evidence: dict) -> dict[str, GoldAbstract] | None:
    """``gold_abstracts`` of a gold line's evidence, or None unless every gold abstract has a
    non-empty list of rationales, each with a known label and sentences, one label in all, and
    no sentence twice (in one rationale or in two)."""
    if not evidence:  # NOT ENOUGH INFO
        return {}
    rationales, listed = [], 0
    for doc_id, items in evidence.items():
        if type(items) is not list or not items:
            return None
        for r in items:
            if not _plain_rationale(r, items[0]):
                return None
            rationales.append((doc_id, r["label"], r["sentences"]))
            listed += len(r["sentences"])
    gold = gold_abstracts(rationales)
    # Each abstract's sentences as sets: fewer than listed if one is repeated or shared.
    if listed != sum(len(frozenset().union(*sets)) for _, sets in gold.values()):
        return None
    return gold


def _plain_rationale(rationale: Any, first: dict) -> bool:
    """A gold rationale with sentences and a known label, that of its abstract's ``first``
    rationale (checked before it, unless it is this one)."""
    if type(rationale) is not dict:
        return False
    label, sentences = rationale.get("label"), rationale.get("sentences")
    return (
        _plain_label(label)
        and label == first["label"]
        and bool(sentences)
        and _plain_sentences(sentences)
    )


def _plain_prediction(entry: Any) -> bool:
    return (
        type(entry) is dict
        and _plain_label(entry.get("label"))
        and _plain_sentences(entry.get("sentences"))
    )
