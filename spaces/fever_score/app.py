"""Gradio Space of ``fever_score``: the official FEVER scorer (fever-scorer 2.0.39), bit for bit."""

from pathlib import Path

import gradio as gr
import pandas as pd

import taskeval
from taskeval.space import SpaceSpec, launch

EXAMPLES = Path(__file__).resolve().parent / "examples"
GOLD, PREDICTIONS = EXAMPLES / "actual.jsonl", EXAMPLES / "predictions.jsonl"
_ROWS = taskeval.read_official("fever_score", references=GOLD, predictions=PREDICTIONS)


def controls() -> list:
    return [
        gr.Number(5, precision=0, label="max_evidence: predicted sentences that count"),
        gr.Checkbox(False, label="count every predicted sentence (max_evidence=None)"),
    ]


def read_controls(max_evidence: float | None, keep_all: bool) -> tuple[None, dict]:
    if keep_all:
        return None, {"max_evidence": None}
    if max_evidence is None:
        raise ValueError("max_evidence: enter a whole number, or tick 'count every sentence'")
    return None, {"max_evidence": int(max_evidence)}


def confusion(details: list[dict]) -> pd.DataFrame:
    """Claims per (gold label, predicted label): the label confusion matrix as stacked bars."""
    frame = pd.DataFrame(
        {
            "gold label": [d["gold_label"].upper() for d in details],
            "predicted label": [d["predicted_label"].upper() for d in details],
        }
    )
    return frame.value_counts().rename("claims").reset_index()


SPEC = SpaceSpec(
    metric="fever_score",
    example_rows={k: v[:8] for k, v in _ROWS.items()},
    example_files={"references": [GOLD], "predictions": [PREDICTIONS]},
    file_help=(
        "**references**: the gold JSONL (`label`, `evidence` per line; optional when the "
        "prediction lines carry them). **predictions**: one JSON object per claim with "
        "`predicted_label` and `predicted_evidence` (`[page, line]` pairs), in gold order. "
        "Pre-filled: the first 100 claims of the official scorer's test fixture."
    ),
    controls=controls,
    read_controls=read_controls,
    references_optional=True,
    plot_data=confusion,
    plot=lambda: gr.BarPlot(
        x="gold label",
        y="claims",
        color="predicted label",
        title="Label confusion: claims per gold label, coloured by predicted label",
        elem_id="plot",
    ),
)

if __name__ == "__main__":
    launch(SPEC)
