"""``ehealthkd`` with ``edition=2020``: small hand-made BRAT cases, each scored as the official
2020 evaluation (knowledge-learning/ehealthkd-2020, ``scripts/evaltest.py``'s
``evaluate_scenario``) scores it in scenarios 1 to 4; the expected values below are its output on
the very files these tests write. Each case isolates one rule in which 2020 differs from 2019.
"""

from __future__ import annotations

import itertools
import json
import warnings
from pathlib import Path

import pytest

import taskeval
from taskeval._metrics.ehealthkd.inputs import read_official

SENTENCES = [
    "El asma afecta las vías respiratorias.",
    "La diabetes tipo 2 causa sed.",
    "Sin anotar aquí.",
    "El cáncer de pulmón es grave.",
]
FOLDERS = ("scenario1-main", "scenario2-taskA", "scenario3-taskB", "scenario4-transfer")


def _starts(texts: list[str]) -> list[int]:
    """Where each sentence starts: the kept lines joined by one newline, as officially."""
    out, at = [], 0
    for text in texts:
        out.append(at)
        at += len(text) + 1
    return out


def entity(texts: list[str], n: int, label: str, k: int, *words: str) -> str:
    """A ``T`` line for the words (each found left to right in sentence ``k``); one word or
    adjacent words make one span, others one span per word."""
    text, base = texts[k], _starts(texts)[k]
    spans, at = [], 0
    for word in words:
        start = text.index(word, at)
        spans.append((start, start + len(word)))
        at = start + len(word)
    if len(spans) > 1 and all(b[0] == a[1] + 1 for a, b in itertools.pairwise(spans)):
        spans = [(spans[0][0], spans[-1][1])]
    shown = ";".join(f"{s + base} {e + base}" for s, e in spans)
    return f"T{n}\t{label} {shown}\t{' '.join(words)}\n"


def relation(n: int, label: str, a: int, b: int) -> str:
    return f"R{n}\t{label} Arg1:T{a} Arg2:T{b}\n"


def _write(folder: Path, text: str, ann: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "scenario.txt").write_bytes(text.encode("utf-8"))
    (folder / "scenario.ann").write_bytes(ann.encode("utf-8"))


def build(root: Path, case: dict) -> tuple[Path, Path]:
    """The gold and one run of a case, every scenario folder holding the same files."""
    gold, run = root / "gold", root / "run"
    for name in FOLDERS:
        _write(gold / name, case["gold_text"], case["gold_ann"])
        _write(run / name, case["sub_text"], case["sub_ann"])
    return gold, run


S = SENTENCES

# Partial matches need the same label: "afecta las" (Predicate) overlaps the gold Action
# "afecta" and is spurious (2019: partial); "El asma" overlaps the gold Concept "asma": partial.
PARTIAL = {
    "gold_text": "\n".join(S[:1]) + "\n",
    "gold_ann": entity(S, 1, "Concept", 0, "asma")
    + entity(S, 2, "Action", 0, "afecta")
    + entity(S, 3, "Concept", 0, "vías", "respiratorias")
    + relation(1, "subject", 2, 1)
    + relation(2, "target", 2, 3),
    "sub_text": "\n".join(S[:1]) + "\n",
    "sub_ann": entity(S, 1, "Concept", 0, "El", "asma")
    + entity(S, 2, "Predicate", 0, "afecta", "las")
    + entity(S, 3, "Concept", 0, "vías", "respiratorias")
    + relation(1, "subject", 2, 1)
    + relation(2, "target", 2, 3),
}

