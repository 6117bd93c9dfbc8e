"""``taskeval check ehealthkd`` on the BRAT editions' submissions (2020: ``scenario.txt`` and
``scenario.ann``, 2021: ``output.txt`` and ``output.ann`` in each scenario folder), told apart
by their files' names.

Each ``.ann`` is read by the edition's own reader (``brat.read_scenario_file``), which here
notes every line it cannot read and reads on, so that every such line is an error, not only the
first. Errors too: a scenario folder without its sentence file or ``.ann``, a span the scorer
refuses where its sentence is scored (a negative offset, start > end, a single span past its
sentence), a label outside the edition's vocabulary (labels are compared as written, so any
other never matches). Warnings: what the 2021 reader drops (a key phrase past the last sentence,
a relation to an unknown id or across sentences). With ``--references``, what the scorer refuses
when it pairs the run's scenario folders with the gold's and reads both is an error as well.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from .brat import LAYOUTS, brat_submissions, read_scenario_brat, read_scenario_file
from .brat import scenario_pairs_brat as pairs_of
from .check import located
from .inputs import HUB_ENTITY_LABELS, HUB_RELATION_LABELS
from .plain_values import shown

# The labels of each edition's annotation guidelines (2021 adds has-part).
KEYPHRASE_LABELS = HUB_ENTITY_LABELS
RELATION_LABELS = {2020: HUB_RELATION_LABELS, 2021: (*HUB_RELATION_LABELS, "has-part")}


def brat_edition(root: Path) -> int | None:
    """The BRAT edition whose files a submission tree holds (by its ``.ann`` names), or None."""
    for layout in LAYOUTS.values():
        ann = Path(layout.sentence_file).with_suffix(".ann").name
        if next(root.rglob(ann), None) is not None:  # the folder's own files included
            return layout.edition
    return None


def _phrase_lines(ann: Path) -> dict[int, int]:
    """The line of each key-phrase id's ``T`` line (the last, which the reader keeps)."""
    lines: dict[int, int] = {}
    for number, line in enumerate(ann.read_text(encoding="utf-8").split("\n"), 1):
        head = line.split("\t", 1)[0]
        if head[:1] == "T" and head[1:].strip().isdigit():
            lines[int(head[1:])] = number
    return lines


def _labels(report: Any, ann: Path, sentences: list, edition: int) -> None:
    lines = None
    for sentence in sentences:
        for phrase in sentence.keyphrases:
            if phrase.label not in KEYPHRASE_LABELS:
                lines = _phrase_lines(ann) if lines is None else lines
                report.error(
                    f"key phrase T{phrase.id}: label {shown(phrase.label)} is not one of "
                    f"{', '.join(KEYPHRASE_LABELS)} (it never matches)",
                    file=ann,
                    line=lines.get(phrase.id),
                )
        for relation in sentence.relations:
            if relation.label not in RELATION_LABELS[edition]:
                report.error(
                    f"relation {shown(relation.label)} from T{relation.source} to "
                    f"T{relation.target} is not one of {', '.join(RELATION_LABELS[edition])} "
                    f"(labels are compared as written: it never matches)",
                    file=ann,
                )


def _folder(report: Any, folder: Path, edition: int) -> None:
    txt = folder / LAYOUTS[edition].sentence_file
    ann = txt.with_suffix(".ann")
    missing = [p.name for p in (txt, ann) if not p.is_file()]
    if missing:
        report.error(f"missing {' and '.join(missing)}: the scorer reads both", file=folder)
        return
    collected: list[ValueError] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            sentences, unscorable = read_scenario_file(txt, edition, collected)
        except ValueError as refused:  # the file itself: not UTF-8, say
            located(report, str(refused), "error")
            return
    for problem in [*collected, *unscorable.values()]:
        located(report, str(problem), "error")
    for said in caught:
        located(report, str(said.message), "warning")
    _labels(report, ann, sentences, edition)


def _as_scored(report: Any, files: Any, edition: int) -> None:
    references, root = Path(files.references), Path(files.predictions)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            runs = brat_submissions(root, edition) or [("", root)]
            for _, run in runs:
                for _, gold, submitted in pairs_of(references, run, None, edition):
                    read_scenario_brat(gold, submitted, edition)
        except ValueError as refused:
            located(report, str(refused), "error")


def run_brat(files: Any, report: Any, edition: int) -> None:
    """Check the BRAT submission ``files.predictions`` of ``edition`` into ``report``."""
    root = Path(files.predictions)
    names = (LAYOUTS[edition].sentence_file, Path(LAYOUTS[edition].sentence_file).stem + ".ann")
    # Every folder holding either file, the submission's own included.
    folders = sorted({p.parent for name in names for p in root.rglob(name)})
    if files.references is not None:
        _as_scored(report, files, edition)
    for folder in folders:
        _folder(report, folder, edition)
