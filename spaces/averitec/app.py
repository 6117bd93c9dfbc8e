"""Gradio Space of ``averitec``: the AVeriTeC shared tasks' official scores, bit for bit, under
the 2024 or the 2025 scorer and the tokens of nltk 3.9.1 or 3.10.4."""

from pathlib import Path

import gradio as gr

from taskeval.space import launch, metric_module, space_spec

EXAMPLES = Path(__file__).resolve().parent / "examples"
SCORING = metric_module("averitec", "scoring")
RELEASES = metric_module("averitec", "tokens").RELEASES


def controls() -> list:
    with gr.Row():  # side by side on a desktop, one above the other on a phone
        edition = gr.Radio(
            list(SCORING.EDITIONS),
            value=SCORING.DEFAULT_EDITION,
            label="edition",
            info="2024: FEVER-7's evaluate_veracity.py (thresholds 0.1 to 0.5, accuracy, F1); "
            "2025: FEVER-8's old AVeriTeC score (gold questions once, threshold 0.25)",
            elem_id="edition",
        )
        nltk = gr.Radio(
            list(RELEASES),
            value=SCORING.DEFAULT_NLTK,
            label="nltk tokens",
            info="3.9.1: FEVER-8's pinned release (the published numbers); 3.10.4 splits "
            "dashes and leading apostrophes",
            elem_id="nltk",
        )
    return [edition, nltk]


def read_controls(edition: str | None, nltk: str | None) -> tuple[None, dict]:
    options = {"edition": edition, "nltk": nltk}
    SCORING.check_options(**options)  # what compute() refuses gets compute()'s own message
    return None, options


# Examples, file help, the breakdown's columns and the plot (claims by evidence score, stacked
# by label) are in the metric's contract.
SPEC = space_spec("averitec", EXAMPLES, controls=controls, read_controls=read_controls)

if __name__ == "__main__":
    launch(SPEC)
