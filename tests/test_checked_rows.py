"""What CheckedRows adds to evaluate.Metric (metrics/_shared/checked_metric.py), on fixed answers.

fever_score stands for every metric (they all use the same mixin). label_accuracy is the share
of claims marked right, so every expected value is known by counting.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

import taskeval

REPO = Path(__file__).resolve().parents[1]
GOLD = {"label": "SUPPORTS", "evidence": [[[None, None, "page", 0]]]}
RIGHT = {"predicted_label": "SUPPORTS", "predicted_evidence": [["page", 0]]}
WRONG = {"predicted_label": "REFUTES", "predicted_evidence": [["page", 0]]}


def _rows(outcomes: str) -> dict:
    return {
        "predictions": [RIGHT if c == "1" else WRONG for c in outcomes],
        "references": [GOLD] * len(outcomes),
    }


@pytest.fixture(scope="module")
def metric():
    return taskeval.load("fever_score")


def test_compute_with_all_rows_scores_them(metric):
    assert metric.compute(**_rows("1101"))["label_accuracy"] == 0.75


def test_compute_with_all_rows_goes_straight_to_the_core(monkeypatch):
    """Whole inputs in one call skip evaluate's Arrow round trip (and so its _compute)."""
    metric = taskeval.load("fever_score")

    def not_expected(*args, **kwargs):
        raise AssertionError("evaluate's path was taken")

    monkeypatch.setattr(metric, "_compute", not_expected)
    assert metric.compute(**_rows("1100"))["label_accuracy"] == 0.5


def test_compute_after_add_batch_scores_every_row_added(metric):
    """compute(predictions=..., references=...) after add_batch adds them to the earlier rows
    (evaluate's semantics): the direct path must not skip the rows already written."""
    metric.add_batch(**_rows("0000"))
    assert metric.compute(**_rows("1111"))["label_accuracy"] == 0.5
    # and after add()
    metric.add(prediction=WRONG, reference=GOLD)
    assert metric.compute(**_rows("111"))["label_accuracy"] == 0.75
    # nothing left over for the next computation
    assert metric.compute(**_rows("1"))["label_accuracy"] == 1.0


def test_add_batch_and_add_score_like_compute(metric):
    metric.add_batch(**_rows("110"))
    metric.add(prediction=RIGHT, reference=GOLD)
    assert metric.compute()["label_accuracy"] == 0.75


def test_rows_are_given_by_keyword(metric):
    with pytest.raises(TypeError):
        metric.add(RIGHT, GOLD)
    with pytest.raises(TypeError):
        metric.add_batch([RIGHT], [GOLD])
    with pytest.raises(TypeError):
        metric.compute([RIGHT], [GOLD])


def test_rows_are_checked_before_encoding(metric):
    """A malformed row gets the metric's own message naming it, not datasets' coercion."""
    bad = dict(RIGHT, predicted_evidence=[["page", "0"]])  # a str line would be coerced
    good = _rows("11")
    with pytest.raises(ValueError, match=r"predictions\[1\]"):
        metric.add_batch(predictions=[RIGHT, bad], references=good["references"])
    with pytest.raises(ValueError, match=r"predictions\[0\]"):
        metric.add(prediction=bad, reference=GOLD)
    with pytest.raises(ValueError, match=r"predictions\[1\]"):
        metric.compute(predictions=[RIGHT, bad], references=good["references"])
    bad_gold = {"label": "SUPPORTS", "evidence": [[[None, None, "page", "0"]]]}
    with pytest.raises(ValueError, match=r"references\[0\]"):
        metric.add(prediction=RIGHT, reference=bad_gold)
    with pytest.raises(ValueError, match=r"references\[1\]"):
        metric.add_batch(predictions=good["predictions"], references=[GOLD, bad_gold])
    # nothing was added by the failed calls
    assert metric.compute(**_rows("10"))["label_accuracy"] == 0.5


