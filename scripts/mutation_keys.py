"""Keys of mutants that outlive edits elsewhere in their module (see docs/mutation.md).

A mutant is named by the function it lies in (its qualified name, ``<module>`` outside any
function or class), the text of the line it changes (comment dropped, whitespace collapsed), the mutation
operator, and its occurrence: the how-manieth mutant of that operator on a line of that text in
that function, counted from 0 in source order. Line numbers are not part of it, so an edit above a
mutant, or in another function, leaves its key as it was; an edit of the mutated line, a rename
of its function, or a new line of the same text before it in the same function changes it.

Plain Python (no cosmic-ray), so that the keying can be tested without it.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterable
from typing import NamedTuple

MODULE_LEVEL = "<module>"


class Key(NamedTuple):
    function: str
    line: str
    operator: str
    occurrence: int


class Mutant(NamedTuple):
    """Where a mutant lies: its 1-based line, its operator's name, and its occurrence among the
    operator's mutants of the module (cosmic-ray's numbering, which follows the source)."""

    line: int
    operator: str
    occurrence: int


def normalise(text: str) -> str:
    """A line's text with its indentation and runs of whitespace collapsed."""
    return " ".join(text.split())


def code_lines(source: str) -> list[str]:
    """The source's lines without their comments, normalised (split at line feeds only, as the
    tokenizer counts lines)."""
    lines = source.split("\n")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col]
    return [normalise(line) for line in lines]


def operator_name(name: str) -> str:
    """The operator's name without cosmic-ray's plugin prefix (``core/``)."""
    return name.rpartition("/")[2]


def scopes(source: str) -> list[tuple[int, int, str]]:
    """Every function and class: (first line, decorators included; last line; qualified name)."""
    found: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                found.append((first, child.end_lineno or child.lineno, name))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def enclosing(found: list[tuple[int, int, str]], line: int) -> str:
    """The innermost function or class holding the line."""
    inside = [(last - first, name) for first, last, name in found if first <= line <= last]
    return min(inside)[1] if inside else MODULE_LEVEL


def mutant_keys(source: str, mutants: Iterable[Mutant]) -> list[Key]:
    """The key of each mutant of the module's source, in the order given."""
    mutants = list(mutants)
    lines = code_lines(source)
    found = scopes(source)
    partial = [
        (enclosing(found, m.line), lines[m.line - 1], operator_name(m.operator)) for m in mutants
    ]
    seen: dict[tuple[str, str, str], int] = {}
    keys: list[Key | None] = [None] * len(mutants)
    # cosmic-ray counts an operator's occurrences in source order: numbering them in that order
    # numbers the mutants of one line and operator from the first to the last
    for i in sorted(range(len(mutants)), key=lambda i: (partial[i][2], mutants[i].occurrence)):
        n = seen.get(partial[i], 0)
        seen[partial[i]] = n + 1
        keys[i] = Key(*partial[i], n)
    return [k for k in keys if k is not None]


def parse_key(entry: list) -> Key:
    """A key as written in the configuration: ``[function, line, operator, occurrence]``."""
    function, line, operator, occurrence = entry
    return Key(str(function), normalise(str(line)), operator_name(str(operator)), int(occurrence))
