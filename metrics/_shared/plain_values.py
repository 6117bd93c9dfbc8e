"""Numbers as models produce them: numpy scalars, 0-d torch tensors and 1-d arrays.

Wherever a row field holds an int or a float, a model's post-processing often leaves a numpy
scalar (``np.int64``, ``np.float32``) or a 0-d torch tensor (``logits.argmax()``), and a 1-d
array where a list of ints belongs. These helpers turn such values into the plain Python values
they stand for, so that they are checked and scored exactly as plain values are: a bool is never
an int, a string never a number, and an int must fit the signed 64-bit range (what the metric's
features store). Neither numpy nor torch is imported: their values are recognised by the module
of their type and converted with ``.item()`` / ``.tolist()``, which give plain Python values.

Each metric folder links this file (``plain_values.py``), so a folder still loads on its own.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any


INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
INT64 = range(INT64_MIN, INT64_MAX + 1)  # ``x in INT64`` is one C-level comparison pair for ints
_ARRAY_MODULES = ("numpy", "torch")
SHOWN_CHARS = 200  # the most characters of a value a message quotes


def shown(value: Any, most: int = SHOWN_CHARS) -> str:
    """``repr(value)`` as a message quotes it: cut after ``most`` characters, with a mark that
    says how many more there were, so that a message about a value of megabytes stays short
    (and cheap to pass on, log and show)."""
    try:
        text = repr(value)
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply to show"
    if len(text) <= most:
        return text
    return f"{text[:most]}… ({len(text) - most:,} more characters)"


def _is_array(value: Any, ndim: int) -> bool:
    """A numpy scalar or array, or a torch tensor, with ``ndim`` dimensions."""
    module = type(value).__module__ or ""
    return module.partition(".")[0] in _ARRAY_MODULES and getattr(value, "ndim", None) == ndim


def plain(value: Any) -> Any:
    """A numpy scalar or 0-d array/tensor as the plain Python value ``.item()`` gives (an int, a
    float, a bool, a str...); anything else unchanged."""
    if _is_array(value, 0):
        return value.item()
    return value


def as_int(value: Any) -> int | None:
    """``value`` as a plain int when it is an integer (a Python int but not a bool, a numpy
    integer, a 0-d integer array or tensor), else None. The int may be outside int64."""
    if type(value) is int:
        return value
    if isinstance(value, int):
        return None if isinstance(value, bool) else int(value)
    value = plain(value)
    return value if type(value) is int else None


def as_number(value: Any) -> int | float | None:
    """``value`` as a plain int or float when it is a real number (not a bool), else None."""
    if type(value) is float or type(value) is int:
        return value
    if isinstance(value, float):  # np.float64 is a float subclass
        return float(value)
    if isinstance(value, int):
        return None if isinstance(value, bool) else int(value)
    value = plain(value)
    return value if type(value) is float or type(value) is int else None


def as_list(value: Any) -> list | tuple | None:
    """A list or tuple as it is; a 1-d numpy array or torch tensor as a new list of plain
    values (``.tolist()``); anything else None."""
    if isinstance(value, (list, tuple)):
        return value
    if _is_array(value, 1):
        return value.tolist()
    return None


def int_problem(value: Any) -> str | None:
    """Why ``value`` is not an int64 (a short phrase for an error message), or None if it is."""
    number = as_int(value)
    if number is None:
        return f"expected an int, got {shown(value)}"
    if number not in INT64:
        return f"expected a signed 64-bit int (-2**63 to 2**63-1), got {shown(number)}"
    return None


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while many small objects are made and none refer to
    each other (rows checked, parsed, stored, read back): with big inputs alive, its repeated
    passes over them cost several times the work itself. Every metric's readers use this one."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
