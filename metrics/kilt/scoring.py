"""The official numbers of KILT (``kilt/eval_downstream.py`` and ``kilt/eval_retrieval.py``),
from KILT records.

* ``downstream`` (``eval_downstream.evaluate``): accuracy, EM, F1 and ROUGE-L, each the best
  over the gold answers; their KILT variants, credited only for a row whose page-level
  R-precision is exactly 1; and the page-level R-precision and recall@5 of the guesses;
* ``retrieval`` (``eval_retrieval.evaluate``): R-precision, and for each k precision@k and
  answer_in_context@k, and, for k > 1 only, recall@k and success_rate@k (at 1 they are not
  reported), with the rank keys chosen (``wikipedia_id`` by default: page level). At KILT's
  later commit (``2664322``) also entity_in_input, and for each k entity_in_context@k and
  answer_and_ent_in_context@k; that commit reads every gold record's ``input``, and crashes
  without it, in both evaluations.

Sums are made as the official code makes them: row by row in gold order, from the int 0 for the
answer metrics and from 0.0 for the retrieval ones, then divided once by the number of gold
records (a row with a blank guess answer scores nothing but is counted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import answers, ranking, rows
from .plain_values import shown
from .records import DOWNSTREAM_KEYS, check_paired, pair_records

ANSWER_METRICS = ("accuracy", "em", "f1", "rougel")
KILT_NAMES = {name: f"KILT-{name}" for name in ANSWER_METRICS}
EVALUATIONS = ("downstream", "retrieval")
COMMITS = ("64e284a", "2664322")
DEFAULT_COMMIT = "64e284a"
DEFAULT_KS = (1, 5, 10, 20)
DOWNSTREAM_KS = (1, 5)
DEFAULT_RANK_KEYS = ("wikipedia_id",)

Pair = tuple[str, Mapping[str, Any], Mapping[str, Any]]


# ------------------------------------------------------------------------------------------
# Options


def check_ks(ks: Any) -> list[int]:
    """The ks, distinct positive ints, in increasing order (the official scorer sorts them)."""
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Sequence):
        raise ValueError(f"ks must be a list of positive ints, got {shown(ks)}")
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(
                f"ks: each k must be a positive int, got {shown(k)} (the official scorer crashes)"
            )
    if not ks:
        raise ValueError("ks must hold at least one k")
    if len(set(ks)) != len(ks):
        raise ValueError(
            f"ks must be distinct, got {shown(list(ks))} (the official scorer adds a repeated k's "
            "values once per repeat)"
        )
    return sorted(ks)


def check_rank_keys(rank_keys: Any) -> list[str]:
    if isinstance(rank_keys, (str, bytes)) or not isinstance(rank_keys, Sequence):
        raise ValueError(f"rank_keys must be a list of passage field names, got {shown(rank_keys)}")
    if not rank_keys or any(key not in rows.RANK_FIELDS for key in rank_keys):
        raise ValueError(
            f"rank_keys must be a non-empty list of passage fields among "
            f"{', '.join(rows.RANK_FIELDS)}, got {shown(list(rank_keys))}"
        )
    if len(set(rank_keys)) != len(rank_keys):
        raise ValueError(f"rank_keys must be distinct, got {shown(list(rank_keys))}")
    return list(rank_keys)


def check_options(
    evaluation: Any = "downstream",
    ks: Any = None,
    rank_keys: Any = None,
    commit: Any = DEFAULT_COMMIT,
) -> tuple[str, list[int], list[str], str]:
    """``(evaluation, ks, rank_keys, commit)`` checked, the defaults of the evaluation filled
    in. Downstream has its own ks and rank keys (1 and 5, page ids): giving others is refused,
    as they would change nothing it reports."""
    if evaluation not in EVALUATIONS:
        raise ValueError(
            f"evaluation must be one of {', '.join(EVALUATIONS)}, got {shown(evaluation)}"
        )
    if commit not in COMMITS:
        raise ValueError(
            f"commit must be one of {', '.join(COMMITS)} (KILT's scorer at that commit), "
            f"got {shown(commit)}"
        )
    if evaluation == "downstream":
        for name, value in (("ks", ks), ("rank_keys", rank_keys)):
            if value is not None:
                raise ValueError(
                    f"{name} is an option of evaluation='retrieval': downstream always reports "
                    "page-level Rprec and recall@5"
                )
        return evaluation, list(DOWNSTREAM_KS), list(DOWNSTREAM_KEYS), commit
    ks = check_ks(DEFAULT_KS if ks is None else ks)
    rank_keys = check_rank_keys(DEFAULT_RANK_KEYS if rank_keys is None else rank_keys)
    return evaluation, ks, rank_keys, commit


# ------------------------------------------------------------------------------------------
# Records


def kilt_pairs(
    predictions: Sequence[Any],
    references: Sequence[Any],
    rank_keys: Sequence[str],
    downstream: bool,
    commit: str,
    by_position: bool,
) -> list[Pair]:
    """The gold records (``references``) each with its guess's scored output, in gold order:
    ``compute()`` pairs rows by position (their ids must agree); the official scripts, and
    ``by_position=False``, by id, whatever the guesses' order."""
    stored_gold = rows.checked(references, "references")
    stored_guess = rows.checked(predictions, "predictions")
    if by_position:
        check_paired(stored_gold, stored_guess)
    gold = [rows.record(r) for r in stored_gold]
    guess = [rows.record(r) for r in stored_guess]
    if not gold:
        raise ValueError(
            "references is empty: KILT's numbers are means over the gold records (the official "
            "scorer reports 0 for an empty file)"
        )
    pairs = pair_records(gold, guess, rank_keys, downstream)
    if commit != "64e284a":
        for at, record, _ in pairs:
            if "input" not in record:
                raise ValueError(
                    f"{at}: missing field 'input' (KILT's scorer at commit {commit} reads every "
                    "gold record's input, and crashes without it)"
                )
    return pairs


