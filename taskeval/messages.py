"""Error messages for people: one line, cut to a readable length, the cut said.

An error may quote what it refuses (a 200,000-character page name, a whole line of a file);
the command line and the Spaces show the start of it and say how much was left out.
"""

from __future__ import annotations

MAX_MESSAGE_CHARS = 2000  # characters: a few lines of a terminal, a paragraph of a page


def shorten(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` if it is at most ``limit`` characters, else its start and the count of the
    characters left out: ``"... (12,345 more characters)"``."""
    if len(message) <= limit:
        return message
    return f"{message[:limit]}… ({len(message) - limit:,} more characters)"


def one_line(message: object, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` as one line (its line breaks become spaces), shortened."""
    return shorten(" ".join(str(message).splitlines()), limit)
