"""The Space's check panel on a crafted AVeriTeC submission."""

from __future__ import annotations

import json

from harness import SpaceCheck


def craft(upload):
    def claim(k):
        return {
            "claim": f"claim {k}",
            "label": "Supported",
            "questions": [{"question": "Who?", "answers": [{"answer": "Ann."}]}],
        }

    inputs = upload("test.json", json.dumps([claim(k) for k in range(3)]))  # one JSON list
    predictions = upload(
        "my_run.json",
        json.dumps(
            [
                {
                    "claim_id": 0,
                    "pred_label": "Supported",
                    "evidence": [{"question": "Who?", "answer": 5}],
                },
                {
                    "claim_id": 2,
                    "pred_label": "Refuted",
                    "evidence": [{"question": "Who?", "answer": "Ann"}],
                },
            ]
        ),
    )
    return predictions, [inputs], None


SPACE_CHECK = SpaceCheck(
    craft,
    "averitec my_run.json: 3 errors, 0 warnings in 2 predictions: the scorer would fail on it or "
    "score it other than meant",
    [
        "my_run.json: error: id 0, field 'evidence[0].answer': must be a string, got 5",
        "my_run.json: error: id 2, field 'claim_id': claim 1 has claim_id 2: the scorer pairs "
        "predictions with the gold by position, so it is scored against claim 1",
        "test.json: error: holds 3 claims and the predictions 2: the scorer pairs them by "
        "position and scores only the first 2",
    ],
)
