"""ehealthkd: rules the parity cases do not pin, official-file reader errors, Hub rows."""

from __future__ import annotations

import gc
import importlib
import json
import shutil
import sys
import warnings
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics.ehealthkd.inputs import (
    read_official,
    read_scenario,
    read_sentences,
    references_from_hub,
    scenario_pairs,
    score_files,
    submissions,
)
from taskeval._metrics.ehealthkd.scoring import ehealthkd, split_words
from taskeval.registry import metric_module

PARITY = Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "ehealthkd"
needs_corpus = pytest.mark.skipif(not PARITY.is_dir(), reason="parity corpus absent")

TEXT = "El tipo de cáncer afecta a las vías respiratorias ."
GOLD_A = "1\t3 7\tConcept\ttipo\n2\t11 17\tConcept\tcáncer\n3\t18 24\tAction\tafecta\n4\t31 35;36 49\tConcept\tvías respiratorias\n"
GOLD_B = "subject\t3\t2\ntarget\t3\t4\n"
SCENARIOS = ("scenario1-main", "scenario2-taskA", "scenario3-taskB")


def _manifest() -> list[dict]:
    return json.loads((PARITY / "manifest.json").read_text(encoding="utf-8"))["cases"]


# --------------------------------------------------------------------------------------------
# Official numbers, with the official int-or-float types


@needs_corpus
def test_every_case_gives_the_official_json_with_its_types():
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case in _manifest():
            gold, submission = PARITY / case["gold"], PARITY / case["submission"]
            if case["outcome"] != "expected":
                with pytest.raises(ValueError):
                    score_files(gold, submission)
                continue
            expected = json.loads((PARITY / case["result"]).read_text(encoding="utf-8"))
            actual = score_files(gold, submission)
            # json.dumps tells the int 0 (zero denominator) from the float 0.0.
            assert json.dumps(actual, sort_keys=True) == json.dumps(expected, sort_keys=True), case[
                "name"
            ]
            checked += 1
    assert checked == 61


