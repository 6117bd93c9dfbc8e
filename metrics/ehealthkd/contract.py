"""What taskeval needs from ``ehealthkd`` (see ``taskeval.contract``); evaluate never loads it.

Beyond the common parts: the scenario is the metric's config (``--scenario N``), files hold one
scenario or several (scored and compared scenario by scenario), ``predictions`` may be a folder
of several submissions, and ``taskeval score`` writes CSV (``--csv``) and keeps the best run of
each team (``--best``) as the official ``evaltest`` does.
"""

from __future__ import annotations

import re

from taskeval.contract import (
    Config,
    FileArgument,
    FileKinds,
    Files,
    MetricContract,
    Option,
    OutputFormat,
    Reader,
    ResultFilter,
    SpaceContract,
    SubmissionCheck,
    SumStatistics,
)

from . import scoring as core
from .inputs import (
    read_official,
    read_sentence_pairs,
    references_from_hub,
    scenario_pairs,
    score_files,
)

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _scenario(text: str) -> str:
    number = text.removeprefix("scenario")
    if number not in ("1", "2", "3", "4"):
        raise ValueError(text)
    return f"scenario{number}"


def _edition(text: str) -> int:
    edition = int(text)
    if edition not in core.EDITIONS:
        raise ValueError(text)
    return edition


_SCORES = ("precision", "recall", "f1")


def statistics(config: str | None, options: Mapping[str, Any]) -> SumStatistics:
    """Sentences; the eight counts of each sentence (the core's ``totals``), turned into scores
    by the core's ``metrics`` for the scenario."""
    scenario = config or "scenario1"
    edition = core.check_edition(options.get("edition", 2019))
    core.check_scenario(scenario, edition)

    def official(inputs: Mapping[str, Any]) -> dict[str, Any]:
        return core.ehealthkd(
            inputs["predictions"], inputs["references"], scenario, edition=edition
        )

    def stats(inputs: Mapping[str, Any]) -> list[list[float]]:
        preds = core.normalize_rows(inputs["predictions"], "predictions", edition)
        refs = core.normalize_rows(inputs["references"], "references", edition)
        core.check_lengths(len(preds), len(refs))
        return _rows(len(preds), core.match_pairs(preds, refs, edition=edition))

    def _rows(n: int, matches: list) -> list[list[float]]:
        rows = [[0.0] * len(core.COUNT_KEYS) for _ in range(n)]
        # A sentence pair the official tool skips (no gold annotation, other text) counts zero;
        # in 2020 a pair's index is its reference sentence's.
        for m in matches:
            counts = core.totals([m])
            rows[m.index] = [float(counts[k]) for k in core.COUNT_KEYS]
        return rows

    def official_and_stats(inputs: Mapping[str, Any]) -> tuple[dict[str, Any], list]:
        # compute()'s checks and the rows normalized once for both (what ``core.ehealthkd``
        # does before it scores them).
        predictions, references = inputs["predictions"], inputs["references"]
        core.check_rows(predictions, "predictions")
        core.check_rows(references, "references")
        core.check_lengths(len(predictions), len(references))
        preds = core.normalize_rows(predictions, "predictions", edition)
        refs = core.normalize_rows(references, "references", edition)
        return scored(preds, refs)

    def scored(preds: list, refs: list) -> tuple[dict[str, Any], list]:
        # The sentence pairs matched once, for the official values and the rows alike.
        matches = core.match_pairs(preds, refs, edition=edition)
        return core.scores_of(matches, scenario, edition), _rows(len(preds), matches)

    def from_files(references: Any, predictions: Any) -> tuple[dict[str, Any], list]:
        # The sentences as read, not turned into compute() rows and normalized back: the very
        # sentences (normalizing a row made of a sentence gives that sentence).
        submitted, gold, _ = read_sentence_pairs(references, predictions, edition)
        return scored(submitted, gold)

    def scores(sums: list[float], n: int) -> dict[str, float]:
        values = core.metrics(dict(zip(core.COUNT_KEYS, map(round, sums))), scenario, edition)
        return {k: values[k] for k in _SCORES}

    return SumStatistics(
        "sentence",
        _SCORES,
        width=len(core.COUNT_KEYS),
        official=official,
        stats=stats,
        scores=scores,
        official_and_stats=official_and_stats,
        official_and_stats_from_files=from_files,
    )


def _one_submission(result: dict) -> bool:
    return all(k.startswith("scenario") for k in result)


