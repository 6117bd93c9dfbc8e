"""``tydiqa``: the official TyDi QA primary-task scorer (``tydi_eval.py``) as an ``evaluate`` metric."""

import datasets
import evaluate

# evaluate's loader copies only the modules a script imports itself: every module the scoring
# core uses is named here too (the row checks, the details, the numbers).
from .checked_metric import CheckedRows
from .details import detail
from .plain_values import as_int
from .rows import (
    check_lengths,
    check_rows,
    check_threshold,
    normalize_predictions,
    normalize_references,
    prediction_record,
    reference_record,
)
from .scoring import DEFAULT_THRESHOLD, tydiqa_score

_CITATION = """\
@article{clark-etal-2020-tydi,
    title = "{T}y{D}i {QA}: A Benchmark for Information-Seeking Question Answering in
             Typologically Diverse Languages",
    author = "Clark, Jonathan H. and Choi, Eunsol and Collins, Michael and Garrette, Dan and
              Kwiatkowski, Tom and Nikolaev, Vitaly and Palomaki, Jennimaria",
    journal = "Transactions of the Association for Computational Linguistics",
    volume = "8",
    year = "2020",
    pages = "454--470",
}
"""

_DESCRIPTION = """\
The official TyDi QA scorer for the primary tasks (google-research-datasets/tydiqa `tydi_eval.py`
with `eval_utils.py`), re-implemented so that every number is bit-identical to it. Per language
(from the prediction's `language`) and per task, passage selection (SelectP) and minimal answer
span (MinSpan), a threshold is swept over the observed scores and the best-F1 point is kept;
recall at precision 0.5 / 0.75 / 0.9 is reported too. The headline numbers are the plain means
of the per-language best F1, precision and recall over the languages that have predictions,
English excluded. A gold example is non-null for a task when at least 2 annotators (by default)
give an answer. Rows are paired by `example_id`, not by position.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one dict per prediction, as a line of the official prediction file:
        `example_id` (int): the TyDi QA example id (signed 64-bit);
        `language` (str): e.g. "arabic"; the example is scored in this language's group;
        `passage_answer_index` (int, default -1): the chosen passage candidate, -1 for none;
        `passage_answer_score` (float): confidence of the passage answer;
        `minimal_answer` (dict): `start_byte_offset` and `end_byte_offset` (UTF-8 byte offsets into
            the document's plaintext, end exclusive), both negative (-1) for no span;
        `minimal_answer_score` (float): confidence of the minimal answer;
        `yes_no_answer` (str, default "NONE"): "YES", "NO" or "NONE" (any case).
        A row whose `example_id` is None is a placeholder: "no prediction in this row".
    references: one dict per gold example:
        `example_id` (int), `language` (str),
        `annotations` (list): one record per annotator, `{"candidate_index": int, "start_byte": int,
            "end_byte": int, "yes_no_answer": str}` (-1 for null), or the official nested form
            `{"passage_answer": {"candidate_index"}, "minimal_answer": {"plaintext_start_byte",
            "plaintext_end_byte"}, "yes_no_answer"}`.
        A row whose `example_id` is None is a placeholder: "no gold example in this row".
        Both lists have the same length; rows are paired by `example_id`, so a gold example
        without a prediction (scored as the official script scores a missing prediction) and a
        prediction for an unknown id are both expressed with placeholders on the other side.
    passage_non_null_threshold (int, default 2): annotator votes for a non-null passage gold.
    minimal_non_null_threshold (int, default 2): annotator votes (span or yes/no) for a non-null
        minimal gold.
    details (bool, default False): also return `details`, one record per gold example of a
        scored language, in gold order: `example_id`, `language`, `predicted`, and per task
        (`passage_`, `minimal_`) `gold`, `predicted`, `score` (None without a prediction), plus
        `passage_correct` and `minimal_f1` (the credit before any threshold).
Returns:
    avg_passage_f1, avg_passage_recall, avg_passage_precision: means over the languages with
        predictions, English excluded, of the per-language best-threshold passage F1, R and P;
    avg_minimal_f1, avg_minimal_recall, avg_minimal_precision: the same for minimal answers;
        (each the int 0 when no language is averaged, as officially);
    per_language: for every language with predictions (English included), the 20 values of the
        official per-language JSON line: `passage-best-threshold-f1`, `-precision`, `-recall`,
        `passage-best-threshold`, `passage-recall-at-precision>=0.5`,
        `passage-precision-at-precision>=0.5` (and 0.75, 0.9; int 0 when never reached), and the
        same 10 keys with the prefix `minimal-`.
Examples:
    Two Arabic questions, 3 annotators each; the first is answered by two annotators (passage 0,
    spans [10, 20) and [12, 20)), the second by none (a null gold):

    >>> import evaluate
    >>> tydiqa = evaluate.load("tydiqa")
    >>> answered = [{"candidate_index": 0, "start_byte": 10, "end_byte": 20, "yes_no_answer": "NONE"},
    ...             {"candidate_index": 0, "start_byte": 12, "end_byte": 20, "yes_no_answer": "NONE"},
    ...             {"candidate_index": -1, "start_byte": -1, "end_byte": -1, "yes_no_answer": "NONE"}]
    >>> unanswered = [{"candidate_index": -1, "start_byte": -1, "end_byte": -1,
    ...                "yes_no_answer": "NONE"}] * 3
    >>> references = [{"example_id": 1, "language": "arabic", "annotations": answered},
    ...               {"example_id": 2, "language": "arabic", "annotations": unanswered}]
    >>> def prediction(example_id, passage, start, end, score):
    ...     return {"example_id": example_id, "language": "arabic",
    ...             "passage_answer_index": passage, "passage_answer_score": score,
    ...             "minimal_answer": {"start_byte_offset": start, "end_byte_offset": end},
    ...             "minimal_answer_score": score, "yes_no_answer": "NONE"}
    >>> results = tydiqa.compute(
    ...     predictions=[prediction(1, 0, 14, 22, 0.9), prediction(2, -1, -1, -1, 0.2)],
    ...     references=references)
    >>> {k: v for k, v in results.items() if k != "per_language"}
    {'avg_passage_f1': 1.0, 'avg_passage_recall': 1.0, 'avg_passage_precision': 1.0, \
'avg_minimal_f1': 0.75, 'avg_minimal_recall': 0.75, 'avg_minimal_precision': 0.75}
    >>> results["per_language"]["arabic"]["minimal-best-threshold"]
    0.9

    Without a prediction for the null example (a placeholder row instead), the official script
    counts a wrong answer with score 0, which costs precision when the other scores are negative:

    >>> results = tydiqa.compute(
    ...     predictions=[prediction(1, 0, 10, 20, -1.0), {"example_id": None}],
    ...     references=references)
    >>> print(results["avg_passage_f1"], results["avg_passage_precision"])
    0.6666666666666666 0.5
"""

