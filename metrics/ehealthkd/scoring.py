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
endpoints are mapped only through correct or partial key-phrase matches; gold ``same-as``
classes are built over key phrases, a relation end being the first phrase with its id; a zero
denominator gives the *int* 0, exactly as the official JSON shows it; F1 is computed from the
float P and R.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .plain_values import INT64, as_int, as_list, int_problem

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
# The fields of a per-item record (``details=True``); those that do not apply are None.
DETAIL_FIELDS = (
    "sentence",  # position of the sentence pair in the inputs
    "kind",  # "key phrase" or "relation"
    "outcome",  # correct, incorrect, partial, missing, spurious, or ignored (duplicate relation)
    "gold_label",
    "predicted_label",
    "gold_text",  # key phrase: its words; relation: "source words → target words"
    "predicted_text",
    "gold_id",  # key phrases
    "predicted_id",
    "gold_spans",  # sentence-relative "START END;START END", after the official normalisation
    "predicted_spans",
    "gold_source",  # relations: key-phrase ids of the endpoints
    "gold_target",
    "predicted_source",
    "predicted_target",
    "why",
)

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


def _int64(value: Any) -> int | None:
    """A plain int64 (numpy and 0-d torch integers made plain), or None."""
    number = value if type(value) is int else as_int(value)
    return number if number is not None and number in INT64 else None


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
        # A pair is a list, or a 1-d numpy array or torch tensor (never a tuple, as before).
        items = pair if type(pair) is list else None if isinstance(pair, tuple) else as_list(pair)
        ends = [_int64(n) for n in items] if isinstance(items, list) and len(items) == 2 else []
        if len(ends) != 2 or None in ends:
            raise ValueError(
                f"{where}, field 'spans': expected [start, end] pairs of ints (signed 64-bit), "
                f"got {pair!r}"
            )
        pairs.append((ends[0], ends[1]))
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
        kp_id, label = _int64(phrase["id"]), phrase["label"]
        if kp_id is None:
            raise ValueError(f"{at}, field 'id': {int_problem(phrase['id'])}")
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
        ends = []
        for field in ("source", "target"):
            value = _int64(link[field])
            if value is None:
                raise ValueError(
                    f"{at}, field {field!r}: expected a key-phrase id, "
                    f"{int_problem(link[field]).removeprefix('expected ')}"
                )
            if value not in ids:
                raise ValueError(
                    f"{at}, field {field!r}: no key phrase of this sentence has id {value}"
                )
            ends.append(value)
        relations.append(Relation(label.lower(), *ends))
    return Sentence(text, tuple(keyphrases), tuple(relations))


def normalize_rows(rows: Sequence[Mapping], side: str) -> list[Sentence]:
    """Check sentence rows (see the metric card) and return one ``Sentence`` per row."""
    check_rows(rows, side)
    return [normalize_row(side, index, row) for index, row in enumerate(rows)]


# --------------------------------------------------------------------------------------------
# Matching: one pass per sentence pair records every item's outcome; the counts and the
# per-item details are both read from these records.


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


class KeyphraseMatch(NamedTuple):
    """Subtask A on one sentence pair."""

    outcome: list[str]  # per submitted phrase: "correct", "incorrect", "partial" or "spurious"
    gold_of: list[int | None]  # per submitted phrase: the gold index it was paired with
    n_gold: int

    def mapping(self) -> dict[int, int]:
        """Submitted index → gold index, through correct and partial pairs only (for B)."""
        return {
            i: j
            for i, (kind, j) in enumerate(zip(self.outcome, self.gold_of))
            if kind == "correct" or kind == "partial"
        }


