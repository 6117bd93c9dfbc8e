"""Scoring core of ``ehealthkd``: the eHealth-KD 2019 evaluation (``scripts/evaltest.py`` with
``scripts/score.py``), one official rule per function, in the order the official code applies
them (the 2020 edition, ``edition=2020``, replaces the rules named after each step; the 2021
edition's scorer is 2020's, ``uses_2020_rules``):

1. the evaluated sentence pairs: paired by position, skipped when the gold has no annotation or
   the texts differ (``match_pairs``; 2020: ``aligned_pairs``, then ``sorted_keyphrases``);
2. Subtask A, three first-match, one-to-one passes in submission × gold order: ``correct_match``,
   ``incorrect_match``, ``partial_match`` (``match_keyphrases``; 2020:
   ``labelled_partial_match``);
3. Subtask B, both sides without duplicates, endpoints mapped through correct or partial
   key-phrase matches only, gold ``same-as`` classes (``find_relation``, ``match_relations``);
4. the eight counts (``pair_counts``, ``totals``), the scenario's share of them
   (``scenario_counts``; 2020 adds scenario 4) and precision, recall and F1 from those
   (``precision_recall_f1``; 2020: ``zero_ratio`` is the float 0.0).

``score`` runs them on ``Sentence`` tuples; ``ehealthkd`` checks sentence rows first
(``rows.py``). Shortcuts that give the same records faster on common pairs are in
``shortcuts.py``; the per-item explanations (``details=True``) in ``details.py``, from the same
records and the same rule functions.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from . import shortcuts
from .plain_values import shown
from .records import (
    ALL_SCENARIOS,
    EDITIONS,
    SCENARIOS,
    Keyphrase,
    KeyphraseMatch,
    PairMatch,
    Pairs,
    Relation,
    RelationMatch,
    Sentence,
    split_words,
    unique_relations,
)
from .rows import (
    check_edition,
    check_lengths,
    check_rows,
    check_scenario,
    normalize_row,
    normalize_rows,
    span_problem,
    uses_2020_rules,
)

# Names of the records and row checks, importable from here as before.
__all__ = [
    "ALL_SCENARIOS",
    "COUNT_KEYS",
    "EDITIONS",
    "OUTPUT_KEYS",
    "SAME_AS",
    "SCENARIOS",
    "Keyphrase",
    "KeyphraseMatch",
    "PairMatch",
    "Pairs",
    "Relation",
    "RelationMatch",
    "Sentence",
    "check_edition",
    "check_lengths",
    "check_rows",
    "check_scenario",
    "count",
    "ehealthkd",
    "match_keyphrases",
    "match_pairs",
    "match_relations",
    "metrics",
    "normalize_row",
    "normalize_rows",
    "score",
    "scores_of",
    "span_problem",
    "split_words",
    "totals",
]

COUNT_KEYS = (
    "correct_A",
    "incorrect_A",
    "partial_A",
    "missing_A",
    "spurious_A",
    "correct_B",
    "missing_B",
    "spurious_B",
)
OUTPUT_KEYS = (*COUNT_KEYS, "precision", "recall", "f1")
SAME_AS = "same-as"


# --------------------------------------------------------------------------------------------
# Subtask A: key phrases


def same_spans(a: Pairs, b: Pairs) -> bool:
    """Official ``find_keyphrase(spans=...)``: the pairs are equal, in the same order."""
    return a == b


def overlap(a: Pairs, b: Pairs) -> bool:
    """Official ``partial_match``: a pair start of one phrase lies inside a [start, end) pair of
    the other (so touching phrases do not overlap, and an empty pair can)."""
    for x, _ in b:
        for s, e in a:
            if s <= x < e:
                return True
    for x, _ in a:
        for s, e in b:
            if s <= x < e:
                return True
    return False


def first_same_spans(
    phrase: Keyphrase, gold: Sequence[Keyphrase], left: Sequence[int]
) -> int | None:
    """The first remaining gold phrase (index) with the same spans, whatever its label."""
    pairs = phrase.pairs
    for j in left:
        if same_spans(gold[j].pairs, pairs):
            return j
    return None


def correct_match(phrase: Keyphrase, gold: Sequence[Keyphrase], left: list[int]) -> int | None:
    """Correct: the first remaining gold phrase with the same spans, if its label is the same.
    Only that first span-identical gold phrase is examined, as officially."""
    j = first_same_spans(phrase, gold, left)
    return j if j is not None and gold[j].label == phrase.label else None


def incorrect_match(
    phrase: Keyphrase, gold: Sequence[Keyphrase], left: list[int], where: str
) -> int | None:
    """Incorrect (after the correct pass): the first remaining gold phrase with the same spans.

    Its label must differ: the official tool fails an assertion otherwise (gold phrases with
    identical spans submitted in another order), so there is no official number and this raises
    a ``ValueError`` (``where`` names the sentence pair).
    """
    j = first_same_spans(phrase, gold, left)
    if j is not None and gold[j].label == phrase.label:
        raise ValueError(
            f"{where}, key phrase id {phrase.id}: same spans and label {shown(gold[j].label)} as the "
            f"reference key phrase id {gold[j].id}, which an earlier prediction with identical "
            f"spans could not claim; the official evaluation fails an assertion on this input "
            f"(list span-identical key phrases in the reference order)"
        )
    return j


def partial_match(phrase: Keyphrase, gold: Sequence[Keyphrase], left: list[int]) -> int | None:
    """Partial (after the exact-span passes): the first remaining gold phrase that overlaps,
    *whatever its label*."""
    pairs = phrase.pairs
    for j in left:
        if overlap(pairs, gold[j].pairs):
            return j
    return None


def labelled_partial_match(
    phrase: Keyphrase, gold: Sequence[Keyphrase], left: list[int]
) -> int | None:
    """2020 partial (after the exact-span passes): the first remaining gold phrase *with the same
    label* that overlaps."""
    pairs, label = phrase.pairs, phrase.label
    for j in left:
        if gold[j].label == label and overlap(pairs, gold[j].pairs):
            return j
    return None


def match_keyphrases(
    submitted: Sequence[Keyphrase],
    gold: Sequence[Keyphrase],
    where: str = "sentence",
    edition: int = 2019,
) -> KeyphraseMatch:
    """Subtask A on one sentence pair: the correct, incorrect and partial passes, each over the
    submitted phrases left in order, pairing one to one; what is left is spurious or missing.
    The partial pass is the edition's (``partial_match``, ``labelled_partial_match``)."""
    outcome = ["spurious"] * len(submitted)
    gold_of: list[int | None] = [None] * len(submitted)
    sub_left, gold_left = list(range(len(submitted))), list(range(len(gold)))
    passes = (
        ("correct", correct_match),
        ("incorrect", lambda phrase, gold, left: incorrect_match(phrase, gold, left, where)),
        ("partial", labelled_partial_match if uses_2020_rules(edition) else partial_match),
    )
    for kind, find in passes:
        for i in list(sub_left):
            j = find(submitted[i], gold, gold_left)
            if j is not None:
                outcome[i], gold_of[i] = kind, j
                sub_left.remove(i)
                gold_left.remove(j)
    return KeyphraseMatch(outcome, gold_of, len(gold))


