"""nltk's ``word_tokenize`` as a given nltk release splits text, whichever release is installed.

The official scorers compare ``word_tokenize(text)`` tokens, and the tokens depend on the nltk
release: 3.10 split words where 3.9 did not. The differences, all in the rules' regular
expressions, and nothing else of the two tokenizers (their code is otherwise the same):

* a dash rule: 3.10 makes the figure dash, en dash, em dash and horizontal bar (U+2012-U+2015)
  tokens of their own (``there—including`` is three tokens; in 3.9, one);
* the leading-apostrophe rule: 3.9 splits an apostrophe off a one-letter word only
  (``'s`` stays, ``'t is`` from ``'tis``); 3.10 off any word it starts that is not a clitic
  (``'Fracking`` gives ``'`` and ``Fracking``, ``'tis`` gives ``'`` and ``tis``);
* punkt's sentence splitting (``word_tokenize`` splits sentences first): 3.10 counts the curly
  quotes and guillemets ‘ ’ “ ” « » as closing punctuation, so ``He said “Stop.” Then`` ends a
  sentence after the quote and ``Stop`` and ``.`` part;
* the engine: 3.10 runs every rule with the ``regex`` module, whose ``\\w``, ``\\s`` and ``\\b``
  follow Unicode's properties (combining marks are word characters, superscript digits and the
  separators U+001C-U+001F are not), where 3.9 runs Python's ``re``.

So each release's tokenizer is nltk's own, given that release's rules compiled with that
release's engine: the rules are taken from the installed nltk and the differing ones swapped.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

import regex
from nltk.tokenize.destructive import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktLanguageVars, PunktSentenceTokenizer, PunktToken

from .plain_values import shown
from .scoring import RELEASES
from .wordnet_data import punkt_parameters

_APOSTROPHE = {
    "3.9.1": (r"(?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b", r"\1 \2"),
    "3.10.4": (r"(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)", r"\1 "),
}
_DASHES = (r"[\u2012-\u2015]", r" \g<0> ")
_SYMBOLS = r"[;@#$%&]"  # the rule 3.10 puts the dash rule after
_FINAL_PERIOD = {  # 3.10 made the quantifier possessive; the spans it matches are the same
    "3.9.1": r'([^\.])(\.)([\]\)}>"\'' "»”’ " r"]*)\s*$",
    "3.10.4": r'([^\.])(\.)([\]\)}>"\'' "»”’ " r"]*+)\s*$",
}


def _engine(release: str):
    return re if release == "3.9.1" else regex


def _compile(release: str, pattern: str, flags: int = 0):
    # Only these flags are set on nltk's rules; Unicode classes are the default for str patterns.
    kept = flags & (re.IGNORECASE | re.MULTILINE | re.VERBOSE)
    return _engine(release).compile(pattern, kept)


def _source(pattern) -> tuple[str, int]:
    return pattern.pattern, int(pattern.flags)


def _rules(release: str, installed: list) -> list:
    """``installed`` (one list of (pattern, replacement) of the installed nltk) as ``release``
    has it."""
    rules = []
    for pattern, replacement in installed:
        source, flags = _source(pattern)
        if source in (p for p, _ in _APOSTROPHE.values()):
            source, replacement = _APOSTROPHE[release]
        elif source in _FINAL_PERIOD.values():
            source = _FINAL_PERIOD[release]
        elif source == _DASHES[0]:
            continue  # placed after the symbols rule below, for the release that has it
        rules.append((_compile(release, source, flags), replacement))
        if source == _SYMBOLS and release != "3.9.1":
            rules.append((_compile(release, _DASHES[0]), _DASHES[1]))
    return rules


class _WordTokenizer(NLTKWordTokenizer):
    """nltk's Treebank-style tokenizer with one release's rules (its ``tokenize`` reads them
    from the instance)."""

    def __init__(self, release: str):
        base = NLTKWordTokenizer
        self.STARTING_QUOTES = _rules(release, base.STARTING_QUOTES)
        self.PUNCTUATION = _rules(release, base.PUNCTUATION)
        self.ENDING_QUOTES = _rules(release, base.ENDING_QUOTES)
        (self.PARENS_BRACKETS,) = _rules(release, [base.PARENS_BRACKETS])
        (self.DOUBLE_DASHES,) = _rules(release, [base.DOUBLE_DASHES])
        self.CONTRACTIONS2 = [_compile(release, *_source(p)) for p in base.CONTRACTIONS2]
        self.CONTRACTIONS3 = [_compile(release, *_source(p)) for p in base.CONTRACTIONS3]


_CLOSING = {"3.9.1": "", "3.10.4": "\u2018\u2019\u201c\u201d\xab\xbb"}


def _language_vars(release: str) -> PunktLanguageVars:
    closing = _CLOSING[release]

    class LanguageVars(PunktLanguageVars):
        re_boundary_realignment = _compile(
            release, r'["\')\]}' + closing + r"]+?(?:\s+|(?=--)|$)", re.MULTILINE
        )

        @property
        def _re_non_word_chars(self):
            ends = "".join(sorted(set(self.sent_end_chars) - {"."}))
            return r"(?:[)\";}\]\*:@\'\({\[" + closing + re.escape(ends) + "])"

        def _word_tokenizer_re(self):
            if getattr(self, "_compiled_words", None) is None:
                self._compiled_words = _compile(
                    release,
                    self._word_tokenize_fmt
                    % {
                        "NonWord": self._re_non_word_chars,
                        "MultiChar": self._re_multi_char_punct,
                        "WordStart": self._re_word_start,
                    },
                    re.VERBOSE,
                )
            return self._compiled_words

        def period_context_re(self):
            if getattr(self, "_compiled_context", None) is None:
                self._compiled_context = _compile(
                    release,
                    self._period_context_fmt
                    % {
                        "NonWord": self._re_non_word_chars,
                        "SentEndChars": self._re_sent_end_chars,
                    },
                    re.VERBOSE,
                )
            return self._compiled_context

    return LanguageVars()


def _token_class(release: str) -> type:
    non_punct = _compile(release, r"[^\W\d]")

    class Token(PunktToken):
        _RE_ELLIPSIS = _compile(release, r"\.\.+$")
        _RE_NUMERIC = _compile(release, r"^-?[\.,]?\d[\d,\.-]*\.?$")
        _RE_INITIAL = _compile(release, r"[^\W\d]\.$")
        _RE_ALPHA = _compile(release, r"[^\W\d]+$")

        @property
        def is_non_punct(self):
            return non_punct.search(self.type)

    return Token


class Tokenizer:
    """``word_tokenize`` (English, sentences first) as nltk ``release`` gives it."""

    def __init__(self, release: str):
        if release not in RELEASES:
            raise ValueError(f"nltk must be one of {', '.join(RELEASES)}, got {shown(release)}")
        self.release = release
        self._words = _WordTokenizer(release)
        self._sentences = PunktSentenceTokenizer(
            lang_vars=_language_vars(release), token_cls=_token_class(release)
        )
        self._sentences._params = punkt_parameters()

    def __call__(self, text: str) -> list[str]:
        words = self._words.tokenize
        return [token for sentence in self._sentences.tokenize(text) for token in words(sentence)]


@cache
def tokenizer(release: str) -> Tokenizer:
    return Tokenizer(release)
