"""ROUGE-L as PyPI rouge 1.0.1 computes it: every expected value below is what
``Rouge().get_scores(prediction, gold, avg=True)["rouge-l"]["f"]`` returned (or the
``ValueError`` it raised), run outside this repository."""

from __future__ import annotations

import pytest

from taskeval._metrics.kilt import answers, rouge_l

ROUGE_1_0_1 = {
    # Identical texts: the epsilon of F.
    ("Paris", "Paris"): 0.999999995,
    # A sentence of spaces is the word "": two of them match.
    (" ", " "): 0.999999995,
    (" ", "a"): 0.0,
    # Sentences are cut at each ".", and their pieces joined: word order across them is free.
    ("a . b", "a b"): 0.999999995,
    ("a.b.c", "a b c"): 0.999999995,
    ("x y. y x", "x y"): 0.999999995,
    ("2.5 apples", "2 5 apples"): 0.999999995,
    # ". ." leaves a sentence of one space: the word "" counts in n.
    ("a. .b", "a b"): 0.7999999952000001,
    # No case folding, no normalisation; Unicode whitespace splits words.
    ("The cat", "the cat"): 0.4999999950000001,
    ("u.s. army", "U.S. army"): 0.3333333283333334,
    ("naïve café", "naive cafe"): 0.0,
    ("a\u00a0b", "a b"): 0.999999995,
    ("a\tb\nc", "a b c"): 0.999999995,
    # Words are counted once each.
    ("cat cat cat", "cat"): 0.999999995,
    ("cat", "cat cat cat"): 0.999999995,
    # The LCS path: on a tie the step goes to the earlier candidate word, so "b a" against
    # "a b" keeps "b", and the second sentence's "b" adds nothing.
    ("b a. b", "a b"): 0.4999999950000001,
    ("b a. a", "a b"): 0.999999995,
    ("a b", "b a. a"): 0.4999999950000001,
    ("x b a. a", "a b x"): 0.6666666616666668,
    ("a b c", "c b a"): 0.3333333283333334,
    ("b a c a", "a b a c"): 0.999999995,
    ("one two three four five", "one three five seven"): 0.6666666617283951,
    # Pairs where the LCS table's values or the path's steps decide the words counted.
    ("? .. ?  The..The The ,", "The\n?\n?\r\n?"): 0.7999999952000001,
    ("naïve\r\né. é\r\n\xa0\n(b) ß", "é\r\n\xa0\n(b) naïve\r\né. ß"): 0.999999995,
    ("a (b)\nNew (b) a a .. (b) . New (b)", "New .. a. a\r\na"): 0.7999999952000001,
    (
        "a\r\n\xa0. \xa0 a..York . a  York..a York\ta\na\tYork..a . \xa0 \xa0.",
        "a\r\n\xa0. \xa0 a..York . a  York..a York\ta\na\tYork..a . \xa0 \xa0",
    ): 0.999999995,
    ("the quick brown fox. jumps over the lazy dog", "the lazy dog. the quick fox jumps"): (
        0.8571428522448981
    ),
}

REFUSED = {
    ("", "a"): "Hypothesis is empty.",
    ("...", "a"): "Hypothesis is empty.",
    ("a", ""): "Reference is empty.",
    ("a", "."): "Reference is empty.",
}


@pytest.mark.parametrize(("prediction", "gold"), list(ROUGE_1_0_1))
def test_rouge_l_is_rouge_1_0_1(prediction: str, gold: str) -> None:
    value = rouge_l.rouge_l(prediction, gold)
    assert type(value) is float and value == ROUGE_1_0_1[prediction, gold]
    assert answers.rouge_l_f(prediction, gold) == value


@pytest.mark.parametrize(("prediction", "gold"), list(REFUSED))
def test_a_text_without_sentences_is_refused_as_rouge_refuses_it(
    prediction: str, gold: str
) -> None:
    with pytest.raises(ValueError, match=REFUSED[prediction, gold]):
        rouge_l.rouge_l(prediction, gold)
    value = answers.rouge_l_f(prediction, gold)  # KILT catches it: 0.0
    assert type(value) is float and value == 0.0


def test_long_sentences_score_where_rouge_would_exceed_the_recursion_limit() -> None:
    # rouge 1.0.1 raises RecursionError on this pair at Python's default limit; under a higher
    # limit it gives this value.
    first = " ".join(f"w{i % 37}" for i in range(600))
    second = " ".join(f"w{(i * 7) % 41}" for i in range(650))
    assert rouge_l.rouge_l(first, second) == 0.9487179437310981


def test_sentences() -> None:
    assert rouge_l.sentences(" a  b. .c..") == ["a b", "", "c"]
    assert rouge_l.sentences("...") == []