# --------------------------------------------------------------------------------------------
# Subtask B: relations


def first_by_id(keyphrases: Sequence[Keyphrase]) -> dict[int, int]:
    """Official ``find_keyphrase(id=...)``: an id names the first phrase of the sentence with it."""
    first: dict[int, int] = {}
    for k, phrase in enumerate(keyphrases):
        first.setdefault(phrase.id, k)
    return first


class Classes(NamedTuple):
    """Gold ``same-as`` classes over key-phrase *positions* (not ids), as the official tool
    builds them: a relation end is the first phrase of the sentence with that id, so a later
    phrase reusing an id stays in a class of its own."""

    of_phrase: list[int]  # per gold phrase index: its class
    first: dict[int, int]  # gold id -> index of the first phrase with that id

    def of_id(self, kp_id: int) -> int:
        """The class of a relation end (an id): that of the first phrase with the id."""
        return self.of_phrase[self.first[kp_id]]


def same_as_classes(gold: Sentence) -> Classes:
    """Official ``DisjointSet``: the gold key phrases, merged along every gold ``same-as``
    (transitively)."""
    first = first_by_id(gold.keyphrases)
    parent = list(range(len(gold.keyphrases)))

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while x != root:
            parent[x], x = root, parent[x]
        return root

    for rel in gold.relations:
        if rel.label == SAME_AS:
            a, b = find(first[rel.source]), find(first[rel.target])
            if a != b:
                parent[a] = b
    return Classes([find(k) for k in range(len(parent))], first)


