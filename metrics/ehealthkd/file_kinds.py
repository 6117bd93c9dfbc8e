"""eHealth-KD's folders at a glance (``CONTRACT.files.kinds``): a refused folder named as a
submission when it was given as the gold.

Both sides hold the same kinds of files (a sentence file with its ``output_a_`` and
``output_b_`` companions). Only a submission's sentence file may be ``output_scenarioN.txt``;
the gold's is ``input_scenarioN.txt``, a name submissions may use too (the official tool falls
back to it, and real runs did), so it tells nothing.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SUBMITTED = re.compile(r"(?:.*/)?(output_scenario\d+\.txt)")


def recognise(sample: Any) -> tuple[str, str] | None:
    """A folder (or a tree of scenario folders) holding an ``output_scenarioN.txt`` is a
    submission; nothing else is told."""
    if not sample.folder:
        return None
    for name in sample.names:
        if match := _SUBMITTED.fullmatch(name):
            return "predictions", f"it has {match.group(1)}"
    return None
