"""feverous_score against the real FEVEROUS scorer (Raldir/FEVEROUS) on random files.

The official side is the repository's own code, read from ``--official DIR`` (a checkout of
Raldir/FEVEROUS as ``DIR/FEVEROUS``; ``jsonlines`` 3.1.0, the newest the FEVEROUS package allows,
importable, read with ``json`` as in an environment without orjson or ujson; ``cleantext``, which
evaluate.py imports and never calls, may be absent). Each case writes an evaluate.py input file (header line,
then gold and prediction per claim) biased to the scorer's traps: page titles with ``_`` (the
official reader ends the page at the first one, so the type is misread and counts against the
other budget), ids holding ``table_caption`` or ``header_cell``, more than 5 sentences and 25
table items, duplicates, NOT ENOUGH INFO claims without evidence, empty evidence sets, labels in
other cases, runs where precision and recall are both 0 (ZeroDivisionError), ``\\r`` and
``\\r\\n`` line breaks, escaped lone surrogates, a byte order mark or record separator opening
a line (jsonlines skips one), ``NaN`` ids. It is scored:

* by the official ``feverous_evaluation(path)`` (defaults) against ``taskeval score`` /
  ``taskeval.score_files`` / ``compute(**read_official(...))`` and ``add_batch`` in chunks;
* by the official ``feverous_score(predictions, actual, max_evidence, max_evidence_cell)`` on
  the rows as evaluate.py splits them, with random bounds, against ``compute()`` given the same
  triples (and the element ids, under ``id_reading="official"``), and, in a third of the cases,
  on the rows split at the element type against ``id_reading="exact"``; the caller's rows must
  come back unchanged;
* as a leaderboard submission (``prepare_submission.py``'s triples) with the gold file, against
  the official blind mode ``feverous_score(submission, actual)``.

    python scripts/differential/run.py feverous_score --official DIR --cases 10000
"""

from __future__ import annotations

import contextlib
import copy
import io
import random
import sys
import tempfile
import types
from pathlib import Path

# common.py of the differential checks (scripts/differential/, which run.py puts on the path)
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts" / "differential"))

from common import (
    Outcome,
    compare_values,
    in_chunks,
    run,
    taskeval_cli,
    taskeval_compute,
    taskeval_files,
    write_jsonl,
)

NAME = "feverous_score"
KEYS = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall", "evidence_f1")
LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
PAGES = [
    "Korean Air",
    "Wolfgang Niedecken",
    "Wolfgang_Niedecken",
    "A_B_C",
    "Cell_0",
    "Prison_cell_2",
    "Periodic table_caption",
    "X header_cell",
    "Beyoncé",
    "日本",
    "Ωmega_sentence",
    "s",
    "\ud800x",
]
TYPES = ["sentence"] * 6 + ["cell"] * 5 + ["header_cell", "table_caption", "item", "section"]
_official_modules: dict = {}


def _official(folder: Path) -> tuple:
    if not _official_modules:
        sys.modules.setdefault("cleantext", types.SimpleNamespace(clean=lambda text, **k: text))
        sys.modules["orjson"] = sys.modules["ujson"] = None  # jsonlines then reads with json
        sys.path.insert(0, str(folder / "FEVEROUS" / "src"))
        from feverous.evaluation import evaluate, feverous_scorer

        _official_modules["m"] = (evaluate.feverous_evaluation, feverous_scorer.feverous_score)
    return _official_modules["m"]


def _element(rng: random.Random) -> str:
    kind = rng.choice(TYPES)
    numbers = {"sentence": 1, "section": 1, "table_caption": 1, "item": 2}.get(kind, 3)
    position = "_".join(str(rng.randint(0, 3)) for _ in range(numbers))
    return f"{rng.choice(PAGES)}_{kind}_{position}"


def _claim(rng: random.Random) -> dict:
    gold_label = rng.choice(LABELS)
    sets = []
    n_sets = (
        rng.choice([0, 1, 1, 1, 2, 3]) if gold_label != "NOT ENOUGH INFO" else rng.choice([0, 0, 1])
    )
    for _ in range(n_sets):
        sets.append({"content": [_element(rng) for _ in range(rng.choice([0, 1, 1, 2, 3]))],
                     "context": {}})  # fmt: skip
    predicted = [_element(rng) for _ in range(rng.choice([0, 1, 3, 5, 6, 8, 27, 30]))]
    if sets and rng.random() < 0.6:  # plant a gold set, maybe twice, maybe past a budget
        for item in rng.choice(sets)["content"]:
            for _ in range(rng.choice([1, 1, 2])):
                predicted.insert(rng.randint(0, len(predicted)), item)
    roll = rng.random()
    label = gold_label if roll < 0.5 else gold_label.lower() if roll < 0.6 else rng.choice(LABELS)
    return {
        "id": rng.randint(0, 10**6),
        "claim": "c",
        "label": gold_label,
        "evidence": sets,
        "predicted_label": label,
        "predicted_evidence": predicted,
    }


def _hopeless(rng: random.Random, claims: list) -> None:
    """Now and then a run whose precision and recall are both 0 (every item wrong, every claim
    with gold evidence): the official scorer divides by zero."""
    if rng.random() < 0.05:
        for claim in claims:
            claim["evidence"] = [{"content": ["Gold_sentence_9"]}]
            claim["predicted_evidence"] = ["Wrong_sentence_1"] * rng.randint(1, 3)


