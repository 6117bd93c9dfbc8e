"""Common mistakes named, word for word, on the command line, in the Python API and in the Space:
the predictions and references swapped, a file of another task. Valid files are untouched: no
hint is looked for unless a file was refused, and valid files are never taken for a mistake."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

import taskeval
from taskeval import mistakes
from taskeval.mistakes import PREFIX_BYTES, first_value, hint, sample
from taskeval.registry import contract

from harness import PARITY, REPO, entries, run_cli

SPACES = REPO / "spaces"
FEVER_GOLD = SPACES / "fever_score" / "examples" / "actual.jsonl"
FEVER_PREDS = SPACES / "fever_score" / "examples" / "predictions.jsonl"
SCIFACT_CLAIMS = SPACES / "scifact_abstract" / "examples" / "claims_dev.jsonl"
SCIFACT_PREDS = SPACES / "scifact_abstract" / "examples" / "predictions.jsonl"
TYDI_GOLD = SPACES / "tydiqa" / "examples" / "gold.jsonl.gz"
TYDI_PREDS = SPACES / "tydiqa" / "examples" / "predictions.jsonl"
GOLDP_GOLD = SPACES / "tydiqa_goldp" / "examples" / "gold.json"
GOLDP_PREDS = SPACES / "tydiqa_goldp" / "examples" / "predictions.json"
EHEALTH_GOLD = SPACES / "ehealthkd" / "examples" / "gold"
EHEALTH_SUBMISSION = SPACES / "ehealthkd" / "examples" / "submission"

SWAP = "were the predictions and references swapped?"
FEVER_AS_PREDS = (
    "The predictions file looks like the gold references (it has 'label' and 'evidence')"
)
CLAIMS_AS_PREDS = (
    "The predictions file looks like the gold references (it has 'claim' and 'cited_doc_ids')"
)
SCIFACT_FIELD = (
    "field 'evidence'['14717500'] must be an object with 'sentences' and 'label', got "
    "[{'sentences': [2, 5], 'label': 'SUPPORT'}, {'sentences': [7], 'label': 'SUPPORT'}]"
)
FEVER_FOR_SCIFACT = (
    "The predictions file looks like FEVER predictions (it has 'predicted_label'), not a "
    "SciFact file."
)

# (metric, references, predictions, the CLI's message, the Space's message): {R} and {P} are the
# paths given, {r} and {p} their names. First the swapped files of every metric, then files of
# another task.
CASES = [
    (
        "fever_score",
        FEVER_PREDS,
        FEVER_GOLD,
        f"{{P}}, line 1 (id 0): missing field 'predicted_label'. {FEVER_AS_PREDS}: {SWAP}",
        f"predictions[0] (id 0): missing field 'predicted_label'. {FEVER_AS_PREDS}: {SWAP}",
    ),
    (
        "scifact_abstract",
        SCIFACT_PREDS,
        SCIFACT_CLAIMS,
        f"{{P}}, line 2 (id 3): {SCIFACT_FIELD}. {CLAIMS_AS_PREDS}: {SWAP}",
        f"{{p}}, line 2 (id 3): {SCIFACT_FIELD}. {CLAIMS_AS_PREDS}: {SWAP}",
    ),
    (
        "scifact_sentence",
        SCIFACT_PREDS,
        SCIFACT_CLAIMS,
        f"{{P}}, line 2 (id 3): {SCIFACT_FIELD}. {CLAIMS_AS_PREDS}: {SWAP}",
        f"{{p}}, line 2 (id 3): {SCIFACT_FIELD}. {CLAIMS_AS_PREDS}: {SWAP}",
    ),
    (
        "tydiqa",
        TYDI_PREDS,
        TYDI_GOLD,
        "{R}, line 1: missing field 'annotations'. The predictions file looks like the gold "
        f"references (it has 'annotations'): {SWAP}",
        "{r}, line 1: missing field 'annotations'. The predictions file looks like the gold "
        f"references (it has 'annotations'): {SWAP}",
    ),
    (
        "tydiqa_goldp",
        GOLDP_PREDS,
        GOLDP_GOLD,
        "{R}: no 'data' list (a SQuAD 1.1 file has one). The predictions file looks like the "
        f"gold references (it has SQuAD's 'data' list): {SWAP}",
        "{r}: no 'data' list (a SQuAD 1.1 file has one). The predictions file looks like the "
        f"gold references (it has SQuAD's 'data' list): {SWAP}",
    ),
    (
        "ehealthkd",
        EHEALTH_SUBMISSION,
        EHEALTH_GOLD,
        "{R}: expected one gold sentence file input_<name>.txt, found []. The references folder "
        f"looks like predictions (it has output_scenario1.txt): {SWAP}",
        "the uploaded references files: expected one gold sentence file input_<name>.txt, found "
        f"[]. The references folder looks like predictions (it has output_scenario1.txt): {SWAP}",
    ),
    (
        "fever_score",
        FEVER_GOLD,
        SCIFACT_PREDS,
        "{R} has 100 lines but {P} has 40: gold lines are paired with prediction lines by "
        "position. The predictions file looks like SciFact predictions (it has 'evidence' by "
        "document and no 'claim'), not a FEVER file.",
        "{r} has 100 lines but {p} has 40: gold lines are paired with prediction lines by "
        "position. The predictions file looks like SciFact predictions (it has 'evidence' by "
        "document and no 'claim'), not a FEVER file.",
    ),
    (
        "scifact_abstract",
        SCIFACT_CLAIMS,
        FEVER_PREDS,
        f"{{P}}, line 1: missing field 'evidence'. {FEVER_FOR_SCIFACT}",
        f"{{p}}, line 1: missing field 'evidence'. {FEVER_FOR_SCIFACT}",
    ),
    (
        "scifact_sentence",
        SCIFACT_CLAIMS,
        FEVER_PREDS,
        f"{{P}}, line 1: missing field 'evidence'. {FEVER_FOR_SCIFACT}",
        f"{{p}}, line 1: missing field 'evidence'. {FEVER_FOR_SCIFACT}",
    ),
    (
        "tydiqa",
        GOLDP_GOLD,
        TYDI_PREDS,
        "{R}, line 1: not a JSON value (Expecting property name enclosed in double quotes: line "
        "1 column 2 (char 1)). The references file looks like TyDi QA GoldP gold references (it "
        "has SQuAD's 'data' list), not a TyDi QA primary task file.",
        "{r}, line 1: not a JSON value (Expecting property name enclosed in double quotes). The "
        "references file looks like TyDi QA GoldP gold references (it has SQuAD's 'data' list), "
        "not a TyDi QA primary task file.",
    ),
    (
        "tydiqa_goldp",
        TYDI_GOLD,
        GOLDP_PREDS,
        "{R}, line 1: a gzip file, not JSON text: decompress it first (gunzip). The "
        "references file looks like TyDi QA primary task gold references (it has 'annotations'), "
        "not a TyDi QA GoldP file.",
        "{r}, line 1: a gzip file, not JSON text: decompress it first (gunzip). The "
        "references file looks like TyDi QA primary task gold references (it has 'annotations'), "
        "not a TyDi QA GoldP file.",
    ),
    (
        "tydiqa_goldp",
        GOLDP_GOLD,
        TYDI_PREDS,
        "{P}: the predictions file is JSON Lines (one JSON value per line); expected one JSON "
        "object {question id: answer text}, the file the official procedure splits. The "
        "predictions file looks like TyDi QA primary task predictions (it has "
        "'passage_answer_index'), not a TyDi QA GoldP file.",
        "{p}: the predictions file is JSON Lines (one JSON value per line); expected one JSON "
        "object {question id: answer text}, the file the official procedure splits. The "
        "predictions file looks like TyDi QA primary task predictions (it has "
        "'passage_answer_index'), not a TyDi QA GoldP file.",
    ),
    (
        "ehealthkd",
        FEVER_GOLD,
        FEVER_PREDS,
        "{P}: no such folder. The predictions file looks like FEVER predictions (it has "
        "'predicted_label'), not an eHealth-KD 2019 file.",
        # The Space puts a side's uploads in a folder: of one file, the file is looked at.
        "the uploaded references files: expected one gold sentence file input_<name>.txt, found "
        "[]. The predictions folder looks like FEVER predictions (it has 'predicted_label'), not "
        "an eHealth-KD 2019 file.",
    ),
]
IDS = [f"{m}-{'swapped' if i < 6 else 'other'}-{i}" for i, (m, *_) in enumerate(CASES)]


def _expected(template: str, references: Path, predictions: Path) -> str:
    names = {"{R}": references, "{P}": predictions, "{r}": references.name, "{p}": predictions.name}
    for key, value in names.items():
        template = template.replace(key, str(value))
    return template


@pytest.mark.parametrize(("metric", "refs", "preds", "cli", "space"), CASES, ids=IDS)
def test_the_command_line_names_the_mistake(metric, refs, preds, cli, space):
    argv = ["score", metric, "--references", str(refs), "--predictions", str(preds)]
    code, out, err = run_cli(argv)
    assert (code, out) == (1, "")
    assert err == f"taskeval score {metric}: error: {_expected(cli, refs, preds)}\n"


@pytest.mark.parametrize(("metric", "refs", "preds", "cli", "space"), CASES, ids=IDS)
def test_the_python_api_names_the_mistake(metric, refs, preds, cli, space):
    with pytest.raises(ValueError) as refused:
        taskeval.score_files(metric, references=refs, predictions=preds)
    message = str(refused.value)
    sentence = _expected(cli, refs, preds).rsplit(". ", 1)[1]
    assert message.endswith(" " + sentence) and message.count(sentence) == 1
    if metric != "fever_score":  # FEVER's reader pairs the rows; its scorer names the field
        with pytest.raises(ValueError) as refused:
            taskeval.read_official(metric, references=refs, predictions=preds)
        assert str(refused.value).endswith(" " + sentence)


def test_a_folder_given_for_a_file_is_named():
    argv = ["score", "fever_score", "--references", str(EHEALTH_GOLD)]
    code, _, err = run_cli([*argv, "--predictions", str(EHEALTH_SUBMISSION)])
    assert code == 1
    assert err == (
        f"taskeval score fever_score: error: {EHEALTH_SUBMISSION}: Is a directory. The "
        "predictions folder looks like eHealth-KD 2019 predictions (it has "
        "output_scenario1.txt), not a FEVER file.\n"
    )


def test_the_mistake_is_named_once_by_compare_and_score_ci():
    argv = ["compare", "scifact_abstract", "--references", str(SCIFACT_PREDS)]
    code, _, err = run_cli([*argv, "--predictions", str(SCIFACT_PREDS), str(SCIFACT_CLAIMS)])
    assert code == 1
    assert err == (
        f"taskeval compare scifact_abstract: error: {SCIFACT_PREDS}, line 2 (id 3): field "
        "'evidence'['14717500'] must be a non-empty list of rationales, got {'sentences': [], "
        "'label': 'SUPPORT'}. The references file looks like predictions (it has 'evidence' by "
        f"document and no 'claim'): {SWAP}\n"
    )
    # One of several prediction files: it is named.
    argv = ["compare", "fever_score", "--references", str(FEVER_GOLD), "--predictions"]
    code, _, err = run_cli([*argv, str(FEVER_PREDS), str(SCIFACT_PREDS)])
    assert code == 1
    assert err == (
        f"taskeval compare fever_score: error: {FEVER_GOLD} has 100 lines but {SCIFACT_PREDS} "
        "has 40: gold lines are paired with prediction lines by position. The predictions file "
        f"{SCIFACT_PREDS} looks like SciFact predictions (it has 'evidence' by document and no "
        "'claim'), not a FEVER file.\n"
    )
    argv = ["score", "tydiqa", "--references", str(TYDI_PREDS), "--predictions", str(TYDI_GOLD)]
    code, _, err = run_cli([*argv, "--ci"])
    assert code == 1
    assert err == (
        f"taskeval score tydiqa: error: {TYDI_PREDS}, line 1: missing field 'annotations'. The "
        f"predictions file looks like the gold references (it has 'annotations'): {SWAP}\n"
    )


CHECKS = [
    (
        "fever_score",
        FEVER_PREDS,
        FEVER_GOLD,
        f"{FEVER_GOLD}:1: error: id 0, field 'predicted_label': missing. {FEVER_AS_PREDS}: {SWAP}",
    ),
    (
        "scifact_abstract",
        SCIFACT_PREDS,
        SCIFACT_CLAIMS,
        f"{SCIFACT_CLAIMS}:2: error: id 3, field 'evidence'['14717500']: must be an object with "
        "'sentences' and 'label', got [{'sentences': [2, 5], 'label': 'SUPPORT'}, {'sentences': "
        f"[7], 'label': 'SUPPORT'}}]. {CLAIMS_AS_PREDS}: {SWAP}",
    ),
    (
        "tydiqa",
        TYDI_PREDS,
        TYDI_GOLD,
        # The whole file named once, in the reader's words, then the mistake behind it.
        f"{TYDI_GOLD}:1: error: a gzip file, not JSON Lines text: decompress it first (gunzip). "
        f"The predictions file looks like the gold references (it has 'annotations'): {SWAP}",
    ),
    (
        "scifact_sentence",
        None,
        FEVER_PREDS,
        f"{FEVER_PREDS}:1: error: id 91198, field 'evidence': missing. {FEVER_FOR_SCIFACT}",
    ),
    (
        "tydiqa_goldp",
        None,
        TYDI_PREDS,
        f"{TYDI_PREDS}: error: the predictions file is JSON Lines (one JSON value per line); "
        "expected one JSON object {question id: answer text}, the file the official procedure "
        "splits. The predictions file looks like TyDi QA primary task predictions (it has "
        "'passage_answer_index'), not a TyDi QA GoldP file.",
    ),
    (
        "fever_score",
        None,
        SCIFACT_PREDS,
        f"{SCIFACT_PREDS}:1: error: id 1, field 'predicted_label': missing. The predictions file "
        "looks like SciFact predictions (it has 'evidence' by document and no 'claim'), not a "
        "FEVER file.",
    ),
    (
        # Every line of the gold is a right submission line: what the scorer refuses is the
        # references side, a submission without the gold's sentence file.
        "ehealthkd",
        EHEALTH_SUBMISSION,
        EHEALTH_GOLD,
        f"{EHEALTH_SUBMISSION}: error: expected one gold sentence file input_<name>.txt, found "
        "[]. The references folder looks like predictions (it has output_scenario1.txt): "
        f"{SWAP}",
    ),
]


@pytest.mark.parametrize(("metric", "refs", "preds", "first"), CHECKS)
def test_check_names_the_mistake_on_its_first_error(metric, refs, preds, first):
    argv = ["check", metric, "--predictions", str(preds)]
    code, out, _ = run_cli([*argv, *(["--references", str(refs)] if refs else [])])
    assert code == 1
    lines = [line for line in out.splitlines() if ": error: " in line]
    assert lines[0] == first
    assert all("looks like" not in line for line in lines[1:])  # once


# ---------------------------------------------------------------------------------------------
# The Space


def _space(metric: str):
    pytest.importorskip("gradio")
    from test_spaces import app_module, default_controls

    spec = app_module(metric).SPEC
    return spec, default_controls(spec)


def _uploads(spec, path: Path):
    if spec.folders:
        return [str(p) for p in sorted(path.iterdir())] if path.is_dir() else [str(path)]
    return str(path)


@pytest.mark.parametrize(("metric", "refs", "preds", "cli", "space"), CASES, ids=IDS)
def test_the_space_names_the_mistake(metric, refs, preds, cli, space):
    from taskeval.space import compute

    spec, controls = _space(metric)
    uploads = (_uploads(spec, preds), _uploads(spec, refs))
    error, *_ = compute(spec, "files", "", "", *uploads, *controls)
    assert error["visible"] is True
    assert error["value"] == _expected(space, refs, preds)


def test_the_space_keeps_the_hint_whole_when_the_message_is_cut(tmp_path, monkeypatch):
    """The page cuts a long message; the hint, after it, is kept whole."""
    from taskeval.space_worker import Limits, run

    monkeypatch.setenv("TASKEVAL_SPACE_MAX_MESSAGE_CHARS", "300")
    gold = tmp_path / "gold.jsonl"
    row = json.loads(FEVER_GOLD.read_text(encoding="utf-8").splitlines()[0])
    gold.write_text(json.dumps({**row, "claim": "x" * 5000, "id": "y" * 5000}) + "\n")
    task = {
        "metric": "fever_score",
        "config": None,
        "options": {},
        "source": "files",
        "with_interval": False,
        "names": {},
        "folders": {},
        "predictions": str(gold),
        "references": None,
    }
    message = run(task, Limits())["error"]
    assert message.startswith("predictions[0] (id 'yyy")
    assert message.endswith(f"more characters). {FEVER_AS_PREDS}: {SWAP}")
    assert len(message) <= 300 + 40  # the cut's own note aside


# ---------------------------------------------------------------------------------------------
# Valid files: untouched


def _parity_cases():
    for entry in entries():
        folder = PARITY / (entry.parity_folder or entry.name)
        if not folder.exists():
            continue
        for case in entry.parity_cases(folder):
            refs = case.cli_references or case.references
            yield entry.name, refs, case.cli_predictions or case.predictions


def test_no_parity_file_is_taken_for_a_mistake():
    """Every file of the parity corpus is its task's, on its side: valid or not, none is named
    as swapped or as another task's (a FEVER gold line without evidence is not a GoldP answer)."""
    cases = list(_parity_cases())
    assert len(cases) > 400
    for metric, refs, preds in cases:
        assert hint(metric, refs, preds) is None, (metric, refs, preds)


