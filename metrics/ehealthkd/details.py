"""Per-item details of ``ehealthkd`` (``details=True``): the records of the official matching
(``scoring.match_pairs``) explained, one record per key phrase and relation line, each saying
why it was counted so. The explanations ask the rule's own functions (``same_spans``,
``overlap``, ``find_relation``, ...), so they cannot drift from the counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .records import Keyphrase, PairMatch, Pairs, Relation, Sentence
from .scoring import (
    Classes,
    check_scenario,
    find_relation,
    first_by_id,
    overlap,
    same_as_classes,
    same_spans,
)

# The fields of a per-item record; those that do not apply are None.
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


def _spans(pairs: Pairs) -> str:
    return ";".join(f"{s} {e}" for s, e in pairs)


def _words(text: str, pairs: Pairs) -> str:
    return " ".join(text[s:e] for s, e in pairs)


def _record(index: int, kind: str, outcome: str, why: str, **fields: Any) -> dict[str, Any]:
    record = dict.fromkeys(DETAIL_FIELDS)
    record.update(sentence=index, kind=kind, outcome=outcome, why=why, **fields)
    return record


def _ids(phrases: Sequence[Keyphrase]) -> str:
    return ", ".join(str(p.id) for p in phrases)


# --------------------------------------------------------------------------------------------
# Key phrases


def _phrase_fields(side: str, text: str, phrase: Keyphrase) -> dict[str, Any]:
    return {
        f"{side}_id": phrase.id,
        f"{side}_label": phrase.label,
        f"{side}_text": _words(text, phrase.pairs),
        f"{side}_spans": _spans(phrase.pairs),
    }


def _why_matched(kind: str, phrase: Keyphrase, g: Keyphrase, text: str) -> str:
    """Why a predicted phrase is correct, incorrect or partial against its gold phrase ``g``."""
    if kind == "correct":
        return "same spans and label"
    if kind == "incorrect":
        return "same spans, other label"
    why = f"overlaps gold phrase {g.id} ({_words(text, g.pairs)!r})"
    if g.label != phrase.label:
        why += ", other label (a partial match ignores the label)"
    return why


def _why_spurious(phrase: Keyphrase, gold: Sequence[Keyphrase]) -> str:
    same = [g for g in gold if same_spans(g.pairs, phrase.pairs)]
    if same:
        return f"duplicate: gold phrase {same[0].id} has these spans but was already matched"
    near = [g for g in gold if overlap(phrase.pairs, g.pairs)]
    if near:
        return f"the gold phrases it overlaps ({_ids(near)}) were already matched"
    return "no gold phrase has these spans or overlaps them"


def _why_missing(g: Keyphrase, submitted: Sequence[Keyphrase]) -> str:
    near = [p for p in submitted if same_spans(p.pairs, g.pairs) or overlap(p.pairs, g.pairs)]
    if near:
        return f"the predicted phrases over it ({_ids(near)}) were matched to other gold phrases"
    return "not predicted: no predicted phrase overlaps it"


def keyphrase_details(m: PairMatch) -> list[dict[str, Any]]:
    """One record per submitted key phrase (file order), then per unmatched gold phrase."""
    text, sub, gold = m.gold.text, m.submitted.keyphrases, m.gold.keyphrases
    records = []
    for phrase, kind, j in zip(sub, m.a.outcome, m.a.gold_of):
        fields = _phrase_fields("predicted", text, phrase)
        if j is None:
            why = _why_spurious(phrase, gold)
        else:
            fields.update(_phrase_fields("gold", text, gold[j]))
            why = _why_matched(kind, phrase, gold[j], text)
        records.append(_record(m.index, "key phrase", kind, why, **fields))
    paired = set(m.a.gold_of)
    for j, g in enumerate(gold):
        if j not in paired:
            fields = _phrase_fields("gold", text, g)
            records.append(
                _record(m.index, "key phrase", "missing", _why_missing(g, sub), **fields)
            )
    return records


# --------------------------------------------------------------------------------------------
# Relations

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


def _unmatched_ends(m: PairMatch, rel: Relation, sub_first: Mapping[int, int]) -> list[str]:
    """The ends of a submitted relation that subtask A did not match as correct or partial."""
    ends = []
    for end, kp_id in (("source", rel.source), ("target", rel.target)):
        state = m.a.outcome[sub_first[kp_id]]
        if state == "spurious":
            ends.append(f"{end} phrase {kp_id} is spurious")
        elif state == "incorrect":
            ends.append(f"{end} phrase {kp_id} is only incorrect (other label)")
    return ends


def _why_spurious_relation(
    m: PairMatch,
    rel: Relation,
    sub_first: Mapping[int, int],
    mapping: Mapping[int, int],
    cls: Classes,
) -> str:
    """Why a submitted relation matched no gold relation."""
    ends = _unmatched_ends(m, rel, sub_first)
    if ends:
        return f"relation endpoint not matched in subtask A ({'; '.join(ends)})"
    src, dst = mapping[sub_first[rel.source]], mapping[sub_first[rel.target]]
    ids = m.gold.keyphrases[src].id, m.gold.keyphrases[dst].id
    classes = cls.of_phrase[src], cls.of_phrase[dst]
    golds = m.b.gold
    if find_relation(golds, range(len(golds)), rel.label, ids, classes, cls) is not None:
        return "its gold relation was already matched by an earlier predicted relation"
    others = sorted(
        {g.label for g in golds if (cls.of_id(g.source), cls.of_id(g.target)) == classes}
    )
    if others:
        return f"other label: the gold relates these phrases by {', '.join(others)}"
    if any(
        g.label == rel.label and (cls.of_id(g.target), cls.of_id(g.source)) == classes
        for g in golds
    ):
        return "reversed: the gold relation goes the other way (only same-as is symmetric)"
    return "no gold relation between the phrases its endpoints matched"


def _predicted_relation_details(
    m: PairMatch, gold_first: Mapping[int, int], mapping: Mapping[int, int]
) -> list[dict[str, Any]]:
    """One record per submitted relation line (file order)."""
    sub_first, cls = first_by_id(m.submitted.keyphrases), same_as_classes(m.gold)
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
        k = m.b.gold_of[position[rel]]
        if k is None:
            why = _why_spurious_relation(m, rel, sub_first, mapping, cls)
            records.append(_record(m.index, "relation", "spurious", why, **fields))
            continue
        fields.update(_relation_fields("gold", m.gold, gold_first, m.b.gold[k]))
        why = _HOW[m.b.how[position[rel]]]
        if {sub_first[rel.source], sub_first[rel.target]} & via_partial:
            why += " (an endpoint matched only partially in subtask A)"
        records.append(_record(m.index, "relation", "correct", why, **fields))
    return records


def _why_missing_relation(rel: Relation, gold_first: Mapping[int, int], mapped: set[int]) -> str:
    unmatched = [
        f"{end} phrase {kp_id}"
        for end, kp_id in (("source", rel.source), ("target", rel.target))
        if gold_first[kp_id] not in mapped
    ]
    if unmatched:
        return (
            f"relation endpoint not matched in subtask A ({', '.join(unmatched)} has no "
            f"correct or partial match)"
        )
    return "no predicted relation matched it"


def _gold_relation_details(
    m: PairMatch, gold_first: Mapping[int, int], mapping: Mapping[int, int]
) -> list[dict[str, Any]]:
    """One record per unmatched or repeated gold relation line (file order)."""
    matched = {m.b.gold[k] for k in m.b.gold_of if k is not None}
    mapped = set(mapping.values())
    records, seen = [], set()
    for rel in m.gold.relations:
        fields = _relation_fields("gold", m.gold, gold_first, rel)
        if rel in seen:
            why = "duplicate relation removed (an earlier gold line is the same relation)"
            records.append(_record(m.index, "relation", "ignored", why, **fields))
            continue
        seen.add(rel)
        if rel not in matched:
            why = _why_missing_relation(rel, gold_first, mapped)
            records.append(_record(m.index, "relation", "missing", why, **fields))
    return records


def relation_details(m: PairMatch) -> list[dict[str, Any]]:
    """One record per submitted relation line (file order), then per unmatched gold line."""
    gold_first, mapping = first_by_id(m.gold.keyphrases), m.a.mapping()
    return _predicted_relation_details(m, gold_first, mapping) + _gold_relation_details(
        m, gold_first, mapping
    )


def item_details(
    matches: Sequence[PairMatch], scenario: str = "scenario1", edition: int = 2019
) -> list[dict[str, Any]]:
    """The per-item records of a scenario: key phrases (scenarios 1, 2, 4), relations (1, 3,
    4)."""
    check_scenario(scenario, edition)
    records = []
    for m in matches:
        if scenario != "scenario3":
            records += keyphrase_details(m)
        if scenario != "scenario2":
            records += relation_details(m)
    return records
