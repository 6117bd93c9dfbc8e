"""``details=True`` of ``tydiqa``: one record per scored gold example, from the very stats the
official sweep takes (``scoring.score_passage_answer`` / ``score_minimal_answer``). Plain Python.
"""

from __future__ import annotations

from typing import Any


def detail(
    example_id: int, language: str, predicted: bool, passage: tuple, minimal: tuple
) -> dict[str, Any]:
    """A gold example's record from its ``(gold_has, pred_has, credit, score)`` per task.

    Without a prediction (``predicted`` False) nothing is predicted and the scores are None: the
    stats' phantom answer (pred_has when the gold is null, score 0) is the sweep's, not the
    system's.
    """
    return {
        "example_id": example_id,
        "language": language,
        "predicted": predicted,
        "passage_gold": passage[0],
        "passage_predicted": passage[1] if predicted else False,
        "passage_correct": bool(passage[2]),
        "passage_score": passage[3] if predicted else None,
        "minimal_gold": minimal[0],
        "minimal_predicted": minimal[1] if predicted else False,
        "minimal_f1": minimal[2] if predicted else 0.0,
        "minimal_score": minimal[3] if predicted else None,
    }


def in_gold_order(records: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The records of all languages, ordered by the gold row they come from."""
    return [record for _, record in sorted(records, key=_by_position)]


def _by_position(item: tuple) -> int:
    return item[0]
