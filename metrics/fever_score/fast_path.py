"""The fast path of ``fever_score``: rows all in the official list form (parsed lines of the
official files) scored straight from the parsed values, a chunk of rows at a time, with the
garbage collector paused. It applies the very rules of ``rules`` to the items as they are (gold
items through ``itemgetter(2, 3)``), so its numbers are the checking path's; any row in another
form, or malformed, sends the caller to the checking path.
"""

from __future__ import annotations

from collections.abc import Sequence

from .plain_values import gc_paused
from .rows import _GOLD_PAIR, _chunks, _prediction_columns, _reference_columns, check_max_evidence
from .rules import (
    add_claims,
    complete_group,
    evidence_precision,
    evidence_recall,
    evidence_scored,
    kept_evidence,
    labels_correct,
    new_totals,
    scores,
    strictly_correct,
)

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any


def official_form_scores(
    predictions: Sequence[Any], references: Sequence[Any], max_evidence: int | None
) -> dict[str, float] | None:
    """The five numbers straight from rows in the official list form, each chunk checked and
    scored while it is in the CPU cache; None as soon as a chunk holds a row in another form (or
    a malformed one). ``max_evidence`` must be checked already."""
    totals = new_totals()
    for (_, predicted), (_, gold) in zip(_chunks(predictions), _chunks(references)):
        prediction_columns = _prediction_columns(predicted)
        reference_columns = _reference_columns(gold)
        if prediction_columns is None or reference_columns is None:
            return None
        add_claims(totals, *prediction_columns, *reference_columns, max_evidence, _GOLD_PAIR)
    return scores(totals, len(predictions))


def official_form_score(
    predictions: Sequence[Any], references: Sequence[Any], max_evidence: int | None
) -> dict[str, float] | None:
    """The five numbers for rows of equal number all in the official list form (parsed lines of
    the official files), or None when any row is in another form or malformed: the caller then
    takes the checking path, which scores it or names the problem. ``max_evidence`` is checked."""
    check_max_evidence(max_evidence)
    if len(predictions) != len(references) or not predictions:
        return None
    with gc_paused():
        return official_form_scores(predictions, references, max_evidence)


def official_form_claims(
    predictions: Sequence[Any], references: Sequence[Any], max_evidence: int | None
) -> list[tuple[float, float, float, float, float]] | None:
    """Per claim, what ``add_claims`` adds for it (strictly right, label right, evidence scored,
    evidence precision, evidence recall; 0.0 for the last three of a NOT ENOUGH INFO claim),
    straight from rows in the official list form, by the same rules; None as
    ``official_form_score`` (the caller then takes the checking path). ``max_evidence`` must be
    checked already."""
    if len(predictions) != len(references) or not predictions:
        return None
    out: list[tuple[float, float, float, float, float]] = []
    # A NOT ENOUGH INFO claim's row depends on its label alone: made once for each.
    unscored = {
        ok: (float(strictly_correct(ok, False, False)), float(ok), 0.0, 0.0, 0.0)
        for ok in (False, True)
    }
    with gc_paused():
        for (_, predicted), (_, gold) in zip(_chunks(predictions), _chunks(references)):
            prediction_columns = _prediction_columns(predicted)
            reference_columns = _reference_columns(gold)
            if prediction_columns is None or reference_columns is None:
                return None
            labels, evidence = prediction_columns
            gold_labels, gold_evidence = reference_columns
            right = labels_correct(gold_labels, labels)
            for label_ok, scored, kept, groups in zip(
                right, evidence_scored(gold_labels), evidence, gold_evidence
            ):
                if not scored:
                    out.append(unscored[label_ok])
                    continue
                kept = kept_evidence(kept, max_evidence)
                complete = complete_group(kept, groups, _GOLD_PAIR)
                out.append((
                    float(strictly_correct(label_ok, True, complete)),
                    float(label_ok),
                    1.0,
                    evidence_precision(kept, groups, _GOLD_PAIR),
                    evidence_recall(groups, complete),
                ))  # fmt: skip
    return out
