"""Float sums in an order this code defines, so that every printed digit is the same on every
machine.

A float sum's last bits depend on the order of its additions. A matrix product leaves that order
to the BLAS kernel numpy picks for the CPU (and to its thread count), and numpy's own reductions
to numpy's version and its CPU dispatch. Wherever rounding can change a number ``compare`` or
``--ci`` prints, sums are therefore made here, from element-wise operations whose order is
written out:

- ``in_drawn_order``: the sum of each resample's values, added one by one from 0.0 in the order
  the resample lists its units, as the official scorer adds its rows (a cumulative sum adds each
  value to the sum of those before it, and nothing else).
- ``Columns``: such sums for several float columns at once, two by two (below).
- ``is_counted``: integer values whose sums stay below 2**53 add up exactly in any order; such
  columns (counts, 0/1 flags) may take any fast path: ``Counts`` sums several at once in
  integer words, and a matrix product would do too.
- ``mean``: the mean of the resampled values, in the pairwise order that ``numpy.mean`` used
  for a contiguous float64 array when the first intervals were published (blocks of eight
  accumulators, halves split at multiples of eight), written out so that no numpy release can
  move it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

_EXACT = 2.0**53  # every integer up to here is a float64, and so is every sum of them
_BLOCK = 128  # the pairwise order's largest block summed by eight accumulators


def is_counted(column: np.ndarray, units: int) -> bool:
    """Whether ``column``'s values are integers whose sums over any ``units`` draws are exact
    floats (then every order of adding them gives the same bits)."""
    if not column.size:
        return True
    largest = float(np.max(np.abs(column)))
    if largest * units >= _EXACT:  # too large (a NaN fails the test below)
        return False
    return bool(np.all(np.floor(column) == column))


def in_drawn_order(values: np.ndarray) -> np.ndarray:
    """Row ``b``'s sum ``((0.0 + values[b, 0]) + values[b, 1]) + ...``, for every row of a
    (rows, units) float64 (or complex128) array, which it overwrites with the running sums."""
    rows, units = values.shape
    if units == 0:
        return np.zeros(rows, dtype=values.dtype)
    np.cumsum(values, axis=1, out=values)
    return values[:, -1] + 0.0  # 0.0 + x: the official sum starts at 0 (and -0.0 is 0.0)


class Columns:
    """Float columns (one row of ``values`` per column, one value per unit) summed in a resample's
    order. Two columns travel as the two parts of one complex number: complex addition adds the
    real parts together and the imaginary parts together, the very float additions of each
    column alone, so one gather and one running sum serve both (twice as fast)."""

    def __init__(self, values: np.ndarray) -> None:
        self.width, units = values.shape
        self.pairs = []
        for j in range(0, self.width, 2):
            pair = np.zeros(units, dtype=np.complex128)  # set part by part: no float operation
            pair.real = values[j]
            if j + 1 < self.width:
                pair.imag = values[j + 1]
            self.pairs.append(pair)

    def drawn(self, drawn: np.ndarray) -> np.ndarray:
        """(rows, width) sums of each row of unit indices ``drawn``, added in that order."""
        return self._split([in_drawn_order(pair.take(drawn)) for pair in self.pairs], len(drawn))

    def _split(self, sums: list[np.ndarray], rows: int) -> np.ndarray:
        out = np.empty((rows, self.width))
        for j, total in zip(range(0, self.width, 2), sums):
            out[:, j] = total.real
            if j + 1 < self.width:
                out[:, j + 1] = total.imag
        return out


class Counts:
    """Integer columns (one row of ``values`` per column, one value per unit, each column
    ``is_counted``) summed over draws of ``units`` units, several columns in one 64-bit integer:
    each column, less its smallest value, gets a field of bits as wide as its largest sum, so
    the fields of a sum never carry into one another. Integer sums are exact in any order."""

    def __init__(self, values: np.ndarray, units: int) -> None:
        self.width = len(values)
        self.units = units
        self.lowest = values.min(axis=1) if values.size else np.zeros(self.width)
        self.words: list[np.ndarray] = []
        self.fields: list[tuple[int, int, int, int]] = []  # column, word, first bit, mask
        shifted = (values - self.lowest[:, None]).astype(np.int64)
        bits = 63  # a new word at once
        for column, row in enumerate(shifted):
            width = (int(row.max(initial=0)) * max(units, 1)).bit_length()
            if bits + width > 62:
                self.words.append(np.zeros(values.shape[1], dtype=np.int64))
                bits = 0
            self.words[-1] += row << bits
            self.fields.append((column, len(self.words) - 1, bits, (1 << width) - 1))
            bits += width

    def drawn(self, drawn: np.ndarray) -> np.ndarray:
        """(rows, width) sums of each row of unit indices ``drawn`` (``units`` of them)."""
        totals = [word[drawn].sum(axis=1) for word in self.words]
        out = np.empty((len(drawn), self.width))
        for column, word, first, mask in self.fields:
            out[:, column] = (totals[word] >> first) & mask
        out += self.lowest * drawn.shape[1]
        return out


def mean(values: Sequence[float] | np.ndarray) -> float:
    """The mean of the floats ``values``: their pairwise sum (``_pairwise``) divided by their
    number."""
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    if not items:
        return float("nan")
    return (0.0 + _pairwise(items, 0, len(items))) / len(items)


def _pairwise(items: list[float], start: int, n: int) -> float:
    """The sum of ``items[start:start + n]``: fewer than 8 one by one; up to 128 by eight
    running sums (one for each position modulo 8), joined as ((0+1)+(2+3))+((4+5)+(6+7)), the
    rest added one by one; more split in two at a multiple of 8 near the middle."""
    if n < 8:
        total = -0.0
        for value in items[start : start + n]:
            total += value
        return total
    if n <= _BLOCK:
        lanes = items[start : start + 8]
        whole = n - n % 8
        for i in range(start + 8, start + whole, 8):
            for lane in range(8):
                lanes[lane] += items[i + lane]
        total = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + (
            (lanes[4] + lanes[5]) + (lanes[6] + lanes[7])
        )
        for value in items[start + whole : start + n]:
            total += value
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(items, start, half) + _pairwise(items, start + half, n - half)