def _marks(rng: random.Random, path: Path) -> None:
    """Now and then a byte order mark or record separator opening a line (one is skipped by
    jsonlines), a NaN id, or a null header line (refused)."""
    text = path.read_text(encoding="utf-8")
    roll = rng.random()
    if roll < 0.05:
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        lines[k] = rng.choice(["\ufeff", "\x1e", "\ufeff\ufeff"]) + lines[k]
        text = "\n".join(lines)
    elif roll < 0.07:
        text = text.replace('"id": ', '"id": NaN, "x": ', 1)
    elif roll < 0.08:
        text = "null" + text[text.index("\n") :] if "\n" in text else "null"
    path.write_text(text, encoding="utf-8", newline="")


def _split(element_id: str, exact: bool) -> list:
    if exact:
        from taskeval._metrics.feverous_score.element_ids import exact_split

        return list(exact_split(element_id))
    # as evaluate.py splits it (restated here, not imported from taskeval)
    parts = element_id.split("_")
    if "table_caption" not in element_id and "header_cell" not in element_id:
        return [parts[0], parts[1], "_".join(parts[2:])]
    return [parts[0], "_".join(parts[1:3]), "_".join(parts[3:])]


def _triples(claims: list, exact: bool) -> tuple[list, list]:
    preds = [
        {"predicted_label": c["predicted_label"],
         "predicted_evidence": [_split(e, exact) for e in c["predicted_evidence"]]}
        for c in claims
    ]  # fmt: skip
    gold = [
        {"label": c["label"],
         "evidence": [[_split(e, exact) for e in s["content"]] for s in c["evidence"]]}
        for c in claims
    ]  # fmt: skip
    return preds, gold


def _expect(call, outcome: Outcome) -> dict | None:
    """The official numbers, or None where the official code raised (its ZeroDivisionError, or
    jsonlines refusing a line): taskeval must then refuse too."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return dict(zip(KEYS, call()))
    except Exception:
        outcome.skipped = True
        return None


def _same_refusal(expected: dict | None, got_call, where: str, outcome: Outcome) -> None:
    """taskeval's numbers equal the official ones, or it refuses (a ValueError) where the
    official code raised."""
    try:
        got = got_call()
    except ValueError as e:
        if expected is not None:
            outcome.refusals.append(f"{where}: refused: {e}")
        return
    if expected is None:
        outcome.differences.append(f"{where}: the official code raised, taskeval gave {got}")
    else:
        compare_values(expected, got, where, outcome)


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    import taskeval

    evaluation, feverous_score = _official(official)
    outcome = Outcome()
    claims = [_claim(rng) for _ in range(rng.randint(1, 7))]
    _hopeless(rng, claims)
    header = {"id": "", "claim": "", "label": "", "evidence": [], "annotator_operations": []}
    metric = taskeval.load(NAME)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "dev.combined.jsonl"
        write_jsonl(rng, path, [header, *claims])
        _marks(rng, path)
        # 1. evaluate.py on the file, defaults
        expected = _expect(lambda: evaluation(str(path)), outcome)
        _same_refusal(expected, lambda: taskeval_compute(NAME, None, path), "compute", outcome)
        _same_refusal(expected, lambda: taskeval_files(NAME, None, path), "files", outcome)
        if with_cli:
            _same_refusal(expected, lambda: taskeval_cli(NAME, None, path), "cli", outcome)
        # 3. a leaderboard submission with the gold file
        gold_path = Path(folder) / "dev.jsonl"
        sub_path = Path(folder) / "dev.submission.jsonl"
        gold_lines = [{k: c[k] for k in ("id", "claim", "label", "evidence")} for c in claims]
        write_jsonl(rng, gold_path, [header, *gold_lines])
        submission = _triples(claims, exact=False)[0]
        if rng.random() < 0.3:  # element ids rather than triples
            submission = [{"predicted_label": c["predicted_label"],
                           "predicted_evidence": c["predicted_evidence"]} for c in claims]  # fmt: skip
        write_jsonl(rng, sub_path, submission)
        actual = _triples(claims, exact=False)[1]
        expected = _expect(lambda: feverous_score(copy.deepcopy(_triples(claims, False)[0]),
                                                  copy.deepcopy(actual)), outcome)  # fmt: skip
        _same_refusal(
            expected, lambda: taskeval_files(NAME, gold_path, sub_path), "submission", outcome
        )
    # 2. the official function with random bounds, on triples (and ids), caller's rows unchanged
    bounds = {
        "max_evidence": rng.choice([5, 5, None, 0, 1, 3, -1]),
        "max_evidence_cell": rng.choice([25, 25, None, 0, 2, 26, -2]),
    }
    exact = rng.random() < 0.33
    preds, gold = _triples(claims, exact)
    expected = _expect(
        lambda: feverous_score(copy.deepcopy(preds), copy.deepcopy(gold), **bounds), outcome
    )
    before = copy.deepcopy((preds, gold))
    _same_refusal(
        expected,
        lambda: metric.compute(predictions=preds, references=gold, **bounds),
        "triples",
        outcome,
    )
    if (preds, gold) != before:
        outcome.differences.append("triples: compute() changed the caller's rows")
    reading = {"id_reading": "exact" if exact else "official"}
    id_rows = (
        [{"predicted_label": c["predicted_label"], "predicted_evidence": c["predicted_evidence"]}
         for c in claims],
        [{"label": c["label"], "evidence": [s["content"] for s in c["evidence"]]} for c in claims],
    )  # fmt: skip
    _same_refusal(
        expected,
        lambda: metric.compute(predictions=id_rows[0], references=id_rows[1], **bounds, **reading),
        "ids",
        outcome,
    )
    if rng.random() < 0.2:
        inputs = {"predictions": id_rows[0], "references": id_rows[1]}
        _same_refusal(
            expected, lambda: in_chunks(NAME, inputs, **bounds, **reading), "add_batch", outcome
        )
    return outcome


def main(argv: list[str] | None = None) -> int:
    return run(NAME, check, argv)


if __name__ == "__main__":
    sys.exit(main())
