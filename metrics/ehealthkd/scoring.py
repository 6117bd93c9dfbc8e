"""Scoring core of ``ehealthkd``: the eHealth-KD 2019 evaluation (``scripts/evaltest.py``).

Two steps, usable on their own:

* ``normalize_rows`` checks sentence rows (``text``, ``keyphrases``, ``relations``) and turns them
  into compact ``Sentence`` tuples, raising a ``ValueError`` that names the row, the key phrase or
  relation and the field on anything the official tool would crash on or silently misread;
* ``score`` matches normalized sentences and returns the eight counts and precision, recall and
  F1 of one scenario.

``ehealthkd(predictions, references, scenario)`` does both.

Exactness notes (see the metric card): sentence pairs whose texts differ or whose gold has no
annotation are skipped; key phrases go through three first-match, one-to-one passes in file order
(identical spans and label, identical spans, first overlapping gold whatever its label); relation
endpoints are mapped only through correct or partial key-phrase matches; a zero denominator gives
the *int* 0, exactly as the official JSON shows it; F1 is computed from the float P and R.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

SCENARIOS = ("scenario1", "scenario2", "scenario3")
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

Pairs = tuple[tuple[int, int], ...]


class Keyphrase(NamedTuple):
    id: int
    label: str
    pairs: Pairs  # sentence-relative [start, end) pairs, single spans already split into words


class Relation(NamedTuple):
    label: str  # lower-cased
    source: int
    target: int


class Sentence(NamedTuple):
    text: str
    keyphrases: tuple[Keyphrase, ...]
    relations: tuple[Relation, ...]


# --------------------------------------------------------------------------------------------
# Normalisation shared by the row checker and the official-file reader


def split_words(text: str, start: int, end: int) -> Pairs:
    """A single span ``[start, end)`` cut at every U+0020 space of ``text`` it covers.

    Consecutive spaces give empty pairs, as in the official tool; the caller guarantees
    ``0 <= start <= end <= len(text)``.
    """
    if text.find(" ", start, end) < 0:
        return ((start, end),)
    pairs = []
    for word in text[start:end].split(" "):
        pairs.append((start, start + len(word)))
        start += len(word) + 1
    return tuple(pairs)


def span_problem(pairs: Sequence[tuple[int, int]], text_length: int) -> str | None:
    """Why a list of sentence-relative pairs cannot be scored, or None if it can."""
    for start, end in pairs:
        if start < 0:
            return f"offsets must be >= 0, got [{start}, {end}]"
        if start > end:
            return f"a pair must have start <= end, got [{start}, {end}]"
    if len(pairs) == 1 and pairs[0][1] > text_length:
        # A single span is split at the spaces of the text it covers, which must exist.
        return (
            f"the single span [{pairs[0][0]}, {pairs[0][1]}] ends past the end of the sentence "
            f"text ({text_length} characters)"
        )
    return None


# --------------------------------------------------------------------------------------------
# Row checks


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(f"{side} must be a list of sentence dicts, got {type(rows).__name__}")


def check_lengths(n_predictions: int, n_references: int) -> None:
    if n_predictions != n_references:
        raise ValueError(
            f"predictions and references must have the same length (sentences are paired by "
            f"position), got {n_predictions} predictions and {n_references} references"
        )


def check_scenario(scenario: Any) -> str:
    if scenario not in SCENARIOS:
        raise ValueError(f"scenario must be one of {', '.join(SCENARIOS)}, got {scenario!r}")
    return scenario


_ROW_FIELDS = ("text", "keyphrases", "relations")
_KEYPHRASE_FIELDS = ("id", "label", "spans")
_RELATION_FIELDS = ("label", "source", "target")


def _check_fields(where: str, record: Any, fields: tuple[str, ...], what: str) -> None:
    if not isinstance(record, Mapping):
        raise ValueError(f"{where}: expected a {what} dict, got {type(record).__name__}")
    keys = set(record)
    if keys != set(fields):
        missing = [f for f in fields if f not in keys]
        extra = sorted(map(str, keys - set(fields)))
        detail = f"missing {missing}" if missing else f"unexpected {extra}"
        raise ValueError(f"{where}: a {what} has the fields {list(fields)}, {detail}")


def _pairs(where: str, spans: Any) -> list[tuple[int, int]]:
    if not isinstance(spans, list) or not spans:
        raise ValueError(
            f"{where}, field 'spans': expected a non-empty list of [start, end] pairs, "
            f"got {spans!r}"
        )
    pairs = []
    for pair in spans:
        if not (
            isinstance(pair, list) and len(pair) == 2 and _is_int(pair[0]) and _is_int(pair[1])
        ):
            raise ValueError(
                f"{where}, field 'spans': expected [start, end] pairs of ints, got {pair!r}"
            )
        pairs.append((pair[0], pair[1]))
    return pairs


def normalize_row(side: str, index: int, row: Any) -> Sentence:
    """Check one sentence row and return its ``Sentence`` (single spans split into words)."""
    where = f"{side}[{index}]"
    _check_fields(where, row, _ROW_FIELDS, "sentence")
    text = row["text"]
    if not isinstance(text, str):
        raise ValueError(f"{where}: field 'text' must be a string, got {text!r}")
    phrases = row["keyphrases"]
    if not isinstance(phrases, list):
        raise ValueError(f"{where}: field 'keyphrases' must be a list, got {phrases!r}")
    keyphrases = []
    ids = set()
    for k, phrase in enumerate(phrases):
        at = f"{where}, keyphrases[{k}]"
        _check_fields(at, phrase, _KEYPHRASE_FIELDS, "key phrase")
        kp_id, label = phrase["id"], phrase["label"]
        if not _is_int(kp_id):
            raise ValueError(f"{at}, field 'id': expected an int, got {kp_id!r}")
        at = f"{at} (id {kp_id})"
        if not isinstance(label, str):
            raise ValueError(f"{at}, field 'label': expected a string, got {label!r}")
        pairs = _pairs(at, phrase["spans"])
        problem = span_problem(pairs, len(text))
        if problem:
            raise ValueError(f"{at}, field 'spans': {problem}")
        if len(pairs) == 1:
            pairs = split_words(text, *pairs[0])
        keyphrases.append(Keyphrase(kp_id, label, tuple(pairs)))
        ids.add(kp_id)
    links = row["relations"]
    if not isinstance(links, list):
        raise ValueError(f"{where}: field 'relations' must be a list, got {links!r}")
    relations = []
    for r, link in enumerate(links):
        at = f"{where}, relations[{r}]"
        _check_fields(at, link, _RELATION_FIELDS, "relation")
        label = link["label"]
        if not isinstance(label, str):
            raise ValueError(f"{at}, field 'label': expected a string, got {label!r}")
        for field in ("source", "target"):
            value = link[field]
            if not _is_int(value):
                raise ValueError(f"{at}, field {field!r}: expected a key-phrase id, got {value!r}")
            if value not in ids:
                raise ValueError(
                    f"{at}, field {field!r}: no key phrase of this sentence has id {value}"
                )
        relations.append(Relation(label.lower(), link["source"], link["target"]))
    return Sentence(text, tuple(keyphrases), tuple(relations))


def normalize_rows(rows: Sequence[Mapping], side: str) -> list[Sentence]:
    """Check sentence rows (see the metric card) and return one ``Sentence`` per row."""
    check_rows(rows, side)
    return [normalize_row(side, index, row) for index, row in enumerate(rows)]


# --------------------------------------------------------------------------------------------
# Matching


def _overlap(a: Pairs, b: Pairs) -> bool:
    """Official overlap: a pair start of one phrase lies inside a [start, end) pair of the other."""
    for s, _ in a:
        for bs, be in b:
            if bs <= s < be:
                return True
    for s, _ in b:
        for as_, ae in a:
            if as_ <= s < ae:
                return True
    return False


def match_keyphrases(
    submitted: Sequence[Keyphrase], gold: Sequence[Keyphrase], where: str = "sentence"
) -> tuple[dict[int, int], int, int, int, int, int]:
    """Subtask A on one sentence pair (``where`` names it in errors).

    Returns (submitted index → gold index for correct and partial matches, correct, incorrect,
    partial, missing, spurious).
    """
    sub_left = list(range(len(submitted)))
    gold_left = list(range(len(gold)))
    mapping: dict[int, int] = {}
    correct = incorrect = partial = 0

    # Pass 1: only the first remaining gold with identical pairs is examined.
    for i in list(sub_left):
        pairs = submitted[i].pairs
        for j in gold_left:
            if gold[j].pairs == pairs:
                if gold[j].label == submitted[i].label:
                    correct += 1
                    mapping[i] = j
                    sub_left.remove(i)
                    gold_left.remove(j)
                break
    # Pass 2: identical pairs, other label.
    for i in list(sub_left):
        pairs = submitted[i].pairs
        for j in gold_left:
            if gold[j].pairs == pairs:
                if gold[j].label == submitted[i].label:
                    # The official tool fails an assertion here (gold phrases with identical
                    # spans submitted in another order): there is no official number.
                    raise ValueError(
                        f"{where}, key phrase id {submitted[i].id}: same spans and label "
                        f"{gold[j].label!r} as the reference key phrase id {gold[j].id}, which "
                        f"an earlier prediction with identical spans could not claim; the "
                        f"official evaluation fails an assertion on this input (list "
                        f"span-identical key phrases in the reference order)"
                    )
                incorrect += 1
                sub_left.remove(i)
                gold_left.remove(j)
                break
    # Pass 3: the first overlapping gold, whatever its label.
    for i in list(sub_left):
        pairs = submitted[i].pairs
        for j in gold_left:
            if _overlap(pairs, gold[j].pairs):
                partial += 1
                mapping[i] = j
                sub_left.remove(i)
                gold_left.remove(j)
                break
    return mapping, correct, incorrect, partial, len(gold_left), len(sub_left)


def _dedup(relations: Sequence[Relation]) -> list[Relation]:
    return list(dict.fromkeys(relations))


def _first_by_id(keyphrases: Sequence[Keyphrase]) -> dict[int, int]:
    first: dict[int, int] = {}
    for k, phrase in enumerate(keyphrases):
        first.setdefault(phrase.id, k)
    return first


def _classes(gold: Sentence) -> dict[int, int]:
    """Union-find over gold key-phrase ids, merging the endpoints of every gold ``same-as``."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while x != root:
            parent[x], x = root, parent[x]
        return root

    for rel in gold.relations:
        if rel.label == SAME_AS:
            a, b = find(rel.source), find(rel.target)
            if a != b:
                parent[a] = b
    return {kp.id: find(kp.id) for kp in gold.keyphrases}


