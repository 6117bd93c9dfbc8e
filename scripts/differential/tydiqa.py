"""tydiqa against the real TyDi QA scorer (``tydi_eval.py`` + ``eval_utils.py``) on random files.

Each case writes a gold JSONL (gzip or plain) and a prediction JSONL with edge cases: tied and
equal scores, thresholds, null spans with both offsets negative in either order ([-1, -7) is
null), zero-length spans, spans the official ``Span`` refuses (half null, or non-null and
backwards: taskeval must refuse them too), yes/no answers, missing and unexpected
predictions, numeric-string and true/false scores, annotation ids beyond 64 bits, document text
full of quotes, brackets, backslashes and key names, nested objects holding ``example_id``,
``language`` or ``annotations`` (before or after the top-level ones), repeated and escaped keys,
other key orders, and ``\\r``/``\\r\\n`` line breaks in the plain files. The official side runs
``tydi_eval.main`` with its flags and reads the JSON it prints; taskeval goes through
``compute(**read_official(...))``, ``taskeval.score_files``, ``add_batch`` in two batches (one
case in ten) and, every ``--cli-every``-th case, ``taskeval score tydiqa``.
Needs ``absl-py``.

    python scripts/differential/tydiqa.py --official DIR --cases 10000
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    Outcome,
    compare_values,
    dumps,
    metric,
    run,
    taskeval_cli,
    taskeval_compute,
    taskeval_files,
)

LANGUAGES = ["english", "arabic", "bengali", "finnish", "japanese", "swahili", "thai"]
TEXT = ['a', '"', '}', ']', '{', '[', "\\", "\\\\", "é", "日本", '"example_id": 5',
        '"language": "x"', '"annotations": []', ", ", ":", "\t", " ", "\u2028", "\x85"]  # fmt: skip
_tydi: Any = None


def _official_module(official: Path) -> Any:
    global _tydi
    if _tydi is None:
        sys.path.insert(0, str(official / "tydiqa"))
        import tydi_eval
        from absl import logging

        logging.set_verbosity(logging.ERROR)
        tydi_eval.FLAGS(["tydi_eval"])
        _tydi = tydi_eval
    return _tydi


def _official(official: Path, gold: Path, predictions: Path, passage: int, minimal: int) -> dict:
    tydi = _official_module(official)
    flags = tydi.FLAGS
    flags.gold_path, flags.predictions_path = str(gold), str(predictions)
    flags.passage_non_null_threshold, flags.minimal_non_null_threshold = passage, minimal
    flags.pretty_print = flags.cache_gold_data = False
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tydi.main(None)
    values: dict[str, Any] = {}
    language = None
    for line in out.getvalue().splitlines():
        if line.startswith("Passage & "):
            language = line.split(" & ")[1]
        elif line.startswith("{"):
            record = json.loads(line)
            if "avg_passage_f1" in record:
                values.update(record)
            else:
                values.update({f"{language}/{k}": v for k, v in record.items()})
    return values


def _flat(result: dict) -> dict:
    out = {k: v for k, v in result.items() if k != "per_language"}
    for language, record in result.get("per_language", {}).items():
        out.update({f"{language}/{k}": v for k, v in record.items()})
    return out


def _text(rng: random.Random, surrogate: bool = False) -> str:
    """Awkward JSON string content; a lone surrogate only where the scorer never encodes it."""
    text = "".join(rng.choice(TEXT) for _ in range(rng.randint(0, 12)))
    return text + "\udc80\ud800" if surrogate and rng.random() < 0.3 else text


def _null_span(rng: random.Random) -> tuple[int, int]:
    """A null span: both offsets negative, in either order (the official ``Span`` checks the
    order of non-null spans only)."""
    if rng.random() < 0.6:
        return -1, -1
    return rng.choice([(-1, -7), (-7, -1), (-3, -3), (-2, -1), (-1, -2), (-(2**63), -1),
                       (-1, -(2**63)), (-5, -(2**40))])  # fmt: skip


def _bad_span(rng: random.Random) -> tuple[int, int]:
    """A span the official ``Span`` refuses (ValueError): half null, or non-null backwards."""
    return rng.choice([(-1, 5), (5, -1), (0, -1), (-1, 0), (-7, 3), (8, 2), (1, 0)])


def _annotation(rng: random.Random, candidates: int) -> dict:
    index = rng.choice([-1, -1, *range(candidates)])
    start, end = _null_span(rng)
    yes_no = "NONE"
    if index >= 0 and rng.random() < 0.6:
        start = rng.randint(0, 20)
        end = start + rng.choice([0, 1, 3, 8])
    elif index >= 0 and rng.random() < 0.3:
        yes_no = rng.choice(["YES", "NO"])
    return {
        "annotation_id": rng.choice([1, 2**63, 2**64 - 1, 2**64 + 3, 10**22]),
        "minimal_answer": {"plaintext_end_byte": end, "plaintext_start_byte": start},
        "passage_answer": {"candidate_index": index},
        "yes_no_answer": yes_no,
    }


def _gold_line(
    rng: random.Random, example_id: int, language: str, bad: bool = False
) -> tuple[str, dict]:
    """A gold line's text, with the odd key order, nesting and repetition; and its record.
    ``bad``: one annotation's span is one the official ``Span`` refuses."""
    candidates = rng.randint(1, 4)
    annotations = [_annotation(rng, candidates) for _ in range(rng.choice([1, 3, 3, 3, 5]))]
    if bad:
        start, end = _bad_span(rng)
        rng.choice(annotations)["minimal_answer"] = {
            "plaintext_end_byte": end,
            "plaintext_start_byte": start,
        }
    members = [
        ("annotations", annotations),
        ("document_plaintext", _text(rng)),
        ("document_title", _text(rng, surrogate=True)),
        ("document_url", "https://x/" + _text(rng)),
        ("example_id", example_id),
        ("language", language),
        (
            "passage_answer_candidates",
            [{"plaintext_end_byte": 9 * i + 8, "plaintext_start_byte": 9 * i} for i in range(9)],
        ),
        ("question_text", _text(rng, surrogate=True)),
    ]
    if rng.random() < 0.3:
        rng.shuffle(members)
    for _ in range(rng.choice([0, 0, 1, 2])):  # decoys the reader must not take
        decoy = rng.choice(
            [
                ("meta", {"example_id": example_id + 1, "language": "thai"}),
                ("extra", {"annotations": [], "deep": [[{"language": "x"}]]}),
                ("list", [{"example_id": 7}, "]", {"annotations": [1]}]),
                ("note", _text(rng)),
                ("number", rng.choice([0, -1.5e300, 2**70, True, None])),
            ]
        )
        members.insert(rng.randint(0, len(members)), decoy)
    final = {}
    if rng.random() < 0.1:  # a repeated top-level key: json.loads keeps the last value
        key = rng.choice(["language", "annotations", "example_id"])
        value = {
            "language": rng.choice(LANGUAGES),
            "annotations": [_annotation(rng, candidates) for _ in range(3)],
            "example_id": example_id,
        }[key]
        members.insert(rng.randint(0, len(members)), (key, {"first": 1}))
        members.append((key, value))
    parts = []
    for key, value in members:
        name = json.dumps(key)
        if rng.random() < 0.05:
            name = name.replace("e", "\\u0065", 1)  # the same key, escaped
        parts.append(f"{name}{rng.choice([':', ': ', ' : '])}{dumps(rng, value)}")
        final[key] = value
    return "{" + rng.choice([",", ", "]).join(parts) + rng.choice(["}", " }", "}\t"]), final