def match_keyphrases(
    submitted: Sequence[Keyphrase], gold: Sequence[Keyphrase], where: str = "sentence"
) -> KeyphraseMatch:
    """Subtask A on one sentence pair (``where`` names it in errors)."""
    outcome = ["spurious"] * len(submitted)
    gold_of: list[int | None] = [None] * len(submitted)
    sub_left = list(range(len(submitted)))
    gold_left = list(range(len(gold)))

    def pair(i: int, j: int, kind: str) -> None:
        outcome[i], gold_of[i] = kind, j
        sub_left.remove(i)
        gold_left.remove(j)

    # Pass 1: only the first remaining gold with identical pairs is examined.
    for i in list(sub_left):
        pairs = submitted[i].pairs
        for j in gold_left:
            if gold[j].pairs == pairs:
                if gold[j].label == submitted[i].label:
                    pair(i, j, "correct")
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
                pair(i, j, "incorrect")
                break
    # Pass 3: the first overlapping gold, whatever its label.
    for i in list(sub_left):
        pairs = submitted[i].pairs
        for j in gold_left:
            if _overlap(pairs, gold[j].pairs):
                pair(i, j, "partial")
                break
    return KeyphraseMatch(outcome, gold_of, len(gold))


def _dedup(relations: Sequence[Relation]) -> list[Relation]:
    return list(dict.fromkeys(relations))


def _first_by_id(keyphrases: Sequence[Keyphrase]) -> dict[int, int]:
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


def _classes(gold: Sentence) -> Classes:
    """Union-find over gold key phrases, merging the endpoints of every gold ``same-as``."""
    first = _first_by_id(gold.keyphrases)
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


def _find(
    golds: Sequence[Relation],
    candidates: Sequence[int],
    label: str,
    src: int,
    dst: int,
    cls: Classes,
    src_class: int,
    dst_class: int,
) -> tuple[int, str] | None:
    """The gold relation a submitted one matches, and how.

    ``src`` and ``dst`` are the ids of the gold phrases its endpoints map to (the exact and
    reversed rules compare ids), ``src_class`` and ``dst_class`` the classes of those very
    phrases (the class rules compare classes).
    """
    symmetric = label == SAME_AS
    for k in candidates:
        g = golds[k]
        if g.label == label and g.source == src and g.target == dst:
            return k, "exact"
    if symmetric:
        for k in candidates:
            g = golds[k]
            if g.label == label and g.source == dst and g.target == src:
                return k, "reversed"
    for k in candidates:
        g = golds[k]
        if (
            g.label == label
            and cls.of_id(g.source) == src_class
            and cls.of_id(g.target) == dst_class
        ):
            return k, "class"
    if symmetric:
        for k in candidates:
            g = golds[k]
            if (
                g.label == label
                and cls.of_id(g.source) == dst_class
                and cls.of_id(g.target) == src_class
            ):
                return k, "reversed class"
    return None


class RelationMatch(NamedTuple):
    """Subtask B on one sentence pair (both sides deduplicated, file order kept)."""

    predicted: list[Relation]
    gold: list[Relation]
    gold_of: list[int | None]  # per predicted relation: the gold index it matched
    how: list[str | None]  # which rule matched: "exact", "reversed", "class", "reversed class"


def match_relations(
    submitted: Sentence, gold: Sentence, mapping: Mapping[int, int]
) -> RelationMatch:
    """Subtask B on one sentence pair, endpoints mapped through ``mapping`` (correct, partial)."""
    golds = _dedup(gold.relations)
    predicted = _dedup(submitted.relations)
    gold_of: list[int | None] = [None] * len(predicted)
    how: list[str | None] = [None] * len(predicted)
    if not predicted or not golds:
        return RelationMatch(predicted, golds, gold_of, how)
    sub_first = _first_by_id(submitted.keyphrases)
    cls = _classes(gold)
    remaining = list(range(len(golds)))
    for p, rel in enumerate(predicted):
        src = mapping.get(sub_first[rel.source])
        dst = mapping.get(sub_first[rel.target])
        if src is None or dst is None or not remaining:
            continue
        ids = gold.keyphrases[src].id, gold.keyphrases[dst].id
        classes = cls.of_phrase[src], cls.of_phrase[dst]
        hit = _find(golds, remaining, rel.label, *ids, cls, *classes)
        if hit is not None:
            gold_of[p], how[p] = hit
            remaining.remove(hit[0])
    return RelationMatch(predicted, golds, gold_of, how)


