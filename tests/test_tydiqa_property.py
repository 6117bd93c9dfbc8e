"""tydiqa's core against a deliberately simple reference written from the spec (no shared code).

The reference recomputes precision and recall for every candidate threshold by filtering the
score-sorted examples (quadratic, but obviously the definition), instead of the official single
running pass that the core follows.
"""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from taskeval._metrics.tydiqa.scoring import tydiqa_score

ORDER = ["english", "arabic", "bengali", "finnish", "indonesian", "japanese", "swahili",
         "korean", "russian", "telugu", "thai"]  # fmt: skip
LANGS = ["english", "arabic", "thai", "korean"]


def _div(a, b):
    return 0 if b == 0 else a / b


def _span_f1(gold, pred):
    (gs, ge), (ps, pe) = gold, pred
    if ge <= ps or pe <= gs:
        return 0.0
    inter = min(ge, pe) - max(gs, ps)
    p, r = inter / (pe - ps), inter / (ge - gs)
    return 2 * p * r / (p + r)


def _example(ann, pred, pt, mt):
    """((gold, has, credit, score) for passage, the same for minimal)."""
    p_gold = sum(a["candidate_index"] >= 0 for a in ann) >= pt
    m_gold = sum(a["start_byte"] >= 0 or a["yes_no_answer"].lower() != "none" for a in ann) >= mt
    if pred is None:
        return (p_gold, not p_gold, 0, 0), (m_gold, not m_gold, 0, 0)
    idx = pred["passage_answer_index"]
    p_ok = p_gold and idx >= 0 and idx in [a["candidate_index"] for a in ann]
    span = (pred["minimal_answer"]["start_byte_offset"], pred["minimal_answer"]["end_byte_offset"])
    yn = pred.get("yes_no_answer", "NONE").lower()
    m_has = span[0] >= 0 or yn != "none"
    credit = 0.0
    if m_gold and m_has:
        if yn != "none":
            credit = 1.0 if yn in [a["yes_no_answer"].lower() for a in ann] else 0.0
        else:
            f1s = [_span_f1((a["start_byte"], a["end_byte"]), span) for a in ann
                   if a["start_byte"] >= 0]  # fmt: skip
            credit = max([0.0, *f1s])
    p_score, m_score = float(pred["passage_answer_score"]), float(pred["minimal_answer_score"])
    return (p_gold, idx >= 0, p_ok, p_score), (m_gold, m_has, credit, m_score)


def _curve(stats):
    n_gold = len([s for s in stats if s[0]])
    ranked = sorted(stats, key=lambda s: s[3], reverse=True)
    points = []  # (threshold object, P, R), one per distinct score, descending
    for s in ranked:
        if any(s[3] == t for t, _, _ in points):
            continue
        kept = [x for x in ranked if x[3] >= s[3]]  # the sorted prefix down to this score
        correct = 0
        for x in kept:
            correct += x[2]
        predicted = len([x for x in kept if x[1]])
        points.append((s[3], _div(correct, predicted), _div(correct, n_gold)))
    best = (0.0, 0.0, 0.0, 0.0)
    for t, p, r in points:
        f = _div(2 * p * r, p + r)
        if f > best[0]:
            best = (f, p, r, t)
    out = list(best)
    for target in (0.5, 0.75, 0.9):
        r_best, p_best = 0, 0
        for _, p, r in points:
            if p >= target and r > r_best:
                r_best, p_best = r, p
        out += [r_best, p_best]
    return out


def reference(predictions, references, pt=2, mt=2):
    gold = {}
    for r in references:
        if r["example_id"] is not None:
            gold[r["example_id"]] = r
    preds = {}
    for p in predictions:
        if p["example_id"] is not None:
            preds[p["example_id"]] = p
    per_language, macro = {}, []
    for lang in ORDER:
        mine = {i: p for i, p in preds.items() if p["language"] == lang}
        if not mine:
            continue
        ids = set([i for i, g in gold.items() if g["language"] == lang])
        rows = [_example(gold[i]["annotations"], mine.get(i), pt, mt) for i in ids]
        values = _curve([r[0] for r in rows]) + _curve([r[1] for r in rows])
        per_language[lang] = values
        if lang != "english":
            macro.append(values)
    avgs = []
    for col in (0, 2, 1, 10, 12, 11):
        total = 0  # left to right, as CPython 3.11's sum() (3.12 compensates)
        for v in macro:
            total = total + v[col]
        avgs.append(total / len(macro) if macro else 0)
    return avgs, per_language


