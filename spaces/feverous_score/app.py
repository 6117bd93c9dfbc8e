"""Gradio Space of ``feverous_score``: the official FEVEROUS scorer, bit for bit."""

from pathlib import Path

import gradio as gr

from taskeval.space import launch, metric_module, space_spec

EXAMPLES = Path(__file__).resolve().parent / "examples"


def controls() -> list:
    return [
        # No ``precision``: gradio would round 2.7 to 3 before the metric sees it.
        gr.Number(5, label="max_evidence: predicted sentences that count", elem_id="max-evidence"),
        gr.Number(
            25,
            label="max_evidence_cell: predicted table items that count",
            elem_id="max-evidence-cell",
        ),
        gr.Radio(
            ["official", "exact"],
            value="official",
            label="element ids: split as the official evaluate.py (page ends at the first '_') "
            "or at the element type",
        ),
    ]


def _bound(name: str, value: float | None) -> int:
    if value is None:
        raise ValueError(f"{name}: enter a whole number, 0 or more")
    if float(value).is_integer():
        value = int(value)
    # What compute() refuses (2.7) gets compute()'s own message.
    metric_module("feverous_score", "rows").check_bound(name, value)
    if value < 0:
        raise ValueError(f"{name}: a number of evidence items, 0 or more, got {value}")
    return value


def read_controls(
    max_evidence: float | None, max_evidence_cell: float | None, id_reading: str
) -> tuple[None, dict]:
    return None, {
        "max_evidence": _bound("max_evidence", max_evidence),
        "max_evidence_cell": _bound("max_evidence_cell", max_evidence_cell),
        "id_reading": id_reading,
    }


# Examples, file help and the plot (label confusion) are in the metric's contract.
SPEC = space_spec("feverous_score", EXAMPLES, controls=controls, read_controls=read_controls)

if __name__ == "__main__":
    launch(SPEC)