# Sentences aligned by normalised text: the submission lacks the first sentence (its gold is
# missing) and writes the second in other case and punctuation (aligned); an unannotated gold
# sentence is skipped, the predictions for it included; a sentence after the gold's last is
# ignored.
_SUB_TEXTS = ["la diabetes, tipo 2 causa sed", S[2], S[3], "Una frase de más."]
ALIGNMENT = {
    "gold_text": "\n".join(S) + "\n",
    "gold_ann": entity(S, 1, "Concept", 0, "asma")
    + entity(S, 2, "Concept", 1, "diabetes")
    + entity(S, 3, "Concept", 1, "sed")
    + relation(1, "causes", 2, 3)
    + entity(S, 4, "Concept", 3, "cáncer")
    + entity(S, 5, "Concept", 3, "grave"),
    "sub_text": "\n".join(_SUB_TEXTS) + "\n",
    "sub_ann": entity(_SUB_TEXTS, 1, "Concept", 0, "diabetes")
    + entity(_SUB_TEXTS, 2, "Concept", 0, "sed")
    + relation(1, "causes", 1, 2)
    + entity(_SUB_TEXTS, 6, "Concept", 1, "anotar")
    + entity(_SUB_TEXTS, 3, "Concept", 2, "cáncer")
    + entity(_SUB_TEXTS, 4, "Concept", 3, "frase"),
}

# Key phrases sorted by their pairs: the gold lists "cáncer de" before "cáncer", but sorted,
# "cáncer" comes first, so the partial "El cáncer" maps onto it and the relation matches.
ORDER = {
    "gold_text": S[3] + "\n",
    "gold_ann": entity([S[3]], 1, "Concept", 0, "cáncer", "de")
    + entity([S[3]], 2, "Concept", 0, "cáncer")
    + entity([S[3]], 3, "Predicate", 0, "grave")
    + relation(1, "has-property", 2, 3),
    "sub_text": S[3] + "\n",
    "sub_ann": entity([S[3]], 5, "Predicate", 0, "grave")
    + entity([S[3]], 4, "Concept", 0, "El", "cáncer")
    + relation(1, "has-property", 4, 5),
}

# Relation labels as written (IS-A is not is-a); a * line relates its first id to each other;
# legacy E lines (an argument's role without digits, lower-cased); duplicate relations once;
# attribute and note lines ignored.
_T = S[:2]
LABELS = {
    "gold_text": "\n".join(_T) + "\n",
    "gold_ann": entity(_T, 1, "Concept", 0, "asma")
    + entity(_T, 2, "Action", 0, "afecta")
    + entity(_T, 3, "Concept", 0, "vías", "respiratorias")
    + entity(_T, 4, "Concept", 1, "diabetes")
    + entity(_T, 5, "Concept", 1, "tipo", "2")
    + entity(_T, 6, "Concept", 1, "sed")
    + relation(1, "subject", 2, 1)
    + relation(2, "target", 2, 3)
    + relation(3, "is-a", 5, 4)
    + "*\tsame-as T4 T5 T6\n",
    "sub_text": "\n".join(_T) + "\n",
    "sub_ann": entity(_T, 1, "Concept", 0, "asma")
    + entity(_T, 2, "Action", 0, "afecta")
    + entity(_T, 3, "Concept", 0, "vías", "respiratorias")
    + entity(_T, 4, "Concept", 1, "diabetes")
    + entity(_T, 5, "Concept", 1, "tipo", "2")
    + entity(_T, 6, "Concept", 1, "sed")
    + "E1\tAction:T2 Subject1:T1 Target2:T3\n"
    + relation(1, "IS-A", 5, 4)
    + relation(2, "target", 2, 3)
    + "*\tsame-as T6 T4\n"
    + "A1\tNegated T1\n"
    + "#1\tAnnotatorNotes T1\ta note\n",
}

# The file quirks: a byte order mark (not alphanumeric: aligned anyway), CRLF line ends, an
# empty line (dropped before the offsets are counted), trailing spaces (stripped), a form feed
# that ends a sentence as a line break does (str.splitlines); and a scenario without relations
# (scenario 3's zero denominators give the float 0.0).
_Q = ["\ufeff" + S[0], S[1], S[3]]
QUIRKS = {
    "gold_text": "\n".join([S[0], S[1], S[3]]) + "\n",
    "gold_ann": entity(S, 1, "Concept", 0, "asma")
    + entity(S, 2, "Concept", 1, "sed")
    + entity([S[0], S[1], S[3]], 3, "Concept", 2, "grave"),
    "sub_text": "\ufeff" + S[0] + "  \r\n\r\n" + S[1] + "\x0c" + S[3] + "\r\n",
    "sub_ann": entity(_Q, 1, "Concept", 0, "asma")
    + entity(_Q, 2, "Concept", 1, "sed")
    + entity(_Q, 3, "Concept", 2, "grave"),
}

