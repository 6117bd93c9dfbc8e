"""The Space's check panel on a crafted KILT submission."""

from __future__ import annotations

from harness import SpaceCheck


def craft(upload):
    inputs = upload("test.jsonl", [{"id": i, "input": f"q{i}"} for i in (1, 2, 3)])
    predictions = upload(
        "my_run.jsonl",
        [
            {"id": 1, "output": [{"answer": "Paris", "provenance": [{"wikipedia_id": "1"}]}]},
            {"id": " 1", "output": [{"answer": "x", "provenance": [{"wikipedia_id": "1"}]}]},
            {"id": 2, "output": [{"answer": 5}]},
        ],
    )
    return predictions, [inputs], None


SPACE_CHECK = SpaceCheck(
    craft,
    "kilt my_run.jsonl: 3 errors, 0 warnings in 3 predictions: the scorer would fail on it or "
    "score it other than meant",
    [
        "my_run.jsonl:2: error: id ' 1', field 'id': is the id of another prediction (line 1; "
        "ids are matched by str(id).strip()): the official scorer stops on it",
        "my_run.jsonl:3: error: id 2, field 'output[0].answer': must be a string, got 5",
        "test.jsonl:3: error: id '3', field 'id': has no prediction (1 of 3 records have none): "
        "the official scorer stops on the first",
    ],
    example_warnings=1,
)
