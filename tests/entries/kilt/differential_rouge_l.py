"""kilt, ROUGE-L: ``rouge_l.rouge_l`` (and ``answers.rouge_l_f``, KILT's wrapper) against PyPI
``rouge`` 1.0.1 (``Rouge().get_scores(guess, gold, avg=True)["rouge-l"]["f"]``, as KILT calls it)
on random text pairs.

The texts are biased to the edges: empty, whitespace only (Unicode spaces too), dots alone and
runs of dots, a dot between spaces (a sentence of spaces is the word ``""``), repeated words,
case and Unicode variants, numbers, many sentences, a pair sharing words in another order (where
rouge's choice among equally long LCS paths decides the words counted), and long texts. rouge
1.0.1 traces its LCS path recursively; the reference runs under a raised recursion limit so that
long sentences score. Each value is compared with ``==`` and its type; where rouge raises
``ValueError``, ``rouge_l`` must raise it too.

rouge 1.0.1 must be importable (installed outside this repository).

    python scripts/differential/run.py kilt:rouge_l --official DIR --cases 20000
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from common import Outcome, run

from taskeval._metrics.kilt import answers, rouge_l

stats = dict.fromkeys(("pairs", "refused", "identical", "long"), 0)
WORDS = (
    "the", "The", "cat", "cat", "sat", "on", "mat", "a", "1", "2.5", "Ω", "naïve", "x.y", "U.S.",
    "!", "?", ",", "it's", "New", "York", "ß", "SS", "é", "é", "\u00a0", "(b)", "--", "a",
)  # fmt: skip
SEPARATORS = (" ", " ", " ", "  ", "\t", "\n", ". ", ".", " . ", "..", " .. ", "\u2003", "\r\n")


def _rouge() -> Any:
    from rouge import Rouge

    return Rouge()


def official(prediction: str, gold: str) -> float | Exception:
    try:
        return _rouge().get_scores(prediction, gold, avg=True)["rouge-l"]["f"]
    except ValueError as e:
        return e


def text(rng: random.Random, vocabulary: list[str]) -> str:
    roll = rng.random()
    if roll < 0.06:
        return rng.choice(["", " ", ".", "...", " . ", "\t", "\u00a0", ". .", "a.", ".a", "\n."])
    size = rng.choice((1, 1, 2, 3, 4, 6, 9, 15, 30)) if roll < 0.995 else rng.randint(300, 700)
    if size > 100:
        stats["long"] += 1
    words = [rng.choice(vocabulary) for _ in range(size)]
    out = words[0]
    separators = SEPARATORS if size < 100 else (" ", " ", " ", "  ")
    for word in words[1:]:
        out += rng.choice(separators) + word
    if rng.random() < 0.15:
        out = rng.choice([" ", ".", "\n", " ."]) + out + rng.choice(["", " ", ".", ". ", "..."])
    return out


def shuffled(rng: random.Random, value: str) -> str:
    words = value.split(" ")
    rng.shuffle(words)
    return " ".join(words)


def pair(rng: random.Random) -> tuple[str, str]:
    vocabulary = rng.sample(WORDS, rng.choice((2, 3, 5, 8, len(WORDS))))
    gold = text(rng, vocabulary)
    roll = rng.random()
    if roll < 0.1:
        stats["identical"] += 1
        return gold, gold
    if roll < 0.25:
        return shuffled(rng, gold), gold
    if roll < 0.35:
        return gold + rng.choice([".", " ", ". x", " ."]), gold
    return text(rng, vocabulary), gold


def check(rng: random.Random, official_folder: Path, with_cli: bool) -> Outcome:
    outcome = Outcome()
    for _ in range(5):
        prediction, gold = pair(rng)
        stats["pairs"] += 1
        expected = official(prediction, gold)
        where = f"rouge_l({prediction[:40]!r}, {gold[:40]!r})"
        try:
            got: Any = rouge_l.rouge_l(prediction, gold)
        except ValueError as e:
            got = e
        wrapped = answers.rouge_l_f(prediction, gold)
        outcome.values += 2
        if isinstance(expected, Exception):
            stats["refused"] += 1
            if not isinstance(got, ValueError):
                outcome.differences.append(f"{where}: rouge raised, taskeval gave {got!r}")
            if wrapped != 0.0 or type(wrapped) is not float:
                outcome.differences.append(f"{where}: rouge_l_f gave {wrapped!r}, not 0.0")
            continue
        for name, value in (("rouge_l", got), ("rouge_l_f", wrapped)):
            if value != expected or type(value) is not type(expected):
                outcome.differences.append(
                    f"{where}: {name}: rouge {expected!r}, taskeval {value!r}"
                )
    return outcome


def main(argv: list[str] | None = None) -> int:
    sys.setrecursionlimit(20000)  # rouge recurses once per step of the LCS path
    code = run("kilt:rouge_l", check, argv)
    print({"pairs": stats}, file=sys.stderr)
    return code
