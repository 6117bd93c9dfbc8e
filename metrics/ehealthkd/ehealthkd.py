"""``ehealthkd``: the eHealth-KD 2019, 2020 and 2021 evaluations as an ``evaluate`` metric."""

import datasets
import evaluate

# evaluate's loader copies only the modules a script imports itself: every module of the scoring
# core is named here, those the script does not use too.
from .checked_metric import CheckedRows
from .details import item_details
from .plain_values import as_int, as_list
from .records import ALL_SCENARIOS
from .rows import check_edition, check_lengths, check_rows, check_scenario, normalize_row
from .scoring import ehealthkd, score
from .shortcuts import keyphrase_match

_CITATION = """\
@inproceedings{piad-morffis-etal-2019-overview,
    title = "Overview of the {eHealth} Knowledge Discovery Challenge at {IberLEF} 2019",
    author = "Piad-Morffis, Alejandro and Guti{\\'e}rrez, Yoan and Consuegra-Ayala, Juan Pablo and
              Estevez-Velarde, Suilan and Almeida-Cruz, Yudivi{\\'a}n and Mu{\\~n}oz, Rafael and
              Montoyo, Andr{\\'e}s",
    booktitle = "Proceedings of the Iberian Languages Evaluation Forum (IberLEF 2019)",
    series = "CEUR Workshop Proceedings",
    volume = "2421",
    year = "2019",
}
"""

_DESCRIPTION = """\
The official eHealth-KD 2019 evaluation (knowledge-learning/ehealthkd-2019 `scripts/evaltest.py`),
re-implemented so that every number is bit-identical to it. Subtask A key phrases are matched as
correct, incorrect (same spans, other label), partial (overlap, any label), missing or spurious;
Subtask B relations as correct, missing or spurious, their endpoints mapped through the correct
and partial key-phrase matches. The config name picks the scenario: `scenario1` (default, A + B),
`scenario2` (A only) or `scenario3` (B given the gold A). Partial matches count half.
`edition=2020` scores by the eHealth-KD 2020 rules (knowledge-learning/ehealthkd-2020): partial
matches need the same label, sentences are aligned by their normalised text, key phrases are
sorted, relation labels are compared as written, and `scenario4` (the transfer scenario, A + B)
is added. `edition=2021` scores by the same rules (ehealthkd/corpora `scripts/score.py`), in
scenarios 1 to 3, with no relation counts in scenario 2.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one dict per sentence, in the reference order:
        `text` (str): the sentence (a pair whose texts differ is skipped, as officially);
        `keyphrases` (list): records `{"id": int, "label": str, "spans": [[start, end], ...]}`
            with sentence-relative [start, end) character offsets; a phrase given as one span is
            split into words at the spaces of `text`, as officially;
        `relations` (list): records `{"label": str, "source": int, "target": int}`, whose
            source and target are key-phrase ids of the same sentence (labels compared
            lower-cased; `same-as` is symmetric).
    references: the gold sentences, in the same form. Gold sentences without any key phrase or
        relation are skipped, predictions included.
    details (bool, default False): also return `details`, one record per key phrase (scenario1
        and scenario2) and per relation line (scenario1 and scenario3) of the evaluated
        sentences, for error analysis: `sentence` (row position), `kind` ("key phrase" or
        "relation"), `outcome` (correct, incorrect, partial, missing, spurious; "ignored" for a
        duplicate relation line), gold and predicted `*_label`, `*_text`, `*_id` and `*_spans`
        (key phrases) or `*_source` and `*_target` ids (relations), and `why`.
    edition (int, default 2019): the edition whose official evaluation is reproduced, 2019,
        2020 or 2021 (see the metric card's "Editions" for the rules that differ).
Returns:
    correct_A, incorrect_A, partial_A, missing_A, spurious_A, correct_B, missing_B, spurious_B:
        the counts over the evaluated sentences (all eight in every scenario);
    precision: (C + P/2) / (C + P + I + S), recall: (C + P/2) / (C + P + I + M), where C, P, I,
        M, S are the scenario's correct, partial, incorrect, missing and spurious counts
        (scenario1: A + B, scenario2: A, scenario3: B);
    f1: 2 * precision * recall / (precision + recall).
    A zero denominator gives the int 0, as in the official output.
    details (with details=True): the per-item records; their outcomes add up to the counts.
Examples:
    The sentence "El tipo de cáncer afecta a las vías respiratorias ." with its gold annotation;
    the prediction gives "vías respiratorias" as one span (split at the space, hence correct),
    labels "afecta" as a Concept (incorrect, so its relations cannot match) and writes a
    reversed relation:

    >>> import evaluate
    >>> text = "El tipo de cáncer afecta a las vías respiratorias ."
    >>> gold = {"text": text,
    ...         "keyphrases": [{"id": 1, "label": "Concept", "spans": [[3, 7]]},
    ...                        {"id": 2, "label": "Concept", "spans": [[11, 17]]},
    ...                        {"id": 3, "label": "Action", "spans": [[18, 24]]},
    ...                        {"id": 4, "label": "Concept", "spans": [[31, 35], [36, 49]]}],
    ...         "relations": [{"label": "subject", "source": 3, "target": 2},
    ...                       {"label": "target", "source": 3, "target": 4},
    ...                       {"label": "is-a", "source": 2, "target": 4}]}
    >>> pred = {"text": text,
    ...         "keyphrases": [{"id": 7, "label": "Concept", "spans": [[3, 10]]},
    ...                        {"id": 8, "label": "Concept", "spans": [[11, 17]]},
    ...                        {"id": 9, "label": "Concept", "spans": [[18, 24]]},
    ...                        {"id": 10, "label": "Concept", "spans": [[31, 49]]}],
    ...         "relations": [{"label": "subject", "source": 9, "target": 8},
    ...                       {"label": "is-a", "source": 10, "target": 8}]}
    >>> ehealthkd = evaluate.load("ehealthkd")
    >>> results = ehealthkd.compute(predictions=[pred], references=[gold])
    >>> print(results)
    {'correct_A': 2, 'incorrect_A': 1, 'partial_A': 1, 'missing_A': 0, 'spurious_A': 0, \
'correct_B': 0, 'missing_B': 3, 'spurious_B': 2, 'precision': 0.4166666666666667, \
'recall': 0.35714285714285715, 'f1': 0.3846153846153846}

    Scenario 2 scores the key phrases only; nothing to score gives the int 0:

    >>> task_a = evaluate.load("ehealthkd", "scenario2")
    >>> print(task_a.compute(predictions=[pred], references=[gold])["f1"])
    0.625
    >>> print(task_a.compute(predictions=[pred], references=[dict(gold, keyphrases=[],
    ...                      relations=[])])["precision"])
    0

    With `details=True`, each item says how it was counted and why:

    >>> records = task_a.compute(predictions=[pred], references=[gold], details=True)["details"]
    >>> for r in records:
    ...     print(r["outcome"], repr(r["predicted_text"]), "|", r["why"])
    partial 'tipo de' | overlaps gold phrase 1 ('tipo')
    correct 'cáncer' | same spans and label
    incorrect 'afecta' | same spans, other label
    correct 'vías respiratorias' | same spans and label
"""

