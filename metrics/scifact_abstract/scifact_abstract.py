"""``scifact_abstract``: the SciFact leaderboard evaluator, abstract level, as an ``evaluate`` metric."""

import evaluate

# evaluate's loader copies only the modules a script imports itself: all seven are named here.
from .checked_metric import CheckedRows
from .details import abstract_details
from .fast_counts import official_counts
from .plain_values import as_int
from .rows import check_pairs
from .scifact_metric import ScifactRows, metric_info
from .scoring import abstract_level, abstract_scores, count

_DESCRIPTION = """\
The abstract-level metrics of the SciFact leaderboard (allenai/scifact-evaluator `evaluator/eval.py`,
run with `--verbose`), bit-identical to it: micro precision, recall and F1 of the predicted
abstracts under Label-Only (the abstract is a gold evidence abstract of the claim and its label is
right) and Label+Rationale (also, the first k predicted sentences in the order given hold a whole
gold rationale; k = max(3, size of the abstract's smallest gold rationale)).
`scifact_sentence` takes the same inputs: `evaluate.combine` of both gives the leaderboard's 12
numbers.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one dict per claim:
        `id` (int): the claim id;
        `evidence` (list): one entry per predicted abstract (omit abstracts predicted NOT ENOUGH
            INFO), each `{"doc_id": str, "label": "SUPPORT" | "CONTRADICT", "sentences": [int]}`,
            the sentences in the model's order. A repeated doc_id keeps its last entry.
    references: one dict per claim, same claim ids in the same order:
        `id` (int): the claim id;
        `evidence` (list): one entry per gold rationale, each `{"doc_id": str, "label": str,
            "sentences": [int]}`; an abstract with two rationales appears twice; empty for a
            NOT ENOUGH INFO claim.
    Doc ids are strings compared verbatim ("01200" is not "1200"), as on the leaderboard.
    details (bool, default False): also return `details`, one record per (claim, abstract) pair
        that is predicted or gold, for error analysis: `row`, `claim_id`, `doc_id`,
        `gold_label` and `predicted_label` (None when absent), `predicted` and `gold` (counted
        as retrieved / relevant), `label_only` and `rationalized` (counted as correct), `k`
        (how many predicted sentences Label+Rationale read, when the label is right), `outcome`
        (correct, rationale not in first k, wrong label, false positive, missed) and `why`.
Returns:
    abstract_label_only_precision, abstract_label_only_recall, abstract_label_only_f1:
        correct abstracts (gold evidence abstract, right label) over predicted abstracts, over gold
        evidence abstracts, and F1 = 2PR/(P+R) from those floats;
    abstract_rationalized_precision, abstract_rationalized_recall, abstract_rationalized_f1:
        the same, counting only abstracts whose first k predicted sentences contain a whole gold
        rationale. A zero denominator gives 0.0.
Examples:
    The worked example of the SciFact evaluation docs (claim 52), with abstract 16 predicted
    CONTRADICT as the evaluator requires:

    >>> import evaluate
    >>> scifact_abstract = evaluate.load("scifact_abstract")
    >>> references = [{"id": 52, "evidence": [
    ...     {"doc_id": "11", "label": "SUPPORT", "sentences": [0, 1]},
    ...     {"doc_id": "11", "label": "SUPPORT", "sentences": [11]},
    ...     {"doc_id": "15", "label": "SUPPORT", "sentences": [4]}]}]
    >>> predictions = [{"id": 52, "evidence": [
    ...     {"doc_id": "11", "label": "SUPPORT", "sentences": [1, 11, 13]},
    ...     {"doc_id": "16", "label": "CONTRADICT", "sentences": [18, 20]}]}]
    >>> print(scifact_abstract.compute(predictions=predictions, references=references))
    {'abstract_label_only_precision': 0.5, 'abstract_label_only_recall': 0.5, \
'abstract_label_only_f1': 0.5, 'abstract_rationalized_precision': 0.5, \
'abstract_rationalized_recall': 0.5, 'abstract_rationalized_f1': 0.5}

    With `details=True`, each predicted or gold abstract says how it was counted:

    >>> result = scifact_abstract.compute(
    ...     predictions=predictions, references=references, details=True)
    >>> for d in result["details"]:
    ...     print(d["doc_id"], d["outcome"], "|", d["why"])
    11 correct | right label; gold rationale [11] within the first 3 predicted sentences [1, 11, 13]
    16 false positive | not a gold evidence abstract of this claim
    15 missed | gold SUPPORT abstract not predicted

    Label+Rationale reads only the first 3 predicted sentences, in the order given: the gold
    sentence 9 listed 4th earns no rationale credit, listed 1st it does.

    >>> gold = [{"id": 8, "evidence": [{"doc_id": "800", "label": "SUPPORT", "sentences": [9]}]}]
    >>> for sentences in ([0, 1, 2, 9], [9, 0, 1, 2]):
    ...     result = scifact_abstract.compute(
    ...         predictions=[{"id": 8, "evidence": [
    ...             {"doc_id": "800", "label": "SUPPORT", "sentences": sentences}]}],
    ...         references=gold)
    ...     print(result["abstract_label_only_f1"], result["abstract_rationalized_f1"])
    1.0 0.0
    1.0 1.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ScifactAbstract(ScifactRows, evaluate.Metric):
    def _info(self):
        return metric_info(_DESCRIPTION, _KWARGS_DESCRIPTION)

    def _score_rows(self, predictions, references, **options):
        return abstract_level(predictions, references, **options)

    def _compute(self, predictions, references, details=False):
        result = abstract_scores(count(predictions, references))
        if details:
            result["details"] = abstract_details(predictions, references)
        return result
