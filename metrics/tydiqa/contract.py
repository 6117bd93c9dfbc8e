"""What taskeval needs from ``tydiqa`` (see ``taskeval.contract``); evaluate never loads it."""

from __future__ import annotations

from taskeval.contract import (
    FileArgument,
    FileKinds,
    Files,
    ManyResamples,
    MetricContract,
    Option,
    Reader,
    SpaceContract,
    StratifiedStatistics,
    SubmissionCheck,
)

from . import scoring as core
from .inputs import OPTIONS, read_compact, read_official, references_from_hub, score_files

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any


def example_id(row: Any) -> Any:
    """The id a TyDi QA row is paired by (``compare`` names the ones two systems differ on)."""
    return row.get("example_id") if isinstance(row, dict) else None


def _many_resamples() -> ManyResamples:
    # imported on use: the sweeps need numpy, which scoring and checking never import
    from .sweeps import LanguageSweeps, macro_scores

    return ManyResamples(LanguageSweeps(), macro_scores)


def statistics(config: str | None, options: Mapping[str, Any]) -> StratifiedStatistics:
    """Examples within their (gold) language; each example's ``(gold_has, pred_has, credit,
    score)`` of both tasks (the core's ``language_stats``). Every resample re-runs the core's
    sweep per language (``language_values``) and its ``macro_averages``: the threshold is
    chosen anew on each, so the statistics do not add up."""
    passage = options.get("passage_non_null_threshold", core.DEFAULT_THRESHOLD)
    minimal = options.get("minimal_non_null_threshold", core.DEFAULT_THRESHOLD)
    core.check_threshold("passage_non_null_threshold", passage)
    core.check_threshold("minimal_non_null_threshold", minimal)

    normalized: dict[tuple[int, int], tuple[list, list]] = {}
    gold: dict[int, tuple[Any, list]] = {}  # the systems of a comparison share their references

    def normalize(inputs: Mapping[str, Any]) -> tuple[list, list]:
        # Checked once per system for both the official score and the units (these statistics
        # live for one comparison, while its inputs are alive).
        predictions, references = inputs["predictions"], inputs["references"]
        key = (id(predictions), id(references))
        if key not in normalized:
            known = gold.get(id(references))  # an entry holds its references: the id is theirs
            core.check_rows(predictions, "predictions")
            if known is None:
                core.check_rows(references, "references")
            core.check_lengths(len(predictions), len(references))
            if known is None:
                known = gold[id(references)] = (references, core.normalize_references(references))
            normalized[key] = (core.normalize_predictions(predictions), known[1])
        return normalized[key]

    swept: dict[tuple[int, int], list] = {}

    def stats_of(inputs: Mapping[str, Any]) -> list:
        # The core's per-example stats, made once per system for its score and its units.
        key = (id(inputs["predictions"]), id(inputs["references"]))
        if key not in swept:
            swept[key] = list(core.language_stats(*normalize(inputs), passage, minimal))
        return swept[key]

    def official(inputs: Mapping[str, Any]) -> dict[str, Any]:
        # What tydiqa_score (compute()) does: check, normalize, score (``core.score``).
        return core.scores_of(stats_of(inputs))

    def units(inputs: Mapping[str, Any]) -> tuple[dict, dict, list]:
        return _units(*normalize(inputs), stats_of(inputs))

    def official_and_units_from_files(references: Any, predictions: Any) -> tuple | None:
        # The compact rows ``score_files`` scores, which ``read_official``'s rows normalize to:
        # read once, never turned into rows. Files refused on reading or scoring go back to
        # the rows' path (None), so that the refusal, with its words on a likely mistake and
        # its naming of rows, is that path's own.
        try:
            preds, refs = read_compact(references, predictions)
            stats = list(core.language_stats(preds, refs, passage, minimal))
        except (ValueError, OSError):
            return None
        return core.scores_of(stats), _units(preds, refs, stats)

    def _units(preds: list, refs: list, stats: list) -> tuple[dict, dict, list]:
        # The core's own pairing and per-example stats, in its visiting order; the units of a
        # language are its gold examples in gold order (the order a resample draws from).
        _, gold_ids, _ = core.group_by_language(preds, refs)
        parts, identity, strata = {}, {}, []
        for language, passage_stats, minimal_stats, _ in stats:
            strata.append(language)  # scored: some prediction carries it
            ids = gold_ids.get(language, [])
            if not ids:
                continue
            visited = list(core.visiting_order(ids))  # the order of the stats
            at = {example_id: k for k, example_id in enumerate(visited)}
            in_gold_order = [at[example_id] for example_id in ids]
            parts[language] = (
                [passage_stats[k] for k in in_gold_order],
                [minimal_stats[k] for k in in_gold_order],
            )
            where = {example_id: i for i, example_id in enumerate(ids)}
            identity[language] = [where[example_id] for example_id in visited]
        return parts, identity, strata

    def score(stats: dict[str, tuple[list, ...]]) -> dict[str, float]:
        # Per language, the core's sweep on both tasks, then its macro means.
        return core.macro_averages(
            {
                language: core.language_values(passage_stats, minimal_stats)
                for language, (passage_stats, minimal_stats) in stats.items()
            }
        )

    return StratifiedStatistics(
        "example",
        core.AVG_KEYS,
        official=official,
        units=units,
        score=score,
        many=_many_resamples(),  # all resamples at once
        official_and_units_from_files=official_and_units_from_files,
    )