def match_relations(
    submitted: Sentence, gold: Sentence, mapping: Mapping[int, int]
) -> tuple[int, int, int]:
    """Subtask B on one sentence pair; returns (correct, missing, spurious)."""
    remaining = _dedup(gold.relations)
    predicted = _dedup(submitted.relations)
    if not predicted:
        return 0, len(remaining), 0
    sub_first = _first_by_id(submitted.keyphrases)
    cls = _classes(gold) if remaining else {}
    correct = 0
    for rel in predicted:
        src = mapping.get(sub_first[rel.source])
        dst = mapping.get(sub_first[rel.target])
        if src is None or dst is None or not remaining:
            continue
        src, dst = gold.keyphrases[src].id, gold.keyphrases[dst].id
        label, symmetric = rel.label, rel.label == SAME_AS
        found = None
        for g in remaining:
            if g.label == label and g.source == src and g.target == dst:
                found = g
                break
        if found is None and symmetric:
            for g in remaining:
                if g.label == label and g.source == dst and g.target == src:
                    found = g
                    break
        if found is None:
            cs, cd = cls[src], cls[dst]
            for g in remaining:
                if g.label == label and cls[g.source] == cs and cls[g.target] == cd:
                    found = g
                    break
            if found is None and symmetric:
                for g in remaining:
                    if g.label == label and cls[g.source] == cd and cls[g.target] == cs:
                        found = g
                        break
        if found is not None:
            correct += 1
            remaining.remove(found)
    return correct, len(remaining), len(predicted) - correct