def _prediction(rng: random.Random, example_id: int, language: str) -> dict:
    index = rng.choice([-1, 0, 1, 2, 3])
    span = _null_span(rng)
    if index >= 0 and rng.random() < 0.6:
        start = rng.randint(0, 20)
        span = (start, start + rng.choice([0, 1, 2, 5, 8]))
    record: dict[str, Any] = {
        "example_id": example_id,
        "language": language,
        "passage_answer_index": index,
        "passage_answer_score": _score(rng),
        "minimal_answer": {"start_byte_offset": span[0], "end_byte_offset": span[1]},
        "minimal_answer_score": _score(rng),
    }
    if rng.random() < 0.5:
        record["yes_no_answer"] = rng.choice(
            ["NONE", "none"] if span[0] >= 0 else ["NONE", "YES", "NO", "yes", "No"]
        )
    if rng.random() < 0.1:
        del record["passage_answer_index"]
    return record


def _score(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice([True, False])
    if roll < 0.1:
        return rng.choice(["2.5", " 1e1", "-0.0", "3"])
    return rng.choice([0, 1, 2, 0.5, 1.5, -1.0, 10**20, 0.1 + 0.2, rng.uniform(-3, 3)])


def _add_batch(gold: Path, predictions: Path, options: dict) -> dict:
    """The rows of ``read_official`` added in two batches, then ``compute()``."""
    import taskeval

    rows = taskeval.read_official("tydiqa", references=gold, predictions=predictions)
    scorer = metric("tydiqa")
    half = len(rows["predictions"]) // 2
    for part in (slice(0, half), slice(half, None)):
        scorer.add_batch(predictions=rows["predictions"][part], references=rows["references"][part])
    return scorer.compute(**options)


# The official Span's refusals; taskeval refuses the same spans with its own message.
SPAN_ERRORS = {
    "Inconsistent Null Spans (Byte).": "one null (negative) offset and one non-null",
    "Invalid byte spans (start_byte >= end_byte).": "starts after it ends",
}


def _check_refused(gold: Path, predictions: Path, options: dict, error: str, outcome: Outcome):
    """A span the official ``Span`` refuses is refused by every taskeval file path too."""
    for where, score in (("compute", taskeval_compute), ("files", taskeval_files)):
        outcome.values += 1
        try:
            score("tydiqa", gold, predictions, **options)
        except ValueError as e:
            if SPAN_ERRORS[error] not in str(e):
                outcome.differences.append(f"{where}: official {error!r}, taskeval {e}")
        else:
            outcome.differences.append(f"{where}: official {error!r}, taskeval scored it")


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    outcome = Outcome()
    n = rng.randint(1, 8)
    if rng.random() < 0.3:  # anywhere in the signed 64-bit range
        ids = list(dict.fromkeys(rng.randrange(-(2**63), 2**63) for _ in range(n)))
    else:
        ids = rng.sample(range(50), n)
    languages = [rng.choice(LANGUAGES) for _ in ids]
    # Now and then one span the official Span refuses, in the gold or in the predictions.
    bad = rng.choice(["gold", "predictions"]) if rng.random() < 0.06 else None
    bad_line = rng.randrange(len(ids))
    gold_lines, gold = [], {}
    for k, (example_id, language) in enumerate(zip(ids, languages)):
        text, record = _gold_line(rng, example_id, language, bad == "gold" and k == bad_line)
        gold_lines.append(text)
        gold[example_id] = record
    predictions = [
        _prediction(rng, i, gold[i]["language"] if rng.random() < 0.95 else rng.choice(LANGUAGES))
        for i in ids
        if rng.random() < 0.85
    ]
    if rng.random() < 0.2:
        predictions.append(_prediction(rng, 10**6, rng.choice(LANGUAGES)))  # not in the gold
    rng.shuffle(predictions)
    if bad == "predictions" and predictions:
        start, end = _bad_span(rng)
        rng.choice(predictions)["minimal_answer"] = {
            "start_byte_offset": start,
            "end_byte_offset": end,
        }
    passage, minimal = rng.choice([(2, 2), (2, 2), (1, 1), (3, 2), (1, 3)])
    gzipped = rng.random() < 0.5
    with tempfile.TemporaryDirectory() as folder:
        gold_path = Path(folder) / ("gold.jsonl.gz" if gzipped else "gold.jsonl")
        preds_path = Path(folder) / "predictions.jsonl"
        breaks = ["\n"] if gzipped else ["\n", "\n", "\r\n", "\r"]
        text = "".join(line + rng.choice(breaks) for line in gold_lines)
        data = text.encode("utf-8", "surrogatepass")
        gold_path.write_bytes(gzip.compress(data) if gzipped else data)
        preds_text = "".join(dumps(rng, p) + rng.choice(["\n", "\r\n", "\r"]) for p in predictions)
        preds_path.write_text(preds_text, encoding="utf-8", newline="")
        options = {"passage_non_null_threshold": passage, "minimal_non_null_threshold": minimal}
        try:
            expected = _official(official, gold_path, preds_path, passage, minimal)
        except Exception as e:  # the official scorer refuses this case: nothing to compare
            outcome.skipped = True
            if isinstance(e, ValueError) and str(e) in SPAN_ERRORS:
                _check_refused(gold_path, preds_path, options, str(e), outcome)
            return outcome
        try:
            got = _flat(taskeval_compute("tydiqa", gold_path, preds_path, **options))
            compare_values(expected, got, "compute", outcome)
            got = _flat(taskeval_files("tydiqa", gold_path, preds_path, **options))
            compare_values(expected, got, "files", outcome)
            if rng.random() < 0.1:
                compare_values(expected, _flat(_add_batch(gold_path, preds_path, options)),
                               "add_batch", outcome)  # fmt: skip
            if with_cli:
                flags = ["--passage-non-null-threshold", str(passage)]
                flags += ["--minimal-non-null-threshold", str(minimal)]
                got = _flat(taskeval_cli("tydiqa", gold_path, preds_path, *flags))
                compare_values(expected, got, "cli", outcome)
        except ValueError as e:
            outcome.refusals.append(f"refused: {e}")
    return outcome


if __name__ == "__main__":
    sys.exit(run("tydiqa", check))
