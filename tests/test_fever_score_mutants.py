"""fever_score's scoring core on cases mutation testing found unchecked (fixed expected values,
the official scorer's output on the same rows)."""

from __future__ import annotations

from taskeval.registry import metric_module

core = metric_module("fever_score", "scoring")


def test_an_empty_gold_group_before_others_keeps_their_sentences():
    """Evidence groups after an empty one still count as gold sentences for precision.

    fever-scorer 2.0.39 gives (strict 1.0, accuracy 1.0, precision 0.5, recall 1.0, f1 2/3)."""
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["p", 0], ["q", 1]]}]
    references = [{"label": "SUPPORTS", "evidence": [[], [[None, None, "p", 0]]]}]
    expected = {
        "strict_score": 1.0,
        "label_accuracy": 1.0,
        "evidence_precision": 0.5,
        "evidence_recall": 1.0,
        "evidence_f1": 0.6666666666666666,
    }
    assert core.fever_score(predictions, references) == expected
    # the same rows through the checked path (a record-form sentence leaves the fast path)
    slow = [
        {"predicted_label": "SUPPORTS", "predicted_evidence": [{"page": "p", "line": 0}, ["q", 1]]}
    ]
    assert core.fever_score(slow, references) == expected