def _example(name: str) -> tuple[Path, Path]:
    """The Space's example files (references, predictions), as its contract names them."""
    examples = contract(name).space.examples
    folder = SPACES / name / "examples"
    return folder / examples["references"], folder / examples["predictions"]


EXAMPLES = {name: _example(name) for name in taskeval.list_metrics()}


@pytest.mark.parametrize("metric", sorted(EXAMPLES))
def test_valid_files_never_look_for_a_mistake(metric, monkeypatch):
    """The Space examples score as before through every door, and no file is even sampled:
    that is only done once a file was refused."""
    refs, preds = EXAMPLES[metric]
    assert hint(metric, refs, preds) is None
    expected = taskeval.score_files(metric, references=refs, predictions=preds)
    sampled = []
    monkeypatch.setattr(mistakes, "sample", lambda path: sampled.append(path))
    files = ["--references", str(refs), "--predictions", str(preds)]
    for full in (False, True):
        code, out, err = run_cli(["score", metric, *files], full=full)
        notes = contract(metric).notes({})  # what the numbers follow (GoldP's convention)
        assert (code, err) == (0, "".join(f"taskeval score {metric}: note: {n}\n" for n in notes))
        assert json.loads(out) == expected
    assert taskeval.score_files(metric, references=refs, predictions=preds) == expected
    if contract(metric).config is None:  # (with configs, read_official takes one config's)
        taskeval.read_official(metric, references=refs, predictions=preds)
    assert sampled == []
    # The examples hold deliberate mistakes for the check to find: no file is named wrong.
    report = taskeval.check(metric, preds, references=refs)
    assert all("looks like" not in p.message for p in report.problems)
    assert (sampled != []) == (not report.ok)


