"""A message quotes a value cut to a bounded length with a visible mark (``shown``, in
metrics/_shared/plain_values.py), so that a refused value of megabytes gives a short message
on every path: compute(), the readers, the Space."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics._shared.plain_values import SHOWN_CHARS, shown

REPO = Path(__file__).resolve().parents[1]
LONG = "x" * 200_000
GOLD = {"label": "SUPPORTS", "evidence": [[[None, None, "p", 0]]]}


def test_shown_cuts_a_long_value_with_a_mark():
    assert shown("abc") == "'abc'"
    assert shown(LONG) == "'" + "x" * (SHOWN_CHARS - 1) + "… (199,802 more characters)"
    assert shown([1] * 10, most=6) == "[1, 1,… (24 more characters)"
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    assert shown(nested) == "a list nested too deeply to show"


def test_compute_quotes_a_long_value_cut():
    prediction = {"predicted_label": "SUPPORTS", "predicted_evidence": [[LONG, "a"]]}
    with pytest.raises(ValueError) as refused:
        taskeval.load("fever_score").compute(predictions=[prediction], references=[GOLD])
    message = str(refused.value)
    assert message.startswith("predictions[0]: field 'predicted_evidence'[0] must be ")
    assert message.endswith(" more characters)") and len(message) < 2 * SHOWN_CHARS + 200


def test_an_unknown_option_is_quoted_cut():
    with pytest.raises(ValueError) as refused:
        taskeval.load("fever_score").compute(
            predictions=[{"predicted_label": "SUPPORTS", "predicted_evidence": []}],
            references=[GOLD],
            **{LONG: 1},
        )
    assert str(refused.value).startswith("fever_score takes no option 'xxx")
    assert " more characters) (its options: " in str(refused.value)
    assert len(str(refused.value)) < 2 * SHOWN_CHARS + 100


def test_a_reader_quotes_a_long_value_cut(tmp_path):
    path = tmp_path / "predictions.jsonl"
    path.write_text(json.dumps(LONG) + "\n")  # a JSON string, not an object
    with pytest.raises(ValueError) as refused:
        taskeval.read_official("fever_score", predictions=str(path))
    assert len(str(refused.value)) < 2 * SHOWN_CHARS + 300
    assert str(refused.value).endswith(" more characters)")


# A value quoted in a message as {value!r}: uncut. The readers and row checks use shown().
_RAW_QUOTE = re.compile(r"\{[^{}\"]+!r[:}]|map\(repr,")


@pytest.mark.parametrize(
    "module",
    sorted(
        str(path.relative_to(REPO))
        for name in ("rows", "inputs", "gold_fields", "scoring", "plain_values", "checked_metric")
        for path in (REPO / "metrics").glob(f"*/{name}.py")
        if not path.is_symlink()
    ),
)
def test_every_row_message_quotes_values_with_shown(module):
    assert _RAW_QUOTE.findall((REPO / module).read_text(encoding="utf-8")) == []
