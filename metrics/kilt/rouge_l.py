"""ROUGE-L F as PyPI ``rouge`` 1.0.1 computes it for ``Rouge().get_scores(guess, gold)``.

KILT scores ROUGE-L with that package, whose ROUGE-L is its own reading of Lin's summary-level
ROUGE-L, not the ROUGE-1.5.5 Perl script's nor Google's ``rouge-score``'s. What it does:

* **Sentences and words.** A text is cut into sentences at each ASCII ``.``; empty pieces are
  dropped and each other piece has its whitespace runs (``str.split()``) made single spaces, so
  a piece of spaces alone becomes the sentence ``""``, whose one word is ``""``. A text with no
  sentence (``""``, ``"..."``) is refused with ``ValueError``. Words are the sentence split at
  ``" "``. Nothing is lower-cased or normalised.
* **Counts are of distinct words.** ``m`` and ``n``, the reference's and the candidate's word
  counts, count each distinct word once; so does the overlap.
* **The overlap** is the number of distinct words found on the LCS path of some (reference
  sentence, candidate sentence) pair, one path per pair, traced back from the end of the dynamic
  programming table: a match is taken when the two words are equal, else the step goes up (to an
  earlier reference word) only when that cell is strictly greater than the one to its left.
* **F** is ``2.0 * ((p * r) / (p + r + 1e-8))`` with ``r = overlap / m`` and ``p = overlap /
  n``, so identical texts score ``0.999999995``.

rouge 1.0.1 traces the path recursively, so a pair of sentences a thousand words long or so
exceeds Python's default recursion limit and crashes it (``RecursionError``, which KILT does not
catch); here the path is traced in a loop and the value is the one rouge gives under a higher
limit.
"""

from __future__ import annotations


def sentences(text: str) -> list[str]:
    """The text's sentences as rouge 1.0.1 cuts them (possibly ``""``)."""
    return [" ".join(piece.split()) for piece in text.split(".") if piece]


def _lcs_words(reference: list[str], candidate: list[str]) -> set[str]:
    """The distinct words on rouge 1.0.1's LCS path between two word lists."""
    width = len(candidate) + 1
    table = [[0] * width]
    for word in reference:
        above = table[-1]
        row = [0] * width
        for j in range(1, width):
            if word == candidate[j - 1]:
                row[j] = above[j - 1] + 1
            else:
                left = row[j - 1]
                up = above[j]
                row[j] = up if up > left else left
        table.append(row)
    found: set[str] = set()
    i, j = len(reference), len(candidate)
    while i and j:
        if reference[i - 1] == candidate[j - 1]:
            found.add(reference[i - 1])
            i -= 1
            j -= 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return found


def rouge_l(candidate: str, reference: str) -> float:
    """rouge 1.0.1's ROUGE-L ``f`` of ``candidate`` against ``reference``.

    Raises ``ValueError``, with rouge's message, where rouge does: a text with no sentence
    (empty, or dots alone)."""
    candidate_sentences = sentences(candidate)
    reference_sentences = sentences(reference)
    if not candidate_sentences:
        raise ValueError("Hypothesis is empty.")
    if not reference_sentences:
        raise ValueError("Reference is empty.")
    candidate_words = [s.split(" ") for s in candidate_sentences]
    reference_words = [s.split(" ") for s in reference_sentences]
    m = len({word for words in reference_words for word in words})
    n = len({word for words in candidate_words for word in words})
    union: set[str] = set()
    for ref in reference_words:
        for cand in candidate_words:
            union |= _lcs_words(ref, cand)
    overlap = len(union)
    r_lcs = overlap / m
    p_lcs = overlap / n
    return 2.0 * ((p_lcs * r_lcs) / (p_lcs + r_lcs + 1e-8))
