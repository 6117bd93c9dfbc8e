"""The official pairwise METEOR: nltk's ``single_meteor_score`` on ``word_tokenize`` tokens.

Every AVeriTeC scorer compares a predicted string with a gold one by::

    single_meteor_score(word_tokenize(gold), word_tokenize(predicted))

with nltk's defaults: words lowered, then aligned in three stages (the same word, the same
Porter stem, a WordNet synonym of the stem), then
``(1 - 0.5 * (chunks / matches) ** 3.0) * P * R / (0.9 * P + (1 - 0.9) * R)``, and 0.0 when
nothing matches (or either side has no token). It is computed here with nltk's tokenizer (see
``tokens``), stemmer and WordNet reader, but with the alignment and the formula written out,
so that each word is stemmed and looked up once, not once per pair.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from itertools import chain, pairwise

from nltk.corpus.reader.wordnet import WordNetCorpusReader
from nltk.stem.porter import PorterStemmer

from .tokens import tokenizer
from .wordnet_data import wordnet_folder

# nltk's defaults, as single_meteor_score spells them (1 - ALPHA is not 0.1 in floats).
ALPHA, BETA, GAMMA = 0.9, 3.0, 0.5


class _WordNet(WordNetCorpusReader):
    def map_wn(self, version="wordnet"):
        # nltk maps another WordNet onto the one called "wordnet" (for its multilingual data)
        # by loading that one from nltk_data; this is 3.0 itself, and synsets() never reads
        # the map.
        return None


@lru_cache(maxsize=1)
def _wordnet() -> WordNetCorpusReader:
    import warnings

    import nltk.data

    folder = str(wordnet_folder())
    if folder not in nltk.data.path:  # nltk 3.10 reads corpora only below its data paths
        nltk.data.path.append(folder)
    with warnings.catch_warnings():  # "multilingual functions are not available": not used
        warnings.simplefilter("ignore", UserWarning)
        return _WordNet(folder, None)


_STEMMER = PorterStemmer()


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """nltk's Porter stem of a lowered word."""
    return _STEMMER.stem(word)


@lru_cache(maxsize=1 << 16)
def synonyms(stemmed: str) -> frozenset[str]:
    """What METEOR's third stage takes for a synonym of a stem: the one-word lemma names of
    every WordNet synset of it, and the stem itself."""
    names = chain.from_iterable(
        (lemma.name() for lemma in synset.lemmas() if lemma.name().find("_") < 0)
        for synset in _wordnet().synsets(stemmed)
    )
    return frozenset(names) | {stemmed}


def _align(hyp: list[str], ref: list[str], same, left_h: list[int], left_r: list[int]):
    """One stage: each left hypothesis word, last first, takes the last left reference word
    ``same`` accepts. Returns the matches and what is left of both sides, in order."""
    matches = []
    free = list(left_r)
    rest_h = []
    for i in reversed(left_h):
        for k in range(len(free) - 1, -1, -1):
            if same(hyp[i], ref[free[k]]):
                matches.append((i, free.pop(k)))
                break
        else:
            rest_h.append(i)
    rest_h.reverse()
    return matches, rest_h, free


def _exact(hyp: list[str], ref: list[str]):
    """The first stage by a table of positions (the same result as ``_align``, sooner)."""
    positions = defaultdict(list)
    for j, word in enumerate(ref):
        positions[word].append(j)
    matches = []
    rest_h = []
    for i in range(len(hyp) - 1, -1, -1):
        free = positions.get(hyp[i])
        if free:
            matches.append((i, free.pop()))
        else:
            rest_h.append(i)
    rest_h.reverse()
    taken = {j for _, j in matches}
    return matches, rest_h, [j for j in range(len(ref)) if j not in taken]


def chunks(matches: list[tuple[int, int]]) -> int:
    """Runs of matches that are next to each other on both sides (matches in hypothesis
    order); 1 for none."""
    count = 1
    for (i, j), (k, m) in pairwise(matches):
        if not (k == i + 1 and m == j + 1):
            count += 1
    return count


def meteor(hypothesis: list[str], reference: list[str]) -> float:
    """``single_meteor_score(reference, hypothesis)`` of two token lists, nltk's defaults."""
    hyp = [word.lower() for word in hypothesis]
    ref = [word.lower() for word in reference]
    exact, left_h, left_r = _exact(hyp, ref)
    hyp_stems = {i: stem(hyp[i]) for i in left_h}
    ref_stems = {j: stem(ref[j]) for j in left_r}
    stems_h = [hyp_stems.get(i) for i in range(len(hyp))]
    stems_r = [ref_stems.get(j) for j in range(len(ref))]
    by_stem, left_h, left_r = _align(stems_h, stems_r, str.__eq__, left_h, left_r)
    by_synonym, _, _ = _align(stems_h, stems_r, lambda h, r: r in synonyms(h), left_h, left_r)
    matches = sorted(exact + by_stem + by_synonym)
    count = len(matches)
    try:
        precision = float(count) / len(hyp)
        recall = float(count) / len(ref)
        fmean = (precision * recall) / (ALPHA * precision + (1 - ALPHA) * recall)
        fragmentation = float(chunks(matches)) / count
    except ZeroDivisionError:
        return 0.0
    penalty = GAMMA * fragmentation**BETA
    return (1 - penalty) * fmean


class PairwiseMeteor:
    """``pairwise_meteor(candidate, reference)`` of the official scorers under one nltk
    release's tokens, remembering each text's tokens and each pair's score."""

    def __init__(self, release: str):
        self._tokenize = tokenizer(release)
        self._tokens: dict[str, list[str]] = {}
        self._scores: dict[tuple[str, str], float] = {}

    def tokens(self, text: str) -> list[str]:
        found = self._tokens.get(text)
        if found is None:
            found = self._tokens[text] = self._tokenize(text)
        return found

    def __call__(self, candidate: str, reference: str) -> float:
        key = (candidate, reference)
        score = self._scores.get(key)
        if score is None:
            score = self._scores[key] = meteor(self.tokens(candidate), self.tokens(reference))
        return score
