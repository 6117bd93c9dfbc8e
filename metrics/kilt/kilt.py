"""``kilt``: KILT's official scorers (``eval_downstream.py`` and ``eval_retrieval.py``) as an
``evaluate`` metric."""

import datasets
import evaluate

# evaluate's loader copies only the modules a script imports itself: every module of the scoring
# core is named here.
from .answers import normalize_answer
from .checked_metric import CheckedRows
from .plain_values import shown
from .ranking import evidence_rank
from .records import check_paired, pair_records
from .rouge_l import rouge_l
from .rows import PROVENANCE_FIELDS, checked
from .scoring import DEFAULT_COMMIT, check_options, score

_CITATION = """\
@inproceedings{petroni-etal-2021-kilt,
    title = "{KILT}: a Benchmark for Knowledge Intensive Language Tasks",
    author = "Petroni, Fabio and Piktus, Aleksandra and Fan, Angela and Lewis, Patrick and
              Yazdani, Majid and De Cao, Nicola and Thorne, James and Jernite, Yacine and
              Karpukhin, Vladimir and Maillard, Jean and Plachouras, Vassilis and
              Rockt{\\"a}schel, Tim and Riedel, Sebastian",
    booktitle = "Proceedings of the 2021 Conference of the North American Chapter of the
                 Association for Computational Linguistics: Human Language Technologies",
    year = "2021",
    pages = "2523--2544",
}
"""

_DESCRIPTION = """\
KILT's official scorers (`kilt/eval_downstream.py` and `kilt/eval_retrieval.py` of
facebookresearch/KILT, at commit 64e284a by default), re-implemented so that every number is
bit-identical to them, for all eleven KILT datasets (FEVER, AIDA, WNED, T-REx, zsRE, NQ, HotpotQA,
TriviaQA, ELI5, Wizard of Wikipedia). Downstream: accuracy, exact match, F1 and ROUGE-L (as PyPI
`rouge` 1.0.1 computes it), each the best over the gold answers, and their KILT variants, which
credit an answer only when the page-level R-precision of its provenance is 1. Retrieval:
R-precision, precision@k, recall@k, success_rate@k (gold evidence sets ranked as units) and
answer_in_context@k.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: KILT records (a guess file's lines), paired with the references by position,
        each with its reference's id (compared as `str(id).strip()`, as the official scorer
        matches them; `taskeval.read_official` puts a guess file in gold order):
        `id` (str or int);
        `output` (list): downstream scores the only output, which needs an `answer` (str);
            retrieval the only output with a `provenance`: ranked passages, each a dict with
            `wikipedia_id` (and the other rank keys chosen) and optionally `text` (read by
            answer_in_context) and `title`.
    references: KILT gold records: `id`, `input` (read only with commit="2664322") and
        `output`, a list of outputs, each with an optional `answer` and an optional
        `provenance` (one gold evidence set). In these rows None means absent.
    evaluation ("downstream" or "retrieval", default "downstream"): which official script.
    ks (list of positive ints, default [1, 5, 10, 20]; retrieval only): the k of each @k value.
    rank_keys (list of passage fields, default ["wikipedia_id"]; retrieval only): what makes a
        passage one unit of the ranking: ["wikipedia_id"] is page level; add
        "start_paragraph_id" and "end_paragraph_id" for paragraph level.
    commit ("64e284a" or "2664322", default "64e284a"): KILT's scorer at which commit. The later
        one (the repository's HEAD) adds entity_in_input, entity_in_context@k and
        answer_and_ent_in_context@k to retrieval, and needs every reference's `input`.
    details (bool, default False): also return `details`, one record per reference: `id`, the
        row's values and, downstream, `answer`, `gold_answers` and `kilt_credit`.
Returns:
    downstream: `KILT-accuracy`, `KILT-em`, `KILT-f1`, `KILT-rougel`, `accuracy`, `em`, `f1`,
        `rougel`, `Rprec` and `recall@5` (what eval_downstream prints under kilt, downstream and
        retrieval); retrieval: `Rprec`, and for each k `precision@k`, `answer_in_context@k` and,
        for k > 1, `recall@k` and `success_rate@k` (what eval_retrieval prints). Each is a mean
        over the references; a blank guess answer scores 0 and is counted.
Examples:
    >>> import evaluate
    >>> kilt = evaluate.load("kilt")
    >>> gold = [
    ...     {"id": "q1", "input": "Who wrote Hamlet?",
    ...      "output": [{"answer": "William Shakespeare",
    ...                  "provenance": [{"wikipedia_id": "32897"}]}]},
    ...     {"id": "q2", "input": "Capital of France?",
    ...      "output": [{"answer": "Paris", "provenance": [{"wikipedia_id": "22989"}]}]},
    ... ]
    >>> guess = [
    ...     {"id": "q1", "output": [{"answer": "Shakespeare",
    ...                              "provenance": [{"wikipedia_id": "32897"}]}]},
    ...     {"id": "q2", "output": [{"answer": "Paris",
    ...                              "provenance": [{"wikipedia_id": "1"}]}]},
    ... ]
    >>> kilt.compute(predictions=guess, references=gold)
    {'KILT-accuracy': 0.0, 'KILT-em': 0.0, 'KILT-f1': 0.3333333333333333, \
'KILT-rougel': 0.33333333111111113, 'accuracy': 0.5, 'em': 0.5, 'f1': 0.8333333333333333, \
'rougel': 0.8333333286111111, 'Rprec': 0.5, 'recall@5': 0.5}

    "Paris" is right but its page is not the gold one: no KILT credit. Retrieval (precision@2
    divides by k: one complete evidence set in two places):

    >>> kilt.compute(predictions=guess, references=gold, evaluation="retrieval", ks=[1, 2])
    {'Rprec': 0.5, 'precision@1': 0.5, 'answer_in_context@1': 0.0, 'precision@2': 0.25, \
'answer_in_context@2': 0.0, 'recall@2': 0.5, 'success_rate@2': 0.5}
"""