class PairMatch(NamedTuple):
    """One evaluated sentence pair and how its items were matched."""

    index: int  # position of the pair in the inputs
    submitted: Sentence
    gold: Sentence
    a: KeyphraseMatch
    b: RelationMatch


def match_pairs(
    predictions: Sequence[Sentence],
    references: Sequence[Sentence],
    names: Sequence[str] | None = None,
) -> list[PairMatch]:
    """Match every evaluated sentence pair (skipping those the official tool skips).

    ``names`` name the pairs in errors (default ``predictions[i]``).
    """
    out = []
    mismatched = []
    for index, (sub, gold) in enumerate(zip(predictions, references)):
        if not gold.keyphrases and not gold.relations:
            continue
        if sub.text != gold.text:
            mismatched.append(index)
            continue
        where = names[index] if names is not None else f"predictions[{index}]"
        a = match_keyphrases(sub.keyphrases, gold.keyphrases, where)
        out.append(PairMatch(index, sub, gold, a, match_relations(sub, gold, a.mapping())))
    if mismatched:
        shown = ", ".join(map(str, mismatched[:5])) + (", ..." if len(mismatched) > 5 else "")
        warnings.warn(
            f"{len(mismatched)} annotated sentence(s) skipped because the predicted text differs "
            f"from the reference text (rows {shown}); as in the official evaluation, their gold "
            f"is not counted",
            stacklevel=3,
        )
    return out


def totals(matches: Sequence[PairMatch]) -> dict[str, int]:
    """The eight official counts, summed over matched sentence pairs."""
    out = dict.fromkeys(COUNT_KEYS, 0)
    for m in matches:
        outcome = m.a.outcome
        spurious = outcome.count("spurious")
        out["correct_A"] += outcome.count("correct")
        out["incorrect_A"] += outcome.count("incorrect")
        out["partial_A"] += outcome.count("partial")
        out["missing_A"] += m.a.n_gold - (len(outcome) - spurious)
        out["spurious_A"] += spurious
        correct = len(m.b.gold_of) - m.b.gold_of.count(None)
        out["correct_B"] += correct
        out["missing_B"] += len(m.b.gold) - correct
        out["spurious_B"] += len(m.b.predicted) - correct
    return out


def count(
    predictions: Sequence[Sentence],
    references: Sequence[Sentence],
    names: Sequence[str] | None = None,
) -> dict[str, int]:
    """The eight official counts, summed over the evaluated sentence pairs."""
    return totals(match_pairs(predictions, references, names))


# --------------------------------------------------------------------------------------------
# Per-item details: the records of the matching above, explained


def _spans(pairs: Pairs) -> str:
    return ";".join(f"{s} {e}" for s, e in pairs)


def _words(text: str, pairs: Pairs) -> str:
    return " ".join(text[s:e] for s, e in pairs)


def _record(index: int, kind: str, outcome: str, why: str, **fields: Any) -> dict[str, Any]:
    record = dict.fromkeys(DETAIL_FIELDS)
    record.update(sentence=index, kind=kind, outcome=outcome, why=why, **fields)
    return record


def _phrase_fields(side: str, text: str, phrase: Keyphrase) -> dict[str, Any]:
    return {
        f"{side}_id": phrase.id,
        f"{side}_label": phrase.label,
        f"{side}_text": _words(text, phrase.pairs),
        f"{side}_spans": _spans(phrase.pairs),
    }


def _ids(phrases: Sequence[Keyphrase]) -> str:
    return ", ".join(str(p.id) for p in phrases)


