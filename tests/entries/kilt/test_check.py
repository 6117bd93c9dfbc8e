"""``taskeval check kilt``: each problem at its file and line, as the official scorer would meet
it (the Space's check panel, in the harness, covers ``--inputs``)."""

from __future__ import annotations

import json
from pathlib import Path

import taskeval

GOLD = [
    {
        "id": 1,
        "input": "q1",
        "output": [{"answer": "Paris", "provenance": [{"wikipedia_id": "1"}]}],
    },
    {
        "id": 2,
        "input": "q2",
        "output": [{"answer": "Rome"}, {"provenance": [{"wikipedia_id": "7"}]}],
    },
]


def _write(folder: Path, name: str, rows: list) -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _guess(id_: object, answer: str = "Paris", pages: list | None = ("1",)) -> dict:
    output: dict = {"answer": answer}
    if pages is not None:
        output["provenance"] = [{"wikipedia_id": p} for p in pages]
    return {"id": id_, "output": [output]}


def _problems(tmp_path: Path, guesses: list, gold: list | None = GOLD) -> list[tuple]:
    predictions = _write(tmp_path, "run.jsonl", guesses)
    references = _write(tmp_path, "gold.jsonl", gold) if gold is not None else None
    report = taskeval.check("kilt", predictions, references=references)
    return [(Path(p.file).name, p.line, p.level, p.field, p.message) for p in report.problems]


def test_a_clean_submission_has_no_problem(tmp_path: Path) -> None:
    assert _problems(tmp_path, [_guess(" 2", "Rome", ["7"]), _guess("1")]) == []


def test_what_one_script_refuses_is_a_warning(tmp_path: Path) -> None:
    guesses = [
        _guess(1, pages=None),
        {"id": 2, "output": [{"answer": "Rome"}, {"provenance": [{"wikipedia_id": "7"}]}]},
    ]
    problems = _problems(tmp_path, guesses)
    assert [(line, level) for _, line, level, _, _ in problems] == [(1, "warning"), (2, "warning")]
    assert "eval_retrieval.py stops on it" in problems[0][4]
    assert "eval_downstream.py takes exactly one" in problems[1][4]


def test_what_both_scripts_stop_on_is_an_error(tmp_path: Path) -> None:
    guesses = [
        {"id": 1, "output": []},
        {"id": 2, "output": [{"provenance": []}, {"provenance": []}]},
        {"id": 3, "output": [{}]},
    ]
    problems = _problems(tmp_path, guesses, gold=None)
    errors = [
        (line, message.split(":")[0]) for _, line, level, _, message in problems if level == "error"
    ]
    assert errors == [
        (1, "holds no output"),
        (2, "holds 2 outputs with 'provenance'"),
        (3, "has neither an 'answer' nor a 'provenance'"),
    ]


def test_the_gold_pair_is_checked_at_the_gold_line(tmp_path: Path) -> None:
    # A gold id without a guess, a guess for no gold id.
    problems = _problems(tmp_path, [_guess(1), _guess(9)])
    assert [(f, line, level) for f, line, level, _, _ in problems] == [
        ("gold.jsonl", 2, "error"),
        ("run.jsonl", 2, "warning"),
    ]
    # What the downstream scorer refuses of the pair: a guess answer where the gold has none.
    gold = [GOLD[0], {"id": 2, "input": "q2", "output": [{"provenance": [{"wikipedia_id": "7"}]}]}]
    problems = _problems(tmp_path, [_guess(1), _guess(2, "Rome", ["7"])], gold)
    assert problems == [
        (
            "gold.jsonl",
            2,
            "error",
            "'output'",
            "no gold answer to score the guess answer against (a non-blank 'answer' is needed; "
            "the official scorer crashes)",
        )
    ]


def test_a_repeated_gold_id_is_an_error_at_its_line(tmp_path: Path) -> None:
    gold = [*GOLD, {**GOLD[0], "id": " 1"}]
    problems = _problems(tmp_path, [_guess(1), _guess(2, "Rome", ["7"])], gold)
    assert [(f, line, level, field) for f, line, level, field, _ in problems] == [
        ("gold.jsonl", 3, "error", "'id'")
    ]
