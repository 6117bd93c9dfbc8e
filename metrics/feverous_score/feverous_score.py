"""``feverous_score``: the official FEVEROUS scorer (``feverous_scorer.py``) as an ``evaluate``
metric."""

import datasets
import evaluate

# evaluate's loader copies only the modules a script imports itself: every module of the scoring
# core is named here.
from .checked_metric import CheckedRows
from .element_ids import DEFAULT_READING, SPLITS
from .fever_evidence import labels_correct
from .plain_values import shown
from .rows import read_ids
from .rules import DEFAULT_MAX_EVIDENCE, DEFAULT_MAX_EVIDENCE_CELL
from .scoring import (
    check_lengths,
    check_options,
    check_rows,
    claim_details,
    feverous_score,
    normalize_predictions,
    normalize_references,
    score,
)

_CITATION = """\
@inproceedings{aly-etal-2021-fact,
    title = "The Fact Extraction and {VER}ification Over Unstructured and Structured information
             ({FEVEROUS}) Shared Task",
    author = "Aly, Rami and Guo, Zhijiang and Schlichtkrull, Michael Sejr and Thorne, James and
              Vlachos, Andreas and Christodoulopoulos, Christos and Cocarascu, Oana and
              Mittal, Arpit",
    booktitle = "Proceedings of the Fourth Workshop on Fact Extraction and VERification (FEVER)",
    year = "2021",
    pages = "1--13",
}
"""

_DESCRIPTION = """\
The official FEVEROUS shared-task scorer (`feverous_scorer.py` of Raldir/FEVEROUS), re-implemented
so that every number is bit-identical to it: the FEVEROUS score (label right and a complete gold
evidence set among the kept evidence), label accuracy, and macro evidence precision, recall and
F1 over all claims, NOT ENOUGH INFO ones included. Only the first `max_evidence` (default 5)
sentences and the first `max_evidence_cell` (default 25) table items (cells, header cells, table
captions, list items) of a prediction count.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one dict per claim:
        `predicted_label` (str): SUPPORTS, REFUTES or NOT ENOUGH INFO (compared case-insensitively);
        `predicted_evidence` (list): ranked evidence items, each an element id string
            (`"Page_sentence_1"`, `"Page_cell_0_1_2"`, as in the official files) or a
            `[page, type, position]` list of three strings (as the official function takes).
    references: one dict per claim, paired with `predictions` by position:
        `label` (str): the gold label;
        `evidence` (list of groups): each group a list of items as above (the `content` of one
            official evidence set); any one complete group proves the claim.
    max_evidence (int or None, default 5): how many predicted sentences (and items of any type
        other than the table ones) count, in order; None keeps them all.
    max_evidence_cell (int or None, default 25): how many predicted cell, header_cell,
        table_caption and item elements count, in order; None keeps them all.
    id_reading ("official" or "exact", default "official"): how an element id string is split
        into page, type and position: "official" as the official evaluate.py does (the page ends
        at the first "_", so "Wolfgang_Niedecken_sentence_1" is page "Wolfgang" of type
        "Niedecken"), "exact" at the element type ("Wolfgang_Niedecken", "sentence", "1").
    details (bool, default False): also return `details`, one record per claim for error
        analysis: `row`, `gold_label`, `predicted_label`, `label_correct`, `strict`,
        `evidence_precision`, `evidence_recall`, `kept_sentences`, `kept_table_items`,
        `dropped` (items past the budgets) and `why`, a short reason.
Returns:
    strict_score: fraction of claims with the right label and a complete gold group among the
        kept evidence (the FEVEROUS score; a claim without gold evidence never counts);
    label_accuracy: fraction of claims with the right label;
    evidence_precision: mean per-claim precision of the kept evidence (an empty prediction
        counts as 1.0);
    evidence_recall: fraction of claims with a complete gold group among the kept evidence, or
        without gold evidence;
    evidence_f1: harmonic mean of evidence_precision and evidence_recall. Where both are 0 the
        official scorer divides by zero: a ValueError says so.
Examples:
    >>> import evaluate
    >>> feverous = evaluate.load("feverous_score")
    >>> gold = {"label": "SUPPORTS",
    ...         "evidence": [["Korean Air_sentence_0", "Korean Air_cell_1_19_0"]]}
    >>> results = feverous.compute(
    ...     predictions=[
    ...         {"predicted_label": "supports",
    ...          "predicted_evidence": ["Korean Air_cell_1_19_0", "Korean Air_sentence_0",
    ...                                 "Korean Air_sentence_3"]},
    ...         {"predicted_label": "NOT ENOUGH INFO", "predicted_evidence": []},
    ...     ],
    ...     references=[gold, {"label": "NOT ENOUGH INFO", "evidence": []}],
    ... )
    >>> print(results)
    {'strict_score': 0.5, 'label_accuracy': 1.0, 'evidence_precision': 0.8333333333333333, \
'evidence_recall': 1.0, 'evidence_f1': 0.9090909090909091}

    The second claim scores no FEVEROUS point although its label is right: no gold set, no
    strict match (unlike FEVER, NOT ENOUGH INFO is not exempt). Only the first five sentences
    count, here leaving out the gold one:

    >>> ranked = [["Other", "sentence", str(i)] for i in range(5)] + [["Page", "sentence", "7"]]
    >>> gold = {"label": "REFUTES", "evidence": [[["Page", "sentence", "7"]]]}
    >>> feverous.compute(predictions=[{"predicted_label": "REFUTES", "predicted_evidence": ranked}],
    ...                  references=[gold], max_evidence=None)
    {'strict_score': 1.0, 'label_accuracy': 1.0, 'evidence_precision': 0.16666666666666666, \
'evidence_recall': 1.0, 'evidence_f1': 0.2857142857142857}
"""