def keyphrase_details(m: PairMatch) -> list[dict[str, Any]]:
    """One record per submitted key phrase (file order), then per unmatched gold phrase."""
    text, sub, gold = m.gold.text, m.submitted.keyphrases, m.gold.keyphrases
    paired = {j: i for i, j in enumerate(m.a.gold_of) if j is not None}
    records = []
    for i, phrase in enumerate(sub):
        kind, j = m.a.outcome[i], m.a.gold_of[i]
        fields = _phrase_fields("predicted", text, phrase)
        if j is not None:
            fields.update(_phrase_fields("gold", text, gold[j]))
        if kind == "correct":
            why = "same spans and label"
        elif kind == "incorrect":
            why = "same spans, other label"
        elif kind == "partial":
            g = gold[j]
            why = f"overlaps gold phrase {g.id} ({_words(text, g.pairs)!r})"
            if g.label != phrase.label:
                why += ", other label (a partial match ignores the label)"
        else:
            same = [g for g in gold if g.pairs == phrase.pairs]
            near = [g for g in gold if _overlap(phrase.pairs, g.pairs)]
            if same:
                why = f"duplicate: gold phrase {same[0].id} has these spans but was already matched"
            elif near:
                why = f"the gold phrases it overlaps ({_ids(near)}) were already matched"
            else:
                why = "no gold phrase has these spans or overlaps them"
        records.append(_record(m.index, "key phrase", kind, why, **fields))
    for j, g in enumerate(gold):
        if j in paired:
            continue
        near = [p for p in sub if p.pairs == g.pairs or _overlap(p.pairs, g.pairs)]
        if near:
            why = f"the predicted phrases over it ({_ids(near)}) were matched to other gold phrases"
        else:
            why = "not predicted: no predicted phrase overlaps it"
        records.append(
            _record(m.index, "key phrase", "missing", why, **_phrase_fields("gold", text, g))
        )
    return records


_HOW = {
    "exact": "same label and endpoints",
    "reversed": "same-as written the other way round (same-as is symmetric)",
    "class": "endpoints in the same gold same-as classes as the gold relation's",
    "reversed class": "same-as between the same gold same-as classes, the other way round",
}


def _relation_fields(side: str, sentence: Sentence, first: Mapping[int, int], rel: Relation):
    ends = [sentence.keyphrases[first[rel.source]], sentence.keyphrases[first[rel.target]]]
    return {
        f"{side}_label": rel.label,
        f"{side}_text": " → ".join(_words(sentence.text, p.pairs) for p in ends),
        f"{side}_source": rel.source,
        f"{side}_target": rel.target,
    }


def _unmatched_relation(
    m: PairMatch,
    rel: Relation,
    sub_first: Mapping[int, int],
    mapping: Mapping[int, int],
    cls: Classes,
) -> str:
    """Why a submitted relation matched no gold relation."""
    ends = []
    for end, kp_id in (("source", rel.source), ("target", rel.target)):
        state = m.a.outcome[sub_first[kp_id]]
        if state == "spurious":
            ends.append(f"{end} phrase {kp_id} is spurious")
        elif state == "incorrect":
            ends.append(f"{end} phrase {kp_id} is only incorrect (other label)")
    if ends:
        return f"relation endpoint not matched in subtask A ({'; '.join(ends)})"
    src, dst = mapping[sub_first[rel.source]], mapping[sub_first[rel.target]]
    ids = m.gold.keyphrases[src].id, m.gold.keyphrases[dst].id
    classes = cls.of_phrase[src], cls.of_phrase[dst]
    golds = m.b.gold
    if _find(golds, range(len(golds)), rel.label, *ids, cls, *classes) is not None:
        return "its gold relation was already matched by an earlier predicted relation"
    ends_of = {classes}
    others = sorted(
        {g.label for g in golds if (cls.of_id(g.source), cls.of_id(g.target)) in ends_of}
    )
    if others:
        return f"other label: the gold relates these phrases by {', '.join(others)}"
    if any(
        g.label == rel.label and (cls.of_id(g.target), cls.of_id(g.source)) in ends_of
        for g in golds
    ):
        return "reversed: the gold relation goes the other way (only same-as is symmetric)"
    return "no gold relation between the phrases its endpoints matched"


