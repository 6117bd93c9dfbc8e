"""``tydiqa_goldp``: TyDiQA-GoldP (TyDi QA's Gold Passage task) scored as its official procedure
scores it, as an ``evaluate`` metric."""

import datasets
import evaluate

# evaluate's loader copies only the modules a script imports itself: every module of the folder
# is named here.
from .checked_metric import CheckedRows
from .conventions import CONVENTIONS, DEFAULT_CONVENTION
from .plain_values import as_int
from .rows import check_convention, check_details, from_record, score_rows, stored_rows
from .scoring import LANGUAGES

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
TyDiQA-GoldP, TyDi QA's Gold Passage task, scored by its official procedure
(google-research-datasets/tydiqa `gold_passage_baseline/`): the predictions are split by the
language prefix of each id, each language is scored by the standard SQuAD 1.1 script
(`evaluate-v1.1.py`: exact match and token F1 after lower-casing, removing ASCII punctuation and
the articles a/an/the, best over the gold answers, a missing prediction scoring 0, percentages),
and the headline numbers are the plain means over the non-English languages. English is scored
and reported, never averaged. Every number is bit-identical to what that procedure prints.
The option `convention` gives instead the numbers other tools print under the same name:
XTREME's (English averaged in, plus `avg_metric`) or lm-evaluation-harness's (per language,
fractions, Unicode punctuation removed).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one dict per predicted answer, as for evaluate's `squad` metric:
        `id` (str): the question id, which starts with its language, e.g. "arabic-2387335860751143628-1"
            (english, arabic, bengali, finnish, indonesian, swahili, korean, russian or telugu);
        `prediction_text` (str): the predicted answer.
    references: one dict per question: `id` (str) and `answers`, `{"text": [str, ...],
        "answer_start": [int, ...]}` (the Hub's `tydiqa` secondary_task rows; `answer_start` may
        be left out, it is never scored) or a list of `{"text", "answer_start"}` records.
        Rows are paired by `id`, not by position, and both lists have the same length: a row
        `{"id": None}` is a placeholder (a question without a prediction scores 0; a prediction
        for no question is ignored). When a prediction id repeats, its last row counts.
    convention (str, default "official"): "official", "xtreme" or "lm_eval" (see Returns).
    details (bool, default False): also return `details`, one record per question in reference
        order: `id`, `language`, `prediction` (None when missing), `normalized_prediction`,
        `best_answer` (the gold answer behind the scores) and `normalized_answer`,
        `exact_match` (bool), `f1` (0-1) and `why`, a short reason.
Returns:
    With convention "official":
    exact_match, f1: means over the non-English languages present (all eight on the dev set) of
        the per-language numbers, in percent (None when only English is present);
    per_language: for each language present, English included, `{"exact_match", "f1"}` as the
        SQuAD 1.1 script prints them for that language.
    With convention "xtreme" (google-research/xtreme `evaluate.py`): avg_exact_match, avg_f1
        (means over all languages present, English included), avg_metric ((avg_exact_match +
        avg_f1) / 2, XTREME's headline number) and per_language (the same as "official").
    With convention "lm_eval" (EleutherAI lm-evaluation-harness tasks `tydiqa_goldp_<xx>`):
        per_language only, each language's `exact_match` and `f1` as fractions (0-1); a missing
        prediction counts as an empty generation.
Examples:
    One Arabic and one Swahili question, and an English one that is not averaged. The Swahili
    prediction shares "beatles" with the first gold answer (English articles are removed in every
    language): F1 2/3; the mean of Arabic and Swahili is 1/3:

    >>> import evaluate
    >>> goldp = evaluate.load("tydiqa_goldp")
    >>> references = [
    ...     {"id": "arabic-1-0", "answers": {"text": ["الكتاب"], "answer_start": [0]}},
    ...     {"id": "swahili-2-0", "answers": {"text": ["The Beatles", "Beatles"],
    ...                                      "answer_start": [5, 9]}},
    ...     {"id": "english-3-0", "answers": {"text": ["1990"], "answer_start": [12]}},
    ... ]
    >>> predictions = [
    ...     {"id": "arabic-1-0", "prediction_text": "«الكتاب»"},
    ...     {"id": "swahili-2-0", "prediction_text": "the Beatles band"},
    ...     {"id": "english-3-0", "prediction_text": "1990 and 1994"},
    ... ]
    >>> results = goldp.compute(predictions=predictions, references=references)
    >>> print(results["exact_match"], results["f1"])
    0.0 33.33333333333333
    >>> results["per_language"]["english"]
    {'exact_match': 0.0, 'f1': 50.0}

    The SQuAD script keeps « and »: the Arabic answer scores 0. lm-evaluation-harness removes
    all Unicode punctuation, and prints fractions:

    >>> goldp.compute(predictions=predictions, references=references,
    ...               convention="lm_eval")["per_language"]["arabic"]
    {'exact_match': 1.0, 'f1': 1.0}

    XTREME averages English in, and its headline is the mean of EM and F1:

    >>> xtreme = goldp.compute(predictions=predictions, references=references, convention="xtreme")
    >>> print(xtreme["avg_f1"], xtreme["avg_metric"])
    38.888888888888886 19.444444444444443

    Why a question scored as it did:

    >>> goldp.compute(predictions=predictions[:1], references=references[:1],
    ...               details=True)["details"][0]["why"]
    'no token in common with any gold answer'
"""

_FEATURES = datasets.Features(
    {
        "predictions": {
            "id": datasets.Value("string"),
            "prediction_text": datasets.Value("string"),
        },
        "references": {
            "id": datasets.Value("string"),
            "answers": {
                "text": datasets.List(datasets.Value("string")),
                "answer_start": datasets.List(datasets.Value("int64")),
            },
        },
    }
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class TydiqaGoldp(CheckedRows, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            homepage="https://github.com/google-research-datasets/tydiqa/tree/master/gold_passage_baseline",
            codebase_urls=[
                "https://github.com/google-research-datasets/tydiqa",
                "https://github.com/allenai/bi-att-flow/blob/master/squad/evaluate-v1.1.py",
            ],
            reference_urls=["https://aclanthology.org/2020.tacl-1.30/"],
            license="apache-2.0",
        )

    def _score_rows(self, predictions, references, **options):
        return score_rows(predictions, references, **options)

    def _checked_rows(self, predictions, references, start=0):
        return stored_rows(predictions, references, start)

    def _checked_options(self, convention=DEFAULT_CONVENTION, details=False):
        check_convention(convention)
        check_details(details)

    def _compute(self, predictions, references, convention=DEFAULT_CONVENTION, details=False):
        self._checked_options(convention, details)
        predictions = [from_record(row) for row in predictions]
        references = [from_record(row) for row in references]
        return score_rows(predictions, references, convention, details)