# --- random data (drawn from a seed, so that thousands of cases stay fast) ---------------------

SCORES = [-1.5, -1, 0, 0.0, -0.0, 0.5, 1, 2.25]


def _score(rng):
    return rng.choice(SCORES) if rng.random() < 0.6 else rng.uniform(-3, 3)


# No span: both offsets negative, in either order.
NULL_SPANS = [(-1, -1), (-1, -1), (-1, -7), (-7, -1), (-3, -3)]


def _annotation(rng, yes_no_share):
    kind = rng.choice(["null", "passage", "span", "span"])
    if rng.random() < yes_no_share:
        kind = "yesno"
    index = -1 if kind == "null" else rng.randint(0, 3)
    start, end = rng.choice(NULL_SPANS)
    answer = "NONE"
    if kind == "span":
        start = rng.randint(0, 20)
        end = start + rng.randint(1, 8)
    elif kind == "yesno":
        answer = rng.choice(["YES", "NO", "yes"])
    return {"candidate_index": index, "start_byte": start, "end_byte": end, "yes_no_answer": answer}


def _prediction(rng, example_id, language, yes_no_share):
    answer = rng.choice(["YES", "no", "Yes"]) if rng.random() < yes_no_share else "NONE"
    start, end = rng.choice(NULL_SPANS)
    if answer == "NONE" and rng.random() < 0.5:
        start = rng.randint(0, 22)
        end = start + rng.randint(1, 8)
    row = {
        "example_id": example_id,
        "language": language,
        "passage_answer_index": rng.randint(-1, 3),
        "passage_answer_score": _score(rng),
        "minimal_answer": {"start_byte_offset": start, "end_byte_offset": end},
        "minimal_answer_score": _score(rng),
    }
    if answer != "NONE" or rng.random() < 0.8:
        row["yes_no_answer"] = answer  # otherwise the official default
    return row


def dataset(seed):
    rng = random.Random(seed)
    yes_no_share = rng.choice([0.0, 0.1, 0.6])  # some sets are yes/no-heavy
    n = rng.randint(0, 14)
    refs = [
        {
            "example_id": rng.randint(-40, 40),  # repeats: duplicate gold ids
            "language": rng.choice(LANGS),
            "annotations": [
                _annotation(rng, yes_no_share) for _ in range(rng.choice([1, 3, 3, 5]))
            ],
        }
        for _ in range(n)
    ]
    preds = []
    for ref in refs:
        if rng.random() < 0.2:
            continue  # a missing prediction
        language = ref["language"] if rng.random() < 0.9 else rng.choice(LANGS)
        preds.append(_prediction(rng, ref["example_id"], language, yes_no_share))
    for _ in range(rng.randint(0, 2)):  # unknown ids
        preds.append(_prediction(rng, rng.randint(100, 110), rng.choice(LANGS), yes_no_share))
    rng.shuffle(preds)
    size = max(len(preds), len(refs))
    preds += [{"example_id": None}] * (size - len(preds))
    refs += [{"example_id": None}] * (size - len(refs))
    return preds, refs


def _same(a, b):
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b and type(a) is type(b)


@settings(max_examples=3000, derandomize=True, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(2, 2), (1, 1), (1, 3), (3, 2)]))
def test_core_matches_the_simple_reference(seed, thresholds):
    predictions, references = dataset(seed)
    result = tydiqa_score(predictions, references, *thresholds)
    avgs, per_language = reference(predictions, references, *thresholds)
    got = [result[k] for k in ("avg_passage_f1", "avg_passage_recall", "avg_passage_precision",
                                "avg_minimal_f1", "avg_minimal_recall", "avg_minimal_precision")]  # fmt: skip
    assert all(_same(a, b) for a, b in zip(got, avgs)), (got, avgs)
    assert list(result["per_language"]) == list(per_language)
    for lang, values in per_language.items():
        mine = list(result["per_language"][lang].values())
        assert all(_same(a, b) for a, b in zip(mine, values)), (lang, mine, values)
