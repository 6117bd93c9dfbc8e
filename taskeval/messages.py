"""Error messages for people: one line, cut to a readable length, the cut said.

An error may quote what it refuses (a 200,000-character page name, a whole line of a file);
the command line and the Spaces show the start of it and say how much was left out.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_MESSAGE_CHARS = 2000  # characters: a few lines of a terminal, a paragraph of a page
SHOWN_ITEMS = 5  # items named in a message about many (lines, ids)


def shorten(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` if it is at most ``limit`` characters, else its start and the count of the
    characters left out: ``"... (12,345 more characters)"``."""
    if len(message) <= limit:
        return message
    return f"{message[:limit]}… ({len(message) - limit:,} more characters)"


def one_line(message: object, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` as one line (its line breaks become spaces), shortened."""
    return shorten(" ".join(str(message).splitlines()), limit)


def listed(items: Sequence[object], shown: int = SHOWN_ITEMS) -> str:
    """The first ``shown`` of ``items``, comma-separated, and how many more there are when there
    are: ``"3, 7, 9, 12, 15 and 2 more"``; never "and 0 more"."""
    head = ", ".join(map(str, items[:shown]))
    return head + and_more(len(items) - shown)


def and_more(left_out: int) -> str:
    """``" and N more"`` for ``left_out`` items not named, or nothing when none is."""
    return f" and {left_out:,} more" if left_out > 0 else ""