_PASSAGE = {name: datasets.Value("string") for name in PROVENANCE_FIELDS}
_OUTPUT = {"answer": datasets.Value("string"), "provenance": datasets.List(_PASSAGE)}
_FEATURES = datasets.Features(
    {
        "predictions": {"id": datasets.Value("string"), "output": datasets.List(_OUTPUT)},
        "references": {
            "id": datasets.Value("string"),
            "input": datasets.Value("string"),
            "output": datasets.List(_OUTPUT),
        },
    }
)

# Named so that evaluate copies every module the scoring core reads (see the imports above).
_CORE = (normalize_answer, evidence_rank, pair_records, rouge_l)


def _check_lengths(n_predictions, n_references):
    if n_predictions != n_references:
        raise ValueError(
            f"predictions and references must have the same length (one guess per gold record, "
            f"paired by id), got {n_predictions} predictions and {n_references} references"
        )


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Kilt(CheckedRows, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            homepage="https://ai.meta.com/tools/kilt/",
            codebase_urls=["https://github.com/facebookresearch/KILT"],
            reference_urls=["https://aclanthology.org/2021.naacl-main.200/"],
            license="mit",
        )

    def _score_rows(self, predictions, references, **options):
        for side, rows in (("predictions", predictions), ("references", references)):
            if not hasattr(rows, "__len__"):
                raise ValueError(f"{side} must be a list of KILT records, got {shown(rows)}")
        _check_lengths(len(predictions), len(references))
        return score(predictions, references, **options)

    def _checked_rows(self, predictions, references, start=0):
        preds = checked(predictions, "predictions", start)
        refs = checked(references, "references", start)
        if len(preds) != len(refs):  # an empty batch is fine (an idle process)
            _check_lengths(len(preds), len(refs))
        check_paired(refs, preds, start)
        return preds, refs

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference (checked first; see the class docs).

        Stored as a batch of one: evaluate's own add() refuses a record whose ``input`` is None
        (absent), which its type check takes for a string that is not one."""
        if prediction is None or reference is None or kwargs:  # CheckedRows' own messages
            return super().add(prediction=prediction, reference=reference, **kwargs)
        self.add_batch(predictions=[prediction], references=[reference])

    def _checked_options(
        self, evaluation="downstream", ks=None, rank_keys=None, commit=DEFAULT_COMMIT, details=False
    ):
        check_options(evaluation, ks, rank_keys, commit)

    def _compute(
        self,
        predictions,
        references,
        evaluation="downstream",
        ks=None,
        rank_keys=None,
        commit=DEFAULT_COMMIT,
        details=False,
    ):
        _check_lengths(len(predictions), len(references))
        return score(predictions, references, evaluation, ks, rank_keys, commit, details)
