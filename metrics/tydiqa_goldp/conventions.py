"""Other numbers printed under the TyDiQA-GoldP name, each as its own tool computes it.

* ``official``: TyDi QA's procedure (``scoring.py``): percentages, mean of the eight non-English
  languages.
* ``xtreme``: google-research/xtreme ``evaluate.py``: the same SQuAD 1.1 numbers per language,
  averaged over all nine languages **English included** (``avg_exact_match``, ``avg_f1``), and
  the headline ``avg_metric``, the mean of those two.
* ``lm_eval``: EleutherAI lm-evaluation-harness ``tydiqa_goldp_<xx>`` tasks: per language only,
  as fractions; the prediction stripped, Unicode punctuation removed too, articles removed only
  in English (a, an, the) and Arabic (a word-initial ال).

Plain Python, like ``scoring.py``; ``score`` is the entry point, with per-question ``details``.
"""

from __future__ import annotations

import re
import string
import unicodedata
from functools import lru_cache

from .scoring import (
    LANGUAGES,
    Question,
    Unit,
    average,
    by_language,
    normalize_answer,
    official_aggregate,
    per_language,
    question_units,
    token_f1,
)

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

CONVENTIONS = ("official", "xtreme", "lm_eval")
DEFAULT_CONVENTION = "official"

# Each convention's top-level keys (besides ``per_language``, which every one gives).
KEYS = {
    "official": ("exact_match", "f1"),
    "xtreme": ("avg_exact_match", "avg_f1", "avg_metric"),
    "lm_eval": (),
}


# What each convention's numbers are, said beside them (the command line, the Space, the card).
SAID = {
    "official": "TyDi QA's official procedure: exact_match and f1 are the mean of the 8 "
    "non-English languages (English excluded), in percent (0-100)",
    "xtreme": "XTREME's: avg_exact_match and avg_f1 are the mean of the 9 languages, English "
    "included, avg_metric the mean of the two, in percent (0-100)",
    "lm_eval": "lm-evaluation-harness's: per language only (no mean), as fractions (0-1)",
}


def said(convention: str) -> str:
    """The line naming ``convention``, its scale and the languages it averages."""
    return f"convention {convention}: {SAID[check_convention(convention)]}"


def check_convention(convention: object) -> str:
    if convention not in CONVENTIONS:
        raise ValueError(
            f"convention must be one of {', '.join(map(repr, CONVENTIONS))}, got {convention!r}"
        )
    return convention  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# XTREME

# XTREME's language list for tydiqa, the order its averages sum in.
XTREME_ORDER = ("english", "arabic", "bengali", "finnish", "indonesian", "korean", "russian")
XTREME_ORDER += ("swahili", "telugu")


def xtreme_aggregate(units: Iterable[Unit]) -> dict:
    """XTREME's tydiqa scores: each language's SQuAD 1.1 numbers, their plain means over the
    languages present (XTREME reads all nine files), and ``avg_metric`` = (EM + F1) / 2."""
    scores = per_language(units)
    present = [scores[language] for language in XTREME_ORDER if language in scores]
    exact_match = average([s["exact_match"] for s in present])
    f1 = average([s["f1"] for s in present])
    return {
        "avg_exact_match": exact_match,
        "avg_f1": f1,
        "avg_metric": None if f1 is None else (exact_match + f1) / 2,
        "per_language": {
            language: scores[language] for language in LANGUAGES if language in scores
        },
    }


# ---------------------------------------------------------------------------------------------
# lm-evaluation-harness

# The two-letter codes of its task names (``tydiqa_goldp_ar``...), which pick the article rule.
LM_EVAL_CODES = {
    "english": "en",
    "arabic": "ar",
    "bengali": "bn",
    "finnish": "fi",
    "indonesian": "id",
    "korean": "ko",
    "russian": "ru",
    "swahili": "sw",
    "telugu": "te",
}
_ASCII_PUNCTUATION = frozenset(string.punctuation)
_LM_ARTICLES = {"en": re.compile(r"\b(a|an|the)\b"), "ar": re.compile(r"(?:^|\s)ال")}


@lru_cache(maxsize=4096)
def _is_punctuation(ch: str) -> bool:
    """In lm-eval's ``PUNCT``: a Unicode punctuation character (category P*) or ASCII
    ``string.punctuation``. Symbols (S*) such as € ° © stay unless they are ASCII."""
    return ch in _ASCII_PUNCTUATION or unicodedata.category(ch).startswith("P")


def lm_eval_normalize(text: str, language: str) -> str:
    """lm-eval's ``normalize_answer``: lower-case, delete punctuation, remove the language's
    articles (English and Arabic only), collapse whitespace."""
    text = text.lower()
    text = "".join(ch for ch in text if not _is_punctuation(ch))
    articles = _LM_ARTICLES.get(LM_EVAL_CODES[language])
    if articles is not None:
        text = articles.sub(" ", text)
    return " ".join(text.split())