def mapped_ends(
    rel: Relation, sub_first: Mapping[int, int], mapping: Mapping[int, int]
) -> tuple[int, int] | None:
    """Official ``map_keyphrase``: the gold phrases (indices) a submitted relation's ends were
    matched to as *correct or partial* (``mapping``), or None if an end was not."""
    src, dst = mapping.get(sub_first[rel.source]), mapping.get(sub_first[rel.target])
    return None if src is None or dst is None else (src, dst)


def _first_by_ids(
    golds: Sequence[Relation], candidates: Sequence[int], label: str, src: int, dst: int
) -> int | None:
    return next((k for k in candidates if golds[k] == (label, src, dst)), None)


def _first_by_classes(
    golds: Sequence[Relation],
    candidates: Sequence[int],
    label: str,
    src_class: int,
    dst_class: int,
    cls: Classes,
) -> int | None:
    return next(
        (
            k
            for k in candidates
            if golds[k].label == label
            and cls.of_id(golds[k].source) == src_class
            and cls.of_id(golds[k].target) == dst_class
        ),
        None,
    )


def find_relation(
    golds: Sequence[Relation],
    candidates: Sequence[int],
    label: str,
    ids: tuple[int, int],
    classes: tuple[int, int],
    cls: Classes,
) -> tuple[int, str] | None:
    """The gold relation (index among ``candidates``) a submitted one matches, and by which rule,
    tried in the official order: same label and ends (``exact``), ``same-as`` written the other
    way (``reversed``), ends in the same gold ``same-as`` classes (``class``), and reversed so
    for ``same-as`` (``reversed class``).

    ``ids`` are the ids of the gold phrases the ends were matched to (the first two rules
    compare ids), ``classes`` the classes of those very phrases (the last two compare classes).
    """
    symmetric = label == SAME_AS
    (src, dst), (src_class, dst_class) = ids, classes
    k = _first_by_ids(golds, candidates, label, src, dst)
    if k is not None:
        return k, "exact"
    if symmetric and (k := _first_by_ids(golds, candidates, label, dst, src)) is not None:
        return k, "reversed"
    k = _first_by_classes(golds, candidates, label, src_class, dst_class, cls)
    if k is not None:
        return k, "class"
    if symmetric:
        k = _first_by_classes(golds, candidates, label, dst_class, src_class, cls)
        if k is not None:
            return k, "reversed class"
    return None


def match_relations(
    submitted: Sentence, gold: Sentence, mapping: Mapping[int, int]
) -> RelationMatch:
    """Subtask B on one sentence pair, endpoints mapped through ``mapping`` (correct, partial):
    each submitted relation in order takes the gold relation it matches, one to one."""
    golds = unique_relations(gold.relations)
    predicted = unique_relations(submitted.relations)
    gold_of: list[int | None] = [None] * len(predicted)
    how: list[str | None] = [None] * len(predicted)
    sub_first = first_by_id(submitted.keyphrases)
    cls = same_as_classes(gold)
    remaining = list(range(len(golds)))
    for p, rel in enumerate(predicted):
        ends = mapped_ends(rel, sub_first, mapping)
        if ends is None:
            continue
        ids = gold.keyphrases[ends[0]].id, gold.keyphrases[ends[1]].id
        classes = cls.of_phrase[ends[0]], cls.of_phrase[ends[1]]
        hit = find_relation(golds, remaining, rel.label, ids, classes, cls)
        if hit is not None:
            gold_of[p], how[p] = hit
            remaining.remove(hit[0])
    return RelationMatch(predicted, golds, gold_of, how)


