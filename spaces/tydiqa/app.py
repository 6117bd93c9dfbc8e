"""Gradio Space of ``tydiqa``: the official TyDi QA primary-task scorer (tydi_eval.py), bit for bit."""

from pathlib import Path

import gradio as gr
import pandas as pd

import taskeval
from taskeval.space import SpaceSpec, launch

EXAMPLES = Path(__file__).resolve().parent / "examples"
GOLD, PREDICTIONS = EXAMPLES / "gold.jsonl.gz", EXAMPLES / "predictions.jsonl"


def example_rows(n: int = 8) -> dict[str, list]:
    """The first ``n`` gold examples and their predictions (rows are paired by example_id)."""
    rows = taskeval.read_official("tydiqa", references=GOLD, predictions=PREDICTIONS)
    references = [r for r in rows["references"] if r["example_id"] is not None][:n]
    ids = {r["example_id"] for r in references}
    predictions = [p for p in rows["predictions"] if p["example_id"] in ids]
    predictions += [{"example_id": None}] * (len(references) - len(predictions))
    return {"predictions": predictions, "references": references}


def controls() -> list:
    return [
        gr.Number(2, precision=0, label="passage_non_null_threshold: votes for a non-null gold"),
        gr.Number(2, precision=0, label="minimal_non_null_threshold: votes for a non-null gold"),
    ]


def read_controls(passage: float | None, minimal: float | None) -> tuple[None, dict]:
    if passage is None or minimal is None:
        raise ValueError("the non-null thresholds are whole numbers of annotator votes")
    return None, {
        "passage_non_null_threshold": int(passage),
        "minimal_non_null_threshold": int(minimal),
    }


def _outcome(d: dict) -> str:
    if not d["predicted"]:
        return "no prediction"
    if d["passage_gold"]:
        if not d["passage_predicted"]:
            return "null, gold has a passage"
        return "right passage" if d["passage_correct"] else "wrong passage"
    return "passage, gold is null" if d["passage_predicted"] else "null, gold is null"


def outcomes(details: list[dict]) -> pd.DataFrame:
    """Examples per language and passage outcome (before any score threshold)."""
    frame = pd.DataFrame(
        {
            "language": [d["language"] for d in details],
            "passage outcome": [_outcome(d) for d in details],
        }
    )
    return frame.value_counts().rename("examples").reset_index()


SPEC = SpaceSpec(
    metric="tydiqa",
    example_rows=example_rows(),
    example_files={"references": [GOLD], "predictions": [PREDICTIONS]},
    file_help=(
        "**references**: the gold JSONL in the layout of the TyDi QA dev file (gzip when the "
        "name contains `.gz`). **predictions**: one JSON object per line with `example_id`, "
        "`language`, `passage_answer_index`, `passage_answer_score`, `minimal_answer` "
        "(`start_byte_offset`, `end_byte_offset`), `minimal_answer_score`, `yes_no_answer`. "
        "Pre-filled: a synthetic 300-example set in the 11 languages."
    ),
    controls=controls,
    read_controls=read_controls,
    breakdown=pd.DataFrame,
    plot_data=outcomes,
    plot=lambda: gr.BarPlot(
        x="language",
        y="examples",
        color="passage outcome",
        title="Passage outcomes per language (before the best threshold is applied)",
        elem_id="plot",
    ),
)

if __name__ == "__main__":
    launch(SPEC)
