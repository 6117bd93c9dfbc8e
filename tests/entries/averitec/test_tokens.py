"""Tokens as each nltk release's own ``word_tokenize`` gives them (``data/tokens.json``, made by
``make_fixtures.py`` with nltk 3.9.1 and 3.10.4 outside this repository), whichever nltk is
installed: half of the texts are tokenised differently by the two releases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskeval._metrics.averitec import tokens

TABLE = json.loads((Path(__file__).parent / "data" / "tokens.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("release", tokens.RELEASES)
def test_the_tokens_of_each_release(release: str) -> None:
    tokenize = tokens.tokenizer(release)
    wrong = {
        text: tokenize(text)
        for text, expected in TABLE.items()
        if tokenize(text) != expected[release]
    }
    assert not wrong


def test_the_releases_differ_where_nltk_changed() -> None:
    # The dash rule, the leading apostrophe, punkt's curly quotes.
    differ = {t for t, v in TABLE.items() if v["3.9.1"] != v["3.10.4"]}
    assert {"a‒b a–b a—b a―b a--b a-b", "'tis 'twas", "He said “Stop.” Then left."} <= differ
    assert len(differ) > 150
    assert tokens.tokenizer("3.9.1")("there—including") == ["there—including"]
    assert tokens.tokenizer("3.10.4")("there—including") == ["there", "—", "including"]


def test_an_unknown_release_is_refused() -> None:
    with pytest.raises(ValueError, match=r"nltk must be one of 3\.9\.1, 3\.10\.4"):
        tokens.Tokenizer("3.8.1")
