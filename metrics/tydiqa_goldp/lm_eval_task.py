"""The official TyDiQA-GoldP numbers inside EleutherAI's lm-evaluation-harness.

The task configs in ``lm_eval_tasks/`` (one task per language, ``taskeval_tydiqa_goldp_<xx>``,
and the group ``taskeval_tydiqa_goldp`` of the eight non-English ones) call the functions below
through the harness's own extension points: ``process_docs`` keeps one language's questions,
``process_results`` scores one generation with the SQuAD 1.1 rules (``scoring.question_scores``),
and the metrics' ``aggregation`` is the per-language percentage ``evaluate-v1.1.py`` prints
(``scoring.percent``). The group then averages the eight languages as the official procedure
does (``scoring.average``: left to right, from the int 0), on every Python.

``inputs_from_samples`` goes the other way: the questions and generations a harness run logged
(``--log_samples``), for this task or for the harness's own ``tydiqa_goldp_<xx>``, as
``compute()`` inputs, so that ``taskeval compare`` pairs two runs by question.

Plain Python: neither the harness nor ``datasets`` is imported here.
"""

from __future__ import annotations

from .conventions import LM_EVAL_CODES as CODES
from .plain_values import shown
from .scoring import LANGUAGES, language_of, percent, question_scores

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any

# Each metric the tasks report, named apart from the harness's own ``exact_match`` and ``f1``.
EXACT_MATCH, F1 = "taskeval_exact_match", "taskeval_f1"
# The group's name; each language's task adds the harness's two-letter code (``CODES``).
GROUP = "taskeval_tydiqa_goldp"


class InOrder(float):
    """A per-language percentage that the harness's group mean adds left to right.

    The group mean is ``sum([value * 1 for each task]) / number of tasks``; from Python 3.12,
    ``sum()`` compensates the rounding of plain floats, which gives other last bits than the
    official mean (``scoring.average``). Products and sums of these numbers stay of this type, so
    ``sum()`` adds them one by one, as ``average`` does; the quotient is a plain float. As a
    number it is its float value (printed, compared and written to JSON as one)."""

    __slots__ = ()

    def __mul__(self, other: Any) -> Any:
        product = float(self) * other
        return InOrder(product) if isinstance(product, float) else product

    __rmul__ = __mul__

    def __add__(self, other: Any) -> Any:
        total = float(self) + other
        return InOrder(total) if isinstance(total, float) else total

    __radd__ = __add__


def docs_in(dataset: Any, language: str) -> Any:
    """The rows of the Hub ``tydiqa`` ``secondary_task`` split whose id is of ``language``, as
    the official procedure splits predictions (the text before the first ``-``)."""
    return dataset.filter(lambda doc: language_of(doc["id"]) == language)


def gold_texts(doc: Mapping[str, Any], where: str = "doc") -> list[str]:
    """A question's gold answer texts: ``answers.text`` of a Hub row, or the list the harness's
    own ``tydiqa_goldp_<xx>`` tasks make of it."""
    answers = doc.get("answers") if isinstance(doc, dict) else None
    if isinstance(answers, dict):
        answers = answers.get("text")
    if (
        not isinstance(answers, list)
        or not answers
        or not all(isinstance(text, str) for text in answers)
    ):
        raise ValueError(
            f"{where}: expected 'answers' with at least one gold answer text (a Hub "
            f"secondary_task row), got {shown(doc.get('answers') if isinstance(doc, dict) else doc, 80)}"
        )
    return answers


def question_result(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, Any]:
    """One question's EM and F1 under the SQuAD 1.1 rules, the best over its gold answers; the
    generation is scored as it is (the normalisation drops its spaces anyway)."""
    exact_match, f1 = question_scores(gold_texts(doc), results[0])
    return {EXACT_MATCH: exact_match, F1: f1}


def language_percent(values: Iterable[bool | int | float]) -> InOrder:
    """A language's exact match or F1 as ``evaluate-v1.1.py`` prints it (``scoring.percent``)."""
    return InOrder(percent(values))


# ---------------------------------------------------------------------------------------------
# Logged samples (``--log_samples``) as compute() inputs


def task_language(task: str) -> str | None:
    """The language of a harness task this metric reads, or None for another task: taskeval's
    ``taskeval_tydiqa_goldp_<xx>`` or the harness's own ``tydiqa_goldp_<xx>``."""
    for language, code in CODES.items():
        if task in (f"{GROUP}_{code}", f"tydiqa_goldp_{code}"):
            return language
    return None


def inputs_from_samples(samples: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list]:
    """One run's logged samples, ``{task: [sample, ...]}`` for the tasks ``task_language`` knows
    (one family: taskeval's, or the harness's own), → ``compute()`` inputs.

    Each sample's ``doc`` is the question (its ``id`` and gold answers) and its
    ``filtered_resps[0]`` the generation. The rows come language by language in the official
    order, each language's questions in the order the harness numbered them (``doc_id``, the
    order of the split), so the per-language sums run in the gold file's order."""
    families = {task.startswith("taskeval_") for task in samples}
    if len(families) > 1:
        raise ValueError(
            f"the run logged both taskeval's {GROUP}_<xx> tasks and the harness's own "
            f"tydiqa_goldp_<xx> on the same questions: give the samples of one of them"
        )
    by_language: dict[str, list] = {}
    for task, rows in samples.items():
        language = task_language(task)
        if language is None:
            raise ValueError(f"{task}: not a TyDiQA-GoldP task of the harness")
        if language in by_language:
            raise ValueError(f"{task}: a second task for {language}")
        by_language[language] = sorted(
            (_question(task, sample, language) for sample in rows), key=lambda q: q[0]
        )
    predictions, references = [], []
    for language in LANGUAGES:
        seen: set[int] = set()
        for doc_id, example_id, golds, text in by_language.get(language, ()):
            if doc_id in seen:
                raise ValueError(
                    f"doc_id {doc_id} ({example_id}) is logged twice: give one sample per "
                    "question (one filter, one repeat)"
                )
            seen.add(doc_id)
            predictions.append({"id": example_id, "prediction_text": text})
            references.append({"id": example_id, "answers": {"text": golds}})
    return {"predictions": predictions, "references": references}


def _question(task: str, sample: Any, language: str) -> tuple[int, str, list[str], str]:
    """``(doc_id, question id, gold texts, generation)`` of one logged sample."""
    where = f"{task}: sample"
    if not isinstance(sample, dict):
        raise ValueError(f"{where}: expected a JSON object, got {shown(sample, 60)}")
    doc_id = sample.get("doc_id")
    where = f"{task}: sample doc_id {shown(doc_id)}"
    if type(doc_id) is not int:
        raise ValueError(f"{where}: expected an int 'doc_id'")
    doc = sample.get("doc")
    example_id = doc.get("id") if isinstance(doc, dict) else None
    if not isinstance(example_id, str) or language_of(example_id) != language:
        raise ValueError(
            f"{where}: expected a doc with an 'id' of {language} (as {language}-…), got "
            f"{shown(example_id, 60)}"
        )
    where = f"{where} (id {example_id})"
    responses = sample.get("filtered_resps")
    if not isinstance(responses, list) or not responses or not isinstance(responses[0], str):
        raise ValueError(
            f"{where}: expected 'filtered_resps' holding the generation (a list whose first "
            f"item is a string), got {shown(responses, 60)}"
        )
    return doc_id, example_id, gold_texts(doc, where), responses[0]