# ------------------------------------------------------------------------------------------
# Downstream


def answer_scores(answer: str, golds: set[str]) -> dict[str, Any]:
    """One non-blank guess answer's four scores against the gold answers (not empty)."""
    return {
        "accuracy": answers.accuracy(answer, golds),
        "em": answers.best_over_golds(answers.exact_match, answer, golds),
        "f1": answers.best_over_golds(answers.token_f1, answer, golds),
        "rougel": answers.best_over_golds(answers.rouge_l_f, answer, golds),
    }


def page_r_precision(gold: Mapping[str, Any], guess_output: Mapping[str, Any]) -> int | float:
    guess_ids = ranking.output_ids({"output": [guess_output]}, DOWNSTREAM_KEYS)[0]
    return ranking.r_precision(guess_ids, ranking.output_ids(gold, DOWNSTREAM_KEYS))


def downstream_row(at: str, gold: Mapping[str, Any], output: Mapping[str, Any]) -> dict[str, Any]:
    """One row's answer scores (None for a blank answer, which scores nothing) and whether it
    earns the KILT credit (page-level R-precision exactly 1)."""
    answer = output["answer"].strip()
    if not answer:
        return {"scores": None, "credited": False}
    golds = answers.gold_answers(gold)
    if not golds:
        raise ValueError(
            f"{at}: field 'output': no gold answer to score the guess answer against "
            "(a non-blank 'answer' is needed; the official scorer crashes)"
        )
    scores = answer_scores(answer, golds)
    return {"scores": scores, "credited": page_r_precision(gold, output) == 1}


