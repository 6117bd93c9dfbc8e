"""``fever_score``: the official FEVER scorer (``fever-scorer`` 2.0.39) as an ``evaluate`` metric."""

import datasets
import evaluate

# evaluate's loader copies only the modules a script imports itself: every module of the scoring
# core is named here (the rules, the row checks, the fast path, the numbers helpers).
from .checked_metric import CheckedRows
from .fast_path import official_form_score
from .fever_evidence import labels_correct
from .plain_values import as_int
from .rows import settle_predicted_evidence
from .rules import DEFAULT_MAX_EVIDENCE
from .scoring import (
    check_lengths,
    check_max_evidence,
    check_rows,
    claim_details,
    fever_score,
    normalize_predictions,
    normalize_references,
    score,
)

_CITATION = """\
@inproceedings{thorne-etal-2018-fever,
    title = "{FEVER}: a Large-scale Dataset for Fact Extraction and {VER}ification",
    author = "Thorne, James and Vlachos, Andreas and Christodoulopoulos, Christos and Mittal, Arpit",
    booktitle = "Proceedings of NAACL-HLT 2018",
    year = "2018",
    pages = "809--819",
}
"""

_DESCRIPTION = """\
The official FEVER shared-task scorer (fever-scorer 2.0.39, `fever.scorer.fever_score`),
re-implemented so that every number is bit-identical to it: the FEVER (strict) score, label
accuracy, and macro evidence precision, recall and F1 over the claims whose gold label is not
NOT ENOUGH INFO. Only the first `max_evidence` (default 5) predicted sentences count.
This is not the Hub's unofficial `fever` metric, which computes other numbers.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one dict per claim:
        `predicted_label` (str): SUPPORTS, REFUTES or NOT ENOUGH INFO (compared case-insensitively);
        `predicted_evidence` (list): ranked evidence sentences, each a `[page, line]` list as in the
            official files or a `{"page": str, "line": int}` record.
    references: one dict per claim, paired with `predictions` by position:
        `label` (str): the gold label;
        `evidence` (list of groups): each group a list of official `[annotation_id, evidence_id,
            page, line]` items (or records with those keys); any one complete group proves the claim.
    max_evidence (int or None, default 5): how many predicted sentences count, as a slice bound
        (`predicted_evidence[:max_evidence]`); None keeps them all.
    details (bool, default False): also return `details`, one record per claim for error
        analysis: `row`, `gold_label`, `predicted_label`, `label_correct`, `strict`,
        `evidence_precision` and `evidence_recall` (None when the gold label is NOT ENOUGH INFO,
        which evidence scores skip) and `why`, a short reason.
Returns:
    strict_score: fraction of claims with the right label and, unless NOT ENOUGH INFO, one gold
        group fully inside the kept evidence (the FEVER score);
    label_accuracy: fraction of claims with the right label;
    evidence_precision: mean per-claim precision of the kept evidence over claims whose gold label
        is not NOT ENOUGH INFO (an empty prediction counts as 1.0; 1.0 if there is no such claim);
    evidence_recall: fraction of those claims with a complete gold group in the kept evidence
        (0.0 if there is no such claim);
    evidence_f1: harmonic mean of evidence_precision and evidence_recall (0.0 when both are 0).
Examples:
    The FEVER scorer's README example:

    >>> import evaluate
    >>> fever = evaluate.load("fever_score")
    >>> gold = {"label": "REFUTES",
    ...         "evidence": [[[None, None, "page1", 1], [None, None, "page2", 2]]]}
    >>> results = fever.compute(
    ...     predictions=[
    ...         {"predicted_label": "REFUTES", "predicted_evidence": [["page1", 1]]},
    ...         {"predicted_label": "REFUTES",
    ...          "predicted_evidence": [["page1", 1], ["page2", 2], ["page3", 3]]},
    ...     ],
    ...     references=[gold, gold],
    ... )
    >>> print(results)
    {'strict_score': 0.5, 'label_accuracy': 1.0, 'evidence_precision': 0.8333333333333333, \
'evidence_recall': 0.5, 'evidence_f1': 0.625}

    Evidence is scored whatever the predicted label, and only the first `max_evidence` sentences
    count (here the gold sentence is 6th):

    >>> ranked = [["w", i] for i in range(5)] + [["Page_A", 7]]
    >>> gold = {"label": "SUPPORTS", "evidence": [[[101, 201, "Page_A", 7]]]}
    >>> fever.compute(predictions=[{"predicted_label": "REFUTES", "predicted_evidence": ranked}],
    ...               references=[gold])
    {'strict_score': 0.0, 'label_accuracy': 0.0, 'evidence_precision': 0.0, \
'evidence_recall': 0.0, 'evidence_f1': 0.0}
    >>> fever.compute(predictions=[{"predicted_label": "SUPPORTS", "predicted_evidence": ranked}],
    ...               references=[gold], max_evidence=None)
    {'strict_score': 1.0, 'label_accuracy': 1.0, 'evidence_precision': 0.16666666666666666, \
'evidence_recall': 1.0, 'evidence_f1': 0.2857142857142857}
"""

_SENTENCE = {"page": datasets.Value("string"), "line": datasets.Value("int64")}
_FEATURES = datasets.Features(
    {
        "predictions": {
            "predicted_label": datasets.Value("string"),
            "predicted_evidence": datasets.List(_SENTENCE),
        },
        "references": {
            "label": datasets.Value("string"),
            "evidence": datasets.List(datasets.List(_SENTENCE)),
        },
    }
)


def _prediction_records(preds):
    return [
        {"predicted_label": label, "predicted_evidence": [{"page": p, "line": n} for p, n in ev]}
        for label, ev in preds
    ]


def _reference_records(refs):
    return [
        {"label": label, "evidence": [[{"page": p, "line": n} for p, n in g] for g in groups]}
        for label, groups in refs
    ]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FeverScore(CheckedRows, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            homepage="https://fever.ai",
            codebase_urls=["https://github.com/sheffieldnlp/fever-scorer"],
            reference_urls=["https://pypi.org/project/fever-scorer/2.0.39/"],
            license="apache-2.0",
        )

    def _score_rows(self, predictions, references, **options):
        return fever_score(predictions, references, **options)

    def _checked_rows(self, predictions, references, start=0):
        check_rows(predictions, "predictions")
        check_rows(references, "references")
        # Checked here, not left to evaluate, whose generic message would differ from compute()'s.
        if len(predictions) != len(references):  # an empty batch is fine (an idle process)
            check_lengths(len(predictions), len(references))
        preds = normalize_predictions(predictions, start)
        refs = normalize_references(references, start)
        # A predicted_evidence that is not a list is read with its gold row (stored as []).
        preds = settle_predicted_evidence(preds, refs)
        return _prediction_records(preds), _reference_records(refs)

    def _checked_options(self, max_evidence=DEFAULT_MAX_EVIDENCE, details=False):
        check_max_evidence(max_evidence)

    def _compute(self, predictions, references, max_evidence=DEFAULT_MAX_EVIDENCE, details=False):
        max_evidence = check_max_evidence(max_evidence)
        preds = [
            (r["predicted_label"], [(e["page"], e["line"]) for e in r["predicted_evidence"]])
            for r in predictions
        ]
        refs = [
            (r["label"], [[(e["page"], e["line"]) for e in g] for g in r["evidence"]])
            for r in references
        ]
        result = score(preds, refs, max_evidence)
        if details:
            result["details"] = claim_details(preds, refs, max_evidence)
        return result
