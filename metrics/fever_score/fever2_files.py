"""FEVER 2.0's official files: per breaker, a gold JSONL and a folder holding one predictions
JSONL per system (the file's name is the system's), scored by ``fever2.fever2_scores``.

The official scorer reads each folder in ``os.listdir`` order, which is arbitrary (it depends on
the file system) and decides the order in which a breaker's potency adds its systems, so the
last bit of the potency; here the files are taken in sorted order of their names. It files each
system's results by position, breaker after breaker, so a system missing from one folder gets
the next breaker's scores (or none); here every folder must hold the same file names. A
prediction line without ``predicted_evidence`` takes its ``predicted_sentences``, as officially.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from os import PathLike

from .fever2 import ScoringError, fever2_scores
from .inputs import carries_gold, pair_lines
from .jsonl import read_jsonl
from .plain_values import shown
from .scoring import DEFAULT_MAX_EVIDENCE

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    Path = str | PathLike

__all__ = ["read_breakers", "score_breaker_files", "system_files"]


def system_files(folder: Path) -> list[str]:
    """A breaker folder's entries in sorted order, each a system's predictions file."""
    names = sorted(os.listdir(folder))
    for name in names:
        if not os.path.isfile(os.path.join(folder, name)):
            raise ValueError(
                f"{folder}: {shown(name)} is not a file: every entry of a breaker folder is read "
                f"as one system's predictions JSONL"
            )
    return names


def _same_files(first: str, first_files: list[str], folder: str, files: list[str]) -> None:
    """Every breaker folder holds the same systems' files (the official scorer would file the
    scores of a system missing from a folder under the next breaker)."""
    for name in first_files:
        if name not in files:
            raise ValueError(
                f"{folder}: no file {shown(name)}, which {first} has: each system's predictions "
                f"must be in every breaker folder, under the same name (the official scorer "
                f"would pair that system's other files with the wrong breakers)"
            )
    for name in files:
        if name not in first_files:
            raise ValueError(
                f"{folder}: file {shown(name)}, which {first} lacks: each system's predictions "
                f"must be in every breaker folder, under the same name (the official scorer "
                f"would pair that system's files with the wrong breakers)"
            )


def _with_sentences(line: Any) -> Any:
    """A prediction line that has ``predicted_sentences`` but no ``predicted_evidence`` reads
    the former as the latter (a new dict: the parsed line is left as it is)."""
    if type(line) is dict and "predicted_evidence" not in line and "predicted_sentences" in line:
        return {**line, "predicted_evidence": line["predicted_sentences"]}
    return line


def read_breakers(
    actual_files: Sequence[Path], breaker_dirs: Sequence[Path], correct_rates: Sequence[float]
) -> tuple[dict[str, dict[str, Any]], dict[str, tuple[Path, dict[str, list]]]]:
    """The input of ``fever2_scores`` from official files, and where its rows come from.

    Breaker ``i`` has the gold file ``actual_files[i]``, the folder ``breaker_dirs[i]`` (one
    predictions JSONL per system) and the correct rate ``correct_rates[i]``; it is named by its
    folder as given. Every folder must hold the same file names. Each system's lines are paired
    with the gold lines as ``read_official`` pairs them (a line carrying ``label`` and
    ``evidence`` is its own gold). The second value gives, per breaker, its gold file and each
    system's parsed lines (for messages)."""
    counts = {len(actual_files), len(breaker_dirs), len(correct_rates)}
    if len(counts) != 1:
        raise ValueError(
            f"{len(actual_files)} actual files, {len(breaker_dirs)} breaker folders and "
            f"{len(correct_rates)} correct rates: give one of each per breaker, in the same order"
        )
    names = list(map(os.fspath, breaker_dirs))
    for i, name in enumerate(names):
        if name in names[:i]:
            raise ValueError(f"breaker folder {name} is given twice")
    listed = [system_files(folder) for folder in breaker_dirs]
    for name, files in zip(names[1:], listed[1:]):
        _same_files(names[0], listed[0], name, files)
    table: dict[str, dict[str, Any]] = {}
    sources: dict[str, tuple[Path, dict[str, list]]] = {}
    for actual_file, folder, name, files, rate in zip(
        actual_files, breaker_dirs, names, listed, correct_rates
    ):
        actual = read_jsonl(actual_file)
        systems, lines = {}, {}
        for system in files:
            path = os.path.join(folder, system)
            lines[system] = list(map(_with_sentences, read_jsonl(path)))
            systems[system] = pair_lines(lines[system], actual, actual_file, path)
        table[name] = {"correct_rate": rate, "systems": systems}
        sources[name] = (actual_file, lines)
    return table, sources


_ROW = re.compile(r"\b(predictions|references)\[(\d+)\]")


def _located(error: ScoringError, gold: Path, lines: list) -> ValueError:
    """A scoring error of a system's rows, its row indices turned into files and lines."""
    path = os.path.join(error.breaker, error.system)

    def replace(match: re.Match) -> str:
        index = int(match.group(2))
        own = index < len(lines) and type(lines[index]) is dict and carries_gold(lines[index])
        where = gold if match.group(1) == "references" and not own else path
        return f"{where}, line {index + 1}"

    message = _ROW.sub(replace, error.reason)
    return ValueError(message if message != error.reason else f"{path}: {error.reason}")


def score_breaker_files(
    actual_files: Sequence[Path],
    breaker_dirs: Sequence[Path],
    correct_rates: Sequence[float],
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> dict[str, dict[str, dict[str, Any]]]:
    """``fever2_scores`` of official files (see ``read_breakers``): what the official FEVER 2.0
    scorer prints, as one dict; a row error names the file and line."""
    table, sources = read_breakers(actual_files, breaker_dirs, correct_rates)
    try:
        return fever2_scores(table, max_evidence)
    except ScoringError as e:
        gold, lines = sources[e.breaker]
        raise _located(e, gold, lines[e.system]) from None
