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
- ``is_counted``: integer values whose sums stay below 2**53 add up exactly in any order; such
  columns (counts, 0/1 flags) may take any fast path, a matrix product included.
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
    if largest != largest or largest * max(units, 1) >= _EXACT:  # a NaN, or too large
        return False
    return bool(np.all(np.floor(column) == column))


def in_drawn_order(values: np.ndarray) -> np.ndarray:
    """Row ``b``'s sum ``((0.0 + values[b, 0]) + values[b, 1]) + ...``, for every row of a
    (rows, units) float64 array, which it overwrites with the running sums."""
    rows, units = values.shape
    if units == 0:
        return np.zeros(rows)
    np.cumsum(values, axis=1, out=values)
    return values[:, -1] + 0.0  # 0.0 + x: the official sum starts at 0 (and -0.0 is 0.0)


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
