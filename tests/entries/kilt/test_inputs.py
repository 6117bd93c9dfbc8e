"""KILT's files and Hub rows into compute() inputs: the numbers the official scorer gives on the
gold files, whichever way the gold comes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskeval._metrics.kilt import inputs, scoring

GOLD = [
    {
        "id": "q1",
        "input": "Where is the Eiffel Tower?",
        "output": [
            {"answer": "Paris", "provenance": [{"wikipedia_id": "1", "start_paragraph_id": 2}]},
            {"answer": "City of Paris"},
        ],
    },
    {"id": 2, "input": "claim", "output": [{"answer": "SUPPORTS"}]},
]
GUESS = [
    {"id": " 2", "output": [{"answer": "SUPPORTS", "provenance": [{"wikipedia_id": "3"}]}]},
    {"id": "elsewhere", "output": [{"answer": "x"}]},
    {
        "id": "q1",
        "output": [{"answer": "paris", "provenance": [{"wikipedia_id": 1}, {"wikipedia_id": "2"}]}],
    },
]
# eval_retrieval.py (64e284a), ks 1,2, on these files: the answer-only output is no evidence set.
OFFICIAL_RETRIEVAL = {
    "Rprec": 0.5,
    "precision@1": 0.5,
    "answer_in_context@1": 0.0,
    "precision@2": 0.25,
    "answer_in_context@2": 0.0,
    "recall@2": 0.5,
    "success_rate@2": 0.5,
}


def _write(folder: Path, name: str, rows: list) -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    return _write(tmp_path, "gold.jsonl", GOLD), _write(tmp_path, "guess.jsonl", GUESS)


def test_guesses_come_in_gold_order_and_others_are_dropped(files) -> None:
    read = inputs.read_official(*files)
    assert [r["id"] for r in read["predictions"]] == ["q1", " 2"]
    assert [r["id"] for r in read["references"]] == ["q1", "2"]
    result = inputs.score_files(*files, evaluation="retrieval", ks=[1, 2])
    assert result == OFFICIAL_RETRIEVAL


def test_hub_rows_give_the_gold_files_numbers() -> None:
    # kilt_tasks writes an absent answer as "", an absent provenance as [], an absent passage
    # string as "" and an absent int as -1; read as they come, recall@2 would be 0.25.
    passage = {"wikipedia_id": "1", "title": "", "section": "", "start_paragraph_id": 2,
               "start_character": -1, "end_paragraph_id": -1, "end_character": -1,
               "bleu_score": -1.0, "meta": {"fever_page_id": ""}}  # fmt: skip
    rows = [
        {"id": "q1", "input": GOLD[0]["input"], "meta": {}, "output": [
            {"answer": "Paris", "meta": {"score": -1}, "provenance": [passage]},
            {"answer": "City of Paris", "meta": {"score": -1}, "provenance": []},
        ]},
        {"id": "2", "input": "claim", "meta": {}, "output": [
            {"answer": "SUPPORTS", "meta": {"score": -1}, "provenance": []},
        ]},
    ]  # fmt: skip
    references = inputs.references_from_hub(rows)
    assert references[0]["output"][0]["provenance"] == [
        {"wikipedia_id": "1", "start_paragraph_id": 2}
    ]
    assert references[0]["output"][1]["provenance"] is None
    guesses = [GUESS[2], GUESS[0]]
    result = scoring.score(guesses, references, "retrieval", ks=[1, 2])
    assert result == OFFICIAL_RETRIEVAL
    as_they_come = [{**row, "output": [{**o, "provenance": o["provenance"]} for o in row["output"]]}
                    for row in rows]  # fmt: skip
    for row in as_they_come:
        for output in row["output"]:
            output["provenance"] = [
                {k: v for k, v in p.items() if k in ("wikipedia_id",)} for p in output["provenance"]
            ]
    assert scoring.score(guesses, as_they_come, "retrieval", ks=[1, 2])["recall@2"] == 0.25


def test_a_test_split_row_is_refused() -> None:
    with pytest.raises(ValueError, match=r"rows\[0\] \(id 'x'\): field 'output' is empty"):
        inputs.references_from_hub([{"id": "x", "input": "q", "output": []}])


@pytest.mark.parametrize(
    ("row", "phrase"),
    [
        ({"id": "q1", "output": [{"answer": None, "provenance": []}]}, "answer' is null"),
        ({"id": "q1", "output": [{"answer": "a", "provenance": None}]}, "provenance' is null"),
        (
            {
                "id": "q1",
                "output": [{"answer": "a", "provenance": [{"wikipedia_id": "1", "text": None}]}],
            },
            "provenance[0].text' is null",
        ),
        ({"id": None, "output": []}, "field 'id' is null"),
    ],
)
def test_a_null_the_official_scorer_reads_otherwise_is_refused_at_its_line(
    tmp_path: Path, row: dict, phrase: str
) -> None:
    gold = _write(tmp_path, "gold.jsonl", GOLD)
    guess = _write(tmp_path, "guess.jsonl", [GUESS[0], row])
    with pytest.raises(ValueError) as refused:
        inputs.read_official(gold, guess)
    assert f"{guess}, line 2" in str(refused.value) and phrase in str(refused.value)


def test_file_errors_name_the_line(tmp_path: Path) -> None:
    gold = _write(tmp_path, "gold.jsonl", [*GOLD, {**GOLD[1], "id": " 2 "}])
    guess = _write(tmp_path, "guess.jsonl", GUESS)
    with pytest.raises(ValueError, match=r"gold.jsonl, line 3 \(id ' 2 '\): the id is also line 2"):
        inputs.read_official(gold, guess)
    guess = _write(tmp_path, "guess.jsonl", [GUESS[0], GUESS[0]])
    with pytest.raises(ValueError, match=r"guess.jsonl, line 2 .*line 1's"):
        inputs.read_official(_write(tmp_path, "gold.jsonl", GOLD), guess)
    guess = _write(tmp_path, "guess.jsonl", [GUESS[0]])
    with pytest.raises(ValueError, match=r"gold.jsonl, line 1 \(id 'q1'\): .* no prediction"):
        inputs.read_official(_write(tmp_path, "gold.jsonl", GOLD), guess)
    bad = _write(tmp_path, "guess.jsonl", [GUESS[0], {"id": "q1", "output": [{"answer": 3}]}])
    with pytest.raises(ValueError, match=r"guess.jsonl, line 2 \(id 'q1'\): field 'output\[0\]"):
        inputs.read_official(_write(tmp_path, "gold.jsonl", GOLD), bad)


def test_command_line_values() -> None:
    parse = {name: spec[0] for name, spec in inputs.OPTIONS.items()}
    assert parse["ks"]("1,5,10") == [1, 5, 10]
    assert parse["rank_keys"]("wikipedia_id,start_paragraph_id") == [
        "wikipedia_id",
        "start_paragraph_id",
    ]
    for name, text in (("rank_keys", "bleu_score"), ("evaluation", "rag"), ("ks", "1;5")):
        with pytest.raises(ValueError):
            parse[name](text)


def test_hub_rows_keep_the_input_and_refuse_what_is_not_a_row() -> None:
    row = {"id": "x", "input": "Who wrote Dune?", "output": [{"answer": "Frank Herbert"}]}
    (reference,) = inputs.references_from_hub([row])
    assert reference["input"] == "Who wrote Dune?"
    assert reference["output"] == [{"answer": "Frank Herbert", "provenance": None}]
    for bad in ({"output": []}, {"id": "x"}, "not a row"):
        with pytest.raises(ValueError, match=r"rows\[0\]: expected a Hub kilt_tasks row"):
            inputs.references_from_hub([bad])


def test_the_commit_is_said_beside_the_scores() -> None:
    note = inputs.OPTIONS["commit"][4]
    assert note("64e284a").startswith("KILT's scorers at commit 64e284a (the commit whose tests")
    assert "entity_in_input" in note("2664322") and "HEAD" in note("2664322")
