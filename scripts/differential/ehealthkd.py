"""ehealthkd: taskeval against the official eHealth-KD 2019 evaluation on random file sets.

Each case writes a gold folder and a submission folder in the official layout (three scenario
sub-folders, each a sentence file with its ``output_a_*`` and ``output_b_*`` companions), drawn
to sit on the edges: key-phrase ids repeated inside a sentence and across sentences, on both
sides; ``same-as`` chains; per-word, single-span, discontinuous, unsorted and overlapping
phrases; partial matches and label changes; duplicate relations and self-loops; unicode (accents,
astral characters, NBSP and other separators that are no line breaks); blank lines, CRLF and
lone CR line ends, stripped edges; empty files; texts that differ; fewer submitted sentences;
the ``input_*`` fallback; predicted phrases that start on a line break (officially in the next
sentence); lines that only the line-by-line reader accepts (``+3``, ``3  7``, ``1_0``, other
decimal digits, whitespace around a line).

Every case is scored by the official code (``scripts/evaltest.py``'s ``evaluate_scenario``,
imported from the official checkout) and by ``compute()`` on ``read_official`` inputs for the
three scenarios; every ``--cli-every``-th case also through ``taskeval score ehealthkd``. Where
the official code raises (span-identical gold phrases listed in another order make it assert),
taskeval must raise a ``ValueError``; that is counted, not compared.

    python scripts/differential/ehealthkd.py --official DIR --cases 10000

The summary (stdout) counts compared values, differences and refusals; stderr adds how many
scenario evaluations the official code could not score and how many cases repeat an id.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from common import Outcome, compare_values, run

import taskeval

FOLDERS = {1: "scenario1-main", 2: "scenario2-taskA", 3: "scenario3-taskB"}
WORDS = ["el", "tipo", "de", "cáncer", "vías", "a", "Ωmega", "𝔘nicode", "ñ", "x", "año", "e\u0301"]
KP_LABELS = ["Concept", "Action", "Predicate", "Reference"]
REL_LABELS = ["is-a", "same-as", "same-as", "subject", "target", "part-of"]
# Stripped from line edges by str.strip(), yet no line break for the official reader.
EDGES = ["", "", "", " ", "\t", "\xa0", "  ", "\x0b", "\x0c", "\x85", "\u2028", "\u3000"]
INNER = ["", "", "", "", "", "\xa0", "\x0b", "\u2028", "\x1c", "\x85", "\t"]  # inside a line

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")

_official: dict = {}
_metrics: dict = {}
stats = {"official_raised": 0, "cases_with_repeated_ids": 0}


def official_code(official: Path):
    if not _official:
        sys.path.insert(0, str(official / "ehealthkd-2019"))
        from scripts.evaltest import evaluate_scenario  # the official code, never copied
        from scripts.utils import Collection

        _official.update(evaluate_scenario=evaluate_scenario, Collection=Collection)
    return _official["evaluate_scenario"], _official["Collection"]


def metric(scenario: int):
    if scenario not in _metrics:
        _metrics[scenario] = taskeval.load("ehealthkd", f"scenario{scenario}")
    return _metrics[scenario]


# --------------------------------------------------------------------------------------------
# Drawing a case


def draw_text(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 7))]
    text = words[0]
    for word in words[1:]:
        text += rng.choice([" ", " ", " ", "  "]) + rng.choice(INNER) + word
    return text


def word_bounds(text: str) -> list[tuple[int, int]]:
    bounds, start = [], None
    for i, ch in enumerate(text + " "):
        if ch != " " and start is None:
            start = i
        elif ch == " " and start is not None:
            bounds.append((start, i))
            start = None
    return bounds


def draw_spans(rng: random.Random, text: str) -> list[tuple[int, int]]:
    """Sentence-relative pairs the metric accepts: inside the text, start <= end; several
    pairs may run a little past the text, as real runs do."""
    words = word_bounds(text)
    i = rng.randrange(len(words))
    j = rng.randint(i, min(len(words) - 1, i + 2))
    kind = rng.randint(0, 6)
    if kind <= 1:  # one span over words i..j (split at spaces)
        return [(words[i][0], words[j][1])]
    if kind == 2:  # one pair per word, as the gold writes multi-word phrases
        return list(words[i : j + 1])
    if kind == 3 and len(words) > 1:  # discontinuous, maybe out of order
        return rng.sample(words, min(len(words), rng.randint(2, 3)))
    # A first pair never starts at len(text): that offset is the line break, which belongs to
    # the next sentence (a negative offset there, which the metric refuses; documented).
    if kind == 4:  # mid-word, maybe empty
        a = rng.randrange(len(text))
        return [(a, rng.randint(a, len(text)))]
    if kind == 5:  # several pairs, the last may run past the text
        a = rng.randrange(len(text))
        return [(a, a + rng.randint(0, 3)), (a + 1, min(a + 1, len(text)) + rng.randint(0, 4))]
    return [words[i]]


class Side:
    """One file set being drawn: sentence lines and annotations with global offsets."""

    def __init__(self, texts: list[str]):
        self.texts = texts
        self.starts, at = [], 0
        for t in texts:
            self.starts.append(at)
            at += len(t) + 1
        self.phrases: list[tuple[int, int, list[tuple[int, int]], str]] = []  # id, k, pairs, lab
        self.relations: list[tuple[str, int, int]] = []


def draw_gold(rng: random.Random, texts: list[str], next_id: list[int]) -> Side:
    side = Side(texts)
    for k, text in enumerate(texts):
        if not text.strip(" ") or rng.random() < 0.25:
            continue  # unannotated
        ids_here: list[int] = []
        for _ in range(rng.randint(1, 5)):
            if ids_here and rng.random() < 0.15:
                kp_id = rng.choice(ids_here)  # an id repeated inside the sentence
            elif side.phrases and rng.random() < 0.08:
                kp_id = rng.choice(side.phrases)[0]  # an id of another sentence
            else:
                kp_id = next_id[0]
                next_id[0] += rng.choice([1, 1, 1, 2, 7])
            ids_here.append(kp_id)
            side.phrases.append((kp_id, k, draw_spans(rng, text), rng.choice(KP_LABELS)))
        for _ in range(rng.randint(0, 5)):
            side.relations.append(
                (rng.choice(REL_LABELS), rng.choice(ids_here), rng.choice(ids_here))
            )
        if len(ids_here) > 2 and rng.random() < 0.4:  # a same-as chain
            chain = rng.sample(ids_here, 3)
            side.relations += [("same-as", chain[0], chain[1]), ("same-as", chain[2], chain[1])]
        if side.relations and rng.random() < 0.2:
            side.relations.append(rng.choice(side.relations))  # duplicate line
    return side


def _changed(
    rng: random.Random, text: str, pairs: list[tuple[int, int]], label: str
) -> tuple[list[tuple[int, int]], str]:
    """A gold phrase as a submission may give it: another label, moved or joined spans."""
    if rng.random() < 0.15:
        label = rng.choice([*KP_LABELS, "concept"])
    if rng.random() < 0.15:
        pairs = draw_spans(rng, text)  # moved: a partial match, or none
    elif len(pairs) > 1 and rng.random() < 0.2:
        end = min(pairs[-1][1], len(text))  # one span must end inside the text (documented)
        pairs = [(pairs[0][0], end)] if pairs[0][0] <= end else pairs
    return pairs, label


def _submitted_id(
    rng: random.Random, kp_id: int, rename: dict[int, list[int]], next_id: int
) -> tuple[int, int]:
    """The id a submission gives a gold phrase, and the next free id."""
    if rng.random() < 0.5:
        return kp_id, next_id  # the gold id kept (gold ids may repeat)
    if rename and rng.random() < 0.1:
        return rng.choice(rng.choice(list(rename.values()))), next_id  # a repeated submitted id
    return next_id, next_id + 1


def _copied_phrases(
    rng: random.Random, side: Side, gold: Side, texts: list[str], next_id: int
) -> tuple[dict[int, list[int]], int]:
    """The gold phrases a submission keeps, changed now and then; gold id → submitted ids."""
    rename: dict[int, list[int]] = {}
    for kp_id, k, pairs, label in gold.phrases:
        if k >= len(texts) or texts[k] != gold.texts[k] or rng.random() < 0.15:
            continue
        pairs, label = _changed(rng, texts[k], pairs, label)
        new, next_id = _submitted_id(rng, kp_id, rename, next_id)
        rename.setdefault(kp_id, []).append(new)
        side.phrases.append((new, k, pairs, label))
        if rng.random() < 0.08:  # a duplicate phrase
            side.phrases.append((rng.choice([new, next_id]), k, pairs, label))
    return rename, next_id


def _extra_phrases(
    rng: random.Random, side: Side, gold: Side, texts: list[str], next_id: int
) -> None:
    """Spurious phrases, and phrases that start on a line break."""
    for k, text in enumerate(texts):
        if text.strip(" ") and rng.random() < 0.2:  # spurious phrases, also where gold has none
            side.phrases.append((next_id, k, draw_spans(rng, text), rng.choice(KP_LABELS)))
            next_id += 1
    gold_at = {p[1] for p in gold.phrases}
    for k in range(len(texts) - 1):
        if k + 1 not in gold_at and texts[k] and rng.random() < 0.3:
            # Starts on the line break after sentence k: officially in sentence k + 1, which
            # gold leaves unannotated, so it is never scored.
            end = len(texts[k]) + rng.randint(0, 3)
            side.phrases.append((next_id, k, [(len(texts[k]), end)], rng.choice(KP_LABELS)))
            next_id += 1


def _submitted_relations(
    rng: random.Random, side: Side, gold: Side, rename: dict[int, list[int]]
) -> None:
    """Gold relations through the submitted ids (some reversed or upper-cased), random ones,
    and a duplicate line now and then."""
    for label, src, dst in gold.relations:
        if src in rename and dst in rename and rng.random() < 0.8:
            a, b = rng.choice(rename[src]), rng.choice(rename[dst])
            if rng.random() < 0.15:
                a, b = b, a
            if rng.random() < 0.1:
                label = rng.choice(REL_LABELS).upper()
            side.relations.append((label, a, b))
    ids = [p[0] for p in side.phrases]
    for _ in range(rng.choice([0, 0, 1, 3])):
        if ids:
            side.relations.append((rng.choice(REL_LABELS), rng.choice(ids), rng.choice(ids)))
    if side.relations and rng.random() < 0.2:
        side.relations.append(rng.choice(side.relations))


def draw_submission(rng: random.Random, gold: Side, texts: list[str]) -> Side:
    side = Side(texts)
    next_id = rng.choice([1, 500])
    rename, next_id = _copied_phrases(rng, side, gold, texts, next_id)
    _extra_phrases(rng, side, gold, texts, next_id)
    if rng.random() < 0.1:
        rng.shuffle(side.phrases)
    _submitted_relations(rng, side, gold, rename)
    return side


def _int_text(rng: random.Random, value: int) -> str:
    """An integer as the official int() reads it; odd forms send the reader down its slow path."""
    r = rng.random()
    if r < 0.02:
        return f"+{value}"
    if r < 0.03:
        return f"0{value}"
    if r < 0.035:
        return str(value).translate(ARABIC_INDIC)  # int() reads other decimal digits too
    if r < 0.04 and value >= 10:
        return f"{str(value)[0]}_{str(value)[1:]}"  # and underscores between digits
    return str(value)


def _padded(rng: random.Random, line: str) -> str:
    """Whitespace around a whole line, which the official reader strips before splitting."""
    if rng.random() < 0.03:
        line = rng.choice([" ", "\xa0", "\x0b"]) + line
    if rng.random() < 0.03:
        line += rng.choice([" ", "\t", " \t", "\x0c"])
    return line


def _line_end(rng: random.Random, style: str) -> str:
    if style == "mixed":
        return rng.choice(["\n", "\r\n", "\r"])
    return style


def write_side(
    rng: random.Random, side: Side, folder: Path, sentence_name: str, name: str, raw: list[str]
) -> None:
    folder.mkdir(parents=True)
    style = rng.choice(["\n", "\n", "\r\n", "\r", "mixed"])
    # A final line break, which an empty last line needs to exist at all.
    trail = rng.random() < 0.85 or (raw and raw[-1] == "")
    (folder / sentence_name).write_bytes(_join(rng, raw, style, trail).encode("utf-8"))
    a_lines = []
    for kp_id, k, pairs, label in side.phrases:
        offset = side.starts[k]
        glob = [(s + offset, e + offset) for s, e in pairs]
        sep = "  " if rng.random() < 0.02 else " "
        spans = ";".join(f"{_int_text(rng, s)}{sep}{_int_text(rng, e)}" for s, e in glob)
        words = " ".join(side.texts[k][s:e] for s, e in pairs).replace("\t", " ").strip() or "x"
        a_lines.append(_padded(rng, f"{_int_text(rng, kp_id)}\t{spans}\t{label}\t{words}"))
    b_lines = [
        _padded(rng, f"{label}\t{_int_text(rng, src)}\t{_int_text(rng, dst)}")
        for label, src, dst in side.relations
    ]
    for kind, lines in (("a", a_lines), ("b", b_lines)):
        content = _join(rng, lines, style, rng.random() < 0.9)
        (folder / f"output_{kind}_{name}").write_bytes(content.encode("utf-8"))


def _join(rng: random.Random, lines: list[str], style: str, trail: bool) -> str:
    ends = [_line_end(rng, style) for _ in lines]
    for i in range(len(lines) - 1):
        if ends[i] == "\r" and not lines[i + 1] and ends[i + 1].startswith("\n"):
            ends[i] = "\n"  # a lone CR before an empty line's LF would make one CRLF
    if ends and not trail:
        ends[-1] = ""  # the last line without a line break
    return "".join(line + end for line, end in zip(lines, ends))


def draw_texts(rng: random.Random) -> tuple[list[str], list[str]]:
    """Stripped sentence texts and the raw lines written for them."""
    n = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 6])
    texts, raw = [], []
    for _ in range(n):
        if rng.random() < 0.1:
            line = rng.choice(["", " ", "\xa0"])  # a blank line: an empty sentence
        else:
            line = rng.choice(EDGES) + draw_text(rng) + rng.choice(EDGES)
        raw.append(line)
        texts.append(line.strip())
    return texts, raw


def draw_scenario(rng: random.Random, gold_dir: Path, sub_dir: Path, n: int) -> bool:
    """Write one scenario's gold and submission folders; True if some id repeats."""
    texts, raw = draw_texts(rng)
    gold = draw_gold(rng, texts, [rng.choice([1, 1, 30])])
    sub_texts, sub_raw = list(texts), list(raw)
    if sub_raw and rng.random() < 0.15:  # a changed text: the pair is skipped
        k = rng.randrange(len(sub_raw))
        sub_raw[k] = sub_raw[k] + " ."
        sub_texts[k] = sub_raw[k].strip()
    if sub_raw and rng.random() < 0.1:  # fewer submitted sentences
        cut = rng.randrange(len(sub_raw))
        sub_raw, sub_texts = sub_raw[:cut], sub_texts[:cut]
    if sub_raw and rng.random() < 0.2:  # other edges and line breaks: same stripped texts
        sub_raw = [r.strip() + rng.choice(EDGES) if r.strip() else r for r in sub_raw]
    sub = draw_submission(rng, gold, sub_texts)
    name = f"scenario{n}.txt"
    write_side(rng, gold, gold_dir, f"input_{name}", name, raw)
    sentence_name = f"output_{name}" if rng.random() < 0.9 else f"input_{name}"
    write_side(rng, sub, sub_dir, sentence_name, name, sub_raw)
    ids = [[p[0] for p in s.phrases if p[1] == k] for s in (gold, sub) for k in range(len(texts))]
    return any(len(set(i)) < len(i) for i in ids) or any(
        len({p[0] for p in s.phrases}) < len(s.phrases) for s in (gold, sub)
    )


