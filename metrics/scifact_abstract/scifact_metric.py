"""What the ``scifact_abstract`` and ``scifact_sentence`` metric scripts share: their inputs
(both take the same rows, so ``evaluate.combine`` of the two gives the leaderboard's 12
numbers), the citation, and the row checks. ``scifact_sentence`` links this file."""

import datasets
import evaluate

from .checked_metric import CheckedRows
from .rows import check_pairs, prediction_records, reference_records

CITATION = """\
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

_EVIDENCE = datasets.List(
    {
        "doc_id": datasets.Value("string"),
        "label": datasets.Value("string"),
        "sentences": datasets.List(datasets.Value("int64")),
    }
)
_ROW = {"id": datasets.Value("int64"), "evidence": _EVIDENCE}
FEATURES = datasets.Features({"predictions": _ROW, "references": _ROW})


class ScifactRows(CheckedRows):
    """The rows both SciFact metrics take, checked as the leaderboard evaluator checks them."""

    def _checked_rows(self, predictions, references, start=0):
        predictions = prediction_records(predictions, start=start)
        references = reference_records(references, start=start)
        check_pairs(predictions, references, start)
        return predictions, references


def metric_info(description: str, inputs_description: str) -> evaluate.MetricInfo:
    return evaluate.MetricInfo(
        description=description,
        citation=CITATION,
        inputs_description=inputs_description,
        features=FEATURES,
        homepage="https://leaderboard.allenai.org/scifact",
        codebase_urls=["https://github.com/allenai/scifact-evaluator"],
        reference_urls=["https://github.com/allenai/scifact/blob/master/doc/evaluation.md"],
        license="apache-2.0",
    )
