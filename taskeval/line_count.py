"""Lines counted as the most lenient reader finds them, for limits checked before reading."""

from __future__ import annotations

from collections.abc import Iterable


def count_lines(chunks: Iterable[bytes], most: int) -> int:
    """The lines of the bytes ``chunks``: each line however it ends (``\\n``, ``\\r\\n`` or a
    lone ``\\r``, as a text-mode reader splits them), the last with or without a line break.

    Counted only until the count passes ``most``, where reading stops: what a limit costs is
    bounded by the lines it allows, not by the size of the data.
    """
    count = 0
    last = 0x0A  # the byte before this chunk (a line break: no line begun)
    for chunk in chunks:
        if not chunk:
            continue
        count += chunk.count(b"\n") + chunk.count(b"\r") - chunk.count(b"\r\n")
        if last == 0x0D and chunk[0] == 0x0A:  # a "\r\n" split between two chunks
            count -= 1
        last = chunk[-1]
        if count > most:
            return count
    return count if last in (0x0A, 0x0D) else count + 1
