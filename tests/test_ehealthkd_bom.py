"""A UTF-8 byte order mark is text to the official eHealth-KD reader (a plain UTF-8 read): the
first sentence starts with U+FEFF, and its offsets count it. A reader that dropped it would shift
every offset of the file by one against the official ones."""

from __future__ import annotations

import warnings

import taskeval

TEXT = "\ufeffel gato come pescado .\nla casa es roja .\n"
# Offsets over the decoded file, the mark included: gato 4-8, pescado 14-21, casa 27-31, roja 35-39.
GOLD_A = "1\t4 8\tConcept\tgato\n2\t14 21\tConcept\tpescado\n3\t27 31\tConcept\tcasa\n4\t35 39\tConcept\troja\n"
# The submission's sentences written without the mark, its offsets one less.
SUBMITTED_A = "1\t3 7\tConcept\tgato\n2\t13 20\tConcept\tpescado\n3\t26 30\tConcept\tcasa\n4\t34 38\tConcept\troja\n"
RELATIONS = "target\t1\t2\n"


def write(folder, files: dict[str, str]) -> None:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_a_byte_order_mark_is_part_of_the_first_sentence(tmp_path):
    gold, submission = tmp_path / "gold" / "scenario1-main", tmp_path / "sub" / "scenario1-main"
    write(
        gold,
        {
            "input_scenario1.txt": TEXT,
            "output_a_scenario1.txt": GOLD_A,
            "output_b_scenario1.txt": RELATIONS,
        },
    )
    write(
        submission,
        {
            "output_scenario1.txt": TEXT[1:],
            "output_a_scenario1.txt": SUBMITTED_A,
            "output_b_scenario1.txt": RELATIONS,
        },
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = taskeval.score_files("ehealthkd", references=gold, predictions=submission)
    # The official evaluation (evaltest.py) on these folders: the first sentence differs from
    # the gold's (its mark) and is skipped with a warning; the second counts its two phrases.
    assert scores == {
        "scenario1": {
            "correct_A": 2,
            "incorrect_A": 0,
            "partial_A": 0,
            "missing_A": 0,
            "spurious_A": 0,
            "correct_B": 0,
            "missing_B": 0,
            "spurious_B": 0,
            "precision": 1.0,
            "recall": 1.0,
            "f1": 1.0,
        }
    }
    assert any("differ from the gold text" in str(w.message) for w in caught)

    # The gold read alone keeps the mark, and the phrases stay on their words.
    inputs = taskeval.read_official("ehealthkd", references=gold, predictions=gold)
    first = inputs["references"][0]
    assert first["text"] == "\ufeffel gato come pescado ."
    assert [first["text"][s:e] for k in first["keyphrases"] for s, e in k["spans"]] == [
        "gato",
        "pescado",
    ]
