"""What taskeval needs from ``fever_score`` (see ``taskeval.contract``); evaluate never loads it."""

from __future__ import annotations

from operator import itemgetter

from taskeval.contract import (
    BarChart,
    FileArgument,
    FileKinds,
    Files,
    MetricCommand,
    MetricContract,
    Option,
    Reader,
    SpaceContract,
    SubmissionCheck,
    SumStatistics,
    UsageError,
)

from . import scoring as core
from .fast_path import official_form_claims
from .fever_evidence import LABEL_COLOURS, LABELS, label_confusion
from .inputs import (
    OPTIONS,
    carries_gold,
    official_form_file_claims,
    read_official,
    references_from_hub,
    score_files,
)
from .jsonl import read_jsonl

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _gold_in_line(predictions: Any, line: int) -> bool:
    """Whether prediction line ``line`` is its own gold (the official scorer then reads no
    reference for it)."""
    try:
        rows = read_jsonl(predictions)
    except (OSError, ValueError):
        return False
    row = rows[line - 1] if line <= len(rows) else None
    return isinstance(row, dict) and carries_gold(row)


def statistics(config: str | None, options: Mapping[str, Any]) -> SumStatistics:
    """Claims; per claim, the five sums of the official loop (``claim_scores``), turned into
    scores by the core's own formulas (``scores_from_sums``)."""
    max_evidence = options.get("max_evidence", core.DEFAULT_MAX_EVIDENCE)

    def official(inputs: Mapping[str, Any]) -> dict[str, Any]:
        return core.fever_score(inputs["predictions"], inputs["references"], max_evidence)

    def stats(inputs: Mapping[str, Any]) -> list[tuple[float, ...]]:
        # Rows in the official form (parsed files) straight from their columns, as compute().
        cut = core.check_max_evidence(max_evidence)
        claims = official_form_claims(inputs["predictions"], inputs["references"], cut)
        if claims is not None:
            return claims
        preds = core.normalize_predictions(inputs["predictions"])
        refs = core.normalize_references(inputs["references"])
        core.check_lengths(len(preds), len(refs))
        return [
            (
                float(strict),
                float(label_ok),
                float(precision is not None),
                0.0 if precision is None else precision,
                0.0 if recall is None else recall,
            )
            for label_ok, strict, precision, recall in core.claim_scores(preds, refs, max_evidence)
        ]

    def scores(sums: list[float], n: int) -> dict[str, float]:
        strict, correct, verifiable, precision, recall = sums
        return core.scores_from_sums(strict, correct, n, round(verifiable), precision, recall)

    def official_and_stats(inputs: Mapping[str, Any]) -> tuple[dict[str, Any], list]:
        predictions, references = inputs["predictions"], inputs["references"]
        cut = core.check_max_evidence(max_evidence)
        core.check_rows(predictions, "predictions")
        core.check_rows(references, "references")
        core.check_lengths(len(predictions), len(references))
        claims = official_form_claims(predictions, references, cut)
        if claims is None:
            return official(inputs), stats(inputs)
        return summed(claims), claims

    def summed(claims: list[tuple[float, ...]]) -> dict[str, Any]:
        # compute()'s numbers for rows in the official form: the scores of the claims' sums,
        # added left to right as the official loop adds them (NOT ENOUGH INFO adds 0.0).
        # Every column but precision holds 0.0 and 1.0 only: its sum is an exact integer in any
        # order, so a C-level sum() gives the loop's float. Precision's is added left to right.
        strict, correct, verifiable, recall = (
            sum(map(itemgetter(k), claims), 0.0) for k in (0, 1, 2, 4)
        )
        precision = 0.0
        for p in map(itemgetter(3), claims):
            precision += p
        return scores([strict, correct, verifiable, precision, recall], len(claims))

    def from_files(references: Any, predictions: Any) -> tuple[dict[str, Any], list] | None:
        # Lines in the official form, scored as parsed: no compute() rows are made.
        claims = official_form_file_claims(references, predictions, max_evidence)
        return None if claims is None else (summed(claims), claims)

    return SumStatistics(
        "claim",
        core.OUTPUT_KEYS,
        width=5,
        official=official,
        stats=stats,
        scores=scores,
        official_and_stats=official_and_stats,
        official_and_stats_from_files=from_files,
    )


def _example_rows(rows: dict[str, list], n: int = 8) -> dict[str, list]:
    """The first ``n`` claims. The example's gold lines all say ``"id": 0`` (redacted); rows are
    paired by position, so the gold rows take their prediction's id."""
    predictions = rows["predictions"][:n]
    references = [{**r, "id": p["id"]} for p, r in zip(predictions, rows["references"])]
    return {"predictions": predictions, "references": references}


def _check(files: Any, report: Any) -> None:
    from .check import run  # imported on use: scoring never needs it

    run(files, report)


