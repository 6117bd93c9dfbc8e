"""The official pairwise METEOR (``single_meteor_score(word_tokenize(gold),
word_tokenize(predicted))``): the values nltk 3.9.1 and 3.10.4 gave on ``data/meteor.json``'s
pairs (``make_fixtures.py``, outside this repository), and the installed nltk's own
``single_meteor_score`` on random token lists."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from nltk.translate.meteor_score import single_meteor_score

from taskeval._metrics.averitec import meteor, tokens

DATA = json.loads((Path(__file__).parent / "data" / "meteor.json").read_text(encoding="utf-8"))
TEXTS = list(
    json.loads((Path(__file__).parent / "data" / "tokens.json").read_text(encoding="utf-8"))
)


@pytest.mark.parametrize("release", tokens.RELEASES)
def test_the_official_values(release: str) -> None:
    metric = meteor.PairwiseMeteor(release)
    wrong = [
        (pair, metric(*pair), expected)
        for pair, expected in zip(DATA["pairs"], DATA[release])
        if metric(*pair) != expected
    ]
    assert not wrong


def test_nltks_own_meteor_on_random_tokens() -> None:
    """The alignment (exact, stem, WordNet synonym; the last free reference word first) and
    the formula, against nltk's implementation with the same WordNet."""
    rng = random.Random(5)
    tokenize = tokens.tokenizer("3.9.1")
    words = [w for text in TEXTS for w in tokenize(text)]
    words += ["car", "automobile", "auto", "running", "ran", "run", "buy", "purchase", "big"]
    wordnet = meteor._wordnet()
    for _ in range(3000):
        hypothesis = [rng.choice(words) for _ in range(rng.randint(0, 12))]
        reference = [rng.choice(words) for _ in range(rng.randint(0, 12))]
        if rng.random() < 0.5:
            reference += rng.sample(hypothesis, len(hypothesis) // 2)
        expected = single_meteor_score(reference, hypothesis, wordnet=wordnet)
        assert meteor.meteor(hypothesis, reference) == expected, (hypothesis, reference)


def test_the_stages() -> None:
    # A synonym counts as a match...
    assert meteor.meteor(["The", "car"], ["the", "auto"]) == meteor.meteor(
        ["the", "car"], ["the", "car"]
    )
    # ...but the synonyms of the hypothesis word's stem are looked for among the reference's
    # stems: "automobile" is stemmed to "automobil", which no synonym of "car" is.
    assert "automobile" in meteor.synonyms("car")
    assert meteor.meteor(["the", "car"], ["the", "automobile"]) == 0.25
    assert meteor.meteor([], ["a"]) == 0.0
    assert meteor.meteor(["a"], []) == 0.0
    assert meteor.meteor(["x"], ["y"]) == 0.0
    assert meteor.chunks([(0, 0), (1, 1), (2, 5), (3, 6)]) == 2
    assert meteor.chunks([]) == 1
    # Each hypothesis word, the last first, takes the last free reference word.
    exact, rest_h, rest_r = meteor._exact(["a", "a", "b"], ["a", "b", "a"])
    assert sorted(exact) == [(0, 0), (1, 2), (2, 1)] and rest_h == [] and rest_r == []