# --------------------------------------------------------------------------------------------
# Sentence pairs


def is_annotated(gold: Sentence) -> bool:
    """Official: a gold sentence without key phrases and relations is skipped, predictions
    included."""
    return bool(gold.keyphrases or gold.relations)


def match_pair(
    index: int, submitted: Sentence, gold: Sentence, where: str, edition: int = 2019
) -> PairMatch:
    """Subtask A, then B through A's correct and partial matches, on one evaluated pair (a
    shortcut, where one applies, gives the very records the rule gives)."""
    a = shortcuts.keyphrase_match(submitted.keyphrases, gold.keyphrases)
    if a is None:
        a = match_keyphrases(submitted.keyphrases, gold.keyphrases, where, edition)
    b = shortcuts.relation_match(submitted.relations, gold.relations)
    if b is None:
        b = match_relations(submitted, gold, a.mapping())
    return PairMatch(index, submitted, gold, a, b)


def normalised_text(text: str) -> str:
    """2020: the text two sentences are aligned by, lower-cased, alphanumeric characters only."""
    return "".join(c.lower() for c in text if c.isalnum())


def aligned_pairs(
    predictions: Sequence[Sentence], references: Sequence[Sentence]
) -> list[tuple[int, int | None]]:
    """2020: ``(reference index, prediction index or None)`` for every reference sentence.

    Each reference in order is compared, by ``normalised_text``, with the next unused
    prediction: equal, both are used; else the reference gets no prediction (None: an empty
    one) and that prediction waits for the next reference. References left when the predictions
    end get none; predictions left when the references end are ignored, with a warning.
    """
    out: list[tuple[int, int | None]] = []
    sub, unmatched = 0, 0
    sub_keys = [normalised_text(s.text) for s in predictions]
    for index, gold in enumerate(references):
        if sub < len(predictions) and normalised_text(gold.text) == sub_keys[sub]:
            out.append((index, sub))
            sub += 1
        else:
            out.append((index, None))
            unmatched += 1
    if unmatched:
        warnings.warn(
            f"{unmatched} reference sentence(s) have no prediction with the same normalised text "
            f"where the alignment expects one; as in the official 2020 evaluation, they are "
            f"scored against an empty prediction",
            stacklevel=4,
        )
    if sub < len(predictions):
        warnings.warn(
            f"{len(predictions) - sub} prediction(s) left after the last reference sentence are "
            f"ignored, as in the official 2020 evaluation",
            stacklevel=4,
        )
    return out


def _sort_key(phrase: Keyphrase) -> tuple[int, ...]:
    return tuple([s for s, _ in phrase.pairs] + [e for _, e in phrase.pairs])


def sorted_keyphrases(sentence: Sentence) -> Sentence:
    """2020: the sentence with its key phrases sorted (stably) by their pair starts then pair
    ends, as the official reader leaves every sentence."""
    phrases = sorted(sentence.keyphrases, key=_sort_key)
    return sentence._replace(keyphrases=tuple(phrases))


def _aligned_matches(
    predictions: Sequence[Sentence],
    references: Sequence[Sentence],
    names: Sequence[str] | None,
) -> list[PairMatch]:
    out = []
    for index, sub_index in aligned_pairs(predictions, references):
        gold = references[index]
        if not is_annotated(gold):
            continue
        if sub_index is None:
            sub, where = Sentence(gold.text, (), ()), f"references[{index}]"
        else:
            sub = predictions[sub_index]
            where = names[sub_index] if names is not None else f"predictions[{sub_index}]"
        out.append(match_pair(index, sorted_keyphrases(sub), sorted_keyphrases(gold), where, 2020))
    return out


