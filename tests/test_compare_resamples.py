"""Too few resamples for the interval or p-value asked for: a warning, in the API and the CLI
(at least 10 resamples in each tail of the interval: 400 at 0.95)."""

from __future__ import annotations

import json
import warnings

import pytest

from taskeval.cli import main
from taskeval.compare import compare_rows, min_resamples

GOLD = {"label": "SUPPORTS", "evidence": [[[None, None, "Page", 0]]]}
RIGHT = {"predicted_label": "SUPPORTS", "predicted_evidence": [["Page", 0]]}
WRONG = {"predicted_label": "REFUTES", "predicted_evidence": [["Page", 0]]}
SYSTEMS = [
    {"predictions": [RIGHT, WRONG] * 5, "references": [GOLD] * 10},
    {"predictions": [WRONG, RIGHT, RIGHT, RIGHT, WRONG] * 2, "references": [GOLD] * 10},
]


def test_the_threshold_leaves_ten_resamples_in_each_tail():
    assert (min_resamples(0.95), min_resamples(0.99), min_resamples(0.9)) == (400, 2000, 200)


@pytest.mark.parametrize(("resamples", "confidence"), [(10, 0.95), (399, 0.95), (1999, 0.99)])
def test_too_few_resamples_are_warned_of(resamples, confidence):
    with pytest.warns(UserWarning, match=f"{resamples} resamples are too few") as caught:
        compare_rows("fever_score", SYSTEMS, resamples=resamples, confidence=confidence)
    assert f"use at least {min_resamples(confidence)}" in str(caught[0].message)


@pytest.mark.parametrize(("resamples", "confidence"), [(400, 0.95), (2000, 0.99)])
def test_enough_resamples_pass_without_a_word(resamples, confidence):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compare_rows("fever_score", SYSTEMS, resamples=resamples, confidence=confidence)


def test_the_command_line_warns_on_stderr_and_still_answers(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"id": i, **GOLD}) + "\n" for i in range(10)))
    files = []
    for n, system in enumerate(SYSTEMS):
        path = tmp_path / f"system{n}.jsonl"
        path.write_text("".join(json.dumps(p) + "\n" for p in system["predictions"]))
        files.append(str(path))
    argv = ["compare", "fever_score", "--references", str(gold), "--predictions", *files]
    assert main([*argv, "--resamples", "10"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["resamples"] == 10
    assert "warning: 10 resamples are too few" in err and "use at least 400" in err, err
    assert main([*argv, "--resamples", "400"]) == 0
    assert capsys.readouterr().err == ""