@pytest.mark.parametrize(
    ("call", "given", "message"),
    [
        ("compute", {"predictions": [RIGHT]}, "references is missing"),
        ("compute", {"references": [GOLD]}, "predictions is missing"),
        ("add_batch", {"predictions": [RIGHT]}, "references is missing"),
        ("add_batch", {"references": [GOLD]}, "predictions is missing"),
        ("add_batch", {}, "predictions and references are missing"),
        ("add", {"prediction": RIGHT}, "reference is missing"),
        ("add", {"reference": GOLD}, "prediction is missing"),
        ("add", {}, "prediction and reference are missing"),
    ],
)
def test_one_sided_calls_are_refused(metric, call, given, message):
    """A call with one side only is refused with a message naming the side that is missing,
    and adds nothing."""
    both = "prediction and reference" if call == "add" else "predictions and references"
    with pytest.raises(ValueError) as refused:
        getattr(metric, call)(**given)
    assert str(refused.value) == f"{call}() needs both {both}; {message} (None)"
    assert metric.compute(**_rows("01"))["label_accuracy"] == 0.5


def test_compute_with_nothing_added_is_refused():
    metric = taskeval.load("fever_score")
    with pytest.raises(ValueError) as refused:
        metric.compute()
    assert str(refused.value) == (
        "compute() needs predictions and references, or rows added first with add() or add_batch()"
    )


def test_errors_number_rows_over_everything_added():
    """From a new metric, row numbers count every row added since the last compute(): one per
    add(), one per row of add_batch()."""
    bad = dict(RIGHT, predicted_evidence=[["page", "0"]])
    metric = taskeval.load("fever_score")
    with pytest.raises(ValueError, match=r"^predictions\[1\]"):
        metric.add_batch(predictions=[RIGHT, bad], references=[GOLD, GOLD])
    with pytest.raises(ValueError, match=r"^predictions\[0\]"):
        metric.add(prediction=bad, reference=GOLD)
    metric.add(prediction=RIGHT, reference=GOLD)
    metric.add(prediction=RIGHT, reference=GOLD)
    with pytest.raises(ValueError, match=r"^predictions\[3\]"):
        metric.add_batch(predictions=[RIGHT, bad], references=[GOLD, GOLD])
    metric.add_batch(**_rows("00"))
    with pytest.raises(ValueError, match=r"^predictions\[4\]"):
        metric.add(prediction=bad, reference=GOLD)
    assert metric.compute()["label_accuracy"] == 0.5
    with pytest.raises(ValueError, match=r"^predictions\[0\]"):
        metric.add(prediction=bad, reference=GOLD)


WORKER = textwrap.dedent(
    """
    import json, sys
    import taskeval
    spec = json.loads(sys.argv[1])
    rank = int(sys.argv[2])
    metric = taskeval.load(
        "fever_score", num_process=2, process_id=rank, experiment_id=spec["experiment_id"],
        cache_dir=spec["cache_dir"], timeout=60,
    )
    print(json.dumps(metric.compute(**spec["inputs"][rank])))
    """
)


def test_compute_with_rows_on_two_processes(tmp_path):
    """num_process=2, each rank calling compute(predictions=..., references=...) with its own
    rows: rank 0 gets the score of all rows, rank 1 gets None (as with add_batch)."""
    spec = {
        "experiment_id": uuid.uuid4().hex,
        "cache_dir": str(tmp_path / "cache"),
        "inputs": [_rows("1110"), _rows("00")],
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, json.dumps(spec), str(rank)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        for rank in (0, 1)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    for p, (_, err) in zip(procs, outputs):
        assert p.returncode == 0, err
    assert json.loads(outputs[1][0]) is None
    assert json.loads(outputs[0][0])["label_accuracy"] == 0.5


def test_compute_with_nothing_on_a_rank_other_than_0_is_evaluate_s(tmp_path):
    """In a distributed run, only rank 0 gets the scores; another rank's compute() returns None
    as evaluate's does, even with no rows given to it."""
    metric = taskeval.load(
        "fever_score",
        num_process=2,
        process_id=1,
        experiment_id=uuid.uuid4().hex,
        cache_dir=str(tmp_path),
        timeout=5,
    )
    assert metric.compute() is None
