"""The GoldP numbers of many resamples at once, in numpy (``ManyResamples`` in ``contract.py``).

A resample lists each language's questions in the order drawn. The official script sums a
language's exact-match flags (a count: exact in any order) and its F1 values (floats, added one
by one in that order) and prints each sum as a percentage of the language's questions; the
conventions then take plain means of those percentages over languages. Here a language's F1
values are added along each resample one after the other (``taskeval.ordered.in_drawn_order``;
``np.sum`` would add pairwise, to other last bits), and the percentages and means
are made with the very operations of ``scoring.language_scores`` and with ``scoring.average``
itself, on arrays: every number equals, with ``==``, the official one of its resample.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from taskeval.ordered import in_drawn_order

from .conventions import XTREME_ORDER
from .scoring import AVERAGED, average


class LanguageSums:
    """``stratum`` of the contract's ``ManyResamples``: one language's EM and F1 percentages
    for many resamples. The parts become arrays once per comparison (the same lists come with
    every chunk of resamples)."""

    def __init__(self) -> None:
        # Each entry holds its lists, so their ids stay theirs while it is kept.
        self._arrays: dict[tuple[int, int], tuple[Sequence, Sequence, Any, Any]] = {}

    def _as_arrays(self, parts: tuple[Sequence, Sequence]) -> tuple[np.ndarray, np.ndarray]:
        ems, f1s = parts
        kept = self._arrays.get((id(ems), id(f1s)))
        if kept is None:
            # EM values are flags (bools, or ints 0 and 1): a byte each, counted in 64 bits. F1
            # values are ints (0) or floats: exact as float64.
            kept = (ems, f1s, np.array(ems, dtype=np.int8), np.array(f1s, dtype=np.float64))
            self._arrays[(id(ems), id(f1s))] = kept
        return kept[2], kept[3]

    def __call__(self, language: str, parts: tuple[Sequence, Sequence], picks: np.ndarray) -> tuple:
        total = picks.shape[1]
        if total == 0:  # no question: the language has no numbers, and no mean counts it
            return ()
        ems, f1s = self._as_arrays(parts)
        exact = ems[picks].sum(axis=1, dtype=np.int64)  # a count
        f1 = in_drawn_order(f1s[picks])  # left to right, as the script adds them
        return 100.0 * exact / total, 100.0 * f1 / total


def official(values: Mapping[str, tuple]) -> dict[str, np.ndarray]:
    """``combine`` for the official convention: the means over the non-English languages."""
    averaged = [values[language] for language in AVERAGED if values.get(language)]
    return {
        "exact_match": average([em for em, _ in averaged]),
        "f1": average([f1 for _, f1 in averaged]),
    }


def xtreme(values: Mapping[str, tuple]) -> dict[str, np.ndarray]:
    """``combine`` for XTREME's convention: the means over every language present, in
    XTREME's order, and their mean."""
    present = [values[language] for language in XTREME_ORDER if values.get(language)]
    exact_match = average([em for em, _ in present])
    f1 = average([f1 for _, f1 in present])
    return {"avg_exact_match": exact_match, "avg_f1": f1, "avg_metric": (exact_match + f1) / 2}


COMBINE = {"official": official, "xtreme": xtreme}