def match_pairs(
    predictions: Sequence[Sentence],
    references: Sequence[Sentence],
    names: Sequence[str] | None = None,
    edition: int = 2019,
) -> list[PairMatch]:
    """Match every evaluated sentence pair: paired by position, skipping the pairs whose gold has
    no annotation and, with a warning, those whose texts differ (their gold is not counted).
    2020: aligned by ``aligned_pairs`` (a pair's index is the reference's), key phrases in
    ``sorted_keyphrases`` order, skipping the pairs whose gold has no annotation.

    ``names`` name the pairs in errors (default ``predictions[i]``).
    """
    if uses_2020_rules(check_edition(edition)):
        return _aligned_matches(predictions, references, names)
    out = []
    mismatched = []
    for index, (sub, gold) in enumerate(zip(predictions, references)):
        if not is_annotated(gold):
            continue
        if sub.text != gold.text:
            mismatched.append(index)
            continue
        where = names[index] if names is not None else f"predictions[{index}]"
        out.append(match_pair(index, sub, gold, where))
    if mismatched:
        shown = ", ".join(map(str, mismatched[:5])) + (", ..." if len(mismatched) > 5 else "")
        warnings.warn(
            f"{len(mismatched)} annotated sentence(s) skipped because the predicted text differs "
            f"from the reference text (rows {shown}); as in the official evaluation, their gold "
            f"is not counted",
            stacklevel=3,
        )
    return out


# --------------------------------------------------------------------------------------------
# Counts, and precision, recall and F1


def pair_counts(m: PairMatch) -> tuple[int, ...]:
    """The eight official counts of one evaluated pair, in ``COUNT_KEYS`` order."""
    outcome = m.a.outcome
    spurious = outcome.count("spurious")
    correct_b = len(m.b.gold_of) - m.b.gold_of.count(None)
    return (
        outcome.count("correct"),
        outcome.count("incorrect"),
        outcome.count("partial"),
        m.a.n_gold - (len(outcome) - spurious),
        spurious,
        correct_b,
        len(m.b.gold) - correct_b,
        len(m.b.predicted) - correct_b,
    )


def totals(matches: Sequence[PairMatch]) -> dict[str, int]:
    """The eight official counts, summed over matched sentence pairs."""
    sums = list(map(sum, zip(*map(pair_counts, matches)))) or [0] * len(COUNT_KEYS)
    return dict(zip(COUNT_KEYS, sums))


def count(
    predictions: Sequence[Sentence],
    references: Sequence[Sentence],
    names: Sequence[str] | None = None,
    edition: int = 2019,
) -> dict[str, int]:
    """The eight official counts, summed over the evaluated sentence pairs."""
    return totals(match_pairs(predictions, references, names, edition))


def scenario_counts(
    counts: Mapping[str, int], scenario: str, edition: int = 2019
) -> tuple[int, int, int, int, int]:
    """Official ``compute_metrics(skipA=scenario 3, skipB=scenario 2)``: the scenario's correct,
    partial, incorrect, missing and spurious counts (scenario 1: A + B; 2: A; 3: B; 2020's
    scenario 4: A + B)."""
    check_scenario(scenario, edition)
    c = p = i = m = s = 0
    if scenario != "scenario3":
        c, p, i = counts["correct_A"], counts["partial_A"], counts["incorrect_A"]
        m, s = counts["missing_A"], counts["spurious_A"]
    if scenario != "scenario2":
        c, m, s = c + counts["correct_B"], m + counts["missing_B"], s + counts["spurious_B"]
    return c, p, i, m, s


def zero_ratio(edition: int = 2019) -> float | int:
    """What a zero denominator gives: the official 2019 JSON shows the *int* 0, 2020 the float
    0.0."""
    return 0.0 if uses_2020_rules(edition) else 0