# A BRAT id written twice: the later T line takes the id over (the relations from it belong to
# its sentence, sentence 2), the earlier phrase stays in sentence 1 (a spurious duplicate there).
DUPLICATES = dict(LABELS, sub_ann=entity(_T, 4, "Concept", 0, "asma") + LABELS["sub_ann"])

CASES = {
    "partial": PARTIAL,
    "alignment": ALIGNMENT,
    "order": ORDER,
    "labels": LABELS,
    "quirks": QUIRKS,
    "duplicates": DUPLICATES,
}

_KEYS = ("correct_A", "incorrect_A", "partial_A", "spurious_A", "missing_A")
_KEYS += ("correct_B", "spurious_B", "missing_B", "recall", "precision", "f1")


# The official 2020 evaluate_scenario on each case, in scenarios 1 to 4 (the counts are the same
# in every scenario, the scores the scenario's share of them; scenario 4 is scored as 1).
EXPECTED = {
    "partial": [
        (1, 0, 1, 1, 1, 0, 2, 2, 0.3, 0.3, 0.3),
        (1, 0, 1, 1, 1, 0, 2, 2, 0.5, 0.5, 0.5),
        (1, 0, 1, 1, 1, 0, 2, 2, 0.0, 0.0, 0.0),
        (1, 0, 1, 1, 1, 0, 2, 2, 0.3, 0.3, 0.3),
    ],
    "alignment": [
        (2, 0, 1, 0, 2, 1, 0, 0, 0.5833333333333334, 0.875, 0.7000000000000001),
        (2, 0, 1, 0, 2, 1, 0, 0, 0.5, 0.8333333333333334, 0.625),
        (2, 0, 1, 0, 2, 1, 0, 0, 1.0, 1.0, 1.0),
        (2, 0, 1, 0, 2, 1, 0, 0, 0.5833333333333334, 0.875, 0.7000000000000001),
    ],
    "order": [
        (1, 0, 1, 0, 1, 1, 0, 0, 0.625, 0.8333333333333334, 0.7142857142857143),
        (1, 0, 1, 0, 1, 1, 0, 0, 0.5, 0.75, 0.6),
        (1, 0, 1, 0, 1, 1, 0, 0, 1.0, 1.0, 1.0),
        (1, 0, 1, 0, 1, 1, 0, 0, 0.625, 0.8333333333333334, 0.7142857142857143),
    ],
    "labels": [
        (6, 0, 0, 0, 0, 3, 1, 2, 0.8181818181818182, 0.9, 0.8571428571428572),
        (6, 0, 0, 0, 0, 3, 1, 2, 1.0, 1.0, 1.0),
        (6, 0, 0, 0, 0, 3, 1, 2, 0.6, 0.75, 0.6666666666666665),
        (6, 0, 0, 0, 0, 3, 1, 2, 0.8181818181818182, 0.9, 0.8571428571428572),
    ],
    "quirks": [
        (2, 0, 1, 0, 0, 0, 0, 0, 0.8333333333333334, 0.8333333333333334, 0.8333333333333334),
        (2, 0, 1, 0, 0, 0, 0, 0, 0.8333333333333334, 0.8333333333333334, 0.8333333333333334),
        (2, 0, 1, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0),
        (2, 0, 1, 0, 0, 0, 0, 0, 0.8333333333333334, 0.8333333333333334, 0.8333333333333334),
    ],
    "duplicates": [
        (6, 0, 0, 1, 0, 2, 2, 3, 0.7272727272727273, 0.7272727272727273, 0.7272727272727273),
        (6, 0, 0, 1, 0, 2, 2, 3, 1.0, 0.8571428571428571, 0.923076923076923),
        (6, 0, 0, 1, 0, 2, 2, 3, 0.4, 0.5, 0.4444444444444445),
        (6, 0, 0, 1, 0, 2, 2, 3, 0.7272727272727273, 0.7272727272727273, 0.7272727272727273),
    ],
}
SCENARIOS = ("scenario1", "scenario2", "scenario3", "scenario4")


