"""The command line as users meet it, through the real entry point (``python -m taskeval``).

Expected numbers are the official scorers' on the bundled example files (SciFact ``eval.py
--verbose``; eHealth-KD ``evaltest``'s scenario evaluation, the example copied under scenario 2).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scifact_cases import SCIFACT_EXAMPLE_SCORES as SCIFACT_12

import taskeval
from taskeval.cli import COMMANDS, _metric_parser
from taskeval.entry import json_line, plain_score_call
from taskeval.registry import contract

from harness import run_cli

REPO = Path(__file__).resolve().parents[1]
EHEALTHKD = REPO / "spaces" / "ehealthkd" / "examples"
SCIFACT = REPO / "spaces" / "scifact_abstract" / "examples"
FEVER = REPO / "spaces" / "fever_score" / "examples"

_COUNTS = {
    "correct_A": 67,
    "incorrect_A": 7,
    "partial_A": 16,
    "missing_A": 14,
    "spurious_A": 23,
    "correct_B": 23,
    "missing_B": 45,
    "spurious_B": 40,
}
EHEALTHKD_1 = {
    **_COUNTS,
    "precision": 0.5568181818181818,
    "recall": 0.5697674418604651,
    "f1": 0.5632183908045977,
}
EHEALTHKD_2 = {
    **_COUNTS,
    "precision": 0.6637168141592921,
    "recall": 0.7211538461538461,
    "f1": 0.6912442396313364,
}
# Imported only by what scoring a small file does not need (orjson: files of 1 MiB or more).
HEAVY = (
    "numpy",
    "evaluate",
    "datasets",
    "pyarrow",
    "pandas",
    "gradio",
    "taskeval.compare",
    "orjson",
)

# Nor, for the plain ``score METRICS --predictions P --references R``, what the full command-line
# interface needs (milliseconds of a small file's run).
LIGHT_PATH_SKIPS = ("taskeval.cli", "argparse", "typing", "dataclasses", "inspect")


def taskeval_cli(*args: str, python: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *python, "-m", "taskeval", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )


def imported_modules(done: subprocess.CompletedProcess) -> set[str]:
    """The modules a ``python -X importtime`` process imported."""
    return {
        line.rsplit("|", 1)[-1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }


def assert_one_line_error(done: subprocess.CompletedProcess, status: int, *fragments: str) -> str:
    assert done.returncode == status, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("taskeval"), done.stderr
    for internal in ("Traceback", "_int_or_none", "rest", "Namespace"):
        assert internal not in lines[0]
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


def test_version():
    done = taskeval_cli("--version")
    assert done.returncode == 0 and done.stdout == f"taskeval {taskeval.__version__}\n"


def test_both_scifact_levels_in_one_call_and_nothing_heavy_imported():
    done = taskeval_cli(
        "score",
        "scifact_abstract,scifact_sentence",
        "--references",
        SCIFACT / "claims_dev.jsonl",
        "--predictions",
        SCIFACT / "predictions.jsonl",
        python=("-X", "importtime"),
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed == SCIFACT_12 and list(printed) == list(SCIFACT_12)
    imported = imported_modules(done)
    assert not [m for m in imported if m.startswith(HEAVY)]
    # the plain score call is run without the command-line interface and what it alone needs
    assert not [m for m in imported if m.startswith(LIGHT_PATH_SKIPS)]


def test_tydiqa_score_and_check_import_nothing_heavy():
    """Neither needs numpy: the contract imports TyDi QA's vectorized sweep (and GoldP's sums)
    only when resamples are scored."""
    for metric in ("tydiqa", "tydiqa_goldp"):
        examples = REPO / "spaces" / metric / "examples"
        gold = next(examples.glob("gold.json*"))
        predictions = next(examples.glob("predictions.json*"))
        for command in ("score", "check"):
            done = taskeval_cli(
                command, metric, "--references", gold, "--predictions", predictions,
                python=("-X", "importtime"),
            )  # fmt: skip
            assert done.returncode in (0, 1), done.stderr
            heavy = [m for m in imported_modules(done) if m.startswith(HEAVY[:-1])]
            assert not heavy, (metric, command, heavy)


def test_package_names_load_on_first_use():
    code = (
        "import sys, taskeval; assert 'numpy' not in sys.modules; "
        "import taskeval.compare; from taskeval.compare import format_result; "
        "print(callable(taskeval.compare), callable(taskeval.score_files), 'numpy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["True", "True", "True"], done.stderr


def test_ehealthkd_bundled_example_one_scenario_folder_per_side():
    done = taskeval_cli(
        "score",
        "ehealthkd",
        "--references",
        EHEALTHKD / "gold",
        "--predictions",
        EHEALTHKD / "submission",
        python=("-X", "importtime"),
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"scenario1": EHEALTHKD_1}
    assert not [m for m in imported_modules(done) if m.startswith(HEAVY)]


def test_ehealthkd_trees_a_chosen_scenario_and_several_submissions(tmp_path):
    # gold: a tree holding scenario1-main only; runs/a: the example; runs/b: the gold itself.
    shutil.copytree(EHEALTHKD / "gold", tmp_path / "gold" / "scenario1-main")
    shutil.copytree(EHEALTHKD / "submission", tmp_path / "runs" / "a" / "scenario1-main")
    shutil.copytree(EHEALTHKD / "gold", tmp_path / "runs" / "b" / "scenario1-main")
    gold, runs = tmp_path / "gold", tmp_path / "runs"

    done = taskeval_cli("score", "ehealthkd", "--references", gold, "--predictions", runs / "a")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"scenario1": EHEALTHKD_1}

    done = taskeval_cli(
        "score", "ehealthkd", "--references", gold, "--predictions", runs, "--scenario", "1"
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["a"] == {"scenario1": EHEALTHKD_1}
    assert sorted(printed) == ["a", "b"] and printed["b"]["scenario1"]["f1"] == 1.0

    # submissions as bare scenario folders, scored as scenario 2; --csv: one row per submission
    # and scenario, floats in full
    shutil.copytree(EHEALTHKD / "submission", tmp_path / "flat" / "a")
    shutil.copytree(EHEALTHKD / "gold", tmp_path / "flat" / "b")
    done = taskeval_cli(
        "score",
        "ehealthkd",
        "--references",
        EHEALTHKD / "gold",
        "--predictions",
        tmp_path / "flat",
        "--scenario",
        "2",
        "--csv",
    )
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [(r["submission"], r["scenario"]) for r in rows] == [
        ("a", "scenario2"),
        ("b", "scenario2"),
    ]
    assert {k: float(v) for k, v in rows[0].items() if k in EHEALTHKD_2} == EHEALTHKD_2


def test_usage_errors_exit_2_on_one_line():
    done = taskeval_cli(
        "score",
        "fever_score",
        "--references",
        FEVER / "actual.jsonl",
        "--predictions",
        FEVER / "predictions.jsonl",
        "--max-evidence",
        "abc",
    )
    assert_one_line_error(done, 2, "--max-evidence", "'abc'")
    # the same code in this process, for the other usage errors
    for argv, fragment in (
        (["score"], "METRIC"),
        (["score", "--predictions", "p"], "the metric comes first"),
        (["score", "nosuch"], "unknown metric 'nosuch'"),
        (["install", "nosuch"], "unknown metric 'nosuch'"),
        (["compare", "scifact_abstract,ehealthkd", "--predictions", "p"], "ehealthkd has configs"),
        (["score", "fever_score", "--predictions", "p", "--workers", "2"], "--workers"),
        (["score", "ehealthkd", "--predictions", "p", "--references", "r", "--scenario", "5"], "5"),
        (["compare", "fever_score", "--predictions", "p", "q", "--names", "A"], "1 names"),
        (
            ["score", "ehealthkd", "--predictions", "p", "--references", "r", "--best", "--ci"],
            "--ci",
        ),
    ):
        code, out, err = run_cli(argv)
        assert code == 2 and not out and len(err.splitlines()) == 1, (argv, err)
        assert fragment in err and "Traceback" not in err, (argv, err)


def test_data_errors_exit_1_naming_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    lines = (FEVER / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[1])
    row["predicted_evidence"] = [["Page", "x"]]
    bad.write_text("\n".join([lines[0], json.dumps(row), *lines[2:]]) + "\n", encoding="utf-8")
    gold = FEVER / "actual.jsonl"
    done = taskeval_cli("score", "fever_score", "--references", gold, "--predictions", bad)
    assert_one_line_error(done, 1, f"{bad}, line 2 (id {row['id']!r})", "predicted_evidence")
    # compare: which of the prediction files is at fault
    done = taskeval_cli(
        "compare",
        "fever_score",
        "--references",
        gold,
        "--predictions",
        FEVER / "predictions.jsonl",
        bad,
        "--resamples",
        "10",
    )
    assert_one_line_error(done, 1, f"{bad}, line 2")


def test_json_by_default_table_on_request():
    argv = [
        "score",
        "fever_score",
        "--references",
        FEVER / "actual.jsonl",
        "--predictions",
        FEVER / "predictions.jsonl",
        "--ci",
        "--resamples",
        "20",
    ]
    done = taskeval_cli(*argv)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    low_high = printed["systems"][0]["scores"]["strict_score"]
    assert low_high["low"] <= low_high["score"] <= low_high["high"]
    done = taskeval_cli(*argv, "--table")
    assert done.returncode == 0 and "strict_score" in done.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(done.stdout)


@pytest.mark.parametrize("command", ["score", "compare"])
@pytest.mark.parametrize("metric", taskeval.list_metrics())
def test_every_option_has_help_and_only_where_it_applies(command, metric):
    parser, _ = _metric_parser(command, COMMANDS[command], metric)
    options = {}
    for action in parser._actions:
        for flag in action.option_strings:
            options[flag] = action.help
    assert all(text and "%" not in text.replace("%(default)s", "") for text in options.values())
    declared = contract(metric)
    # --workers for the metrics scored anew on every resample (stratified statistics)
    assert ("--workers" in options) == declared.resamples_in_processes()
    assert ("--scenario" in options) == (declared.config is not None)
    assert ("--csv" in options) == (bool(declared.formats) and command == "score")
    assert ("--best" in options) == (bool(declared.filters) and command == "score")
    own = {option.flag for option in declared.options}
    every = {option.flag for name in taskeval.list_metrics() for option in contract(name).options}
    assert {flag for flag in every if flag in options} == own


def test_help_through_the_entry_point():
    done = taskeval_cli("score", "fever_score", "--help")
    assert done.returncode == 0
    assert "--max-evidence N|none" in done.stdout and "none: all of them" in done.stdout
    assert "--workers" not in done.stdout and "tydiqa" not in done.stdout.lower()


def test_ehealthkd_layouts_where_the_scenario_is_unclear(tmp_path):
    # in-process: the layout rules behind the command's messages
    def copy(source: Path, target: Path, name: str = "scenario1") -> Path:
        target.mkdir(parents=True)
        for f in source.iterdir():
            shutil.copyfile(f, target / f.name.replace("scenario1", name))
        return target

    gold = copy(EHEALTHKD / "gold", tmp_path / "g" / "dev", "dev")
    sub = copy(EHEALTHKD / "submission", tmp_path / "s" / "dev", "dev")
    with pytest.raises(ValueError, match="tell which scenario"):
        taskeval.score_files("ehealthkd", references=gold, predictions=sub)
    scored = taskeval.score_files(
        "ehealthkd", references=gold, predictions=sub, scenario="scenario2"
    )
    assert scored == {"scenario2": EHEALTHKD_2}
    other = copy(EHEALTHKD / "submission", tmp_path / "s2" / "x", "scenario2")
    with pytest.raises(ValueError, match=r"holds scenario1 but .* holds scenario2"):
        taskeval.score_files("ehealthkd", references=EHEALTHKD / "gold", predictions=other)
    # a gold tree of three scenarios, a submission of one: that one, and a warning
    tree = tmp_path / "tree"
    for n, folder in enumerate(("scenario1-main", "scenario2-taskA", "scenario3-taskB"), 1):
        copy(EHEALTHKD / "gold", tree / folder, f"scenario{n}")
    one = copy(EHEALTHKD / "submission", tmp_path / "one" / "scenario2-taskA", "scenario2")
    with pytest.warns(UserWarning, match="no scenario1-main, scenario3-taskB folder"):
        scored = taskeval.score_files("ehealthkd", references=tree, predictions=one.parent)
    assert scored == {"scenario2": EHEALTHKD_2}


def test_every_public_name_is_exported():
    assert sorted(taskeval.__all__) == sorted(taskeval._EXPORTS)
    for name in taskeval.__all__:
        assert callable(getattr(taskeval, name)), name


def test_ehealthkd_best_run_per_team_and_scenario(tmp_path):
    # in-process (the same main()): t1 has the example and the gold itself, t2 the example
    shutil.copytree(EHEALTHKD / "submission", tmp_path / "runs" / "t1" / "a")
    shutil.copytree(EHEALTHKD / "gold", tmp_path / "runs" / "t1" / "b")
    shutil.copytree(EHEALTHKD / "submission", tmp_path / "runs" / "t2" / "c")
    shutil.copytree(EHEALTHKD / "submission", tmp_path / "runs" / "t2" / "d")  # a tie: c first
    argv = ["score", "ehealthkd", "--references", str(EHEALTHKD / "gold")]
    code, out, err = run_cli([*argv, "--predictions", str(tmp_path / "runs"), "--best"])
    assert code == 0, err
    printed = json.loads(out)
    assert sorted(printed) == ["t1/b", "t2/c"]
    assert printed["t1/b"]["scenario1"]["f1"] == 1.0 and printed["t2/c"]["scenario1"] == EHEALTHKD_1
    # runs side by side (no team folders) are one team
    code, out, err = run_cli([*argv, "--predictions", str(tmp_path / "runs" / "t1"), "--best"])
    assert code == 0 and list(json.loads(out)) == ["b"], err


def _written(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_the_plain_score_call_prints_what_the_full_interface_prints(tmp_path):
    """``score METRICS --predictions P --references R`` is scored without the full interface; on
    every metric's example, and when scoring warns or fails, the output is the same."""
    gold = EHEALTHKD / "gold"
    # a relation between phrases of the first and the last sentence: dropped, with a warning
    files = {p.name: p.read_text(encoding="utf-8") for p in (EHEALTHKD / "submission").iterdir()}
    files["output_b_scenario1.txt"] += "subject\t1773\t195\n"
    warned = _written(tmp_path / "warned", files)
    bad_row = tmp_path / "bad.jsonl"
    bad_row.write_text('{"predicted_label": "SUPPORTS"}\n', encoding="utf-8")
    tydiqa = REPO / "spaces" / "tydiqa" / "examples"
    calls = [
        ["fever_score", FEVER / "predictions.jsonl", FEVER / "actual.jsonl"],
        [
            "scifact_abstract,scifact_sentence",
            SCIFACT / "predictions.jsonl",
            SCIFACT / "claims_dev.jsonl",
        ],
        ["tydiqa", tydiqa / "predictions.jsonl", tydiqa / "gold.jsonl.gz"],
        ["ehealthkd", EHEALTHKD / "submission", gold],
        ["ehealthkd", warned, gold],  # a sentence whose text differs: a warning
        ["fever_score", bad_row, FEVER / "actual.jsonl"],  # a bad row: an error
        ["fever_score", tmp_path / "missing.jsonl", FEVER / "actual.jsonl"],
        ["no_such_metric", FEVER / "predictions.jsonl", FEVER / "actual.jsonl"],
    ]
    outputs = set()
    for metrics, predictions, references in calls:
        for argv in (
            ["score", metrics, "--predictions", str(predictions), "--references", str(references)],
            ["score", metrics, "--references", str(references), "--predictions", str(predictions)],
        ):
            assert plain_score_call(argv) == (metrics, str(predictions), str(references))
            entry, full = run_cli(argv), run_cli(argv, full=True)
            assert entry == full
            outputs.add(entry)
    codes = sorted(code for code, _, _ in outputs)
    assert codes == [0, 0, 0, 0, 0, 1, 1, 2]  # each call once: both orders print the same
    assert any("warning: " in err for code, _, err in outputs if code == 0)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "fever_score", "--predictions", "p"],
        ["score", "fever_score", "--predictions", "p", "--predictions", "q"],
        ["score", "fever_score", "--predictions=p", "--references", "r", "--table"],
        ["score", "fever_score", "--predictions", "-", "--references", "r"],
        ["score", "--predictions", "p", "--references", "r", "x"],
        ["compare", "fever_score", "--predictions", "p", "--references", "r"],
        ["score", "fever_score", "--predictions", "p", "--max-evidence", "3"],
        ["score", "fever_score", "--predictions", "p", "--references", "r", "--table"],
        ["score", "fever_score", "--references", "r", "--table", "x"],
        ["typo", "fever_score", "--predictions", "p", "--references", "r"],
        ["score", "-m", "--predictions", "p", "--references", "r"],
    ],
)
def test_only_the_plain_score_call_takes_the_short_path(argv):
    assert plain_score_call(argv) is None