@needs_corpus
@pytest.mark.parametrize(
    "name,folder",
    [
        ("p11_empty_submission", "scenario1-main"),
        ("p12_unannotated_gold_sentence", "scenario2-taskA"),
        ("p48_zero_division_mix", "scenario1-main"),
    ],
)
def test_compute_keeps_the_int_zero(name, folder):
    case = PARITY / "cases" / name
    scenario = folder.split("-")[0]
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))[scenario]
    metric = taskeval.load("ehealthkd", scenario)
    inputs = taskeval.read_official(
        "ehealthkd", references=case / "gold" / folder, predictions=case / "submission" / folder
    )
    result = metric.compute(**inputs)
    assert json.dumps(result, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_unknown_config_is_refused():
    # scenario4 is a config since the 2020 edition (refused when scoring 2019, see
    # tests/entries/ehealthkd/test_edition_2020.py); a scenario no edition has is refused on loading.
    with pytest.raises(ValueError, match="scenario1, scenario2, scenario3, scenario4"):
        taskeval.load("ehealthkd", "scenario5")


# --------------------------------------------------------------------------------------------
# Rules on records (compute inputs)


def _row(keyphrases, relations=(), text=TEXT) -> dict:
    return {
        "text": text,
        "keyphrases": [{"id": i, "label": lab, "spans": sp} for i, lab, sp in keyphrases],
        "relations": [{"label": lab, "source": s, "target": t} for lab, s, t in relations],
    }


GOLD = _row(
    [(1, "Concept", [[3, 7]]), (2, "Concept", [[11, 17]]), (3, "Action", [[18, 24]]),
     (4, "Concept", [[31, 35], [36, 49]])],
    [("subject", 3, 2), ("target", 3, 4)],
)  # fmt: skip


def _counts(pred, gold=GOLD, scenario="scenario1") -> dict:
    result = ehealthkd([pred], [gold], scenario)
    return {k: v for k, v in result.items() if v and k not in ("precision", "recall", "f1")}


def test_a_single_span_is_split_at_spaces_but_several_pairs_are_not():
    assert _counts(_row([(4, "Concept", [[31, 49]])])) == {
        "correct_A": 1,
        "missing_A": 3,
        "missing_B": 2,
    }
    # "tipo de" + "cáncer" as two pairs is not re-split: partial with "tipo" (first in gold).
    assert _counts(_row([(1, "Concept", [[3, 10], [11, 17]])]))["partial_A"] == 1


def test_consecutive_spaces_give_an_empty_pair():
    gold = _row([(1, "Concept", [[0, 1], [2, 2], [3, 4]])], text="a  b")
    assert _counts(_row([(1, "Concept", [[0, 4]])], text="a  b"), gold) == {"correct_A": 1}


def test_records_keep_their_pair_order():
    # The official reader sorts pairs (except in a file's first sentence); records are taken
    # as given, so out-of-order pairs only overlap.
    pred = _row([(4, "Concept", [[36, 49], [31, 35]])])
    assert _counts(pred)["partial_A"] == 1


def test_relation_labels_are_lower_cased_and_same_as_is_symmetric():
    gold = _row([(1, "Concept", [[0, 2]]), (2, "Concept", [[3, 7]])], [("same-as", 1, 2)])
    pred = _row([(1, "Concept", [[0, 2]]), (2, "Concept", [[3, 7]])], [("SAME-AS", 2, 1)])
    assert _counts(pred, gold) == {"correct_A": 2, "correct_B": 1}


def test_same_as_chain_makes_one_class():
    phrases = [(i, "Concept", [[s, s + 1]]) for i, s in ((1, 0), (2, 3), (3, 8), (4, 12))]
    text = "a b  xc d e f"
    gold = _row(phrases, [("same-as", 1, 2), ("same-as", 2, 3), ("is-a", 1, 4)], text)
    pred = _row(phrases, [("is-a", 3, 4), ("same-as", 1, 3)], text)
    assert _counts(pred, gold) == {"correct_A": 4, "correct_B": 2, "missing_B": 1}


def test_duplicate_relations_count_once_on_both_sides():
    gold = dict(GOLD, relations=GOLD["relations"] * 2)
    pred = dict(GOLD, relations=GOLD["relations"] * 3)
    assert _counts(pred, gold) == {"correct_A": 4, "correct_B": 2}


def test_relation_endpoints_map_only_through_correct_or_partial_matches():
    pred = _row(
        [(1, "Concept", [[3, 7]]), (2, "Action", [[11, 17]]), (3, "Action", [[18, 24]]),
         (4, "Concept", [[36, 49]])],
        [("subject", 3, 2), ("target", 3, 4)],
    )  # fmt: skip
    assert _counts(pred) == {
        "correct_A": 2,
        "incorrect_A": 1,
        "partial_A": 1,
        "correct_B": 1,
        "missing_B": 1,
        "spurious_B": 1,
    }


def test_duplicate_ids_in_a_sentence_use_the_first_phrase():
    pred = _row([(9, "Concept", [[40, 45]]), (9, "Concept", [[3, 7]]), (2, "Concept", [[11, 17]])],
                [("is-a", 9, 2)])  # fmt: skip
    gold = _row([(1, "Concept", [[3, 7]]), (2, "Concept", [[11, 17]])], [("is-a", 1, 2)])
    counts = _counts(pred, gold)
    assert counts["correct_A"] == 2 and counts["spurious_B"] == 1


# Repeated key-phrase ids: the official same-as classes are built over key-phrase objects, and
# a relation end is the first phrase of its sentence with that id. The expected values are the
# official evaltest's output on these sentences written as official files.
def _letters(ids, relations, text="a b c d"):
    """A Concept on each letter of ``text`` with the given ids (None: no phrase there)."""
    phrases = [(i, "Concept", [[2 * k, 2 * k + 1]]) for k, i in enumerate(ids) if i]
    return _row(phrases, relations, text)


def _all_scenarios(pred, gold) -> dict:
    return {s: ehealthkd([pred], [gold], s) for s in ("scenario1", "scenario2", "scenario3")}


def test_a_repeated_gold_id_is_a_class_of_its_own():
    # Gold a=1, b=2, c=1 with same-as 1 2: the class is {a, b}; c (a second 1) is alone.
    gold = _letters([1, 2, 1], [("same-as", 1, 2)], "a b c")
    pred = _letters([10, None, 11], [("same-as", 10, 11)], "a b c")
    assert _all_scenarios(pred, gold) == {
        "scenario1": {
            "correct_A": 2, "incorrect_A": 0, "partial_A": 0, "missing_A": 1, "spurious_A": 0,
            "correct_B": 0, "missing_B": 1, "spurious_B": 1,
            "precision": 0.6666666666666666, "recall": 0.5, "f1": 0.5714285714285715,
        },
        "scenario2": {
            "correct_A": 2, "incorrect_A": 0, "partial_A": 0, "missing_A": 1, "spurious_A": 0,
            "correct_B": 0, "missing_B": 1, "spurious_B": 1,
            "precision": 1.0, "recall": 0.6666666666666666, "f1": 0.8,
        },
        "scenario3": {
            "correct_A": 2, "incorrect_A": 0, "partial_A": 0, "missing_A": 1, "spurious_A": 0,
            "correct_B": 0, "missing_B": 1, "spurious_B": 1,
            "precision": 0.0, "recall": 0.0, "f1": 0,
        },
    }  # fmt: skip


def test_a_relation_to_a_repeated_gold_id_does_not_reach_its_class():
    # Gold a=1, b=2, c=3, d=1; same-as 1 2 puts a and b together, is-a 3 2 goes c -> b. A
    # predicted is-a c -> d maps d to the second phrase with id 1, outside {a, b}: spurious.
    gold = _letters([1, 2, 3, 1], [("same-as", 1, 2), ("is-a", 3, 2)])
    pred = _letters([None, None, 20, 21], [("is-a", 20, 21)])
    result = _all_scenarios(pred, gold)
    assert {s: (r["correct_B"], r["missing_B"], r["spurious_B"]) for s, r in result.items()} == {
        s: (0, 2, 1) for s in result
    }
    assert (result["scenario1"]["precision"], result["scenario1"]["recall"]) == (
        0.6666666666666666,
        0.3333333333333333,
    )
    assert result["scenario1"]["f1"] == 0.4444444444444444


def test_an_exact_match_compares_the_ids_of_the_matched_gold_phrases():
    # The predicted source matches c, the second gold phrase with id 1: is-a 1 2 then matches
    # by ids, although the gold relation's own end is a.
    gold = _letters([1, 2, 1], [("is-a", 1, 2)], "a b c")
    pred = _row([(10, "Concept", [[4, 5]]), (11, "Concept", [[2, 3]])], [("is-a", 10, 11)], "a b c")
    assert _all_scenarios(pred, gold)["scenario3"] == {
        "correct_A": 2, "incorrect_A": 0, "partial_A": 0, "missing_A": 1, "spurious_A": 0,
        "correct_B": 1, "missing_B": 0, "spurious_B": 0,
        "precision": 1.0, "recall": 1.0, "f1": 1.0,
    }  # fmt: skip


def test_repeated_predicted_ids_resolve_to_the_first_phrase():
    # Predicted d=5, b=6, a=5: relations on 5 use d. Gold classes {a, b} and {c, d}.
    gold = _letters([1, 2, 3, 4], [("same-as", 1, 2), ("same-as", 3, 4), ("is-a", 2, 3)])
    pred = _row(
        [(5, "Concept", [[6, 7]]), (6, "Concept", [[2, 3]]), (5, "Concept", [[0, 1]])],
        [("same-as", 5, 6), ("is-a", 6, 5)],
        "a b c d",
    )
    result = _all_scenarios(pred, gold)
    assert [result[s]["f1"] for s in result] == [0.6666666666666666, 0.8571428571428571, 0.4]
    assert (result["scenario1"]["correct_B"], result["scenario1"]["spurious_B"]) == (1, 1)


def test_unannotated_gold_and_differing_texts_are_skipped():
    empty_gold = _row([])
    assert _counts(GOLD, empty_gold) == {}
    with pytest.warns(UserWarning, match="differs"):
        assert _counts(dict(GOLD, text=TEXT + " "), GOLD) == {}


def test_zero_denominators_give_the_int_zero():
    nothing = ehealthkd([_row([])], [GOLD], "scenario1")
    assert nothing["precision"] == 0 and type(nothing["precision"]) is int
    assert type(nothing["recall"]) is float and type(nothing["f1"]) is int
    skipped = ehealthkd([GOLD], [_row([])], "scenario3")
    assert [type(skipped[k]) for k in ("precision", "recall", "f1")] == [int, int, int]


def test_span_identical_gold_in_another_order_raises_where_the_official_tool_asserts():
    gold = _row([(1, "Concept", [[3, 7]]), (2, "Action", [[3, 7]])])
    ok = ehealthkd([gold], [gold])
    assert ok["correct_A"] == 2
    swapped = _row([(1, "Action", [[3, 7]]), (2, "Concept", [[3, 7]])])
    with pytest.raises(ValueError, match="assertion"):
        ehealthkd([swapped], [gold])


def test_one_prediction_against_three_span_identical_gold_phrases_of_other_labels():
    """It takes the first as incorrect and leaves the other two missing (official evaltest:
    incorrect_A 1, missing_A 2, nothing else)."""
    gold = _row([(1, "Concept", [[3, 7]]), (2, "Action", [[3, 7]]), (3, "Reference", [[3, 7]])])
    scores = ehealthkd([_row([(1, "Predicate", [[3, 7]])])], [gold])
    assert {k: v for k, v in scores.items() if k.endswith("_A")} == {
        "correct_A": 0,
        "incorrect_A": 1,
        "partial_A": 0,
        "missing_A": 2,
        "spurious_A": 0,
    }


def test_add_checks_rows_before_encoding():
    metric = taskeval.load("ehealthkd")
    bad = _row([(1, "Concept", [["3", 7]])])
    with pytest.raises(ValueError, match=r"predictions\[0\], keyphrases\[0\] \(id 1\)"):
        metric.add(prediction=bad, reference=GOLD)


def test_inputs_are_not_mutated():
    pred = _row([(1, "Concept", [[3, 10]])], [("SUBJECT", 1, 1)])
    snapshot = json.dumps(pred)
    ehealthkd([pred], [GOLD])
    assert json.dumps(pred) == snapshot


# --------------------------------------------------------------------------------------------
# Official files


def _write(folder: Path, name: str, content: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(content.encode("utf-8"))
    return path


def _case(tmp_path, sub_a=GOLD_A, sub_b=GOLD_B, sub_text=TEXT + "\n", text=TEXT + "\n",
          gold_a=GOLD_A, gold_b=GOLD_B, scenarios=SCENARIOS):  # fmt: skip
    for folder in scenarios:
        n = folder[8]
        _write(tmp_path / "gold" / folder, f"input_scenario{n}.txt", text)
        _write(tmp_path / "gold" / folder, f"output_a_scenario{n}.txt", gold_a)
        _write(tmp_path / "gold" / folder, f"output_b_scenario{n}.txt", gold_b)
        _write(tmp_path / "sub" / folder, f"output_scenario{n}.txt", sub_text)
        _write(tmp_path / "sub" / folder, f"output_a_scenario{n}.txt", sub_a)
        _write(tmp_path / "sub" / folder, f"output_b_scenario{n}.txt", sub_b)
    return tmp_path / "gold", tmp_path / "sub"


def _scenario1(tmp_path, **files) -> dict:
    gold, sub = _case(tmp_path, **files)
    return score_files(gold, sub)["scenario1"]


FILE_ERRORS = [
    ("header", {"sub_a": "ID\tSTART END\tLABEL\tTEXT\n" + GOLD_A}, ("output_a", "line 1", "ID")),
    ("double-tab", {"sub_a": "1\t\t3 7\tConcept\ttipo\n"}, ("line 1", "4 TAB-separated", "got 5")),
    ("missing-text", {"sub_a": GOLD_A + "5\t3 7\tConcept\n"}, ("line 5", "4 TAB", "got 3")),
    ("blank-line", {"sub_a": "1\t3 7\tConcept\ttipo\n\n"}, ("line 2", "got 1")),
    ("float-offset", {"sub_a": "1\t3.0 7\tConcept\ttipo\n"}, ("line 1", "integer", "'3.0'")),
    ("three-numbers", {"sub_a": "1\t3 7 9\tConcept\ttipo\n"}, ("line 1", "START END")),
    ("past-last-sentence", {"sub_a": "1\t300 307\tConcept\ttipo\n"}, ("line 1", "past the last")),
    (
        "on-line-break",
        {
            "text": TEXT + "\nOtra .\n",
            "sub_text": TEXT + "\nOtra .\n",
            "gold_a": GOLD_A + "5\t52 56\tConcept\tOtra\n",
            "sub_a": GOLD_A + "5\t51 56\tConcept\tOtra\n",
        },
        ("line 5", "sentence 2", ">= 0"),
    ),
    ("backwards", {"sub_a": "1\t7 3\tConcept\ttipo\n"}, ("line 1", "start <= end")),
    ("single-past-text", {"sub_a": "1\t31 60\tConcept\tvías\n"}, ("line 1", "past the end")),
    ("negative-offset", {"sub_a": "1\t-3 7\tConcept\ttipo\n"}, ("line 1",)),
    ("unknown-id", {"sub_b": "subject\t3\t99\n"}, ("output_b", "line 1", "target ID 99")),
    ("b-two-fields", {"sub_b": "subject\t3\n"}, ("output_b", "line 1", "3 TAB-separated")),
    ("b-string-id", {"sub_b": "subject\tT3\t2\n"}, ("output_b", "line 1", "'T3'")),
    ("gold-header", {"gold_a": "ID\tSPANS\tLABEL\tTEXT\n"}, ("gold", "output_a", "line 1")),
]


@pytest.mark.parametrize(
    "files,fragments", [e[1:] for e in FILE_ERRORS], ids=[e[0] for e in FILE_ERRORS]
)
def test_malformed_files_name_file_line_and_expectation(tmp_path, files, fragments):
    with pytest.raises(ValueError) as info:
        _scenario1(tmp_path, **files)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_not_utf8(tmp_path):
    gold, sub = _case(tmp_path)
    (sub / "scenario1-main" / "output_a_scenario1.txt").write_bytes(b"1\t3 7\tConcept\ttip\xf3\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        score_files(gold, sub)


def test_missing_files_and_folders(tmp_path):
    gold, sub = _case(tmp_path, scenarios=SCENARIOS[:2])
    assert sorted(score_files(gold, sub)) == ["scenario1", "scenario2"]  # the folders there
    with pytest.raises(ValueError, match="no scenario3-taskB folder"):
        score_files(gold, sub, scenario="scenario3")
    (sub / "scenario1-main" / "output_scenario1.txt").unlink()
    with pytest.raises(ValueError, match="sentence file not found"):
        read_official(gold / "scenario1-main", sub / "scenario1-main")
    (sub / "scenario2-taskA" / "output_b_scenario2.txt").unlink()
    with pytest.raises(ValueError, match=r"output_b_scenario2\.txt: file not found"):
        read_official(gold / "scenario2-taskA", sub / "scenario2-taskA")


def test_unscored_sentences_are_checked_only_where_the_official_tool_crashes(tmp_path):
    # Line 2 is unannotated in the gold: a span of it that runs past its text (or backwards)
    # cannot change a score and the official tool accepts it; a malformed line still fails.
    text = TEXT + "\nOtra frase .\n"
    extra = "9\t52 70\tConcept\tx\n10\t60 55\tConcept\ty\n"
    result = _scenario1(tmp_path, text=text, sub_text=text, sub_a=GOLD_A + extra)
    assert result["correct_A"] == 4 and result["spurious_A"] == 0
    with pytest.raises(ValueError, match="line 5"):
        _scenario1(tmp_path, text=text, sub_text=text, sub_a=GOLD_A + "9\t52\tConcept\tx\n")


def test_line_breaks_crlf_lone_cr_and_other_separators(tmp_path):
    crlf = _scenario1(
        tmp_path / "crlf",
        sub_text=TEXT + "\r\n",
        sub_a=GOLD_A.replace("\n", "\r\n"),
        sub_b=GOLD_B.replace("\n", "\r"),
    )
    assert crlf["f1"] == 1.0
    # \x0b and U+2028 are not line breaks for the official reader: the text is one line.
    text = "A\x0bb es\u2028c .\n"
    gold_a = "1\t0 1\tConcept\tA\n2\t7 8\tConcept\tc\n"
    odd = _scenario1(
        tmp_path / "odd", text=text, sub_text=text, gold_a=gold_a, sub_a=gold_a, gold_b="", sub_b=""
    )
    assert odd["correct_A"] == 2


LINE_BREAK_TEXT = "a b\nc d\ne f\n"  # sentence ends (global): 3, 7, 11
LINE_BREAK_GOLD_A = "1\t0 1\tConcept\ta\n2\t8 9\tConcept\te\n3\t10 11\tAction\tf\n"
# Phrase 7 starts at 3, the line break after "a b": officially it belongs to "c d", which the
# gold leaves unannotated, so it is never scored, and is-a 7 1 crosses two sentences (dropped).
LINE_BREAK_LINES = {
    "a1": "1\t0 1\tConcept\ta\n",
    "a7": "7\t3 5;4 5\tConcept\tx\n",
    "a2": "2\t8 9\tConcept\te\n",
    "a3": "3\t10 11\tAction\tf\n",
}


@pytest.mark.parametrize(
    "path,order,odd",
    [
        ("bulk, starts sorted", ["a1", "a7", "a2", "a3"], {}),
        ("bulk, starts unsorted", ["a7", "a1", "a2", "a3"], {}),
        # A "+7" id or two spaces inside a span only the line-by-line reader accepts.
        ("line by line", ["a1", "a7", "a2", "a3"], {"a7": "+7\t3 5;4 5\tConcept\tx\n"}),
        ("line by line, spaces", ["a1", "a7", "a2", "a3"], {"a1": "1\t0  1\tConcept\ta\n"}),
    ],
)
def test_an_offset_on_a_line_break_belongs_to_the_next_sentence_on_every_reader_path(
    tmp_path, path, order, odd
):
    sub_a = "".join(odd.get(k, LINE_BREAK_LINES[k]) for k in order)
    with pytest.warns(UserWarning, match="cross sentence boundaries"):
        result = score_files(
            *_case(
                tmp_path,
                text=LINE_BREAK_TEXT,
                sub_text=LINE_BREAK_TEXT,
                gold_a=LINE_BREAK_GOLD_A,
                gold_b="is-a\t2\t3\n",
                sub_a=sub_a,
                sub_b="is-a\t2\t3\nis-a\t7\t1\n",
            )
        )
    # The official evaltest on these files: all three scenarios perfect, nothing spurious.
    counts = {
        "correct_A": 3, "incorrect_A": 0, "partial_A": 0, "missing_A": 0, "spurious_A": 0,
        "correct_B": 1, "missing_B": 0, "spurious_B": 0,
    }  # fmt: skip
    perfect = {**counts, "precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert result == {"scenario1": perfect, "scenario2": perfect, "scenario3": perfect}, path


def test_stripped_sentences_and_global_offsets(tmp_path):
    # NBSP and tabs around a line are stripped; blank lines are sentences and shift offsets.
    text = "\n" + TEXT + "\n"
    sub_text = "\u00a0 \n\t" + TEXT + " \n"
    sub_a = "".join(
        f"{i}\t{';'.join(f'{s + 1} {e + 1}' for s, e in pairs)}\tX\tx\n"
        for i, pairs in ((1, [(3, 7)]), (2, [(11, 17)]))
    )
    gold_a = sub_a.replace("X", "Concept")
    result = _scenario1(tmp_path, text=text, sub_text=sub_text, gold_a=gold_a, gold_b="",
                        sub_a=sub_a.replace("X", "Concept"), sub_b="")  # fmt: skip
    assert result["correct_A"] == 2


def test_cross_sentence_relations_are_dropped_with_a_warning(tmp_path):
    text = TEXT + "\nOtra frase .\n"
    sub_a = GOLD_A + "5\t52 56\tConcept\tOtra\n"
    with pytest.warns(UserWarning, match="1 relation\\(s\\) cross sentence boundaries"):
        result = _scenario1(
            tmp_path, text=text, sub_text=text, sub_a=sub_a, sub_b=GOLD_B + "is-a\t5\t2\n"
        )
    assert result["spurious_B"] == 0 and result["correct_B"] == 2


def test_a_later_duplicate_id_decides_the_sentence_of_its_relations(tmp_path):
    text = TEXT + "\nOtra frase .\n"
    # ID 2 is written again in sentence 2: "subject 3 2" now crosses sentences and is dropped.
    sub_a = GOLD_A + "2\t52 56\tConcept\tOtra\n"
    with pytest.warns(UserWarning, match="cross sentence"):
        result = _scenario1(tmp_path, text=text, sub_text=text, sub_a=sub_a)
    assert result["correct_B"] == 1 and result["missing_B"] == 1


def test_first_sentence_pairs_stay_unsorted_later_ones_are_sorted(tmp_path):
    swapped = GOLD_A.replace("31 35;36 49", "36 49;31 35")
    first = _scenario1(tmp_path / "first", sub_a=swapped)
    assert first["partial_A"] == 1
    text = "Otra frase .\n" + TEXT + "\n"
    shift = len("Otra frase .") + 1

    def shifted(a):
        return "".join(
            f"{i}\t{';'.join(f'{int(s) + shift} {int(e) + shift}' for s, e in (p.split() for p in sp.split(';')))}\t{lab}\t{t}\n"
            for i, sp, lab, t in (line.split("\t") for line in a.splitlines())
        )

    second = _scenario1(
        tmp_path / "second",
        text=text,
        sub_text=text,
        gold_a=shifted(GOLD_A),
        sub_a=shifted(swapped),
    )
    assert second["correct_A"] == 4


def test_fewer_submitted_sentences_pair_up_to_the_shorter_side(tmp_path):
    text = TEXT + "\nOtra frase .\n"
    gold_a = GOLD_A + "5\t52 56\tConcept\tOtra\n"
    result = _scenario1(tmp_path, text=text, gold_a=gold_a)
    assert result["missing_A"] == 0 and result["correct_A"] == 4


def test_read_official_keeps_only_scored_sentences(tmp_path):
    text = "Nada .\n" + TEXT + "\n"
    shift = len("Nada .") + 1
    a = "".join(
        f"{i}\t{s + shift} {e + shift}\tConcept\tx\n"
        for i, (s, e) in enumerate([(3, 7), (11, 17)], 1)
    )
    gold, sub = _case(
        tmp_path,
        text=text,
        sub_text=text,
        gold_a=a,
        sub_a=a + "9\t0 4\tConcept\tNada\n",
        gold_b="",
        sub_b="",
    )
    inputs = read_official(gold / "scenario1-main", sub / "scenario1-main")
    assert inputs["references"] == [
        {
            "text": TEXT,
            "keyphrases": [
                {"id": 1, "label": "Concept", "spans": [[3, 7]]},
                {"id": 2, "label": "Concept", "spans": [[11, 17]]},
            ],
            "relations": [],
        }
    ]
    assert inputs["predictions"] == inputs["references"]


def test_cli_prints_the_three_scenarios(tmp_path, capsys):
    from taskeval.cli import main

    gold, sub = _case(tmp_path)
    assert main(["score", "ehealthkd", "--references", str(gold), "--predictions", str(sub)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert sorted(printed) == ["scenario1", "scenario2", "scenario3"]
    assert printed["scenario1"]["f1"] == 1.0 and printed["scenario3"]["correct_B"] == 2


# --------------------------------------------------------------------------------------------
# Hub rows


HUB_ROWS = [
    {
        "sentence": TEXT,
        "entities": [
            {"ent_id": "T1", "ent_text": "tipo", "ent_label": 0, "start_character": 3, "end_character": 7},
            {"ent_id": "T2", "ent_text": "afecta", "ent_label": "Action", "start_character": 18, "end_character": 24},
            {"ent_id": "T3", "ent_text": "vías respiratorias", "ent_label": 0, "start_character": 31, "end_character": 49},
        ],
        "relations": [
            {"rel_id": "R1", "rel_label": 10, "arg1": "T2", "arg2": "T3"},
            {"rel_id": "R2", "rel_label": "subject", "arg1": "T2", "arg2": "T1"},
        ],
    },
    {"sentence": "Nada .", "entities": [], "relations": []},
    # Offsets are file-level: this sentence starts at 51 + 1 + 6 + 1 = 59. T5 is discontinuous
    # ("tipo" + "cáncer", BRAT "62 66;70 76"): the Hub keeps 62 and 76 only.
    {
        "sentence": "El tipo de cáncer",
        "entities": [
            {"ent_id": "T4", "ent_text": "tipo de", "ent_label": 0, "start_character": 62, "end_character": 69},
            {"ent_id": "T5", "ent_text": "tipo cáncer", "ent_label": 0, "start_character": 62, "end_character": 76},
        ],
        "relations": [{"rel_id": "R3", "rel_label": 1, "arg1": "T4", "arg2": "T5"}],
    },
]  # fmt: skip


def test_references_from_hub_rows():
    refs = references_from_hub(HUB_ROWS)
    assert refs[0]["keyphrases"][2] == {"id": 3, "label": "Concept", "spans": [[31, 49]]}
    assert refs[0]["relations"][0] == {"label": "target", "source": 2, "target": 3}
    assert refs[1] == {"text": "Nada .", "keyphrases": [], "relations": []}
    assert refs[2]["keyphrases"] == [
        {"id": 4, "label": "Concept", "spans": [[3, 10]]},
        {"id": 5, "label": "Concept", "spans": [[3, 7], [11, 17]]},
    ]
    assert refs[2]["relations"] == [{"label": "same-as", "source": 4, "target": 5}]
    result = ehealthkd(refs, refs, "scenario1")
    assert result["correct_A"] == 5 and result["correct_B"] == 3 and result["f1"] == 1.0
    # A prediction written as official files would be: "tipo de" as one span, "tipo cáncer"
    # as one span over the gap (partial), same-as between them.
    pred = dict(refs[2], keyphrases=[
        {"id": 1, "label": "Concept", "spans": [[3, 10]]},
        {"id": 2, "label": "Concept", "spans": [[3, 17]]},
    ], relations=[{"label": "same-as", "source": 2, "target": 1}])  # fmt: skip
    assert ehealthkd([pred], [refs[2]], "scenario1") == {
        "correct_A": 1, "incorrect_A": 0, "partial_A": 1, "missing_A": 0, "spurious_A": 0,
        "correct_B": 1, "missing_B": 0, "spurious_B": 0,
        "precision": 0.8333333333333334, "recall": 0.8333333333333334, "f1": 0.8333333333333334,
    }  # fmt: skip


def test_references_from_hub_takes_numpy_offsets_and_refuses_floats():
    import numpy as np

    rows = json.loads(json.dumps(HUB_ROWS))
    for entity in rows[2]["entities"]:
        entity["start_character"] = np.int32(entity["start_character"])
        entity["end_character"] = np.int64(entity["end_character"])
    assert references_from_hub(rows) == references_from_hub(HUB_ROWS)
    rows[2]["entities"][0]["end_character"] = 69.0
    with pytest.raises(ValueError, match=r"rows\[2\], entities\[0\], field 'end_character'"):
        references_from_hub(rows)


def test_references_from_hub_needs_the_rows_of_the_split_from_its_first():
    # Alone, the third row's offsets (file-level, from 59) lie outside its sentence.
    with pytest.raises(ValueError, match=r"rows\[0\], entities\[0\] \(T4\).*file-level"):
        references_from_hub(HUB_ROWS[2:])
    # A discontinuous entity whose words do not locate its fragments.
    bad = json.loads(json.dumps(HUB_ROWS))
    bad[2]["entities"][1]["ent_text"] = "tipo vías"
    with pytest.raises(ValueError, match=r"rows\[2\], entities\[1\] \(T5\).*discontinuous"):
        references_from_hub(bad)


def test_references_from_hub_rejects_bad_rows():
    bad_id = json.loads(json.dumps(HUB_ROWS))
    bad_id[0]["entities"][0]["ent_id"] = "X"
    with pytest.raises(ValueError, match=r"rows\[0\], entities\[0\], field 'ent_id'"):
        references_from_hub(bad_id)
    dangling = json.loads(json.dumps(HUB_ROWS))
    dangling[0]["relations"][0]["arg2"] = "T9"
    with pytest.raises(ValueError, match=r"rows\[0\], relations\[0\], field 'arg2'"):
        references_from_hub(dangling)
    with pytest.raises(ValueError, match=r"rows\[1\]"):
        references_from_hub([HUB_ROWS[0], {"text": "x"}])


# --------------------------------------------------------------------------------------------
# details=True: one record per item, adding up to the scores


KINDS = {
    "scenario1": {"key phrase", "relation"},
    "scenario2": {"key phrase"},
    "scenario3": {"relation"},
}


def _from_records(records: list[dict], scenario: str) -> dict:
    """The counts, and P/R/F1 by the official formulas, read off the records alone."""
    assert {r["kind"] for r in records} <= KINDS[scenario]
    tally = {(r["kind"], r["outcome"]) for r in records}
    assert tally  # something to check
    n = {o: sum(r["outcome"] == o for r in records) for o in ("correct", "partial", "incorrect")}
    n["missing"] = sum(r["outcome"] == "missing" for r in records)
    n["spurious"] = sum(r["outcome"] == "spurious" for r in records)
    hits = n["correct"] + n["partial"] / 2
    rd = n["correct"] + n["partial"] + n["incorrect"] + n["missing"]
    pd = n["correct"] + n["partial"] + n["incorrect"] + n["spurious"]
    recall = hits / rd if rd else 0
    precision = hits / pd if pd else 0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0
    out = {"precision": precision, "recall": recall, "f1": f1}
    for kind, suffix in (("key phrase", "A"), ("relation", "B")):
        if kind in KINDS[scenario]:
            for outcome in ("correct", "incorrect", "partial", "missing", "spurious"):
                if suffix == "B" and outcome in ("incorrect", "partial"):
                    continue
                key = f"{outcome}_{suffix}"
                out[key] = sum(r["kind"] == kind and r["outcome"] == outcome for r in records)
    return out


# The official evaltest's output on random_rows(random.Random(4), 300) written as official files
# (ids made distinct across sentences, since official ids are per file).
RANDOM_ROWS_COUNTS = {
    "correct_A": 394, "incorrect_A": 72, "partial_A": 42, "missing_A": 79, "spurious_A": 98,
    "correct_B": 196, "missing_B": 223, "spurious_B": 167,
}  # fmt: skip
RANDOM_ROWS_OFFICIAL = {
    "scenario1": {"precision": 0.630546955624355, "recall": 0.6073558648111332, "f1": 0.61873417721519},
    "scenario2": {"precision": 0.6848184818481848, "recall": 0.706984667802385, "f1": 0.6957250628667225},
    "scenario3": {"precision": 0.5399449035812672, "recall": 0.4677804295942721, "f1": 0.5012787723785166},
}  # fmt: skip


@pytest.mark.parametrize("scenario", ["scenario1", "scenario2", "scenario3"])
def test_details_explain_each_item_and_add_up_to_the_scores(scenario):
    import random

    from entries.ehealthkd import random_rows

    inputs = random_rows(random.Random(4), 300)  # a seed without span-identical gold swaps
    expected = {**RANDOM_ROWS_COUNTS, **RANDOM_ROWS_OFFICIAL[scenario]}
    metric = taskeval.load("ehealthkd", scenario)
    direct = metric.compute(**inputs, details=True)
    metric.add_batch(**inputs)
    through_arrow = metric.compute(details=True)
    records = direct.pop("details")
    assert direct == expected
    assert through_arrow.pop("details") == records  # the Arrow path explains the same way
    assert through_arrow == expected
    assert metric.compute(**inputs) == expected  # details change nothing else
    derived = _from_records(records, scenario)
    assert derived == {k: direct[k] for k in derived}
    assert all(set(r) == set(records[0]) for r in records)
    assert all(isinstance(v, (str, int, type(None))) for r in records for v in r.values())
    outcomes = {(r["kind"], r["outcome"]) for r in records}
    if scenario != "scenario3":
        assert {
            ("key phrase", o) for o in ("correct", "incorrect", "partial", "missing")
        } <= outcomes
    if scenario != "scenario2":
        assert {("relation", o) for o in ("correct", "missing", "spurious")} <= outcomes


@needs_corpus
def test_details_add_up_to_the_official_counts_of_every_parity_case():
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case in _manifest():
            if case["outcome"] != "expected":
                continue
            expected = json.loads((PARITY / case["result"]).read_text(encoding="utf-8"))
            for scenario, folder in zip(("scenario1", "scenario2", "scenario3"), SCENARIOS):
                inputs = read_official(
                    PARITY / case["gold"] / folder, PARITY / case["submission"] / folder
                )
                records = ehealthkd(**inputs, scenario=scenario, details=True)["details"]
                derived = _from_records(records, scenario) if records else {}
                assert derived == {k: expected[scenario][k] for k in derived}, case["name"]
                checked += 1
    assert checked == 61 * 3


def _explained(pred, gold=GOLD, scenario="scenario1") -> list[tuple]:
    records = ehealthkd([pred], [gold], scenario, details=True)["details"]
    return [(r["kind"], r["outcome"], r["why"]) for r in records]


def test_details_say_why():
    pred = _row(
        [(1, "Concept", [[3, 10]]), (2, "Action", [[11, 17]]), (3, "Action", [[18, 24]]),
         (4, "Action", [[36, 49]]), (5, "Concept", [[18, 24]]), (6, "Concept", [[0, 2]])],
        [("subject", 3, 2), ("target", 3, 4), ("target", 3, 4), ("subject", 3, 1),
         ("is-a", 6, 4)],
    )  # fmt: skip
    gold = dict(GOLD, relations=[*GOLD["relations"], {"label": "is-a", "source": 1, "target": 2}])
    assert _explained(pred, gold) == [
        ("key phrase", "partial", "overlaps gold phrase 1 ('tipo')"),
        ("key phrase", "incorrect", "same spans, other label"),
        ("key phrase", "correct", "same spans and label"),
        (
            "key phrase",
            "partial",
            "overlaps gold phrase 4 ('vías respiratorias'), other label (a partial match "
            "ignores the label)",
        ),
        (
            "key phrase",
            "spurious",
            "duplicate: gold phrase 3 has these spans but was already matched",
        ),
        ("key phrase", "spurious", "no gold phrase has these spans or overlaps them"),
        (
            "relation",
            "spurious",
            "relation endpoint not matched in subtask A (target phrase 2 is only incorrect "
            "(other label))",
        ),
        (
            "relation",
            "correct",
            "same label and endpoints (an endpoint matched only partially in subtask A)",
        ),
        (
            "relation",
            "ignored",
            "duplicate relation removed (an earlier line is the same relation)",
        ),
        ("relation", "spurious", "no gold relation between the phrases its endpoints matched"),
        (
            "relation",
            "spurious",
            "relation endpoint not matched in subtask A (source phrase 6 is spurious)",
        ),
        (
            "relation",
            "missing",
            "relation endpoint not matched in subtask A (target phrase 2 has no correct or "
            "partial match)",
        ),
        (
            "relation",
            "missing",
            "relation endpoint not matched in subtask A (target phrase 2 has no correct or "
            "partial match)",
        ),
    ]
    # Which records appear follows the scenario.
    assert {k for k, _, _ in _explained(pred, gold, "scenario2")} == {"key phrase"}
    assert {k for k, _, _ in _explained(pred, gold, "scenario3")} == {"relation"}


def test_details_of_relations_name_labels_direction_and_claims():
    phrases = [(1, "Concept", [[3, 7]]), (2, "Concept", [[11, 17]]), (3, "Action", [[18, 24]])]
    gold = _row(phrases, [("subject", 3, 2), ("same-as", 1, 2)])
    pred = _row(phrases, [("target", 3, 2), ("subject", 2, 3), ("same-as", 2, 1),
                          ("same-as", 1, 2), ("subject", 3, 1), ("subject", 3, 2)])  # fmt: skip
    whys = [why for kind, _, why in _explained(pred, gold, "scenario3")]
    assert whys == [
        "other label: the gold relates these phrases by subject",
        "reversed: the gold relation goes the other way (only same-as is symmetric)",
        "same-as written the other way round (same-as is symmetric)",
        "its gold relation was already matched by an earlier predicted relation",
        "endpoints in the same gold same-as classes as the gold relation's",
        "its gold relation was already matched by an earlier predicted relation",
    ]
    record = ehealthkd([pred], [gold], "scenario3", details=True)["details"][4]
    assert record["predicted_text"] == "afecta → tipo" and record["gold_text"] == "afecta → cáncer"
    assert (record["gold_source"], record["gold_target"]) == (3, 2)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("a \nb", ["a", "b"]),  # the last line needs no line break
        ("a\nb\n", ["a", "b"]),
        ("a\n\n", ["a", ""]),  # a blank line is a sentence
        ("\n", [""]),
        ("", []),
        ("a\x0cb\u2028c\n", ["a\x0cb\u2028c"]),  # not line ends for the official loop
    ],
)
def test_sentence_lines_as_the_official_line_loop_reads_them(tmp_path, content, expected):
    path = tmp_path / "input_scenario1.txt"
    path.write_text(content, encoding="utf-8", newline="")
    assert read_sentences(path) == expected


def test_a_prediction_starting_before_the_gold_phrase_overlaps_it():
    # The gold start lies inside the predicted span, no predicted start inside the gold one;
    # the official scorer counts one partial match either way.
    gold = _row([(1, "Concept", [[2, 6]])], text="abcdef")
    assert _counts(_row([(1, "Concept", [[0, 4]])], text="abcdef"), gold) == {"partial_A": 1}
    assert _counts(_row([(1, "Concept", [[3, 6]])], text="abcdef"), gold) == {"partial_A": 1}


def test_details_call_a_relation_reversed_only_with_the_same_label():
    phrases = [(1, "Concept", [[3, 7]]), (2, "Concept", [[11, 17]]), (3, "Action", [[18, 24]])]
    gold = _row(phrases, [("subject", 3, 2)])
    pred = _row(phrases, [("is-a", 2, 3), ("subject", 2, 3)])
    assert [why for kind, _, why in _explained(pred, gold, "scenario3")] == [
        "no gold relation between the phrases its endpoints matched",
        "reversed: the gold relation goes the other way (only same-as is symmetric)",
        "no predicted relation matched it",
    ]


def test_a_single_span_past_the_sentence_end_is_named_with_both_offsets():
    gold = _row([(1, "Concept", [[2, 6]])], text="abcdef")
    pred = _row([(1, "Concept", [[3, 9]])], text="abcdef")
    with pytest.raises(ValueError, match=r"the single span \[3, 9\] ends past .* \(6 characters\)"):
        ehealthkd([pred], [gold], "scenario1")


def test_details_of_a_missing_phrase_that_no_prediction_lies_over():
    gold = _row([(1, "Concept", [[0, 2]]), (2, "Concept", [[3, 5]])], text="ab cd ef")
    pred = _row([(7, "Concept", [[3, 5]]), (8, "Concept", [[6, 8]])], text="ab cd ef")
    missing = [
        why for _, outcome, why in _explained(pred, gold, "scenario2") if outcome == "missing"
    ]
    assert missing == ["not predicted: no predicted phrase overlaps it"]
    # The same with the unmatched prediction before the missing phrase rather than after it.
    gold = _row([(1, "Concept", [[0, 2]]), (2, "Concept", [[6, 8]])], text="ab cd ef")
    pred = _row([(7, "Concept", [[0, 2]]), (8, "Concept", [[3, 5]])], text="ab cd ef")
    missing = [
        why for _, outcome, why in _explained(pred, gold, "scenario2") if outcome == "missing"
    ]
    assert missing == ["not predicted: no predicted phrase overlaps it"]


def test_details_of_a_missing_phrase_under_a_prediction_matched_elsewhere():
    # "ab" is predicted exactly as gold 2; gold 1 ("ab cd"), which it overlaps, is then missing.
    gold = _row([(1, "Concept", [[0, 5]]), (2, "Concept", [[0, 2]])], text="ab cd ef")
    pred = _row([(7, "Concept", [[0, 2]])], text="ab cd ef")
    assert _explained(pred, gold, "scenario2") == [
        ("key phrase", "correct", "same spans and label"),
        (
            "key phrase",
            "missing",
            "the predicted phrases over it (7) were matched to other gold phrases",
        ),
    ]


def test_a_single_span_is_cut_at_a_space_in_its_first_character():
    assert split_words(" ab", 0, 3) == ((0, 0), (1, 3))
    assert split_words("ab", 0, 2) == ((0, 2),)


def _scenario_side(folder: Path, texts: list[str], relations: str = "") -> Path:
    """A scenario folder: one key phrase (the first character) on every sentence, id k + 1."""
    folder.mkdir()
    (folder / "input_scenario1.txt").write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    starts = [sum(len(t) + 1 for t in texts[:k]) for k in range(len(texts))]
    phrases = [
        f"{k + 1}\t{s} {s + 1}\tConcept\t{t[0]}\n" for k, (s, t) in enumerate(zip(starts, texts))
    ]
    (folder / "output_a_scenario1.txt").write_text("".join(phrases), encoding="utf-8")
    (folder / "output_b_scenario1.txt").write_text(relations, encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("differing", "shown"),
    [
        ([0, 1, 2, 3, 4, 5], "lines 1, 2, 3, 4, 5, ..."),  # the first five, then "..."
        ([0, 1, 2, 3, 4], "lines 1, 2, 3, 4, 5"),  # exactly five: no "..."
        ([1, 6], "lines 2, 7"),
        ([], None),
    ],
)
def test_sentences_whose_text_differs_are_skipped_and_named(tmp_path, differing, shown):
    gold_texts = [f"m{k} texto" for k in range(8)]
    # Submitted texts sorting before and after the gold ones: any difference is one.
    sub_texts = [
        (f"a{k} texto" if k % 2 else f"z{k} texto") if k in differing else t
        for k, t in enumerate(gold_texts)
    ]
    gold = _scenario_side(tmp_path / "gold", gold_texts)
    sub = _scenario_side(tmp_path / "sub", sub_texts)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        submitted, _, _ = read_scenario(gold, sub)
    assert len(submitted) == 8 - len(differing)
    messages = [str(w.message) for w in caught]
    if shown is None:
        assert messages == []
    else:
        assert len(messages) == 1
        assert f"{len(differing)} annotated sentence(s) differ" in messages[0]
        assert f"({shown})" in messages[0]


@pytest.mark.parametrize("padded", [False, True])  # True: a line off the bulk reader's layout
@pytest.mark.parametrize(
    ("crossing", "shown"),
    [
        ([1, 2, 3, 4, 5, 6, 7], "lines 1, 2, 3, 4, 5, ..."),
        ([1, 2, 3, 4, 5, 6], "lines 1, 2, 3, 4, 5, ..."),
        ([1, 2, 3, 4, 5], "lines 1, 2, 3, 4, 5"),
        ([2, 5], "lines 2, 5"),
    ],
)
def test_relations_across_sentences_are_dropped_and_named(tmp_path, crossing, shown, padded):
    texts = [f"m{k} texto" for k in range(8)]
    # Line n relates phrase n to the phrase of another sentence if it crosses, else to itself.
    # Crossing forward from odd lines, backward from even ones.
    ends = {n: (n + 1 if n % 2 else n - 1) if n in crossing else n for n in range(1, 8)}
    lines = [f"subject\t{n}\t{ends[n]}\n" for n in range(1, 8)]
    if padded:
        lines[-1] = lines[-1].replace("\t", "\t ", 1)
    gold = _scenario_side(tmp_path / "gold", texts, "".join(lines))
    sub = _scenario_side(tmp_path / "sub", texts)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, gold_sentences, _ = read_scenario(gold, sub)
    kept = [r for s in gold_sentences for r in s.relations]
    assert len(kept) == 7 - len(crossing) and {r.label for r in kept} <= {"subject"}
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1
    assert f"{len(crossing)} relation(s) cross sentence boundaries" in messages[0]
    assert messages[0].endswith(f"({shown})")


def _hub_row(sentence: str, ent_text: str, start: int, end: int, label: object = 0) -> dict:
    """A Hub row of one entity, T1, and no relation."""
    entity = {"ent_id": "T1", "ent_text": ent_text, "ent_label": label}
    entity.update(start_character=start, end_character=end)
    return {"sentence": sentence, "entities": [entity], "relations": []}


def test_references_from_hub_locate_every_fragment_of_a_three_word_entity():
    text = "El tipo raro de cáncer del pulmón"
    row = _hub_row(text, "tipo cáncer pulmón", 3, 33)
    (ref,) = references_from_hub([row])
    assert ref["keyphrases"] == [
        {"id": 1, "label": "Concept", "spans": [[3, 7], [16, 22], [27, 33]]}
    ]
    # The middle word twice between the ends: its place is not known.
    row["sentence"] = "El tipo de cáncer o cáncer del pulmón"
    row["entities"][0]["end_character"] = len(row["sentence"])
    with pytest.raises(ValueError, match=r"rows\[0\].*\(T1\).*do not locate its fragments") as info:
        references_from_hub([row])
    assert f"reads {row['sentence'][3:]!r}, not the entity text" in str(info.value)


# Two spaces between the offsets: the official split() takes them; the bulk reader does not.
@pytest.mark.parametrize("line", ["1\t3 10\tConcept\ttipo de\n", "1\t3  10\tConcept\ttipo de\n"])
def test_a_single_span_from_a_file_is_cut_into_words(tmp_path, line):
    gold = _scenario_side(tmp_path / "gold", ["El tipo de cáncer"])
    (gold / "output_a_scenario1.txt").write_text(line, encoding="utf-8")
    sub = _scenario_side(tmp_path / "sub", ["El tipo de cáncer"])
    (reference,) = read_official(references=gold, predictions=sub)["references"]
    assert reference["keyphrases"] == [{"id": 1, "label": "Concept", "spans": [[3, 7], [8, 10]]}]


def test_references_from_hub_refuse_an_entity_past_its_sentence():
    row = _hub_row("El tipo", "tipo", 3, 9)
    with pytest.raises(
        ValueError, match=r"rows\[0\].*\(T1\).*\[3, 9\).*covers \[0, 7\).*outside it"
    ):
        references_from_hub([row])


def test_a_skipped_sentence_warning_points_at_the_caller_of_score():
    core = metric_module("ehealthkd", "scoring")
    pred = _row([(1, "Concept", [[3, 7]])], text=TEXT.upper())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        core.score(core.normalize_rows([pred], "p"), core.normalize_rows([GOLD], "r"))
    assert [Path(w.filename).name for w in caught] == [Path(__file__).name]


def test_an_empty_gold_pair_starting_where_a_predicted_pair_starts_overlaps():
    # "a  bc" as one span gives (0, 1), (2, 2), (3, 5): its empty pair starts where the predicted
    # pair [2, 3) does, and nothing else overlaps; the official scorer counts a partial match.
    gold = _row([(1, "Concept", [[0, 5]])], text="a  bc d")
    pred = _row([(1, "Concept", [[2, 3], [6, 7]])], text="a  bc d")
    assert _counts(pred, gold) == {"partial_A": 1}


def test_companion_files_are_found_as_the_official_lookup_finds_them(tmp_path):
    # The official lookup takes the second "_"-separated field of the sentence file name, so
    # input_dev_set.txt has the companions output_a_dev and output_b_dev (no extension).
    for side in ("gold", "sub"):
        folder = tmp_path / side
        folder.mkdir()
        (folder / "input_dev_set.txt").write_text("El tipo\n", encoding="utf-8")
        (folder / "output_a_dev").write_text("1\t3 7\tConcept\ttipo\n", encoding="utf-8")
        (folder / "output_b_dev").write_text("", encoding="utf-8")
    submitted, gold, _ = read_scenario(tmp_path / "gold", tmp_path / "sub")
    assert [len(s.keyphrases) for s in submitted + gold] == [1, 1]


def test_a_gold_scenario_the_submission_lacks_is_named_where_it_is_asked_for(tmp_path):
    for side, folders in (
        ("gold", ["scenario1-main", "scenario2-taskA"]),
        ("sub", ["scenario1-main"]),
    ):
        (tmp_path / side).mkdir()
        for name in folders:
            _scenario_side(tmp_path / side / name, ["El tipo"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pairs = scenario_pairs(tmp_path / "gold", tmp_path / "sub")
    assert [name for name, _, _ in pairs] == ["scenario1"]
    assert [str(w.message) for w in caught] == [
        f"{tmp_path / 'sub'}: no scenario2-taskA folder; scored: scenario1"
    ]
    assert [Path(w.filename).name for w in caught] == [Path(__file__).name]


def test_references_from_hub_locate_fragments_that_touch():
    row = _hub_row("El tipocáncer", "tipo cáncer", 3, 13)
    (ref,) = references_from_hub([row])
    assert ref["keyphrases"][0]["spans"] == [[3, 7], [7, 13]]


@pytest.mark.parametrize("enabled", [True, False])
def test_scoring_files_leaves_the_garbage_collector_as_it_was(tmp_path, enabled):
    gold = _scenario_side(tmp_path / "gold", ["El tipo"])
    sub = _scenario_side(tmp_path / "sub", ["El tipo"])
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        score_files(gold, sub)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_an_offset_past_the_last_sentence_names_where_the_text_ends(tmp_path):
    gold = _scenario_side(tmp_path / "gold", ["El tipo", "de cáncer"])  # ends at 7 and 17
    (gold / "output_a_scenario1.txt").write_text("1\t20 22\tConcept\txx\n", encoding="utf-8")
    sub = _scenario_side(tmp_path / "sub", ["El tipo", "de cáncer"])
    with pytest.raises(ValueError, match=r"line 1: offset 20 lies past .*ends at global offset 17"):
        read_scenario(gold, sub)


def test_other_folders_beside_the_scenario_folders_are_passed_over(tmp_path):
    for side in ("gold", "sub"):
        (tmp_path / side / "aaa-notes").mkdir(parents=True)
        _scenario_side(tmp_path / side / "scenario4-extra", ["El tipo"])  # no such scenario
        for name in ("scenario1-main", "scenario2-taskA"):
            _scenario_side(tmp_path / side / name, ["El tipo"])
    pairs = scenario_pairs(tmp_path / "gold", tmp_path / "sub")
    assert [name for name, _, _ in pairs] == ["scenario1", "scenario2"]


def test_references_from_hub_locate_two_middle_words():
    row = _hub_row("El tipo raro de cáncer del pulmón", "tipo raro cáncer pulmón", 3, 33)
    (ref,) = references_from_hub([row])
    assert ref["keyphrases"][0]["spans"] == [[3, 7], [8, 12], [16, 22], [27, 33]]


@pytest.mark.parametrize("label", [4, -1, True, 1.0])
def test_references_from_hub_refuse_a_class_index_out_of_range(label):
    row = _hub_row("El tipo", "tipo", 3, 7, label=label)
    with pytest.raises(ValueError, match="expected a label name or a class index below 4"):
        references_from_hub([row])


@pytest.mark.parametrize("spans", ["8 19;10 12", "8  19;10 12"])  # the second: line by line
def test_pairs_after_the_first_sentence_are_sorted_by_start(tmp_path, spans):
    texts = ["El tipo", "de cáncer de pulmón"]
    gold = _scenario_side(tmp_path / "gold", texts)
    (gold / "output_a_scenario1.txt").write_text(f"1\t{spans}\tConcept\tx\n", encoding="utf-8")
    sub = _scenario_side(tmp_path / "sub", texts)
    references = read_official(references=gold, predictions=sub)["references"]
    assert references[-1]["keyphrases"][0]["spans"] == [[0, 11], [2, 4]]


@pytest.mark.parametrize("gap", [" ", "  "])  # two spaces: read line by line, else in bulk
def test_a_phrase_lies_in_the_sentence_of_its_first_pair_on_both_readers(tmp_path, gap):
    texts = ["El tipo", "de cáncer", "de pulmón"]  # sentences from offsets 0, 8 and 18

    def read(name: str, spans: str) -> list[dict]:
        gold = _scenario_side(tmp_path / f"gold-{name}", texts)
        (gold / "output_a_scenario1.txt").write_text(f"1\t{spans}\tConcept\tx\n", "utf-8")
        sub = _scenario_side(tmp_path / f"sub-{name}", texts)
        return read_official(references=gold, predictions=sub)["references"]

    # In sentence 2 (the one sentence annotated, so the one scored), with a pair past its end:
    # kept, as officially.
    assert read("forward", f"8{gap}10;18 20") == [
        {
            "text": "de cáncer",
            "keyphrases": [{"id": 1, "label": "Concept", "spans": [[0, 2], [10, 12]]}],
            "relations": [],
        }
    ]
    # In sentence 3, with a pair before its start.
    with pytest.raises(
        ValueError, match=r"line 1: in sentence 3 of .*, offsets must be >= 0, got \[-10, -8\]$"
    ):
        read("backward", f"18{gap}20;8 10")
    # One span from sentence 2 into sentence 3.
    with pytest.raises(
        ValueError,
        match=r"line 1: in sentence 2 of .*, the single span \[0, 12\] ends past the end of the "
        r"sentence text \(9 characters\)$",
    ):
        read("across", f"8{gap}20")


def test_an_annotation_file_alone_does_not_make_a_scenario_folder(tmp_path):
    for side in ("gold", "sub"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "output_a_notes.txt").write_text("", encoding="utf-8")
        _scenario_side(tmp_path / side / "scenario1-main", ["El tipo"])
    assert [name for name, _, _ in scenario_pairs(tmp_path / "gold", tmp_path / "sub")] == [
        "scenario1"
    ]


def test_an_offset_in_an_empty_sentence_file_is_past_offset_zero(tmp_path):
    gold = _scenario_side(tmp_path / "gold", [])
    (gold / "output_a_scenario1.txt").write_text("1\t0 2\tConcept\txx\n", encoding="utf-8")
    sub = _scenario_side(tmp_path / "sub", [])
    with pytest.raises(ValueError, match=r"offset 0 lies past .*ends at global offset 0,"):
        read_scenario(gold, sub)


@pytest.mark.parametrize(
    ("rows", "shown"),
    [(6, "rows 0, 1, 2, 3, 4, ..."), (5, "rows 0, 1, 2, 3, 4"), (4, "rows 0, 1, 2, 3")],
)
def test_rows_whose_text_differs_are_named_first_five_then_dots(rows, shown):
    pred = _row([(1, "Concept", [[3, 7]])], text=TEXT.upper())
    with pytest.warns(UserWarning, match=r"annotated sentence") as caught:
        result = ehealthkd([pred] * rows, [GOLD] * rows, "scenario1")
    assert f"({shown})" in str(caught[0].message)
    assert result["correct_A"] == 0 and result["missing_A"] == 0


def test_the_core_refuses_fewer_predictions_than_references():
    with pytest.raises(ValueError, match="same length"):
        ehealthkd([GOLD], [GOLD, GOLD], "scenario1")


def test_a_tree_with_only_an_unknown_scenario_folder_is_not_a_submission(tmp_path):
    for side, name in (("gold", "scenario1-main"), ("sub", "scenario4-extra")):
        (tmp_path / side).mkdir()
        _scenario_side(tmp_path / side / name, ["El tipo"])
    with pytest.raises(ValueError, match=r"sub: expected a scenario folder"):
        scenario_pairs(tmp_path / "gold", tmp_path / "sub")


def test_an_error_on_a_sentence_of_a_file_names_its_line(tmp_path):
    """Span-identical gold phrases submitted in another order, on the second sentence: the
    message names the submission's file and that sentence's line."""
    texts = ["El tipo", "La casa"]
    for side, labels in (("gold", ("Concept", "Action")), ("sub", ("Action", "Concept"))):
        folder = tmp_path / side
        folder.mkdir()
        (folder / "input_scenario1.txt").write_text("".join(t + "\n" for t in texts))
        (folder / "output_a_scenario1.txt").write_text(
            f"1\t0 2\tConcept\tEl\n2\t8 10\t{labels[0]}\tLa\n3\t8 10\t{labels[1]}\tLa\n"
        )
        (folder / "output_b_scenario1.txt").write_text("")
    with pytest.raises(ValueError) as refused:
        score_files(tmp_path / "gold", tmp_path / "sub")
    assert str(refused.value).startswith(
        f"{tmp_path / 'sub' / 'input_scenario1.txt'}, line 2, key phrase id 2: same spans"
    )


@pytest.mark.parametrize(
    ("runs", "found"),
    [(["a", "team/b", "x/y/c"], ["a", "team/b"]), ([".cache", "a", "b"], ["a", "b"])],
)
def test_submissions_are_looked_for_two_levels_deep_past_hidden_folders(tmp_path, runs, found):
    for run in runs:
        folder = tmp_path / "runs" / run / "scenario1-main"
        folder.parent.mkdir(parents=True)
        _scenario_side(folder, ["El tipo"])
    assert [name for name, _ in submissions(tmp_path / "runs")] == found


def test_a_gold_folder_without_a_sentence_file_is_named(tmp_path):
    (tmp_path / "gold").mkdir()
    sub = _scenario_side(tmp_path / "sub", ["El tipo"])
    with pytest.raises(
        ValueError, match=r"gold: expected one gold sentence file input_<name>.txt, found \[\]"
    ):
        read_scenario(tmp_path / "gold", sub)


def test_references_from_hub_refuse_an_entity_whose_middle_word_is_not_between_its_ends():
    row = _hub_row("El tipo raro de cáncer del pulmón", "tipo hueso pulmón", 3, 33)
    with pytest.raises(ValueError, match=r"rows\[0\].*\(T1\).*do not locate its fragments"):
        references_from_hub([row])


def test_references_from_hub_take_file_level_offsets_at_a_sentence_start():
    """The second row's entity starts its sentence: file-level offset 8, sentence-relative 0."""
    rows = [_hub_row("El tipo", "tipo", 3, 7), _hub_row("La casa", "La", 8, 10)]
    assert [r["keyphrases"][0]["spans"] for r in references_from_hub(rows)] == [[[3, 7]], [[0, 2]]]


def test_references_from_hub_refuse_one_word_over_two_of_its_occurrences():
    row = _hub_row("ab cd ab", "ab", 0, 8)
    with pytest.raises(ValueError, match=r"rows\[0\].*\(T1\).*do not locate its fragments"):
        references_from_hub([row])


def test_a_scenario_folder_names_its_sentence_file_among_others(tmp_path):
    gold = _scenario_side(tmp_path / "scenario1-main", ["El tipo"])
    (gold / "input_other.txt").write_text("Otra frase\n", encoding="utf-8")
    sub = _scenario_side(tmp_path / "sub", ["El tipo"])
    _, reference, _ = read_scenario(gold, sub)
    assert [s.text for s in reference] == ["El tipo"]


@pytest.mark.parametrize("link", [{"rel_label": 0, "arg1": "T1"}, "T1 T1"])
def test_references_from_hub_name_a_relation_without_its_fields(link):
    row = _hub_row("El tipo", "tipo", 3, 7)
    row["relations"] = [link]
    with pytest.raises(ValueError, match=r"^rows\[0\], relations\[0\]: missing field"):
        references_from_hub([row])


@pytest.mark.parametrize("missing", ["gold", "sub"])
def test_scenario_pairs_name_a_missing_folder(tmp_path, missing):
    for side in ("gold", "sub"):
        if side != missing:
            _scenario_side(tmp_path / side, ["El tipo"])
    with pytest.raises(ValueError, match=rf"{missing}: no such folder"):
        scenario_pairs(tmp_path / "gold", tmp_path / "sub")


def test_folders_whose_files_name_two_scenarios_tell_none(tmp_path):
    sides = [_scenario_side(tmp_path / side, ["El tipo"]) for side in ("gold", "sub")]
    for folder in sides:
        for path in list(folder.iterdir()):
            shutil.copyfile(path, folder / path.name.replace("scenario1", "scenario2"))
    with pytest.raises(
        ValueError, match=r"sub: neither its name nor its files tell which scenario it holds"
    ):
        scenario_pairs(*sides)


def test_folders_of_two_scenarios_are_refused_either_way_round(tmp_path):
    gold = tmp_path / "gold" / "scenario2-taskA"
    gold.parent.mkdir()
    _scenario_side(gold, ["El tipo"])
    for path in list(gold.iterdir()):
        path.rename(gold / path.name.replace("scenario1", "scenario2"))
    sub = tmp_path / "runs" / "x"
    sub.parent.mkdir()
    _scenario_side(sub, ["El tipo"])
    with pytest.raises(
        ValueError, match=r"scenario2-taskA holds scenario2 but .*x holds scenario1"
    ):
        scenario_pairs(gold, sub)


def test_references_from_hub_locate_a_middle_word_twice_between_the_ends():
    (reference,) = references_from_hub(
        [_hub_row("El tipo de piel de pulmón", "tipo de de pulmón", 3, 25)]
    )
    assert reference["keyphrases"][0]["spans"] == [[3, 7], [8, 10], [16, 18], [19, 25]]


@pytest.mark.parametrize(
    ("gold_label", "predicted_label"), [("Action", "Concept"), ("Concept", "Action")]
)
def test_details_of_a_partial_match_name_another_label_either_way(gold_label, predicted_label):
    gold = _row([(1, gold_label, [[0, 5]])], text="ab cd ef")
    pred = _row([(7, predicted_label, [[0, 2]])], text="ab cd ef")
    assert _explained(pred, gold, "scenario2") == [
        (
            "key phrase",
            "partial",
            "overlaps gold phrase 1 ('ab cd'), other label (a partial match ignores the label)",
        )
    ]


@pytest.mark.parametrize(
    ("rows", "kind"), [("abc", "str"), (b"abc", "bytes"), ({"a": 1}, "dict"), (5, "int")]
)
def test_the_core_refuses_rows_that_are_not_a_list(rows, kind):
    with pytest.raises(
        ValueError, match=rf"^predictions must be a list of sentence dicts, got {kind}$"
    ):
        ehealthkd(rows, [GOLD], "scenario1")
    with pytest.raises(
        ValueError, match=rf"^references must be a list of sentence dicts, got {kind}$"
    ):
        ehealthkd([GOLD], rows, "scenario1")


def test_details_call_a_relation_reversed_only_with_the_same_label_whichever_sorts_first():
    phrases = [(1, "Concept", [[3, 7]]), (2, "Concept", [[11, 17]]), (3, "Action", [[18, 24]])]
    gold = _row(phrases, [("subject", 3, 2)])
    pred = _row(phrases, [("target", 2, 3)])  # "target" sorts after "subject", "is-a" before
    assert [why for kind, _, why in _explained(pred, gold, "scenario3")] == [
        "no gold relation between the phrases its endpoints matched",
        "no predicted relation matched it",
    ]


def _trees_that_warn(tmp_path: Path) -> tuple[Path, Path]:
    """Gold of scenarios 1 and 2 (the submission has only 1); in scenario 1 a gold relation
    across sentences and a submitted sentence whose text differs: three warnings."""
    for side in ("gold", "sub"):
        (tmp_path / side).mkdir()
    _scenario_side(tmp_path / "gold" / "scenario1-main", ["El tipo", "La casa"], "subject\t1\t2\n")
    _scenario_side(tmp_path / "gold" / "scenario2-taskA", ["El tipo"])
    _scenario_side(tmp_path / "sub" / "scenario1-main", ["El tipo", "LA CASA"])
    return tmp_path / "gold", tmp_path / "sub"


@pytest.mark.parametrize("entry", ["score_files", "read_official", "module", "pairs", "folder"])
def test_reader_warnings_name_the_code_that_asked_for_the_files(tmp_path, monkeypatch, entry):
    gold, sub = _trees_that_warn(tmp_path)
    # The metric folder on its own, as a Space has it: a package outside taskeval, called from a
    # module whose name and file sort before the reader's (they must not be taken for its own).
    shutil.copytree(taskeval.metric_dir("ehealthkd"), tmp_path / "folder" / "ehk")
    (tmp_path / "folder" / "a_caller.py").write_text(
        "from ehk.inputs import read_official\n\n\ndef read(gold, sub):\n"
        "    return read_official(gold, sub)\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path / "folder"))
    modules = ("inputs", "scoring", "records", "rows", "shortcuts", "details", "plain_values")
    for name in ("a_caller", "ehk", *(f"ehk.{m}" for m in modules)):
        monkeypatch.delitem(sys.modules, name, raising=False)
    calls = {
        "folder": lambda: importlib.import_module("a_caller").read(
            gold / "scenario1-main", sub / "scenario1-main"
        ),
        "score_files": lambda: taskeval.score_files("ehealthkd", references=gold, predictions=sub),
        "read_official": lambda: taskeval.read_official(
            "ehealthkd", references=gold / "scenario1-main", predictions=sub / "scenario1-main"
        ),
        "module": lambda: read_official(gold / "scenario1-main", sub / "scenario1-main"),
        "pairs": lambda: scenario_pairs(gold, sub),
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        calls[entry]()
    said = {
        "no scenario2-taskA folder": entry in ("score_files", "pairs"),
        "cross sentence boundaries": entry != "pairs",
        "differ from the gold text": entry != "pairs",
    }
    assert [w for w in said if said[w]] == [
        w for w in said if any(w in str(c.message) for c in caught)
    ]
    caller = "a_caller.py" if entry == "folder" else Path(__file__).name
    assert {Path(w.filename).name for w in caught} == {caller}


@pytest.mark.parametrize("at", [0, 3, 7])
def test_references_from_hub_take_an_empty_entity_as_the_files_do(at):
    """An entity of no characters is an empty span, as the offsets "3 3" are in an annotation file."""
    (reference,) = references_from_hub([_hub_row("El tipo", "", at, at)])
    assert reference["keyphrases"] == [{"id": 1, "label": "Concept", "spans": [[at, at]]}]


def test_references_from_hub_refuse_an_entity_starting_before_its_sentence():
    rows = [_hub_row("El tipo", "tipo", 3, 7), _hub_row("La casa", " La", 7, 10)]
    with pytest.raises(ValueError, match=r"rows\[1\].*\(T1\): the offsets \[7, 10\) .*outside it"):
        references_from_hub(rows)


def test_a_gold_scenario_folder_against_a_tree_of_submitted_scenarios(tmp_path):
    gold = _scenario_side(tmp_path / "scenario1-main", ["El tipo"])
    (tmp_path / "sub").mkdir()
    for folder in ("scenario1-main", "scenario2-taskA"):
        _scenario_side(tmp_path / "sub" / folder, ["El tipo"])
    assert scenario_pairs(gold, tmp_path / "sub") == [
        ("scenario1", gold, tmp_path / "sub" / "scenario1-main")
    ]
    # a gold folder whose name and files tell no scenario: named by the caller, or refused
    plain = _scenario_side(tmp_path / "gold", ["El tipo"])
    for path in list(plain.iterdir()):
        path.rename(plain / path.name.replace("scenario1", "dev"))
    assert scenario_pairs(plain, tmp_path / "sub", scenario="scenario2") == [
        ("scenario2", plain, tmp_path / "sub" / "scenario2-taskA")
    ]
    with pytest.raises(
        ValueError, match=r"gold: neither its name nor its files tell which scenario"
    ):
        scenario_pairs(plain, tmp_path / "sub")
    with pytest.raises(ValueError, match=r"sub: no scenario3-taskB folder$"):
        scenario_pairs(plain, tmp_path / "sub", scenario="scenario3")


@pytest.mark.parametrize("label", [5, 11, -2])
def test_references_from_hub_refuse_a_class_index_past_the_names(label):
    row = _hub_row("El tipo", "tipo", 3, 7, label=label)
    with pytest.raises(ValueError, match="expected a label name or a class index below 4"):
        references_from_hub([row])


def test_details_of_a_duplicate_name_the_first_gold_phrase_of_its_spans():
    # Gold 1 and 2 share their spans; three predictions over them: the third is a duplicate.
    gold = _row([(1, "Concept", [[0, 2]]), (2, "Action", [[0, 2]])], text="ab cd")
    pred = _row(
        [(7, "Concept", [[0, 2]]), (8, "Action", [[0, 2]]), (9, "Concept", [[0, 2]])], text="ab cd"
    )
    assert [why for _, _, why in _explained(pred, gold, "scenario2")][-1] == (
        "duplicate: gold phrase 1 has these spans but was already matched"
    )


def test_a_scenario_folder_whose_sentence_file_has_another_name(tmp_path):
    sides = [_scenario_side(tmp_path / side, ["El tipo"]) for side in ("scenario1-main", "sub")]
    for folder in sides:
        for path in list(folder.iterdir()):
            path.rename(folder / path.name.replace("scenario1", "dev"))
    _, reference, _ = read_scenario(*sides)
    assert [s.text for s in reference] == ["El tipo"]


def test_trees_and_one_named_scenario_folder(tmp_path):
    (tmp_path / "gold").mkdir()
    for folder in ("scenario1-main", "scenario2-taskA"):
        _scenario_side(tmp_path / "gold" / folder, ["El tipo"])
    (tmp_path / "sub").mkdir()
    sub = _scenario_side(tmp_path / "sub" / "scenario1-main", ["El tipo"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # a submitted scenario folder against a gold tree: the folder's scenario
        assert scenario_pairs(tmp_path / "gold", sub) == [
            ("scenario1", tmp_path / "gold" / "scenario1-main", sub)
        ]
        # a scenario asked for: no word of the gold scenarios the submission lacks
        assert scenario_pairs(tmp_path / "gold", tmp_path / "sub", scenario="scenario1") == [
            ("scenario1", tmp_path / "gold" / "scenario1-main", sub)
        ]
    assert caught == []


@pytest.mark.parametrize("value", [True, None, "3", 3.0])
def test_references_from_hub_refuse_an_offset_that_is_not_an_int(value):
    row = _hub_row("El tipo", "tipo", 3, 7)
    row["entities"][0]["start_character"] = value
    with pytest.raises(
        ValueError, match=rf"field 'start_character': expected an int offset, got {value!r}$"
    ):
        references_from_hub([row])


def test_references_from_hub_locate_three_middle_words():
    row = _hub_row("El tipo x a y b z c w pulmón", "tipo a b c pulmón", 3, 28)
    (reference,) = references_from_hub([row])
    assert reference["keyphrases"][0]["spans"] == [[3, 7], [10, 11], [14, 15], [18, 19], [22, 28]]


@pytest.mark.parametrize(
    ("relations", "other_file", "message"),
    [
        (
            "subject\t1\t1\tmore\n",
            None,
            r"output_b_scenario1.txt, line 1: expected 3 TAB-separated fields "
            r"LABEL<TAB>SOURCE-ID<TAB>TARGET-ID, got 4 in 'subject\\t1\\t1\\tmore'$",
        ),
        # the unknown ID is refused on the bulk reader too, not taken for a crossing relation
        ("subject\t9\t1\n", None, r"line 1: the source ID 9 is not a key-phrase ID of "),
        ("subject\t1\t9\n", None, r"line 1: the target ID 9 is not a key-phrase ID of "),
        (
            "",
            "input_other.txt",  # and the folder's name tells no scenario
            r"gold: expected one gold sentence file input_<name>.txt, "
            r"found \['input_other.txt', 'input_scenario1.txt'\]$",
        ),
    ],
)
def test_a_gold_scenario_folder_is_refused_with_what_is_wrong(
    tmp_path, relations, other_file, message
):
    gold = _scenario_side(tmp_path / "gold", ["El tipo"], relations)
    if other_file:
        (gold / other_file).write_text("Otra frase\n", encoding="utf-8")
    sub = _scenario_side(tmp_path / "sub", ["El tipo"])
    with pytest.raises(ValueError, match=message):
        read_scenario(gold, sub)


def test_ids_and_offsets_beyond_int64_are_scored_in_files_and_refused_in_rows(tmp_path):
    # The official tool reads them as Python ints; so does the file reader. Rows are int64.
    big = 2**63
    sub_a = GOLD_A.replace("1\t3 7", f"{big}\t3 7") + f"5\t3 7;9 {big}\tConcept\tx\n"
    _case(tmp_path, sub_a=sub_a, sub_b=GOLD_B, scenarios=SCENARIOS[:1])
    scored = taskeval.score_files(
        "ehealthkd", references=tmp_path / "gold", predictions=tmp_path / "sub"
    )
    # Official evaltest on these files: the phrase with the big id is correct, the other spurious.
    assert scored["scenario1"] == {
        "correct_A": 4, "incorrect_A": 0, "partial_A": 0, "missing_A": 0, "spurious_A": 1,
        "correct_B": 2, "missing_B": 0, "spurious_B": 0,
        "precision": 0.8571428571428571, "recall": 1.0, "f1": 0.923076923076923,
    }  # fmt: skip
    inputs = read_official(tmp_path / "gold" / SCENARIOS[0], tmp_path / "sub" / SCENARIOS[0])
    with pytest.raises(ValueError, match=r"predictions\[0\], keyphrases\[0\], field 'id'.*64-bit"):
        taskeval.load("ehealthkd").compute(**inputs)
