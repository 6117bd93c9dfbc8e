"""``scifact_abstract``: the SciFact leaderboard evaluator, abstract level, as an ``evaluate`` metric."""

import datasets
import evaluate

from .scoring import (
    abstract_details,
    abstract_level,
    abstract_scores,
    check_pairs,
    count,
    prediction_records,
    reference_records,
)

_CITATION = """\
@inproceedings{wadden-etal-2020-fact,
    title = "Fact or Fiction: Verifying Scientific Claims",
    author = "Wadden, David and Lin, Shanchuan and Lo, Kyle and Wang, Lucy Lu and
      van Zuylen, Madeleine and Cohan, Arman and Hajishirzi, Hannaneh",
    booktitle = "Proceedings of the 2020 Conference on Empirical Methods in Natural Language
      Processing (EMNLP)",
    year = "2020",
    pages = "7534--7550",
}
"""

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

_EVIDENCE = datasets.List(
    {
        "doc_id": datasets.Value("string"),
        "label": datasets.Value("string"),
        "sentences": datasets.List(datasets.Value("int64")),
    }
)
_ROW = {"id": datasets.Value("int64"), "evidence": _EVIDENCE}
_FEATURES = datasets.Features({"predictions": _ROW, "references": _ROW})


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ScifactAbstract(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            homepage="https://leaderboard.allenai.org/scifact",
            codebase_urls=["https://github.com/allenai/scifact-evaluator"],
            reference_urls=["https://github.com/allenai/scifact/blob/master/doc/evaluation.md"],
            license="apache-2.0",
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the scores (see the class docs).

        When all rows come in this one call of a single process, the scoring core takes them
        directly: the same checks and numbers, without evaluate's Arrow round trip.
        """
        if predictions is not None and references is not None:
            if self.num_process == 1 and self.writer is None:
                return abstract_level(predictions, references, **kwargs)
        return super().compute(predictions=predictions, references=references, **kwargs)

    # Rows are checked before datasets encodes them: encoding would silently turn malformed
    # values (a "5" or 5.0 sentence, an int doc id) into valid ones and change the numbers.
    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (checked first; see the class docs)."""
        if predictions is not None and references is not None:
            predictions = prediction_records(predictions)
            references = reference_records(references)
            check_pairs(predictions, references)
        return super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference (checked first; see the class docs)."""
        if prediction is not None and reference is not None:
            prediction = prediction_records([prediction], "prediction")[0]
            reference = reference_records([reference], "reference")[0]
            check_pairs([prediction], [reference])
        return super().add(prediction=prediction, reference=reference, **kwargs)

    def _compute(self, predictions, references, details=False):
        result = abstract_scores(count(predictions, references))
        if details:
            result["details"] = abstract_details(predictions, references)
        return result
