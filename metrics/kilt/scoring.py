"""The official numbers of KILT (``kilt/eval_downstream.py`` and ``kilt/eval_retrieval.py`` at
commit 64e284a), from lists of KILT records.

* ``downstream_scores`` (``eval_downstream.evaluate``): accuracy, EM, F1 and ROUGE-L, each the
  best over the gold answers; their KILT variants, credited only for a row whose page-level
  R-precision is exactly 1; and the page-level R-precision and recall@5 of the guesses;
* ``retrieval_scores`` (``eval_retrieval.evaluate``): R-precision, and for each k precision@k and
  answer_in_context@k, and, for k > 1 only, recall@k and success_rate@k (at 1 they are not
  reported), with the rank keys chosen (``wikipedia_id`` by default: page level).

Sums are made as the official code makes them: row by row in gold order, from the int 0 for the
answer metrics and from 0.0 for the retrieval ones, then divided once by the number of gold
records (a row with a blank guess answer scores nothing but is counted). Without any record the
answer metrics are the int 0 and the retrieval ones 0.0, as the official code returns them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import answers, ranking
from .records import DOWNSTREAM_KEYS, pair_records

ANSWER_METRICS = ("accuracy", "em", "f1", "rougel")
KILT_NAMES = {
    "accuracy": "KILT-accuracy",
    "em": "KILT-em",
    "f1": "KILT-f1",
    "rougel": "KILT-rougel",
}
DEFAULT_KS = (1, 5, 10, 20)
DOWNSTREAM_KS = (1, 5)


def answer_scores(answer: str, golds: set[str]) -> dict[str, Any]:
    """One non-blank guess answer's four scores against the gold answers (not empty)."""
    return {
        "accuracy": answers.accuracy(answer, golds),
        "em": answers.best_over_golds(answers.exact_match, answer, golds),
        "f1": answers.best_over_golds(answers.token_f1, answer, golds),
        "rougel": answers.best_over_golds(answers.rouge_l_f, answer, golds),
    }


def page_r_precision(
    gold: Mapping[str, Any], guess_output: Mapping[str, Any], rank_keys: Sequence[str]
) -> int | float:
    guess_ids = ranking.output_ids({"output": [guess_output]}, rank_keys)[0]
    return ranking.r_precision(guess_ids, ranking.output_ids(gold, rank_keys))


def ranking_scores(
    gold: Mapping[str, Any],
    guess_output: Mapping[str, Any],
    ks: Sequence[int],
    rank_keys: Sequence[str],
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
    for k in ks:
        # A guess without ids, or a gold without evidence sets, scores the int 0 here.
        found = bool(sets)
        values[f"precision@{k}"] = ranking.precision_at_k(rank, k) if found else 0
        values[f"answer_in_context@{k}"] = ranking.answer_in_context(provenance, golds, k)
        if k > 1:
            values[f"recall@{k}"] = ranking.recall_at_k(rank, len(sets), k) if found else 0
            values[f"success_rate@{k}"] = ranking.success_at_k(rank, k) if found else 0
    return values


def check_ks(ks: Any) -> list[int]:
    """The ks, distinct positive ints, in increasing order."""
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Sequence):
        raise ValueError(f"ks must be a list of positive ints, got {ks!r}")
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(
                f"ks: each k must be a positive int, got {k!r} (the official scorer crashes)"
            )
    if len(set(ks)) != len(ks):
        raise ValueError(
            f"ks must be distinct, got {list(ks)!r} (the official scorer adds a repeated k's "
            "values once per repeat)"
        )
    return sorted(ks)


def check_rank_keys(rank_keys: Any) -> list[str]:
    if isinstance(rank_keys, (str, bytes)) or not isinstance(rank_keys, Sequence):
        raise ValueError(f"rank_keys must be a list of field names, got {rank_keys!r}")
    if not rank_keys or not all(isinstance(key, str) for key in rank_keys):
        raise ValueError(
            f"rank_keys must be a non-empty list of provenance field names, got {list(rank_keys)!r}"
        )
    return list(rank_keys)


def retrieval_means(
    pairs: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any]]],
    ks: Sequence[int],
    rank_keys: Sequence[str],
) -> dict[str, float]:
    """``compute``: each value summed from 0.0 over the rows, then divided by their number."""
    names = ["Rprec"]
    for k in ks:
        names += [f"precision@{k}", f"answer_in_context@{k}"]
        if k > 1:
            names += [f"recall@{k}", f"success_rate@{k}"]
    totals = dict.fromkeys(names, 0.0)
    for _, gold, output in pairs:
        row = ranking_scores(gold, output, ks, rank_keys)
        for name in names:
            totals[name] += row[name]
    if pairs:
        for name in names:
            totals[name] /= len(pairs)
    return totals


def retrieval_scores(
    gold: Sequence[Mapping[str, Any]],
    guess: Sequence[Mapping[str, Any]],
    ks: Sequence[int] = DEFAULT_KS,
    rank_keys: Sequence[str] = ("wikipedia_id",),
) -> dict[str, float]:
    """What ``eval_retrieval.evaluate(gold, guess, ks, rank_keys)`` returns."""
    ks = check_ks(ks)
    rank_keys = check_rank_keys(rank_keys)
    pairs = pair_records(gold, guess, rank_keys, downstream=False)
    return retrieval_means(pairs, ks, rank_keys)


def downstream_scores(
    gold: Sequence[Mapping[str, Any]], guess: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """What ``eval_downstream.evaluate(gold, guess)`` returns: ``kilt``, ``downstream`` and
    ``retrieval`` (page-level R-precision and recall@5)."""
    pairs = pair_records(gold, guess, DOWNSTREAM_KEYS, downstream=True)
    totals: dict[str, Any] = dict.fromkeys(ANSWER_METRICS, 0)
    kilt_totals: dict[str, Any] = dict.fromkeys(ANSWER_METRICS, 0)
    for where, gold_record, output in pairs:
        answer = output["answer"].strip()
        if not answer:
            continue  # a blank answer scores 0, and its row still counts
        golds = answers.gold_answers(gold_record)
        if not golds:
            raise ValueError(
                f"{where}: field 'output': no gold answer to score the guess answer against "
                "(a non-blank 'answer' is needed; the official scorer crashes)"
            )
        scores = answer_scores(answer, golds)
        credited = page_r_precision(gold_record, output, DOWNSTREAM_KEYS) == 1
        for name in ANSWER_METRICS:
            totals[name] += scores[name]
            if credited:
                kilt_totals[name] += scores[name]
    if pairs:
        for name in ANSWER_METRICS:
            totals[name] /= len(pairs)
            kilt_totals[name] /= len(pairs)
    retrieval = retrieval_means(pairs, DOWNSTREAM_KS, DOWNSTREAM_KEYS)
    return {
        "kilt": {KILT_NAMES[name]: kilt_totals[name] for name in ANSWER_METRICS},
        "downstream": dict(totals),
        "retrieval": {"Rprec": retrieval["Rprec"], "recall@5": retrieval["recall@5"]},
    }
