"""``scifact_sentence``: the SciFact leaderboard evaluator, sentence level, as an ``evaluate`` metric."""

import evaluate

# evaluate's loader copies only the modules a script imports itself: all seven are named here.
from .checked_metric import CheckedRows
from .details import sentence_details
from .fast_counts import official_counts
from .plain_values import as_int
from .rows import check_pairs
from .scifact_metric import ScifactRows, metric_info
from .scoring import count, sentence_level, sentence_scores

_DESCRIPTION = """\
The sentence-level metrics of the SciFact leaderboard (allenai/scifact-evaluator `evaluator/eval.py`,
run with `--verbose`), bit-identical to it: micro precision, recall and F1 of the predicted
rationale sentences under Selection-Only (the sentence's whole gold rationale is predicted for
that abstract) and Selection+Label (also, the abstract's predicted label is right). Every
predicted sentence counts, duplicates too; nothing is cut.
`scifact_abstract` takes the same inputs: `evaluate.combine` of both gives the leaderboard's 12
numbers.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one dict per claim:
        `id` (int): the claim id;
        `evidence` (list): one entry per predicted abstract (omit abstracts predicted NOT ENOUGH
            INFO), each `{"doc_id": str, "label": "SUPPORT" | "CONTRADICT", "sentences": [int]}`.
            A repeated doc_id keeps its last entry.
    references: one dict per claim, same claim ids in the same order:
        `id` (int): the claim id;
        `evidence` (list): one entry per gold rationale, each `{"doc_id": str, "label": str,
            "sentences": [int]}`; an abstract with two rationales appears twice; empty for a
            NOT ENOUGH INFO claim.
    Doc ids are strings compared verbatim ("01200" is not "1200"), as on the leaderboard.
    details (bool, default False): also return `details`, for error analysis: one record per
        slot of each predicted sentence list (duplicates too) and per gold rationale sentence not
        predicted: `row`, `claim_id`, `doc_id`, `sentence`, `position` (its slot in the predicted
        list, None if not predicted), `gold_label` and `predicted_label` (None when absent),
        `predicted` (counted as retrieved), `relevant` (the one record standing for a gold
        sentence), `selected` and `label_correct` (counted as correct at Selection-Only and
        Selection+Label), `outcome` (correct, wrong label, incomplete rationale, duplicate,
        false positive, missed) and `why`.
Returns:
    sentence_selection_precision, sentence_selection_recall, sentence_selection_f1:
        correct sentences (in a gold rationale of that abstract, whole rationale predicted) over
        predicted sentences (list lengths), over gold rationale sentences, and F1 = 2PR/(P+R)
        from those floats;
    sentence_label_precision, sentence_label_recall, sentence_label_f1:
        the same, counting correct sentences only where the abstract's label is right.
        A zero denominator gives 0.0.
Examples:
    The worked example of the SciFact evaluation docs (claim 52), with abstract 16 predicted
    CONTRADICT as the evaluator requires. Sentence 1 earns nothing: its rationale is {0, 1}.

    >>> import evaluate
    >>> scifact_sentence = evaluate.load("scifact_sentence")
    >>> references = [{"id": 52, "evidence": [
    ...     {"doc_id": "11", "label": "SUPPORT", "sentences": [0, 1]},
    ...     {"doc_id": "11", "label": "SUPPORT", "sentences": [11]},
    ...     {"doc_id": "15", "label": "SUPPORT", "sentences": [4]}]}]
    >>> predictions = [{"id": 52, "evidence": [
    ...     {"doc_id": "11", "label": "SUPPORT", "sentences": [1, 11, 13]},
    ...     {"doc_id": "16", "label": "CONTRADICT", "sentences": [18, 20]}]}]
    >>> print(scifact_sentence.compute(predictions=predictions, references=references))
    {'sentence_selection_precision': 0.2, 'sentence_selection_recall': 0.25, \
'sentence_selection_f1': 0.22222222222222224, 'sentence_label_precision': 0.2, \
'sentence_label_recall': 0.25, 'sentence_label_f1': 0.22222222222222224}

    With `details=True`, each predicted slot and each missed gold sentence says how it was
    counted:

    >>> result = scifact_sentence.compute(
    ...     predictions=predictions, references=references, details=True)
    >>> for d in result["details"]:
    ...     print(d["doc_id"], d["sentence"], d["outcome"], "|", d["why"])
    11 1 incomplete rationale | its gold rationale [0, 1] lacks [0]
    11 11 correct | its whole gold rationale [11] is predicted
    11 13 false positive | in no gold rationale of this abstract
    11 0 missed | not among the predicted sentences of its abstract
    16 18 false positive | the abstract is not gold evidence for this claim
    16 20 false positive | the abstract is not gold evidence for this claim
    15 4 missed | its abstract is not predicted

    Unlike Label+Rationale, the sentence level reads the whole list: the gold sentence listed 4th
    counts, and so does every duplicate.

    >>> gold = [{"id": 8, "evidence": [{"doc_id": "800", "label": "SUPPORT", "sentences": [9]}]}]
    >>> for sentences in ([0, 1, 2, 9], [9, 9]):
    ...     result = scifact_sentence.compute(
    ...         predictions=[{"id": 8, "evidence": [
    ...             {"doc_id": "800", "label": "SUPPORT", "sentences": sentences}]}],
    ...         references=gold)
    ...     print(result["sentence_selection_precision"], result["sentence_selection_recall"])
    0.25 1.0
    0.5 1.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ScifactSentence(ScifactRows, evaluate.Metric):
    def _info(self):
        return metric_info(_DESCRIPTION, _KWARGS_DESCRIPTION)

    def _score_rows(self, predictions, references, **options):
        return sentence_level(predictions, references, **options)

    def _compute(self, predictions, references, details=False):
        result = sentence_scores(count(predictions, references))
        if details:
            result["details"] = sentence_details(predictions, references)
        return result
