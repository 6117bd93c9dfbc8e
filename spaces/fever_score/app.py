"""Gradio Space of ``fever_score``: the official FEVER scorer (fever-scorer 2.0.39), bit for bit."""

from pathlib import Path

import gradio as gr

from taskeval.space import launch, metric_module, space_spec

EXAMPLES = Path(__file__).resolve().parent / "examples"


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


# Examples, file help and the plot (label confusion) are in the metric's contract.
SPEC = space_spec("fever_score", EXAMPLES, controls=controls, read_controls=read_controls)

if __name__ == "__main__":
    launch(SPEC)