def count(
    predictions: Sequence[Sentence],
    references: Sequence[Sentence],
    names: Sequence[str] | None = None,
) -> dict[str, int]:
    """The eight official counts, summed over the evaluated sentence pairs.

    ``names`` name the pairs in errors (default ``predictions[i]``).
    """
    totals = dict.fromkeys(COUNT_KEYS, 0)
    mismatched = []
    for index, (sub, gold) in enumerate(zip(predictions, references)):
        if not gold.keyphrases and not gold.relations:
            continue
        if sub.text != gold.text:
            mismatched.append(index)
            continue
        where = names[index] if names is not None else f"predictions[{index}]"
        mapping, ca, ia, pa, ma, sa = match_keyphrases(sub.keyphrases, gold.keyphrases, where)
        cb, mb, sb = match_relations(sub, gold, mapping)
        totals["correct_A"] += ca
        totals["incorrect_A"] += ia
        totals["partial_A"] += pa
        totals["missing_A"] += ma
        totals["spurious_A"] += sa
        totals["correct_B"] += cb
        totals["missing_B"] += mb
        totals["spurious_B"] += sb
    if mismatched:
        shown = ", ".join(map(str, mismatched[:5])) + (", ..." if len(mismatched) > 5 else "")
        warnings.warn(
            f"{len(mismatched)} annotated sentence(s) skipped because the predicted text differs "
            f"from the reference text (rows {shown}); as in the official evaluation, their gold "
            f"is not counted",
            stacklevel=2,
        )
    return totals