_ITEM = {
    "id": datasets.Value("string"),
    "page": datasets.Value("string"),
    "type": datasets.Value("string"),
    "position": datasets.Value("string"),
}
_FEATURES = datasets.Features(
    {
        "predictions": {
            "predicted_label": datasets.Value("string"),
            "predicted_evidence": datasets.List(_ITEM),
        },
        "references": {
            "label": datasets.Value("string"),
            "evidence": datasets.List(datasets.List(_ITEM)),
        },
    }
)


def _stored(item):
    """An item as the features hold it: an id string unread (the reading is a compute()
    option), a triple as its three parts."""
    if type(item) is str:
        return {"id": item, "page": None, "type": None, "position": None}
    page, kind, position = item
    return {"id": None, "page": page, "type": kind, "position": position}


def _item(record):
    if record["id"] is not None:
        return record["id"]
    return (record["page"], record["type"], record["position"])


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FeverousScore(CheckedRows, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            homepage="https://fever.ai/dataset/feverous.html",
            codebase_urls=["https://github.com/Raldir/FEVEROUS"],
            reference_urls=["https://aclanthology.org/2021.fever-1.1/"],
            license="apache-2.0",
        )

    def _score_rows(self, predictions, references, **options):
        return feverous_score(predictions, references, **options)

    def _checked_rows(self, predictions, references, start=0):
        check_rows(predictions, "predictions")
        check_rows(references, "references")
        if len(predictions) != len(references):  # an empty batch is fine (an idle process)
            check_lengths(len(predictions), len(references))
        preds = normalize_predictions(predictions, start)
        refs = normalize_references(references, start)
        return (
            [{"predicted_label": label, "predicted_evidence": list(map(_stored, items))}
             for label, items in preds],
            [{"label": label, "evidence": [list(map(_stored, g)) for g in groups]}
             for label, groups in refs],
        )  # fmt: skip

    def _checked_options(
        self,
        max_evidence=DEFAULT_MAX_EVIDENCE,
        max_evidence_cell=DEFAULT_MAX_EVIDENCE_CELL,
        id_reading=DEFAULT_READING,
        details=False,
    ):
        check_options(max_evidence, max_evidence_cell, id_reading)

    def _compute(
        self,
        predictions,
        references,
        max_evidence=DEFAULT_MAX_EVIDENCE,
        max_evidence_cell=DEFAULT_MAX_EVIDENCE_CELL,
        id_reading=DEFAULT_READING,
        details=False,
    ):
        max_evidence, max_evidence_cell, id_reading = check_options(
            max_evidence, max_evidence_cell, id_reading
        )
        check_lengths(len(predictions), len(references))
        preds = [
            (r["predicted_label"], list(map(_item, r["predicted_evidence"]))) for r in predictions
        ]
        refs = [(r["label"], [list(map(_item, g)) for g in r["evidence"]]) for r in references]
        preds, refs = read_ids(preds, refs, id_reading)
        result = score(preds, refs, max_evidence, max_evidence_cell)
        if details:
            result["details"] = claim_details(preds, refs, max_evidence, max_evidence_cell)
        return result
