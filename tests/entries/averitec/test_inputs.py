"""The official files as the scorers read them: the 2024 JSON lists by position, the 2025 CSVs
by the gold split's ids sorted as numbers, and every refusal at its place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskeval._metrics.averitec import inputs

PAIR, QA = "\t\t\n\n", "\t\t\n"


def _csv(path: Path, header: str, rows: list[list]) -> Path:
    import csv

    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header.split(","))
        writer.writerows(rows)
    return path


def _evi(*pairs: tuple[str, str]) -> str:
    return PAIR.join(q + QA + a for q, a in pairs)


def test_2025_ids_sorted_as_numbers_and_the_gold_split_only(tmp_path: Path) -> None:
    solution = _csv(
        tmp_path / "solution.csv",
        "id,claim,evi,label,split",
        [
            [10, "c10", _evi(("Q10?", "A10")), "Refuted", "gold"],
            [9, "c9", _evi(("Q9?", "A9"), ("Q9?", "B9")), "Supported", "gold"],
            [11, "c11", _evi(("Q11?", "A11")), "Refuted", "test"],
        ],
    )
    submission = _csv(
        tmp_path / "submission.csv",
        "id,claim,evi,label",
        [
            [11, "c11", _evi(("x", "y")), "Refuted"],
            [10, "c10", _evi(("P10?", "B10")) + PAIR, "Refuted"],
            [9, "c9", _evi(("P9?", "C9")), "Supported"],
        ],
    )
    rows = inputs.read_official(solution, submission)
    assert [r["id"] for r in rows["references"]] == ["9", "10"]  # 9 before 10: numbers
    assert [r["id"] for r in rows["predictions"]] == ["9", "10"]
    assert rows["references"][0]["questions"] == [
        {"question": "Q9?", "answers": [{"answer": "A9"}]},
        {"question": "Q9?", "answers": [{"answer": "B9"}]},
    ]
    # An empty piece (a trailing separator) is skipped.
    assert rows["predictions"][1]["evidence"] == [{"question": "P10?", "answer": "B10"}]


@pytest.mark.parametrize(
    ("evi", "fragments"),
    [
        ("", ("field 'evi' is empty", "NaN", "crashes")),
        ("only a question", ("0 question-answer separators", "crashes")),
        ("q" + QA + "a" + QA + "b", ("2 question-answer separators",)),
    ],
)
def test_2025_evi_the_scorer_crashes_on(tmp_path: Path, evi: str, fragments) -> None:
    solution = _csv(
        tmp_path / "s.csv",
        "id,claim,evi,label,split",
        [[1, "c", _evi(("Q", "A")), "Refuted", "gold"]],
    )
    submission = _csv(tmp_path / "p.csv", "id,claim,evi,label", [[1, "c", evi, "Refuted"]])
    with pytest.raises(ValueError) as refused:
        inputs.read_official(solution, submission)
    assert str(refused.value).startswith("predictions[0] (id '1'): ")
    for fragment in fragments:
        assert fragment in str(refused.value)


def test_2025_a_missing_or_repeated_id_is_refused(tmp_path: Path) -> None:
    solution = _csv(
        tmp_path / "s.csv",
        "id,claim,evi,label,split",
        [
            [1, "c", _evi(("Q", "A")), "Refuted", "gold"],
            [2, "c", _evi(("Q", "A")), "Refuted", "gold"],
        ],
    )
    missing = _csv(
        tmp_path / "p.csv", "id,claim,evi,label", [[2, "c", _evi(("Q", "A")), "Refuted"]]
    )
    with pytest.raises(
        ValueError, match=r"no prediction for 1 gold ids \(the first: '1'\): the official"
    ):
        inputs.read_official(solution, missing)
    twice = _csv(
        tmp_path / "q.csv",
        "id,claim,evi,label",
        [
            [1, "c", _evi(("Q", "A")), "Refuted"],
            [2, "c", _evi(("Q", "A")), "Refuted"],
            [2, "c", _evi(("Q", "A")), "Refuted"],
        ],
    )
    with pytest.raises(ValueError, match="id '2' is on two rows"):
        inputs.read_official(solution, twice)
    no_column = _csv(tmp_path / "r.csv", "id,claim,label", [[1, "c", "Refuted"]])
    with pytest.raises(ValueError, match="the CSV has no column 'evi'"):
        inputs.read_official(solution, no_column)


def test_2024_json_by_position(tmp_path: Path) -> None:
    gold = [{"claim": "c", "label": "Refuted", "claim_types": ["A"], "justification": "J",
             "questions": [{"question": "Q?", "answers": {"answer": "A", "answer_type": "Extractive"}}]}]  # fmt: skip
    predictions = [
        {"claim_id": 0, "pred_label": "Refuted", "evidence": [{"question": "Q?", "answer": "A"}]}
    ]
    (tmp_path / "dev.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "p.json").write_text(json.dumps(predictions), encoding="utf-8")
    rows = inputs.read_official(tmp_path / "dev.json", tmp_path / "p.json")
    assert rows["predictions"] == [
        {"id": None, "label": "Refuted", "evidence": [{"question": "Q?", "answer": "A"}]}
    ]
    assert rows["references"][0]["id"] == "0" and rows["references"][0]["justification"] == "J"
    # The 2023 paper's files name the verdict "label".
    (tmp_path / "p23.json").write_text(json.dumps([{"label": "Supported", "questions": []}]))
    assert (
        inputs.read_official(tmp_path / "dev.json", tmp_path / "p23.json")["predictions"][0][
            "label"
        ]
        == "Supported"
    )
    (tmp_path / "two.json").write_text(json.dumps(predictions * 2), encoding="utf-8")
    with pytest.raises(ValueError, match="scores only the first 1"):
        inputs.read_official(tmp_path / "dev.json", tmp_path / "two.json")
    _csv(
        tmp_path / "s.csv",
        "id,claim,evi,label,split",
        [[0, "c", "Q" + QA + "A", "Refuted", "gold"]],
    )
    with pytest.raises(ValueError, match="not of one format"):
        inputs.read_official(tmp_path / "s.csv", tmp_path / "p.json")
    (tmp_path / "broken.json").write_text("[{", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json: not a JSON file"):
        inputs.read_official(tmp_path / "dev.json", tmp_path / "broken.json")
