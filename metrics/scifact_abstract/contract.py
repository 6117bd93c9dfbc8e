"""What taskeval needs from ``scifact_abstract`` and ``scifact_sentence`` (see
``taskeval.contract``); evaluate never loads it.

One file for both levels (the ``scifact_sentence`` folder holds a link to it): the metric script
beside it says which level the folder is.
"""

from __future__ import annotations

import os

from taskeval.contract import (
    BarChart,
    FileArgument,
    FileKinds,
    Files,
    MetricContract,
    Reader,
    SpaceContract,
    SubmissionCheck,
    SumStatistics,
)

from . import scoring as core
from .inputs import read_official, references_from_hub, score_files, score_metrics

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# Per level: its scores, the official counters → scores, how compute() scores the rows, the
# outcomes of its details, and how its Space shows them.
_LEVELS = {
    "scifact_abstract": (
        core.ABSTRACT_KEYS,
        core.abstract_scores,
        core.abstract_level,
        core.ABSTRACT_OUTCOMES,
        "abstracts",
        [
            "claim_id",
            "doc_id",
            "outcome",
            "why",
            "gold_label",
            "predicted_label",
            "label_only",
            "rationalized",
            "k",
        ],
        "Where predicted abstracts were lost: predicted and gold abstracts by outcome",
    ),
    "scifact_sentence": (
        core.SENTENCE_KEYS,
        core.sentence_scores,
        core.sentence_level,
        core.SENTENCE_OUTCOMES,
        "sentences",
        [
            "claim_id",
            "doc_id",
            "sentence",
            "outcome",
            "why",
            "position",
            "gold_label",
            "predicted_label",
            "selected",
            "label_correct",
        ],
        "Where sentences were lost: predicted and gold rationale sentences by outcome",
    ),
}
_HERE = os.path.dirname(__file__)
# The folder's metric script names the level (a Space's folder is not named after its metric).
NAME = next(n for n in _LEVELS if os.path.isfile(os.path.join(_HERE, f"{n}.py")))
KEYS, TO_SCORES, LEVEL, OUTCOMES, UNITS, COLUMNS, TITLE = _LEVELS[NAME]


def statistics(config: str | None, options: Mapping[str, Any]) -> SumStatistics:
    """Claims; the eight official counters of each claim (the core's ``count``), turned into
    the level's scores by the core's own formulas."""
    fields = core.Counts.FIELDS

    def official(inputs: Mapping[str, Any]) -> dict[str, Any]:
        return LEVEL(inputs["predictions"], inputs["references"])

    def stats(inputs: Mapping[str, Any]) -> list[list[float]]:
        preds, refs = inputs["predictions"], inputs["references"]
        core.check_predictions(preds)
        core.check_references(refs)
        core.check_pairs(preds, refs)
        rows = []
        for pred, ref in zip(preds, refs):
            counts = core.count([pred], [ref])
            rows.append([float(getattr(counts, f)) for f in fields])
        return rows

    def scores(sums: list[float], n: int) -> dict[str, float]:
        # The counters are integers (the sums of whole numbers are exact).
        return TO_SCORES(core.Counts(*map(round, sums)))

    return SumStatistics(
        "claim", KEYS, width=len(fields), official=official, stats=stats, scores=scores
    )


def _example_rows(rows: dict[str, list], n: int = 6) -> dict[str, list]:
    """The first ``n`` example claims that have gold or predicted evidence."""
    keep = [
        i
        for i, (p, r) in enumerate(zip(rows["predictions"], rows["references"]))
        if p["evidence"] or r["evidence"]
    ][:n]
    return {side: [rows[side][i] for i in keep] for side in rows}


NOT_GOLD = "not gold"


def _outcomes(details: list[dict], config: str | None) -> list[dict]:
    """Items per outcome, by gold label (NOT_GOLD for false positives)."""
    return [{"outcome": d["outcome"], "gold label": d["gold_label"] or NOT_GOLD} for d in details]


def _check(files: Any, report: Any) -> None:
    from .check import run  # imported on use: scoring never needs it

    run(files, report)


def _recognise(sample: Any) -> tuple[str, str] | None:
    from .file_kinds import recognise  # imported on a refusal only: scoring never needs it

    return recognise(sample)


CONTRACT = MetricContract(
    NAME,
    files=Files(
        FileArgument("gold claims JSONL (claims_dev.jsonl)", gold=True),
        FileArgument("predictions JSONL in the leaderboard's format"),
        row_per_line=True,
        kinds=FileKinds("SciFact", _recognise),
    ),
    reader=Reader(
        read_official,
        score_files,
        references_from_hub=references_from_hub,
        group="scifact",
        score_metrics=score_metrics,
    ),
    statistics=statistics,
    space=SpaceContract(
        {"references": "claims_dev.jsonl", "predictions": "predictions.jsonl"},
        file_help=(
            "**references**: a gold `claims_*.jsonl` of SciFact, one claim per line (`id`, and "
            "`evidence` keyed by doc id with its rationales; `claim` and `cited_doc_ids` are "
            "ignored). **predictions**: the leaderboard submission, one line per gold claim in "
            'the same order, `{"id": …, "evidence": {"<doc id>": {"sentences": […], "label": '
            '"SUPPORT" | "CONTRADICT"}}}`. Pre-filled: the first 40 claims of SciFact dev with '
            "predictions made from the gold by a seeded perturbation (see `examples/README.md`)."
        ),
        example_rows=_example_rows,
        breakdown_columns=COLUMNS,
        chart=BarChart(
            _outcomes,
            x="outcome",
            y=UNITS,
            color="gold label",
            x_order=OUTCOMES,
            # Fixed colours, the legend in this order: the gold labels, then false positives.
            colors={"SUPPORT": "#2e7d32", "CONTRADICT": "#c62828", NOT_GOLD: "#9e9e9e"},
            title=TITLE,
        ),
    ),
    check=SubmissionCheck(
        _check,
        inputs="the claims file the predictions answer, in order (claims_test.jsonl: id, claim; "
        "no evidence needed) and, optionally, the corpus (corpus.jsonl: doc_id, abstract) to hold "
        "doc ids and sentence indices to",
    ),
)
