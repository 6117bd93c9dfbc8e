"""The shared model-output helpers (metrics/_shared/plain_values.py) on fixed answers."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from taskeval.registry import metric_module

pv = metric_module("fever_score", "plain_values")


class MyInt(int):
    pass


class MyFloat(float):
    pass


def _from_module(module: str | None, ndim: int):
    """An object of a class defined in ``module``, with ``ndim`` and ``.item()``/``.tolist()``."""
    cls = type("Fake", (), {"ndim": ndim, "item": lambda self: 7, "tolist": lambda self: [7]})
    cls.__module__ = module
    return cls()


def _same(got, expected) -> bool:
    return type(got) is type(expected) and got == expected


def test_the_int64_range():
    assert (pv.INT64_MIN, pv.INT64_MAX) == (-(2**63), 2**63 - 1)
    assert pv.INT64_MIN in pv.INT64 and pv.INT64_MAX in pv.INT64
    assert pv.INT64_MIN - 1 not in pv.INT64 and pv.INT64_MAX + 1 not in pv.INT64


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (np.int64(3), 3),
        (np.float32(0.1), float(np.float32(0.1))),
        (np.array(5), 5),
        (np.bool_(True), True),
        (torch.tensor(2), 2),
        (torch.tensor(2.5), 2.5),
        (_from_module("numpy.fake", 0), 7),  # numpy's submodules are numpy's
        (_from_module("torch", 0), 7),
    ],
)
def test_plain_gives_the_python_value_of_a_0d_array_or_scalar(value, expected):
    assert _same(pv.plain(value), expected)


@pytest.mark.parametrize(
    "value",
    [
        3,
        "x",
        None,
        np.array([1]),
        torch.tensor([1]),
        _from_module("numpyish", 0),  # not numpy, though it starts so
        _from_module("mine", 0),
        _from_module(None, 0),  # a class without a module
        _from_module("numpy", 1),
    ],
)
def test_plain_leaves_anything_else_as_it_is(value):
    assert pv.plain(value) is value


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, 5),
        (2**70, 2**70),  # outside int64: still an int here (int_problem says why not)
        (MyInt(4), 4),
        (np.int64(7), 7),
        (np.uint8(255), 255),
        (np.array(6), 6),
        (torch.tensor(3), 3),
    ],
)
def test_as_int_of_integers(value, expected):
    assert _same(pv.as_int(value), expected)


@pytest.mark.parametrize(
    "value",
    [True, False, np.bool_(True), torch.tensor(True), 3.0, np.float64(3.0), torch.tensor(3.0),
     "3", None, [1], np.array([1])],
)  # fmt: skip
def test_as_int_of_anything_else_is_none(value):
    assert pv.as_int(value) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, 1),
        (1.5, 1.5),
        (MyInt(4), 4),
        (MyFloat(2.5), 2.5),
        (np.float64(0.1), 0.1),
        (np.float32(0.1), float(np.float32(0.1))),
        (np.int32(4), 4),
        (np.array(2.5), 2.5),
        (torch.tensor(1.5), 1.5),
        (torch.tensor(2), 2),
    ],
)
def test_as_number_of_real_numbers(value, expected):
    assert _same(pv.as_number(value), expected)


@pytest.mark.parametrize(
    "value",
    [True, np.bool_(False), torch.tensor(False), "1", None, 1j, np.complex128(1), [1.0],
     np.array([1.0]), np.str_("1")],
)  # fmt: skip
def test_as_number_of_anything_else_is_none(value):
    assert pv.as_number(value) is None


def test_as_list():
    items, pair = [1, "a"], (1, 2)
    assert pv.as_list(items) is items and pv.as_list(pair) is pair
    for array in (np.array([1, 2]), torch.tensor([1, 2]), np.array([1, 2], dtype=np.int32)):
        got = pv.as_list(array)
        assert type(got) is list and got == [1, 2] and all(type(x) is int for x in got)
    assert pv.as_list(_from_module("numpy", 1)) == [7]
    for other in (np.array([[1]]), np.array(1), torch.tensor(1), "ab", range(2), None, {1}):
        assert pv.as_list(other) is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (5, None),
        (np.int64(-5), None),
        (2**63 - 1, None),
        (-(2**63), None),
        (2**63, "expected a signed 64-bit int (-2**63 to 2**63-1), got 9223372036854775808"),
        (-(2**63) - 1,
         "expected a signed 64-bit int (-2**63 to 2**63-1), got -9223372036854775809"),
        (np.uint64(2**63), "expected a signed 64-bit int (-2**63 to 2**63-1), got 9223372036854775808"),
        ("x", "expected an int, got 'x'"),
        (True, "expected an int, got True"),
        (1.0, "expected an int, got 1.0"),
    ],
)  # fmt: skip
def test_int_problem(value, problem):
    assert pv.int_problem(value) == problem