FEVER_EXAMPLE = {
    "strict_score": 0.26,
    "label_accuracy": 0.48,
    "evidence_precision": 0.09189189189189195,
    "evidence_recall": 0.3783783783783784,
    "evidence_f1": 0.14787200994097552,
}
# Scoring a small file costs less than importing these: json (with the regular expressions it
# compiles), pathlib, typing and the full command-line interface.
INSTALLED_PATH_SKIPS = ("json", "re", "enum", "pathlib", "typing", "argparse", "dataclasses")


@pytest.mark.parametrize(
    ("metrics", "predictions", "references", "expected"),
    [
        ("fever_score", FEVER / "predictions.jsonl", FEVER / "actual.jsonl", FEVER_EXAMPLE),
        (
            "scifact_abstract,scifact_sentence",
            SCIFACT / "predictions.jsonl",
            SCIFACT / "claims_dev.jsonl",
            SCIFACT_12,
        ),
    ],
)
def test_a_small_file_scored_as_installed_imports_only_what_it_needs(
    tmp_path, metrics, predictions, references, expected
):
    """The package laid out as a wheel installs it (linked modules as copies), run without
    ``site`` (which, in an editable install, imports pathlib and re for every process and would
    hide them here). Each file is read once, also for two metrics of one reader."""
    package = tmp_path / "site" / "taskeval"
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "taskeval", package, ignore=skip)
    shutil.copytree(REPO / "metrics", package / "_metrics", ignore=skip)  # links copied as files
    code = (
        "import builtins, sys; opened = []; real_open = builtins.open\n"
        "def counted(file, *args, **kwargs):\n"
        "    opened.append(str(file)); return real_open(file, *args, **kwargs)\n"
        "builtins.open = counted\n"
        "from taskeval.entry import main; status = main(sys.argv[1:])\n"
        "print(opened.count(sys.argv[4]), opened.count(sys.argv[6]), file=sys.stderr)\n"
        "print(sys.modules['taskeval'].__file__, *sorted(sys.modules), file=sys.stderr)\n"
        "sys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", code, "score", metrics,
         "--predictions", str(predictions), "--references", str(references)],
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
        cwd=tmp_path, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == json.dumps(expected) + "\n"
    counts, listed = done.stderr.split("\n", 1)
    assert counts == "1 1"  # predictions, references
    where, *imported = listed.split()
    assert where == str(package / "__init__.py")
    assert f"taskeval._metrics.{metrics.split(',')[0]}.scoring" in imported
    assert not [m for m in imported if m.partition(".")[0] in INSTALLED_PATH_SKIPS]
    assert "taskeval.cli" not in imported


_KEYS = st.text(st.characters(codec="utf-8"), max_size=6) | st.sampled_from(["f1", 'a"b', "a\\b"])
_VALUES = (
    st.floats()
    | st.integers()
    | st.booleans()
    | st.none()
    | st.text(max_size=3)
    | st.dictionaries(st.text(max_size=2), st.floats(), max_size=2)
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=6) | st.dictionaries(
    st.from_regex(r"[a-z_]{1,12}", fullmatch=True), st.floats(allow_nan=False) | st.integers(),
    max_size=12))  # fmt: skip
def test_the_printed_line_is_what_json_dumps_writes(result):
    """What the plain score call prints, written out for flat results, is ``json.dumps``'s."""
    assert json_line(result) == json.dumps(result) + "\n"


def test_the_printed_line_of_values_json_writes_otherwise():
    for value in (math.nan, math.inf, -math.inf, True, None, -0.0, 1e-320, 2**80, 1.5e300):
        for key in ("f1", "é", "a\tb", "\x7f", 'q"', "\\"):
            assert json_line({key: value}) == json.dumps({key: value}) + "\n"
