"""Gradio Space of ``kilt``: KILT's official downstream and retrieval scorers, bit for bit, at
the commit whose tests pass (64e284a) or at the repository's HEAD (2664322)."""

from pathlib import Path

import gradio as gr

from taskeval.space import launch, metric_module, space_spec

EXAMPLES = Path(__file__).resolve().parent / "examples"
SCORING = metric_module("kilt", "scoring")
OPTIONS = metric_module("kilt", "inputs").OPTIONS
RANK_FIELDS = metric_module("kilt", "rows").RANK_FIELDS


def controls() -> list:
    with gr.Row():  # side by side on a desktop, one above the other on a phone
        evaluation = gr.Radio(
            list(SCORING.EVALUATIONS),
            value="downstream",
            label="evaluation",
            info="downstream: eval_downstream.py (answers, KILT variants, page R-precision and "
            "recall@5); retrieval: eval_retrieval.py",
            elem_id="evaluation",
        )
        commit = gr.Radio(
            list(SCORING.COMMITS),
            value=SCORING.DEFAULT_COMMIT,
            label="KILT commit",
            info="64e284a: the commit whose tests pass; 2664322: HEAD (adds entity metrics to "
            "retrieval, needs every gold input)",
            elem_id="commit",
        )
    with gr.Row():
        ks = gr.Textbox(
            ",".join(map(str, SCORING.DEFAULT_KS)),
            label="ks (retrieval only)",
            info="comma-separated, as eval_retrieval.py's --ks",
            elem_id="ks",
        )
        rank_keys = gr.Dropdown(
            list(RANK_FIELDS),
            value=list(SCORING.DEFAULT_RANK_KEYS),
            multiselect=True,
            label="rank keys (retrieval only)",
            info="wikipedia_id: page level; add start_paragraph_id and end_paragraph_id for "
            "paragraph level",
            elem_id="rank-keys",
        )
    return [evaluation, commit, ks, rank_keys]


def read_controls(
    evaluation: str | None, commit: str | None, ks: str | None, rank_keys: list | None
) -> tuple[None, dict]:
    options = {"evaluation": evaluation, "commit": commit}
    if evaluation == "retrieval":
        try:
            options["ks"] = OPTIONS["ks"][0]((ks or "").replace(" ", ""))
        except ValueError:
            raise ValueError(
                f"ks: enter positive whole numbers separated by commas, got {ks!r}"
            ) from None
        options["rank_keys"] = list(rank_keys or [])
    # What compute() refuses gets compute()'s own message.
    SCORING.check_options(**options)
    return None, options


# Examples, file help, the breakdown's columns and the plot (gold records by page R-precision,
# stacked by answer) are in the metric's contract.
SPEC = space_spec("kilt", EXAMPLES, controls=controls, read_controls=read_controls)

if __name__ == "__main__":
    launch(SPEC)
