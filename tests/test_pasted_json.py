"""Pasted rows that Python's json refuses for its own limits (the digits of an int, the depth of
nesting) get one plain line naming the side and the line of the paste."""

from __future__ import annotations

import pytest

from taskeval.space_worker import parse_rows

DIGITS = "7" * 10_001  # one past Python's default bound (4,300), as a pasted id may be
DEEP = "[" * 100_000 + "]" * 100_000
TOO_MANY = "an integer of more than 4,300 digits, more than Python's json (and so the official scorer) reads"


@pytest.mark.parametrize(
    "text,message",
    [
        ('{"id": ' + DIGITS + "}", f"predictions, line 1: {TOO_MANY}"),
        ('{"id": 1}\n{"id": ' + DIGITS + "}", f"predictions, line 2: {TOO_MANY}"),
        ('[\n  {"id": 1},\n  {"id": ' + DIGITS + "}\n]", f"predictions, line 3: {TOO_MANY}"),
        (DEEP, "predictions: JSON nested too deeply to be read"),
        (
            '{"id": 1}\n{"id": ' + DEEP + "}",
            "predictions, line 2: JSON nested too deeply to be read",
        ),
    ],
)
def test_python_s_own_json_limits_are_named_in_one_plain_line(text, message):
    with pytest.raises(ValueError) as refused:
        parse_rows(text, "predictions")
    assert str(refused.value) == message
    assert refused.value.__cause__ is None and refused.value.__suppress_context__