def lm_eval_question_scores(
    language: str, golds: Sequence[str], prediction: str | None
) -> tuple[bool, float | int]:
    """One question's (EM, F1), each the best over the gold answers, on the stripped generation.
    The harness generates for every question: a missing prediction counts as an empty one."""
    prediction = "" if prediction is None else prediction.strip()
    norm = lm_eval_normalize(prediction, language)
    golds_norm = [lm_eval_normalize(gold, language) for gold in golds]
    return (
        max([norm == gold for gold in golds_norm]),
        max([token_f1(norm.split(), gold.split()) for gold in golds_norm]),
    )


def lm_eval_units(questions: Iterable[Question]) -> list[Unit]:
    return [
        (language, *lm_eval_question_scores(language, golds, pred))
        for language, golds, pred in questions
    ]


def mean(values: list) -> float:
    """lm-eval's ``mean`` aggregation: ``sum / len``, added left to right as ``average`` adds,
    as the harness's ``sum()`` does up to Python 3.11 (from 3.12 its ``sum()`` compensates
    float rounding, to other last bits; the convention keeps the one order)."""
    return average(values)


def lm_eval_aggregate(units: Iterable[Unit]) -> dict:
    """Each language's task numbers: the mean EM and F1 over its questions, as fractions."""
    return {
        "per_language": {
            language: {
                "exact_match": mean([em for _, em, _ in rows]),
                "f1": mean([f1 for _, _, f1 in rows]),
            }
            for language, rows in by_language(units).items()
        }
    }


# ---------------------------------------------------------------------------------------------
# Entry points


def units(questions: Sequence[Question], convention: str = DEFAULT_CONVENTION) -> list[Unit]:
    """Each question's (language, EM, F1) under a convention: what is resampled, within its
    language, for confidence intervals."""
    if convention == "lm_eval":
        return lm_eval_units(questions)
    return question_units(questions)


AGGREGATE: dict[str, Callable[[Iterable[Unit]], dict]] = {
    "official": official_aggregate,
    "xtreme": xtreme_aggregate,
    "lm_eval": lm_eval_aggregate,
}


def aggregate(question_units: Sequence[Unit], convention: str = DEFAULT_CONVENTION) -> dict:
    """A convention's printed numbers from its question units."""
    return AGGREGATE[convention](question_units)


def score(
    questions: Sequence[Question], convention: str = DEFAULT_CONVENTION, details: bool = False
) -> dict:
    """A convention's numbers on a list of questions; with ``details``, why each question
    scored as it did."""
    scored = units(questions, convention)
    result = aggregate(scored, convention)
    if details:
        result["details"] = question_details(questions, scored, convention)
    return result


def _normalizer(convention: str) -> Callable[[str, str], str]:
    if convention == "lm_eval":
        return lambda text, language: lm_eval_normalize(text.strip(), language)
    return lambda text, language: normalize_answer(text)


def question_details(
    questions: Sequence[Question], scored: Sequence[Unit], convention: str
) -> list[dict]:
    """One record per question, in question order: the normalised prediction, the gold answer
    that gave the best score and its normalised form, EM and F1 (0-1), and why."""
    normalize = _normalizer(convention)
    out = []
    for (language, golds, prediction), (_, em, f1) in zip(questions, scored):
        text = prediction
        if text is None and convention == "lm_eval":
            text = ""  # scored as an empty generation
        norm = None if text is None else normalize(text, language)
        golds_norm = [normalize(gold, language) for gold in golds]
        best = _best_gold(norm, golds_norm)
        out.append(
            {
                "id": None,  # filled in by the caller, which knows the row ids
                "language": language,
                "prediction": prediction,
                "normalized_prediction": norm,
                "best_answer": golds[best],
                "normalized_answer": golds_norm[best],
                "exact_match": bool(em),
                "f1": float(f1),
                "why": _why(prediction, norm, golds_norm[best], bool(em), f1, convention),
            }
        )
    return out


def _best_gold(norm: str | None, golds_norm: list[str]) -> int:
    """The gold answer behind the scores: the first one equal to the prediction after
    normalisation, else the first with the best token F1."""
    if norm is None:
        return 0
    for i, gold in enumerate(golds_norm):
        if gold == norm:
            return i
    f1s = [token_f1(norm.split(), gold.split()) for gold in golds_norm]
    return f1s.index(max(f1s))


def _why(
    prediction: str | None, norm: str | None, gold: str, em: bool, f1: float, convention: str
) -> str:
    if prediction is None and convention != "lm_eval":
        return "no prediction for this id: it scores 0 and still counts"
    missing = "no prediction, scored as an empty generation; " if prediction is None else ""
    if em and not norm:
        return missing + "both normalise to the empty string: exact match, but no token for F1"
    if em:
        return missing + "exact match after normalisation"
    if f1 == 1:
        return missing + "the same tokens in another order or spacing: F1 1 but no exact match"
    if f1:
        return missing + "partial token overlap with the best answer"
    if not norm:
        return missing + "the prediction normalises to the empty string"
    return missing + "no token in common with any gold answer"