def precision_recall_f1(
    correct: int, partial: int, incorrect: int, missing: int, spurious: int, edition: int = 2019
) -> dict[str, float | int]:
    """Official: partial matches count half; F1 from the float precision and recall (not the
    closed form from the counts); a zero denominator gives ``zero_ratio(edition)``."""
    zero = zero_ratio(edition)

    def ratio(numerator: float, denominator: float) -> float | int:
        return numerator / denominator if denominator else zero

    hits = correct + 0.5 * partial
    recall = ratio(hits, correct + partial + incorrect + missing)
    precision = ratio(hits, correct + partial + incorrect + spurious)
    f1 = ratio(2 * recall * precision, recall + precision)
    return {"precision": precision, "recall": recall, "f1": f1}


def metrics(
    counts: Mapping[str, int], scenario: str, edition: int = 2019
) -> dict[str, float | int]:
    """Precision, recall and F1 of a scenario from the eight counts."""
    return precision_recall_f1(*scenario_counts(counts, scenario, edition), edition)


# --------------------------------------------------------------------------------------------
# Entry points


def reported_counts(counts: dict[str, int], scenario: str, edition: int) -> dict[str, int]:
    """The counts the edition's evaluation reports for a scenario: 2021's ``score.py`` does not
    match relations in scenario 2 (it skips ``subtaskB``), so its B counts are 0 there; 2019 and
    2020 count both subtasks in every scenario."""
    if edition == 2021 and scenario == "scenario2":
        return {k: 0 if k.endswith("_B") else v for k, v in counts.items()}
    return counts


def reported_run(f1: float, kept_f1: float, edition: int) -> bool:
    """Whether the official tool reports a team's later run for a scenario in place of the one
    kept so far: ``evaltest --best`` (2019, 2020) when its F1 is higher (the first run on a tie);
    2021's ``score.py`` always: its comparison of F1s does nothing (``pass``), so the
    ``scenarioN_best`` it reports is the last run scored."""
    return edition == 2021 or f1 > kept_f1


def scores_of(matches: list[PairMatch], scenario: str, edition: int = 2019) -> dict[str, Any]:
    """The eleven official values of one scenario from its matched sentence pairs."""
    counts = reported_counts(totals(matches), scenario, edition)
    return {**counts, **metrics(counts, scenario, edition)}


def score(
    predictions: Sequence[Sentence],
    references: Sequence[Sentence],
    scenario: str = "scenario1",
    names: Sequence[str] | None = None,
    details: bool = False,
    edition: int = 2019,
) -> dict[str, Any]:
    """The eleven official values of one scenario from normalized sentences.

    With ``details=True`` the result also has ``"details"``, the per-item records of the same
    matching (see ``details.item_details``).
    """
    check_scenario(scenario, edition)
    check_lengths(len(predictions), len(references))
    matches = match_pairs(predictions, references, names, edition)
    result = scores_of(matches, scenario, edition)
    if details:
        from .details import item_details  # it builds on the rule above

        result["details"] = item_details(matches, scenario, edition)
    return result


def ehealthkd(
    predictions: Sequence[Mapping],
    references: Sequence[Mapping],
    scenario: str = "scenario1",
    details: bool = False,
    edition: int = 2019,
) -> dict[str, Any]:
    """Check sentence rows and score them exactly as the eHealth-KD evaluation of ``edition``
    (2019, 2020 or 2021) does.

    With ``details=True`` the result also has ``"details"``: one record per key phrase
    (scenarios 1 and 2) and per relation line (scenarios 1 and 3) of the evaluated sentences,
    for error analysis (see ``details.item_details``).
    """
    check_scenario(scenario, edition)
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    check_lengths(len(predictions), len(references))
    return score(
        normalize_rows(predictions, "predictions", edition),
        normalize_rows(references, "references", edition),
        scenario,
        details=details,
        edition=edition,
    )
