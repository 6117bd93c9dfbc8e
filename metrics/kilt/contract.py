"""What taskeval needs from ``kilt`` (see ``taskeval.contract``); evaluate never loads it."""

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
    SubmissionCheck,
    SumStatistics,
)

from . import scoring as core
from .inputs import OPTIONS, read_official, references_from_hub, row_id, score_files

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def statistics(config: str | None, options: Mapping[str, Any]) -> SumStatistics:
    """Gold records; per record, each value the official loops add up (a KILT variant adds the
    answer's score only when credited, 0.0 otherwise, which leaves the sum as it is), so sums
    taken left to right give the official numbers; ``scores`` divides them by the records."""
    evaluation, ks, rank_keys, commit = core.check_options(
        options.get("evaluation", "downstream"),
        options.get("ks"),
        options.get("rank_keys"),
        options.get("commit", core.DEFAULT_COMMIT),
    )
    if evaluation == "downstream":
        keys = [*core.KILT_NAMES.values(), *core.ANSWER_METRICS, "Rprec", "recall@5"]
    else:
        keys = core.retrieval_names(ks, commit)

    def official_and_stats(inputs: Mapping[str, Any]) -> tuple[dict, list[tuple[float, ...]]]:
        pairs = core.kilt_pairs(
            inputs["predictions"],
            inputs["references"],
            rank_keys,
            evaluation == "downstream",
            commit,
            True,  # compute()'s pairing: by position, ids checked
        )
        values = core.row_values(pairs, evaluation, ks, rank_keys, commit)
        return core.means(values, evaluation, ks, commit), [_unit(v, keys) for v in values]

    def scores(sums: list[float], n: int) -> dict[str, float]:
        return {key: total / n for key, total in zip(keys, sums)}

    return SumStatistics(
        "gold record",
        keys,
        width=len(keys),
        official=lambda inputs: official_and_stats(inputs)[0],
        stats=lambda inputs: official_and_stats(inputs)[1],
        scores=scores,
        official_and_stats=official_and_stats,
    )


def _unit(value: Mapping[str, Any], keys: list[str]) -> tuple[float, ...]:
    scores = value.get("scores")
    row = []
    for key in keys:
        if key in value:
            row.append(float(value[key]))
        else:  # an answer metric, or its KILT variant
            name = key.removeprefix("KILT-")
            credited = value["credited"] or name == key
            row.append(float(scores[name]) if scores is not None and credited else 0.0)
    return tuple(row)


PAGES = ("all gold pages first", "some", "none")
ANSWERS = ("right (EM)", "wrong", "blank", "not scored")
ANSWER_COLOURS = {"right (EM)": "#1f77b4", "wrong": "#ff7f0e", "blank": "#7f7f7f",
                  "not scored": "#c7c7c7"}  # fmt: skip


def outcome_rows(details: list[dict], config: str | None) -> list[dict]:
    """One bar item per gold record: its page R-precision (1, between, 0) and its answer."""
    items = []
    for record in details:
        rprec = record["Rprec"]
        pages = PAGES[0] if rprec == 1 else PAGES[2] if rprec == 0 else PAGES[1]
        if "answer" not in record:
            answer = ANSWERS[3]
        elif not record["answer"].strip():
            answer = ANSWERS[2]
        else:
            answer = ANSWERS[0] if record["em"] else ANSWERS[1]
        items.append({"page R-precision": pages, "answer": answer})
    return items


def _example_rows(rows: dict[str, list], n: int = 4) -> dict[str, list]:
    return {"predictions": rows["predictions"][:n], "references": rows["references"][:n]}


def _check(files: Any, report: Any) -> None:
    from .check import run  # imported on use: scoring never needs it

    run(files, report)


def _recognise(sample: Any) -> tuple[str, str] | None:
    from .file_kinds import recognise  # imported on a refusal only: scoring never needs it

    return recognise(sample)


CONTRACT = MetricContract(
    "kilt",
    files=Files(
        FileArgument(
            "the gold KILT JSONL file (id, input, output: answers and provenance), as the "
            "official scorers' gold argument",
            gold=True,
        ),
        FileArgument(
            "the guess KILT JSONL file (id, output: one answer and/or ranked provenance per "
            "record), as the official scorers' guess argument"
        ),
        kinds=FileKinds("KILT", _recognise),
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
        {"references": "gold.jsonl", "predictions": "guess.jsonl"},
        file_help=(
            "**references**: a gold KILT file (`id`, `input`, `output` with `answer` and "
            "`provenance`). **predictions**: a guess KILT file (`id`, `output`: one `answer` and "
            "its ranked `provenance`, passages with `wikipedia_id`). Pre-filled: a small made-up "
            "example."
        ),
        example_rows=_example_rows,
        breakdown_columns=["id", "answer", "gold_answers", "em", "f1", "kilt_credit", "Rprec"],
        chart=BarChart(
            outcome_rows,
            x="page R-precision",
            y="gold records",
            color="answer",
            x_order=PAGES,
            colors=ANSWER_COLOURS,
            title="Gold records by page R-precision, stacked by answer (KILT credit: left bar, "
            "right answer)",
        ),
    ),
    check=SubmissionCheck(
        _check,
        inputs="the records the guesses answer: the task's KILT file of the split (id, input); "
        "every id needs one guess",
    ),
)
