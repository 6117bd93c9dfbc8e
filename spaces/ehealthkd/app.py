"""Gradio Space of ``ehealthkd``: the eHealth-KD 2019 evaluation (``evaltest``), bit for bit."""

import re
from pathlib import Path

import gradio as gr
import pandas as pd

from taskeval.space import bar_chart, launch, space_spec

EXAMPLES = Path(__file__).resolve().parent / "examples"

SCENARIOS = [
    ("Scenario 1: main (key phrases A + relations B)", "scenario1"),
    ("Scenario 2: task A (key phrases only)", "scenario2"),
    ("Scenario 3: task B (relations, gold key phrases given)", "scenario3"),
]

# Two hand-made sentences: a gold annotation each, and a prediction with typical mistakes.
_G1 = "El tipo de cáncer afecta a las vías respiratorias ."
_G2 = "A es lo mismo que B y que C y es una D ."
REFERENCES = [
    {
        "text": _G1,
        "keyphrases": [
            {"id": 1, "label": "Concept", "spans": [[3, 7]]},
            {"id": 2, "label": "Concept", "spans": [[11, 17]]},
            {"id": 3, "label": "Action", "spans": [[18, 24]]},
            {"id": 4, "label": "Concept", "spans": [[31, 35], [36, 49]]},
        ],
        "relations": [
            {"label": "subject", "source": 3, "target": 2},
            {"label": "target", "source": 3, "target": 4},
        ],
    },
    {
        "text": _G2,
        "keyphrases": [
            {"id": 5, "label": "Concept", "spans": [[0, 1]]},
            {"id": 6, "label": "Concept", "spans": [[18, 19]]},
            {"id": 7, "label": "Concept", "spans": [[26, 27]]},
            {"id": 8, "label": "Concept", "spans": [[37, 38]]},
        ],
        "relations": [
            {"label": "same-as", "source": 5, "target": 6},
            {"label": "same-as", "source": 6, "target": 7},
            {"label": "is-a", "source": 5, "target": 8},
        ],
    },
]
PREDICTIONS = [
    {
        "text": _G1,
        "keyphrases": [
            {"id": 1, "label": "Concept", "spans": [[3, 10]]},
            {"id": 2, "label": "Action", "spans": [[11, 17]]},
            {"id": 3, "label": "Action", "spans": [[18, 24]]},
            {"id": 4, "label": "Concept", "spans": [[31, 49]]},
            {"id": 9, "label": "Concept", "spans": [[0, 2]]},
        ],
        "relations": [
            {"label": "subject", "source": 3, "target": 2},
            {"label": "target", "source": 3, "target": 4},
            {"label": "target", "source": 3, "target": 4},
        ],
    },
    {
        "text": _G2,
        "keyphrases": [
            {"id": 5, "label": "Concept", "spans": [[0, 1]]},
            {"id": 6, "label": "Concept", "spans": [[18, 19]]},
            {"id": 7, "label": "Concept", "spans": [[26, 27]]},
            {"id": 8, "label": "Predicate", "spans": [[37, 38]]},
        ],
        "relations": [
            {"label": "same-as", "source": 7, "target": 5},
            {"label": "is-a", "source": 7, "target": 6},
        ],
    },
]


def controls() -> list:
    return [
        gr.Dropdown(
            SCENARIOS,
            value="scenario1",
            label="scenario (for JSON rows, and files whose names do not say it)",
            elem_id="scenario",
        )
    ]


def read_controls(scenario: str) -> tuple[str, dict]:
    if scenario not in {value for _, value in SCENARIOS}:
        raise ValueError(f"scenario: choose scenario1, scenario2 or scenario3, got {scenario!r}")
    return scenario, {}


# The official names end in the scenario's number: output_a_scenario2.txt.
_NAMED = re.compile(r"_scenario(\d+)\.txt$")


def check_uploads(names: dict[str, list[str]], scenario: str | None) -> str | None:
    """The scenario the uploaded files' names say, on both sides (None when no name says one:
    the menu's choice holds). Files of different scenarios are refused, each named once."""
    said = {n: m.group(1) for side in names.values() for n in side if (m := _NAMED.search(n))}
    numbers = sorted(set(said.values()), key=int)
    if len(numbers) <= 1:
        return f"scenario{numbers[0]}" if numbers else None
    listing = "; ".join(
        f"{side}: {', '.join(sorted({n for n in files if n in said}))}"
        for side, files in names.items()
        if any(n in said for n in files)
    )
    found = " and ".join(f"scenario {n}" for n in numbers)
    raise ValueError(
        f"the uploaded files are for {found} ({listing}): upload the files of one scenario"
    )


def _item(record: dict, side: str) -> str:
    """A key phrase as `"words" Label (id 3)`, a relation as `label: words → words (3 → 2)`."""
    if record[f"{side}_text"] is None:
        return ""
    label, text = record[f"{side}_label"], record[f"{side}_text"]
    if record["kind"] == "key phrase":
        return f'"{text}" {label} (id {record[f"{side}_id"]})'
    return f"{label}: {text} ({record[f'{side}_source']} → {record[f'{side}_target']})"


def breakdown(details: list[dict]) -> pd.DataFrame:
    """One line per key phrase or relation line: how it was counted, why, gold and predicted."""
    return pd.DataFrame(
        {
            "sentence": [d["sentence"] for d in details],
            "item": [d["kind"] for d in details],
            "outcome": [d["outcome"] for d in details],
            "why": [d["why"] for d in details],
            "gold": [_item(d, "gold") for d in details],
            "predicted": [_item(d, "predicted") for d in details],
        },
        columns=["sentence", "item", "outcome", "why", "gold", "predicted"],
    )


OUTCOMES = ["correct", "incorrect", "partial", "missing", "spurious"]
SUBTASKS = {"key phrase": "A: key phrases", "relation": "B: relations"}


# Fixed colours: a subtask keeps its colour whatever the scenario shows.
COLOURS = {"A: key phrases": "#1f77b4", "B: relations": "#ff7f0e"}


def counts(details: list[dict], scenario: str | None = None):
    """Items per outcome and subtask (duplicate relation lines, counted once, are left out)."""
    rows = [
        {"outcome": d["outcome"], "subtask": SUBTASKS[d["kind"]], "items": 1}
        for d in details
        if d["outcome"] in OUTCOMES
    ]
    frame = pd.DataFrame(rows, columns=["outcome", "subtask", "items"])
    name = dict((v, k) for k, v in SCENARIOS).get(scenario or "scenario1", scenario)
    return bar_chart(
        frame,
        x="outcome",
        y="items",
        color="subtask",
        x_order=OUTCOMES,
        colors=COLOURS,
        title=f"{name}: items per outcome (C, I, P, M and S)",
    )


# Example files and file help are in the metric's contract.
SPEC = space_spec(
    "ehealthkd",
    EXAMPLES,
    example_rows={"predictions": PREDICTIONS, "references": REFERENCES},
    controls=controls,
    read_controls=read_controls,
    breakdown=breakdown,
    check_uploads=check_uploads,
    plot=counts,
)

if __name__ == "__main__":
    launch(SPEC)
