"""The evidence rules the FEVER family's official scorers share, one function each: FEVER's
``fever/scorer.py`` (fever-scorer 2.0.39) and FEVEROUS's ``feverous_scorer.py`` apply the same
label comparison, the same strict match, precision and recall to a claim's kept evidence. They
differ in what they keep (FEVER: the first ``max_evidence`` sentences; FEVEROUS: two budgets,
sentences and table items) and in which claims they score (FEVER skips NOT ENOUGH INFO), which
each metric's own ``rules`` says.

Evidence items are hashable tuples (FEVER: ``(page, line)``; FEVEROUS: ``(page, type,
position)``); ``gold_item`` turns a gold item into one (``tuple`` for items already in that form).
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import eq

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence


def labels_correct(gold_labels: Iterable[str], predicted_labels: Iterable[str]) -> list[bool]:
    """Per claim, whether the labels are equal once upper-cased (``str.upper``, nothing
    stripped)."""
    return list(map(eq, map(str.upper, gold_labels), map(str.upper, predicted_labels)))


def complete_group(kept: list, groups: Sequence[Iterable], gold_item: Callable) -> bool:
    """The strict match: some gold group has all its items among the kept ones (an empty group
    always has); no group, no match."""
    return any(map(set(kept).issuperset, map(map, repeat(gold_item), groups)))


def evidence_precision(kept: list, groups: Sequence[Iterable], gold_item: Callable) -> float:
    """The share of kept items found in any gold group, each duplicate counted; 1.0 when none is
    kept."""
    if not kept:
        return 1.0
    gold = set(map(gold_item, chain.from_iterable(groups)))
    return sum(map(gold.__contains__, kept)) / len(kept)


def evidence_recall(groups: Sequence, complete: bool) -> float:
    """All or nothing: 1.0 when a gold group is complete, or when the claim has no gold group."""
    return 1.0 if complete or not groups else 0.0


# The labels as the Spaces chart them (the label-confusion bar chart of both metrics' contracts).
LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
LABEL_COLOURS = dict(zip(LABELS, ("#2e7d32", "#c62828", "#9e9e9e")))


def label_confusion(details: list[dict], config: str | None = None) -> list[dict]:
    """Per claim of ``compute(details=True)``'s records, its gold and predicted labels as
    compared (upper-cased): the rows of the label-confusion chart."""
    return [
        {"gold label": d["gold_label"].upper(), "predicted label": d["predicted_label"].upper()}
        for d in details
    ]
