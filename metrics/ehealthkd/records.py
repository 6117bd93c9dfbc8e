"""The records of ``ehealthkd``: what the scoring rule reads and what it writes.

Rows (``rows.py``) and official files (``inputs.py``) are both turned into ``Sentence`` tuples,
with sentence-relative ``[start, end)`` pairs, a single span already cut into words as the
official reader cuts it; the rule (``scoring.py``) reads nothing else. For each evaluated sentence
pair it writes a ``PairMatch``: how every key phrase and relation was matched, from which the
counts and the per-item details are both read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

SCENARIOS = ("scenario1", "scenario2", "scenario3")
# The editions whose official scorer is reproduced, and the scenarios each scores (2020 adds the
# transfer scenario, scored as scenario 1; 2021 has the three again).
EDITIONS = (2019, 2020, 2021)
EDITION_SCENARIOS = {2019: SCENARIOS, 2020: (*SCENARIOS, "scenario4"), 2021: SCENARIOS}
ALL_SCENARIOS = EDITION_SCENARIOS[2020]

Pairs = tuple[tuple[int, int], ...]


class Keyphrase(NamedTuple):
    id: int
    label: str
    pairs: Pairs  # sentence-relative [start, end) pairs, single spans already split into words


class Relation(NamedTuple):
    label: str  # lower-cased
    source: int
    target: int


class Sentence(NamedTuple):
    text: str
    keyphrases: tuple[Keyphrase, ...]
    relations: tuple[Relation, ...]


def split_words(text: str, start: int, end: int) -> Pairs:
    """Official: a key phrase given as one span ``[start, end)`` is cut at every U+0020 space of
    ``text`` it covers (``Keyphrase.split``); a phrase of several pairs is never cut.

    Consecutive spaces give empty pairs, as in the official tool; the caller guarantees
    ``0 <= start <= end <= len(text)``.
    """
    if text.find(" ", start, end) < 0:  # nothing to cut: one word
        return ((start, end),)
    pairs = []
    for word in text[start:end].split(" "):
        pairs.append((start, start + len(word)))
        start += len(word) + 1
    return tuple(pairs)


def unique_relations(relations: Sequence[Relation]) -> list[Relation]:
    """Official: duplicate relations (label, source, target) count once, on both sides
    (``remove_dup_relations``); the first occurrence keeps its place."""
    return list(dict.fromkeys(relations))


class KeyphraseMatch(NamedTuple):
    """Subtask A on one sentence pair."""

    outcome: list[str]  # per submitted phrase: "correct", "incorrect", "partial" or "spurious"
    gold_of: list[int | None]  # per submitted phrase: the gold index it was paired with
    n_gold: int

    def mapping(self) -> dict[int, int]:
        """Submitted index → gold index, through correct and partial pairs only (for B)."""
        return {
            i: j
            for i, (kind, j) in enumerate(zip(self.outcome, self.gold_of))
            if kind == "correct" or kind == "partial"
        }


class RelationMatch(NamedTuple):
    """Subtask B on one sentence pair (both sides without duplicates, file order kept)."""

    predicted: list[Relation]
    gold: list[Relation]
    gold_of: list[int | None]  # per predicted relation: the gold index it matched
    how: list[str | None]  # which rule matched: "exact", "reversed", "class", "reversed class"


class PairMatch(NamedTuple):
    """One evaluated sentence pair and how its items were matched."""

    index: int  # position of the pair in the inputs
    submitted: Sentence
    gold: Sentence
    a: KeyphraseMatch
    b: RelationMatch
