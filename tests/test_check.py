"""``taskeval check``: every problem of a submission, at its file, line, id and field.

Each metric: a crafted submission with one problem of each class, every one reported at its line
(and nothing else); the parity corpus's submissions the official scorer scores cleanly draw no
error, and only the warnings their content justifies; the cases where it fails draw an error.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

import taskeval
from taskeval.check import Report, format_report
from taskeval.cli import main
from taskeval.contract import ContractError, check_folder
from taskeval.export import spaces_root
from taskeval.registry import contract

PARITY = Path(__file__).resolve().parents[1].parent / "shared" / "parity"
needs_corpus = pytest.mark.skipif(not PARITY.is_dir(), reason="parity corpus absent")
SPACES = spaces_root()


def write(path: Path, lines: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    path.write_text(text, encoding="utf-8")
    return path


def found(report: Report) -> set[tuple]:
    """(level, file name, line, field) of every problem."""
    return {
        (p.level, Path(p.file).name if p.file else None, p.line, p.field) for p in report.problems
    }


def kinds(report: Report, level: str) -> set[tuple]:
    return {(Path(p.file).name, p.field) for p in report.problems if p.level == level}


# ---------------------------------------------------------------------------------------------
# The report and the command line


def test_every_metric_declares_a_check():
    for name in taskeval.list_metrics():
        assert contract(name).check is not None, name


def test_a_check_that_is_not_a_submission_check_breaks_the_contract(tmp_path):
    folder = tmp_path / "fever_score"
    shutil.copytree(
        taskeval.metric_dir("fever_score"), folder, ignore=shutil.ignore_patterns("__pycache__")
    )
    source = (folder / "contract.py").read_text(encoding="utf-8")
    broken = source.replace(
        "check=SubmissionCheck(\n        _check,", "check=SubmissionCheck(\n 1,"
    )
    assert broken != source
    (folder / "contract.py").write_text(broken, encoding="utf-8")
    with pytest.raises(ContractError, match=r"CONTRACT.check.run must be a function, got 1"):
        check_folder(folder)


def fever_files(tmp_path: Path) -> tuple[Path, Path]:
    claims = write(
        tmp_path / "shared_task_test.jsonl", [{"id": i, "claim": "c"} for i in range(1, 6)]
    )
    preds = write(
        tmp_path / "predictions.jsonl",
        [
            {
                "id": 1,
                "predicted_label": "SUPPORTS",
                "predicted_evidence": [["A", i] for i in range(6)],
            },
            {"id": 3, "predicted_label": "SUPPORTED", "predicted_evidence": [["B", "1"]]},
            {
                "id": 2,
                "predicted_label": "REFUTES",
                "predicted_evidence": [{"page": "B", "line": 1}],
            },
            {"id": 2, "predicted_label": "REFUTES", "predicted_evidence": []},
            {"id": 9, "predicted_label": "REFUTES", "predicted_evidence": []},
            "",
            {"id": 4, "predicted_label": "REFUTES", "predicted_evidence": None},
        ],
    )
    return claims, preds


FEVER_PROBLEMS = {
    ("warning", "predictions.jsonl", 1, "'predicted_evidence'"),  # 6 sentences, 5 counted
    ("error", "predictions.jsonl", 2, "'predicted_label'"),  # outside the vocabulary
    ("error", "predictions.jsonl", 2, "'predicted_evidence'[0]"),  # a string line
    ("error", "predictions.jsonl", 2, "'id'"),  # out of order: 3 before 2
    ("error", "predictions.jsonl", 3, "'predicted_evidence'[0]"),  # a record, not [page, line]
    ("error", "predictions.jsonl", 4, "'id'"),  # 2 predicted twice
    ("error", "predictions.jsonl", 5, "'id'"),  # 9 is no claim
    ("error", "predictions.jsonl", 6, None),  # blank line
    ("error", "predictions.jsonl", 7, "'predicted_evidence'"),  # null
    ("error", "shared_task_test.jsonl", 5, "'id'"),  # claim 5 has no prediction
}


def test_fever_every_problem_at_its_line(tmp_path):
    claims, preds = fever_files(tmp_path)
    report = taskeval.check("fever_score", preds, inputs=claims)
    assert found(report) == FEVER_PROBLEMS
    assert not report.ok and report.rows == 6
    by_line = {p.line: p for p in report.problems if p.file == str(preds) and p.level == "error"}
    assert by_line[5].id == 9 and by_line[4].message.startswith(
        "is predicted twice (first on line 3)"
    )
    text = format_report(report)
    assert text.splitlines()[-1] == (
        f"fever_score {preds}: 9 errors, 1 warning in 6 predictions: the scorer would fail on it "
        f"or score it other than meant"
    )
    assert f"{preds}:5: error: id 9, field 'id': is not a claim of {claims}" in text


def test_fever_cli_exit_status_and_json(tmp_path, capsys):
    claims, preds = fever_files(tmp_path)
    assert main(["check", "fever_score", "--predictions", str(preds), "--inputs", str(claims)]) == 1
    assert capsys.readouterr().out.count(": error: ") == 9
    args = ["check", "fever_score", "--predictions", str(preds), "--inputs", str(claims), "--json"]
    assert main(args) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["errors"], out["warnings"], out["ok"], out["rows"]) == (9, 1, False, 6)
    first = out["problems"][0]
    assert set(first) == {"level", "file", "line", "id", "field", "message"}
    good = write(
        tmp_path / "good.jsonl",
        [{"id": i, "predicted_label": "REFUTES", "predicted_evidence": [["P", i]]} for i in (1, 2)],
    )
    two = write(tmp_path / "two.jsonl", [{"id": 1}, {"id": 2}])
    assert main(["check", "fever_score", "--predictions", str(good), "--inputs", str(two)]) == 0
    assert capsys.readouterr().out.endswith(
        "0 errors, 0 warnings in 2 predictions: ready to score\n"
    )
    # Usage errors: an unknown metric, a missing file.
    assert main(["check", "nope", "--predictions", str(good)]) == 2
    assert main(["check", "fever_score", "--predictions", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_fever_ids_of_any_size_are_read_exactly(tmp_path):
    # 2**64 + 1 and 2**64 + 2 are one float apart for orjson, but two claims.
    ids = [2**64 + 1, 2**64 + 2]
    claims = write(tmp_path / "test.jsonl", [{"id": i, "claim": "c"} for i in ids])
    rows = [{"id": i, "predicted_label": "REFUTES", "predicted_evidence": []} for i in ids]
    report = taskeval.check("fever_score", write(tmp_path / "p.jsonl", rows), inputs=claims)
    assert report.problems == []
    swapped = write(tmp_path / "s.jsonl", rows[::-1])
    assert found(taskeval.check("fever_score", swapped, inputs=claims)) == {
        ("error", "s.jsonl", 1, "'id'")
    }


def test_fever_warnings_on_a_file_of_one_label_and_no_evidence(tmp_path):
    rows = [{"id": i, "predicted_label": "SUPPORTS", "predicted_evidence": []} for i in range(12)]
    report = taskeval.check("fever_score", write(tmp_path / "p.jsonl", rows))
    assert report.ok
    assert [p.message for p in report.warnings] == [
        "every prediction is 'SUPPORTS'",
        "no SUPPORTS or REFUTES prediction has any evidence: none can be strictly right",
    ]


def test_fever_references_paired_by_position(tmp_path):
    gold = [
        {"id": i, "label": "NOT ENOUGH INFO", "evidence": [[[0, 0, None, None]]]} for i in (1, 2, 3)
    ]
    refs = write(tmp_path / "dev.jsonl", gold)
    rows = [{"id": i, "predicted_label": "REFUTES", "predicted_evidence": []} for i in (2, 1)]
    report = taskeval.check("fever_score", write(tmp_path / "p.jsonl", rows), references=refs)
    assert found(report) == {
        ("error", "dev.jsonl", None, None),  # 3 gold lines, 2 predictions
        ("error", "p.jsonl", 1, "'id'"),  # out of order
        ("error", "dev.jsonl", 3, "'id'"),  # claim 3 has no prediction
    }


FEVER_CLEAN_WITH_WARNING = {  # more than 5 predicted sentences on some line
    "edge_G1_gold_at_sixth_position_default",
    "edge_G2_gold_at_sixth_position_max_none",
    "edge_G3_gold_at_sixth_position_max6",
    "edge_G6_sixth_position_plus_perfect",
    "edge_G7_seven_predictions_first_right",
    "edge_H2_duplicates_fill_slots",
    "synthetic_s2101_n100_realistic",
    "synthetic_s2102_n500_blind",
    "synthetic_s2103_n1500_strong",
    "synthetic_s2104_n3000_weak",
    "synthetic_s2105_n6000_long_lists",
}
# Scored by the official scorer, but with a label outside the vocabulary: never matched.
FEVER_LABEL_ERRORS = {"edge_I3", "edge_I4", "edge_I5", "edge_I6"}


def fever_cases() -> list[dict]:
    if not PARITY.is_dir():
        return []
    lines = (PARITY / "fever" / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@needs_corpus
@pytest.mark.parametrize("case", fever_cases(), ids=lambda c: c["case"])
def test_fever_parity_cases(case):
    folder = PARITY / "fever" / "cases" / case["case"]
    actual = folder / "actual.jsonl"
    report = taskeval.check(
        "fever_score", folder / "predictions.jsonl", references=actual if actual.exists() else None
    )
    name = case["case"]
    if case["outcome"] == "error":
        # Without references, a line without gold is not checked against any.
        assert report.errors or name == "edge_M2_blind_without_actual", format_report(report)
    elif "questionable-input" in case.get("tags", []) or name[:7] in FEVER_LABEL_ERRORS:
        assert report.errors
    else:
        assert not report.errors, format_report(report)
        expected = (
            {("predictions.jsonl", "'predicted_evidence'")}
            if name in FEVER_CLEAN_WITH_WARNING
            else set()
        )
        assert kinds(report, "warning") == expected, format_report(report)


def test_fever_space_example_is_clean():
    examples = SPACES / "fever_score" / "examples"
    report = taskeval.check(
        "fever_score", examples / "predictions.jsonl", references=examples / "actual.jsonl"
    )
    assert report.problems == [] and report.rows == 100


# ---------------------------------------------------------------------------------------------
# SciFact


def scifact_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    claims = write(
        tmp_path / "claims_test.jsonl",
        [{"id": i, "claim": "c", "cited_doc_ids": [10, 20]} for i in (1, 2, 3, 4, 5, 6)],
    )
    corpus = write(
        tmp_path / "corpus.jsonl",
        [
            {"doc_id": 10, "title": "t", "abstract": ["s0", "s1", "s2"], "structured": False},
            {"doc_id": 20, "title": "t", "abstract": ["s0", "s1", "s2", "s3", "s4"]},
        ],
    )
    preds = write(
        tmp_path / "predictions.jsonl",
        [
            {"id": 1, "evidence": {"20": {"sentences": [0, 1, 2, 3], "label": "SUPPORT"}}},
            {"id": 2, "evidence": {"30": {"sentences": [0], "label": "SUPPORT"}}},
            {"id": 4, "evidence": {"10": {"sentences": [1, 3], "label": "CONTRADICT"}}},
            {"id": 3, "evidence": {"10": {"sentences": [0], "label": "SUPPORTS"}}},
            {"id": 5, "evidence": [{"doc_id": "10", "sentences": [0], "label": "SUPPORT"}]},
            {"id": 5, "evidence": {}},
        ],
    )
    return claims, corpus, preds


SCIFACT_PROBLEMS = {
    ("warning", "predictions.jsonl", 1, "'sentences'"),  # 4 sentences, the abstract level reads 3
    ("error", "predictions.jsonl", 2, "'evidence'['30']"),  # no such document
    ("error", "predictions.jsonl", 3, "'id'"),  # 4 before 3
    ("error", "predictions.jsonl", 3, "'evidence'['10']['sentences'][1]"),  # 3 of 3 sentences
    ("error", "predictions.jsonl", 4, "'evidence'[0]['label']"),  # SUPPORTS
    ("error", "predictions.jsonl", 5, "'evidence'"),  # a list, not an object by doc id
    ("error", "predictions.jsonl", 6, "'id'"),  # 5 twice
    ("error", "claims_test.jsonl", 6, "'id'"),  # claim 6 without prediction
}


@pytest.mark.parametrize("name", ["scifact_abstract", "scifact_sentence"])
def test_scifact_every_problem_at_its_line(tmp_path, name):
    claims, corpus, preds = scifact_files(tmp_path)
    report = taskeval.check(name, preds, inputs=[claims, corpus])
    assert found(report) == SCIFACT_PROBLEMS, format_report(report)
    assert [p.id for p in report.errors if p.line == 2] == [2]


def test_scifact_unlabelled_claims_given_as_gold(tmp_path):
    claims, _, preds = scifact_files(tmp_path)
    report = taskeval.check("scifact_abstract", preds, references=claims)
    gold = [p for p in report.errors if Path(p.file).name == "claims_test.jsonl"]
    assert [p.line for p in gold if p.field == "'evidence'"] == [1, 2, 3, 4, 5, 6]
    assert "give it as --inputs" in gold[0].message
    assert [p.line for p in gold if p.field == "'id'"] == [6]  # claim 6 has no prediction


@pytest.mark.parametrize("name", ["scifact_abstract", "scifact_sentence"])
def test_scifact_a_gold_claim_given_twice_is_an_error(tmp_path, capsys, name):
    """The scorer refuses a gold with a claim twice (rows are paired by position): so does the
    check, at the second line."""
    examples = SPACES / "scifact_abstract" / "examples"
    claims = (examples / "claims_dev.jsonl").read_text(encoding="utf-8").splitlines()
    gold = write(tmp_path / "gold.jsonl", [*claims, claims[-1]])
    preds = examples / "predictions.jsonl"
    code = main(["check", name, "--predictions", str(preds), "--references", str(gold)])
    errors = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    assert (code, errors) == (
        1,
        [
            f"{gold}:41: error: id 180, field 'id': is given twice (first on line 40): the scorer "
            "pairs the gold with the predictions row by row"
        ],
    )
    with pytest.raises(ValueError, match="got 40 predictions and 41 references"):
        taskeval.score_files(name, references=gold, predictions=preds)


def test_scifact_one_label_and_no_evidence_warnings(tmp_path):
    empty = write(tmp_path / "e.jsonl", [{"id": i, "evidence": {}} for i in range(10)])
    assert [p.field for p in taskeval.check("scifact_abstract", empty).problems] == ["'evidence'"]
    one = [{"id": i, "evidence": {"1": {"sentences": [0], "label": "SUPPORT"}}} for i in range(10)]
    report = taskeval.check("scifact_abstract", write(tmp_path / "o.jsonl", one))
    assert [p.message for p in report.problems] == [
        "every predicted abstract is labelled 'SUPPORT'"
    ]


SCIFACT_LONG = ("predictions.jsonl", "'sentences'")  # lists beyond 3, or a sentence repeated
SCIFACT_WARNED = {
    "edge_all_13_claims",
    "edge_claim_03_four_sentence_rationale",
    "edge_claim_08_gold_sentence_fourth",
    "edge_claim_09_gold_sentence_first_of_four_unsorted",
    "edge_claim_10_duplicate_sentences",
    "edge_pred_keys_1200_and_01200",
    "edge_pred_duplicate_doc_key",
    "dev_oracle",
    "dev_multivers_scifact_ckpt",
    "dev_multivers_covidfact_ckpt",
    "dev_multivers_healthver_ckpt",
    "train_oracle",
    "synthetic_s101_n50_realistic",
    "synthetic_s102_n120_noisy",
    "synthetic_s103_n200_precise",
    "synthetic_s104_n256_unsorted_dups",
    "synthetic_s105_n300_multi_doc",
}


def scifact_cases() -> list[dict]:
    if not PARITY.is_dir():
        return []
    lines = (PARITY / "scifact" / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@needs_corpus
@pytest.mark.parametrize("case", scifact_cases(), ids=lambda c: c["case"])
def test_scifact_parity_cases(case):
    folder = PARITY / "scifact" / "cases" / case["case"]
    report = taskeval.check(
        "scifact_abstract", folder / "predictions.jsonl", references=folder / "gold.jsonl"
    )
    if case["outcome"] == "error" or "questionable-input" in case.get("tags", []):
        assert report.errors, format_report(report)
        return
    assert not report.errors, format_report(report)
    warned = kinds(report, "warning")
    if case["case"] == "edge_pred_all_empty":
        assert warned == {("predictions.jsonl", "'evidence'")}
    else:
        assert warned == ({SCIFACT_LONG} if case["case"] in SCIFACT_WARNED else set())


def test_scifact_space_example():
    examples = SPACES / "scifact_abstract" / "examples"
    report = taskeval.check(
        "scifact_sentence", examples / "predictions.jsonl", inputs=examples / "claims_dev.jsonl"
    )
    # Its predictions put a random sentence in front of a rationale: once, a repeat.
    assert [(p.level, p.line, p.field) for p in report.problems] == [("warning", 39, "'sentences'")]


# ---------------------------------------------------------------------------------------------
# TyDi QA

# "Ü" and "ë" take two bytes each; the line break, quotes and backslash are escaped in JSON.
DOC = 'Ünë. Two words here. Third passage text.\n"End." C:\\dir'


def tydi_example(example_id: int, language: str = "finnish") -> dict:
    data = DOC.encode()
    cut1, cut2 = data.index(b" Two"), data.index(b" Third")
    return {
        "example_id": example_id,
        "language": language,
        "question_text": "q",
        "document_plaintext": DOC,
        "passage_answer_candidates": [
            {"plaintext_start_byte": 0, "plaintext_end_byte": cut1},
            {"plaintext_start_byte": cut1 + 1, "plaintext_end_byte": cut2},
            {"plaintext_start_byte": cut2 + 1, "plaintext_end_byte": len(data)},
        ],
    }


def tydi_prediction(example_id: int, index: int = -1, span=(-1, -1), **fields) -> dict:
    row = {
        "example_id": example_id,
        "language": "finnish",
        "passage_answer_index": index,
        "passage_answer_score": 1.0,
        "minimal_answer": {"start_byte_offset": span[0], "end_byte_offset": span[1]},
        "minimal_answer_score": 1.0,
        "yes_no_answer": "NONE",
    }
    return {**row, **fields}


@pytest.mark.parametrize("ascii_only", [True, False])  # documents as escapes, or raw UTF-8
def test_tydiqa_every_problem_at_its_line(tmp_path, ascii_only):
    inputs = tmp_path / "tydiqa-test.jsonl.gz"
    with gzip.open(inputs, "wt", encoding="utf-8") as f:
        for i in range(1, 10):
            f.write(json.dumps(tydi_example(i), ensure_ascii=ascii_only) + "\n")
    n = len(DOC.encode())
    preds = write(
        tmp_path / "predictions.jsonl",
        [
            tydi_prediction(1, 1, (8, 11)),  # fine: "Two" in passage 1
            tydi_prediction(2, language="arabic"),  # another language
            tydi_prediction(3, 3),  # no candidate 3
            tydi_prediction(4, 2, (n - 3, n + 5)),  # past the document
            tydi_prediction(5, 0, (6, 8)),  # on no candidate: the break between passages
            tydi_prediction(6, 0, (8, 11)),  # in passage 1, not the predicted 0
            tydi_prediction(7, 1, (8, 11), yes_no_answer="YES"),  # yes/no beside a span
            tydi_prediction(8, 1, (9, 9)),  # an empty span
            tydi_prediction(8),  # 8 twice
            tydi_prediction(77),  # no such example
        ],
    )
    report = taskeval.check("tydiqa", preds, inputs=inputs)
    assert found(report) == {
        ("error", "predictions.jsonl", 2, "'language'"),
        ("error", "predictions.jsonl", 3, "'passage_answer_index'"),
        ("error", "predictions.jsonl", 4, "'minimal_answer'"),
        ("error", "predictions.jsonl", 5, "'minimal_answer'"),
        ("warning", "predictions.jsonl", 6, "'minimal_answer'"),
        ("error", "predictions.jsonl", 7, "'yes_no_answer'"),
        ("error", "predictions.jsonl", 8, "'minimal_answer'"),
        ("error", "predictions.jsonl", 9, "'id'"),
        ("error", "predictions.jsonl", 10, "'id'"),
        ("error", "tydiqa-test.jsonl.gz", 9, "'id'"),  # example 9 has no prediction
    }, format_report(report)
    (past,) = [p for p in report.problems if p.line == 4]
    assert past.message.startswith(f"[{n - 3}, {n + 5}) ends outside the document ({n} bytes")


def test_tydiqa_a_prediction_without_example_id_is_an_error(tmp_path, capsys):
    """The official reader takes row['example_id']: a line without one is refused (a KeyError
    there), reported at its line, not a crash of the check or of the scorer."""
    examples = SPACES / "tydiqa" / "examples"
    rows = (examples / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    second = json.loads(rows[1])
    del second["example_id"]
    preds = write(tmp_path / "predictions.jsonl", [rows[0], json.dumps(second), *rows[2:]])
    gold = examples / "gold.jsonl.gz"
    code = main(["check", "tydiqa", "--predictions", str(preds), "--references", str(gold)])
    assert code == 1
    assert f"{preds}:2: error: field 'example_id': missing" in capsys.readouterr().out.splitlines()
    with pytest.raises(ValueError, match=r"predictions.jsonl, line 2: missing field 'example_id'"):
        taskeval.score_files("tydiqa", references=gold, predictions=preds)


def test_tydiqa_all_null_warning(tmp_path):
    preds = write(tmp_path / "p.jsonl", [tydi_prediction(i) for i in range(10)])
    report = taskeval.check("tydiqa", preds)
    assert [(p.level, p.field) for p in report.problems] == [("warning", None)]


TYDI_FLAG_CASES = {"edge_c08_pretty_unreachable", "edge_c09_cache"}  # official flags fail


def tydi_cases() -> list[dict]:
    if not PARITY.is_dir():
        return []
    return json.loads((PARITY / "tydiqa" / "manifest.json").read_text(encoding="utf-8"))["cases"]


def ids_of(path: Path) -> list:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line)["example_id"] for line in f if line.strip()]


@needs_corpus
@pytest.mark.parametrize("case", tydi_cases(), ids=lambda c: c.get("name"))
def test_tydiqa_parity_cases(case):
    folder = PARITY / "tydiqa" / "cases" / case["name"]
    gold = next(folder.glob("gold.jsonl*"))
    report = taskeval.check("tydiqa", folder / "predictions.jsonl", references=gold)
    if case["name"].startswith("real_"):
        assert not report.errors, format_report(report)
    elif case["name"].startswith("synth_"):
        # The generator drops, repeats and invents predictions: exactly those are errors.
        assert {p.field for p in report.errors} == {"'id'"}
        missing = set(ids_of(gold)) - set(ids_of(folder / "predictions.jsonl"))
        assert len([p for p in report.errors if p.file == str(gold)]) == len(missing)
    elif case["outcome"] == "error" and case["name"] not in TYDI_FLAG_CASES:
        assert report.errors, format_report(report)


def test_tydiqa_space_example():
    examples = SPACES / "tydiqa" / "examples"
    report = taskeval.check(
        "tydiqa", examples / "predictions.jsonl", references=examples / "gold.jsonl.gz"
    )
    assert {p.field for p in report.errors} == {"'id'"}
    assert {p.field for p in report.warnings} == {"'minimal_answer'"}


# ---------------------------------------------------------------------------------------------
# eHealth-KD


def test_ehealthkd_every_problem_at_its_line(tmp_path):
    gold = tmp_path / "gold"
    write(gold / "input_scenario1.txt", ["El asma causa tos.", "La tos es un síntoma."])
    submission = tmp_path / "run"
    write(
        submission / "output_a_scenario1.txt",
        [
            "1\t3 7\tConcept\tasma",
            "2\t8 13\tAction\tcausa",
            "3\t14 17\tconcept\ttos",  # label case
            "2\t22 25\tConcept\ttos",  # ID 2 twice
            "5\t35 41\tConcept\tntoma.",  # past the end of its sentence (19 + 21 = 40)
            "6\t500 504\tConcept\tnada",  # past the last sentence
            "7\t3 7",  # two fields
            "8\t22 25\tConcept\tmal",  # TEXT is not what the offsets cover
        ],
    )
    write(
        submission / "output_b_scenario1.txt",
        [
            "subject\t3\t1",
            "target\t3\t99",  # unknown key phrase
            "cause\t3\t1",  # not a relation label
            "is-a\t1\t8",  # across sentences
            "is-a\t1\t1",  # a loop
        ],
    )
    report = taskeval.check("ehealthkd", submission, inputs=gold / "input_scenario1.txt")
    assert found(report) == {
        ("error", "output_a_scenario1.txt", 3, "LABEL"),
        ("error", "output_a_scenario1.txt", 4, "ID"),
        ("error", "output_a_scenario1.txt", 5, "SPANS"),
        ("error", "output_a_scenario1.txt", 6, "SPANS"),
        ("error", "output_a_scenario1.txt", 7, None),
        ("warning", "output_a_scenario1.txt", 8, "TEXT"),
        ("error", "output_b_scenario1.txt", 2, "TARGET-ID"),
        ("error", "output_b_scenario1.txt", 3, "LABEL"),
        ("warning", "output_b_scenario1.txt", 4, None),
        ("warning", "output_b_scenario1.txt", 5, None),
    }, format_report(report)
    # The same against the gold folder, with what its scorer refuses besides: a submission
    # folder without its sentence file is none.
    against_gold = taskeval.check("ehealthkd", submission, references=gold)
    assert found(against_gold) == found(report) | {("error", "run", None, None)}
    assert format_report(against_gold).splitlines()[0] == (
        f"{submission}: error: no submission found: expected a scenario folder (a sentence file "
        "such as output_scenario1.txt, or input_scenario1.txt for the gold, with its output_a_ "
        "and output_b_ companions) or a folder of scenario folders (scenario1-main, "
        "scenario2-taskA, scenario3-taskB), or a folder of those"
    )
    # With no sentences at all.
    alone = taskeval.check("ehealthkd", submission)
    assert [p.message[:27] for p in alone.errors] == ["no sentences for scenario 1"]


def _ehealthkd_pair(tmp_path, a_lines: list, b_lines: list, gold_a: list) -> tuple[Path, Path]:
    gold, run = tmp_path / "gold", tmp_path / "run"
    write(gold / "input_scenario1.txt", ["El asma causa tos."])
    write(gold / "output_a_scenario1.txt", gold_a)
    write(gold / "output_b_scenario1.txt", [])
    write(run / "output_scenario1.txt", ["El asma causa tos."])
    write(run / "output_a_scenario1.txt", a_lines)
    write(run / "output_b_scenario1.txt", b_lines)
    return gold, run


def test_ehealthkd_numbers_are_read_as_the_official_int_reads_them(tmp_path, capsys):
    """'²' is a digit to str.isdigit but int() refuses it, as the official reader (and so the
    scorer) does: an error at its line, not a crash. What int() takes ('+3', '٣') is no error."""
    gold, run = _ehealthkd_pair(
        tmp_path,
        ["²\t3 7\tConcept\tasma", "2\t8 ²\tAction\tcausa", "+3\t14 17\tConcept\ttos"],
        ["subject\t3\t²", "target\t+3\t٣"],
        ["1\t3 7\tConcept\tasma"],
    )
    code = main(["check", "ehealthkd", "--predictions", str(run), "--references", str(gold)])
    a, b = run / "output_a_scenario1.txt", run / "output_b_scenario1.txt"
    assert (code, capsys.readouterr().out.splitlines()) == (
        1,
        [
            f"{a}:1: error: field ID: must be an integer, got '²'",
            f"{a}:2: error: id 2, field SPANS: must be 'START END' pairs separated by ';', got "
            "'8 ²'",
            f"{b}:1: error: field TARGET-ID: must be an integer, got '²'",
            f"{b}:2: warning: 1 relation: each goes from a key phrase to itself: it never matches "
            "(lines 2)",
            f"ehealthkd {run}: 3 errors, 1 warning in 5 predictions: the scorer would fail on it "
            "or score it other than meant",
        ],
    )
    with pytest.raises(ValueError, match="the key-phrase ID must be an integer, got '²'"):
        taskeval.score_files("ehealthkd", references=gold, predictions=run)


def test_ehealthkd_a_gold_the_scorer_refuses_is_an_error(tmp_path, capsys):
    gold, run = _ehealthkd_pair(tmp_path, ["1\t3 7\tConcept\tasma"], [], ["x\t3 7\tConcept\tasma"])
    code = main(["check", "ehealthkd", "--predictions", str(run), "--references", str(gold)])
    assert (code, capsys.readouterr().out.splitlines()) == (
        1,
        [
            f"{gold / 'output_a_scenario1.txt'}:1: error: the key-phrase ID must be an integer, "
            "got 'x'",
            f"ehealthkd {run}: 1 error, 0 warnings in 1 prediction: the scorer would fail on it "
            "or score it other than meant",
        ],
    )
    with pytest.raises(ValueError, match="the key-phrase ID must be an integer, got 'x'"):
        taskeval.score_files("ehealthkd", references=gold, predictions=run)


def test_ehealthkd_scenario_2_needs_its_relations_file(tmp_path, capsys):
    """The official reader opens output_b_ in every scenario: a scenario 2 folder without it is
    refused, though scenario 2 scores no relation."""
    gold, run = tmp_path / "gold" / "scenario2-taskA", tmp_path / "run" / "scenario2-taskA"
    write(gold / "input_scenario2.txt", ["El asma causa tos."])
    write(gold / "output_a_scenario2.txt", ["1\t3 7\tConcept\tasma"])
    write(gold / "output_b_scenario2.txt", [])
    write(run / "output_scenario2.txt", ["El asma causa tos."])
    write(run / "output_a_scenario2.txt", ["1\t3 7\tConcept\tasma"])
    code = main(["check", "ehealthkd", "--predictions", str(run), "--references", str(gold)])
    assert (code, capsys.readouterr().out.splitlines()[0]) == (
        1,
        f"{run}: error: missing output_b_scenario2.txt: the scorer reads the relations (in "
        "scenario 2 too, where an empty file will do)",
    )
    with pytest.raises(ValueError, match=r"output_b_scenario2\.txt: file not found"):
        taskeval.score_files("ehealthkd", references=gold, predictions=run)
    write(run / "output_b_scenario2.txt", [])
    assert not taskeval.check("ehealthkd", run, references=gold).problems


def ehealthkd_cases() -> list[dict]:
    if not PARITY.is_dir():
        return []
    return json.loads((PARITY / "ehealthkd" / "manifest.json").read_text(encoding="utf-8"))["cases"]


@needs_corpus
@pytest.mark.parametrize(
    "case", [c for c in ehealthkd_cases() if c["kind"] == "real"], ids=lambda c: c["name"]
)
def test_ehealthkd_real_runs_draw_no_error(case):
    folder = PARITY / "ehealthkd"
    report = taskeval.check(
        "ehealthkd", folder / case["submission"], references=folder / case["gold"]
    )
    assert not report.errors, format_report(report, limit=5)
    # Only what the runs hold: self-loops, relations across sentences, TEXT columns astray,
    # pairs of multi-pair phrases past their sentence.
    assert {f for _, f in kinds(report, "warning")} <= {None, "TEXT", "SPANS"}


@needs_corpus
@pytest.mark.parametrize(
    ("probe", "expected"),
    [
        ("p09_kp_label_case", ("error", "LABEL")),
        ("p14_text_column_empty", ("error", None)),
        ("p17_relation_unknown_id", ("error", "TARGET-ID")),
        ("p25_kp_beyond_last_sentence", ("error", "SPANS")),
        ("p38_missing_output_b", ("error", None)),
        ("p22_cross_sentence_relation_dropped", ("warning", None)),
        ("p26_self_loop", ("warning", None)),
    ],
)
def test_ehealthkd_probes(probe, expected):
    folder = PARITY / "ehealthkd" / "cases" / probe
    report = taskeval.check("ehealthkd", folder / "submission", references=folder / "gold")
    assert {(p.level, p.field) for p in report.problems} == {expected}, format_report(report)


def test_ehealthkd_space_example():
    examples = SPACES / "ehealthkd" / "examples"
    report = taskeval.check("ehealthkd", examples / "submission", references=examples / "gold")
    assert report.ok and [p.line for p in report.warnings] == [4]  # two self-loops, lines 4, 37
    assert "(lines 4, 37)" in report.warnings[0].message
