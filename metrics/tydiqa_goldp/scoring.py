"""The official TyDiQA-GoldP rule: the SQuAD 1.1 script run on each language, then the mean of the
non-English languages.

TyDi QA's ``gold_passage_baseline/`` splits one SQuAD-format prediction file by the language
prefix of each id (``split_predictions.py``), scores each language with the standard SQuAD 1.1
script (``evaluate-v1.1.py``), and says to average all non-English languages. Every function
below is one rule of that procedure, in the order and with the arithmetic of the original code,
so that each number is the one it prints. Plain Python: no evaluate or datasets import.
"""

from __future__ import annotations

import re
import string
from collections import Counter

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

# The languages split_predictions.py accepts, in the order eval_gold_passage_baseline.sh scores
# them. Thai and Japanese are not part of the Gold Passage task.
LANGUAGES = (
    "english",
    "arabic",
    "bengali",
    "finnish",
    "indonesian",
    "swahili",
    "korean",
    "russian",
    "telugu",
)
# English is scored and printed but left out of the aggregate.
AVERAGED = LANGUAGES[1:]

# A question as the scoring functions take it: (language, gold answer texts, predicted text or
# None when the prediction file has no entry for the question's id).
Question = tuple[str, "Sequence[str]", "str | None"]


def language_of(example_id: str) -> str | None:
    """The language of an id as ``split_predictions.py`` reads it (the text before the first
    ``-``), or None where that script raises (no ``-``, or not one of ``LANGUAGES``)."""
    cols = example_id.split("-")
    if len(cols) < 2:
        return None
    return cols[0] if cols[0] in LANGUAGES else None


_PUNCTUATION = frozenset(string.punctuation)  # the 32 ASCII characters only
_ARTICLES = re.compile(r"\b(a|an|the)\b")  # English articles, removed in every language


def normalize_answer(text: str) -> str:
    """SQuAD 1.1: lower-case, delete ASCII punctuation, replace English articles by a space,
    collapse whitespace. Unicode punctuation (« » “ ” । ، —) is kept."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def exact_match_score(prediction: str, gold: str) -> bool:
    """SQuAD 1.1 exact match: the two normalised strings are equal (a bool)."""
    return normalize_answer(prediction) == normalize_answer(gold)


def f1_score(prediction: str, gold: str) -> float | int:
    """SQuAD 1.1 token F1 over whitespace tokens of the normalised strings, counting repeated
    tokens (a multiset); the int 0 when no token is shared (so also when either side is empty)."""
    return token_f1(normalize_answer(prediction).split(), normalize_answer(gold).split())


def token_f1(prediction_tokens: list[str], gold_tokens: list[str]) -> float | int:
    """The F1 arithmetic of the SQuAD 1.1 script on two token lists."""
    common = Counter(prediction_tokens) & Counter(gold_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(gold_tokens)
    return (2 * precision * recall) / (precision + recall)


def max_over_golds(
    metric: Callable[[str, str], float | int | bool], prediction: str, golds: Iterable[str]
) -> float | int | bool:
    """The best score over the gold answers (Python's ``max``: the first of equal values)."""
    return max([metric(prediction, gold) for gold in golds])


def question_scores(golds: Sequence[str], prediction: str | None) -> tuple[bool | int, float | int]:
    """One question's (EM, F1): each the best over its gold answers. Without a prediction the
    script adds nothing for the question but still counts it: (0, 0) adds the same."""
    if prediction is None:
        return 0, 0
    return (
        max_over_golds(exact_match_score, prediction, golds),
        max_over_golds(f1_score, prediction, golds),
    )


def percent(values: Iterable[bool | int | float]) -> float:
    """One of the numbers ``evaluate-v1.1.py`` prints for a language: its questions' values
    summed in gold order from the int 0 (``+=``, left to right), times 100.0, over their count."""
    total = count = 0
    for value in values:
        count += 1
        total += value
    return 100.0 * total / count


def language_scores(scores: Iterable[tuple[bool | int, float | int]]) -> dict[str, float]:
    """What ``evaluate-v1.1.py`` prints for one language: the sums of its questions' EM and F1,
    in gold order, over the number of questions, as percentages."""
    scores = list(scores)
    return {
        "exact_match": percent([em for em, _ in scores]),
        "f1": percent([f1 for _, f1 in scores]),
    }


# One question's statistics for aggregation (and resampling): (language, EM, F1).
Unit = tuple[str, "bool | int", "float | int"]


def question_units(questions: Iterable[Question]) -> list[Unit]:
    """Each question's language and (EM, F1), in question order."""
    return [(language, *question_scores(golds, pred)) for language, golds, pred in questions]


def by_language(units: Iterable[Unit]) -> dict[str, list[Unit]]:
    """Units grouped per language, as the per-language files hold them: languages in the order
    they are scored (``LANGUAGES``), questions in their own order; absent languages left out."""
    groups: dict[str, list[Unit]] = {language: [] for language in LANGUAGES}
    for unit in units:
        groups[unit[0]].append(unit)
    return {language: rows for language, rows in groups.items() if rows}


def per_language(units: Iterable[Unit]) -> dict[str, dict[str, float]]:
    """Each language's two printed numbers, English included."""
    return {
        language: language_scores((em, f1) for _, em, f1 in rows)
        for language, rows in by_language(units).items()
    }


def average(values: Sequence[float]) -> float | None:
    """The unweighted mean the README asks for (``sum / count``, in the scored order); None when
    there is nothing to average. The sum is ``sum()``'s of CPython up to 3.11, left to right
    from int 0: 3.12's ``sum()`` compensates float rounding, to other last bits."""
    if not values:
        return None
    total = 0
    for value in values:
        total = total + value
    return total / len(values)


def official_aggregate(units: Iterable[Unit]) -> dict:
    """``exact_match`` and ``f1``: the means over the non-English languages present (all eight on
    the dev set) of each language's numbers; and ``per_language``, English included."""
    scores = per_language(units)
    averaged = [scores[language] for language in AVERAGED if language in scores]
    return {
        "exact_match": average([s["exact_match"] for s in averaged]),
        "f1": average([s["f1"] for s in averaged]),
        "per_language": scores,
    }


def official_scores(questions: Iterable[Question]) -> dict:
    """The whole official procedure on a list of questions."""
    return official_aggregate(question_units(questions))
