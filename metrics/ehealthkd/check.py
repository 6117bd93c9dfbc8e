"""``taskeval check ehealthkd``: every problem of an eHealth-KD 2019 submission, before it is
scored (the 2020 and 2021 submissions, BRAT files, are checked by ``brat_check.py``).

Reached only through ``contract.py`` (evaluate never loads it). The submission is a scenario
folder (``output_a_scenarioN.txt`` key phrases, ``output_b_scenarioN.txt`` relations) or a tree
of them; each file is read as the official ``evaltest`` reads it (universal newlines, stripped
lines, global character offsets over the stripped sentences joined by one newline, a key phrase
placed in the sentence of its first pair) and every line checked, not only the first bad one.

The sentences are the submission's own ``output_scenarioN.txt`` or ``input_scenarioN.txt``, as the
official tool reads them, else those of ``--inputs`` (``input_scenarioN.txt``, or a folder
holding it), else those of the gold folder (``--references``). With ``--references``, what the
scorer refuses beyond the submitted lines is an error too: the pairing of the scenario folders
(the gold given as predictions, say), a submitted folder without its sentence file, the gold's
own files.

Errors: a line the official reader refuses, a label outside the task's vocabulary (key phrase
labels are compared case-sensitively; any other never matches), a span outside its sentence, a
key-phrase ID given twice, a relation to an unknown key phrase. Warnings: a TEXT column that is
not the text the offsets cover (the scorer ignores it, but it shows offsets gone astray), a
relation across two sentences or from a phrase to itself (both never scored as correct).
"""

from __future__ import annotations

import re
import warnings
from bisect import bisect_right
from itertools import accumulate
from pathlib import Path
from typing import Any

from .inputs import (
    HUB_ENTITY_LABELS,
    HUB_RELATION_LABELS,
    gold_annotations,
    gold_sentence_file,
    read_sentences,
    scenario_pairs,
    submission_sentence_file,
    submissions,
)
from .scoring import span_problem

# The official label vocabularies (the same names, in the same order, as the Hub dataset's).
KEYPHRASE_LABELS, RELATION_LABELS = HUB_ENTITY_LABELS, HUB_RELATION_LABELS


