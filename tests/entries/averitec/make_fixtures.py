"""Build ``data/tokens.json`` and ``data/meteor.json``: nltk's own ``word_tokenize`` of
edge-case texts, and the official ``pairwise_meteor`` of pairs of them, per nltk release.

    python tests/entries/averitec/make_fixtures.py PYTHON_391 PYTHON_3104

Each PYTHON has that nltk release and its data (``NLTK_DATA``: punkt_tab and WordNet). The
texts are the edge cases below and random texts of ``random_records.text``, written for this
project; ``pairwise_meteor`` is the official scorers' one-line function, spelt out below.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
EDGES = [
    "'²nd thing", "x 'été' y", "'été z", "rock 'n' roll", "'tis 'twas", "Don't 'em",
    "''quoted''", "a‒b a–b a—b a―b a--b a-b", "He said “Stop.” Then left.",
    "He said ‘Stop.’ Then left.", "He said «Stop.» Then left.", "end.\x1c", "a\x1fb c",
    "cafe\u0301 x\u00b2 \u00b2nd", "Dr. Smith went to Washington. He won.", "", " ", "...",
    "No answer could be found.", "It's 'Fracking' — not 'drilling'.", "U.S. e.g. vs. etc.",
    "1,000 3.5 $5 50% #tag @user", "He said \"Stop.\" Then left.", "'Cause I said so.",
]  # fmt: skip


# (candidate, reference): the three stages of the alignment, chunks, repeats, no token
PAIRS = [
    ("The car is fast.", "The automobile is fast."),
    ("He was running home", "He ran home"),
    ("the the the cat", "the cat the"),
    ("a b c d", "d c b a"),
    ("", "something"),
    ("something", ""),
    ("...", "..."),
    ("No answer could be found.", "No answer could be found."),
    ("Who bought the large house?", "Who purchased the big house?"),
    ("the cat sat on the mat", "on the mat the cat sat"),
    ("votes voted voting", "vote"),
    ("'tis true", "it is true"),
    ("cost—about 20 km", "cost about 20 km"),
]


def main(pythons: dict[str, str]) -> None:
    sys.path.insert(0, str(HERE))
    from random_records import text

    rng = random.Random(2023)
    texts = list(dict.fromkeys(EDGES + [text(rng, 1, 16) for _ in range(400)]))
    script = (
        "import json, sys; from nltk import word_tokenize; "
        "texts = json.load(sys.stdin); print(json.dumps([word_tokenize(t) for t in texts]))"
    )
    pairs = [list(p) for p in PAIRS]
    for _ in range(600):
        a, b = rng.choice(texts), rng.choice(texts)
        if rng.random() < 0.4:  # a pair with words in common
            words = a.split()
            rng.shuffle(words)
            b = " ".join(words[: max(1, len(words) - rng.randrange(3))]) + " " + b[:20]
        pairs.append([a, b])
    meteor = (
        "import json, sys; from nltk import word_tokenize; "
        "from nltk.translate.meteor_score import single_meteor_score; "
        "pairs = json.load(sys.stdin); "
        "print(json.dumps([single_meteor_score(word_tokenize(r), word_tokenize(c)) "
        "for c, r in pairs]))"
    )
    scores = {}
    for release, python in pythons.items():
        done = subprocess.run(
            [python, "-c", meteor],
            input=json.dumps(pairs),
            capture_output=True,
            text=True,
            check=True,
        )
        scores[release] = json.loads(done.stdout)
    (HERE / "data" / "meteor.json").write_text(
        json.dumps({"pairs": pairs, **scores}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    tokens = {}
    for release, python in pythons.items():
        done = subprocess.run(
            [python, "-c", script],
            input=json.dumps(texts),
            capture_output=True,
            text=True,
            check=True,
        )
        tokens[release] = json.loads(done.stdout)
    table = {t: {r: tokens[r][k] for r in pythons} for k, t in enumerate(texts)}
    (HERE / "data" / "tokens.json").write_text(
        json.dumps(table, ensure_ascii=False, indent=0) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main({"3.9.1": sys.argv[1], "3.10.4": sys.argv[2]})