def _run_order(name: str) -> list:
    # Runs in the order the official tools score them: run2 before run10.
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def best_runs(result: dict, options: Mapping[str, Any]) -> dict:
    """Runs ``{run: {scenario: scores}}`` reduced to the run of each team (``TEAM/RUN``; one team
    when runs are not in team folders) that the official tool reports for each scenario
    (``core.reported_run``)."""
    if _one_submission(result):
        return result
    edition = options.get("edition", 2019)
    best: dict[tuple[str, str], str] = {}
    for run in sorted(result, key=_run_order):
        team = run.split("/", 1)[0] if "/" in run else ""
        for scenario, scores in result[run].items():
            chosen = best.get((team, scenario))
            if chosen is None or core.reported_run(
                scores["f1"], result[chosen][scenario]["f1"], edition
            ):
                best[(team, scenario)] = run
    kept: dict[str, dict] = {}
    for (_, scenario), run in sorted(best.items(), key=lambda it: (_run_order(it[1]), it[0][1])):
        kept.setdefault(run, {})[scenario] = result[run][scenario]
    return kept


def csv_rows(result: dict, predictions: Any) -> str:
    """One row per submission and scenario; floats written in full (they read back equal)."""
    import csv
    import io
    from pathlib import Path

    if _one_submission(result):
        result = {Path(predictions).name: result}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = None
    for submission, scenarios in result.items():
        for scenario, scores in scenarios.items():
            if header is None:
                header = ["submission", "scenario", *scores]
                writer.writerow(header)
            writer.writerow([submission, scenario, *(repr(v) for v in scores.values())])
    return out.getvalue().rstrip("\n")


def _check(files: Any, report: Any) -> None:
    from .check import run  # imported on use: scoring never needs it

    run(files, report)


def _recognise(sample: Any) -> tuple[str, str] | None:
    from .file_kinds import recognise  # imported on a refusal only: scoring never needs it

    return recognise(sample)


CONTRACT = MetricContract(
    "ehealthkd",
    files=Files(
        FileArgument(
            "gold: a scenario folder (input_scenarioN.txt with its output_a_/output_b_ files) or "
            "a folder of scenario folders (scenario1-main, scenario2-taskA, scenario3-taskB)",
            kind="folder",
            gold=True,
        ),
        FileArgument("a submission laid out like the gold", kind="folder"),
        submissions="or a folder of several submissions (each scored on its own)",
        kinds=FileKinds("eHealth-KD 2019", _recognise),
    ),
    config=Config(
        "scenario",
        core.ALL_SCENARIOS,
        _scenario,
        metavar="N",
        expected="1, 2, 3 or 4 (4 with --edition 2020)",
        help="score scenario N only (1: key phrases and relations, 2: key phrases, "
        "3: relations, 4: the 2020 transfer scenario, as 1); also names the scenario of a "
        "folder whose names do not tell it",
        default="scenario1",
        pairs=scenario_pairs,
    ),
    options=[
        Option(
            "edition",
            _edition,
            metavar="YEAR",
            help="the eHealth-KD edition whose official evaluation is reproduced: 2019 "
            "(output_a_/output_b_ files), 2020 (BRAT scenario.txt and scenario.ann; partial "
            "matches need the same label, sentences aligned by normalised text, scenario 4) or "
            "2021 (2020's rules on BRAT output.txt and output.ann, runs run1 to run3)",
            default=2019,
        )
    ],
    reader=Reader(read_official, score_files, references_from_hub=references_from_hub),
    statistics=statistics,
    formats=[
        OutputFormat(
            "csv", "print CSV instead of JSON: one row per submission and scenario", csv_rows
        )
    ],
    filters=[
        ResultFilter(
            "best",
            "of several submissions, keep for each scenario the one the edition's official "
            "tool reports: 2019 and 2020 the best F1 (the first by name on a tie), 2021 the "
            "last run (its score.py compares nothing); per team where laid out as TEAM/RUN",
            best_runs,
        )
    ],
    space=SpaceContract(
        {"references": "gold", "predictions": "submission"},
        example_config="scenario1",
        file_help=(
            "Choose the **edition**, then upload the files of **one scenario folder** per side, "
            "with their official names (they say the edition: files of another edition are "
            "refused). **2019**: **references** the gold `input_scenarioN.txt`, "
            "`output_a_scenarioN.txt` and `output_b_scenarioN.txt`; **predictions** "
            "`output_scenarioN.txt` (or, as officially, `input_scenarioN.txt`), "
            "`output_a_scenarioN.txt` and `output_b_scenarioN.txt`; the scenario is the one the "
            "file names say (the menu below is for files named otherwise). **2020**: "
            "`scenario.txt` and its BRAT `scenario.ann` on each side. **2021**: `output.txt` and "
            "its BRAT `output.ann` on each side. The 2020 and 2021 names do not say the "
            "scenario: choose it in the menu (scenario 4 is 2020's only). Pre-filled: a "
            "synthetic 2019 scenario-1 case (44 sentences, 23 annotated) of the project's "
            "parity corpus. Synthetic 2020 and 2021 cases to try are among the Space's files: "
            "`examples/gold_2020` with `examples/submission_2020`, `examples/gold_2021` with "
            "`examples/submission_2021`."
        ),
    ),
    check=SubmissionCheck(
        _check,
        inputs="the input sentences file(s) of the scenarios checked (input_scenarioN.txt, one "
        "sentence per line), or a folder holding them (a scenario folder or a tree of them)",
    ),
)
