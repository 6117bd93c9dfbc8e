"""KILT's answer rules (``eval_downstream.py``): normalisation, accuracy, EM, F1, ROUGE-L.

Each function is one official rule, named after its official counterpart:

* ``normalize_answer``: lower case, ASCII punctuation dropped, then the words "a", "an", "the"
  (between regex word boundaries), then runs of whitespace made single spaces and the ends cut;
* ``gold_answers`` (``get_gold_answers``): the set of a gold record's non-blank answers, stripped;
* ``accuracy`` (strict: the stripped answer is one of them), ``exact_match`` (normalised
  equality, a ``bool``), ``token_f1`` (``_f1_score``: the int ``0`` when no token is shared) and
  ``rouge_l_f`` (``_rougel_score``: rouge 1.0.1's ROUGE-L F, ``0.0`` where rouge raises
  ``ValueError``, as for a text of dots alone);
* ``best_over_golds`` (``_metric_max_over_ground_truths``): the first highest score.

Quirks kept: an answer that normalises to nothing ("the", "?!") equals every other such answer
under EM; ROUGE-L sees the raw text (no normalisation), split into sentences at each ".".
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: str) -> str:
    """The official normal form of an answer (used by EM, F1 and answer-in-context)."""
    lowered = text.lower()
    kept = "".join(ch for ch in lowered if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", kept).split())


def gold_answers(gold: Mapping[str, Any]) -> set[str]:
    """The stripped, non-blank answers of a gold record's outputs (a set: repeats count once)."""
    found: set[str] = set()
    for output in gold["output"]:
        answer = output.get("answer")
        if answer and answer.strip():
            found.add(answer.strip())
    return found


def accuracy(answer: str, golds: set[str]) -> int:
    """1 when the (stripped) answer is one of the gold answers exactly, else 0."""
    return 1 if answer in golds else 0


def exact_match(prediction: str, gold: str) -> bool:
    return normalize_answer(prediction) == normalize_answer(gold)


def token_f1(prediction: str, gold: str) -> int | float:
    """Token F1 of the normalised texts; the int 0 when they share no token."""
    predicted = normalize_answer(prediction).split()
    expected = normalize_answer(gold).split()
    same = sum((Counter(predicted) & Counter(expected)).values())
    if same == 0:
        return 0
    precision = 1.0 * same / len(predicted)
    recall = 1.0 * same / len(expected)
    return (2 * precision * recall) / (precision + recall)


def rouge_l_f(prediction: str, gold: str) -> float:
    """rouge 1.0.1's ROUGE-L F of the raw texts; 0.0 where rouge refuses them (``ValueError``)."""
    from .rouge_l import rouge_l

    try:
        return rouge_l(prediction, gold)
    except ValueError:
        return 0.0


def best_over_golds(score: Callable[[str, str], Any], prediction: str, golds: Iterable[str]) -> Any:
    """The highest of ``score(prediction, gold)`` over the golds (the first of equal ones).

    ``golds`` must not be empty: the official ``max`` raises on an empty sequence."""
    best: Any = None
    for gold in golds:
        value = score(prediction, gold)
        if best is None or value > best:
            best = value
    if best is None:
        raise ValueError("no gold answer to compare with")
    return best