_SPANS = datasets.List(datasets.List(datasets.Value("int64")))
_SENTENCE = {
    "text": datasets.Value("string"),
    "keyphrases": datasets.List(
        {"id": datasets.Value("int64"), "label": datasets.Value("string"), "spans": _SPANS}
    ),
    "relations": datasets.List(
        {
            "label": datasets.Value("string"),
            "source": datasets.Value("int64"),
            "target": datasets.Value("int64"),
        }
    ),
}
_FEATURES = datasets.Features({"predictions": _SENTENCE, "references": _SENTENCE})


def _checked(rows, side, start):
    """Rows checked as the core checks them (before datasets' encoding can coerce values),
    as new rows of plain Python values (numpy and torch numbers, 1-d arrays as lists)."""
    out = []
    for index, row in enumerate(rows, start):
        normalize_row(side, index, row)
        keyphrases = [
            {
                "id": as_int(k["id"]),
                "label": k["label"],
                "spans": [[as_int(n) for n in as_list(pair)] for pair in k["spans"]],
            }
            for k in row["keyphrases"]
        ]
        relations = [
            {"label": r["label"], "source": as_int(r["source"]), "target": as_int(r["target"])}
            for r in row["relations"]
        ]
        out.append({"text": row["text"], "keyphrases": keyphrases, "relations": relations})
    return out


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ehealthkd(CheckedRows, evaluate.Metric):
    def _info(self):
        if self.config_name not in ("default", *ALL_SCENARIOS):
            raise ValueError(
                f"ehealthkd: unknown config {self.config_name!r}; expected one of "
                f"{', '.join(ALL_SCENARIOS)} (default scenario1; scenario4: edition 2020)"
            )
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            homepage="https://github.com/knowledge-learning/ehealthkd-2019",
            codebase_urls=["https://github.com/knowledge-learning/ehealthkd-2019"],
            reference_urls=["https://ceur-ws.org/Vol-2421/"],
            license="mit",
        )

    @property
    def _scenario(self):
        return "scenario1" if self.config_name == "default" else self.config_name

    def _score_rows(self, predictions, references, **options):
        return ehealthkd(predictions, references, self._scenario, **options)

    def _checked_rows(self, predictions, references, start=0):
        # The order of the core's checks, so that both compute() paths report alike.
        check_rows(predictions, "predictions")
        check_rows(references, "references")
        check_lengths(len(predictions), len(references))
        return _checked(predictions, "predictions", start), _checked(
            references, "references", start
        )

    def _checked_options(self, details=False, edition=2019):
        check_scenario(self._scenario, check_edition(edition))

    def _compute(self, predictions, references, details=False, edition=2019):
        # The rows were checked on the way in; normalising again (single spans split into
        # words, relation labels lower-cased in 2019) is what the scoring needs.
        check_edition(edition)
        preds = [normalize_row("predictions", i, r, edition) for i, r in enumerate(predictions)]
        refs = [normalize_row("references", i, r, edition) for i, r in enumerate(references)]
        return score(preds, refs, self._scenario, details=details, edition=edition)
