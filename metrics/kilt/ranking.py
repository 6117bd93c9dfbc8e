"""KILT's retrieval rules (``eval_retrieval.py``): page ids, R-precision, the evidence-set rank.

Each function is one official rule, named after its official counterpart:

* ``provenance_id``: the values of the rank keys, each ``str(value).strip()``, joined by "+"
  (so the int ``1`` and the string ``" 1"`` are one page; ``("1+2", "3")`` and ``("1", "2+3")``
  one id too);
* ``output_ids`` (``_get_ids_list``): one list of distinct ids per output, in order; an output
  without ``provenance`` gives an empty list;
* ``r_precision`` (``rprecision`` and ``_computeRprec``): for each gold output with R distinct
  ids, the share of the first R guessed ids among them; the highest over the outputs (the int
  ``0`` for an output with no ids);
* ``evidence_rank`` (``get_rank``): each distinct gold evidence set (the id set of one output
  that has ``provenance``, an empty list included) is one unit of the rank: it stands at the
  place of its last guessed page (``True``); a guessed page outside every set is ``False``;
* ``precision_at_k``, ``recall_at_k``, ``success_at_k`` and ``answer_in_context`` (the guess's
  first k provenance texts that contain a normalised gold answer; an answer normalising to ""
  is in every text).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .answers import normalize_answer


def provenance_id(provenance: Mapping[str, Any], rank_keys: Sequence[str]) -> str:
    return "+".join(str(provenance[key]).strip() for key in rank_keys)


def output_ids(record: Mapping[str, Any], rank_keys: Sequence[str]) -> list[list[str]]:
    """For each output of ``record``, its distinct provenance ids in order."""
    lists = []
    for output in record["output"]:
        ids: list[str] = []
        for provenance in output.get("provenance", ()):
            page = provenance_id(provenance, rank_keys)
            if page not in ids:
                ids.append(page)
        lists.append(ids)
    return lists


def r_precision(guess_ids: Sequence[str], gold_id_lists: Sequence[Sequence[str]]) -> int | float:
    """The best R-precision of the guessed ids over the gold outputs (at least one)."""
    best: int | float | None = None
    for gold_ids in gold_id_lists:
        size = len(gold_ids)
        hits = sum(1 for page in guess_ids[:size] if page in gold_ids)
        value = hits / size if size > 0 else 0
        if best is None or value > best:
            best = value
    if best is None:
        raise ValueError("no gold output to compare with")
    return best


def evidence_sets(gold: Mapping[str, Any], rank_keys: Sequence[str]) -> list[set[str]]:
    """The distinct id sets of the gold outputs that have ``provenance``, first seen first."""
    sets: list[set[str]] = []
    for output in gold["output"]:
        if "provenance" in output:
            pages = {provenance_id(p, rank_keys) for p in output["provenance"]}
            if pages not in sets:
                sets.append(pages)
    return sets


def evidence_rank(guess_ids: Sequence[str], sets: Sequence[set[str]]) -> list[bool | int]:
    """The rank of the guess in evidence-set units: ``True`` where a set is complete, ``False``
    for a page in no set, a set's number while it is partly retrieved (moved to its last page).
    A page in several sets advances each of them, one place in the rank for each."""
    remaining = [set(pages) for pages in sets]
    rank: list[Any] = []
    for page in guess_ids:
        found = False
        for number, pages in enumerate(remaining):
            if page in pages:
                found = True
                marker = ("set", number)
                if marker in rank:
                    rank.remove(marker)
                pages.discard(page)
                rank.append(True if not pages else marker)
        if not found:
            rank.append(False)
    return rank


def precision_at_k(rank: Sequence[Any], k: int) -> float:
    return _complete(rank, k) / k


def recall_at_k(rank: Sequence[Any], sets: int, k: int) -> float:
    return _complete(rank, k) / sets


def success_at_k(rank: Sequence[Any], k: int) -> int:
    return 1 if _complete(rank, k) else 0


def _complete(rank: Sequence[Any], k: int) -> int:
    return sum(1 for place in rank[:k] if place is True)


def normalised_texts(guess_provenance: Sequence[Mapping[str, Any]], k: int) -> Iterator[str]:
    """The normalised ``text`` of each of the first k guessed passages that has one."""
    for provenance in guess_provenance[:k]:
        if "text" in provenance:
            yield normalize_answer(provenance["text"])


def in_context(guess_provenance: Sequence[Mapping[str, Any]], k: int, *kinds: set[str]) -> int:
    """1 when one of the first k guessed passage texts holds, normalised, a normalised member of
    every set of ``kinds`` (gold answers, gold titles), else 0."""
    needles = [[normalize_answer(item) for item in kind] for kind in kinds]
    for text in normalised_texts(guess_provenance, k):
        if all(any(needle in text for needle in kind) for kind in needles):
            return 1
    return 0


def answer_in_context(
    guess_provenance: Sequence[Mapping[str, Any]], answers: set[str], k: int
) -> int:
    """``_answer_in_context_at_k``: a gold answer in one of the first k guessed texts."""
    return in_context(guess_provenance, k, answers)


# The entity metrics of KILT's later commit (2664322; eval_retrieval.py from 6fd6b0c on).


def gold_titles(gold: Mapping[str, Any]) -> set[str]:
    """``get_gold_titles``: the stripped, non-blank titles of the gold passages."""
    titles: set[str] = set()
    for output in gold["output"]:
        for provenance in output.get("provenance", ()):
            title = provenance.get("title")
            if title and title.strip():
                titles.add(title.strip())
    return titles


def entity_in_input(question: str, titles: set[str]) -> int:
    """``_entity_in_input``: 1 when a normalised gold title is inside the normalised input."""
    text = normalize_answer(question)
    return 1 if any(normalize_answer(title) in text for title in titles) else 0


def entity_in_context(
    guess_provenance: Sequence[Mapping[str, Any]], titles: set[str], k: int
) -> int:
    """``_ent_in_context_at_k``: a gold title in one of the first k guessed texts."""
    return in_context(guess_provenance, k, titles)


def answer_and_entity_in_context(
    guess_provenance: Sequence[Mapping[str, Any]], answers: set[str], titles: set[str], k: int
) -> int:
    """``_answer_and_ent_in_context_at_k``: a gold answer and a gold title in one of the first k
    guessed texts."""
    return in_context(guess_provenance, k, answers, titles)