def _example_rows(rows: dict[str, list], n: int = 8) -> dict[str, list]:
    """The first ``n`` gold examples and their predictions (rows are paired by example_id)."""
    references = [r for r in rows["references"] if r["example_id"] is not None][:n]
    ids = {r["example_id"] for r in references}
    predictions = [p for p in rows["predictions"] if p["example_id"] in ids]
    predictions += [{"example_id": None}] * (len(references) - len(predictions))
    return {"predictions": predictions, "references": references}


def _check(files: Any, report: Any) -> None:
    from .check import run  # imported on use: scoring never needs it

    run(files, report)


def _recognise(sample: Any) -> tuple[str, str] | None:
    from .file_kinds import recognise  # imported on a refusal only: scoring never needs it

    return recognise(sample)


def _inflate(path: str) -> Iterator[bytes]:
    """A gzip file inflated as the reader inflates it (every member, zero padding skipped); a
    broken member's ``zlib.error`` (ISA-L's when installed) as an ``OSError``."""
    from . import file_lines

    try:
        yield from file_lines.inflate(path)
    except file_lines.zlib.error as e:
        raise OSError(str(e)) from e


CONTRACT = MetricContract(
    "tydiqa",
    files=Files(
        FileArgument(
            "gold JSONL of the TyDi QA dev set (.jsonl or .jsonl.gz)", gzip=True, gold=True
        ),
        FileArgument("predictions JSONL in the official format"),
        kinds=FileKinds("TyDi QA primary task", _recognise),
        inflate=_inflate,
    ),
    options=[
        Option(name, parse, metavar=metavar, help=help, default=core.DEFAULT_THRESHOLD)
        for name, (parse, metavar, help) in OPTIONS.items()
    ],
    reader=Reader(
        read_official, score_files, references_from_hub=references_from_hub, row_id=example_id
    ),
    statistics=statistics,
    space=SpaceContract(
        {"references": "gold.jsonl.gz", "predictions": "predictions.jsonl"},
        file_help=(
            "**references**: the gold JSONL in the layout of the TyDi QA dev file (gzip when the "
            "name contains `.gz`). **predictions**: one JSON object per line with `example_id`, "
            "`language`, `passage_answer_index`, `passage_answer_score`, `minimal_answer` "
            "(`start_byte_offset`, `end_byte_offset`), `minimal_answer_score`, `yes_no_answer`. "
            "Pre-filled: a synthetic 300-example set in the 11 languages."
        ),
        example_rows=_example_rows,
    ),
    check=SubmissionCheck(
        _check,
        inputs="the test JSONL as distributed (.jsonl or .jsonl.gz): example_id, language, "
        "document_plaintext and passage_answer_candidates (byte offsets)",
    ),
)
