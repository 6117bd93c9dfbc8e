"""What the Gradio Spaces of ``scifact_abstract`` and ``scifact_sentence`` share.

Only the Spaces import this module (``spaces/scifact_*/app.py``): it needs gradio, pandas and
matplotlib, which the metrics themselves never do. Each Space differs only in its metric name:
the level (abstracts or sentences) picks the outcomes, the breakdown columns and the plot's
wording.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from .space import SpaceSpec, bar_chart, metric_module, read_official

GOLD, PREDICTIONS = "claims_dev.jsonl", "predictions.jsonl"
NOT_GOLD = "not gold"
# Fixed colours, the legend in this order: the gold labels, then the false positives.
COLOURS = {"SUPPORT": "#2e7d32", "CONTRADICT": "#c62828", NOT_GOLD: "#9e9e9e"}


class Level:
    """How one metric's per-item details are shown."""

    def __init__(self, unit: str, outcomes: str, columns: list[str], title: str):
        # ``outcomes``: the name of the outcome tuple in the metric's scoring core, read when
        # the Space is built (an exported Space holds one metric only).
        self.unit, self.outcomes_name, self.columns, self.title = unit, outcomes, columns, title
        self.outcomes: tuple[str, ...] = ()

    def breakdown(self, details: list[dict[str, Any]]) -> pd.DataFrame:
        """The details as a table: what the item is, its outcome and why first; then the flags."""
        return pd.DataFrame(details, columns=self.columns)

    def plot(self, details: list[dict[str, Any]], config: str | None = None) -> Any:
        """Items per outcome, stacked by gold label (NOT_GOLD for false positives)."""
        frame = pd.DataFrame(
            {
                "outcome": [d["outcome"] for d in details],
                "gold label": [d["gold_label"] or NOT_GOLD for d in details],
            }
        )
        counts = frame.value_counts().rename(self.unit).reset_index()
        return bar_chart(
            counts,
            x="outcome",
            y=self.unit,
            color="gold label",
            x_order=self.outcomes,
            colors=COLOURS,
            title=self.title,
        )


LEVELS = {
    "scifact_abstract": Level(
        "abstracts",
        "ABSTRACT_OUTCOMES",
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
    "scifact_sentence": Level(
        "sentences",
        "SENTENCE_OUTCOMES",
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

FILE_HELP = (
    "**references**: a gold `claims_*.jsonl` of SciFact, one claim per line (`id`, and "
    "`evidence` keyed by doc id with its rationales; `claim` and `cited_doc_ids` are ignored). "
    "**predictions**: the leaderboard submission, one line per gold claim in the same order, "
    '`{"id": …, "evidence": {"<doc id>": {"sentences": […], "label": "SUPPORT" | '
    '"CONTRADICT"}}}`. Pre-filled: the first 40 claims of SciFact dev with predictions made from '
    "the gold by a seeded perturbation (see `examples/README.md`)."
)


def example_rows(metric: str, examples: Path, n: int = 6) -> dict[str, list]:
    """The first ``n`` example claims that have gold or predicted evidence, as compute() rows."""
    rows = read_official(metric, references=examples / GOLD, predictions=examples / PREDICTIONS)
    keep = [
        i
        for i, (p, r) in enumerate(zip(rows["predictions"], rows["references"]))
        if p["evidence"] or r["evidence"]
    ][:n]
    return {side: [rows[side][i] for i in keep] for side in rows}


def space_spec(metric: str, examples: Path) -> SpaceSpec:
    """The Space of ``metric`` (``scifact_abstract`` or ``scifact_sentence``)."""
    level = LEVELS[metric]
    level.outcomes = getattr(metric_module(metric, "scoring"), level.outcomes_name)
    # Resolved: the sentence Space's example files are links to the abstract Space's.
    gold, predictions = (examples / GOLD).resolve(), (examples / PREDICTIONS).resolve()
    return SpaceSpec(
        metric=metric,
        example_rows=example_rows(metric, examples),
        example_files={"references": [gold], "predictions": [predictions]},
        file_help=FILE_HELP,
        breakdown=level.breakdown,
        plot=level.plot,
    )