_SPAN = {"start_byte_offset": datasets.Value("int64"), "end_byte_offset": datasets.Value("int64")}
_ANNOTATION = {
    "candidate_index": datasets.Value("int64"),
    "start_byte": datasets.Value("int64"),
    "end_byte": datasets.Value("int64"),
    "yes_no_answer": datasets.Value("string"),
}
_FEATURES = datasets.Features(
    {
        "predictions": {
            "example_id": datasets.Value("int64"),
            "language": datasets.Value("string"),
            "passage_answer_index": datasets.Value("int64"),
            "passage_answer_score": datasets.Value("float64"),
            "minimal_answer": _SPAN,
            "minimal_answer_score": datasets.Value("float64"),
            "yes_no_answer": datasets.Value("string"),
        },
        "references": {
            "example_id": datasets.Value("int64"),
            "language": datasets.Value("string"),
            "annotations": datasets.List(_ANNOTATION),
        },
    }
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Tydiqa(CheckedRows, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            homepage="https://ai.google.com/research/tydiqa",
            codebase_urls=["https://github.com/google-research-datasets/tydiqa"],
            reference_urls=["https://aclanthology.org/2020.tacl-1.30/"],
            license="apache-2.0",
        )

    def _score_rows(self, predictions, references, **options):
        return tydiqa_score(predictions, references, **options)

    def _checked_rows(self, predictions, references, start=0):
        check_rows(predictions, "predictions")
        check_rows(references, "references")
        check_lengths(len(predictions), len(references))
        predictions = [prediction_record(p) for p in normalize_predictions(predictions, start)]
        references = [reference_record(r) for r in normalize_references(references, start)]
        return predictions, references

    def _checked_options(
        self,
        passage_non_null_threshold=DEFAULT_THRESHOLD,
        minimal_non_null_threshold=DEFAULT_THRESHOLD,
        details=False,
    ):
        check_threshold("passage_non_null_threshold", passage_non_null_threshold)
        check_threshold("minimal_non_null_threshold", minimal_non_null_threshold)
        if not isinstance(details, bool):
            raise ValueError(f"details must be True or False, got {details!r}")

    def _compute(
        self,
        predictions,
        references,
        passage_non_null_threshold=DEFAULT_THRESHOLD,
        minimal_non_null_threshold=DEFAULT_THRESHOLD,
        details=False,
    ):
        self._checked_options(passage_non_null_threshold, minimal_non_null_threshold, details)
        return tydiqa_score(
            predictions,
            references,
            passage_non_null_threshold,
            minimal_non_null_threshold,
            details,
        )
