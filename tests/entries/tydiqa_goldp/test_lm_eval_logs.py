"""The pieces of TyDiQA-GoldP's lm-evaluation-harness tasks and of reading a run's logs, without
the harness: its hooks' numbers, the group mean's order of additions, the logged samples turned
into compute() inputs, and every refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskeval import lm_eval_logs
from taskeval._metrics.tydiqa_goldp import lm_eval_task
from taskeval._metrics.tydiqa_goldp.lm_eval_task import (
    EXACT_MATCH,
    F1,
    InOrder,
    inputs_from_samples,
    language_percent,
    question_result,
)
from taskeval._metrics.tydiqa_goldp.scoring import AVERAGED, average
from taskeval.cli import main
from taskeval.contract import ContractError, check_folder
from taskeval.registry import contract, metric_dir

from entries.tydiqa_goldp import compensated_sum

TASKS = metric_dir("tydiqa_goldp") / "lm_eval_tasks"
# Eight per-language F1 values (percent) whose sum compensated for rounding, as CPython's sum()
# adds floats from 3.12 on, has other last bits than the official left-to-right sum.
F1S = [
    50.476190476190474, 63.80952380952381, 69.44444444444444, 82.22222222222221,
    48.888888888888886, 66.66666666666667, 40.476190476190474, 86.66666666666667,
]  # fmt: skip


def test_the_group_mean_adds_left_to_right_on_every_python():
    assert compensated_sum(F1S) / 8 != average(F1S)  # the values tell the two sums apart
    # the harness's group mean: sum(value * size for each task) / sum(sizes), sizes all 1
    values = [InOrder(v) for v in F1S]
    assert sum([v * 1 for v in values]) / sum([1] * 8) == average(F1S)
    assert sum([v * 1 for v in values]) / 8 == 63.581349206349216
    for made in (values[0] * 1, 1 * values[0], 0 + values[0], values[0] + values[1]):
        assert type(made) is InOrder
    assert type(values[0] / 8) is float  # the mean itself is a plain float
    assert InOrder(2.5) * 3 == 7.5 and 3 * InOrder(2.5) == 7.5 and InOrder(2.5) + 1 == 3.5
    assert json.dumps(values[:2]) == json.dumps(F1S[:2]) and repr(values[0]) == repr(F1S[0])


def test_question_result_is_the_squad_rule():
    def result(golds: list[str], generation: str) -> tuple:
        scores = question_result({"answers": {"text": golds}}, [generation])
        return scores[EXACT_MATCH], scores[F1]

    assert result(["the Beatles"], " Beatles.\n") == (True, 1.0)
    assert result(["an apple"], "apple") == (True, 1.0)  # English articles, in every language
    assert result(["«Москва»"], "Москва") == (False, 0)  # Unicode punctuation is kept
    assert result(["الكتاب"], "كتاب") == (False, 0)  # no Arabic article rule
    assert result(["a b c", "x"], "b c d") == (False, 0.8)  # "b c" against "b c d"
    assert result(["x"], "") == (False, 0)
    # the first response is the one scored (the harness gives one per repeat)
    assert question_result({"answers": {"text": ["x"]}}, ["x", "y"]) == {EXACT_MATCH: True, F1: 1.0}
    # the harness's own docs hold the gold texts as a list
    assert question_result({"answers": ["x y"]}, ["y"]) == {
        EXACT_MATCH: False,
        F1: 0.6666666666666666,
    }


class _Split:
    """What ``process_docs`` is given: a split with ``filter``, as a ``datasets.Dataset``."""

    def __init__(self, rows: list[dict]) -> None:
        self.rows = rows

    def filter(self, keep) -> list[dict]:
        return [row for row in self.rows if keep(row)]


def test_each_language_task_keeps_its_language_only():
    ids = ["russian-1-0", "arabic-2-0", "telugu-3-0", "arabic-4-0", "english-5-0"]
    split = _Split([{"id": i} for i in ids])
    assert lm_eval_task.docs_in(split, "arabic") == [{"id": "arabic-2-0"}, {"id": "arabic-4-0"}]
    assert lm_eval_task.docs_in(split, "russian") == [{"id": "russian-1-0"}]
    assert lm_eval_task.docs_in(split, "korean") == []


def test_language_percent_is_what_evaluate_v1_1_prints():
    assert language_percent([True, False, True]) == 66.66666666666667
    assert language_percent([0, 0.5, 1.0, 0.1]) == 40.0
    assert language_percent([0.1] * 10) == 9.999999999999998  # summed left to right
    assert type(language_percent([1])) is InOrder


def test_the_task_configs():
    group = (TASKS / "taskeval_tydiqa_goldp.yaml").read_text(encoding="utf-8")
    listed = [line.strip()[2:] for line in group.splitlines() if line.startswith("  - task")]
    codes = [lm_eval_task.CODES[language] for language in AVERAGED]
    assert listed == [f"taskeval_tydiqa_goldp_{code}" for code in codes]  # the official order
    assert "weight_by_size: false" in group
    tasks = sorted(p.name for p in TASKS.glob("taskeval_tydiqa_goldp_*.yaml"))
    assert tasks == sorted(f"taskeval_tydiqa_goldp_{c}.yaml" for c in lm_eval_task.CODES.values())
    for language, code in lm_eval_task.CODES.items():
        text = (TASKS / f"taskeval_tydiqa_goldp_{code}.yaml").read_text(encoding="utf-8")
        assert f"process_docs: !function hooks.{language}\n" in text
        assert f"task: taskeval_tydiqa_goldp_{code}\n" in text
    # Every YAML file under the folder the harness is given is in a folder a contract declares.
    root = Path(lm_eval_logs.include_path())
    declared = {
        root / name / contract(name).lm_eval.folder for name in lm_eval_logs.lm_eval_tasks()
    }
    assert {p.parent for p in root.rglob("*.yaml")} == declared


def _sample(doc_id: int, example_id: str, generation: str = "x", golds=("x",)) -> dict:
    return {
        "doc_id": doc_id,
        "doc": {"id": example_id, "answers": {"text": list(golds), "answer_start": [0]}},
        "filtered_resps": [generation],
        "resps": [[generation]],
        "filter": "none",
    }


def test_samples_become_rows_in_the_official_order():
    samples = {
        "taskeval_tydiqa_goldp_ru": [
            _sample(0, "russian-9-1", "b"),
            _sample(1, "russian-8-0", "a"),
        ],
        "taskeval_tydiqa_goldp_en": [_sample(0, "english-1-0", " y ", ["y", "z"])],
        "taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-5-0")],
    }
    inputs = inputs_from_samples(samples)
    assert [row["id"] for row in inputs["predictions"]] == [
        "english-1-0", "arabic-5-0", "russian-9-1", "russian-8-0",
    ]  # fmt: skip
    assert inputs["predictions"][0] == {"id": "english-1-0", "prediction_text": " y "}
    assert inputs_from_samples({}) == {"predictions": [], "references": []}
    # the first filtered response (of the first repeat) is the generation
    for later in ("b", 2):  # only the first is read
        two = {
            "taskeval_tydiqa_goldp_ar": [
                {**_sample(0, "arabic-5-0"), "filtered_resps": ["a", later]}
            ]
        }
        assert inputs_from_samples(two)["predictions"] == [
            {"id": "arabic-5-0", "prediction_text": "a"}
        ]
    assert inputs["references"][0] == {"id": "english-1-0", "answers": {"text": ["y", "z"]}}
    # the harness's own tasks: their docs hold the answers as a list
    own = {"tydiqa_goldp_fi": [{**_sample(0, "finnish-3-0"), "doc": {"id": "finnish-3-0",
                                                                      "answers": ["q"]}}]}  # fmt: skip
    assert inputs_from_samples(own)["references"] == [
        {"id": "finnish-3-0", "answers": {"text": ["q"]}}
    ]


@pytest.mark.parametrize(
    "samples, message",
    [
        (
            {"taskeval_tydiqa_goldp_ar": [], "tydiqa_goldp_bn": []},
            "both taskeval's taskeval_tydiqa_goldp_<xx> tasks and the harness's own",
        ),
        ({"taskeval_tydiqa_goldp_xx": []}, "taskeval_tydiqa_goldp_xx: not a TyDiQA-GoldP task"),
        (
            {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0"), _sample(0, "arabic-1-0")]},
            "doc_id 0 (arabic-1-0) is logged twice",
        ),
        (
            {"taskeval_tydiqa_goldp_ar": [_sample(0, "bengali-1-0")]},
            "taskeval_tydiqa_goldp_ar: sample doc_id 0: expected a doc with an 'id' of arabic",
        ),
        (
            {"taskeval_tydiqa_goldp_ru": [_sample(3, "arabic-1-0")]},
            "taskeval_tydiqa_goldp_ru: sample doc_id 3: expected a doc with an 'id' of russian (as "
            "russian-…), got 'arabic-1-0'",
        ),
        ({"taskeval_tydiqa_goldp_ar": [["x"]]}, "expected a JSON object, got ['x']"),
        (
            {"taskeval_tydiqa_goldp_ar": [{**_sample(0, "arabic-1-0"), "doc_id": "0"}]},
            "sample doc_id '0': expected an int 'doc_id'",
        ),
        (
            {"taskeval_tydiqa_goldp_ar": [{**_sample(0, "arabic-1-0"), "filtered_resps": []}]},
            "(id arabic-1-0): expected 'filtered_resps' holding the generation",
        ),
        (
            {"taskeval_tydiqa_goldp_ar": [{**_sample(0, "arabic-1-0"), "filtered_resps": [1]}]},
            "expected 'filtered_resps' holding the generation (a list whose first item is a "
            "string), got [1]",
        ),
        (
            {
                "taskeval_tydiqa_goldp_ar": [
                    {**_sample(0, "arabic-1-0"), "doc": {"id": "arabic-1-0"}}
                ]
            },
            "(id arabic-1-0): expected 'answers' with at least one gold answer text",
        ),
        (
            {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0", golds=())]},
            "expected 'answers' with at least one gold answer text",
        ),
        (
            {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0", golds=("x", 1))]},
            "a Hub secondary_task row), got {'text': ['x', 1], 'answer_start': [0]}",
        ),
    ],
)
def test_malformed_samples_are_refused_by_task_and_doc(samples, message):
    with pytest.raises(ValueError) as info:
        inputs_from_samples(samples)
    assert message in str(info.value)


def _write_run(folder: Path, samples: dict, time: str = "2026-11-29T04-38-34.123456") -> Path:
    model = folder / "model__name"
    model.mkdir(parents=True, exist_ok=True)
    for task, rows in samples.items():
        lines = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        (model / f"samples_{task}_{time}.jsonl").write_text(lines, encoding="utf-8")
    (model / f"results_{time}.json").write_text("{}", encoding="utf-8")
    return folder


def test_a_run_folder_or_file_is_read(tmp_path):
    samples = {
        "taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0", "x")],
        "taskeval_tydiqa_goldp_en": [_sample(0, "english-1-0", "y")],
        "other_task": [{"doc_id": 0}],  # another task of the run: left alone
    }
    run = _write_run(tmp_path / "a", samples)
    (run / "model__name" / "other.jsonl").write_text("not read\n", encoding="utf-8")
    (file,) = run.rglob("samples_taskeval_tydiqa_goldp_en_*.jsonl")
    file.write_text("\n" + file.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # blank lines
    inputs = lm_eval_logs.read_run("tydiqa_goldp", run)
    assert [row["id"] for row in inputs["references"]] == ["english-1-0", "arabic-1-0"]
    (file,) = run.rglob("samples_taskeval_tydiqa_goldp_ar_*.jsonl")
    assert lm_eval_logs.read_run("tydiqa_goldp", file)["predictions"] == [
        {"id": "arabic-1-0", "prediction_text": "x"}
    ]


def test_what_is_not_one_run_of_known_tasks_is_refused(tmp_path):
    def refusal(path: Path, name: str = "tydiqa_goldp") -> str:
        with pytest.raises(ValueError) as info:
            lm_eval_logs.read_run(name, path)
        return str(info.value)

    assert "no such file or folder" in refusal(tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no samples of a task tydiqa_goldp reads" in refusal(empty)
    assert "taskeval's tasks: taskeval_tydiqa_goldp, taskeval_tydiqa_goldp_en)" in refusal(empty)
    other = tmp_path / "other.jsonl"
    other.write_text("{}\n", encoding="utf-8")
    assert "not a harness samples file (samples_<task>_<time>.jsonl" in refusal(other)
    twice = _write_run(tmp_path / "twice", {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0")]})
    _write_run(
        twice, {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0")]}, "2026-11-30T01-00-00"
    )
    assert "holds 2 runs' samples of taskeval_tydiqa_goldp_ar" in refusal(twice)
    bad = _write_run(tmp_path / "bad", {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0")]})
    (file,) = bad.rglob("*.jsonl")
    file.write_text(file.read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
    assert f"{file}, line 2: not JSON" in refusal(bad)
    file.write_text("[1]\n", encoding="utf-8")
    assert f"{file}, line 1: expected a JSON object per line" in refusal(bad)
    file.write_bytes(b"\xff\n")
    assert f"{file}: not UTF-8" in refusal(bad)
    wrong = _write_run(
        tmp_path / "wrong", {"taskeval_tydiqa_goldp_ar": [_sample(0, "bengali-1-0")]}
    )
    assert refusal(wrong).startswith(f"{wrong}: taskeval_tydiqa_goldp_ar: sample doc_id 0")
    assert refusal(wrong, "fever_score") == (
        "fever_score has no lm-evaluation-harness tasks whose logs taskeval reads (metrics that "
        "have: tydiqa_goldp)"
    )


def test_compare_needs_the_same_questions_in_every_run(tmp_path):
    a = _write_run(tmp_path / "a", {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0")]})
    b = _write_run(tmp_path / "b", {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-2-0")]})
    with pytest.raises(ValueError, match=r"predict other rows .*'arabic-1-0'.* only in a"):
        lm_eval_logs.compare_runs("tydiqa_goldp", [a, b], names=["a", "b"], resamples=10)
    # without names, the runs are named by their paths
    with pytest.raises(ValueError, match=r"system 1 \(b\) and a predict other rows"):
        lm_eval_logs.compare_runs("tydiqa_goldp", [a, b], resamples=10)


def test_the_command_line(tmp_path, capsys):
    a = _write_run(tmp_path / "a", {"taskeval_tydiqa_goldp_ar": [_sample(0, "arabic-1-0")]})

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    code, _, err = run(
        "compare", "tydiqa_goldp", "--lm-eval-logs", str(a), str(a), "--predictions", "p"
    )
    assert code == 2 and "--lm-eval-logs stands for --references and --predictions" in err
    code, _, err = run("compare", "tydiqa_goldp")
    assert code == 2 and "give --predictions (and --references), or --lm-eval-logs" in err
    code, _, err = run("compare", "tydiqa_goldp", "--predictions", "p")
    assert code == 2 and "required: --references" in err
    code, _, err = run("compare", "tydiqa_goldp", "--lm-eval-logs", str(a), "--names", "x", "y")
    assert code == 2 and "2 names for 1 runs" in err
    code, _, err = run("compare", "tydiqa_goldp", "--lm-eval-logs", str(a), str(a), "--names", "x")
    assert code == 2 and "1 names for 2 runs" in err
    code, _, err = run("compare", "tydiqa_goldp", "--references", "r", "--predictions", "p",
                       "--names", "x", "y")  # fmt: skip
    assert code == 2 and "2 names for 1 prediction files" in err
    code, out, _ = run("compare", "tydiqa_goldp", "--lm-eval-logs", str(a), str(a),
                       "--names", "x", "y", "--resamples", "20", "--table")  # fmt: skip
    assert code == 0 and not out.startswith("{") and "x" in out and "y" in out
    code, out, _ = run("compare", "tydiqa_goldp", "--lm-eval-logs", str(a), "--resamples", "20")
    assert code == 0 and json.loads(out)["systems"][0]["official"]["f1"] == 100.0
    # one metric at a time: compare of several metrics reads files only
    code, _, err = run("compare", "tydiqa_goldp,tydiqa", "--references", "r", "--predictions",
                       "p", "--lm-eval-logs", str(a))  # fmt: skip
    assert code == 2 and "unrecognized arguments: --lm-eval-logs" in err
    code, _, err = run("compare", "tydiqa_goldp", "--lm-eval-logs", str(tmp_path / "none"))
    assert code == 1 and "no such file or folder" in err
    code, _, err = run("compare", "fever_score", "--predictions", "p", "--lm-eval-logs", str(a))
    assert code == 2 and "unrecognized arguments: --lm-eval-logs" in err
    code, out, _ = run("lm-eval-tasks")
    assert code == 0 and out == lm_eval_logs.include_path() + "\n"
    code, out, _ = run("lm-eval-tasks", "--list")
    assert code == 0 and "tydiqa_goldp: taskeval_tydiqa_goldp,taskeval_tydiqa_goldp_en\n" in out


def test_a_malformed_lm_eval_part_breaks_the_contract(tmp_path):
    import shutil

    folder = tmp_path / "tydiqa_goldp"
    shutil.copytree(
        metric_dir("tydiqa_goldp"), folder, ignore=shutil.ignore_patterns("__pycache__")
    )
    source = (folder / "contract.py").read_text(encoding="utf-8")
    broken = source.replace("read=inputs_from_samples,", "read=None,").replace(
        '"lm_eval_tasks",\n        [GROUP', '"",\n        [GROUP'
    )
    assert broken.count("read=None") == 1 and '"",\n        [GROUP' in broken
    (folder / "contract.py").write_text(broken, encoding="utf-8")
    with pytest.raises(ContractError) as info:
        check_folder(folder)
    assert "CONTRACT.lm_eval.read must be a function, got None" in str(info.value)
    assert "CONTRACT.lm_eval.folder must be a non-empty text" in str(info.value)