def _expected(case: str, scenario: str) -> dict[str, float]:
    return dict(zip(_KEYS, EXPECTED[case][SCENARIOS.index(scenario)]))


def _same(got: dict, expected: dict) -> bool:
    """Equal values of the same types (the official counts are ints, its scores floats)."""
    return got == expected and all(type(got[k]) is type(expected[k]) for k in expected)


def _score(tmp_path: Path, case: dict, scenario: str | None = None) -> dict:
    gold, run = build(tmp_path, case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return taskeval.score_files(
            "ehealthkd", references=gold, predictions=run, edition=2020, scenario=scenario
        )


@pytest.mark.parametrize("case", CASES)
def test_files_score_as_the_official_2020_evaluation(tmp_path, case):
    scores = _score(tmp_path, CASES[case])
    assert list(scores) == list(SCENARIOS)
    for scenario in SCENARIOS:
        assert _same(scores[scenario], _expected(case, scenario)), (scenario, scores[scenario])


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_rows_read_from_the_files_score_alike(tmp_path, case, scenario):
    gold, run = build(tmp_path, CASES[case])
    folder = FOLDERS[SCENARIOS.index(scenario)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = read_official(gold / folder, run / folder)
        scores = taskeval.load("ehealthkd", scenario).compute(**rows, edition=2020)
    assert _same(scores, _expected(case, scenario))


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
        ("R9\tcauses Arg1:T1 Arg2:T4\n", "crosses sentence boundaries"),
        ("\n", "unknown annotation line"),
        ("R9\tcauses Arg1:T1 Arg2:T99\n", "'T99' is not the id of a key phrase"),
        ("T9\tConcept 0 x\tasma\n", "each span must be 'START END' of ints"),
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
    assert _same(printed["scenario4"], _expected("alignment", "scenario4"))


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
            _write(top / mode / "run1" / name, case["sub_text"], case["sub_ann"])
    for folder in ("development/main", "training"):
        _write(tmp_path / folder, ORDER["gold_text"], ORDER["gold_ann"])
    _write(tmp_path / "development/transfer", ALIGNMENT["gold_text"], ALIGNMENT["gold_ann"])
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
    assert list(dev) == ["team/dev/run1"] and list(train) == ["team/train/run1"]
    assert list(dev["team/dev/run1"]) == list(SCENARIOS)
    assert list(train["team/train/run1"]) == list(SCENARIOS[:3])
    for scenario, scores in dev["team/dev/run1"].items():
        case = "alignment" if scenario == "scenario4" else "order"
        assert _same(scores, _expected(case, scenario))


def _bad_phrase(texts: list[str], k: int) -> str:
    """A single span from sentence ``k``'s start to 3 characters past its end: it cannot be
    split into words (the official tool scores it silently, on a cut text)."""
    start = _starts(texts)[k]
    return f"T90\tConcept {start} {start + len(texts[k]) + 3}\tx\n"


def test_an_unscorable_span_counts_only_where_its_sentence_is_scored(tmp_path):
    # In the sentence of the unannotated gold, never scored: the official numbers.
    unscored = dict(ALIGNMENT, sub_ann=ALIGNMENT["sub_ann"] + _bad_phrase(_SUB_TEXTS, 1))
    for scenario, scores in _score(tmp_path / "a", unscored).items():
        assert _same(scores, _expected("alignment", scenario))
    # In a scored sentence: refused, naming the line.
    scored = dict(ALIGNMENT, sub_ann=ALIGNMENT["sub_ann"] + _bad_phrase(_SUB_TEXTS, 0))
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
