"""The SciFact core against a deliberately simple re-reading of the spec, on random claims.

The reference below works on the official file shapes (gold ``evidence`` keyed by doc id with
rationale lists, predicted ``evidence`` keyed by doc id) and follows the spec's wording step by
step, sentence by sentence; it shares no code with the metric.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from taskeval._metrics.scifact_abstract.scoring import (
    abstract_details,
    scifact_scores,
    sentence_details,
)

LABELS = ["SUPPORT", "CONTRADICT"]
GOLD_DOCS = ["11", "011", "15", "1200", "01200"]
OTHER_DOCS = ["16", "99"]


def reference_scores(claims: list[tuple[dict, dict]]) -> dict[str, float]:
    """The spec, literally. ``claims``: (gold evidence dict, predicted evidence dict) per claim."""
    n = dict.fromkeys(
        ["rel_a", "ret_a", "label_only", "rationalized", "rel_s", "ret_s", "selection", "label"], 0
    )
    for gold, predicted in claims:
        n["rel_a"] += len(gold)
        for rationales in gold.values():
            for rationale in rationales:
                n["rel_s"] += len(rationale["sentences"])
        for doc, pred in predicted.items():
            n["ret_a"] += 1
            n["ret_s"] += len(pred["sentences"])
            if doc not in gold:
                continue
            doc_label = gold[doc][0]["label"]
            sets = [set(r["sentences"]) for r in gold[doc]]
            chosen = set(pred["sentences"])
            # Sentence level: each distinct predicted sentence whose whole rationale is predicted.
            good = 0
            for s in chosen:
                for r in sets:
                    if s in r and r.issubset(chosen):
                        good += 1
            n["selection"] += good
            if pred["label"] == doc_label:
                n["label"] += good
                n["label_only"] += 1
                k = 3
                if min(len(r) for r in sets) > 3:
                    k = min(len(r) for r in sets)
                first_k = set(pred["sentences"][0:k])
                if any(r.issubset(first_k) for r in sets):
                    n["rationalized"] += 1

    def three(correct, retrieved, relevant):
        p = correct / retrieved if retrieved > 0 else 0.0
        r = correct / relevant if relevant > 0 else 0.0
        f = (2 * p * r) / (p + r) if p + r > 0 else 0.0
        return [p, r, f]

    values = (
        three(n["label_only"], n["ret_a"], n["rel_a"])
        + three(n["rationalized"], n["ret_a"], n["rel_a"])
        + three(n["selection"], n["ret_s"], n["rel_s"])
        + three(n["label"], n["ret_s"], n["rel_s"])
    )
    names = [
        f"{level}_{metric}_{part}"
        for level, metric in (
            ("abstract", "label_only"),
            ("abstract", "rationalized"),
            ("sentence", "selection"),
            ("sentence", "label"),
        )
        for part in ("precision", "recall", "f1")
    ]
    return dict(zip(names, values))


@st.composite
def claim(draw) -> tuple[dict, dict]:
    gold = {}
    for doc in draw(st.lists(st.sampled_from(GOLD_DOCS), max_size=3, unique=True)):
        # Distinct sentences in any order, cut into 1-3 disjoint rationales of 1-5 sentences.
        pool = draw(st.lists(st.integers(0, 14), min_size=1, max_size=12, unique=True))
        sizes = draw(st.lists(st.sampled_from([1, 1, 2, 3, 4, 4, 5]), min_size=1, max_size=3))
        label = draw(st.sampled_from(LABELS))
        rationales, start = [], 0
        for size in sizes:
            if pool[start : start + size]:
                rationales.append({"sentences": pool[start : start + size], "label": label})
            start += size
        gold[doc] = rationales
    predicted = {}
    docs = draw(st.lists(st.sampled_from(list(gold) + OTHER_DOCS), max_size=4, unique=True))
    for doc in docs:
        sentences = draw(st.lists(st.integers(0, 14), max_size=6))  # duplicates, any order
        if doc in gold and draw(st.booleans()):
            whole = draw(st.sampled_from(gold[doc]))["sentences"]
            at = draw(st.integers(0, len(sentences)))
            sentences = sentences[:at] + draw(st.permutations(whole)) + sentences[at:]
        predicted[doc] = {"sentences": sentences, "label": draw(st.sampled_from(LABELS))}
    return gold, predicted


def _as_rows(claims: list[tuple[dict, dict]]) -> dict[str, list]:
    predictions, references = [], []
    for i, (gold, predicted) in enumerate(claims):
        references.append(
            {
                "id": i,
                "evidence": [
                    {"doc_id": doc, "label": r["label"], "sentences": r["sentences"]}
                    for doc, rationales in gold.items()
                    for r in rationales
                ],
            }
        )
        predictions.append(
            {"id": i, "evidence": [{"doc_id": doc, **p} for doc, p in predicted.items()]}
        )
    return {"predictions": predictions, "references": references}


def random_claim(rng: random.Random) -> tuple[dict, dict]:
    """The same distribution as ``claim``, drawn from a seeded generator (much cheaper to draw)."""
    gold = {}
    for doc in rng.sample(GOLD_DOCS, rng.choice([0, 0, 1, 1, 2, 3])):
        pool = rng.sample(range(15), rng.randint(1, 12))
        label = rng.choice(LABELS)
        rationales, start = [], 0
        for _ in range(rng.randint(1, 3)):
            size = rng.choice([1, 1, 2, 3, 4, 4, 5])
            if pool[start : start + size]:
                rationales.append({"sentences": pool[start : start + size], "label": label})
            start += size
        gold[doc] = rationales
    predicted = {}
    for doc in rng.sample(list(gold) + OTHER_DOCS, rng.randint(0, min(4, len(gold) + 2))):
        sentences = [rng.randint(0, 14) for _ in range(rng.randint(0, 6))]
        if doc in gold and rng.random() < 0.5:
            whole = list(rng.choice(gold[doc])["sentences"])
            rng.shuffle(whole)
            at = rng.randint(0, len(sentences))
            sentences = sentences[:at] + whole + sentences[at:]
        predicted[doc] = {"sentences": sentences, "label": rng.choice(LABELS)}
    return gold, predicted


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(claim(), min_size=1, max_size=4))
def test_core_equals_the_simple_reading_of_the_spec(claims):
    assert scifact_scores(**_as_rows(claims)) == reference_scores(claims)


@settings(max_examples=3000, derandomize=True, deadline=None)
@given(st.randoms(use_true_random=True), st.integers(1, 8))
def test_core_equals_the_simple_reading_of_the_spec_on_many_claims(rng, n):
    claims = [random_claim(rng) for _ in range(n)]
    assert scifact_scores(**_as_rows(claims)) == reference_scores(claims)


def scores_from_details(abstracts: list[dict], sentences: list[dict]) -> dict[str, float]:
    """P/R/F1 from the per-item records alone: each record's flags say which counters it is in."""
    out = {}
    for prefix, records, retrieved, relevant, corrects in (
        ("abstract", abstracts, "predicted", "gold", ("label_only", "rationalized")),
        ("sentence", sentences, "predicted", "relevant", ("selection", "label")),
    ):
        n_ret = sum(1 for d in records if d[retrieved])
        n_rel = sum(1 for d in records if d[relevant])
        for name in corrects:
            flag = {"selection": "selected", "label": "label_correct"}.get(name, name)
            correct = sum(1 for d in records if d[flag])
            p = correct / n_ret if n_ret else 0.0
            r = correct / n_rel if n_rel else 0.0
            out[f"{prefix}_{name}_precision"] = p
            out[f"{prefix}_{name}_recall"] = r
            out[f"{prefix}_{name}_f1"] = 2 * p * r / (p + r) if p + r else 0.0
    return out


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.randoms(use_true_random=True), st.integers(1, 8))
def test_details_add_up_to_the_simple_reading_of_the_spec(rng, n):
    claims = [random_claim(rng) for _ in range(n)]
    rows = _as_rows(claims)
    details = abstract_details(**rows), sentence_details(**rows)
    assert scores_from_details(*details) == reference_scores(claims)


def test_reference_reproduces_the_worked_example():
    gold = {
        "11": [{"sentences": [0, 1], "label": "SUPPORT"}, {"sentences": [11], "label": "SUPPORT"}],
        "15": [{"sentences": [4], "label": "SUPPORT"}],
    }
    predicted = {
        "11": {"sentences": [1, 11, 13], "label": "SUPPORT"},
        "16": {"sentences": [18, 20], "label": "CONTRADICT"},
    }
    scores = reference_scores([(gold, predicted)])
    assert scores["abstract_rationalized_f1"] == 0.5
    assert scores["sentence_label_f1"] == 0.22222222222222224
