"""Random KILT records biased to the edges, shared by the differential check, the parity cases
and the harness's random rows.

Ids matched by ``str(id).strip()`` (``7``, ``"7"``, ``" 7 "``), guesses out of order and for
other ids, blank answers, answers that normalise to nothing ("the", "..."), article, case,
punctuation and Unicode variants, texts of dots (rouge refuses them), gold outputs without
provenance or with an empty one, repeated and shared evidence sets, page ids as ints and padded
strings, guessed pages repeated, provenance texts holding an answer, several rank keys whose
"+"-joined ids collide, ks in any order.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

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


def random_case(
    rng: random.Random, spoil: Callable[[random.Random, dict], None] | None = None
) -> dict[str, Any]:
    """Gold and guess records, ks and rank keys; with ``spoil``, about one case in six is
    handed to it to be made invalid (it marks which evaluations must refuse it)."""
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
    if spoil is not None and rng.random() < 0.18:
        spoil(rng, case)
    return case


def with_answer_outputs(rng: random.Random, guess: list) -> list:
    """The guesses, some with an answer-only output added before or after the scored one."""
    rows = json.loads(json.dumps(guess))
    for row in rows:
        if isinstance(row.get("output"), list) and rng.random() < 0.2:
            row["output"].insert(rng.randint(0, len(row["output"])), {"answer": text(rng)})
    return rows


def random_inputs(rng: random.Random, n: int) -> dict[str, list]:
    """``compute()`` inputs of ``n`` gold records and their guesses, in gold order, valid for
    every evaluation and commit: one guess per gold record, each with an answer and provenance;
    a gold answer in every gold record."""
    gold: list = []
    guess: list = []
    while len(gold) < n:
        case = random_case(rng)
        by_id = {as_written(g["id"]): g for g in case["guess"]}
        for record in case["gold"]:
            if len(gold) == n:
                break
            mine = by_id[as_written(record["id"])]
            output = mine["output"][0]
            has_gold = any(o.get("answer", "").strip() for o in record["output"])
            # Every gold record has an answer: a blank guess answer changed by a test into
            # another text stays scorable.
            if "provenance" not in output or not has_gold:
                continue
            key = f"{as_written(record['id'])}-{len(gold)}"  # distinct across the drawn cases
            gold.append({**record, "id": rng.choice([key, f" {key}", f"{key} "])})
            guess.append({**mine, "id": key})
    # In gold order: the harness splits both sides at one place across processes.
    return {"predictions": guess, "references": gold}
