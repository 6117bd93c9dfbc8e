"""What taskeval needs from ``averitec`` (see ``taskeval.contract``); evaluate never loads it."""

from __future__ import annotations

from taskeval.contract import (
    BarChart,
    FileArgument,
    FileKinds,
    Files,
    MetricContract,
    Option,
    Reader,
    SpaceContract,
    StratifiedStatistics,
    SubmissionCheck,
)

from . import scoring as core
from .inputs import OPTIONS, read_official, references_from_hub, row_id, score_files

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

_ALL = "all claims"


def statistics(config: str | None, options: Mapping[str, Any]) -> StratifiedStatistics:
    """Claims: each claim's question-only and evidence scores and labels, computed once; every
    resample is scored by the official aggregation (numpy's means, in its order of additions)
    on the claims drawn, in the order drawn. The scores by claim type get no interval (which
    types a resample holds varies)."""
    ev2r = options.get("ev2r")
    edition, nltk = core.check_options(
        options.get("edition", core.DEFAULT_EDITION), options.get("nltk", core.DEFAULT_NLTK), ev2r
    )
    keys = core.result_names(edition)
    kept: dict[tuple[int, int], tuple[Any, Any, dict]] = {}

    def scored(inputs: Mapping[str, Any]) -> dict:
        # A system's rows checked and its claims scored once, for both its official numbers
        # and its units (these statistics live for one comparison, while its inputs are alive).
        predictions, references = inputs["predictions"], inputs["references"]
        found = kept.get((id(predictions), id(references)))
        if found is None:
            result = core.score_rows(predictions, references, edition, nltk, True, ev2r)
            found = kept[(id(predictions), id(references))] = (predictions, references, result)
        return found[2]

    def official(inputs: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in scored(inputs).items() if k != "details"}

    def units(inputs: Mapping[str, Any]) -> tuple[dict, dict, list]:
        details = scored(inputs)["details"]
        parts = (
            [d["q_only"] for d in details],
            [d["q_and_a"] for d in details],
            [d["label_correct"] for d in details],
            [d["label"] for d in details],
            [d["predicted_label"] for d in details],
            [d.get("justification", 0.0) for d in details],  # 2023 only
        )
        return {_ALL: parts}, {_ALL: list(range(len(details)))}, [_ALL]

    def score(stats: dict[str, tuple[list, ...]]) -> dict[str, float]:
        q_only, q_and_a, correct, gold, predicted, justification = stats[_ALL]
        values = [
            {"q_only": q, "q_and_a": qa, "label_correct": c, "label": p, "justification": j}
            for q, qa, c, p, j in zip(q_only, q_and_a, correct, predicted, justification)
        ]
        references = [{"label": g, "claim_types": None} for g in gold]
        result = core.dataset_scores(values, references, edition)
        return {key: result[key] for key in keys}

    return StratifiedStatistics("claim", keys, official=official, units=units, score=score)


# ---------------------------------------------------------------------------------------------
# The Space

EVIDENCE = ("≤ 0.25", "0.25 to 0.5", "> 0.5")
LABELS = {"label right": "#2e7d32", "label wrong": "#c62828"}


def outcome_rows(details: list[dict], config: str | None) -> list[dict]:
    """One bar item per claim: its evidence (question + answer) score, and its label."""
    items = []
    for claim in details:
        score = claim["q_and_a"]
        band = EVIDENCE[0] if score <= 0.25 else EVIDENCE[1] if score <= 0.5 else EVIDENCE[2]
        label = "label right" if claim["label_correct"] else "label wrong"
        items.append({"evidence score": band, "label": label})
    return items


def _example_rows(rows: dict[str, list], n: int = 3) -> dict[str, list]:
    return {"predictions": rows["predictions"][:n], "references": rows["references"][:n]}


def _check(files: Any, report: Any) -> None:
    from .check import run  # imported on use: scoring never needs it

    run(files, report)


def _recognise(sample: Any) -> tuple[str, str] | None:
    from .file_kinds import recognise  # imported on a refusal only: scoring never needs it

    return recognise(sample)


CONTRACT = MetricContract(
    "averitec",
    files=Files(
        FileArgument(
            "the gold: AVeriTeC's dev.json (a JSON list of claims with label and questions, "
            "2024) or the FEVER-8 solution CSV (id, claim, evi, label, split; 2025)",
            gold=True,
        ),
        FileArgument(
            "the predictions: a JSON list in the gold's order (claim_id, evidence of question "
            "and answer, pred_label; 2024) or the FEVER-8 submission CSV (id, claim, evi, "
            "label; 2025)"
        ),
        kinds=FileKinds("AVeriTeC", _recognise),
    ),
    options=[
        Option(name, parse, metavar=metavar, help=help, default=default, note=note)
        for name, (parse, metavar, help, default, note) in OPTIONS.items()
    ],
    reader=Reader(
        read_official, score_files, references_from_hub=references_from_hub, row_id=row_id
    ),
    statistics=statistics,
    space=SpaceContract(
        {"references": "dev.json", "predictions": "predictions.json"},
        file_help=(
            "**references**: the gold, AVeriTeC's `dev.json` (a JSON list of claims with `label`, "
            "`claim_types` and `questions` with their `answers`) or a FEVER-8 solution CSV. "
            "**predictions**: a JSON list in the gold's order (`claim_id`, `evidence`: "
            "question and answer pairs, `pred_label`) or a FEVER-8 submission CSV. Pre-filled: "
            "a small made-up example."
        ),
        example_rows=_example_rows,
        breakdown_columns=[
            "id",
            "label",
            "predicted_label",
            "label_correct",
            "q_only",
            "q_and_a",
        ],
        chart=BarChart(
            outcome_rows,
            x="evidence score",
            y="claims",
            color="label",
            x_order=EVIDENCE,
            colors=LABELS,
            title="Claims by evidence score (question + answer Hungarian METEOR), stacked by "
            "label: the AVeriTeC score counts the right labels right of 0.25",
        ),
    ),
    check=SubmissionCheck(
        _check,
        inputs="the claims the predictions answer: the split's JSON list of claims (2024) or "
        "CSV (id, claim; 2025); every claim needs one prediction",
    ),
)
