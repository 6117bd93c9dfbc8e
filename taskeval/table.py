"""Plain-text tables for people (the CLI's ``--table`` and ``compare``'s report)."""

from __future__ import annotations


def text_table(rows: list[list[str]]) -> str:
    """Left-aligned columns, the first row a header underlined with dashes."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