def _lines(report: Any, path: Path) -> list[str] | None:
    """The physical lines of a file, as the official tool iterates them (universal newlines)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        report.error(f"not UTF-8 text ({e.reason} at byte {e.start})", file=path)
        return None
    except OSError as e:
        report.error(f"cannot be read: {e.strerror or e}", file=path)
        return None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


class _Sentences:
    """The sentences of a scenario and where each starts and ends in global offsets."""

    def __init__(self, path: Path, texts: list[str]) -> None:
        self.path, self.texts = path, texts
        after = list(accumulate(len(t) + 1 for t in texts))
        self.starts = [0, *after[:-1]] if texts else []
        self.ends = [a - 1 for a in after]

    def of(self, offset: int) -> int | None:
        k = bisect_right(self.ends, offset)
        return k if k < len(self.texts) else None


def _sentence_file(folder: Path, n: str, files: Any) -> Path | None:
    """The sentences of scenario ``n``: the submission's own (what the official tool reads its
    offsets against), else the inputs', else the gold's."""
    name = f"input_scenario{n}.txt"
    for own in (f"output_scenario{n}.txt", name):
        if (folder / own).is_file():
            return folder / own
    for path in files.inputs:
        if path.is_file() and (path.name == name or len(files.inputs) == 1):
            return path
        if path.is_dir():
            found = sorted(path.rglob(name))
            if found:
                return found[0]
    if files.references is not None:
        reference = Path(files.references)
        relative = folder.relative_to(files.predictions)
        for candidate in (reference / relative / name, reference / name):
            if candidate.is_file():
                return candidate
        found = sorted(reference.rglob(name))
        if found:
            return found[0]
    return None


def _integer(text: str) -> int | None:
    """``text`` as the official reader's ``int()`` takes it ('+7', ' 7', '٧', '1_0' included), or
    None where it raises (a superscript '²' is a digit to ``str.isdigit`` but no integer)."""
    try:
        return int(text)
    except ValueError:
        return None


def _spans(text: str) -> list[tuple[int, int]] | None:
    pairs = []
    for chunk in text.split(";"):
        bounds = [_integer(b) for b in chunk.split()]
        if len(bounds) != 2 or None in bounds:
            return None
        pairs.append((bounds[0], bounds[1]))
    return pairs


def _keyphrases(report: Any, path: Path, sentences: _Sentences) -> dict[int, int]:
    """Check the key phrases; return each ID's sentence (a later duplicate wins, as
    officially)."""
    located: dict[int, int] = {}
    first_line: dict[int, int] = {}
    mismatched: list[int] = []
    lines = _lines(report, path)
    for number, line in enumerate(lines or [], 1):

        def error(message: str, field: str | None = None, kp_id: Any = None) -> None:
            report.error(message, file=path, line=number, id=kp_id, field=field)  # noqa: B023

        fields = line.strip().split("\t")
        if len(fields) != 4:
            error(f"expected 4 TAB-separated fields ID, SPANS, LABEL, TEXT, got {len(fields)}")
            continue
        kp_id = _integer(fields[0])
        if kp_id is None:
            error(f"must be an integer, got {fields[0]!r}", "ID")
            continue
        pairs = _spans(fields[1])
        if pairs is None:
            error(f"must be 'START END' pairs separated by ';', got {fields[1]!r}", "SPANS", kp_id)
            continue
        if fields[2] not in KEYPHRASE_LABELS:
            error(
                f"must be one of {', '.join(KEYPHRASE_LABELS)} (case-sensitive), got "
                f"{fields[2]!r}: the scorer never counts it correct",
                "LABEL",
                kp_id,
            )
        k = sentences.of(pairs[0][0])
        if k is None:
            error(
                f"offset {pairs[0][0]} lies past the last sentence of {sentences.path} (global "
                f"character offsets, one per line break)",
                "SPANS",
                kp_id,
            )
            continue
        if kp_id in first_line:
            error(f"is given twice (first on line {first_line[kp_id]})", "ID", kp_id)
        first_line.setdefault(kp_id, number)
        located[kp_id] = k
        text, offset = sentences.texts[k], sentences.starts[k]
        relative = [(s - offset, e - offset) for s, e in pairs]
        if k and len(relative) > 1:
            relative.sort()
        problem = span_problem(relative, len(text))
        if problem:
            error(f"in sentence {k + 1} (sentence-relative offsets): {problem}", "SPANS", kp_id)
            continue
        past = [(s, e) for s, e in relative if e > len(text)]
        if past:  # scored as given, officially: a phrase across sentences matches no gold
            report.warning(
                f"in sentence {k + 1} (sentence-relative offsets): the pair {list(past[0])} runs "
                f"past the end of the sentence ({len(text)} characters): the phrase can match "
                f"no gold phrase",
                file=path,
                line=number,
                id=kp_id,
                field="SPANS",
            )
            continue
        # Compared without white space: touching pairs cover a word in pieces.
        covered = "".join(text[s:e] for s, e in relative)
        if "".join(covered.split()) != "".join(fields[3].split()):
            mismatched.append(number)
    if mismatched:
        report.warning(
            f"the TEXT of {len(mismatched):,} key phrase{'s' if len(mismatched) > 1 else ''} is "
            f"not the text its offsets cover (lines {report.listed(mismatched)}): the scorer reads only the "
            f"offsets, so these are likely off",
            file=path,
            line=mismatched[0],
            field="TEXT",
        )
    report.rows += len(lines or [])
    return located


def _relations(report: Any, path: Path, located: dict[int, int], a_path: Path) -> None:
    crossing, loops = [], []
    lines = _lines(report, path)
    for number, line in enumerate(lines or [], 1):
        fields = line.strip().split("\t")
        if len(fields) != 3:
            report.error(
                f"expected 3 TAB-separated fields LABEL, SOURCE-ID, TARGET-ID, got {len(fields)}",
                file=path,
                line=number,
            )
            continue
        label, ends = fields[0], fields[1:]
        if label.lower() not in RELATION_LABELS:
            report.error(
                f"must be one of {', '.join(RELATION_LABELS)} (any case), got {label!r}: the "
                f"scorer never counts it correct",
                file=path,
                line=number,
                field="LABEL",
            )
        known = []
        for name, value in zip(("SOURCE-ID", "TARGET-ID"), ends):
            kp_id = _integer(value)
            if kp_id is None:
                report.error(
                    f"must be an integer, got {value!r}", file=path, line=number, field=name
                )
            elif kp_id not in located:
                report.error(
                    f"{value} is not a key-phrase ID of {a_path}",
                    file=path,
                    line=number,
                    id=kp_id,
                    field=name,
                )
            else:
                known.append(kp_id)
        if len(known) == 2:
            if located[known[0]] != located[known[1]]:
                crossing.append(number)
            elif known[0] == known[1]:
                loops.append(number)
    for numbers, what in (
        (crossing, "joins key phrases of two sentences: the scorer drops it"),
        (loops, "goes from a key phrase to itself: it never matches"),
    ):
        if numbers:
            report.warning(
                f"{len(numbers):,} relation{'s' if len(numbers) > 1 else ''}: each {what} (lines "
                f"{report.listed(numbers)})",
                file=path,
                line=numbers[0],
            )
    report.rows += len(lines or [])


def _scenario(report: Any, files: Any, folder: Path, n: str) -> None:
    a_path, b_path = folder / f"output_a_scenario{n}.txt", folder / f"output_b_scenario{n}.txt"
    sentence_file = _sentence_file(folder, n, files)
    if sentence_file is None:
        report.error(
            f"no sentences for scenario {n}: give input_scenario{n}.txt with --inputs, or the "
            f"gold with --references",
            file=folder,
        )
        return
    sentences = _Sentences(sentence_file, read_sentences(sentence_file))
    located = _keyphrases(report, a_path, sentences) if a_path.is_file() else None
    if located is None:
        report.error(f"missing {a_path.name}: the scorer needs the key phrases", file=folder)
        return
    if b_path.is_file():
        _relations(report, b_path, located, a_path)
    else:  # read in every scenario, officially: scenario 2 too, which scores no relation
        report.error(
            f"missing {b_path.name}: the scorer reads the relations (in scenario 2 too, where "
            f"an empty file will do)",
            file=folder,
        )


def located(report: Any, message: str, level: str = "error") -> None:
    """A message of the scorer's reader (``PATH[, line N]: what``: a refusal, a warning) as a
    problem of ``level`` at the file and line it names."""
    found = re.fullmatch(r"(.+?)(?:, line (\d+))?: (.+)", message, re.DOTALL)
    if found is None or not Path(found.group(1)).exists():
        getattr(report, level)(message)
        return
    path, number, rest = found.groups()
    getattr(report, level)(rest, file=Path(path), line=None if number is None else int(number))


def _as_scored(report: Any, files: Any) -> None:
    """What the scorer reads beyond the submission's lines: the pairing of the submission's
    scenario folders with the gold's, each submitted folder's sentence file, and the gold
    itself, read by the scorer's own reader. A refusal there (the gold folder given as
    predictions, say) is an error, though every submitted line is right."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gold scenarios left unscored: not a refusal
        try:
            runs = submissions(files.predictions) or [("", Path(files.predictions))]
            pairs = [p for _, path in runs for p in scenario_pairs(files.references, path)]
        except ValueError as refused:
            located(report, str(refused))
            return
        read: set[Path] = set()
        for _, gold_folder, submitted in pairs:
            try:
                gold_file = gold_sentence_file(gold_folder)
            except ValueError as refused:
                located(report, str(refused))
                continue
            try:
                submission_sentence_file(submitted, gold_file)
            except ValueError as refused:
                located(report, str(refused))
            if gold_file not in read:
                read.add(gold_file)
                try:
                    gold_annotations(gold_file)
                except ValueError as refused:
                    located(report, str(refused))


def run(files: Any, report: Any) -> None:
    """Check the submission folder ``files.predictions`` (with ``files.inputs``,
    ``files.references``) into ``report``."""
    root = Path(files.predictions)
    if not root.is_dir():
        report.error("must be a submission folder (output_a_scenarioN.txt, ...)", file=root)
        return
    from .brat_check import brat_edition, run_brat

    edition = brat_edition(root)
    if edition is not None:
        run_brat(files, report, edition)
        return
    if files.references is not None:
        _as_scored(report, files)
    scenarios = sorted(
        {
            (p.parent, m.group(1))
            for p in root.rglob("output_*_scenario*.txt")
            if (m := re.fullmatch(r"output_[ab]_scenario(\d+)\.txt", p.name))
        }
    )
    if not scenarios:
        report.error(
            "holds no output_a_scenarioN.txt or output_b_scenarioN.txt, in it or in its "
            "scenario folders",
            file=root,
        )
    for folder, n in scenarios:
        _scenario(report, files, folder, n)
