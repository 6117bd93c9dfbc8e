"""Hand-made BRAT cases of ``ehealthkd``'s 2020 and 2021 editions, each isolating one rule in
which they differ from 2019, and the official 2020 evaluation's numbers on them (2021 scores by
the same rules: its tests check it gives these numbers too, from its own file names)."""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import taskeval
from taskeval._metrics.ehealthkd.inputs import read_official

SENTENCES = [
    "El asma afecta las vías respiratorias.",
    "La diabetes tipo 2 causa sed.",
    "Sin anotar aquí.",
    "El cáncer de pulmón es grave.",
]
FOLDERS = ("scenario1-main", "scenario2-taskA", "scenario3-taskB", "scenario4-transfer")


def starts(texts: list[str]) -> list[int]:
    """Where each sentence starts: the kept lines joined by one newline, as officially."""
    out, at = [], 0
    for text in texts:
        out.append(at)
        at += len(text) + 1
    return out


def entity(texts: list[str], n: int, label: str, k: int, *words: str) -> str:
    """A ``T`` line for the words (each found left to right in sentence ``k``); one word or
    adjacent words make one span, others one span per word."""
    text, base = texts[k], starts(texts)[k]
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


def write_scenario(folder: Path, text: str, ann: str, sentence_file: str = "scenario.txt") -> None:
    """A BRAT scenario folder: the sentence file and the ``.ann`` beside it, bytes as given."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / sentence_file).write_bytes(text.encode("utf-8"))
    (folder / sentence_file).with_suffix(".ann").write_bytes(ann.encode("utf-8"))


def build(
    root: Path, case: dict, sentence_file: str = "scenario.txt", folders: tuple = FOLDERS
) -> tuple[Path, Path]:
    """The gold and one run of a case, every scenario folder holding the same files (2020:
    ``scenario.txt``, 2021: ``output.txt``)."""
    gold, run = root / "gold", root / "run"
    for name in folders:
        write_scenario(gold / name, case["gold_text"], case["gold_ann"], sentence_file)
        write_scenario(run / name, case["sub_text"], case["sub_ann"], sentence_file)
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
SUB_TEXTS = ["la diabetes, tipo 2 causa sed", S[2], S[3], "Una frase de más."]
ALIGNMENT = {
    "gold_text": "\n".join(S) + "\n",
    "gold_ann": entity(S, 1, "Concept", 0, "asma")
    + entity(S, 2, "Concept", 1, "diabetes")
    + entity(S, 3, "Concept", 1, "sed")
    + relation(1, "causes", 2, 3)
    + entity(S, 4, "Concept", 3, "cáncer")
    + entity(S, 5, "Concept", 3, "grave"),
    "sub_text": "\n".join(SUB_TEXTS) + "\n",
    "sub_ann": entity(SUB_TEXTS, 1, "Concept", 0, "diabetes")
    + entity(SUB_TEXTS, 2, "Concept", 0, "sed")
    + relation(1, "causes", 1, 2)
    + entity(SUB_TEXTS, 6, "Concept", 1, "anotar")
    + entity(SUB_TEXTS, 3, "Concept", 2, "cáncer")
    + entity(SUB_TEXTS, 4, "Concept", 3, "frase"),
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
TWO = S[:2]
LABELS = {
    "gold_text": "\n".join(TWO) + "\n",
    "gold_ann": entity(TWO, 1, "Concept", 0, "asma")
    + entity(TWO, 2, "Action", 0, "afecta")
    + entity(TWO, 3, "Concept", 0, "vías", "respiratorias")
    + entity(TWO, 4, "Concept", 1, "diabetes")
    + entity(TWO, 5, "Concept", 1, "tipo", "2")
    + entity(TWO, 6, "Concept", 1, "sed")
    + relation(1, "subject", 2, 1)
    + relation(2, "target", 2, 3)
    + relation(3, "is-a", 5, 4)
    + "*\tsame-as T4 T5 T6\n",
    "sub_text": "\n".join(TWO) + "\n",
    "sub_ann": entity(TWO, 1, "Concept", 0, "asma")
    + entity(TWO, 2, "Action", 0, "afecta")
    + entity(TWO, 3, "Concept", 0, "vías", "respiratorias")
    + entity(TWO, 4, "Concept", 1, "diabetes")
    + entity(TWO, 5, "Concept", 1, "tipo", "2")
    + entity(TWO, 6, "Concept", 1, "sed")
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
QUIRK_TEXTS = ["\ufeff" + S[0], S[1], S[3]]
QUIRKS = {
    "gold_text": "\n".join([S[0], S[1], S[3]]) + "\n",
    "gold_ann": entity(S, 1, "Concept", 0, "asma")
    + entity(S, 2, "Concept", 1, "sed")
    + entity([S[0], S[1], S[3]], 3, "Concept", 2, "grave"),
    "sub_text": "\ufeff" + S[0] + "  \r\n\r\n" + S[1] + "\x0c" + S[3] + "\r\n",
    "sub_ann": entity(QUIRK_TEXTS, 1, "Concept", 0, "asma")
    + entity(QUIRK_TEXTS, 2, "Concept", 1, "sed")
    + entity(QUIRK_TEXTS, 3, "Concept", 2, "grave"),
}

# A BRAT id written twice: the later T line takes the id over (the relations from it belong to
# its sentence, sentence 2), the earlier phrase stays in sentence 1 (a spurious duplicate there).
DUPLICATES = dict(LABELS, sub_ann=entity(TWO, 4, "Concept", 0, "asma") + LABELS["sub_ann"])

CASES = {
    "partial": PARTIAL,
    "alignment": ALIGNMENT,
    "order": ORDER,
    "labels": LABELS,
    "quirks": QUIRKS,
    "duplicates": DUPLICATES,
}

KEYS = ("correct_A", "incorrect_A", "partial_A", "spurious_A", "missing_A")
KEYS += ("correct_B", "spurious_B", "missing_B", "recall", "precision", "f1")


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


def expected(case: str, scenario: str) -> dict[str, float]:
    return dict(zip(KEYS, EXPECTED[case][SCENARIOS.index(scenario)]))


def same(got: dict, expected: dict) -> bool:
    """Equal values of the same types (the official counts are ints, its scores floats)."""
    return got == expected and all(type(got[k]) is type(expected[k]) for k in expected)


# What only the 2021 reader forgives (2020 refuses each): a T line without its text field and
# one with an extra tab field (in place of LABELS' T1 and T2 lines); a key phrase past the last
# sentence (dropped); relations to an id no key phrase has, across sentences, and an event
# argument to an unknown id (each dropped).
_PAST = starts(TWO)[1] + len(TWO[1]) + 1
FORGIVEN_EDITS = {
    "no text field": ("\tasma\n", "\n"),
    "an extra tab field": ("\tafecta\n", "\tafecta\tx\n"),
    "past the last sentence": ("", f"T50\tConcept {_PAST} {_PAST + 3}\tzz\n"),
    "an unknown id": ("", relation(7, "causes", 1, 99)),
    "across sentences": ("", relation(8, "causes", 1, 4)),
    "an event argument to an unknown id": ("", "E2\tAction:T2 Target1:T77\n"),
}


def forgiven(*names: str) -> dict:
    """LABELS with the named edits made to its submission (all of them by default)."""
    ann = LABELS["sub_ann"]
    for name in names or FORGIVEN_EDITS:
        old, new = FORGIVEN_EDITS[name]
        ann = ann.replace(old, new, 1) if old else ann + new
    return dict(LABELS, sub_ann=ann)


# The official 2021 score.py on each case, scenarios 1 to 3 (KEYS order; scenario 2 counts no
# relations: its B counts are 0).
EXPECTED_2021 = {
    "partial": [
        (1, 0, 1, 1, 1, 0, 2, 2, 0.3, 0.3, 0.3),
        (1, 0, 1, 1, 1, 0, 0, 0, 0.5, 0.5, 0.5),
        (1, 0, 1, 1, 1, 0, 2, 2, 0.0, 0.0, 0.0),
    ],
    "alignment": [
        (2, 0, 1, 0, 2, 1, 0, 0, 0.5833333333333334, 0.875, 0.7000000000000001),
        (2, 0, 1, 0, 2, 0, 0, 0, 0.5, 0.8333333333333334, 0.625),
        (2, 0, 1, 0, 2, 1, 0, 0, 1.0, 1.0, 1.0),
    ],
    "order": [
        (1, 0, 1, 0, 1, 1, 0, 0, 0.625, 0.8333333333333334, 0.7142857142857143),
        (1, 0, 1, 0, 1, 0, 0, 0, 0.5, 0.75, 0.6),
        (1, 0, 1, 0, 1, 1, 0, 0, 1.0, 1.0, 1.0),
    ],
    "labels": [
        (6, 0, 0, 0, 0, 3, 1, 2, 0.8181818181818182, 0.9, 0.8571428571428572),
        (6, 0, 0, 0, 0, 0, 0, 0, 1.0, 1.0, 1.0),
        (6, 0, 0, 0, 0, 3, 1, 2, 0.6, 0.75, 0.6666666666666665),
    ],
    "quirks": [
        (2, 0, 1, 0, 0, 0, 0, 0, 0.8333333333333334, 0.8333333333333334, 0.8333333333333334),
        (2, 0, 1, 0, 0, 0, 0, 0, 0.8333333333333334, 0.8333333333333334, 0.8333333333333334),
        (2, 0, 1, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0),
    ],
    "duplicates": [
        (6, 0, 0, 1, 0, 2, 2, 3, 0.7272727272727273, 0.7272727272727273, 0.7272727272727273),
        (6, 0, 0, 1, 0, 0, 0, 0, 1.0, 0.8571428571428571, 0.923076923076923),
        (6, 0, 0, 1, 0, 2, 2, 3, 0.4, 0.5, 0.4444444444444445),
    ],
}


# Each BRAT edition's sentence file and scenario folders, and its official numbers on CASES.
EDITION_FILES = {2020: ("scenario.txt", FOLDERS), 2021: ("output.txt", FOLDERS[:3])}
EDITION_EXPECTED = {2020: EXPECTED, 2021: EXPECTED_2021}


def score_tree(root: Path, case: dict, edition: int, **options) -> dict:
    """``score_files`` on the case's gold and run, laid out as the edition lays them out."""
    gold, run = build(root, case, *EDITION_FILES[edition])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return taskeval.score_files(
            "ehealthkd", references=gold, predictions=run, edition=edition, **options
        )


def score_rows(root: Path, case: dict, scenario: str, edition: int) -> dict:
    """``compute()`` on the rows ``read_official`` makes of one scenario folder of the case."""
    gold, run = build(root, case, *EDITION_FILES[edition])
    folder = FOLDERS[int(scenario.removeprefix("scenario")) - 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = read_official(gold / folder, run / folder)
        return taskeval.load("ehealthkd", scenario).compute(**rows, edition=edition)
