"""``ehealthkd`` with ``edition=2021``: the hand-made BRAT cases of ``brat_cases`` written as the
2021 files (``output.txt`` and ``output.ann``), each scored as the official 2021 ``score.py``
(ehealthkd/corpora, ``main_scenario``) scores it in scenarios 1 to 3; the expected values below
are its output on the very files these tests write. 2021 scores by 2020's rules with a forgiving
reader (what it drops, 2020 refuses) and reports no relation counts in scenario 2.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics.ehealthkd.inputs import read_official

from .brat_cases import (
    CASES,
    EXPECTED_2021,
    FORGIVEN_EDITS,
    KEYS,
    ORDER,
    build,
    forgiven,
    same,
    score_tree,
    write_scenario,
)

FOLDERS = ("scenario1-main", "scenario2-taskA", "scenario3-taskB")
SCENARIOS = ("scenario1", "scenario2", "scenario3")
TXT = "output.txt"


def expected(case: str, scenario: str) -> dict:
    return dict(zip(KEYS, EXPECTED_2021[case][SCENARIOS.index(scenario)]))


def _score(root: Path, case: dict, **options) -> dict:
    return score_tree(root, case, 2021, **options)


@pytest.mark.parametrize("edit", [None, *FORGIVEN_EDITS])
def test_what_the_2021_reader_forgives_is_dropped_with_a_warning(tmp_path, edit):
    # The official 2021 numbers on each edit (and on all of them) are LABELS' own: what it
    # forgives adds nothing. The 2020 reader refuses the same files.
    case = forgiven(*([edit] if edit else []))
    gold, run = build(tmp_path, case, TXT, FOLDERS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = taskeval.score_files("ehealthkd", references=gold, predictions=run, edition=2021)
    for scenario in SCENARIOS:
        assert same(scores[scenario], expected("labels", scenario)), (scenario, scores[scenario])
    said = " | ".join(str(w.message) for w in caught)
    if edit in ("past the last sentence", "an unknown id", "across sentences"):
        assert "dropped, as the official 2021 reader drops it" in said
    brat2020 = tmp_path / "2020"
    gold, run = build(brat2020, case)
    with pytest.raises(ValueError, match=r"official 2020 reader fails here|past the last sentence"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            taskeval.score_files("ehealthkd", references=gold, predictions=run, edition=2020)


def test_scenario_2_reports_no_relation_counts_unlike_2020(tmp_path):
    rows = {}
    gold, run = build(tmp_path, CASES["labels"], TXT, FOLDERS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = read_official(gold / FOLDERS[1], run / FOLDERS[1])
    metric = taskeval.load("ehealthkd", "scenario2")
    assert metric.compute(**rows, edition=2021)["correct_B"] == 0
    assert metric.compute(**rows, edition=2020)["correct_B"] == 3


def test_scenario4_is_not_a_2021_scenario(tmp_path):
    with pytest.raises(ValueError, match="scenario4 needs edition 2020"):
        _score(tmp_path, ORDER, scenario="scenario4")


def _runs(top: Path, names: list[str], case: dict) -> None:
    for name in names:
        for folder in FOLDERS:
            write_scenario(top / name / folder, case["sub_text"], case["sub_ann"], TXT)


def test_runs_of_the_gold_split_are_scored_by_path(tmp_path):
    # The organisers' layout: eval/<split>/scenarioN-*/output.txt and
    # submissions/<team>/<split>/runN/...; runs of the other splits are left out.
    gold = tmp_path / "eval" / "testing"
    for folder in FOLDERS:
        write_scenario(gold / folder, ORDER["gold_text"], ORDER["gold_ann"], TXT)
    subs = tmp_path / "submissions"
    _runs(subs, ["team/testing/run1", "team/testing/run2", "team/develop/run1"], ORDER)
    _runs(subs, ["other/testing/run1"], CASES["alignment"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = taskeval.score_files("ehealthkd", references=gold, predictions=subs, edition=2021)
    assert list(scores) == ["other/testing/run1", "team/testing/run1", "team/testing/run2"]
    for scenario in SCENARIOS:
        assert same(scores["team/testing/run2"][scenario], expected("order", scenario))


def test_a_run_without_a_scenario_is_refused_as_the_official_script_stops(tmp_path):
    gold, run = build(tmp_path, ORDER, TXT, FOLDERS)
    for name in ("output.txt", "output.ann"):
        (run / FOLDERS[1] / name).unlink()
    with pytest.raises(ValueError, match=r"no run .*output.txt for scenario2.*--scenario N"):
        taskeval.score_files("ehealthkd", references=gold, predictions=run, edition=2021)
    scores = _score(tmp_path / "b", ORDER, scenario="scenario3")
    assert list(scores) == ["scenario3"]


def test_cli_edition_2021(tmp_path, capsys):
    from taskeval.cli import main

    gold, run = build(tmp_path, CASES["alignment"], TXT, FOLDERS)
    args = ["score", "ehealthkd", "--edition", "2021"]
    args += ["--references", str(gold), "--predictions", str(run)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    for scenario in SCENARIOS:
        assert same(printed[scenario], expected("alignment", scenario))


def test_2021_folders_scored_as_2019_say_which_edition_they_need(tmp_path):
    gold, run = build(tmp_path, ORDER, TXT, FOLDERS)
    with pytest.raises(ValueError, match=r"laid out as in 2021: score it with --edition 2021"):
        taskeval.score_files(
            "ehealthkd", references=gold / FOLDERS[0], predictions=run / FOLDERS[0]
        )


def test_best_is_the_last_run_as_the_official_script_reports_it(tmp_path, capsys):
    # The official score.py's report on these runs: scenarioN_best:run2 with run2's scores
    # (all 0.0), although run1 scores higher; its comparison of F1s does nothing.
    from taskeval.cli import main

    gold = tmp_path / "gold"
    for folder in FOLDERS:
        write_scenario(gold / folder, ORDER["gold_text"], ORDER["gold_ann"], TXT)
    _runs(tmp_path / "team", ["run1"], ORDER)
    _runs(tmp_path / "team", ["run2"], CASES["alignment"])
    args = ["score", "ehealthkd", "--edition", "2021", "--references", str(gold)]
    args += ["--predictions", str(tmp_path / "team"), "--best"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(printed) == ["run2"] and list(printed["run2"]) == list(SCENARIOS)
    for scores in printed["run2"].values():
        assert (scores["precision"], scores["recall"], scores["f1"]) == (0.0, 0.0, 0.0)


def test_compare_reports_the_official_values_of_each_run(tmp_path, capsys):
    from taskeval.cli import main

    gold, run = build(tmp_path, CASES["labels"], TXT, FOLDERS)
    other = tmp_path / "other"
    _runs(other, ["run1"], forgiven())
    args = ["compare", "ehealthkd", "--edition", "2021", "--scenario", "2", "--resamples", "50"]
    args += ["--references", str(gold), "--predictions", str(run), str(other / "run1")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)["scenario2"]
    assert printed["options"] == {"edition": 2021}
    for system in printed["systems"]:
        assert same(system["official"], expected("labels", "scenario2"))


def test_one_scenario_folder_on_a_side(tmp_path):
    gold, run = build(tmp_path, ORDER, TXT, FOLDERS)
    quiet = dict(edition=2021)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = taskeval.score_files(
            "ehealthkd", references=gold / FOLDERS[1], predictions=run, **quiet
        )
        also = taskeval.score_files(
            "ehealthkd", references=gold, predictions=run / FOLDERS[2], **quiet
        )
    assert list(one) == ["scenario2"] and same(one["scenario2"], expected("order", "scenario2"))
    assert list(also) == ["scenario3"] and same(also["scenario3"], expected("order", "scenario3"))
    # Folders whose names tell nothing: --scenario says which.
    plain_gold, plain_run = tmp_path / "g", tmp_path / "r"
    write_scenario(plain_gold, ORDER["gold_text"], ORDER["gold_ann"], TXT)
    write_scenario(plain_run, ORDER["sub_text"], ORDER["sub_ann"], TXT)
    with pytest.raises(ValueError, match="neither the folders' names nor --scenario tell"):
        taskeval.score_files("ehealthkd", references=plain_gold, predictions=plain_run, **quiet)
    with pytest.raises(ValueError, match="neither the folders' names nor --scenario tell"):
        taskeval.score_files("ehealthkd", references=plain_gold, predictions=run, **quiet)
    chosen = taskeval.score_files(
        "ehealthkd", references=plain_gold, predictions=run, scenario="scenario3", **quiet
    )
    assert list(chosen) == ["scenario3"] and same(
        chosen["scenario3"], expected("order", "scenario3")
    )
    named = taskeval.score_files(
        "ehealthkd", references=plain_gold, predictions=run / FOLDERS[0], **quiet
    )
    assert list(named) == ["scenario1"] and same(named["scenario1"], expected("order", "scenario1"))
    with pytest.raises(ValueError, match="gold folder holds scenario3, the run folder scenario1"):
        taskeval.score_files(
            "ehealthkd", references=gold / FOLDERS[2], predictions=run / FOLDERS[0], **quiet
        )
    with pytest.raises(ValueError, match="the run has no scenario3 folder"):
        taskeval.score_files(
            "ehealthkd",
            references=gold / FOLDERS[2],
            predictions=run / FOLDERS[0],
            scenario="scenario3",
            **quiet,
        )
    with pytest.raises(ValueError, match="the gold has no scenario1 folder"):
        taskeval.score_files(
            "ehealthkd",
            references=gold / FOLDERS[2],
            predictions=plain_run,
            scenario="scenario1",
            **quiet,
        )


def test_a_relation_across_sentences_is_named_with_its_sentences(tmp_path):
    gold, run = build(tmp_path, forgiven("across sentences"), TXT, FOLDERS[:1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        taskeval.score_files("ehealthkd", references=gold, predictions=run, edition=2021)
    said = " | ".join(str(w.message) for w in caught)
    assert "the relation 'causes' from T1 (sentence 1) to T4 (sentence 2) crosses" in said
