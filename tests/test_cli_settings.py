"""The command line's settings and exit statuses, and ``score_files``' refusals: values at the
edge of each range, options that belong to one metric, interruptions, mismatched files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import taskeval

from harness import run_cli

REPO = Path(__file__).resolve().parents[1]
FEVER = REPO / "spaces" / "fever_score" / "examples"
SCIFACT = REPO / "spaces" / "scifact_abstract" / "examples"
EHEALTHKD = REPO / "spaces" / "ehealthkd" / "examples"
FEVER_FILES = ["--references", str(FEVER / "actual.jsonl"), "--predictions"]
FEVER_ARGS = [*FEVER_FILES, str(FEVER / "predictions.jsonl")]


def one_line_error(argv: list[str], status: int, *fragments: str, full: bool = False) -> str:
    code, out, err = run_cli(argv, full=full)
    assert (code, out) == (status, ""), (argv, code, err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


def printed(argv: list[str]) -> dict:
    code, out, err = run_cli(argv)
    assert code == 0, err
    return json.loads(out)


# --- resampling settings ----------------------------------------------------------------------

CI = ["score", "fever_score", *FEVER_ARGS, "--ci", "--resamples", "20"]


@pytest.mark.parametrize("value", ["0", "1", "1.5", "-0.5", "nan", "x"])
def test_confidence_outside_the_open_interval_is_a_usage_error(value):
    one_line_error([*CI, "--confidence", value], 2, "--confidence", f"'{value}'", "between 0 and 1")


def test_confidence_inside_the_interval_is_used():
    narrow = printed([*CI, "--confidence", "0.5"])
    assert narrow["confidence"] == 0.5
    wide = printed([*CI, "--confidence", "0.99"])
    score = "strict_score"
    assert (
        narrow["systems"][0]["scores"][score]["low"] >= wide["systems"][0]["scores"][score]["low"]
    )
    assert narrow["systems"][0]["scores"] != wide["systems"][0]["scores"]


TYDIQA = REPO / "spaces" / "tydiqa" / "examples"
TYDIQA_FILES = [
    "--references",
    str(TYDIQA / "gold.jsonl.gz"),
    "--predictions",
    str(TYDIQA / "predictions.jsonl"),
]


@pytest.mark.parametrize("command", ["score", "compare"])
def test_workers_is_accepted_with_a_warning_that_it_does_nothing(command):
    # TyDi QA's resamples are scored all at once: --workers stays for older scripts.
    argv = [command, "tydiqa", *TYDIQA_FILES, "--resamples", "400", "--seed", "3"]
    if command == "score":
        argv.append("--ci")
    code, plain, quiet = run_cli(argv)
    assert code == 0 and quiet == "", quiet
    code, out, err = run_cli([*argv, "--workers", "2"])
    assert code == 0 and out == plain
    assert err == (
        f"taskeval {command} tydiqa: warning: --workers is deprecated and has no effect: the "
        f"resamples are scored all at once in this process\n"
    )
    code, out, _ = run_cli([command, "tydiqa", "--help"])
    assert "deprecated, no effect" in " ".join(out.split())


def test_seed_zero_is_a_seed():
    zero = printed([*CI, "--seed", "0"])
    assert zero["seed"] == 0
    assert printed([*CI, "--seed", "0"]) == zero
    assert printed([*CI, "--seed", "1"])["systems"] != zero["systems"]
    # The same numbers as the library's, seed 0 included.
    library = taskeval.compare(
        "fever_score",
        references=FEVER / "actual.jsonl",
        predictions=[FEVER / "predictions.jsonl"],
        resamples=20,
        seed=0,
    )
    assert zero["systems"][0]["scores"] == library["systems"][0]["scores"]


@pytest.mark.parametrize(
    ("option", "value"),
    [("--seed", "-1"), ("--seed", "1.5"), ("--resamples", "0"), ("--resamples", "-3")],
)
def test_resampling_counts_out_of_range_are_usage_errors(option, value):
    one_line_error([*CI, option, value], 2, option, f"'{value}'")


# --- metric settings --------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["2.5", "x", ""])
def test_a_refused_max_evidence_is_a_usage_error(value):
    one_line_error(
        ["score", "fever_score", *FEVER_ARGS, "--max-evidence", value], 2, "--max-evidence"
    )


def test_max_evidence_reaches_the_scorer():
    default = printed(["score", "fever_score", *FEVER_ARGS])
    two = printed(["score", "fever_score", *FEVER_ARGS, "--max-evidence", "2"])
    one = printed(["score", "fever_score", *FEVER_ARGS, "--max-evidence", "1"])
    assert two == taskeval.score_files(
        "fever_score",
        references=FEVER / "actual.jsonl",
        predictions=FEVER / "predictions.jsonl",
        max_evidence=2,
    )
    assert len({json.dumps(d) for d in (default, two, one)}) == 3


def test_a_scenario_given_by_name_or_number_is_the_same_scenario():
    argv = ["score", "ehealthkd", "--references", str(EHEALTHKD / "gold")]
    argv += ["--predictions", str(EHEALTHKD / "submission")]
    scored = {}
    for number in ("1", "2", "3"):
        by_number = printed([*argv, "--scenario", number])
        assert list(by_number) == [f"scenario{number}"]
        assert printed([*argv, "--scenario", f"scenario{number}"]) == by_number
        scored[number] = by_number[f"scenario{number}"]
    assert scored["1"] != scored["2"] != scored["3"]
    # (scenario 4 is the 2020 edition's: a usage error no more, see test_ehealthkd_2020.py)
    for wrong in ("5", "scenario5", "0", "s1", "scenario"):
        one_line_error([*argv, "--scenario", wrong], 2, "--scenario", f"'{wrong}'")


# --- interruptions ----------------------------------------------------------------------------


def test_ctrl_c_on_the_plain_score_path_exits_130(monkeypatch):
    import taskeval.entry

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(taskeval.entry, "_scored", interrupted)
    err = one_line_error(["score", "fever_score", *FEVER_ARGS], 130)
    assert err == "taskeval score fever_score: interrupted\n"


def test_ctrl_c_in_the_full_interface_exits_130(monkeypatch):
    import taskeval.api

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(taskeval.api, "score_files", interrupted)
    one_line_error(["score", "fever_score", *FEVER_ARGS, "--table"], 130, "interrupted", full=True)


# --- files that do not go together ------------------------------------------------------------


def test_gold_and_predictions_of_different_lengths_are_refused(tmp_path):
    lines = (FEVER / "predictions.jsonl").read_text("utf-8").splitlines(keepends=True)
    short = tmp_path / "short.jsonl"
    short.write_text("".join(lines[:99]), encoding="utf-8")
    for argv in (
        ["score", "fever_score", *FEVER_FILES, str(short)],  # the plain path
        ["score", "fever_score", *FEVER_FILES, str(short), "--table"],  # the full interface
    ):
        one_line_error(argv, 1, "has 100 lines but", "has 99")
    with pytest.raises(ValueError, match=r"has 100 lines but .* has 99"):
        taskeval.score_files("fever_score", references=FEVER / "actual.jsonl", predictions=short)


def test_compare_names_the_first_prediction_file_at_fault(tmp_path):
    lines = (FEVER / "predictions.jsonl").read_text("utf-8").splitlines(keepends=True)
    bad = []
    for name, line in (("first", 3), ("second", 2)):
        row = json.loads(lines[line - 1])
        row["predicted_evidence"] = [["Page", "x"]]
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join([*lines[: line - 1], json.dumps(row) + "\n", *lines[line:]]))
        bad.append(str(path))
    good = str(FEVER / "predictions.jsonl")
    argv = ["compare", "fever_score", *FEVER_FILES, good, *bad, "--resamples", "10"]
    err = one_line_error(argv, 1, f"{bad[0]}, line 3")
    assert bad[1] not in err
    # two files, the second at fault
    argv = ["compare", "fever_score", *FEVER_FILES, good, bad[1], "--resamples", "10"]
    one_line_error(argv, 1, f"{bad[1]}, line 2")


# --- score_files' refusals --------------------------------------------------------------------

SCIFACT_FILES = {
    "references": SCIFACT / "claims_dev.jsonl",
    "predictions": SCIFACT / "predictions.jsonl",
}


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("nosuch", {}, "unknown metric 'nosuch'; taskeval has "),
        ("scifact_abstract,nosuch", {}, "unknown metric 'nosuch'"),
        ("scifact_abstract,scifact_abstract", {}, "metric 'scifact_abstract' is given twice"),
        ("", {}, "unknown metric ''"),
        ([], {}, "give at least one metric"),
        (
            "scifact_abstract,scifact_sentence",
            {"max_evidence": 3},
            "scifact_abstract, scifact_sentence take no option max_evidence",
        ),
        (
            "scifact_abstract",
            {"scenario": "scenario1"},
            "scifact_abstract takes no option scenario",
        ),
    ],
)
def test_score_files_refusals(name, options, message):
    with pytest.raises(ValueError) as refused:
        taskeval.score_files(name, **SCIFACT_FILES, **options)
    assert message in str(refused.value)


def test_score_files_takes_a_comma_string_or_a_list_alike():
    listed = taskeval.score_files(["scifact_abstract", "scifact_sentence"], **SCIFACT_FILES)
    assert taskeval.score_files("scifact_abstract,scifact_sentence", **SCIFACT_FILES) == listed
    assert len(listed) == 12
    alone = {
        **taskeval.score_files("scifact_abstract", **SCIFACT_FILES),
        **taskeval.score_files("scifact_sentence", **SCIFACT_FILES),
    }
    assert listed == alone


# --- export -----------------------------------------------------------------------------------


def test_export_into_an_existing_empty_folder(tmp_path):
    from taskeval.export import export

    target = tmp_path / "space"
    target.mkdir()
    written = export("fever_score", target)
    assert (target / "app.py") in written
    with pytest.raises(ValueError, match="is not empty"):
        export("fever_score", target)
    assert export("fever_score", target, overwrite=True)


# --- which file a row error names -------------------------------------------------------------


def test_a_gold_error_in_a_prediction_line_names_that_line(tmp_path):
    """A FEVER prediction line that carries its own gold is its own reference: an error in that
    gold names the predictions file, and an error in the gold file names the gold file."""
    predictions = [json.loads(line) for line in (FEVER / "predictions.jsonl").open()][:4]
    gold = [json.loads(line) for line in (FEVER / "actual.jsonl").open()][:4]
    bad_evidence = [[[1, 2, "Page", {"x": 1}]]]
    predictions[1] = {**predictions[1], "label": "SUPPORTS", "evidence": bad_evidence}
    own = tmp_path / "own.jsonl"
    own.write_text("".join(json.dumps(r) + "\n" for r in predictions), encoding="utf-8")
    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text("".join(json.dumps(r) + "\n" for r in gold), encoding="utf-8")
    argv = ["score", "fever_score", "--references", str(gold_path), "--predictions", str(own)]
    one_line_error(argv, 1, f"{own}, line 2 (id {predictions[1]['id']})", "'evidence'")
    # The same bad gold in the gold file's line 3, whose prediction carries none.
    gold[2] = {**gold[2], "label": "SUPPORTS", "evidence": bad_evidence}
    gold_path.write_text("".join(json.dumps(r) + "\n" for r in gold), encoding="utf-8")
    plain = tmp_path / "plain.jsonl"
    plain.write_text(
        "".join(json.dumps(r) + "\n" for r in [predictions[0], *predictions[2:], predictions[0]]),
        encoding="utf-8",
    )
    argv = ["score", "fever_score", "--references", str(gold_path), "--predictions", str(plain)]
    one_line_error(argv, 1, f"{gold_path}, line 3", "'evidence'")


def test_an_empty_tydiqa_predictions_file_is_scored_with_a_warning(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    gold = REPO / "spaces" / "tydiqa" / "examples" / "gold.jsonl.gz"
    argv = ["score", "tydiqa", "--references", str(gold), "--predictions", str(empty)]
    code, out, err = run_cli(argv)
    assert code == 0
    assert json.loads(out)["avg_passage_f1"] == 0  # the official script's number
    assert err == (
        f"taskeval score tydiqa: warning: {empty}: no prediction at all; every one of the 300 "
        "gold examples scores as unanswered (all zeros)\n"
    )
