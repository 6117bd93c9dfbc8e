"""Float sums in the order numpy adds them, so that a mean the official scorer takes with
``np.mean`` (or an array's ``.sum()``) is reproduced bit for bit in plain Python.

numpy reduces a contiguous float64 array by its pairwise sum (``pairwise_sum`` in numpy's
``loops_utils.h.src``):

* fewer than 8 values: one after the other, from 0.0;
* 8 to 128 values: eight running sums, each over every eighth value, combined as
  ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the values past the last full
  block of eight added one by one;
* more than 128: split where the first half is the largest multiple of 8 not above half, each
  half summed so, and the two sums added.

Up to 8,192 values this is every numpy 2 release's order; beyond, numpy before 2.4 adds the
pairwise sums of 8,192-value chunks one after the other (its buffer size), and 2.4 on does not:
the last digit of a mean over more values depends on numpy's version (seen at 8,193 values).

Python's ``sum`` adds left to right (and from 3.12 on compensates the rounding), so its last
digits differ from numpy's on lists of eight values or more.
"""

from __future__ import annotations

from collections.abc import Sequence

_BLOCK = 128  # numpy's PW_BLOCKSIZE


def pairwise_sum(values: Sequence[float]) -> float:
    """numpy's ``pairwise_sum`` of ``values``."""
    n = len(values)
    if n < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    if n <= _BLOCK:
        r = list(values[:8])
        full = n - n % 8
        for start in range(8, full, 8):
            for j in range(8):
                r[j] += values[start + j]
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for value in values[full:]:
            total += value
        return total
    half = n // 2
    half -= half % 8
    return pairwise_sum(values[:half]) + pairwise_sum(values[half:])


def numpy_sum(values: Sequence[float]) -> float:
    """``np.asarray(values, dtype=float).sum()`` (0.0 for no value)."""
    return pairwise_sum(values)


def numpy_mean(values: Sequence[float]) -> float:
    """``np.mean(values)`` of a non-empty list of floats."""
    return numpy_sum(values) / len(values)


def column_mean(values: Sequence[float]) -> float:
    """One column's entry of ``np.mean(array, axis=0)`` of a C-ordered 2-D array: numpy adds
    the rows one after the other (the pairwise sum runs along the last axis only), from the
    first."""
    total = values[0]
    for value in values[1:]:
        total += value
    return total / len(values)
