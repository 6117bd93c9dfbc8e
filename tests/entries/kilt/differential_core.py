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

_official: dict[str, Any] = {}
stats = dict.fromkeys(
    ("scored", "official_raised", "refused_undocumented", "kilt_credit", "answer_in_context"), 0
)

WORDS = (
    "suicide", "Suicide", "Paris", "paris", "the", "The", "a", "an", "An", "cat", "cats", "1",
    "2", "Ω", "naïve", "x.y", "U.S.", "!", "?!", "...", ".", "New", "York", "İstanbul", "ß",
    "it", "was", "then", "ánd", "(b)", "the-end", "théâtre", "\u00a0", "a.", "one",
)  # fmt: skip
SEPARATORS = (" ", " ", " ", "  ", "\t", ", ", ". ", ".", " . ", "\n")
KEY_SETS = (
    ("wikipedia_id",),
    ("wikipedia_id", "section"),
    ("wikipedia_id", "start_paragraph_id", "end_paragraph_id"),
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


def text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(["", " ", "  \t", "\u00a0"])
    words = [rng.choice(WORDS) for _ in range(rng.choice((1, 1, 2, 3, 4, 6)))]
    out = words[0]
    for word in words[1:]:
        out += rng.choice(SEPARATORS) + word
    if rng.random() < 0.15:
        out = rng.choice([" ", "  ", "\n"]) + out + rng.choice(["", " ", "\t"])
    return out


def variant(rng: random.Random, answer: str) -> str:
    """An answer close to a gold one: the same, re-cased, padded, with an article or a dot."""
    roll = rng.random()
    if roll < 0.3:
        return answer
    if roll < 0.45:
        return answer.upper() if rng.random() < 0.5 else answer.lower()
    if roll < 0.55:
        return f"  {answer} "
    if roll < 0.7:
        return rng.choice(["the ", "a ", "The "]) + answer
    if roll < 0.8:
        return answer + rng.choice([".", "!", " .", "..."])
    return answer + " " + text(rng)


def page(rng: random.Random, n: int) -> Any:
    return rng.choice([n, n, str(n), str(n), f" {n}", f"{n} "])


def provenance(rng: random.Random, pages: int) -> dict[str, Any]:
    n = rng.randint(1, pages)
    item: dict[str, Any] = {"wikipedia_id": page(rng, n)}
    # Extra keys, so that several rank keys can be tried; "+" in a value makes joined ids collide.
    item["section"] = rng.choice([n % 2, str(n % 2), "Section:History", "1+2", 1])
    item["start_paragraph_id"] = rng.choice([1, 2, "1", "1+2"])
    item["end_paragraph_id"] = rng.choice([1, 2, 3])
    if rng.random() < 0.3:
        item["title"] = text(rng)
    return item


def gold_output(rng: random.Random, pages: int) -> dict[str, Any]:
    output: dict[str, Any] = {}
    if rng.random() < 0.85:
        output["answer"] = text(rng)
    if rng.random() < 0.75:
        size = rng.choice((0, 1, 1, 1, 2, 2, 3, 4))
        output["provenance"] = [provenance(rng, pages) for _ in range(size)]
    return output


def guess_provenance(rng: random.Random, gold: dict, pages: int, golds: list[str]) -> list:
    items = []
    gold_items = [p for o in gold["output"] for p in o.get("provenance", [])]
    for _ in range(rng.choice((0, 1, 1, 2, 3, 4, 5, 6, 8))):
        if gold_items and rng.random() < 0.6:
            item = dict(rng.choice(gold_items))
            item["wikipedia_id"] = page(rng, int(str(item["wikipedia_id"]).strip()))
        else:
            item = provenance(rng, pages + 2)
        if rng.random() < 0.5:
            inside = rng.choice(golds) if golds and rng.random() < 0.6 else text(rng)
            item["text"] = f"{text(rng)} {variant(rng, inside)} {text(rng)}"
        items.append(item)
    return items


def record_id(rng: random.Random, n: int) -> Any:
    return rng.choice([n, n, str(n), f" {n}", f"{n} ", f"q{n}", f" q{n}"])


def as_written(value: Any) -> Any:
    """The same id as the official reader matches it (the int 3 and the string "3" are one)."""
    return str(value).strip()


def random_case(rng: random.Random) -> dict[str, Any]:
    size = rng.choice((0, 1, 1, 2, 3, 4, 5, 8))
    pages = rng.choice((2, 3, 5, 8))
    names = rng.sample(range(1, 40), size)
    gold, guess = [], []
    for n in names:
        gid = record_id(rng, n)
        record = {"id": gid, "input": text(rng)}
        record["output"] = [gold_output(rng, pages) for _ in range(rng.choice((1, 1, 1, 2, 3, 5)))]
        if rng.random() < 0.1:  # a repeated output: one evidence set, one answer
            record["output"].append(json.loads(json.dumps(rng.choice(record["output"]))))
        gold.append(record)
        golds = [o["answer"] for o in record["output"] if o.get("answer", "").strip()]
        if golds and rng.random() < 0.8:
            answer = variant(rng, rng.choice(golds))
        else:
            answer = text(rng)
        if not golds and rng.random() < 0.95:  # a gold without answers needs a blank guess
            answer = rng.choice(["", "  "])
        output: dict[str, Any] = {"answer": answer}
        if rng.random() < 0.96:
            output["provenance"] = guess_provenance(rng, record, pages, golds)
        # The guess id as another writer spells it: 3 for "3", " 3" for 3.
        spelt = gid if rng.random() < 0.5 else as_written(gid)
        if isinstance(spelt, str) and spelt.isdigit() and rng.random() < 0.5:
            spelt = int(spelt)
        guess.append({"id": spelt, "output": [output]})
    rng.shuffle(guess)
    for n in rng.sample(range(100, 140), rng.choice((0, 0, 0, 1, 2))):  # guesses for no gold id
        guess.insert(rng.randint(0, len(guess)), {"id": n, "output": [{"answer": text(rng)}]})
    ks = sorted(rng.sample(range(1, 9), rng.randint(1, 4)), key=lambda _: rng.random())
    case = {
        "gold": gold,
        "guess": guess,
        "ks": ks,
        "rank_keys": list(rng.choice(KEY_SETS)),
        "refuse": {"downstream": False, "retrieval": False},
    }
    if rng.random() < 0.18:
        spoil(rng, case)
    return case


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


def with_answer_outputs(rng: random.Random, guess: list) -> list:
    """The guesses, some with an answer-only output added before or after the scored one."""
    rows = json.loads(json.dumps(guess))
    for row in rows:
        if isinstance(row.get("output"), list) and rng.random() < 0.2:
            row["output"].insert(rng.randint(0, len(row["output"])), {"answer": text(rng)})
    return rows


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


def _run(function: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return function(*args, **kwargs)
    except Exception as e:
        return e


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    downstream, retrieval = official_modules(official)
    case = random_case(rng)
    before = json.dumps(case, sort_keys=True)
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        gold_path = _write(Path(tmp), "gold.jsonl", case["gold"])
        guess_path = _write(Path(tmp), "guess.jsonl", case["guess"])
        theirs = _run(downstream.evaluate, gold_path, guess_path)
        ours = _run(scoring.downstream_scores, case["gold"], case["guess"])
        _one(outcome, "downstream", case["refuse"]["downstream"], theirs, ours)
        ks, keys = case["ks"], case["rank_keys"]
        # Retrieval reads only the guess output with provenance: others may come with it.
        retrieval_guess = with_answer_outputs(rng, case["guess"])
        guess_path = _write(Path(tmp), "guess.jsonl", retrieval_guess)
        theirs = _run(retrieval.evaluate, gold_path, guess_path, ks, keys)
        ours = _run(scoring.retrieval_scores, case["gold"], retrieval_guess, ks=ks, rank_keys=keys)
        _one(outcome, f"retrieval ks={ks} keys={keys}", case["refuse"]["retrieval"], theirs, ours)
    if json.dumps(case, sort_keys=True) != before:
        outcome.differences.append("taskeval changed its inputs")
    return outcome


def main(argv: list[str] | None = None) -> int:
    code = run("kilt:core", check, argv)
    print(json.dumps({"scorer_runs": stats}), file=sys.stderr)
    return code
