"""What taskeval needs from ``tydiqa_goldp`` (see ``taskeval.contract``); evaluate never loads
it."""

from __future__ import annotations

from taskeval.contract import (
    BarChart,
    FileArgument,
    FileKinds,
    Files,
    LmEvalTasks,
    ManyResamples,
    MetricContract,
    Option,
    Reader,
    SpaceContract,
    StratifiedStatistics,
    SubmissionCheck,
)

from . import conventions, rows
from .inputs import OPTIONS, read_official, references_from_hub, score_files
from .lm_eval_task import CODES, GROUP, inputs_from_samples, task_language
from .scoring import AVERAGED, LANGUAGES

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def question_id(row: Any) -> Any:
    """The id a row is paired by (``compare`` names the ones two systems differ on)."""
    return row.get("id") if isinstance(row, dict) else None


def statistics(config: str | None, options: Mapping[str, Any]) -> StratifiedStatistics:
    """Questions within their language: the official numbers are per-language means, averaged
    over languages, so a resample keeps each language's size. Each question's ``(EM, F1)``
    under the convention (``conventions.units``); every resample is scored by the convention's
    own aggregation (``conventions.aggregate``) on the drawn questions, each language's in the
    order drawn. All resamples are scored at once (``resampled``), to the same numbers.

    ``lm_eval`` has no score to resample: lm-evaluation-harness prints one number per language
    task and no mean over languages (no top-level key in ``conventions.KEYS``)."""
    convention = conventions.check_convention(
        options.get("convention", conventions.DEFAULT_CONVENTION)
    )
    keys = conventions.KEYS[convention]
    if not keys:
        raise ValueError(
            f"convention {convention!r} has no score over languages (lm-evaluation-harness "
            f"reports each language on its own), so there is nothing to give an interval or "
            f"compare: use convention 'official' or 'xtreme'"
        )

    kept: dict[tuple[int, int], tuple[Any, Any, list]] = {}

    def scored(inputs: Mapping[str, Any]) -> list:
        # A system's rows checked and its questions scored once, for both its official numbers
        # and its units (these statistics live for one comparison, while its inputs are alive).
        predictions, references = inputs["predictions"], inputs["references"]
        found = kept.get((id(predictions), id(references)))  # it holds them: the ids are theirs
        if found is None:
            questions, _ = rows.questions_of(*rows.checked(predictions, references))
            found = (predictions, references, conventions.units(questions, convention))
            kept[(id(predictions), id(references))] = found
        return found[2]

    def official(inputs: Mapping[str, Any]) -> dict[str, Any]:
        # compute()'s numbers (``rows.score_rows``): the convention's aggregate of its units
        return conventions.aggregate(scored(inputs), convention)

    def units(inputs: Mapping[str, Any]) -> tuple[dict, dict, list]:
        scored_units = scored(inputs)
        present = {language for language, _, _ in scored_units}
        wanted = AVERAGED if convention == "official" else LANGUAGES
        if not present & set(wanted):
            raise ValueError(
                "no question of a language the convention averages "
                f"({', '.join(wanted)}): its scores are None, there is nothing to resample"
            )
        strata = [language for language in LANGUAGES if language in present]
        parts: dict[str, tuple[list, list]] = {language: ([], []) for language in strata}
        for language, em, f1 in scored_units:  # reference order, the order the script sums in
            parts[language][0].append(em)
            parts[language][1].append(f1)
        identity = {language: list(range(len(parts[language][0]))) for language in strata}
        return parts, identity, strata

    def score(stats: dict[str, tuple[list, ...]]) -> dict[str, float]:
        drawn = [
            (language, em, f1) for language, (ems, f1s) in stats.items() for em, f1 in zip(ems, f1s)
        ]
        result = conventions.aggregate(drawn, convention)
        return {key: result[key] for key in keys}

    return StratifiedStatistics(
        "question",
        keys,
        official=official,
        units=units,
        score=score,
        many=_many_resamples(convention),  # all resamples at once
    )


def _many_resamples(convention: str) -> ManyResamples:
    # imported on use: the sums need numpy, which scoring and checking never import
    from .resampled import COMBINE, LanguageSums

    return ManyResamples(LanguageSums(), COMBINE[convention])


# ---------------------------------------------------------------------------------------------
# The Space

OUTCOMES = {
    "exact match": "#2e7d32",
    "partial overlap": "#f9a825",
    "no token in common": "#c62828",
    "no prediction": "#9e9e9e",
}


def outcome(detail: Mapping[str, Any]) -> str:
    """How one question scored, as the chart counts it (from its ``details`` record)."""
    if detail["exact_match"]:
        return "exact match"
    if detail["prediction"] is None:
        return "no prediction"
    return "partial overlap" if detail["f1"] > 0 else "no token in common"


def _by_language(details: list[dict], config: str | None) -> list[dict]:
    return [{"language": d["language"], "answer": outcome(d)} for d in details]


def _check(files: Any, report: Any) -> None:
    from .check import run  # imported on use: scoring never needs it

    run(files, report)


def _recognise(sample: Any) -> tuple[str, str] | None:
    from .file_kinds import recognise  # imported on a refusal only: scoring never needs it

    return recognise(sample)


CONTRACT = MetricContract(
    "tydiqa_goldp",
    files=Files(
        FileArgument(
            "gold in SQuAD 1.1 JSON: the combined dev file tydiqa-goldp-v1.1-dev.json, one "
            "per-language file of tydiqa-goldp-v1.1-dev.tgz, or a folder of them",
            kind="file",
            gold=True,
        ),
        FileArgument("predictions JSON: one object {question id: answer text}"),
        kinds=FileKinds("TyDi QA GoldP", _recognise),
    ),
    options=[
        Option(
            name,
            parse,
            metavar=metavar,
            help=help,
            default=conventions.DEFAULT_CONVENTION,
            note=conventions.said,
        )
        for name, (parse, metavar, help) in OPTIONS.items()
    ],
    reader=Reader(
        read_official, score_files, references_from_hub=references_from_hub, row_id=question_id
    ),
    statistics=statistics,
    space=SpaceContract(
        {"references": "gold.json", "predictions": "predictions.json"},
        file_help=(
            "**references**: the gold in SQuAD 1.1 JSON (`data` → `paragraphs` → `qas` with "
            "`id` and `answers`), as the TyDiQA-GoldP dev files; ids start with their language "
            "(`arabic-…`). **predictions**: one JSON object `{id: answer text}` for every "
            "language, the file the official procedure splits. Pre-filled: 15 made-up questions "
            "in the nine languages, answered where the conventions part."
        ),
        breakdown_columns=[
            "id",
            "language",
            "prediction",
            "best_answer",
            "normalized_prediction",
            "normalized_answer",
            "exact_match",
            "f1",
            "why",
        ],
        chart=BarChart(
            _by_language,
            x="language",
            y="questions",
            color="answer",
            x_order=LANGUAGES,
            colors=OUTCOMES,
            title="Questions per language, by how each answer scored (English is not in the "
            "official mean)",
        ),
    ),
    lm_eval=LmEvalTasks(
        "lm_eval_tasks",
        [GROUP, f"{GROUP}_{CODES['english']}"],
        knows=lambda task: task_language(task) is not None,
        read=inputs_from_samples,
    ),
    check=SubmissionCheck(
        _check,
        inputs="the task's questions in SQuAD 1.1 layout (data, paragraphs with context and qas "
        "with id; answers absent or ignored): a file, several, or a folder of them",
    ),
)