def _ratio(numerator: float, denominator: int) -> float | int:
    # The official JSON shows the int 0 for a zero denominator; keep that type.
    return numerator / denominator if denominator else 0


def metrics(counts: Mapping[str, int], scenario: str) -> dict[str, float | int]:
    """Precision, recall and F1 of a scenario from the eight counts."""
    check_scenario(scenario)
    if scenario == "scenario1":
        c = counts["correct_A"] + counts["correct_B"]
        pa, i = counts["partial_A"], counts["incorrect_A"]
        m = counts["missing_A"] + counts["missing_B"]
        s = counts["spurious_A"] + counts["spurious_B"]
    elif scenario == "scenario2":
        c, pa, i = counts["correct_A"], counts["partial_A"], counts["incorrect_A"]
        m, s = counts["missing_A"], counts["spurious_A"]
    else:
        c, pa, i = counts["correct_B"], 0, 0
        m, s = counts["missing_B"], counts["spurious_B"]
    hits = c + pa / 2
    recall = _ratio(hits, c + pa + i + m)
    precision = _ratio(hits, c + pa + i + s)
    total = recall + precision
    f1 = 2 * recall * precision / total if total else 0
    return {"precision": precision, "recall": recall, "f1": f1}


def score(
    predictions: Sequence[Sentence],
    references: Sequence[Sentence],
    scenario: str = "scenario1",
    names: Sequence[str] | None = None,
) -> dict[str, float | int]:
    """The eleven official values of one scenario from normalized sentences."""
    check_scenario(scenario)
    check_lengths(len(predictions), len(references))
    counts = count(predictions, references, names)
    return {**counts, **metrics(counts, scenario)}


def ehealthkd(
    predictions: Sequence[Mapping], references: Sequence[Mapping], scenario: str = "scenario1"
) -> dict[str, float | int]:
    """Check sentence rows and score them exactly as the eHealth-KD 2019 ``evaltest`` does."""
    check_scenario(scenario)
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    check_lengths(len(predictions), len(references))
    return score(
        normalize_rows(predictions, "predictions"),
        normalize_rows(references, "references"),
        scenario,
    )
