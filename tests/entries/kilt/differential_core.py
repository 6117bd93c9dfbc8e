"""kilt, core rules: ``scoring.downstream_scores`` and ``scoring.retrieval_scores`` against the
official ``eval_downstream.evaluate`` and ``eval_retrieval.evaluate`` (KILT at 64e284a, the
checkout ``kilt-64e284a`` in the official folder) on random gold and guess record sets.

The records are biased to the edges: ids matched by ``str(id).strip()`` (``7``, ``"7"``,
``" 7 "``), guesses out of order and for other ids, blank answers, answers that normalise to
nothing ("the", "..."), article, case, punctuation and Unicode variants, texts of dots (rouge
refuses them), gold outputs without provenance or with an empty one, repeated and shared
evidence sets, page ids as ints and padded strings, guessed pages repeated, provenance texts
holding an answer, several rank keys whose "+"-joined ids collide, ks in any order. About one
case in six is made invalid: either in a way the official scorer crashes on (then both
functions must raise ``ValueError``) or in one it scores silently and undocumented (a non-string
guess answer or id, a ``None`` gold answer, a provenance without a rank key, a repeated k: then
taskeval must raise ``ValueError`` whatever the official code does). Every value is compared
with ``==`` and its type.

rouge 1.0.1 must be importable (the official scorer's dependency, installed outside this
repository).

    python scripts/differential/run.py kilt:core --official DIR --cases 10000
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import random
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

from common import Outcome, compare_values, run

from taskeval._metrics.kilt import scoring

sys.path.insert(0, str(Path(__file__).resolve().parent))
from random_records import as_written, random_case, with_answer_outputs

_official: dict[str, Any] = {}
stats = dict.fromkeys(
    ("scored", "official_raised", "refused_undocumented", "kilt_credit", "answer_in_context"), 0
)


def official_modules(official: Path) -> tuple[Any, Any]:
    """The official ``eval_downstream`` and ``eval_retrieval`` (never copied: imported)."""
    if not _official:
        sys.path.insert(0, str(official / "kilt-64e284a"))
        try:
            importlib.import_module("nltk")
        except ImportError:  # kilt_utils imports it for functions the scorers never call
            sys.modules["nltk"] = types.ModuleType("nltk")
        downstream = importlib.import_module("kilt.eval_downstream")
        retrieval = importlib.import_module("kilt.eval_retrieval")
        _official.update(downstream=downstream, retrieval=retrieval)
    return _official["downstream"], _official["retrieval"]


# --------------------------------------------------------------------------------------------
# Random records


def _guess_of(case: dict, gold_record: dict) -> dict:
    key = as_written(gold_record["id"])
    return next(g for g in case["guess"] if as_written(g["id"]) == key)


def spoil(rng: random.Random, case: dict) -> None:
    """Make the case invalid: a crash of the official code, or an undocumented silent score."""
    gold = case["gold"]
    refuse = case["refuse"]
    kinds = ["ks_repeat", "ks_zero"]
    if gold:
        kinds += ["no_guess", "gold_dup", "guess_dup", "guess_outputs", "gold_empty_output"]
        kinds += ["text_int", "gold_answer_none", "gold_answer_int", "guess_answer_int"]
        kinds += ["missing_key", "id_float", "page_none", "provenance_dict", "retrieval_two"]
    kind = rng.choice(kinds)
    if kind == "ks_repeat":
        case["ks"] = case["ks"] + [case["ks"][0]]
        refuse["retrieval"] = True  # downstream uses its own ks
        return
    if kind == "ks_zero":
        case["ks"] = case["ks"] + [rng.choice([0, -1])]
        refuse["retrieval"] = True  # the official compute asserts k > 0
        return
    record = rng.choice(gold)
    guess = _guess_of(case, record)
    refuse["downstream"] = refuse["retrieval"] = True
    if kind == "no_guess":
        case["guess"].remove(guess)
    elif kind == "gold_dup":
        twin = json.loads(json.dumps(record))
        twin["id"] = f" {as_written(record['id'])}"
        gold.insert(rng.randint(0, len(gold)), twin)
    elif kind == "guess_dup":
        case["guess"].append(json.loads(json.dumps(guess)))
    elif kind == "guess_outputs":
        extra = rng.choice([[], [{"answer": "x"}], [{"provenance": []}]])
        guess["output"] = guess["output"] + extra if extra else []
        # An added answer-only output leaves retrieval one output with provenance.
        has_provenance = sum("provenance" in o for o in guess["output"])
        refuse["retrieval"] = has_provenance != 1
    elif kind == "gold_empty_output":
        record["output"] = []
    elif kind == "text_int":
        guess["output"][0]["provenance"] = [{"wikipedia_id": 1, "text": 5}]
    elif kind == "gold_answer_none":
        record["output"][0]["answer"] = rng.choice([None, 0, False])
        # null is no answer, as the official scorer reads it; 0 and False are refused.
        refuse["downstream"] = refuse["retrieval"] = record["output"][0]["answer"] is not None
    elif kind == "gold_answer_int":
        record["output"][0]["answer"] = rng.choice([5, ["x"], {"a": 1}])
    elif kind == "guess_answer_int":
        guess["output"][0]["answer"] = rng.choice([5, None, 1.5])
        # Retrieval does not read the answer; taskeval refuses one not a string in both
        # (documented), and reads None as no answer.
        refuse["retrieval"] = guess["output"][0]["answer"] is not None
    elif kind == "missing_key":
        target = rng.choice([record["output"][0], guess["output"][0]])
        item = {"title": "x"} if rng.random() < 0.5 else {"wikipedia_id": 1}
        target["provenance"] = [*target.get("provenance", []), item]
        # Only wikipedia_id is a rank key downstream; a retrieval guess needs provenance anyway.
        refuse["downstream"] = "wikipedia_id" not in item
        refuse["retrieval"] = len(item.keys() & set(case["rank_keys"])) < len(case["rank_keys"])
    elif kind == "id_float":
        target = rng.choice([record, guess])
        target["id"] = (
            float(as_written(record["id"])) if as_written(record["id"]).isdigit() else None
        )
    elif kind == "page_none":
        item = {"wikipedia_id": rng.choice([None, 1.0, True])}
        guess["output"][0]["provenance"] = [item]
    elif kind == "provenance_dict":
        record["output"][0]["provenance"] = {"wikipedia_id": 1}
    elif kind == "retrieval_two":
        guess["output"] = [{"answer": "a", "provenance": []}, {"provenance": []}]


# --------------------------------------------------------------------------------------------
# Both ways


def _write(folder: Path, name: str, rows: list) -> str:
    path = folder / name
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="ascii")
    return str(path)


def _flat(result: dict) -> dict:
    flat = {}
    for key, value in result.items():
        if isinstance(value, dict):
            flat.update({f"{key}.{k}": v for k, v in value.items()})
        else:
            flat[key] = value
    return flat


def _one(outcome: Outcome, where: str, refuse: bool, official: Any, ours: Any) -> None:
    """Compare one scorer's result: ``official`` and ``ours`` are a dict or the raised error."""
    if isinstance(ours, Exception) and not isinstance(ours, ValueError):
        outcome.refusals.append(f"{where}: taskeval raised {type(ours).__name__}: {ours}")
    elif isinstance(official, Exception):
        stats["official_raised"] += 1
        if not isinstance(ours, ValueError):
            outcome.differences.append(
                f"{where}: official raised {type(official).__name__}, taskeval scored"
            )
    elif refuse:
        stats["refused_undocumented"] += 1
        if not isinstance(ours, ValueError):
            outcome.differences.append(f"{where}: undocumented input scored, not refused")
    elif isinstance(ours, ValueError) and "references is empty" in str(ours):
        stats["refused_undocumented"] += 1  # documented: the official scorer reports zeros
    elif isinstance(ours, ValueError):
        outcome.refusals.append(f"{where}: taskeval refused a valid case: {ours}")
    else:
        expected, actual = _flat(dict(official)), _flat(dict(ours))
        stats["scored"] += 1
        stats["kilt_credit"] += bool(expected.get("kilt.KILT-f1"))
        stats["answer_in_context"] += any(
            v for k, v in expected.items() if k.startswith("answer_in_context")
        )
        compare_values(expected, actual, where, outcome)
        for key in actual.keys() - expected.keys():
            outcome.differences.append(f"{where}: {key}: only taskeval has it")


