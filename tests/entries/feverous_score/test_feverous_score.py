"""feverous_score beyond the shared harness: the two id readings, the official files' header
line and line numbers, the check's FEVEROUS-specific problems, the command line's options and
note, and intervals where a resample has no F1. Numbers here are the official code's (see
``parity/README.md``) or follow from the official rules by hand."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics.feverous_score.element_ids import exact_split, official_split
from taskeval._metrics.feverous_score.scoring import feverous_score

PARITY = Path(__file__).resolve().parent / "parity"
EXAMPLE = PARITY / "space-example" / "predictions.jsonl"
HEADER = {"id": "", "claim": "", "label": "", "evidence": []}


@pytest.mark.parametrize(
    "element_id,official,exact",
    [
        ("Korean Air_cell_1_19_0", ("Korean Air", "cell", "1_19_0"), ("Korean Air", "cell", "1_19_0")),
        ("Wolfgang_Niedecken_sentence_1", ("Wolfgang", "Niedecken", "sentence_1"),
         ("Wolfgang_Niedecken", "sentence", "1")),
        ("A_header_cell_0_1_2", ("A", "header_cell", "0_1_2"), ("A", "header_cell", "0_1_2")),
        ("A_B_table_caption_0", ("A", "B_table", "caption_0"), ("A_B", "table_caption", "0")),
        ("Prison_cell_2_sentence_3", ("Prison", "cell", "2_sentence_3"),
         ("Prison_cell_2", "sentence", "3")),
        ("A_title", ("A", "title", ""), ("A", "title", "")),
        ("A_B", ("A", "B", ""), None),
        ("Page", None, None),
    ],
)  # fmt: skip
def test_the_two_readings_of_an_element_id(element_id, official, exact):
    assert official_split(element_id) == official
    assert exact_split(element_id) == exact


def _rows(ids: list, gold: list, label: str = "SUPPORTS") -> dict:
    """The claim under test, then one scored perfectly (so that precision and recall are never
    both 0, where the official scorer divides by zero)."""
    return {
        "predictions": [
            {"predicted_label": label, "predicted_evidence": ids},
            {"predicted_label": "REFUTES", "predicted_evidence": ["Z_sentence_0"]},
        ],
        "references": [
            {"label": "SUPPORTS", "evidence": [gold]},
            {"label": "REFUTES", "evidence": [["Z_sentence_0"]]},
        ],
    }


def test_a_misread_type_moves_an_item_to_the_other_budget():
    # Officially the six cells of page "W_N" are of type "N": the sentence budget keeps five,
    # so the gold sixth is dropped; read exactly they are cells, all kept.
    cells = [f"W_N_cell_0_0_{i}" for i in range(6)]
    rows = _rows(cells, [cells[5]])
    precision = (0.0 + 1.0) / 2
    assert feverous_score(**rows) == {
        "strict_score": 0.5,
        "label_accuracy": 1.0,
        "evidence_precision": precision,
        "evidence_recall": 0.5,
        "evidence_f1": 2.0 * precision * 0.5 / (precision + 0.5),
    }
    precision = (1 / 6 + 1.0) / 2
    assert feverous_score(**rows, id_reading="exact") == {
        "strict_score": 1.0,
        "label_accuracy": 1.0,
        "evidence_precision": precision,
        "evidence_recall": 1.0,
        "evidence_f1": 2.0 * precision * 1.0 / (precision + 1.0),
    }


def test_triples_are_taken_as_they_are_under_either_reading():
    rows = _rows([["W_N", "cell", "0_0_0"]], [["W_N", "cell", "0_0_0"]])
    assert feverous_score(**rows) == feverous_score(**rows, id_reading="exact")
    assert feverous_score(**rows)["strict_score"] == 1.0


def test_the_caller_rows_are_unchanged_though_the_official_code_pops_items():
    rows = _rows([f"P_sentence_{i}" for i in range(8)], ["P_sentence_7"])
    before = json.dumps(rows)
    feverous_score(**rows)
    assert json.dumps(rows) == before


def test_details_say_what_each_claim_kept():
    rows = _rows([f"P_sentence_{i}" for i in range(7)] + ["T_cell_0_0_0"], ["P_sentence_6"])
    record = feverous_score(**rows, details=True)["details"][0]
    assert record == {
        "row": 0,
        "gold_label": "SUPPORTS",
        "predicted_label": "SUPPORTS",
        "label_correct": True,
        "strict": False,
        "evidence_precision": 0.0,
        "evidence_recall": 0.0,
        "kept_sentences": 5,
        "kept_table_items": 1,
        "dropped": 2,
        "why": "right label, but no complete gold evidence group among the kept evidence",
    }


def _write(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _claim(**fields) -> dict:
    return {
        "id": 5,
        "label": "SUPPORTS",
        "evidence": [{"content": ["A_sentence_0"]}],
        "predicted_label": "SUPPORTS",
        "predicted_evidence": ["A_sentence_0"],
        **fields,
    }


def test_the_header_line_is_skipped_and_errors_name_file_lines(tmp_path):
    path = _write(tmp_path / "run.jsonl", [_claim(), _claim(), _claim(predicted_label=None)])
    # The first line is skipped whatever it holds, as evaluate.py does.
    with pytest.raises(
        ValueError, match=r"run\.jsonl, line 3: field 'predicted_label' must be a string"
    ):
        taskeval.read_official("feverous_score", predictions=path)
    rows = taskeval.read_official("feverous_score", predictions=_write(path, [HEADER, _claim()]))
    assert rows == {
        "predictions": [
            {"id": 5, "predicted_label": "SUPPORTS", "predicted_evidence": ["A_sentence_0"]}
        ],
        "references": [{"id": 5, "label": "SUPPORTS", "evidence": [["A_sentence_0"]]}],
    }
    bad = _write(tmp_path / "bad.jsonl", [HEADER, _claim(evidence=[["A_sentence_0"]])])
    with pytest.raises(
        ValueError, match=r"bad\.jsonl, line 2: field 'evidence'\[0\] must be an evidence set"
    ):
        taskeval.read_official("feverous_score", predictions=bad)
    with pytest.raises(ValueError, match=r"is empty"):
        taskeval.read_official("feverous_score", predictions=_write(tmp_path / "e.jsonl", []))
    with pytest.raises(ValueError, match=r"predictions is empty"):
        taskeval.score_files("feverous_score", predictions=_write(tmp_path / "h.jsonl", [HEADER]))


def test_a_submission_is_paired_with_the_gold_file(tmp_path):
    gold = _write(
        tmp_path / "dev.jsonl", [HEADER, {k: v for k, v in _claim().items() if "pred" not in k}]
    )
    submission = _write(
        tmp_path / "sub.jsonl",
        [{"predicted_label": "SUPPORTS", "predicted_evidence": [["A", "sentence", "0"]]}],
    )
    assert (
        taskeval.score_files("feverous_score", references=gold, predictions=submission)[
            "strict_score"
        ]
        == 1.0
    )
    two = _write(
        tmp_path / "two.jsonl", [{"predicted_label": "SUPPORTS", "predicted_evidence": []}] * 2
    )
    with pytest.raises(ValueError, match=r"has 1 claims but .*two\.jsonl has 2 predictions"):
        taskeval.score_files("feverous_score", references=gold, predictions=two)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "taskeval", *args], capture_output=True, text=True, check=False
    )


def test_the_command_line_takes_the_options_and_says_the_reading():
    done = _cli("score", "feverous_score", "--predictions", str(EXAMPLE), "--max-evidence", "none",
                "--max-evidence-cell", "none", "--id-reading", "exact")  # fmt: skip
    assert done.returncode == 0, done.stderr
    # The official code's numbers for the example with both bounds off (no id has an '_' page).
    assert json.loads(done.stdout) == {
        "strict_score": 0.5,
        "label_accuracy": 0.75,
        "evidence_precision": 0.5972222222222222,
        "evidence_recall": 0.6666666666666666,
        "evidence_f1": 0.63003663003663,
    }
    assert "id_reading exact" in done.stderr
    refused = _cli("score", "feverous_score", "--predictions", str(EXAMPLE), "--id-reading", "x")
    assert refused.returncode != 0 and "official|exact" in refused.stderr


def test_precision_and_recall_zero_is_refused_in_words_on_the_command_line(tmp_path):
    path = _write(tmp_path / "zero.jsonl", [HEADER, _claim(predicted_evidence=["B_sentence_1"])])
    done = _cli("score", "feverous_score", "--predictions", str(path))
    assert done.returncode != 0
    assert "precision and recall are both 0" in done.stderr and "Traceback" not in done.stderr


def test_check_names_what_evaluate_py_would_do(tmp_path):
    # The first line holds a claim (no header): evaluate.py skips it.
    sentences = [f"P_sentence_{i}" for i in range(6)]
    rows = [
        _claim(),
        _claim(predicted_evidence=["W_N_sentence_0"]),
        _claim(predicted_evidence=sentences),
    ]
    report = taskeval.check("feverous_score", _write(tmp_path / "run.jsonl", rows))
    text = "\n".join(problem.text() for problem in report.problems)
    assert (
        "run.jsonl:1: error: id 5: holds a prediction, but the official evaluate.py skips" in text
    )
    assert (
        "run.jsonl:2: warning: field 'predicted_evidence': 1 prediction holds element ids whose page has an '_'"
        in text
    )
    assert (
        "run.jsonl:3: warning: field 'predicted_evidence': 1 prediction lists more than 5 sentences"
        in text
    )


def test_an_interval_resample_without_f1_is_nan_not_an_error():
    # Two claims: one with precision and recall 1, one with both 0. A resample drawing the
    # second twice has no F1; the official numbers of the whole run are defined.
    rows = {
        "predictions": [
            {"predicted_label": "SUPPORTS", "predicted_evidence": ["A_sentence_0"]},
            {"predicted_label": "SUPPORTS", "predicted_evidence": ["B_sentence_0"]},
        ],
        "references": [{"label": "SUPPORTS", "evidence": [["A_sentence_0"]]}] * 2,
    }
    from taskeval._metrics.feverous_score.contract import CONTRACT

    stats = CONTRACT.statistics(None, {})
    units = stats.stats(rows)
    assert units == [(1.0, 1.0, 1.0, 1.0), (0.0, 1.0, 0.0, 0.0)]
    both_second = stats.scores([0.0, 2.0, 0.0, 0.0], 2)
    assert math.isnan(both_second["evidence_f1"]) and both_second["label_accuracy"] == 1.0
    assert stats.scores([1.0, 2.0, 1.0, 1.0], 2) == feverous_score(**rows)
    from taskeval.compare import intervals

    low, high = intervals("feverous_score", rows, resamples=400)["strict_score"]
    assert 0.0 <= low <= high <= 1.0


@pytest.mark.parametrize(
    "start,line_start,scored",
    [
        ("\ufeff\ufeff", "", True),  # utf-8-sig drops one, jsonlines skips the other
        ("\ufeff\x1e", "\ufeff", True),  # and one more on any later line
        ("\ufeff\ufeff\ufeff", "", False),
        ("\x1e\ufeff", "", False),
        ("", "\ufeff\ufeff", False),
    ],
)
def test_marks_opening_lines_as_evaluate_py_reads_them(tmp_path, start, line_start, scored):
    """evaluate.py opens its file with jsonlines 3.1: utf-8-sig, then one byte order mark or
    record separator skipped per line. Outcomes here are the official code's."""
    wrong = _claim(id=2, label="REFUTES", evidence=[{"content": ["Z_sentence_0"]}],
                   predicted_evidence=["Z_sentence_0"])  # fmt: skip
    good = _claim(predicted_evidence=["A_sentence_0", "B_sentence_1"])
    lines = [json.dumps(HEADER), line_start + json.dumps(good), json.dumps(wrong)]
    path = tmp_path / "run.jsonl"
    path.write_text(start + "\n".join(lines) + "\n", encoding="utf-8")
    if scored:
        assert list(taskeval.score_files("feverous_score", predictions=path).values()) == [
            0.5, 0.5, 0.75, 1.0, 0.8571428571428571
        ]  # fmt: skip
    else:
        with pytest.raises(ValueError, match=r"run\.jsonl, line [12]: "):
            taskeval.score_files("feverous_score", predictions=path)


def test_f1_is_refused_only_where_both_precision_and_recall_are_0():
    """One of the two 0 is a plain F1 of 0.0, as officially (2 * P * R / (P + R))."""
    wrong_no_gold = {  # precision 0, recall 1 (no gold set)
        "predictions": [{"predicted_label": "SUPPORTS", "predicted_evidence": ["X_sentence_0"]}],
        "references": [{"label": "SUPPORTS", "evidence": []}],
    }
    assert feverous_score(**wrong_no_gold) == {
        "strict_score": 0.0,
        "label_accuracy": 1.0,
        "evidence_precision": 0.0,
        "evidence_recall": 1.0,
        "evidence_f1": 0.0,
    }
    nothing_predicted = {  # precision 1 (nothing kept), recall 0
        "predictions": [{"predicted_label": "REFUTES", "predicted_evidence": []}],
        "references": [{"label": "SUPPORTS", "evidence": [["A_sentence_0"]]}],
    }
    assert feverous_score(**nothing_predicted)["evidence_f1"] == 0.0
