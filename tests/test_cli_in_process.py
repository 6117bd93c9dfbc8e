"""The command line run in this process: each command's output and exit status, the error paths
(usage, data, a broken pipe, a bug), the tables for people, and the front door's ``load``,
``score_files`` and ``references_from_hub`` at their edges. The subprocess tests in
``test_cli.py`` check the same from outside; these are the ones fast enough to run on every
small change of the code."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

import taskeval
import taskeval.api
import taskeval.cli as cli
import taskeval.entry

from harness import run_cli

REPO = Path(__file__).resolve().parents[1]
FEVER = REPO / "spaces" / "fever_score" / "examples"
EHEALTHKD = REPO / "spaces" / "ehealthkd" / "examples"
FEVER_ARGS = [
    "--references",
    str(FEVER / "actual.jsonl"),
    "--predictions",
    str(FEVER / "predictions.jsonl"),
]
FEVER_TABLE = (
    "score               value\n"
    "------------------  ------\n"
    "strict_score        0.2600\n"
    "label_accuracy      0.4800\n"
    "evidence_precision  0.0919\n"
    "evidence_recall     0.3784\n"
    "evidence_f1         0.1479\n"
)


def refused(argv: list[str], status: int, prefix: str, fragment: str) -> str:
    code, out, err = run_cli(argv)
    assert (code, out) == (status, ""), (argv, code, err)
    assert len(err.splitlines()) == 1 and err.startswith(prefix + ": error: "), (argv, err)
    assert fragment in err, (argv, err)
    return err


# --- list, install, export --------------------------------------------------------------------


def test_list_prints_the_metrics_one_a_line():
    assert run_cli(["list"]) == (0, "\n".join(taskeval.list_metrics()) + "\n", "")


def test_install_and_uninstall_print_what_they_wrote_and_removed(tmp_path):
    cache = tmp_path / "cache"
    code, out, err = run_cli(["install", "fever_score", "--cache", str(cache)])
    assert (code, err) == (0, "")
    (script,) = map(Path, out.splitlines())
    assert script.name == "fever_score.py" and script.is_file()
    assert script.is_relative_to(cache / "evaluate_modules" / "metrics")
    code, out, err = run_cli(["install", "--cache", str(cache)])
    assert (code, err) == (0, "")
    assert [Path(p).stem for p in out.splitlines()] == taskeval.list_metrics()
    code, out, err = run_cli(["install", "fever_score", "--uninstall", "--cache", str(cache)])
    assert (code, out, err) == (0, f"{script.parent}\n", "")
    assert not script.exists()
    refused(["install", "nosuch", "--cache", str(cache)], 2, "taskeval install", "'nosuch'")


def test_install_into_a_cache_that_is_a_file_is_a_data_error(tmp_path):
    cache = tmp_path / "cache"
    cache.write_text("", encoding="utf-8")
    err = refused(["install", "fever_score", "--cache", str(cache)], 1, "taskeval install", "")
    assert err == f"taskeval install: error: {cache / 'evaluate_modules'}: Not a directory\n"


def test_export_prints_the_files_it_wrote(tmp_path):
    target = tmp_path / "new" / "space"  # its parent made too
    code, out, err = run_cli(["export", "tydiqa", str(target)])
    assert code == 0
    assert err.startswith("taskeval export: load it with evaluate.load(") and err.count("\n") == 1
    written = [Path(p) for p in out.splitlines()]
    assert target / "app.py" in written
    assert all(p.is_file() and p.is_relative_to(target) for p in written)


def test_export_errors(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    err = refused(["export", "fever_score", str(blocker / "space")], 1, "taskeval export", "")
    assert err.startswith(f"taskeval export: error: {blocker / 'space'}: ")
    refused(["export", "nosuch", str(tmp_path / "x")], 2, "taskeval export", "'nosuch'")
    (tmp_path / "full" / "x").mkdir(parents=True)
    refused(["export", "fever_score", str(tmp_path / "full")], 2, "taskeval export", "not empty")


def test_os_errors_name_the_file_when_they_have_one():
    assert cli._os_error(OSError(2, "No such file or directory", "a.jsonl")) == (
        "a.jsonl: No such file or directory"
    )
    assert cli._os_error(OSError("no file here")) == "no file here"
    assert cli._os_error(OSError(5, "", "a.jsonl")) == str(OSError(5, "", "a.jsonl"))


# --- usage errors, broken pipes, bugs ---------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "prefix", "fragment"),
    [
        (["score"], "taskeval score", "METRIC"),
        (["score", "--predictions", "p"], "taskeval score", "the metric comes first"),
        (["score", "nosuch"], "taskeval score", "unknown metric 'nosuch'"),
        (
            ["check", "fever_score,scifact_abstract", "--predictions", "p"],
            "taskeval check",
            "check takes one metric",
        ),
        (
            ["compare", "scifact_abstract,ehealthkd", "--predictions", "p"],
            "taskeval compare",
            "ehealthkd has configs: compare it alone",
        ),
        (
            ["compare", "fever_score", "--predictions", "p", "q", "--names", "A"],
            "taskeval compare fever_score",
            "1 names for 2 prediction files",
        ),
        (
            ["score", "ehealthkd", "--predictions", "p", "--references", "r", "--best", "--ci"],
            "taskeval score ehealthkd",
            "--best is for the scores alone",
        ),
        (
            ["score", "ehealthkd", "--predictions", "p", "--references", "r", "--csv", "--ci"],
            "taskeval score ehealthkd",
            "--csv is for the scores alone",
        ),
        (["nosuch"], "taskeval", "invalid choice"),
    ],
)
def test_usage_errors(argv, prefix, fragment):
    err = refused(argv, 2, prefix, fragment)
    assert err.endswith(f" (see {prefix} --help)\n") or "invalid choice" in err


def test_a_metrics_setting_its_scorer_refuses_is_a_usage_error(monkeypatch):
    def refuse(*args, **kwargs):
        raise ValueError("refused\nhere")

    monkeypatch.setattr(cli, "_score_table", refuse)
    code, out, err = run_cli(["score", "fever_score", *FEVER_ARGS, "--table"])
    assert (code, out, err) == (2, "", "taskeval score fever_score: error: refused here\n")


def test_a_broken_pipe_ends_quietly_on_either_path(monkeypatch):
    def broken(*args, **kwargs):
        raise BrokenPipeError

    monkeypatch.setattr(taskeval.entry, "_scored", broken)
    assert run_cli(["score", "fever_score", *FEVER_ARGS]) == (0, "", "")
    monkeypatch.setattr(cli, "_print", broken)  # the reader went away while the table is printed
    assert run_cli(["score", "fever_score", *FEVER_ARGS, "--table"]) == (0, "", "")


def test_a_bug_is_one_line_and_its_traceback_on_request(monkeypatch):
    def bug(*args, **kwargs):
        raise RuntimeError("boom\nthere")

    monkeypatch.setattr(taskeval.api, "score_files", bug)
    monkeypatch.delenv("TASKEVAL_TRACEBACK", raising=False)
    code, out, err = run_cli(["score", "fever_score", *FEVER_ARGS, "--table"])
    assert (code, out) == (1, "")
    assert err == (
        "taskeval score fever_score: internal error: RuntimeError: boom there (please report it; "
        "TASKEVAL_TRACEBACK=1 shows the traceback)\n"
    )
    monkeypatch.setenv("TASKEVAL_TRACEBACK", "1")
    with pytest.raises(RuntimeError, match="boom"):
        run_cli(["score", "fever_score", *FEVER_ARGS, "--table"])


# --- what score prints ------------------------------------------------------------------------


def test_score_table_of_flat_scores():
    assert run_cli(["score", "fever_score", *FEVER_ARGS, "--table"]) == (0, FEVER_TABLE, "")


@pytest.mark.parametrize(
    ("result", "table"),
    [
        (
            {"x": 0.5, "n": 3, "en": {"f1": 0.25, "p": None}, "fr": {"f1": 1, "p": 0.125}},
            "score  value\n-----  ------\nx      0.5000\nn      3\n\n"
            "    f1      p\n--  ------  ------\nen  0.2500\nfr  1       0.1250",
        ),
        (
            {"a": {"s1": {"f1": 0.5, "p": 0.25, "r": 1.0}}, "b": {"s1": {"f1": 0.75, "p": 0.5}}},
            "score  a / s1  b / s1\n-----  ------  ------\nf1     0.5000  0.7500\n"
            "p      0.2500  0.5000\nr      1.0000",
        ),
        (
            {"a": {"s1": {"f1": 0.5}, "s2": {"f1": 0.25}}, "b": {"s1": {"f1": 0.75}}},
            "        f1\n------  ------\na / s1  0.5000\na / s2  0.2500\nb / s1  0.7500",
        ),
        (
            {"s1": {"en": {"f1": 0.5, "p": 0.25}, "fr": {"f1": 1.0, "p": None}}},
            "s1  f1      p\n--  ------  ------\nen  0.5000  0.2500\nfr  1.0000",
        ),
        (
            {"t": {"s1": {"en": {"f1": 0.5}, "fr": {"f1": 1.0}}}},
            "t / s1  f1\n------  ------\nen      0.5000\nfr      1.0000",
        ),
        ({"en": {"f1": 0.5, "p": 0.25}}, "score  en\n-----  ------\nf1     0.5000\np      0.2500"),
        ({}, ""),
    ],
)
def test_score_tables_of_nested_results(result, table):
    assert cli._score_table(result) == table


def test_ehealthkd_csv_and_best_of_several_submissions(tmp_path):
    for run, side in (("a", "submission"), ("b", "gold")):
        shutil.copytree(EHEALTHKD / side, tmp_path / "runs" / run / "scenario1-main")
    argv = ["score", "ehealthkd", "--references", str(EHEALTHKD / "gold")]
    argv += ["--predictions", str(tmp_path / "runs"), "--scenario", "1"]
    code, out, err = run_cli(argv)
    assert (code, err) == (0, "")
    every = json.loads(out)
    assert sorted(every) == ["a", "b"] and every["b"]["scenario1"]["f1"] == 1.0
    code, out, err = run_cli([*argv, "--best"])
    assert (code, err) == (0, "")
    assert json.loads(out) == {"b": every["b"]}
    code, out, err = run_cli([*argv, "--csv"])
    assert (code, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["submission"], r["scenario"], float(r["f1"])) for r in rows] == [
        ("a", "scenario1", every["a"]["scenario1"]["f1"]),
        ("b", "scenario1", 1.0),
    ]
    code, out, err = run_cli([*argv, "--csv", "--best"])
    assert (code, err) == (0, "")
    assert [r["submission"] for r in csv.DictReader(io.StringIO(out))] == ["b"]


def test_where_a_row_error_is_located():
    fever = cli._where(["fever_score"], "gold.jsonl", "preds.jsonl")
    assert fever("predictions[3] and references[0]: bad") == (
        "preds.jsonl, line 4 and gold.jsonl, line 1: bad"
    )
    assert cli._where(["fever_score"], None, "p.jsonl")("references[1]") == "p.jsonl, line 2"
    # a metric whose files do not hold a row a line: the message as it is
    assert cli._where(["ehealthkd"], "g", "p")("predictions[3]") == "predictions[3]"


def test_options_that_metrics_share_are_offered_once_and_none_dropped(monkeypatch):
    tydiqa, goldp = cli.contract("tydiqa"), cli.contract("tydiqa_goldp")
    fakes = {
        "one": SimpleNamespace(options=tydiqa.options, config=None),
        "two": SimpleNamespace(options=[tydiqa.options[0], *goldp.options], config=None),
    }
    monkeypatch.setattr(cli, "contract", fakes.__getitem__)
    parser = cli._Parser(prog="p")
    cli._metric_arguments(parser, ["one", "two"])
    flags = [f for action in parser._actions for f in action.option_strings]
    expected = [o.flag for o in (*tydiqa.options, *goldp.options)]
    assert flags == ["-h", "--help", *expected]


# --- the Python front door ----------------------------------------------------------------------


def test_load_passes_its_settings_to_evaluate(tmp_path):
    plain = taskeval.load("fever_score")
    assert (plain.num_process, plain.process_id, plain.keep_in_memory) == (1, 0, False)
    assert plain.experiment_id == "default_experiment"
    chosen = taskeval.load(
        "fever_score", experiment_id="e1", cache_dir=str(tmp_path), keep_in_memory=True
    )
    assert (chosen.experiment_id, chosen.keep_in_memory) == ("e1", True)
    assert Path(chosen.data_dir).is_relative_to(tmp_path)
    with pytest.raises(TypeError):  # the settings are keyword-only, as evaluate.load's
        taskeval.load("fever_score", None, 1)


def _fake_contract(name, group, scores, hub=None):
    reader = SimpleNamespace(
        group=group,
        score_files=lambda references, predictions, **kw: dict(scores),
        score_metrics=None,
        references_from_hub=hub,
    )
    return SimpleNamespace(
        name=name, reader=reader, option=lambda key: None, setting_names=lambda: []
    )


def test_metrics_of_two_readers_giving_the_same_score_are_refused(monkeypatch):
    fakes = {
        "a": _fake_contract("a", None, {"f1": 0.5, "p": 1.0}),
        "b": _fake_contract("b", None, {"f1": 0.25, "r": 0.0}),
        "c": _fake_contract("c", "g", {"q": 0.75}),
    }
    monkeypatch.setattr(taskeval.api, "contract", fakes.__getitem__)
    monkeypatch.setattr(taskeval.api, "list_metrics", lambda: sorted(fakes))
    with pytest.raises(ValueError) as clash:
        taskeval.api.score_files("a,b", predictions="p")
    assert str(clash.value) == "a, b both give f1: score them apart"
    assert taskeval.api.score_files("a,c", predictions="p") == {"f1": 0.5, "p": 1.0, "q": 0.75}


def test_references_from_hub_of_a_metric_reading_no_hub_rows(monkeypatch):
    fakes = {
        "a": _fake_contract("a", None, {}),
        "b": _fake_contract("b", None, {}, hub=lambda rows, **kw: [{"rows": rows, **kw}]),
    }
    monkeypatch.setattr(taskeval.api, "contract", fakes.__getitem__)
    with pytest.raises(ValueError, match=r"^a reads no Hub dataset rows$"):
        taskeval.api.references_from_hub("a", [])
    assert taskeval.api.references_from_hub("b", [1], k=2) == [{"rows": [1], "k": 2}]


def test_the_plain_line_of_ints_and_finite_floats_is_written_without_json(monkeypatch):
    """The usual flat result is written out without importing json (what makes the plain score
    call fast); any other value goes through json."""
    import sys

    monkeypatch.setitem(sys.modules, "json", None)  # importing it now fails
    line = taskeval.entry.json_line({"n": 3, "f1": 0.5, "p": -0.0, "big": 2**70, "r": 1e-300})
    assert line == '{"n": 3, "f1": 0.5, "p": -0.0, "big": 1180591620717411303424, "r": 1e-300}\n'
    for other in ({"x": True}, {"x": None}, {"x": float("nan")}, {"é": 1}, {"x": "s"}):
        with pytest.raises(ImportError):
            taskeval.entry.json_line(other)


def test_the_front_door_imports_neither_typing_nor_evaluate():
    """What the plain score call imports before it scores: typing's names and evaluate are for
    type checkers only there (a fresh interpreter, the one check here that needs one)."""
    import subprocess
    import sys

    code = (
        "import sys, taskeval.api, taskeval.entry\n"
        "print(*sorted(m for m in ('typing', 'evaluate', 'numpy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert (done.returncode, done.stdout, done.stderr) == (0, "\n", "")


@pytest.mark.parametrize("main", [taskeval.entry.main, cli.main])
def test_without_arguments_main_reads_the_command_line(main, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["taskeval", "list"])
    assert main() == 0
    assert capsys.readouterr() == ("\n".join(taskeval.list_metrics()) + "\n", "")


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "a,b", "--predictions", "p", "--references", "r"],
        ["score", "a,b", "--references", "r", "--predictions", "p"],
    ],
)
def test_the_plain_score_call_is_recognised_in_either_order(argv):
    assert taskeval.entry.plain_score_call(argv) == ("a,b", "p", "r")


@pytest.mark.parametrize(
    ("columns", "width"), [("60", 58), ("5", 11), ("x", 78), ("", 78), (None, 78)]
)
def test_help_is_laid_out_for_the_terminal_width(columns, width, monkeypatch):
    """``COLUMNS`` less two, at least 11; 80 less two when neither it nor a terminal tells
    (pytest's captured output is no terminal); a width given is kept."""
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert cli._Formatter("p")._width == width
    assert cli._Formatter("p", width=40)._width == 40
    monkeypatch.setenv("COLUMNS", "0")  # no width said: the terminal's, here none
    assert cli._Formatter("p")._width == 78


def test_range_checks_of_the_settings_at_their_edges():
    assert (cli._positive("1"), cli._natural("0"), cli._fraction("0.5")) == (1, 0, 0.5)
    assert cli._fraction("1e-9") == 1e-9 and cli._fraction("0.999999") == 0.999999
    for check, text in (
        (cli._positive, "0"),
        (cli._natural, "-1"),
        (cli._fraction, "0"),
        (cli._fraction, "1"),
    ):
        with pytest.raises(ValueError):
            check(text)


def _actions(command: str, spec: str) -> dict[str, object]:
    parser, _ = cli._metric_parser(command, cli.COMMANDS[command], spec)
    return {flag: action for action in parser._actions for flag in action.option_strings}


def test_file_arguments_say_what_each_metric_reads():
    files = {name: cli.contract(name).files for name in taskeval.list_metrics()}
    fever = _actions("score", "fever_score")
    assert fever["--references"].help == files["fever_score"].references.help
    assert not fever["--references"].required  # FEVER's predictions may carry their gold
    assert fever["--predictions"].help == files["fever_score"].predictions.help
    assert fever["--predictions"].required and fever["--predictions"].nargs is None
    ehealthkd = _actions("score", "ehealthkd")
    assert ehealthkd["--references"].required
    assert ehealthkd["--predictions"].help == (
        f"{files['ehealthkd'].predictions.help}, {files['ehealthkd'].submissions}"
    )
    compared = _actions("compare", "ehealthkd")["--predictions"]
    assert compared.nargs == "+"
    assert compared.help == (
        f"one per system, the first is the baseline: {files['ehealthkd'].predictions.help}"
    )
    both = _actions("score", "scifact_abstract,scifact_sentence")
    assert both["--references"].help == files["scifact_abstract"].references.help
    mixed = _actions("score", "fever_score,scifact_abstract")
    assert (mixed["--references"].help, mixed["--predictions"].help) == (
        "gold file",
        "predictions file",
    )
    assert mixed["--references"].required  # SciFact's gold is not optional


def test_ci_is_offered_where_the_scores_can_be_resampled_together():
    assert "--ci" in _actions("score", "ehealthkd")
    assert "--ci" in _actions("score", "fever_score,scifact_abstract")
    assert "--ci" not in _actions("score", "ehealthkd,fever_score")  # a config and no config
    assert "--ci" not in _actions("compare", "fever_score")  # compare always resamples


def test_version_and_help_exit_0_on_stdout(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert run_cli(["--version"]) == (0, f"taskeval {taskeval.__version__}\n", "")
    code, out, err = run_cli(["score", "--help"])
    assert (code, err) == (0, "")
    assert out.startswith("usage: taskeval score [-h] METRIC[,METRIC...]\n")
    # (argparse may break the line after "comma-")
    assert "; several, comma-separated, are scored together." in " ".join(out.split()).replace(
        "- ", "-"
    )
    code, out, err = run_cli(["check", "-h"])
    assert (code, err) == (0, "") and out.startswith("usage: taskeval check [-h] METRIC\n")
    code, out, err = run_cli(["score", "fever_score", "--help"])
    assert (code, err) == (0, "") and out.startswith("usage: taskeval score fever_score [-h]")
    err = refused([], 2, "taskeval", "the following arguments are required: COMMAND")
    assert err.endswith(" (see taskeval --help)\n")


def test_check_arguments_say_what_the_check_reads():
    declared = cli.contract("fever_score")
    actions = _actions("check", "fever_score")
    assert actions["--inputs"].help == (
        f"the task's unlabelled test inputs: {declared.check.inputs}"
    )
    assert actions["--predictions"].help == declared.files.predictions.help
    assert actions["--references"].help == (
        f"the gold, when you have it: {declared.files.references.help}"
    )


def test_a_setting_of_none_that_no_metric_takes_is_no_setting():
    files = {"references": FEVER / "actual.jsonl", "predictions": FEVER / "predictions.jsonl"}
    plain = taskeval.score_files("fever_score", **files)
    assert taskeval.score_files("fever_score", **files, scenario=None) == plain
    with pytest.raises(ValueError, match="fever_score takes no option scenario"):
        taskeval.score_files("fever_score", **files, scenario="scenario1")
