"""``taskeval check averitec``: each problem of a 2025 CSV submission or a 2024 JSON one, as the
official scorer would meet it (the Space's check panel, in the harness, covers a JSON list
with ``--inputs``)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import taskeval

PAIR, QA = "\t\t\n\n", "\t\t\n"


def _csv(path: Path, header: str, rows: list[list]) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header.split(","))
        writer.writerows(rows)
    return path


def _problems(predictions: Path, **files) -> list[tuple]:
    report = taskeval.check("averitec", predictions, **files)
    return [(p.level, p.id, p.field, p.message) for p in report.problems]


def test_a_2025_submission(tmp_path: Path) -> None:
    eleven = PAIR.join(f"q{k}{QA}a{k}" for k in range(11))
    submission = _csv(
        tmp_path / "submission.csv",
        "id,claim,evi,label",
        [
            [1, "c", "q" + QA + "a", "Supported"],
            [2, "c", "a question only", "Refuted"],
            [3, "c", eleven, "Refuted"],
            [1, "c", "q" + QA + "a", "Supported"],
            [4, "c", "q" + QA + "a", "Mostly true"],
        ],
    )
    problems = _problems(submission)
    assert [(level, id_, field) for level, id_, field, _ in problems] == [
        ("error", "2", "'evi'"),
        ("warning", "3", "'evidence'"),
        ("error", "1", "'id'"),
        ("warning", "4", "'label'"),
    ]
    assert "0 question-answer separators" in problems[0][3]
    assert "only the first 10 are scored" in problems[1][3]
    assert "repeats the id of row 1" in problems[2][3]
    assert "not one of the four verdicts" in problems[3][3]


def test_a_2025_submission_against_its_inputs_and_gold(tmp_path: Path) -> None:
    submission = _csv(
        tmp_path / "s.csv", "id,claim,evi,label", [[1, "c", "q" + QA + "a", "Refuted"]]
    )
    inputs = _csv(tmp_path / "test.csv", "id,claim", [[1, "c"], [2, "c"]])
    problems = _problems(submission, inputs=[inputs])
    assert [p[0] for p in problems] == ["error"]
    assert "1 of its 2 claims have no prediction (ids 2)" in problems[0][3]
    gold = _csv(
        tmp_path / "gold.csv",
        "id,claim,evi,label,split",
        [[1, "c", "q" + QA + "a", "Refuted", "gold"]],
    )
    assert _problems(submission, references=gold) == []


def test_a_2024_submission(tmp_path: Path) -> None:
    predictions = [
        {"claim_id": 0, "pred_label": "Supported", "evidence": [{"question": "Q", "answer": "A"}]},
        {"claim_id": 1, "pred_label": "Refuted", "evidence": []},
        {"claim_id": 5, "pred_label": "Refuted", "evidence": [{"question": "Q", "answer": "A"}]},
    ]
    path = tmp_path / "predictions.json"
    path.write_text(json.dumps(predictions), encoding="utf-8")
    problems = _problems(path)
    assert [(level, field) for level, _, field, _ in problems] == [
        ("warning", "'evidence'"),
        ("error", "'claim_id'"),
    ]
    assert "no evidence" in problems[0][3] and "scored against claim 2" in problems[1][3]
    gold = [{"label": "Refuted", "questions": []}] * 2 + [
        {"label": "Refuted", "questions": [{"question": "Q", "answers": []}]}
    ]
    (tmp_path / "dev.json").write_text(json.dumps(gold), encoding="utf-8")
    fixed = [dict(p, claim_id=k) for k, p in enumerate(predictions)]
    path.write_text(json.dumps(fixed), encoding="utf-8")
    problems = _problems(path, references=tmp_path / "dev.json")
    assert problems[-1][:3] == ("error", None, "'questions'")
    assert problems[-1][3].startswith("is empty: the scores divide by the number of gold")
