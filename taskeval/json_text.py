"""Pasted JSON text that Python's ``json`` refuses for its own limits, said in plain words."""

from __future__ import annotations

import re
import sys


def refusal(error: BaseException, text: str, side: str, line: int | None = None) -> ValueError:
    """The one-line ``ValueError`` for ``text`` (of ``side``; ``line``, when it is one line of
    the paste) that ``json.loads`` refused with ``error`` other than a ``JSONDecodeError``: an
    integer of more digits than Python converts, or JSON nested deeper than it recurses."""
    if isinstance(error, RecursionError):
        what = "JSON nested too deeply to be read"
    else:
        limit = sys.get_int_max_str_digits()
        what = (
            f"an integer of more than {limit:,} digits, more than Python's json (and so the "
            "official scorer) reads"
        )
        if line is None and limit:  # the line of the paste that holds it
            found = re.search(rf"[0-9]{{{limit + 1}}}", text)
            if found is not None:
                line = text.count("\n", 0, found.start()) + 1
    return ValueError(f"{side}, line {line}: {what}" if line else f"{side}: {what}")
