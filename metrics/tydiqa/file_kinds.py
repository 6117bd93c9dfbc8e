"""TyDi QA's primary-task files at a glance (``CONTRACT.files.kinds``): a refused file named as
the gold or the predictions when it is the other side's."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def recognise(sample: Any) -> tuple[str, str] | None:
    """A gold line has ``annotations`` (or ``passage_answer_candidates``, which come later in
    a long line); a predictions line ``passage_answer_index`` or ``minimal_answer`` beside its
    ``example_id``."""
    row = sample.first
    if type(row) is not dict:
        return None
    for key in ("annotations", "passage_answer_candidates"):
        if key in row:
            return "references", f"it has '{key}'"
    if "example_id" in row:
        for key in ("passage_answer_index", "minimal_answer"):
            if key in row:
                return "predictions", f"it has '{key}'"
    return None
