"""The FEVEROUS scoring rules of ``feverous_scorer.py`` (Raldir/FEVEROUS, unchanged in logic
since the 2021 release), one function each, in the order its ``feverous_score`` applies them to
a claim, then the sums and the five numbers.

Rows come checked (see ``rows``) with their element ids read (``element_ids``): labels are
strings, predicted evidence a list of ``(page, type, position)`` triples, gold evidence a list of
groups of triples. The label comparison, the strict match, precision and recall are FEVER's own
(``fever_evidence``, shared with ``fever_score``). Unlike FEVER, every claim's evidence is scored,
NOT ENOUGH INFO ones too, and two budgets cut the predicted evidence.
"""

from __future__ import annotations

from .fever_evidence import complete_group, evidence_precision, evidence_recall, labels_correct

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Sequence

    Item = tuple[str, str, str]  # (page, type, position)

DEFAULT_MAX_EVIDENCE = 5
DEFAULT_MAX_EVIDENCE_CELL = 25
# Types counted against max_evidence_cell; any other type (a sentence, a misread type) against
# max_evidence.
TABLE_TYPES = frozenset(("cell", "item", "table_caption", "header_cell"))
OUTPUT_KEYS = (
    "strict_score",
    "label_accuracy",
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
)


def kept_evidence(
    predicted: Sequence[Item], max_evidence: int | None, max_evidence_cell: int | None
) -> list[Item]:
    """The predicted items that count, in their order: the first ``max_evidence_cell`` table
    items (cell, item, table_caption, header_cell) and the first ``max_evidence`` others; None
    keeps all of a kind, 0 or a negative bound none. Duplicates count like any item."""
    kept, tables, others = [], 0, 0
    for item in predicted:
        if item[1] in TABLE_TYPES:
            if max_evidence_cell is not None:
                if tables >= max_evidence_cell:
                    continue
                tables += 1
        elif max_evidence is not None:
            if others >= max_evidence:
                continue
            others += 1
        kept.append(item)
    return kept


def claim_score(
    predicted_label: str,
    predicted: Sequence[Item],
    gold_label: str,
    groups: Sequence[Sequence[Item]],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
    max_evidence_cell: int | None = DEFAULT_MAX_EVIDENCE_CELL,
) -> tuple[bool, bool, float, float]:
    """One claim: (label right, strictly right, evidence precision, evidence recall).

    Strictly right: the right label and a complete gold group among the kept items (no group, no
    strict match: a NOT ENOUGH INFO claim without gold evidence never counts). Precision and
    recall whatever the label; recall 1.0 for a claim without gold groups."""
    (label_ok,) = labels_correct([gold_label], [predicted_label])
    kept = kept_evidence(predicted, max_evidence, max_evidence_cell)
    complete = complete_group(kept, groups, tuple)
    return (
        label_ok,
        label_ok and complete,
        evidence_precision(kept, groups, tuple),
        evidence_recall(groups, complete),
    )


def evidence_f1(precision: float, recall: float) -> float:
    """F1 of the two averages, with no guard, as officially: where both are 0 the official
    scorer divides by zero, and so this raises (a ValueError naming the cause)."""
    if precision + recall == 0:
        raise ValueError(
            "evidence precision and recall are both 0, so evidence F1 is undefined: the official "
            "FEVEROUS scorer stops with ZeroDivisionError on such a run (no predicted evidence "
            "item is gold, and no claim has a complete gold group)"
        )
    return 2.0 * precision * recall / (precision + recall)


def averages(
    strict: float, correct: float, total: int, precision_sum: float, recall_sum: float
) -> dict[str, float]:
    """The four official means, every one over all ``total`` claims."""
    return {
        "strict_score": strict / total,
        "label_accuracy": correct / total,
        "evidence_precision": precision_sum / total,
        "evidence_recall": recall_sum / total,
    }


def scores_from_sums(
    strict: float, correct: float, total: int, precision_sum: float, recall_sum: float
) -> dict[str, float]:
    """The five official formulas: the four means, then F1 of the two evidence means."""
    out = averages(strict, correct, total, precision_sum, recall_sum)
    out["evidence_f1"] = evidence_f1(out["evidence_precision"], out["evidence_recall"])
    return out


def add_claims(totals: list, claims: Sequence[tuple[bool, bool, float, float]]) -> None:
    """Add claim scores to ``totals`` ([strict, correct, precision sum, recall sum]) in row order,
    the order of the official loop, which decides the last bit of the precision sum (no
    ``fsum`` or numpy here)."""
    strict, correct, precision_sum, recall_sum = totals
    for label_ok, strict_ok, precision, recall in claims:
        strict += strict_ok
        correct += label_ok
        precision_sum += precision
        recall_sum += recall
    totals[:] = strict, correct, precision_sum, recall_sum


def scores(claims: Sequence[tuple[bool, bool, float, float]]) -> dict[str, float]:
    """The five numbers of the scored claims (at least one)."""
    totals = [0, 0, 0.0, 0.0]
    add_claims(totals, claims)
    strict, correct, precision_sum, recall_sum = totals
    # Counts are exact ints; as floats they equal the official running float counts.
    return scores_from_sums(float(strict), float(correct), len(claims), precision_sum, recall_sum)