# --------------------------------------------------------------------------------------------
# Scoring both ways


def official_scores(official: Path, gold_top: Path, sub_top: Path) -> dict:
    evaluate_scenario, Collection = official_code(official)
    out = {}
    for n, folder in FOLDERS.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                gold = Collection().load(gold_top / folder / f"input_scenario{n}.txt")
                result = evaluate_scenario(sub_top / folder, gold, n)
        except Exception as e:  # the official code crashes or asserts: no official number
            out[f"scenario{n}"] = e
            continue
        result.pop("submit", None)
        out[f"scenario{n}"] = result
    return out


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    outcome = Outcome()
    with tempfile.TemporaryDirectory(prefix="ehk-diff-") as tmp:
        gold_top, sub_top = Path(tmp) / "gold", Path(tmp) / "submission"
        repeated = False
        for n, folder in FOLDERS.items():
            repeated |= draw_scenario(rng, gold_top / folder, sub_top / folder, n)
        stats["cases_with_repeated_ids"] += repeated
        expected = official_scores(official, gold_top, sub_top)
        for n, folder in FOLDERS.items():
            scenario = f"scenario{n}"
            want = expected[scenario]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    inputs = taskeval.read_official(
                        "ehealthkd", references=gold_top / folder, predictions=sub_top / folder
                    )
                    got = metric(n).compute(**inputs)
            except ValueError as e:
                if isinstance(want, Exception):
                    stats["official_raised"] += 1
                    kind = type(want).__name__
                    stats[f"official {kind}"] = stats.get(f"official {kind}", 0) + 1
                else:
                    outcome.refusals.append(f"{scenario}: compute() refused: {e}")
                continue
            except Exception as e:  # a bare exception is a finding too
                outcome.differences.append(f"{scenario}: compute() raised {e!r}")
                continue
            if isinstance(want, Exception):
                outcome.differences.append(f"{scenario}: official raised {want!r}, taskeval {got}")
                continue
            compare_values(want, got, f"{scenario} compute()", outcome)
        if with_cli:
            cli(gold_top, sub_top, expected, outcome)
    return outcome


def cli(gold_top: Path, sub_top: Path, expected: dict, outcome: Outcome) -> None:
    command = [sys.executable, "-m", "taskeval", "score", "ehealthkd"]
    command += ["--references", str(gold_top), "--predictions", str(sub_top)]
    done = subprocess.run(command, capture_output=True, text=True)
    crashed = [v for v in expected.values() if isinstance(v, Exception)]
    if done.returncode != 0:
        if not crashed:
            outcome.refusals.append(f"CLI refused: {done.stderr.strip()[-300:]}")
        return
    if crashed:
        outcome.differences.append("CLI: the official code raised, taskeval gave numbers")
        return
    got = json.loads(done.stdout)
    for scenario, want in expected.items():
        compare_values(want, got.get(scenario, {}), f"{scenario} CLI", outcome)


if __name__ == "__main__":
    status = run("ehealthkd", check)
    print(json.dumps(stats), file=sys.stderr)
    sys.exit(status)
