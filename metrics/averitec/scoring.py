"""The AVeriTeC scores of checked rows (see ``rows``), as each edition's official scorer gives them.

Editions:

* ``2024`` (default): the FEVER-7 shared task's ``src/prediction/evaluate_veracity.py``
  (organisers' last version, 2024-04-12);
* ``2025``: the "old AVeriTeC score" of FEVER-8's ``averitec_evaluate.py`` (547e9f7): gold
  questions counted once each for the question-only score, evidence only as question-answer
  pairs (what its CSV ``evi`` column holds; no string evidence), the one threshold 0.25 and
  no label accuracy.

Per claim (one row), both compare the predicted evidence with the gold one by a Hungarian
assignment over the pairwise METEOR of the strings (``evidence_score``): the first ten
predicted strings against every gold one, the assigned scores summed in numpy's order and
divided by the number of gold strings. The dataset values are numpy means of the claims'
values, in numpy's order of additions (``float_sums``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .float_sums import column_mean, numpy_mean, numpy_sum
from .plain_values import shown
from .rows import check_ids, check_lengths, check_scorable, checked

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

EDITIONS = ("2024", "2025", "2023")
DEFAULT_EDITION = "2024"
DEFAULT_NLTK = "3.9.1"  # what FEVER-8 pins, and what gives the published 2024 numbers
# The nltk releases whose tokens can be asked for (``tokens`` builds them), oldest first.
RELEASES = ("3.9.1", "3.10.4")
MAX_QUESTIONS = 10
ALL_LEVELS = (0.1, 0.2, 0.25, 0.3, 0.4, 0.5)
LEVELS = {"2024": ALL_LEVELS, "2025": (0.25,), "2023": ALL_LEVELS}
# The thresholds of the scores by claim type each edition prints.
BY_TYPE_LEVELS = {"2024": (0.25,), "2025": (), "2023": (0.2, 0.3)}
VERDICTS = (
    "Supported",
    "Refuted",
    "Not Enough Evidence",
    "Conflicting Evidence/Cherrypicking",
)
NO_ANSWER = "No answer could be found."


def check_options(
    edition: Any = DEFAULT_EDITION, nltk: Any = DEFAULT_NLTK, ev2r: Any = None
) -> tuple[str, str]:
    if ev2r is not None:
        if edition != "2025":
            raise ValueError(
                f"ev2r (recorded Ev2R judge answers) is read by the 2025 edition only, not "
                f"{shown(edition)}"
            )
        from .ev2r import check_recording

        check_recording(ev2r)
    if edition not in EDITIONS:
        raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, got {shown(edition)}")
    if nltk not in RELEASES:
        raise ValueError(
            f"nltk must be one of {', '.join(RELEASES)} (whose tokens to reproduce), got {shown(nltk)}"
        )
    return edition, nltk


# --- the strings compared -------------------------------------------------------------------


def predicted_questions(row: dict, edition: str) -> list[str]:
    """The predicted questions of the question-only score, the first ten: those of the
    evidence pairs (2023: of the gold-like ``questions``) or, without them, the string
    evidence (2024, 2023)."""
    asked = row["questions"] if edition == "2023" else row["evidence"]
    if asked is None:
        questions = list(row["string_evidence"] or ()) if edition != "2025" else []
    else:
        questions = [pair["question"] for pair in asked]
    return questions[:MAX_QUESTIONS]


def predicted_strings(row: dict, edition: str) -> list[str]:
    """The predicted evidence, the first ten: ``question + " " + answer`` per pair (2023: the
    gold's strings of its gold-like ``questions``), then the string evidence (2024, 2023)."""
    if edition == "2023":
        strings = gold_strings(row) if row["questions"] is not None else []
    else:
        strings = [pair["question"] + " " + pair["answer"] for pair in row["evidence"] or ()]
    if edition != "2025":
        strings += row["string_evidence"] or ()
    return strings[:MAX_QUESTIONS]


def predicted_justification(row: dict) -> str:
    """2023: the justification, or without one the evidence strings joined by spaces."""
    if row["justification"] is not None:
        return row["justification"]
    return " ".join(predicted_strings(row, "2023"))


def gold_pairs(row: dict) -> list[tuple[str, str]]:
    """The gold evidence as (question, answer text) pairs: one per answer, a Boolean answer's
    text followed by ``". "`` and its explanation, and a question without answers paired with
    "No answer could be found." (the 2024 scorer's strings; the 2025 CSV holds these pairs)."""
    pairs = []
    for question in row["questions"]:
        for answer in question["answers"]:
            text = answer["answer"]
            if answer["answer_type"] == "Boolean":
                text += ". " + answer["boolean_explanation"]
            pairs.append((question["question"], text))
        if not question["answers"]:
            pairs.append((question["question"], NO_ANSWER))
    return pairs


def gold_questions(row: dict, edition: str) -> list[str]:
    """The gold questions: one per question (2024), or each text once, in order (2025, whose
    CSV holds a question once per answer)."""
    questions = [question["question"] for question in row["questions"]]
    if edition != "2025":
        return questions
    return list(dict.fromkeys(questions))


def gold_strings(row: dict) -> list[str]:
    """The gold evidence: ``question + " " + answer`` per gold pair."""
    return [question + " " + answer for question, answer in gold_pairs(row)]


# --- one claim --------------------------------------------------------------------------------


def hungarian_score(
    predicted: Sequence[str], gold: Sequence[str], metric: Callable[[str, str], float]
) -> float:
    """The official assignment utility: the METEOR matrix (predicted rows, gold columns),
    scipy's maximum assignment, its cells summed in row order as numpy sums them, times
    ``1 / len(gold)``. Needs a gold string (the official code divides by zero otherwise)."""
    reweight = 1 / float(len(gold))
    if not predicted:
        return 0.0 * reweight
    import numpy as np  # imported on use: the resamples of an interval never assign
    from scipy.optimize import linear_sum_assignment

    matrix = [[metric(p, g) for g in gold] for p in predicted]
    rows, columns = linear_sum_assignment(np.array(matrix, dtype=float), maximize=True)
    return numpy_sum([matrix[r][c] for r, c in zip(rows.tolist(), columns.tolist())]) * reweight


def claim_values(prediction: dict, reference: dict, edition: str, metric: Any) -> dict:
    """One claim's values: the question-only and evidence (question + answer) scores, whether
    the label is right and (2023) the justification's METEOR."""
    values = {
        "q_only": hungarian_score(
            predicted_questions(prediction, edition), gold_questions(reference, edition), metric
        ),
        "q_and_a": hungarian_score(
            predicted_strings(prediction, edition), gold_strings(reference), metric
        ),
        "label_correct": prediction["label"] == reference["label"],
    }
    if edition == "2023":
        values["justification"] = metric(
            predicted_justification(prediction), reference["justification"]
        )
    return values


# --- the dataset ---------------------------------------------------------------------------------


def f1_scores(gold: Sequence[str], predicted: Sequence[str]) -> dict[str, float]:
    """scikit-learn's ``f1_score(gold, predicted, labels=VERDICTS)`` per verdict (``2 tp /
    (gold + predicted)``, 0.0 for a verdict neither side has), and their mean."""
    f1 = {}
    for verdict in VERDICTS:
        tp = sum(1 for g, p in zip(gold, predicted) if g == verdict and p == verdict)
        denominator = sum(1 for g in gold if g == verdict) + sum(
            1 for p in predicted if p == verdict
        )
        f1[verdict] = 2 * tp / denominator if denominator else 0.0
    f1["macro"] = numpy_mean(list(f1.values()))
    return f1


def level_name(level: float) -> str:
    return f"averitec@{level}"


def by_type_name(level: float, claim_type: str) -> str:
    return f"by_type@{level}[{claim_type}]"


def result_names(edition: str, claim_types: Sequence[str] = ()) -> list[str]:
    """The keys of an edition's result, in order (the scores by claim type for ``claim_types``)."""
    names = ["q_only", "q_and_a"]
    if edition != "2025":
        names += ["accuracy", "macro_f1", *(f"f1[{v}]" for v in VERDICTS)]
    if edition == "2023":
        names.append("justification")
    for level in LEVELS[edition]:
        names.append(level_name(level))
        if edition == "2023":
            names.append(f"justification@{level}")
    for level in BY_TYPE_LEVELS[edition]:
        names += [by_type_name(level, t) for t in claim_types]
    return names


def by_type(values: Sequence[dict], references: Sequence[dict], level: float) -> dict:
    """Each claim type's list of evidence scores, zeroed at or below ``level``, as the official
    loop builds it: claim after claim, a score added once for each time its claim lists the type
    (types in order of first appearance)."""
    found: dict[str, list[float]] = {}
    for value, reference in zip(values, references):
        score = value["q_and_a"] if value["q_and_a"] > level else 0.0
        for claim_type in reference["claim_types"] or ():
            found.setdefault(claim_type, []).append(score)
    return found


def dataset_scores(values: Sequence[dict], references: Sequence[dict], edition: str) -> dict:
    """The official numbers of the claims' values, in the official order of operations: numpy
    means of lists (pairwise sums), the AVeriTeC scores as the mean of each column of a
    claims-by-thresholds array (sums down the column, claim after claim)."""
    n = len(values)
    scores: dict[str, float] = {
        "q_only": numpy_mean([v["q_only"] for v in values]),
        "q_and_a": numpy_mean([v["q_and_a"] for v in values]),
    }
    if edition != "2025":
        scores["accuracy"] = sum(1 for v in values if v["label_correct"]) / n
        f1 = f1_scores([r["label"] for r in references], [v["label"] for v in values])
        scores["macro_f1"] = f1["macro"]
        scores.update({f"f1[{verdict}]": f1[verdict] for verdict in VERDICTS})
    if edition == "2023":
        scores["justification"] = numpy_mean([v["justification"] for v in values])
    for level in LEVELS[edition]:
        right = sum(1 for v in values if v["q_and_a"] > level and v["label_correct"])
        scores[level_name(level)] = right / n
        if edition == "2023":
            scores[f"justification@{level}"] = column_mean(
                [v["justification"] if v["q_and_a"] > level else 0.0 for v in values]
            )
    for level in BY_TYPE_LEVELS[edition]:
        for claim_type, kept in by_type(values, references, level).items():
            scores[by_type_name(level, claim_type)] = numpy_mean(kept)
    return scores


def score_rows(
    predictions: Any,
    references: Any,
    edition: str = DEFAULT_EDITION,
    nltk: str = DEFAULT_NLTK,
    details: bool = False,
    ev2r: Any = None,
) -> dict:
    """The scores of rows as ``compute()`` takes them: checked, then scored."""
    check_options(edition, nltk, ev2r)
    preds = checked(predictions, "predictions")
    refs = checked(references, "references")
    check_lengths(len(preds), len(refs))
    check_ids(preds, refs)
    return score(preds, refs, edition, nltk, details, ev2r)


def score(
    predictions: Sequence[dict],
    references: Sequence[dict],
    edition: str = DEFAULT_EDITION,
    nltk: str = DEFAULT_NLTK,
    details: bool = False,
    ev2r: Any = None,
) -> dict:
    """The scores of checked, paired rows (see ``rows.checked``); with ``ev2r`` (2025), the Ev2R
    numbers of the recorded judge answers too (see ``ev2r``)."""
    edition, nltk = check_options(edition, nltk, ev2r)
    if not references:
        raise ValueError("references is empty: the official scores are means over the claims")
    check_scorable(predictions, references, edition)
    from .meteor import PairwiseMeteor  # imported on use: nltk and WordNet load in seconds

    metric = PairwiseMeteor(nltk)
    values = []
    for prediction, reference in zip(predictions, references):
        value = claim_values(prediction, reference, edition, metric)
        value["label"] = prediction["label"]
        values.append(value)
    result: dict[str, Any] = dataset_scores(values, references, edition)
    if ev2r is not None:
        from .ev2r import scores as ev2r_scores

        result.update(ev2r_scores(ev2r, [v["label_correct"] for v in values]))
    if details:
        result["details"] = [
            {
                "id": reference["id"],
                "label": reference["label"],
                "predicted_label": value["label"],
                "label_correct": value["label_correct"],
                "q_only": value["q_only"],
                "q_and_a": value["q_and_a"],
                **({"justification": value["justification"]} if edition == "2023" else {}),
            }
            for value, reference in zip(values, references)
        ]
    return result
