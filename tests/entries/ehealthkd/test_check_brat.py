"""``taskeval check ehealthkd`` on the BRAT editions' submissions (2020 ``scenario.*``, 2021
``output.*``): every line the edition's reader fails on is an error at its line, what the 2021
reader drops a warning, labels outside the edition's vocabulary errors; a clean run is ready."""

from __future__ import annotations

import pytest

import taskeval

from .brat_cases import EDITION_FILES, ORDER, TWO, build, forgiven, starts

# Three scenario folders in either edition, so that the counts below hold for both.
EDITIONS = {edition: (txt, folders[:3]) for edition, (txt, folders) in EDITION_FILES.items()}


def _check(tmp_path, case: dict, edition: int, references: bool = True):
    gold, run = build(tmp_path, case, *EDITIONS[edition])
    return taskeval.check("ehealthkd", run, references=gold if references else None), run


def _found(report) -> list[tuple[str, str, int | None, str]]:
    return [(p.level, p.file.rsplit("/", 2)[-2], p.line, p.message) for p in report.problems]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_clean_run_is_ready(tmp_path, edition):
    report, _ = _check(tmp_path, ORDER, edition)
    assert report.ok and not report.problems


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_unreadable_line_is_an_error_at_its_line(tmp_path, edition):
    bad = ORDER["sub_ann"] + "T7\tConcept x 4\tEl\n" + "X1\twhat\n" + "R9\tis-a Arg1:T4\n"
    report, _ = _check(tmp_path, dict(ORDER, sub_ann=bad), edition, references=False)
    errors = [(p.line, p.message) for p in report.problems if p.level == "error"]
    assert [line for line, _ in errors] == [4, 5, 6] * 3  # in each of the three folders
    assert "each span must be 'START END' of ints" in errors[0][1]
    assert f"the official {edition} reader fails here" in errors[1][1]


@pytest.mark.parametrize("edition", EDITIONS)
def test_malformed_event_and_attribute_lines_are_each_an_error(tmp_path, edition):
    bad = ORDER["sub_ann"] + "E1 Action:T4\n" + "A1\tNegated\n" + "A2\tNegated T77\n"
    bad += "E2\tAction:T70 Subject:T4\n" + "E3\tAction:T71 Subject:T4\n"
    report, _ = _check(tmp_path, dict(ORDER, sub_ann=bad), edition, references=False)
    errors = dict((p.line, p.message) for p in report.problems if p.level == "error")
    # The read goes on after each: both unknown triggers and the attribute are found.
    assert sorted(errors) == [4, 5, 6, 7, 8]
    assert "expected E<n><TAB>TYPE:ID ROLE:ID" in errors[4]
    assert "expected A<n><TAB>NAME ID" in errors[5]
    assert "the attribute's key phrase is not in the file" in errors[6]
    assert "the event's trigger 'T71' is not a key phrase" in " ".join(
        p.message for p in report.problems if p.line == 8
    )


def test_what_2021_drops_is_a_warning_and_2020_refuses(tmp_path):
    case = forgiven("an unknown id", "across sentences")
    report, _ = _check(tmp_path / "a", case, 2021, references=False)
    said = [(p.level, p.line, p.message) for p in report.problems][:3]
    # LABELS' own IS-A never matches is-a (labels compared as written): an error.
    assert [(level, line) for level, line, _ in said] == [
        ("error", None),
        ("warning", 13),
        ("warning", 14),
    ]
    assert "relation 'IS-A' from T5 to T4 is not one of" in said[0][2]
    assert "dropped, as the official 2021 reader drops it" in said[1][2]
    report, _ = _check(tmp_path / "b", case, 2020, references=False)
    assert not report.ok
    assert [p.line for p in report.problems if p.level == "error"] == [None, 13, 14] * 3


def test_a_key_phrase_label_error_is_at_its_t_line(tmp_path):
    # An A line and an R line numbered like the phrase do not move it.
    sub = (
        ORDER["sub_ann"].replace("\tConcept ", "\tConcpt ")
        + "A4\tNegated T4\nR4\tis-a Arg1:T4 Arg2:T5\n"
    )
    report, _ = _check(tmp_path, dict(ORDER, sub_ann=sub), 2021, references=False)
    assert [(p.line, p.message[:18]) for p in report.problems][:1] == [(2, "key phrase T4: lab")]


def test_a_file_that_is_not_utf8_is_an_error_and_one_folder_is_checked(tmp_path):
    _, run = build(tmp_path, ORDER, *EDITIONS[2021])
    folder = run / EDITIONS[2021][1][0]
    (folder / "output.ann").write_bytes(b"T1\tConcept 0 2\t\xe9l\n")
    report = taskeval.check("ehealthkd", folder)
    assert [(p.level, p.message) for p in report.problems] == [
        ("error", "not UTF-8 (" + report.problems[0].message.split("(", 1)[1])
    ]
    assert report.problems[0].file.endswith("output.ann")


@pytest.mark.parametrize("edition", EDITIONS)
def test_labels_outside_the_vocabulary_are_errors(tmp_path, edition):
    sub = ORDER["sub_ann"].replace("Predicate", "[SEP]").replace("has-property", "has-part")
    report, _ = _check(tmp_path, dict(ORDER, sub_ann=sub), edition)
    messages = [(p.line, p.message) for p in report.problems if p.level == "error"]
    assert (
        1,
        "key phrase T5: label '[SEP]' is not one of Concept, Action, Predicate, "
        "Reference (it never matches)",
    ) in messages
    # has-part is a relation of 2021's guidelines, not of 2020's.
    assert any("relation 'has-part' from T4 to T5 is not one of" in m for _, m in messages) == (
        edition == 2020
    )


def test_a_folder_without_its_ann_and_a_missing_scenario(tmp_path):
    gold, run = build(tmp_path, ORDER, *EDITIONS[2021])
    (run / "scenario2-taskA" / "output.ann").unlink()
    report = taskeval.check("ehealthkd", run, references=gold)
    errors = [p.message for p in report.problems if p.level == "error"]
    assert any("missing output.ann: the scorer reads both" in m for m in errors)
    for name in ("output.txt", "output.ann"):
        (run / "scenario3-taskB" / name).unlink()
    report = taskeval.check("ehealthkd", run, references=gold)
    errors = [p.message for p in report.problems if p.level == "error"]
    assert any("for scenario3; the official 2021 script stops here" in m for m in errors)


def test_a_phrase_past_the_text_in_2021_is_a_warning(tmp_path):
    past = starts(TWO)[1] + len(TWO[1]) + 1
    sub = ORDER["sub_ann"] + f"T50\tConcept {past} {past + 2}\tzz\n"
    report, _ = _check(tmp_path, dict(ORDER, sub_ann=sub), 2021)
    assert report.ok
    assert [(p.level, p.line) for p in report.problems][:1] == [("warning", 4)]