def _recognise(sample: Any) -> tuple[str, str] | None:
    from .file_kinds import recognise  # imported on a refusal only: scoring never needs it

    return recognise(sample)


def _fever2_arguments(parser: Any) -> None:
    """The official FEVER 2.0 scorer's three flags, each a comma-separated list, one item per
    breaker in the same order."""
    parser.add_argument(
        "--actual-files",
        required=True,
        metavar="GOLD[,GOLD...]",
        help="each breaker's gold JSONL (label, evidence per claim), comma-separated",
    )
    parser.add_argument(
        "--breaker-dirs",
        required=True,
        metavar="DIR[,DIR...]",
        help="each breaker's folder of predictions: one JSONL per system, named by the system "
        "(the same names in every folder), read in sorted order",
    )
    parser.add_argument(
        "--correct-scores",
        required=True,
        metavar="RATE[,RATE...]",
        help="each breaker's correct rate: the share of its claims the annotators found "
        "correct, from 0 to 1",
    )


def _rate(text: str) -> float:
    try:
        rate = float(text)
    except ValueError:
        rate = None
    if rate is None or not 0 <= rate <= 1:
        raise UsageError(f"--correct-scores: expected numbers from 0 to 1, got {text!r}")
    return rate


def _fever2_run(args: Any) -> dict:
    from .fever2_files import score_breaker_files

    actual_files, breaker_dirs = args.actual_files.split(","), args.breaker_dirs.split(",")
    rates = [_rate(text) for text in args.correct_scores.split(",")]
    if not len(actual_files) == len(breaker_dirs) == len(rates):
        raise UsageError(
            f"{len(actual_files)} --actual-files, {len(breaker_dirs)} --breaker-dirs and "
            f"{len(rates)} --correct-scores: give one of each per breaker, in the same order"
        )
    if len(set(breaker_dirs)) != len(breaker_dirs):
        raise UsageError("--breaker-dirs: a breaker folder is given twice")
    return score_breaker_files(actual_files, breaker_dirs, rates)


def _cell(value: Any) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _fever2_table(result: dict) -> list[list[list[str]]]:
    """Breakers (potency, adjusted potency) and systems (resilience, then the FEVER score on
    each breaker, the official scorer's LaTeX table)."""
    breakers = [["breaker", "systems", "correct rate", "potency", "adjusted potency"]]
    for name, b in result["breakers"].items():
        keys = ("systems", "correct_rate", "potency", "adjusted_potency")
        breakers.append([name, *(_cell(b[k]) for k in keys)])
    systems = [["system", "resilience", *(f"FEVER on {name}" for name in result["breakers"])]]
    for name, s in result["systems"].items():
        systems.append([name, _cell(s["resilience"]), *map(_cell, s["fever_scores"].values())])
    return [breakers, systems]


FEVER2 = MetricCommand(
    "fever2",
    "FEVER 2.0 (builder-breaker) scores, as its official scorer: each breaker's potency and "
    "adjusted potency, each system's resilience and FEVER score on every breaker",
    arguments=_fever2_arguments,
    run=_fever2_run,
    table=_fever2_table,
)


CONTRACT = MetricContract(
    "fever_score",
    files=Files(
        FileArgument(
            "gold JSONL, paired with the predictions line by line (optional where each "
            "prediction line carries its own 'label' and 'evidence')",
            gold=True,
            optional=True,
        ),
        FileArgument("predictions JSONL (id, predicted_label, predicted_evidence)"),
        row_per_line=True,
        gold_in_line=_gold_in_line,
        kinds=FileKinds("FEVER", _recognise),
    ),
    options=[
        Option(name, parse, metavar=metavar, help=help, default=core.DEFAULT_MAX_EVIDENCE)
        for name, (parse, metavar, help) in OPTIONS.items()
    ],
    reader=Reader(read_official, score_files, references_from_hub=references_from_hub),
    statistics=statistics,
    space=SpaceContract(
        {"references": "actual.jsonl", "predictions": "predictions.jsonl"},
        file_help=(
            "**references**: the gold JSONL (`label`, `evidence` per line; optional when the "
            "prediction lines carry them). **predictions**: one JSON object per claim with "
            "`predicted_label` and `predicted_evidence` (`[page, line]` pairs), in gold order. "
            "Pre-filled: the first 100 claims of the official scorer's test fixture."
        ),
        example_rows=_example_rows,
        chart=BarChart(
            label_confusion,
            x="gold label",
            y="claims",
            color="predicted label",
            x_order=LABELS,
            colors=LABEL_COLOURS,
            title="Label confusion: claims per gold label, stacked by predicted label",
        ),
    ),
    check=SubmissionCheck(
        _check,
        inputs="the claims the predictions answer, in order: the task's shared_task_test.jsonl "
        "(id, claim), or any JSONL with an 'id' per claim",
    ),
    commands=[FEVER2],
)