def downstream_means(row_values: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``_calculate_metrics``: the answer sums, from the int 0, over the gold records."""
    totals: dict[str, Any] = dict.fromkeys(ANSWER_METRICS, 0)
    kilt_totals: dict[str, Any] = dict.fromkeys(ANSWER_METRICS, 0)
    for row in row_values:
        scores = row["scores"]
        if scores is None:
            continue
        for name in ANSWER_METRICS:
            totals[name] += scores[name]
            if row["credited"]:
                kilt_totals[name] += scores[name]
    n = len(row_values)
    result = {KILT_NAMES[name]: kilt_totals[name] / n for name in ANSWER_METRICS}
    result.update({name: totals[name] / n for name in ANSWER_METRICS})
    return result


# ------------------------------------------------------------------------------------------
# Retrieval


def retrieval_names(ks: Sequence[int], commit: str) -> list[str]:
    """The retrieval values reported, for ks in increasing order."""
    later = commit != "64e284a"
    names = ["Rprec", *(["entity_in_input"] if later else [])]
    for k in ks:
        names += [f"precision@{k}", f"answer_in_context@{k}"]
        if later:
            names += [f"answer_and_ent_in_context@{k}", f"entity_in_context@{k}"]
        if k > 1:
            names += [f"recall@{k}", f"success_rate@{k}"]
    return names


def ranking_scores(
    gold: Mapping[str, Any],
    guess_output: Mapping[str, Any],
    ks: Sequence[int],
    rank_keys: Sequence[str],
    commit: str = DEFAULT_COMMIT,
) -> dict[str, Any]:
    """One row's retrieval values (``get_ranking_metrics``), for ks in increasing order."""
    guess_ids = ranking.output_ids({"output": [guess_output]}, rank_keys)[0]
    values: dict[str, Any] = {
        "Rprec": ranking.r_precision(guess_ids, ranking.output_ids(gold, rank_keys))
    }
    sets = ranking.evidence_sets(gold, rank_keys) if guess_ids else []
    rank = ranking.evidence_rank(guess_ids, sets)
    golds = answers.gold_answers(gold)
    provenance = guess_output.get("provenance", [])
    later = commit != "64e284a"
    if later:
        titles = ranking.gold_titles(gold)
        values["entity_in_input"] = ranking.entity_in_input(gold["input"], titles)
    for k in ks:
        # A guess without ids, or a gold without evidence sets, scores the int 0 here.
        found = bool(sets)
        values[f"precision@{k}"] = ranking.precision_at_k(rank, k) if found else 0
        values[f"answer_in_context@{k}"] = ranking.answer_in_context(provenance, golds, k)
        if later:
            values[f"answer_and_ent_in_context@{k}"] = ranking.answer_and_entity_in_context(
                provenance, golds, titles, k
            )
            values[f"entity_in_context@{k}"] = ranking.entity_in_context(provenance, titles, k)
        if k > 1:
            values[f"recall@{k}"] = ranking.recall_at_k(rank, len(sets), k) if found else 0
            values[f"success_rate@{k}"] = ranking.success_at_k(rank, k) if found else 0
    return values


def retrieval_means(row_values: Sequence[Mapping[str, Any]], names: Sequence[str]) -> dict:
    """``compute``: each value summed from 0.0 over the rows, then divided by their number."""
    totals = dict.fromkeys(names, 0.0)
    for row in row_values:
        for name in names:
            totals[name] += row[name]
    for name in names:
        totals[name] /= len(row_values)
    return totals


# ------------------------------------------------------------------------------------------
# Whole evaluations


def row_values(
    pairs: Sequence[Pair], evaluation: str, ks: Sequence[int], rank_keys: Sequence[str], commit: str
) -> list[dict[str, Any]]:
    """Each gold record's values: the retrieval ones, and downstream the answer scores."""
    values = []
    for at, gold, output in pairs:
        row = ranking_scores(gold, output, ks, rank_keys, commit)
        if evaluation == "downstream":
            row.update(downstream_row(at, gold, output))
        values.append(row)
    return values


def means(row_values: Sequence[Mapping[str, Any]], evaluation: str, ks, commit: str) -> dict:
    """The official numbers from the rows' values, under their official names."""
    if evaluation == "downstream":
        result = downstream_means(row_values)
        retrieval = retrieval_means(row_values, ["Rprec", "recall@5"])
        result.update(Rprec=retrieval["Rprec"], **{"recall@5": retrieval["recall@5"]})
        return result
    return retrieval_means(row_values, retrieval_names(ks, commit))


def score(
    predictions: Sequence[Any],
    references: Sequence[Any],
    evaluation: str = "downstream",
    ks: Any = None,
    rank_keys: Any = None,
    commit: str = DEFAULT_COMMIT,
    details: bool = False,
    by_position: bool = True,
) -> dict[str, Any]:
    """What ``compute()`` returns (see the metric's documentation)."""
    evaluation, ks, rank_keys, commit = check_options(evaluation, ks, rank_keys, commit)
    downstream = evaluation == "downstream"
    pairs = kilt_pairs(predictions, references, rank_keys, downstream, commit, by_position)
    values = row_values(pairs, evaluation, ks, rank_keys, commit)
    result: dict[str, Any] = means(values, evaluation, ks, commit)
    if details:
        result["details"] = [
            row_details(gold, output, value, evaluation, ks, commit)
            for (_, gold, output), value in zip(pairs, values)
        ]
    return result


def row_details(
    gold: Mapping[str, Any],
    output: Mapping[str, Any],
    value: Mapping[str, Any],
    evaluation: str,
    ks: Sequence[int],
    commit: str,
) -> dict[str, Any]:
    """One gold record's flat record for error analysis."""
    record: dict[str, Any] = {"id": gold["id"]}
    if evaluation == "downstream":
        scores = value["scores"] or dict.fromkeys(ANSWER_METRICS, 0)
        record["answer"] = output["answer"]
        record["gold_answers"] = " | ".join(sorted(answers.gold_answers(gold)))
        record.update({name: float(scores[name]) for name in ANSWER_METRICS})
        record["kilt_credit"] = bool(value["credited"])
        names = ["Rprec", "recall@5"]
    else:
        names = retrieval_names(ks, commit)
    record.update({name: float(value[name]) for name in names})
    return record


# ------------------------------------------------------------------------------------------
# The official functions' shapes (their tests and the differential checks compare with these)


def downstream_scores(gold: Sequence[Any], guess: Sequence[Any]) -> dict[str, dict[str, Any]]:
    """What ``eval_downstream.evaluate(gold, guess)`` returns: ``kilt``, ``downstream`` and
    ``retrieval`` (page-level R-precision and recall@5)."""
    flat = score(guess, gold, by_position=False)
    return {
        "kilt": {KILT_NAMES[name]: flat[KILT_NAMES[name]] for name in ANSWER_METRICS},
        "downstream": {name: flat[name] for name in ANSWER_METRICS},
        "retrieval": {"Rprec": flat["Rprec"], "recall@5": flat["recall@5"]},
    }


def retrieval_scores(
    gold: Sequence[Any],
    guess: Sequence[Any],
    ks: Sequence[int] = DEFAULT_KS,
    rank_keys: Sequence[str] = DEFAULT_RANK_KEYS,
    commit: str = DEFAULT_COMMIT,
) -> dict[str, float]:
    """What ``eval_retrieval.evaluate(gold, guess, ks, rank_keys)`` returns."""
    return score(guess, gold, "retrieval", ks, rank_keys, commit, by_position=False)