def relation_details(m: PairMatch) -> list[dict[str, Any]]:
    """One record per submitted relation line (file order), then per unmatched gold line."""
    sub_first = _first_by_id(m.submitted.keyphrases)
    gold_first = _first_by_id(m.gold.keyphrases)
    mapping = m.a.mapping()
    cls = _classes(m.gold)
    via_partial = {i for i, kind in enumerate(m.a.outcome) if kind == "partial"}
    position = {rel: p for p, rel in enumerate(m.b.predicted)}
    records, seen = [], set()
    for rel in m.submitted.relations:
        fields = _relation_fields("predicted", m.submitted, sub_first, rel)
        if rel in seen:
            why = "duplicate relation removed (an earlier line is the same relation)"
            records.append(_record(m.index, "relation", "ignored", why, **fields))
            continue
        seen.add(rel)
        p = position[rel]
        k = m.b.gold_of[p]
        if k is None:
            why = _unmatched_relation(m, rel, sub_first, mapping, cls)
            records.append(_record(m.index, "relation", "spurious", why, **fields))
            continue
        fields.update(_relation_fields("gold", m.gold, gold_first, m.b.gold[k]))
        why = _HOW[m.b.how[p]]
        if {sub_first[rel.source], sub_first[rel.target]} & via_partial:
            why += " (an endpoint matched only partially in subtask A)"
        records.append(_record(m.index, "relation", "correct", why, **fields))
    matched = {m.b.gold[k] for k in m.b.gold_of if k is not None}
    mapped = set(mapping.values())
    seen = set()
    for rel in m.gold.relations:
        fields = _relation_fields("gold", m.gold, gold_first, rel)
        if rel in seen:
            why = "duplicate relation removed (an earlier gold line is the same relation)"
            records.append(_record(m.index, "relation", "ignored", why, **fields))
            continue
        seen.add(rel)
        if rel in matched:
            continue
        unmatched = [
            f"{end} phrase {kp_id}"
            for end, kp_id in (("source", rel.source), ("target", rel.target))
            if gold_first[kp_id] not in mapped
        ]
        if unmatched:
            why = (
                f"relation endpoint not matched in subtask A ({', '.join(unmatched)} has no "
                f"correct or partial match)"
            )
        else:
            why = "no predicted relation matched it"
        records.append(_record(m.index, "relation", "missing", why, **fields))
    return records


def item_details(matches: Sequence[PairMatch], scenario: str = "scenario1") -> list[dict[str, Any]]:
    """The per-item records of a scenario: key phrases (scenarios 1, 2), relations (1, 3)."""
    check_scenario(scenario)
    records = []
    for m in matches:
        if scenario != "scenario3":
            records += keyphrase_details(m)
        if scenario != "scenario2":
            records += relation_details(m)
    return records


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
    details: bool = False,
) -> dict[str, Any]:
    """The eleven official values of one scenario from normalized sentences.

    With ``details=True`` the result also has ``"details"``, the per-item records of the same
    matching (see ``details``).
    """
    check_scenario(scenario)
    check_lengths(len(predictions), len(references))
    matches = match_pairs(predictions, references, names)
    counts = totals(matches)
    result: dict[str, Any] = {**counts, **metrics(counts, scenario)}
    if details:
        result["details"] = item_details(matches, scenario)
    return result


def ehealthkd(
    predictions: Sequence[Mapping],
    references: Sequence[Mapping],
    scenario: str = "scenario1",
    details: bool = False,
) -> dict[str, Any]:
    """Check sentence rows and score them exactly as the eHealth-KD 2019 ``evaltest`` does.

    With ``details=True`` the result also has ``"details"``: one record per key phrase
    (scenarios 1 and 2) and per relation line (scenarios 1 and 3) of the evaluated sentences,
    for error analysis (see ``item_details``).
    """
    check_scenario(scenario)
    check_rows(predictions, "predictions")
    check_rows(references, "references")
    check_lengths(len(predictions), len(references))
    return score(
        normalize_rows(predictions, "predictions"),
        normalize_rows(references, "references"),
        scenario,
        details=details,
    )
