"""The Space's check panel on a crafted AVeriTeC submission."""

from __future__ import annotations

from harness import SpaceCheck


def craft(upload):
    def claim(k):
        return {
            "claim": f"claim {k}",
            "label": "Supported",
            "questions": [{"question": "Who?", "answers": [{"answer": "Ann."}]}],
        }

    inputs = upload("test.json", [claim(k) for k in range(3)])
    predictions = upload(
        "my_run.json",
        [
            {
                "claim_id": 0,
                "pred_label": "Supported",
                "evidence": [{"question": "Who?", "answer": 5}],
            },
            {
                "claim_id": 2,
                "pred_label": "True",
                "evidence": [{"question": "Who?", "answer": "Ann"}],
            },
        ],
    )
    return predictions, [inputs], None


SPACE_CHECK = SpaceCheck(
    craft,
    "averitec my_run.json: 3 errors, 1 warning in 2 predictions: the scorer would fail on it or "
    "score it other than meant",
    [],
)
