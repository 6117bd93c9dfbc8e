"""What ``taskeval check`` says and how: one format for every problem, plain values in
``--json``, an id of the wrong type named once, ids of any JSON value, a missing path, a gold it
could not read, lists cut without "and 0 more", one full stop between sentences."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_check import fever_files, scifact_files, write
from test_check_tydiqa_goldp import PARAGRAPHS, predict, squad

import taskeval
from taskeval.check import format_report
from taskeval.cli import main
from taskeval.messages import listed
from taskeval.mistakes import with_sentence

# file[:line]: level: [id X, ][field F: ]message
_LINE = re.compile(r"^\S+?(:\d+)?: (error|warning): (id .+?, field \S+|id .+?|field \S+): \S")


def _fever_row(row_id, evidence=()) -> dict:
    return {"id": row_id, "predicted_label": "REFUTES", "predicted_evidence": list(evidence)}


def test_every_problem_in_one_format(tmp_path):
    texts = []
    for report in (
        taskeval.check("fever_score", fever_files(tmp_path / "f")[1], inputs=fever_files(tmp_path / "f")[0]),
        taskeval.check("scifact_abstract", scifact_files(tmp_path / "s")[2], inputs=scifact_files(tmp_path / "s")[:2]),
    ):  # fmt: skip
        texts += [(p.text(), p.field) for p in report.problems if p.id is not None or p.field]
    assert len(texts) > 10
    for text, field in texts:
        assert _LINE.match(text), text
        assert not re.search(r"id [^,]+: field", text), text  # never "id N: field F ..."
        assert not field or text.count(f"field {field}") == 1, text  # named once, in front


def test_json_fields_are_plain_values(tmp_path, capsys):
    claims, preds = fever_files(tmp_path)
    args = ["check", "fever_score", "--predictions", str(preds), "--inputs", str(claims), "--json"]
    assert main(args) == 1
    fields = {p["field"] for p in json.loads(capsys.readouterr().out)["problems"]}
    assert fields == {
        None,
        "id",
        "predicted_label",
        "predicted_evidence",
        "predicted_evidence[0]",
    }


def test_an_id_of_the_wrong_type_is_named_once(tmp_path):
    claims = write(tmp_path / "test.jsonl", [{"id": i, "claim": "c"} for i in (1, 2, 3)])
    preds = write(tmp_path / "p.jsonl", [_fever_row(1), _fever_row("2"), _fever_row(3)])
    report = taskeval.check("fever_score", preds, inputs=claims)
    assert [p.text() for p in report.problems] == [
        f"{preds}:2: error: id '2', field 'id': is the string '2' where {claims} has the integer "
        "2 (line 2)"
    ]


@pytest.mark.parametrize("odd", [[2], {"id": 2}, 2.5, None, True])
def test_ids_of_any_json_value_are_reported_at_their_line(tmp_path, odd):
    """A list or an object (unhashable) as an id, on either side: reported, never a crash."""
    claims = write(tmp_path / "test.jsonl", [{"id": i, "claim": "c"} for i in (1, 2, 3)])
    preds = write(tmp_path / "p.jsonl", [_fever_row(1), _fever_row(odd), _fever_row(3)])
    report = taskeval.check("fever_score", preds, inputs=claims)
    assert [(p.line, p.id) for p in report.problems if p.file == str(preds)] == [(2, odd)]
    assert [(p.line, p.id) for p in report.problems if p.file == str(claims)] == [(2, 2)]
    odd_claims = write(tmp_path / "odd.jsonl", [{"id": 1, "claim": "c"}, {"id": odd, "claim": "c"}])
    twice = write(tmp_path / "twice.jsonl", [_fever_row(1), _fever_row(odd), _fever_row(odd)])
    report = taskeval.check("fever_score", twice, inputs=odd_claims)
    assert [(p.line, p.message) for p in report.problems] == [
        (3, "is predicted twice (first on line 2)")
    ]


def test_a_missing_inputs_path_is_a_usage_error(tmp_path, capsys):
    claims, preds = fever_files(tmp_path)
    missing = tmp_path / "no" / "test.jsonl"
    with pytest.raises(ValueError) as refused:
        taskeval.check("fever_score", preds, inputs=[claims, missing])
    assert str(refused.value) == f"{missing}: no such file or folder"
    argv = ["check", "fever_score", "--predictions", str(preds), "--inputs", str(missing)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"{missing}: no such file or folder" in captured.err


def test_goldp_a_gold_it_could_not_read_is_one_error(tmp_path):
    """The predictions are not held to a gold that could not be read (every id would be
    reported as no question)."""
    preds = predict(tmp_path / "predictions.json", {"finnish-1-0": "Helsinki", "arabic-3-0": "x"})
    for text in ('{"data": [', '{"version": "1.1"}', "[]"):
        broken = predict(tmp_path / "gold.json", text)
        report = taskeval.check("tydiqa_goldp", preds, references=broken)
        assert [(p.level, Path(p.file).name, p.id) for p in report.problems] == [
            ("error", "gold.json", None)
        ], (text, format_report(report))


def test_goldp_answers_with_surrounding_whitespace_are_the_answers(tmp_path):
    """The official SQuAD script normalises every answer with ``' '.join(text.split())``: an
    answer with whitespace around it scores as the answer, so it draws no warning, and one of
    whitespace only is empty."""
    gold = squad(tmp_path / "gold.json", PARAGRAPHS)
    answers = {"finnish-1-0": " Helsinki\n", "finnish-2-0": "\tSuomen ", "arabic-3-0": " Cairo"}
    padded = predict(tmp_path / "padded.json", answers | {"english-4-0": "the Nile "})
    report = taskeval.check("tydiqa_goldp", padded, references=gold)
    assert report.problems == []
    plain = predict(tmp_path / "plain.json", {k: v.strip() for k, v in answers.items()})
    scored = [
        taskeval.load("tydiqa_goldp").compute(
            **taskeval.read_official("tydiqa_goldp", references=gold, predictions=path)
        )
        for path in (padded, plain)
    ]
    assert scored[0]["exact_match"] == scored[1]["exact_match"] == 100.0
    blank = predict(tmp_path / "blank.json", {k: "  \n" for k in answers})
    report = taskeval.check("tydiqa_goldp", blank, references=gold)
    assert [(p.level, p.field, p.message) for p in report.problems if p.level == "warning"] == [
        ("warning", "answer", "every answer is empty: each question scores 0")
    ]


@pytest.mark.parametrize(
    ("count", "expected"), [(5, "1, 2, 3, 4, 5"), (6, "1, 2, 3, 4, 5 and 1 more")]
)
def test_a_cut_list_never_says_and_0_more(tmp_path, count, expected):
    assert listed(list(range(1, count + 1))) == expected
    rows = [_fever_row(i, [["P", j] for j in range(6)]) for i in range(1, count + 1)]
    report = taskeval.check("fever_score", write(tmp_path / "p.jsonl", rows))
    (warning,) = report.warnings
    assert f"(lines {expected}):" in warning.message
    assert "and 0 more" not in format_report(report, limit=len(report.problems))
    assert "... and 1 more" in format_report(report, limit=len(report.problems) - 1)


@pytest.mark.parametrize(
    ("message", "sentence", "expected"),
    [
        ("line 1: bad", "It is X.", "line 1: bad. It is X."),
        ("line 1: bad.", "It is X.", "line 1: bad. It is X."),
        ("were they swapped?", "It is X.", "were they swapped? It is X."),
        ("line 1: bad. It is X.", "It is X.", "line 1: bad. It is X."),
        ("line 1: bad", None, "line 1: bad"),
    ],
)
def test_sentences_are_joined_with_one_full_stop(message, sentence, expected):
    assert with_sentence(message, sentence) == expected


def test_no_message_of_a_check_ends_in_two_full_stops(tmp_path):
    claims, preds = fever_files(tmp_path)
    for report in (
        taskeval.check("fever_score", preds, inputs=claims),
        taskeval.check("fever_score", claims, references=preds),  # swapped: a sentence added
    ):
        for problem in report.problems:
            assert ".." not in problem.message.replace("...", ""), problem.message


def test_match_ids_takes_items_without_lines():
    """A submission that is not JSON Lines (a JSON object's keys, say) has no line per item:
    its problems name the file, and the order is the order given, with no comparison of
    missing lines."""
    from taskeval.check import CheckFiles, Collector

    report = Collector(CheckFiles(Path("run.json")))
    expected = [(None, "a"), (None, "b"), (None, "c")]
    predicted = [(None, "b"), (None, "a"), (None, "b"), (None, "z")]
    report.match_ids(
        expected, "gold.json", predicted, "run.json", by_position=True, what="question"
    )
    assert [p.text() for p in report.problems] == [
        "run.json: error: id 'b', field 'id': is predicted twice",
        "run.json: error: id 'z', field 'id': is not a question of gold.json",
        "gold.json: error: id 'c', field 'id': has no prediction (1 of 3 questions have none)",
        "run.json: error: id 'b', field 'id': out of order: the predictions hold id 'b' here "
        "where gold.json has 'a' (2 predictions out of place); the scorer pairs rows by position",
    ]
