"""Gradio Space of ``fever_score``: the official FEVER scorer (fever-scorer 2.0.39), bit for bit."""

from pathlib import Path

import gradio as gr
import pandas as pd

from taskeval.space import SpaceSpec, bar_chart, launch, metric_module, read_official

EXAMPLES = Path(__file__).resolve().parent / "examples"
GOLD, PREDICTIONS = EXAMPLES / "actual.jsonl", EXAMPLES / "predictions.jsonl"
_ROWS = read_official("fever_score", references=GOLD, predictions=PREDICTIONS)
LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
COLOURS = dict(zip(LABELS, ["#2e7d32", "#c62828", "#9e9e9e"]))


def example_rows(n: int = 8) -> dict[str, list]:
    """The first ``n`` claims as compute() rows. The fixture's gold lines all say ``"id": 0``
    (redacted); rows are paired by position, so the gold rows take their prediction's id."""
    predictions = _ROWS["predictions"][:n]
    references = [{**r, "id": p["id"]} for p, r in zip(predictions, _ROWS["references"])]
    return {"predictions": predictions, "references": references}


def controls() -> list:
    return [
        # No ``precision``: gradio would round 2.7 to 3 before the metric sees it.
        gr.Number(5, label="max_evidence: predicted sentences that count", elem_id="max-evidence"),
        gr.Checkbox(False, label="count every predicted sentence (max_evidence=None)"),
    ]


def read_controls(max_evidence: float | None, keep_all: bool) -> tuple[None, dict]:
    if keep_all:
        return None, {"max_evidence": None}
    if max_evidence is None:
        raise ValueError("max_evidence: enter a whole number, or tick 'count every sentence'")
    if float(max_evidence).is_integer():
        max_evidence = int(max_evidence)
    # What compute() refuses (2.7) gets compute()'s own message.
    metric_module("fever_score", "scoring").check_max_evidence(max_evidence)
    if max_evidence < 0:
        # compute() takes it as a slice bound (-1 drops the last sentence); here it is a count.
        raise ValueError(f"max_evidence: a number of sentences, 0 or more, got {max_evidence}")
    return None, {"max_evidence": max_evidence}


def confusion(details: list[dict], config: str | None = None):
    """Claims per (gold label, predicted label): the label confusion matrix as stacked bars."""
    frame = pd.DataFrame(
        {
            "gold label": [d["gold_label"].upper() for d in details],
            "predicted label": [d["predicted_label"].upper() for d in details],
        }
    )
    return bar_chart(
        frame.value_counts().rename("claims").reset_index(),
        x="gold label",
        y="claims",
        color="predicted label",
        x_order=LABELS,
        colors=COLOURS,
        title="Label confusion: claims per gold label, stacked by predicted label",
    )


SPEC = SpaceSpec(
    metric="fever_score",
    example_rows=example_rows(),
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
    plot=confusion,
)

if __name__ == "__main__":
    launch(SPEC)