def test_a_failing_recogniser_leaves_the_message_as_it_was(monkeypatch):
    kinds = contract("fever_score").files.kinds

    def broken(sample):
        raise KeyError("broken")

    monkeypatch.setattr(kinds, "recognise", broken)
    code, _, err = run_cli(
        ["score", "fever_score", "--references", str(FEVER_PREDS), "--predictions", str(FEVER_GOLD)]
    )
    assert code == 1
    assert err == (
        f"taskeval score fever_score: error: {FEVER_GOLD}, line 1 (id 0): missing field "
        "'predicted_label'\n"
    )


# ---------------------------------------------------------------------------------------------
# The sample: a bounded prefix, its first JSON value even when cut short


def test_first_value_of_text_cut_anywhere():
    assert first_value('{"a": 1, "b": [1, 2.5, "x"], "c": {"d": null}}\n{"z": 0}') == {
        "a": 1,
        "b": [1, 2.5, "x"],
        "c": {"d": None},
    }
    assert first_value('{"annotations": [{"x": 1}], "document_html": "<html>abc') == {
        "annotations": [{"x": 1}],
        "document_html": "<html>abc",
    }
    assert first_value('{"a": [1, 2, {"b": tr') == {"a": [1, 2, {"b": None}]}
    assert first_value('{"a": 12') == {"a": None}  # more digits may follow
    assert first_value('{"ke') == {}
    assert first_value("  [1, 2]") == [1, 2]
    for text in ("", "ID\tT1 0 4\tConcept\tword", "{'a': 1}", '{"a" 1}', "[1 2]"):
        assert first_value(text) is None, text
    assert first_value("[" * 10_000) is None  # nesting bounded


def test_sample_reads_a_bounded_prefix_of_plain_gzip_and_bom_files(tmp_path):
    line = json.dumps({"annotations": [], "document_plaintext": "w " * 5_000_000}) + "\n"
    plain, packed, bom = tmp_path / "gold.jsonl", tmp_path / "gold.jsonl.gz", tmp_path / "b.jsonl"
    plain.write_text(line * 2)
    packed.write_bytes(gzip.compress(line.encode()))
    bom.write_bytes(b"\xef\xbb\xbf" + line.encode())
    for path in (plain, packed, bom):
        seen = sample(path)
        assert list(seen.first) == ["annotations", "document_plaintext"]
        assert len(seen.first["document_plaintext"]) < PREFIX_BYTES
        assert contract("tydiqa").files.kinds.recognise(seen) == (
            "references",
            "it has 'annotations'",
        )
    assert mistakes._prefix(str(plain)) == line.encode()[:PREFIX_BYTES]
    assert sample(tmp_path / "missing") is None
    if sys.platform != "win32":
        assert sample("/dev/null") is None  # not a regular file: never read
