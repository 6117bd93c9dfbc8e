"""ehealthkd, edition 2020: taskeval against the official eHealth-KD 2020 evaluation on random
BRAT file sets.

Each case writes a gold folder and a run folder in the 2020 layout (``scenario1-main`` to
``scenario4-transfer``, each a ``scenario.txt`` with its ``scenario.ann``), drawn to sit on the
2020 rules' edges: submitted sentences missing, added, reordered, or written in other case and
punctuation (aligned by normalised text) or with other words (not aligned); unannotated gold
sentences the run annotates; overlapping phrases with the same and with other labels (partial
only with the same label); phrases listed in any order (sorted by the reader); key-phrase ids
repeated as ``T5`` and ``T05``; relation labels in other case; ``*`` lines with several ids;
legacy ``E`` lines, ``A`` and ``#`` lines; blank lines (dropped), whitespace-only lines (kept,
empty), CRLF and lone CR, the other breaks of ``str.splitlines()`` (``\x0c``, U+2028...); now and then a relation across sentences or a line the reader cannot
parse (no official number: taskeval must refuse); spans that cannot be scored (past the
sentence, start > end) in a sentence that is never scored (accepted, as officially).

Every case is scored by the official code (``scripts/evaltest.py``'s ``evaluate_scenario``,
imported from the official checkout ``ehealthkd-2020``) and by ``compute(edition=2020)`` on
``read_official`` inputs, and by ``score_files(edition=2020)`` on the whole tree; every
``--cli-every``-th case also through ``taskeval score ehealthkd --edition 2020``.

    python scripts/differential/run.py ehealthkd:2020 --official DIR --cases 5000
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import Outcome, compare_values, run

import taskeval

FOLDERS = {1: "scenario1-main", 2: "scenario2-taskA", 3: "scenario3-taskB", 4: "scenario4-transfer"}
WORDS = [
    "el",
    "tipo",
    "de",
    "cáncer",
    "vías",
    "a",
    "Ωmega",
    "𝔘nicode",
    "ñ",
    "x",
    "año",
    "2",
    "e\u0301",
]
PUNCT = ["", "", "", ".", ",", " .", "¿", "-"]
KP_LABELS = ["Concept", "Action", "Predicate", "Reference"]
REL_LABELS = ["is-a", "same-as", "same-as", "subject", "target", "part-of", "in-place"]
EDGES = ["", "", "", " ", "\t", "\xa0", "  "]  # stripped from line edges, no line break
SPLITLINES_ONLY = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]

_official: dict = {}
_metrics: dict = {}
stats = {"official_raised": 0}


def official_code(official: Path):
    if not _official:
        sys.path.insert(0, str(official / "ehealthkd-2020"))
        from scripts.evaltest import evaluate_scenario  # the official code, never copied
        from scripts.utils import Collection

        _official.update(evaluate_scenario=evaluate_scenario, Collection=Collection)
    return _official["evaluate_scenario"], _official["Collection"]


def metric(scenario: int):
    if scenario not in _metrics:
        _metrics[scenario] = taskeval.load("ehealthkd", f"scenario{scenario}")
    return _metrics[scenario]


# --------------------------------------------------------------------------------------------
# Drawing a case: sentences as the reader keeps them, and annotations on them


def draw_text(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 7))]
    text = rng.choice(["", "", "¡"]) + words[0]
    for word in words[1:]:
        text += rng.choice([" ", " ", " ", "  "]) + word
    return text + rng.choice(PUNCT)


def word_bounds(text: str) -> list[tuple[int, int]]:
    bounds, start = [], None
    for i, ch in enumerate(text + " "):
        if ch != " " and start is None:
            start = i
        elif ch == " " and start is not None:
            bounds.append((start, i))
            start = None
    return bounds


def draw_pairs(rng: random.Random, text: str) -> list[tuple[int, int]]:
    """Sentence-relative pairs: words, one span over words, discontinuous, mid-word."""
    words = word_bounds(text)
    i = rng.randrange(len(words))
    j = rng.randint(i, min(len(words) - 1, i + 2))
    kind = rng.randint(0, 5)
    if kind <= 1:
        return [(words[i][0], words[j][1])]
    if kind == 2:
        return list(words[i : j + 1])
    if kind == 3 and len(words) > 1:
        return rng.sample(words, min(len(words), rng.randint(2, 3)))
    if kind == 4:
        a = rng.randrange(len(text))
        return [(a, rng.randint(a + 1, len(text)) if a < len(text) else a)]
    return [words[i]]


class Phrase:
    def __init__(self, number: int, raw: str, pairs: list[tuple[int, int]], label: str):
        self.number, self.raw, self.pairs, self.label = number, raw, pairs, label


class Sent:
    """One kept sentence of a side: its text, key phrases and relation lines."""

    def __init__(self, text: str):
        self.text = text
        self.phrases: list[Phrase] = []
        self.lines: list[tuple[str, str, list[str]]] = []  # kind (R, *, E), label, raw ids


def _raw_id(rng: random.Random, number: int, used: set[str]) -> str:
    """``T<n>``, or now and then ``T0<n>`` (the same int id, another BRAT id)."""
    raw = f"T{number}"
    if raw in used or rng.random() < 0.05:
        raw = f"T0{number}"
    while raw in used:
        raw = "T0" + raw[1:]
    used.add(raw)
    return raw


def annotate(rng: random.Random, sent: Sent, counter: list[int], used: set[str]) -> None:
    if not word_bounds(sent.text):
        return
    for _ in range(rng.randint(1, 5)):
        if sent.phrases and rng.random() < 0.1:
            number = rng.choice(sent.phrases).number  # an int id repeated in the sentence
        else:
            number, counter[0] = counter[0], counter[0] + rng.choice([1, 1, 2])
        pairs = draw_pairs(rng, sent.text)
        if any(p.pairs == pairs for p in sent.phrases) and rng.random() < 0.9:
            continue  # span-identical gold phrases make the official code assert, mostly
        sent.phrases.append(
            Phrase(number, _raw_id(rng, number, used), pairs, rng.choice(KP_LABELS))
        )
    draw_relations(rng, sent)


def draw_relations(rng: random.Random, sent: Sent) -> None:
    ids = [p.raw for p in sent.phrases]
    for _ in range(rng.randint(0, 4)):
        sent.lines.append(("R", rng.choice(REL_LABELS), [rng.choice(ids), rng.choice(ids)]))
    if len(ids) > 2 and rng.random() < 0.3:
        sent.lines.append(("*", "same-as", rng.sample(ids, rng.randint(2, 3))))
    if len(ids) > 1 and rng.random() < 0.1:
        roles = [rng.choice(["Subject1", "Target", "target2", "In-Place"]) for _ in range(2)]
        sent.lines.append(
            ("E", "Action", [rng.choice(ids), *(f"{r}:{rng.choice(ids)}" for r in roles)])
        )
    if sent.lines and rng.random() < 0.15:
        sent.lines.append(rng.choice(sent.lines))  # a duplicate relation


def draw_gold(rng: random.Random) -> list[Sent]:
    sents = [Sent(draw_text(rng)) for _ in range(rng.choice([0, 1, 2, 3, 3, 4, 6]))]
    counter, used = [rng.choice([1, 1, 30])], set()
    for sent in sents:
        if rng.random() < 0.75:
            annotate(rng, sent, counter, used)
    return sents


def _retyped(rng: random.Random, text: str) -> str:
    """The same normalised text (case, punctuation, spaces) or, now and then, other words."""
    r = rng.random()
    if r < 0.4:
        return text.upper() if rng.random() < 0.5 else text.lower()
    if r < 0.7:
        return text.replace(" ", rng.choice([", ", " - ", "  ", " "])) + rng.choice(PUNCT)
    return text + " más"


def aligned_text(text: str) -> str:
    """What sentence alignment compares: the alphanumeric characters, lower-cased."""
    return "".join(ch.lower() for ch in text if ch.isalnum())


def draw_run(rng: random.Random, gold: list[Sent]) -> list[Sent]:
    """A run: the gold sentences copied with changed annotations, then moved about."""
    counter, used = [rng.choice([1, 500])], set()
    out = []
    for g in gold:
        sent = Sent(g.text)
        by_raw: dict[str, str] = {}
        for p in g.phrases:
            if rng.random() < 0.15:
                continue
            pairs, label = p.pairs, p.label
            if rng.random() < 0.2:
                label = rng.choice([*KP_LABELS, "concept"])
            if rng.random() < 0.2:
                pairs = draw_pairs(rng, sent.text)
            number = p.number if rng.random() < 0.5 else counter[0]
            counter[0] += 1
            phrase = Phrase(number, _raw_id(rng, number, used), pairs, label)
            by_raw[p.raw] = phrase.raw
            sent.phrases.append(phrase)
        if sent.phrases and rng.random() < 0.3:
            for _ in range(rng.randint(1, 2)):  # spurious phrases
                n = counter[0]
                counter[0] += 1
                sent.phrases.append(
                    Phrase(
                        n, _raw_id(rng, n, used), draw_pairs(rng, sent.text), rng.choice(KP_LABELS)
                    )
                )
        for kind, label, ids in g.lines:
            if kind == "E" or rng.random() < 0.2:
                continue
            mapped = [by_raw.get(i) for i in ids]
            if None in mapped:
                continue
            if rng.random() < 0.1:
                label = label.upper()
            if rng.random() < 0.1:
                mapped.reverse()
            sent.lines.append((kind, label, mapped))
        if sent.phrases and rng.random() < 0.2:
            draw_relations(rng, sent)
        if rng.random() < 0.15:
            sent.text = _retyped(rng, sent.text)
            if not all(a <= b <= len(sent.text) for p in sent.phrases for a, b in p.pairs):
                sent.phrases, sent.lines = [], []
        if rng.random() < 0.1:
            rng.shuffle(sent.phrases)
        out.append(sent)
    r = rng.random()
    if out and r < 0.15:
        del out[rng.randrange(len(out))]  # a missing sentence
    elif r < 0.25:
        extra = Sent(draw_text(rng))
        annotate(rng, extra, counter, used)
        if rng.random() < 0.3:  # a span the metric refuses where scored; never scored here
            n, bad = counter[0], rng.choice([(0, len(extra.text) + 3), (3, 1)])
            counter[0] += 1
            phrase = Phrase(n, _raw_id(rng, n, used), [bad], "Concept")
            # Never scored only if the added sentence aligns with no gold one (equal text).
            if all(aligned_text(extra.text) != aligned_text(g.text) for g in gold):
                extra.phrases.append(phrase)
        out.insert(rng.randint(0, len(out)), extra)  # an added sentence
    elif len(out) > 1 and r < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]  # two sentences swapped
    return out


# --------------------------------------------------------------------------------------------
# Writing a side


AnnEdit = Callable[[random.Random, list[Sent], list[str]], list[str]]


def write_side(
    rng: random.Random,
    sents: list[Sent],
    folder: Path,
    stem: str = "scenario",
    edit: AnnEdit | None = None,
) -> None:
    """``stem.txt`` and ``stem.ann`` in ``folder``; ``edit`` may rewrite the ``.ann`` lines."""
    folder.mkdir(parents=True)
    raw_lines = []
    for sent in sents:
        if rng.random() < 0.05:
            raw_lines.append("")  # a blank line: dropped by the reader, offsets unaffected
        raw_lines.append(rng.choice(EDGES) + sent.text + rng.choice(EDGES) if sent.text else " ")
    end = rng.choice(["\n", "\n", "\r\n", "\r"])
    text = raw_lines[0] if raw_lines else ""
    for line in raw_lines[1:]:
        # Now and then a break that str.splitlines() takes and a newline-only reader does not.
        text += (rng.choice(SPLITLINES_ONLY) if rng.random() < 0.05 else end) + line
    text += end if raw_lines and rng.random() < 0.85 else ""
    (folder / f"{stem}.txt").write_bytes(text.encode("utf-8"))
    ann, start, r_number = [], 0, 0
    for sent in sents:
        for p in sent.phrases:
            spans = ";".join(f"{a + start} {b + start}" for a, b in p.pairs)
            words = " ".join(sent.text[a:b] for a, b in p.pairs).replace("\t", " ")
            ann.append(f"{p.raw}\t{p.label} {spans}\t{words}")
            if rng.random() < 0.03:
                ann.append(f"A{len(ann)}\tNegated {p.raw}")
        for kind, label, ids in sent.lines:
            if kind == "R":
                ann.append(f"R{r_number}\t{label} Arg1:{ids[0]} Arg2:{ids[1]}")
                r_number += 1
            elif kind == "*":
                ann.append(f"*\t{label} {' '.join(ids)}")
            else:
                ann.append(f"E{len(ann)}\t{label}:{ids[0]} {' '.join(ids[1:])}")
        start += len(sent.text) + 1
    if rng.random() < 0.1:
        rng.shuffle(ann)
    if rng.random() < 0.05:
        ann.append("#1\tAnnotatorNotes T1\ta note")
    if rng.random() < 0.01 and len(sents) > 1 and sents[0].phrases and sents[1].phrases:
        ann.append(
            f"R{r_number}\tcauses Arg1:{sents[0].phrases[0].raw} Arg2:{sents[1].phrases[0].raw}"
        )
    if rng.random() < 0.005:
        ann.append(rng.choice(["", "X1\tnothing", "T99\tConcept 1 x\tx"]))
    if edit is not None:
        ann = edit(rng, sents, ann)
    (folder / f"{stem}.ann").write_bytes(("\n".join(ann) + ("\n" if ann else "")).encode("utf-8"))


# --------------------------------------------------------------------------------------------
# Scoring both ways


def official_scores(official: Path, gold_top: Path, run_top: Path) -> dict:
    evaluate_scenario, Collection = official_code(official)
    out = {}
    for n, folder in FOLDERS.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                gold = Collection().load(gold_top / folder / "scenario.txt")
                out[f"scenario{n}"] = evaluate_scenario(run_top / folder, gold, n)
        except Exception as e:  # the official code crashes: no official number
            out[f"scenario{n}"] = e
    return out


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    outcome = Outcome()
    with tempfile.TemporaryDirectory(prefix="ehk2020-diff-") as tmp:
        gold_top, run_top = Path(tmp) / "gold", Path(tmp) / "run"
        for folder in FOLDERS.values():
            gold = draw_gold(rng)
            write_side(rng, gold, gold_top / folder)
            write_side(rng, draw_run(rng, gold), run_top / folder)
        expected = official_scores(official, gold_top, run_top)
        for n, folder in FOLDERS.items():
            want = expected[f"scenario{n}"]
            if compute_one(n, gold_top / folder, run_top / folder, want, 2020, outcome):
                stats["official_raised"] += 1
        if not any(isinstance(v, Exception) for v in expected.values()):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                files = taskeval.score_files(
                    "ehealthkd", references=gold_top, predictions=run_top, edition=2020
                )
            compare_tree(expected, files, "score_files", outcome)
        if with_cli:
            cli(gold_top, run_top, expected, outcome, 2020)
    return outcome


def compute_one(
    n: int, gold: Path, run: Path, want: dict | Exception, edition: int, outcome: Outcome
) -> bool:
    """``compute(edition=...)`` of scenario ``n`` on ``read_official`` inputs against ``want``
    (the official numbers, or what the official code raised); True when both refused."""
    where = f"{run.parent.name}/{run.name}" if edition != 2020 else f"scenario{n}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            inputs = taskeval.read_official("ehealthkd", references=gold, predictions=run)
            got = metric(n).compute(**inputs, edition=edition)
    except ValueError as e:
        if isinstance(want, Exception):
            return True
        outcome.refusals.append(f"{where}: compute() refused: {e}")
        return False
    except Exception as e:
        outcome.differences.append(f"{where}: compute() raised {e!r}")
        return False
    if isinstance(want, Exception):
        outcome.differences.append(f"{where}: official raised {want!r}, taskeval {got}")
    else:
        compare_values(want, got, f"{where} compute()", outcome)
    return False


def leaves(expected: dict, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """The official results of a (nested) tree of scores: (keys, numbers or exception)."""
    out = []
    for key, value in expected.items():
        if isinstance(value, dict) and any(isinstance(v, dict | Exception) for v in value.values()):
            out += leaves(value, (*path, key))
        else:
            out.append(((*path, key), value))
    return out


def compare_tree(expected: dict, got: dict, where: str, outcome: Outcome) -> None:
    for path, want in leaves(expected):
        found: Any = got
        for key in path:
            found = found.get(key, {}) if isinstance(found, dict) else {}
        compare_values(want, found, f"{'/'.join(path)} {where}", outcome)


def cli(gold_top: Path, run_top: Path, expected: dict, outcome: Outcome, edition: int) -> None:
    command = [sys.executable, "-m", "taskeval", "score", "ehealthkd", "--edition", str(edition)]
    command += ["--references", str(gold_top), "--predictions", str(run_top)]
    done = subprocess.run(command, capture_output=True, text=True)
    crashed = [v for _, v in leaves(expected) if isinstance(v, Exception)]
    if done.returncode != 0:
        if not crashed:
            outcome.refusals.append(f"CLI refused: {done.stderr.strip()[-300:]}")
        return
    if crashed:
        outcome.differences.append("CLI: the official code raised, taskeval gave numbers")
        return
    compare_tree(expected, json.loads(done.stdout), "CLI", outcome)


def main(argv: list[str]) -> int:
    status = run("ehealthkd (edition 2020)", check, argv)
    print(json.dumps(stats), file=sys.stderr)
    return status
