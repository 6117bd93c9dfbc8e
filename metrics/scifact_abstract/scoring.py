"""The rule of ``scifact_abstract`` and ``scifact_sentence``: the SciFact leaderboard evaluator.

Plain Python, shared by both metric folders (one file; the other folder holds a symlink to it).
It reproduces allenai/scifact-evaluator ``evaluator/eval.py`` (2021-12-28) run with ``--verbose``,
and reads in the same order: a claim's gold abstracts (``unify_label``), what makes one predicted
abstract correct at each level, the counters pooled over all claims, and precision, recall and F1
from them. Every path uses these functions: ``count`` over checked rows, ``fast_counts`` over the
parsed lines of the official files, and the per-item ``details``.

Rows, one per claim, paired by position and required to carry the same claim ``id``:

* a prediction is ``{"id": int, "evidence": [{"doc_id": str, "label": str, "sentences": [int]}]}``,
  one evidence entry per predicted abstract (a repeated ``doc_id`` keeps its last entry, as a
  repeated key of an official JSON object does);
* a reference has the same shape with one evidence entry per gold rationale: an abstract with two
  rationales appears twice. NOT ENOUGH INFO claims have no entries.

``scifact_scores(predictions, references)`` checks the rows (``rows``) and returns the
leaderboard's 12 numbers; ``abstract_level`` / ``sentence_level`` return one half each, optionally
with per-item ``details`` for error analysis. The checks, the details and the one-pass count of
official files live in their own modules (``rows``, ``details``, ``fast_counts``); their public
names are reachable from here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .plain_values import shown

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

    # A gold evidence abstract: (its label, its rationales as sets of sentence indices).
    GoldAbstract = tuple[str, list[frozenset]]

# The only labels a prediction may carry (eval.py's ``allowed_labels``): any other stops the run.
LABELS = ("SUPPORT", "CONTRADICT")
# The abstract-level Label+Rationale check reads at most this many predicted sentences, unless
# every gold rationale of the abstract is longer.
MIN_SENTENCE_CAP = 3
ABSTRACT_KEYS = tuple(
    f"abstract_{m}_{s}"
    for m in ("label_only", "rationalized")
    for s in ("precision", "recall", "f1")
)
SENTENCE_KEYS = tuple(
    f"sentence_{m}_{s}" for m in ("selection", "label") for s in ("precision", "recall", "f1")
)


# ---------------------------------------------------------------------------------------------
# A claim's gold evidence


def gold_abstracts(rationales: Iterable[tuple[str, str, Sequence]]) -> dict[str, GoldAbstract]:
    """The gold evidence abstracts of a claim from its rationales ``(doc_id, label, sentences)``,
    in order: doc_id -> (the label of its first rationale, its rationales as sets)."""
    abstracts: dict[str, GoldAbstract] = {}
    for doc_id, label, sentences in rationales:
        abstracts.setdefault(doc_id, (label, []))[1].append(frozenset(sentences))
    return abstracts


def predicted_abstracts(evidence: Sequence[Mapping]) -> Sequence[Mapping]:
    """A prediction row's abstracts as the official ``evidence`` object holds them: one entry per
    doc id, a repeated one keeping its first position and its last content (Python's ``json``)."""
    return evidence if len(evidence) < 2 else list({e["doc_id"]: e for e in evidence}.values())


def row_gold(evidence: Sequence[Mapping]) -> dict[str, GoldAbstract]:
    """``gold_abstracts`` of a reference row's evidence (one entry per rationale)."""
    return gold_abstracts((e["doc_id"], e["label"], e["sentences"]) for e in evidence)


# ---------------------------------------------------------------------------------------------
# One predicted abstract of a gold evidence abstract


def label_match(label: str, abstract: GoldAbstract) -> bool:
    """Label-Only, and the label half of Selection+Label: the abstract's gold label is predicted."""
    return label == abstract[0]


def sentence_cap(rationales: Sequence[frozenset]) -> int:
    """How many predicted sentences Label+Rationale reads: 3, or the size of the abstract's
    smallest rationale when every one is longer."""
    return max(MIN_SENTENCE_CAP, min(map(len, rationales)))


def rationale_within_cap(sentences: Sequence, abstract: GoldAbstract) -> frozenset | None:
    """Label+Rationale's sentence half: the first gold rationale that lies wholly within the first
    ``sentence_cap`` predicted sentences, in the order given (a duplicate takes a slot), or None."""
    rationales = abstract[1]
    head = set(sentences[: sentence_cap(rationales)])
    for r in rationales:
        if r <= head:
            return r
    return None


def complete_rationales(sentences: Sequence, abstract: GoldAbstract) -> list[frozenset]:
    """The gold rationales wholly among the predicted sentences, the whole list (nothing cut)."""
    predicted = set(sentences)
    return [r for r in abstract[1] if r <= predicted]


def selected_sentences(sentences: Sequence, abstract: GoldAbstract) -> int:
    """Selection-Only: the predicted sentences whose whole gold rationale is predicted; each
    counts once, however often it is listed (a partial rationale earns nothing)."""
    return sum(map(len, complete_rationales(sentences, abstract)))


# ---------------------------------------------------------------------------------------------
# Counting


class Counts:
    """The official evaluator's counters, pooled over all claims (micro averages); ``Counts(*v)``
    takes them in the order of ``FIELDS``. (Not a dataclass: dataclasses imports inspect, which
    costs the command line more than scoring a small file.)"""

    FIELDS = (
        "abstract_relevant",
        "abstract_retrieved",
        "abstract_label_only",
        "abstract_rationalized",
        "sentence_relevant",
        "sentence_retrieved",
        "sentence_selection",
        "sentence_label",
    )
    __slots__ = FIELDS

    def __init__(self, *values: int) -> None:
        for name, value in zip(self.FIELDS, values or (0,) * len(self.FIELDS), strict=True):
            setattr(self, name, value)


def count_gold(c: Counts, gold: Mapping[str, GoldAbstract]) -> None:
    """Add a claim's gold evidence to recall's denominators: its gold evidence abstracts, and the
    sentences of their rationales (no rationale repeats a sentence: a set's size is the list's)."""
    c.abstract_relevant += len(gold)
    for _, rationales in gold.values():
        c.sentence_relevant += sum(map(len, rationales))


def count_abstract(
    c: Counts, gold: Mapping[str, GoldAbstract], doc_id: str, label: str, sentences: Sequence
) -> None:
    """Add one predicted abstract of a claim to the counters, at both levels."""
    c.abstract_retrieved += 1
    c.sentence_retrieved += len(sentences)  # duplicates count, nothing is cut
    abstract = gold.get(doc_id)
    if abstract is None:  # not gold evidence for this claim: retrieved only
        return
    selected = selected_sentences(sentences, abstract)
    c.sentence_selection += selected
    if label_match(label, abstract):
        c.sentence_label += selected
        c.abstract_label_only += 1
        if rationale_within_cap(sentences, abstract) is not None:
            c.abstract_rationalized += 1


def count(predictions: Sequence[Mapping], references: Sequence[Mapping]) -> Counts:
    """Pool the eight counters over checked rows (see ``rows``), raw or canonical."""
    c = Counts()
    for pred, ref in zip(predictions, references):
        gold = row_gold(ref["evidence"])
        count_gold(c, gold)
        for entry in predicted_abstracts(pred["evidence"]):
            count_abstract(c, gold, entry["doc_id"], entry["label"], entry["sentences"])
    return c


# ---------------------------------------------------------------------------------------------
# Scores


def _div(a: float, b: float) -> float:
    return 0.0 if b == 0 else a / b


def prf(prefix: str, correct: int, retrieved: int, relevant: int) -> dict[str, float]:
    """Precision, recall and F1 from pooled counts; each zero denominator gives 0.0."""
    # F1 from the float precision and recall, division last: 2c/(ret+rel) differs in the last bit.
    precision = _div(correct, retrieved)
    recall = _div(correct, relevant)
    f1 = _div(2 * precision * recall, precision + recall)
    return {f"{prefix}_precision": precision, f"{prefix}_recall": recall, f"{prefix}_f1": f1}


def abstract_scores(c: Counts) -> dict[str, float]:
    """The six abstract-level numbers (Label-Only, Label+Rationale) in the leaderboard's order."""
    return {
        **prf(
            "abstract_label_only", c.abstract_label_only, c.abstract_retrieved, c.abstract_relevant
        ),
        **prf(
            "abstract_rationalized",
            c.abstract_rationalized,
            c.abstract_retrieved,
            c.abstract_relevant,
        ),
    }


def sentence_scores(c: Counts) -> dict[str, float]:
    """The six sentence-level numbers (Selection-Only, Selection+Label) in the leaderboard's order."""
    return {
        **prf(
            "sentence_selection", c.sentence_selection, c.sentence_retrieved, c.sentence_relevant
        ),
        **prf("sentence_label", c.sentence_label, c.sentence_retrieved, c.sentence_relevant),
    }


# ---------------------------------------------------------------------------------------------
# The front door: checked rows in, numbers out


def abstract_level(
    predictions: Sequence[Mapping], references: Sequence[Mapping], details: bool = False
) -> dict[str, Any]:
    """Check the rows and return the six abstract-level numbers (what ``scifact_abstract``
    computes); with ``details=True`` also ``"details"``, see ``details.abstract_details``."""
    from .rows import checked_rows  # see _ELSEWHERE

    predictions, references = checked_rows(predictions, references)
    result: dict[str, Any] = abstract_scores(count(predictions, references))
    if details:
        from .details import abstract_details  # see _ELSEWHERE

        result["details"] = abstract_details(predictions, references)
    return result


def sentence_level(
    predictions: Sequence[Mapping], references: Sequence[Mapping], details: bool = False
) -> dict[str, Any]:
    """Check the rows and return the six sentence-level numbers (what ``scifact_sentence``
    computes); with ``details=True`` also ``"details"``, see ``details.sentence_details``."""
    from .rows import checked_rows  # see _ELSEWHERE

    predictions, references = checked_rows(predictions, references)
    result: dict[str, Any] = sentence_scores(count(predictions, references))
    if details:
        from .details import sentence_details  # see _ELSEWHERE

        result["details"] = sentence_details(predictions, references)
    return result


def scifact_scores(
    predictions: Sequence[Mapping], references: Sequence[Mapping]
) -> dict[str, float]:
    """Check the rows and return the leaderboard's 12 numbers, as ``eval.py --verbose`` writes them."""
    from .rows import checked_rows  # see _ELSEWHERE

    c = count(*checked_rows(predictions, references))
    return {**abstract_scores(c), **sentence_scores(c)}


# The modules around the rule, which build on this one: the row checks, the per-item details and
# the one-pass count of official files. Their public names are reachable from here too, each
# module imported when first needed (the command line's fast path never needs the checks).
_ELSEWHERE = {
    "check_pairs": "rows",
    "check_predictions": "rows",
    "check_references": "rows",
    "checked_rows": "rows",
    "prediction_records": "rows",
    "reference_records": "rows",
    "ABSTRACT_OUTCOMES": "details",
    "SENTENCE_OUTCOMES": "details",
    "abstract_details": "details",
    "sentence_details": "details",
    "official_counts": "fast_counts",
}


def __getattr__(name: str) -> Any:
    if name in _ELSEWHERE:
        from importlib import import_module

        value = getattr(import_module(f".{_ELSEWHERE[name]}", __package__), name)
        globals()[name] = value  # found directly from now on
        return value
    raise AttributeError(f"module {shown(__name__)} has no attribute {shown(name)}")
