"""What taskeval needs from ``feverous_score`` (see ``taskeval.contract``); evaluate never loads
it."""

from __future__ import annotations

import math

from taskeval.contract import (
    BarChart,
    FileArgument,
    FileKinds,
    Files,
    MetricContract,
    Option,
    Reader,
    SpaceContract,
    SubmissionCheck,
    SumStatistics,
)

from . import scoring as core
from .fever_evidence import LABEL_COLOURS, LABELS, label_confusion
from .inputs import OPTIONS, read_official, score_files
from .rules import averages, evidence_f1

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def statistics(config: str | None, options: Mapping[str, Any]) -> SumStatistics:
    """Claims; per claim, what the official loop adds (strictly right, label right, evidence
    precision, evidence recall), turned into scores by the core's own formulas. A resample whose
    evidence precision and recall are both 0 has no F1 (NaN; the official scorer would divide by
    zero)."""
    max_evidence, max_evidence_cell, id_reading = core.check_options(
        options.get("max_evidence", core.DEFAULT_MAX_EVIDENCE),
        options.get("max_evidence_cell", core.DEFAULT_MAX_EVIDENCE_CELL),
        options.get("id_reading", core.DEFAULT_READING),
    )
    settings = {
        "max_evidence": max_evidence,
        "max_evidence_cell": max_evidence_cell,
        "id_reading": id_reading,
    }

    def official(inputs: Mapping[str, Any]) -> dict[str, Any]:
        return core.feverous_score(inputs["predictions"], inputs["references"], **settings)

    def stats(inputs: Mapping[str, Any]) -> list[tuple[float, ...]]:
        preds, refs = core.checked_rows(inputs["predictions"], inputs["references"], id_reading)
        return [
            (float(strict), float(label_ok), precision, recall)
            for label_ok, strict, precision, recall in core.claim_scores(
                preds, refs, max_evidence, max_evidence_cell
            )
        ]

    def scores(sums: list[float], n: int) -> dict[str, float]:
        out = averages(*sums[:2], n, *sums[2:])
        precision, recall = out["evidence_precision"], out["evidence_recall"]
        out["evidence_f1"] = evidence_f1(precision, recall) if precision + recall else math.nan
        return out

    return SumStatistics(
        "claim", core.OUTPUT_KEYS, width=4, official=official, stats=stats, scores=scores
    )


def _example_rows(rows: dict[str, list], n: int = 6) -> dict[str, list]:
    return {"predictions": rows["predictions"][:n], "references": rows["references"][:n]}


def _check(files: Any, report: Any) -> None:
    from .check import run  # imported on use: scoring never needs it

    run(files, report)


def _recognise(sample: Any) -> tuple[str, str] | None:
    from .file_kinds import recognise  # imported on a refusal only: scoring never needs it

    return recognise(sample)


CONTRACT = MetricContract(
    "feverous_score",
    files=Files(
        FileArgument(
            "the gold dataset JSONL (label, evidence sets), only to score a leaderboard "
            "submission; without it the predictions file is the official evaluate.py's input, "
            "gold and predictions on each line",
            gold=True,
            optional=True,
        ),
        FileArgument(
            "the official evaluate.py's JSONL (first line: the dataset's header, skipped; then "
            "label, evidence, predicted_label, predicted_evidence per claim), or a leaderboard "
            "submission with --references"
        ),
        kinds=FileKinds("FEVEROUS", _recognise),
    ),
    options=[
        Option(name, parse, metavar=metavar, help=help, default=default, note=note)
        for name, (parse, metavar, help, default, note) in OPTIONS.items()
    ],
    reader=Reader(read_official, score_files),
    statistics=statistics,
    space=SpaceContract(
        {"references": "dev.jsonl", "predictions": "dev_predictions.jsonl"},
        file_help=(
            "**predictions**: the official `evaluate.py` input: the dataset's header line, then "
            "per claim the gold `label` and `evidence` sets and the `predicted_label` and "
            "`predicted_evidence` element ids (`Page_sentence_1`, `Page_cell_0_1_2`). "
            "**references** (optional): a gold dataset file, to score a leaderboard submission "
            "(`prepare_submission.py`'s output). Pre-filled: a small made-up example."
        ),
        example_rows=_example_rows,
        chart=BarChart(
            label_confusion,
            x="gold label",
            y="claims",
            color="predicted label",
            x_order=LABELS,
            colors=LABEL_COLOURS,
            title="Label confusion: claims per gold label, stacked by predicted label",
        ),
    ),
    check=SubmissionCheck(
        _check,
        inputs="the claims the predictions answer, in order: the task's test JSONL (id, claim; "
        "its header line skipped)",
    ),
)
