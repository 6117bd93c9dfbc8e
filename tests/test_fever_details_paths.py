"""FEVER's per-claim details follow ``max_evidence`` on every path: rows given to ``compute()``
at once, or added first with ``add_batch`` (the Arrow path)."""

from __future__ import annotations

import pytest

import taskeval

GOLD = {"label": "SUPPORTS", "evidence": [[[None, None, "A", 1]], [[None, None, "B", 2]]]}
PRED = {"predicted_label": "SUPPORTS", "predicted_evidence": [["C", 0], ["A", 1], ["B", 2]]}
# Official numbers (fever-scorer 2.0.39): the first sentence alone matches no gold group; the
# first two hold the whole group A 1.
EXPECTED = {
    1: (0.0, 0.0, 0.0, "right label, but no complete gold evidence group in the first 1 sentences"),
    2: (1.0, 0.5, 1.0, None),
}


@pytest.mark.parametrize("max_evidence", [1, 2])
@pytest.mark.parametrize("path", ["compute", "add_batch", "add"])
def test_details_follow_max_evidence_on_every_path(path, max_evidence):
    metric = taskeval.load("fever_score")
    if path == "compute":
        result = metric.compute(
            predictions=[PRED], references=[GOLD], details=True, max_evidence=max_evidence
        )
    else:
        if path == "add_batch":
            metric.add_batch(predictions=[PRED], references=[GOLD])
        else:
            metric.add(prediction=PRED, reference=GOLD)
        result = metric.compute(details=True, max_evidence=max_evidence)
    strict, precision, recall, why = EXPECTED[max_evidence]
    (claim,) = result["details"]
    assert result["strict_score"] == claim["strict"] == strict
    assert (claim["evidence_precision"], claim["evidence_recall"]) == (precision, recall)
    assert (result["evidence_precision"], result["evidence_recall"]) == (precision, recall)
    if why is not None:
        assert claim["why"] == why
