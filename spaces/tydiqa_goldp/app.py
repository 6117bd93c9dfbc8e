"""Gradio Space of ``tydiqa_goldp``: TyDiQA-GoldP scored by its official procedure, bit for bit,
and the numbers XTREME and lm-evaluation-harness print under the same name."""

from pathlib import Path

import gradio as gr

from taskeval.space import launch, metric_module, space_spec

EXAMPLES = Path(__file__).resolve().parent / "examples"
CONVENTIONS = metric_module("tydiqa_goldp", "conventions")


def controls() -> list:
    return [
        gr.Radio(
            list(CONVENTIONS.CONVENTIONS),
            value=CONVENTIONS.DEFAULT_CONVENTION,
            label="convention",
            # what each convention's numbers are, in the words the command line prints
            info="; ".join(map(CONVENTIONS.said, CONVENTIONS.CONVENTIONS)),
            elem_id="convention",
        )
    ]


def read_controls(convention: str | None) -> tuple[None, dict]:
    # What compute() refuses gets compute()'s own message.
    return None, {"convention": CONVENTIONS.check_convention(convention)}


# Examples, file help, the breakdown's columns and the plot (questions per language, by how
# each answer scored) are in the metric's contract; the scores per language are the page's
# table of groups.
SPEC = space_spec("tydiqa_goldp", EXAMPLES, controls=controls, read_controls=read_controls)

if __name__ == "__main__":
    launch(SPEC)
