"""Shortcuts of ``ehealthkd``'s scoring: the records the official rule (``scoring.py``) gives on
two common kinds of sentence pair, found without running it. Each returns None where it does
not apply, and the rule runs; the tests check that both give the same records.

* the predicted key phrases are the gold ones, in the gold order (scenario 3 gives the gold key
  phrases, and nearly every run copies them): the three passes pair each phrase with the gold
  phrase at its position as correct, since that phrase is the first remaining one with its spans;
* one side has no relation: none can match, so the id maps and ``same-as`` classes the relation
  rule builds are not needed (scenario 2 submissions mostly have no relations).
"""

from __future__ import annotations

from collections.abc import Sequence

from .records import Keyphrase, KeyphraseMatch, Relation, RelationMatch, unique_relations


def keyphrase_match(
    submitted: Sequence[Keyphrase], gold: Sequence[Keyphrase]
) -> KeyphraseMatch | None:
    """Subtask A when the predicted phrases equal the gold ones (ids, labels, spans, order)."""
    if submitted != gold:
        return None
    return KeyphraseMatch(["correct"] * len(gold), list(range(len(gold))), len(gold))


def relation_match(submitted: Sequence[Relation], gold: Sequence[Relation]) -> RelationMatch | None:
    """Subtask B when one side has no relation: every other relation is spurious or missing."""
    if submitted and gold:
        return None
    predicted = unique_relations(submitted)
    return RelationMatch(
        predicted, unique_relations(gold), [None] * len(predicted), [None] * len(predicted)
    )
