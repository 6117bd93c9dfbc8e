"""``ehealthkd`` with ``edition=2020``: small hand-made BRAT cases, each scored as the official
2020 evaluation (knowledge-learning/ehealthkd-2020, ``scripts/evaltest.py``'s
``evaluate_scenario``) scores it in scenarios 1 to 4; the expected values below are its output on
the very files these tests write. Each case isolates one rule in which 2020 differs from 2019.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics.ehealthkd.inputs import read_official

from .brat_cases import (
    ALIGNMENT,
    FOLDERS,
    LABELS,
    ORDER,
    PARTIAL,
    SCENARIOS,
    SUB_TEXTS,
    build,
    expected,
    same,
    score_tree,
    starts,
    write_scenario,
)


def _score(tmp_path: Path, case: dict, scenario: str | None = None) -> dict:
    return score_tree(tmp_path, case, 2020, scenario=scenario)


def test_the_option_picks_the_rules(tmp_path):
    # The same rows by the 2019 rules: the Predicate overlapping the gold Action is partial.
    gold, run = build(tmp_path, PARTIAL)
    rows = read_official(gold / FOLDERS[0], run / FOLDERS[0])
    metric = taskeval.load("ehealthkd")
    assert metric.compute(**rows)["partial_A"] == 2
    assert metric.compute(**rows, edition=2020)["partial_A"] == 1


def _row(text: str, keyphrases=(), relations=()) -> dict:
    return {
        "text": text,
        "keyphrases": [{"id": i, "label": lab, "spans": sp} for i, lab, sp in keyphrases],
        "relations": [{"label": lab, "source": a, "target": b} for lab, a, b in relations],
    }


def test_rows_are_aligned_by_normalised_text():
    # Gold: two annotated sentences and an unannotated one between. The predictions lack the
    # first (its gold is missing), annotate the unannotated one (skipped, so not spurious),
    # write the third in other case and punctuation, and end with a sentence of their own
    # (ignored, with a warning).
    refs = [
        _row("Uno dos.", [(1, "Concept", [[0, 3]])]),
        _row("Nada."),
        _row("Tres cuatro.", [(2, "Concept", [[0, 4]])]),
    ]
    preds = [
        _row("Nada.", [(6, "Concept", [[0, 4]])]),
        _row("tres, CUATRO", [(7, "Concept", [[0, 4]])]),
        _row("Otra.", [(8, "Concept", [[0, 4]])]),
    ]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = taskeval.load("ehealthkd").compute(
            predictions=preds, references=refs, edition=2020
        )
    said = " | ".join(str(w.message) for w in caught)
    assert "1 reference sentence(s) have no prediction" in said and "1 prediction(s) left" in said
    assert (scores["correct_A"], scores["missing_A"], scores["spurious_A"]) == (1, 1, 0)


def test_relation_labels_are_compared_as_written():
    ref = _row("a b", [(1, "Concept", [[0, 1]]), (2, "Concept", [[2, 3]])], [("is-a", 1, 2)])
    pred = _row("a b", [(1, "Concept", [[0, 1]]), (2, "Concept", [[2, 3]])], [("IS-A", 1, 2)])
    metric = taskeval.load("ehealthkd")
    assert metric.compute(predictions=[pred], references=[ref])["correct_B"] == 1
    scores = metric.compute(predictions=[pred], references=[ref], edition=2020)
    assert (scores["correct_B"], scores["spurious_B"], scores["missing_B"]) == (0, 1, 1)


def test_a_zero_denominator_is_the_float_zero():
    ref = _row("a b", [(1, "Concept", [[0, 1]])])
    metric = taskeval.load("ehealthkd", "scenario3")
    old = metric.compute(predictions=[ref], references=[ref])
    new = metric.compute(predictions=[ref], references=[ref], edition=2020)
    assert [type(old[k]) for k in ("precision", "recall", "f1")] == [int] * 3
    assert [type(new[k]) for k in ("precision", "recall", "f1")] == [float] * 3


@pytest.mark.parametrize("edition", ["2020", True, 2022, 2020.0])
def test_an_unknown_edition_is_refused(edition):
    ref = _row("a", [(1, "Concept", [[0, 1]])])
    with pytest.raises(ValueError, match="edition must be one of 2019, 2020, 2021, got"):
        taskeval.load("ehealthkd").compute(predictions=[ref], references=[ref], edition=edition)


def test_scenario4_needs_the_2020_edition():
    ref = _row("a", [(1, "Concept", [[0, 1]])])
    metric = taskeval.load("ehealthkd", "scenario4")
    with pytest.raises(ValueError, match="scenario4 needs edition 2020"):
        metric.compute(predictions=[ref], references=[ref])
    assert metric.compute(predictions=[ref], references=[ref], edition=2020)["f1"] == 1.0


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("R9\tcauses Arg1:T1 Arg2:T4\n", r"from T1 \(sentence 1\) to T4 \(sentence 2\) crosses"),
        ("R9\tcauses Arg1:T4 Arg2:T1\n", r"from T4 \(sentence 2\) to T1 \(sentence 1\) crosses"),
        ("\n", "unknown annotation line"),
        ("X9\tConcept 0 2\tEl\n", "unknown annotation line"),
        ("S9\tcauses Arg1:T1 Arg2:T3\n", "unknown annotation line"),
        ("F9\tAction:T2 Subject:T1\n", "unknown annotation line"),
        ("B9\tNegated T1\n", "unknown annotation line"),
        ("T9\tConcept 0 2 4\tasma\n", "each span must be 'START END' of ints"),
        ("T9\tConcept 0\tasma\n", "each span must be 'START END' of ints"),
        ("Tx\tConcept 0 2\tEl\n", "a key-phrase id must be T<int>"),
        ("R9\tcauses Arg1:T1 Arg2:T3 x\n", "expected R<n><TAB>LABEL Arg1:ID Arg2:ID"),
        ("R9\tcauses Arg1:T1 T3\n", "expected R<n><TAB>LABEL Arg1:ID Arg2:ID"),
        ("E9\tAction:T2:x Subject:T1\n", "expected E<n><TAB>TYPE:ID ROLE:ID"),
        ("E9\tAction Subject:T1\n", "expected E<n><TAB>TYPE:ID ROLE:ID"),
        ("E9\tAction:T2 Subject\n", "expected E<n><TAB>TYPE:ID ROLE:ID"),
        ("A9\tNegated T1 x\n", "expected A<n><TAB>NAME ID"),
        ("R9\tcauses Arg1:T1 Arg2:T99\n", "'T99' is not the id of a key phrase"),
        ("T9\tConcept 0 x\tasma\n", "each span must be 'START END' of ints"),
        ("E9 Action:T2\n", "expected E<n><TAB>TYPE:ID ROLE:ID"),
        ("E9\tAction:T2 Subject:T1\tx\n", "expected E<n><TAB>TYPE:ID ROLE:ID"),
        ("A9\tNegated\n", "expected A<n><TAB>NAME ID"),
        ("A9\tNegated T77\n", "the attribute's key phrase is not in the file"),
        ("E9\tAction:T77 Subject:T1\n", "the event's trigger 'T77' is not a key phrase"),
    ],
)
def test_what_the_official_reader_fails_on_is_refused(tmp_path, line, problem):
    case = dict(LABELS, sub_ann=LABELS["sub_ann"] + line)
    with pytest.raises(ValueError, match=problem):
        _score(tmp_path, case, "scenario1")


def test_a_run_without_a_scenario_file_is_scored_on_the_others(tmp_path):
    gold, run = build(tmp_path, ORDER)
    for name in ("scenario.txt", "scenario.ann"):
        (run / FOLDERS[1] / name).unlink()
    with pytest.warns(UserWarning, match="scenario2 not scored"):
        scores = taskeval.score_files("ehealthkd", references=gold, predictions=run, edition=2020)
    assert list(scores) == ["scenario1", "scenario3", "scenario4"]


def test_cli_edition_option(tmp_path, capsys):
    from taskeval.cli import main

    gold, run = build(tmp_path, ALIGNMENT)
    args = ["score", "ehealthkd", "--references", str(gold), "--predictions", str(run)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main([*args, "--edition", "2020", "--scenario", "4"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert same(printed["scenario4"], expected("alignment", "scenario4"))


def test_2020_folders_scored_as_2019_say_which_edition_they_need(tmp_path):
    gold, run = build(tmp_path, ORDER)
    with pytest.raises(ValueError, match=r"2020 layout.*--edition 2020"):
        taskeval.score_files("ehealthkd", references=gold, predictions=run)


def test_the_gold_layout_stands_for_the_official_mode(tmp_path):
    # --mode dev: development/main for scenarios 1 to 3, development/transfer for 4; --mode
    # train: training for 1 to 3 only. Runs under a folder of another mode are left out.
    top = tmp_path / "submissions" / "team"
    for mode in ("test", "dev", "train"):
        for name in FOLDERS:
            case = ALIGNMENT if name == FOLDERS[3] else ORDER
            write_scenario(top / mode / "run1" / name, case["sub_text"], case["sub_ann"])
    for folder in ("development/main", "training"):
        write_scenario(tmp_path / folder, ORDER["gold_text"], ORDER["gold_ann"])
    write_scenario(tmp_path / "development/transfer", ALIGNMENT["gold_text"], ALIGNMENT["gold_ann"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dev = taskeval.score_files(
            "ehealthkd",
            references=tmp_path / "development",
            predictions=tmp_path / "submissions",
            edition=2020,
        )
        train = taskeval.score_files(
            "ehealthkd",
            references=tmp_path / "training",
            predictions=tmp_path / "submissions",
            edition=2020,
        )
        transfer = taskeval.score_files(
            "ehealthkd",
            references=tmp_path / "development" / "transfer",
            predictions=top / "dev" / "run1",
            edition=2020,
        )
    assert list(transfer) == ["scenario4"]
    assert same(transfer["scenario4"], expected("alignment", "scenario4"))
    assert list(dev) == ["team/dev/run1"] and list(train) == ["team/train/run1"]
    assert list(dev["team/dev/run1"]) == list(SCENARIOS)
    assert list(train["team/train/run1"]) == list(SCENARIOS[:3])
    for scenario, scores in dev["team/dev/run1"].items():
        case = "alignment" if scenario == "scenario4" else "order"
        assert same(scores, expected(case, scenario))


def _bad_phrase(texts: list[str], k: int) -> str:
    """A single span from sentence ``k``'s start to 3 characters past its end: it cannot be
    split into words (the official tool scores it silently, on a cut text)."""
    start = starts(texts)[k]
    return f"T90\tConcept {start} {start + len(texts[k]) + 3}\tx\n"


def test_an_unscorable_span_counts_only_where_its_sentence_is_scored(tmp_path):
    # In the sentence of the unannotated gold, never scored: the official numbers.
    unscored = dict(ALIGNMENT, sub_ann=ALIGNMENT["sub_ann"] + _bad_phrase(SUB_TEXTS, 1))
    for scenario, scores in _score(tmp_path / "a", unscored).items():
        assert same(scores, expected("alignment", scenario))
    # In a scored sentence: refused, naming the line.
    scored = dict(ALIGNMENT, sub_ann=ALIGNMENT["sub_ann"] + _bad_phrase(SUB_TEXTS, 0))
    with pytest.raises(ValueError, match=r"line 7: .*ends past the end of the sentence"):
        _score(tmp_path / "b", scored)


def test_scenario_4_of_2019_files_says_it_needs_the_2020_edition(tmp_path, capsys):
    from taskeval.cli import main

    gold, run = tmp_path / "gold" / "scenario1-main", tmp_path / "run" / "scenario1-main"
    for folder, name in ((gold, "input_scenario1.txt"), (run, "output_scenario1.txt")):
        folder.mkdir(parents=True)
        (folder / name).write_text("a b\n", encoding="utf-8")
        (folder / "output_a_scenario1.txt").write_text("1\t0 1\tConcept\ta\n", encoding="utf-8")
        (folder / "output_b_scenario1.txt").write_text("", encoding="utf-8")
    args = ["score", "ehealthkd", "--references", str(gold), "--predictions", str(run)]
    assert main([*args, "--scenario", "4"]) == 1
    assert "scenario4 needs edition 2020" in capsys.readouterr().err


def test_one_scenario_folder_on_a_side(tmp_path):
    gold, run = build(tmp_path, ORDER)
    # A named run folder against the gold tree: that scenario only.
    one = score_files_quietly(gold, run / FOLDERS[1])
    assert list(one) == ["scenario2"] and same(one["scenario2"], expected("order", "scenario2"))
    # Folders whose names tell nothing: the single gold's scenario, or --scenario.
    plain_gold, plain_run = tmp_path / "g", tmp_path / "r"
    write_scenario(plain_gold, ORDER["gold_text"], ORDER["gold_ann"])
    write_scenario(plain_run, ORDER["sub_text"], ORDER["sub_ann"])
    named = score_files_quietly(gold / FOLDERS[2], plain_run)
    assert list(named) == ["scenario3"]
    with pytest.raises(ValueError, match="neither its name nor the gold's tells which scenario"):
        score_files_quietly(gold, plain_run)
    chosen = score_files_quietly(gold, plain_run, scenario="scenario3")
    assert list(chosen) == ["scenario3"] and same(
        chosen["scenario3"], expected("order", "scenario3")
    )
    # A run folder of one scenario the gold does not score is refused; in a tree, left out.
    write_scenario(tmp_path / "training", ORDER["gold_text"], ORDER["gold_ann"])
    with pytest.raises(ValueError, match="no gold for scenario4"):
        score_files_quietly(tmp_path / "training", run / FOLDERS[3])
    assert list(score_files_quietly(tmp_path / "training", run)) == list(SCENARIOS[:3])


def score_files_quietly(references: Path, predictions: Path, **options) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return taskeval.score_files(
            "ehealthkd", references=references, predictions=predictions, edition=2020, **options
        )
