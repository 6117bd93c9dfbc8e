"""Gradio Space of ``ehealthkd``: the official eHealth-KD 2019, 2020 and 2021 evaluations, bit for
bit, the edition chosen beside the scenario.

The uploaded files' names say their edition (2019: ``input_``/``output_a_``/``output_b_``
``scenarioN.txt``; 2020: ``scenario.txt`` and ``scenario.ann``; 2021: ``output.txt`` and
``output.ann``): files of another edition than the chosen one are refused, as the reader would
read them as their own edition's and the scores would follow the other edition's rules.
"""

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
    ("Scenario 4: transfer (2020 only; scored as scenario 1)", "scenario4"),
]
EDITIONS = [
    ("2019 (input_, output_a_, output_b_ files)", 2019),
    ("2020 (BRAT scenario.txt + scenario.ann)", 2020),
    ("2021 (BRAT output.txt + output.ann)", 2021),
]
# The BRAT editions' file names: a sentence file and its .ann beside it.
BRAT_NAMES = {2020: "scenario", 2021: "output"}

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
    with gr.Row():  # side by side on a desktop, one above the other on a phone
        scenario = gr.Dropdown(
            SCENARIOS,
            value="scenario1",
            label="scenario (for JSON rows, and files whose names do not say it)",
            elem_id="scenario",
            min_width=300,
        )
        edition = gr.Dropdown(
            EDITIONS,
            value=2019,
            label="edition (its official evaluation, and the files it reads)",
            elem_id="edition",
            min_width=300,
        )
    return [scenario, edition]


def _edition(value: int | str) -> int:
    editions = [year for _, year in EDITIONS]
    try:
        edition = int(value)
    except (TypeError, ValueError):
        edition = None
    if edition not in editions or isinstance(value, bool):
        raise ValueError(f"edition: choose 2019, 2020 or 2021, got {value!r}")
    return edition


def read_controls(scenario: str, edition: int | str = 2019) -> tuple[str, dict]:
    if scenario not in {value for _, value in SCENARIOS}:
        raise ValueError(
            f"scenario: choose scenario1, scenario2, scenario3 or scenario4, got {scenario!r}"
        )
    year = _edition(edition)
    if scenario == "scenario4" and year != 2020:
        raise ValueError(
            f"scenario 4 (transfer) exists in the 2020 edition only: choose edition 2020, or "
            f"scenario 1, 2 or 3 for edition {year}"
        )
    return scenario, {"edition": year}


# The official 2019 names end in the scenario's number: output_a_scenario2.txt.
_NAMED = re.compile(r"_scenario(\d+)\.txt$")


def edition_of_name(name: str) -> int | None:
    """The edition whose official file names include ``name``, or None."""
    if _NAMED.search(name):
        return 2019
    for edition, stem in BRAT_NAMES.items():
        if name in (f"{stem}.txt", f"{stem}.ann"):
            return edition
    return None


def _pairs_complete(names: dict[str, list[str]]) -> None:
    """Each side's BRAT sentence file uploaded with its ``.ann``, and the other way round."""
    for side, files in names.items():
        for stem in BRAT_NAMES.values():
            for have, missing in ((f"{stem}.txt", f"{stem}.ann"), (f"{stem}.ann", f"{stem}.txt")):
                if have in files and missing not in files:
                    raise ValueError(
                        f"{side}: {have} was uploaded without {missing}: upload both files of "
                        "the scenario folder"
                    )


def _one_edition(names: dict[str, list[str]], chosen: int) -> None:
    """The edition the files' names say is the chosen one (and the same on both sides)."""
    said = {n: e for files in names.values() for n in files if (e := edition_of_name(n))}
    editions = sorted(set(said.values()))
    if len(editions) > 1:
        listing = "; ".join(
            f"{side}: {', '.join(f'{n} ({said[n]})' for n in sorted(set(files)) if n in said)}"
            for side, files in names.items()
            if any(n in said for n in files)
        )
        found = " and ".join(map(str, editions))
        raise ValueError(
            f"the uploaded files are of the eHealth-KD editions {found} ({listing}): upload the "
            "files of one edition"
        )
    if editions and editions[0] != chosen:
        files = ", ".join(sorted(said))
        raise ValueError(
            f"the uploaded files ({files}) are eHealth-KD {editions[0]} files, but edition "
            f"{chosen} is chosen: choose edition {editions[0]} in the edition menu"
        )


def check_uploads(
    names: dict[str, list[str]], scenario: str | None, options: dict | None = None
) -> str | None:
    """The scenario the uploaded files' names say, on both sides (None when no name says one:
    the menu's choice holds; the 2020 and 2021 names never say one). Refused: files of another
    edition than the chosen one (``options["edition"]``, 2019 by default) or of two editions,
    a BRAT ``.txt`` without its ``.ann`` (or the other way round), files of different
    scenarios (each named once)."""
    _pairs_complete(names)
    _one_edition(names, (options or {}).get("edition", 2019))
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
