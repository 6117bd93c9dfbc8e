"""The FEVER scoring rules of ``fever-scorer`` 2.0.39 (``fever/scorer.py``), one function each,
in the order its ``fever_score`` applies them to a claim, then the sums and the five numbers.

Rows come checked (see ``rows``): labels are strings; predicted evidence is a list of
``(page, line)`` pairs (a ``[page, line]`` list reads as the pair); gold evidence is a list of
groups of items that ``gold_pair`` turns into ``(page, line)`` pairs (normalized rows hold the
pairs, so ``tuple``; official rows hold ``[annotation_id, evidence_id, page, line]`` lists).
Predicted pages are strings and lines ints, so a gold item with a None line or a page that is no
string never matches: the official precision, which skips items whose line is None, gives the
same number as a plain count.

The rules FEVEROUS applies alike (labels, the strict match, precision and recall) live in
``fever_evidence``, shared by both metrics.
"""

from __future__ import annotations

from itertools import compress

from .fever_evidence import (
    complete_group,
    evidence_precision,
    evidence_recall,
    labels_correct,
)

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

    Sentence = tuple[Any, Any]  # (page, line); gold pages and lines may be None
    Claim = tuple[str, Sequence, str, Sequence[Sequence]]

NOT_ENOUGH_INFO = "NOT ENOUGH INFO"
DEFAULT_MAX_EVIDENCE = 5
OUTPUT_KEYS = (
    "strict_score",
    "label_accuracy",
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
)


def evidence_scored(gold_labels: Iterable[str]) -> list[bool]:
    """Per claim, whether its evidence is scored: only the gold label decides, and a NOT ENOUGH
    INFO claim needs no evidence for the FEVER score and has no evidence precision or recall."""
    return list(map(NOT_ENOUGH_INFO.__ne__, map(str.upper, gold_labels)))


def kept_evidence(predicted: Sequence, max_evidence: int | None) -> list[Sentence]:
    """The predicted sentences that count: ``predicted[:max_evidence]``, a slice bound (None keeps
    all, a negative one drops sentences from the end), duplicates kept, as ``(page, line)``."""
    return list(map(tuple, predicted[:max_evidence]))


def strictly_correct(label_ok: bool, scored: bool, complete: bool) -> bool:
    """The FEVER score of a claim: the right label and, when its evidence is scored (not NOT
    ENOUGH INFO), a complete gold group."""
    return label_ok and (complete or not scored)


def claim_score(
    predicted_label: str,
    predicted: Sequence,
    gold_label: str,
    groups: Sequence[Iterable],
    max_evidence: int | None = None,
    gold_pair: Callable = tuple,
) -> tuple[bool, bool, float | None, float | None]:
    """One claim: (label right, strictly right, evidence precision, evidence recall), by the rules
    above; precision and recall are None when its evidence is not scored (NOT ENOUGH INFO).
    ``max_evidence`` cuts ``predicted`` (None: it is already cut, or nothing is)."""
    (label_ok,) = labels_correct([gold_label], [predicted_label])
    (scored,) = evidence_scored([gold_label])
    if not scored:
        return label_ok, strictly_correct(label_ok, False, False), None, None
    kept = kept_evidence(predicted, max_evidence)
    complete = complete_group(kept, groups, gold_pair)
    return (
        label_ok,
        strictly_correct(label_ok, True, complete),
        evidence_precision(kept, groups, gold_pair),
        evidence_recall(groups, complete),
    )


Totals = list  # [strict, correct, verifiable, precision_sum, recall_sum]


def new_totals() -> Totals:
    return [0, 0, 0, 0.0, 0.0]


def add_claims(
    totals: Totals,
    predicted_labels: Sequence[str],
    evidence: Sequence[Sequence],
    gold_labels: Sequence[str],
    gold_evidence: Sequence[Sequence],
    max_evidence: int | None,
    gold_pair: Callable = tuple,
) -> None:
    """Add claims, given as columns, to ``totals`` by the rules above, in row order: the order of
    the official loop, which decides the last bit of the precision sum (no float ``sum()``,
    ``fsum`` or numpy here). Claim by claim this is ``claim_score``; the label rules run a
    column at a time, as C-level passes."""
    strict, correct, verifiable, precision_sum, recall_sum = totals
    right = labels_correct(gold_labels, predicted_labels)
    scored = evidence_scored(gold_labels)
    correct += sum(right)
    # claims whose evidence is not scored are strictly right with the right label
    strict += sum(right) - sum(compress(right, scored))
    for label_ok, predicted, groups in compress(zip(right, evidence, gold_evidence), scored):
        kept = kept_evidence(predicted, max_evidence)
        complete = complete_group(kept, groups, gold_pair)
        strict += strictly_correct(label_ok, True, complete)
        verifiable += 1
        precision_sum += evidence_precision(kept, groups, gold_pair)
        recall_sum += evidence_recall(groups, complete)
    totals[:] = strict, correct, verifiable, precision_sum, recall_sum


def scores_from_sums(
    strict: float,
    correct: float,
    total: int,
    verifiable: int,
    precision_sum: float,
    recall_sum: float,
) -> dict[str, float]:
    """The five official formulas over the sums of per-claim scores: evidence scores average over
    the claims that are not NOT ENOUGH INFO, precision 1.0 and recall 0.0 without any; F1 from
    the two averages, 0.0 when both are 0."""
    precision = precision_sum / verifiable if verifiable else 1.0
    recall = recall_sum / verifiable if verifiable else 0.0
    f1 = 2.0 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return {
        "strict_score": strict / total,
        "label_accuracy": correct / total,
        "evidence_precision": precision,
        "evidence_recall": recall,
        "evidence_f1": f1,
    }


def scores(totals: Totals, total: int) -> dict[str, float]:
    """The five numbers of ``total`` claims added to ``totals``."""
    strict, correct, verifiable, precision_sum, recall_sum = totals
    # Counts are exact ints; as floats they equal the official running float counts.
    return scores_from_sums(
        float(strict), float(correct), total, verifiable, precision_sum, recall_sum
    )
