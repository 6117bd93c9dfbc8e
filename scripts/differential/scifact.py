"""scifact_abstract + scifact_sentence against the real SciFact evaluator on random files.

Each case writes a gold ``claims.jsonl`` and a submission with edge cases: the first-3 cap and
rationales longer than it, duplicates, empty sentence lists and claims without evidence, docs
outside the gold, claim ids and sentence indices beyond 64 bits, escaped lone surrogates and
Unicode in doc ids (among them ids that Arrow cannot store as they are, and ids that start with
the mark of stored escapes), ``\\r`` and ``\\r\\n`` line breaks. The official side is
``scifact-evaluator/evaluator/eval.py`` (its ``load_jsonl``, ``unify_label`` and ``Evaluator``
with ``verbose``: all 12 numbers); taskeval goes through ``compute(**read_official(...))`` of
both metrics (and, through ``common``, ``add_batch`` in chunks on a fresh metric object of each)
and, every ``--cli-every``-th case, ``taskeval score`` of both.

    python scripts/differential/scifact.py --official DIR --cases 10000
"""

from __future__ import annotations

import importlib.util
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    Outcome,
    compare_values,
    int_edge,
    run,
    taskeval_cli,
    taskeval_compute,
    taskeval_files,
    write_jsonl,
)

LABELS = ["SUPPORT", "CONTRADICT"]
DOC_IDS = ["11", "15", "7", "4983", "0", "é", "doc 1", "日本", "\U0001f600"]
# Doc ids that Arrow cannot store as they are (add_batch escapes them): lone surrogates, alone,
# inside an id, or as a low-high pair (JSON joins only a high-low pair into one character, so
# "\ude00\ud83d" stays two lone surrogates, next to the real "\U0001f600"), and ids that start
# with the escape mark (a noncharacter) that stored escapes start with.
SURROGATE_DOC_IDS = ["\ud800", "12\udfff", "\ude00\ud83d", "\ud83dx\ude00", "\udc00", "\ufdd0",
                     "\ufdd0\ud800", "\ufdd011", "é\udbff"]  # fmt: skip
METRICS = ("scifact_abstract", "scifact_sentence")

_evaluator: Any = None


def _official_module(official: Path) -> Any:
    global _evaluator
    if _evaluator is None:
        path = official / "scifact-evaluator" / "evaluator" / "eval.py"
        spec = importlib.util.spec_from_file_location("scifact_official_eval", path)
        _evaluator = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_evaluator)
    return _evaluator


def _sentences(rng: random.Random, k: int) -> list[int]:
    return [int_edge(rng, 12, negative=False) for _ in range(k)]  # the card refuses negatives


def _claim(rng: random.Random, claim_id: int, doc_ids: list[str]) -> tuple[dict, dict]:
    gold: dict[str, list] = {}
    used: set = set()
    for doc in rng.sample(doc_ids, rng.choice([0, 0, 1, 1, 2, 3])):
        label = rng.choice(LABELS)
        rationales = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            # a sentence in two rationales of one doc makes the evaluator assert: keep them apart
            sentences = [s for s in dict.fromkeys(_sentences(rng, rng.choice([1, 1, 2, 3, 4])))]
            sentences = [s for s in sentences if (doc, s) not in used]
            if not sentences:
                continue
            used.update((doc, s) for s in sentences)
            rationales.append({"sentences": sentences, "label": label})
        if rationales:
            gold[doc] = rationales
    predicted: dict[str, dict] = {}
    for doc in rng.sample(doc_ids, rng.choice([0, 1, 1, 2, 3])):
        sentences = _sentences(rng, rng.choice([0, 1, 2, 3, 5]))
        if doc in gold and rng.random() < 0.7:
            for rationale in rng.sample(gold[doc], rng.randint(1, len(gold[doc]))):
                for s in rationale["sentences"]:
                    sentences.insert(rng.randint(0, len(sentences)), s)
        if sentences and rng.random() < 0.2:
            sentences.append(rng.choice(sentences))  # a duplicate
        label = gold[doc][0]["label"] if doc in gold and rng.random() < 0.7 else None
        predicted[doc] = {"sentences": sentences, "label": label or rng.choice(LABELS)}
    return (
        {"id": claim_id, "claim": "c", "evidence": gold, "cited_doc_ids": [1]},
        {"id": claim_id, "evidence": predicted},
    )


def _official(official: Path, gold: Path, predictions: Path) -> dict:
    module = _official_module(official)
    golds = [module.unify_label(entry) for entry in module.load_jsonl(gold)]
    preds = module.load_jsonl(predictions)
    return module.Evaluator(verbose=True).evaluate(golds, preds)


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    outcome = Outcome()
    ids = rng.sample(range(1, 400), rng.randint(1, 6))
    if rng.random() < 0.02:  # the cards document the refusal of ids beyond int64
        ids[rng.randrange(len(ids))] = rng.choice([2**64, 2**64 + 7, -(2**63) - 1, 10**30])
    # Most cases draw doc ids among ordinary and unstorable ones, claim by claim (so that add_batch
    # meets its first unstorable id after some rows); some among ordinary ids alone.
    pool = DOC_IDS if rng.random() < 0.3 else DOC_IDS + rng.sample(SURROGATE_DOC_IDS, 4)
    pairs = [_claim(rng, claim_id, rng.choice([DOC_IDS, pool])) for claim_id in ids]
    with tempfile.TemporaryDirectory() as folder:
        gold_path, preds_path = Path(folder) / "claims.jsonl", Path(folder) / "predictions.jsonl"
        write_jsonl(rng, gold_path, [g for g, _ in pairs])
        write_jsonl(rng, preds_path, [p for _, p in pairs])
        try:
            expected = _official(official, gold_path, preds_path)
        except Exception:  # the evaluator refuses this case: nothing to compare
            outcome.skipped = True
            return outcome
        try:
            got: dict = {}
            for name in METRICS:
                got |= taskeval_compute(name, gold_path, preds_path)
            compare_values(expected, got, "compute", outcome)
            both = ",".join(METRICS)  # the leaderboard's 12 numbers from one reading
            compare_values(expected, taskeval_files(both, gold_path, preds_path), "files", outcome)
            if with_cli:
                compare_values(expected, taskeval_cli(both, gold_path, preds_path), "cli", outcome)
        except ValueError as e:
            outcome.refusals.append(f"refused: {e}")
    return outcome


if __name__ == "__main__":
    sys.exit(run("scifact", check))