def run_quietly(function: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return function(*args, **kwargs)
    except Exception as e:
        return e


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    downstream, retrieval = official_modules(official)
    case = random_case(rng, spoil)
    before = json.dumps(case, sort_keys=True)
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        gold_path = _write(Path(tmp), "gold.jsonl", case["gold"])
        guess_path = _write(Path(tmp), "guess.jsonl", case["guess"])
        theirs = run_quietly(downstream.evaluate, gold_path, guess_path)
        ours = run_quietly(scoring.downstream_scores, case["gold"], case["guess"])
        _one(outcome, "downstream", case["refuse"]["downstream"], theirs, ours)
        ks, keys = case["ks"], case["rank_keys"]
        # Retrieval reads only the guess output with provenance: others may come with it.
        retrieval_guess = with_answer_outputs(rng, case["guess"])
        guess_path = _write(Path(tmp), "guess.jsonl", retrieval_guess)
        theirs = run_quietly(retrieval.evaluate, gold_path, guess_path, ks, keys)
        ours = run_quietly(
            scoring.retrieval_scores, case["gold"], retrieval_guess, ks=ks, rank_keys=keys
        )
        _one(outcome, f"retrieval ks={ks} keys={keys}", case["refuse"]["retrieval"], theirs, ours)
    if json.dumps(case, sort_keys=True) != before:
        outcome.differences.append("taskeval changed its inputs")
    return outcome


def main(argv: list[str] | None = None) -> int:
    code = run("kilt:core", check, argv)
    print(json.dumps({"scorer_runs": stats}), file=sys.stderr)
    return code
