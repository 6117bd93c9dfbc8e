"""``averitec``: the AVeriTeC shared task's official scores (Hungarian METEOR evidence scores,
label accuracy and F1, the AVeriTeC score) as an ``evaluate`` metric."""

import datasets
import evaluate

# evaluate's loader copies only the modules a script imports itself: every module of the scoring
# core is named here.
from .checked_metric import CheckedRows
from .ev2r import scores as ev2r_scores
from .float_sums import numpy_mean
from .inputs import read_official
from .meteor import PairwiseMeteor
from .plain_values import shown
from .rows import check_ids, check_lengths, checked
from .scoring import DEFAULT_EDITION, DEFAULT_NLTK, check_options, score, score_rows
from .tokens import tokenizer
from .wordnet_data import wordnet_folder

_CITATION = """\
@inproceedings{schlichtkrull-etal-2023-averitec,
    title = "{AV}eri{T}e{C}: A Dataset for Real-world Claim Verification with Evidence from
             the Web",
    author = "Schlichtkrull, Michael and Guo, Zhijiang and Vlachos, Andreas",
    booktitle = "Advances in Neural Information Processing Systems 36 (NeurIPS 2023),
                 Datasets and Benchmarks Track",
    year = "2023",
}
"""

_DESCRIPTION = """\
The official scores of the AVeriTeC shared tasks (FEVER 2024 and 2025), bit for bit: the
question-only and question+answer evidence scores (a Hungarian assignment of predicted to gold
evidence over nltk's METEOR of the strings), label accuracy and F1, and the AVeriTeC score (a
claim counts when its label is right and its evidence score passes a threshold; 0.25 is the
headline). Offline: WordNet 3.0 and punkt's English parameters come from PyPI packages, checked
by content hash. The tokens, and so the last digits, depend on the nltk release: the `nltk`
option gives the numbers of 3.9.1 (the default: FEVER-8's pinned release, and the one that
reproduces the published 2024 baseline) or of 3.10.4, whichever nltk is installed.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one row per claim, paired with the references by position: `id` (optional;
        when both rows have one they must be equal), `label` (the predicted verdict),
        `evidence` (a list of `{"question", "answer"}`, the first ten are scored), and
        optionally `string_evidence` (a list of strings; not 2025), and for the 2023 edition
        `questions` (in the gold's shape, read instead of `evidence`) and `justification`.
        None where absent.
    references: one row per claim: `id`, `label`, `claim_types` (a list of strings, or None),
        `questions`: `[{"question", "answers": [{"answer", "answer_type",
        "boolean_explanation"}]}]` (AVeriTeC's dev.json questions) and `justification` (read
        by 2023).
    edition ("2024", "2025" or "2023", default "2024"): which official scorer. 2024: FEVER-7's
        evaluate_veracity.py (thresholds 0.1 to 0.5, accuracy, F1, scores by claim type);
        2025: FEVER-8's "old AVeriTeC score" (gold questions counted once, question-answer
        pairs only, the threshold 0.25); 2023: the AVeriTeC paper's eval.py (justification
        scores too).
    nltk ("3.9.1" or "3.10.4", default "3.9.1"): whose word_tokenize tokens to compare.
    details (bool, default False): also return `details`, one record per claim.
    ev2r (2025 only; default None): recorded Ev2R judge answers, `{"question": [...],
        "qa_pair": [...]}`, each answer `{"id", "response"}` in the order the scorer got them:
        adds `ev2r_q_recall`, `ev2r_qa_recall` and `ev2r@0.5` (FEVER-8's new AVeriTeC score),
        recomputed from the answers; no model is called.
Returns:
    `q_only`, `q_and_a` (the mean Hungarian METEOR of the questions, and of question + answer
    strings), `averitec@<threshold>` (the share of claims whose label is right and whose
    question + answer score is above the threshold); 2024 and 2023 also `accuracy`,
    `macro_f1`, `f1[<verdict>]` and `by_type@<threshold>[<claim type>]` (2024: 0.25; 2023: 0.2
    and 0.3); 2023 also `justification` and `justification@<threshold>`.
Examples:
    >>> import evaluate
    >>> averitec = evaluate.load("averitec")
    >>> gold = [{"id": "0", "label": "Refuted", "claim_types": ["Numerical Claim"],
    ...          "questions": [{"question": "How many people live in Paris?",
    ...                         "answers": [{"answer": "About two million.",
    ...                                      "answer_type": "Extractive",
    ...                                      "boolean_explanation": None}]}]}]
    >>> guess = [{"id": "0", "label": "Refuted", "string_evidence": None,
    ...           "evidence": [{"question": "What is the population of Paris?",
    ...                         "answer": "Two million people."}]}]
    >>> averitec.compute(predictions=guess, references=gold, edition="2025")
    {'q_only': 0.3650793650793651, 'q_and_a': 0.520408163265306, 'averitec@0.25': 1.0}
"""

_ANSWER = {
    "answer": datasets.Value("string"),
    "answer_type": datasets.Value("string"),
    "boolean_explanation": datasets.Value("string"),
}
_QUESTIONS = datasets.List(
    {"question": datasets.Value("string"), "answers": datasets.List(_ANSWER)}
)
_FEATURES = datasets.Features(
    {
        "predictions": {
            "id": datasets.Value("string"),
            "label": datasets.Value("string"),
            "evidence": datasets.List(
                {"question": datasets.Value("string"), "answer": datasets.Value("string")}
            ),
            "string_evidence": datasets.List(datasets.Value("string")),
            "questions": _QUESTIONS,
            "justification": datasets.Value("string"),
        },
        "references": {
            "id": datasets.Value("string"),
            "label": datasets.Value("string"),
            "claim_types": datasets.List(datasets.Value("string")),
            "questions": _QUESTIONS,
            "justification": datasets.Value("string"),
        },
    }
)

# Named so that evaluate copies every module the scoring core reads (see the imports above).
_CORE = (numpy_mean, PairwiseMeteor, tokenizer, wordnet_folder, read_official, ev2r_scores)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Averitec(CheckedRows, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            homepage="https://fever.ai/",
            codebase_urls=[
                "https://github.com/Raldir/FEVER-8-Shared-Task",
                "https://github.com/MichSchli/AVeriTeC",
            ],
            reference_urls=["https://arxiv.org/abs/2305.13117"],
            license="apache-2.0",
        )

    def _score_rows(self, predictions, references, **options):
        return score_rows(predictions, references, **options)

    def _checked_rows(self, predictions, references, start=0):
        preds = checked(predictions, "predictions", start)
        refs = checked(references, "references", start)
        check_lengths(len(preds), len(refs))
        check_ids(preds, refs, start)
        return preds, refs

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference (checked first), stored as a batch of one:
        evaluate's own add() refuses a row whose optional fields are None."""
        if prediction is None or reference is None or kwargs:  # CheckedRows' own messages
            return super().add(prediction=prediction, reference=reference, **kwargs)
        self.add_batch(predictions=[prediction], references=[reference])

    def _checked_options(
        self, edition=DEFAULT_EDITION, nltk=DEFAULT_NLTK, details=False, ev2r=None
    ):
        check_options(edition, nltk, ev2r)
        if not isinstance(details, bool):
            raise ValueError(f"details must be True or False, got {shown(details)}")

    def _compute(
        self,
        predictions,
        references,
        edition=DEFAULT_EDITION,
        nltk=DEFAULT_NLTK,
        details=False,
        ev2r=None,
    ):
        check_lengths(len(predictions), len(references))
        return score(predictions, references, edition, nltk, details, ev2r)
