"""``taskeval check tydiqa_goldp``: each problem of a submission found at its file, id and field;
the example and parity files draw only the problems they were made with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import taskeval
from taskeval.check import Report, format_report
from taskeval.export import spaces_root

DATA = Path(__file__).resolve().parent / "data" / "tydiqa_goldp"


def squad(path: Path, paragraphs: list[tuple[str, list]], answers: bool = True) -> Path:
    """A SQuAD 1.1 file: one article per (context, [(id, [gold texts])])."""
    data = [
        {
            "title": "t",
            "paragraphs": [
                {
                    "context": context,
                    "qas": [
                        {"id": qid, "question": "q"}
                        | ({"answers": [{"text": t} for t in texts]} if answers else {})
                        for qid, texts in qas
                    ],
                }
            ],
        }
        for context, qas in paragraphs
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": "1.1", "data": data}), encoding="utf-8")
    return path


PARAGRAPHS = [
    (
        "Helsinki on Suomen pääkaupunki.",
        [("finnish-1-0", ["Helsinki"]), ("finnish-2-0", ["Suomen"])],
    ),
    ("Cairo lies on the Nile.", [("arabic-3-0", ["Cairo"]), ("english-4-0", ["the Nile"])]),
]


def predict(path: Path, text: str | dict) -> Path:
    path.write_text(text if isinstance(text, str) else json.dumps(text), encoding="utf-8")
    return path


def found(report: Report) -> set[tuple]:
    """(level, file name, id, field) of every problem."""
    return {
        (p.level, Path(p.file).name if p.file else None, p.id, p.field) for p in report.problems
    }


def test_every_problem_at_its_id_and_field(tmp_path):
    questions = squad(tmp_path / "questions.json", PARAGRAPHS, answers=False)
    preds = predict(
        tmp_path / "predictions.json",
        {
            "finnish-1-0": "Helsinki",
            "finnish-2-0": 3,  # not a string
            "arabic-3-0": "Kairo",  # not in its context
            "thai-5-0": "x",  # no GoldP language
            "arabic-9-0": "Cairo",  # no such question
        },  # english-4-0: no prediction
    )
    report = taskeval.check("tydiqa_goldp", preds, inputs=questions)
    assert found(report) == {
        ("error", "predictions.json", "finnish-2-0", "answer"),
        ("warning", "predictions.json", "arabic-3-0", "answer"),
        ("error", "predictions.json", "thai-5-0", "'id'"),
        ("error", "predictions.json", "arabic-9-0", "'id'"),
        ("error", "questions.json", "english-4-0", "'id'"),
    }
    assert report.rows == 5 and not report.ok
    # Written on one line (json.dump's way): every id is on line 1.
    lines = {(Path(p.file).name, p.line) for p in report.problems}
    assert lines == {("predictions.json", 1), ("questions.json", 1)}
    # The gold instead of the inputs: the same problems, the missing question in the gold.
    gold = squad(tmp_path / "gold.json", PARAGRAPHS)
    by_gold = {
        (level, "questions.json" if name == "gold.json" else name, i, f)
        for level, name, i, f in found(taskeval.check("tydiqa_goldp", preds, references=gold))
    }
    assert by_gold == found(report)


def test_a_folder_of_per_language_files(tmp_path):
    for n, paragraph in enumerate(PARAGRAPHS):
        squad(tmp_path / "gold" / f"part-{n}.json", [paragraph])
    preds = predict(
        tmp_path / "predictions.json",
        {"finnish-1-0": "Helsinki", "finnish-2-0": "Suomen", "arabic-3-0": "Cairo"},
    )
    report = taskeval.check("tydiqa_goldp", preds, references=tmp_path / "gold")
    assert found(report) == {("error", "part-1.json", "english-4-0", "'id'")}


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"finnish-1-0": "Helsinki"}\n{"arabic-3-0": "Cairo"}\n', "JSON Lines"),
        ('[{"id": "finnish-1-0", "prediction_text": "Helsinki"}]', "got a list"),
        ('{"finnish-1-0": "Helsinki",', "not JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_a_predictions_file_that_is_no_json_object(tmp_path, text, words):
    path = tmp_path / "predictions.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    gold = squad(tmp_path / "gold.json", PARAGRAPHS)
    report = taskeval.check("tydiqa_goldp", path, references=gold)
    (problem,) = report.problems
    assert (problem.level, Path(problem.file).name, problem.id) == ("error", path.name, None)
    assert words in problem.message


def test_unreadable_questions_and_gold_rows_the_metric_refuses(tmp_path):
    preds = predict(tmp_path / "predictions.json", {"finnish-1-0": "Helsinki"})
    broken = predict(tmp_path / "questions.json", '{"data": [')
    report = taskeval.check("tydiqa_goldp", preds, inputs=broken)
    assert found(report) == {("error", "questions.json", None, None)}
    assert "not JSON" in report.problems[0].message
    gold = squad(
        tmp_path / "gold.json", [("Helsinki.", [("finnish-1-0", []), ("thai-2-0", ["x"])])]
    )
    report = taskeval.check("tydiqa_goldp", preds, references=gold)
    assert found(report) == {
        ("error", "gold.json", "finnish-1-0", "'answers'"),  # no gold answer: the script fails
        ("error", "gold.json", "thai-2-0", "'id'"),  # no GoldP language
        ("error", "gold.json", "thai-2-0", "'id'"),  # ... and no prediction
    }


def test_warnings_empty_answers_and_english_only(tmp_path):
    gold = squad(tmp_path / "gold.json", PARAGRAPHS)
    empty = predict(
        tmp_path / "empty.json",
        {qid: "" for _, qas in PARAGRAPHS for qid, _ in qas},
    )
    report = taskeval.check("tydiqa_goldp", empty, references=gold)
    assert report.ok and found(report) == {("warning", "empty.json", None, "answer")}
    english = predict(tmp_path / "english.json", {"english-4-0": "the Nile"})
    report = taskeval.check("tydiqa_goldp", english)
    assert report.ok and found(report) == {("warning", "english.json", None, "'id'")}
    assert "English" in report.problems[0].message
    # With an averaged language beside it, English alone is no sign.
    both = predict(tmp_path / "both.json", {"english-4-0": "the Nile", "arabic-3-0": "Cairo"})
    assert taskeval.check("tydiqa_goldp", both).problems == []


def question_ids(gold: Path) -> list[str]:
    files = sorted(gold.glob("*.json")) if gold.is_dir() else [gold]
    return [
        qa["id"]
        for path in files
        for article in json.loads(path.read_text(encoding="utf-8"))["data"]
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    ]


CASES = [
    spaces_root() / "tydiqa_goldp" / "examples",
    *(
        DATA / name
        for name in ("examples", "drawn_combined", "drawn_per_language_folder", "repeated_ids")
    ),
]


@pytest.mark.parametrize("folder", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_examples_and_parity_cases_draw_only_their_unmatched_ids(folder):
    """The files the scorer scores: no error but the ids made to miss (a prediction for no
    question, a question without a prediction), each at its id."""
    gold = folder / "gold" if (folder / "gold").is_dir() else folder / "gold.json"
    preds = folder / "predictions.json"
    answers = json.loads(preds.read_text(encoding="utf-8"))
    ids = question_ids(gold)
    report = taskeval.check("tydiqa_goldp", preds, references=gold)
    unknown = {(preds.name, k) for k in answers if k not in set(ids)}
    missing = {(Path(p.file).name, p.id) for p in report.errors if p.file != str(preds)}
    assert {(preds.name, p.id) for p in report.errors if p.file == str(preds)} == unknown
    assert {i for _, i in missing} == {i for i in ids if i not in answers}
    assert len(report.errors) == len(unknown) + sum(i not in answers for i in ids)
    assert all(p.field == "'id'" for p in report.errors)
    assert all(p.field == "answer" for p in report.warnings)


def test_the_split_refuses_an_id(tmp_path):
    for name in ("refused_id_without_hyphen", "refused_thai_id"):
        folder = DATA / name
        report = taskeval.check(
            "tydiqa_goldp", folder / "predictions.json", references=folder / "gold.json"
        )
        refused = [
            p for p in report.errors if "must start with a TyDiQA-GoldP language" in p.message
        ]
        assert refused and all(p.field == "'id'" for p in refused), name


def test_an_empty_object(tmp_path):
    empty = predict(tmp_path / "predictions.json", {})
    report = taskeval.check("tydiqa_goldp", empty)
    assert found(report) == {("error", "predictions.json", None, None)}
    assert "has no prediction" in report.problems[0].message


def test_each_prediction_problem_at_the_line_of_its_id(tmp_path):
    """An indented predictions file: each id's problems at the line the id is on (a repeated
    key: its last line, the value json keeps)."""
    questions = squad(tmp_path / "questions.json", PARAGRAPHS, answers=False)
    text = (
        '{\n  "finnish-1-0": "Helsinki",\n  "finnish-2-0": 3,\n  "arabic-3-0":\n    "Kairo",\n'
        '  "thai-5-0": "x", "arabic-9-0": "Cairo",\n  "finnish-2-0": [\n 4\n],\n'
        '  "english-4-0": "the Nile"\n}\n'
    )
    preds = predict(tmp_path / "predictions.json", text)
    report = taskeval.check("tydiqa_goldp", preds, inputs=questions)
    assert {(p.id, p.field, p.line) for p in report.problems} == {
        ("finnish-2-0", "answer", 7),
        ("arabic-3-0", "answer", 4),
        ("thai-5-0", "'id'", 6),
        ("arabic-9-0", "'id'", 6),
    }, format_report(report)


def test_a_question_without_prediction_at_the_line_of_its_id(tmp_path):
    questions = squad(tmp_path / "questions.json", PARAGRAPHS, answers=False)
    text = json.dumps(json.loads(questions.read_text(encoding="utf-8")), indent=1)
    questions.write_text(text, encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if '"english-4-0"' in t)
    preds = predict(
        tmp_path / "predictions.json",
        {"finnish-1-0": "Helsinki", "finnish-2-0": "Suomen", "arabic-3-0": "Cairo"},
    )
    report = taskeval.check("tydiqa_goldp", preds, inputs=questions)
    assert [(p.id, p.line) for p in report.problems] == [("english-4-0", line)]
    assert line > 1
