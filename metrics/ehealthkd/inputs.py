"""Official eHealth-KD 2019 files and Hub ``ehealth_kd`` rows, turned into ``compute()`` inputs.

Plain Python; not imported by the metric script, so the folder stays loadable by ``evaluate``
alone. A scenario folder holds a sentence file (gold: ``input_scenarioN.txt``; submission:
``output_scenarioN.txt``, else ``input_scenarioN.txt``) and its companions ``output_a_*`` (key
phrases) and ``output_b_*`` (relations), read exactly as the official ``evaltest`` reads them:
universal newlines, one sentence per physical line, stripped lines, global offsets over the
stripped lines joined by one newline, a key phrase assigned to a sentence by its first listed
pair, pairs sorted by start except in the first sentence, single spans split at spaces, relations
whose endpoints lie in two sentences dropped with a warning.
"""

from __future__ import annotations

import re
import warnings
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import Any

from .scoring import (
    SCENARIOS,
    Keyphrase,
    Relation,
    Sentence,
    score,
    span_problem,
    split_words,
)

# compute() options with the parser of their CLI value: none (the scenario is the config name).
OPTIONS: dict[str, Any] = {}

# Scenario sub-folders of a gold or submission top folder, as the official tool expects them.
SCENARIO_FOLDERS = {
    "scenario1": "scenario1-main",
    "scenario2": "scenario2-taskA",
    "scenario3": "scenario3-taskB",
}


def _read_text(path: Path) -> str:
    """The file's text with universal newlines (``\\r\\n`` and a lone ``\\r`` become ``\\n``)."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise ValueError(f"{path}: file not found") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 ({e})") from None


def _physical_lines(text: str) -> list[str]:
    # Not str.splitlines(): it also breaks on \x0b, \x0c, \x1c-\x1e, \x85, U+2028 and U+2029,
    # which the official line iteration keeps inside a line.
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_sentences(path: str | PathLike) -> list[str]:
    """One stripped sentence per physical line (blank lines included)."""
    return [line.strip() for line in _physical_lines(_read_text(Path(path)))]


def _int(path: Path, number: int, field: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{path}, line {number}: {field} must be an integer, got {value!r}") from None


_A_LAYOUT = "ID<TAB>START END[;START END...]<TAB>LABEL<TAB>TEXT"
_B_LAYOUT = "LABEL<TAB>SOURCE-ID<TAB>TARGET-ID"

# A well-formed key-phrase line, for the fast path; anything else goes through _parse_a_line.
_A_FAST = re.compile(r"([0-9]+)\t([0-9]+) ([0-9]+)\t([^\t\n]*)\t[^\t\n]*\S")


class _Sentences:
    """Sentence texts with the global offset where each starts (official layout)."""

    def __init__(self, path: Path, texts: list[str]) -> None:
        self.path = path
        self.texts = texts
        self.starts = []
        self.ends = []  # exclusive end of each sentence's text, the official bisect keys
        position = 0
        for text in texts:
            self.starts.append(position)
            position += len(text)
            self.ends.append(position)
            position += 1


def _parse_a_line(path: Path, number: int, line: str) -> tuple[int, str, list[tuple[int, int]]]:
    fields = line.strip().split("\t")
    if len(fields) != 4:
        raise ValueError(
            f"{path}, line {number}: expected 4 TAB-separated fields {_A_LAYOUT}, "
            f"got {len(fields)} in {line.strip()!r}"
        )
    kp_id = _int(path, number, "the key-phrase ID", fields[0])
    pairs = []
    for chunk in fields[1].split(";"):
        bounds = chunk.split()
        if len(bounds) != 2:
            raise ValueError(
                f"{path}, line {number}: each span must be 'START END' (spans separated by ';'), "
                f"got {chunk!r}"
            )
        pairs.append(tuple(_int(path, number, "a span offset", b) for b in bounds))
    return kp_id, fields[2], pairs


def _place(
    sentences: _Sentences, path: Path, number: int, pairs: list[tuple[int, int]]
) -> tuple[int, list[tuple[int, int]]]:
    """The sentence of a phrase (by its first listed pair) and its sentence-relative pairs."""
    first = pairs[0][0]
    k = bisect_right(sentences.ends, first)
    if k >= len(sentences.texts):
        last = sentences.ends[-1] if sentences.ends else 0
        raise ValueError(
            f"{path}, line {number}: offset {first} lies past the last sentence of "
            f"{sentences.path} (its text ends at global offset {last}, counting one character "
            f"per line break)"
        )
    offset = sentences.starts[k]
    relative = [(s - offset, e - offset) for s, e in pairs]
    if k and len(relative) > 1:
        relative.sort(key=lambda pair: pair[0])  # official: sorted except in the first sentence
    problem = span_problem(relative, len(sentences.texts[k]))
    if problem:
        raise ValueError(
            f"{path}, line {number}: in sentence {k + 1} of {sentences.path} "
            f"(sentence-relative offsets), {problem}"
        )
    return k, relative


def read_keyphrases(
    path: Path, sentences: _Sentences, wanted: set[int] | None = None
) -> tuple[list[list[Keyphrase]], dict[int, int]]:
    """Key phrases per sentence, and each ID's sentence (a later duplicate ID wins).

    Every line is checked; phrases are built only for the sentences in ``wanted`` (all if None).
    """
    texts, ends, starts = sentences.texts, sentences.ends, sentences.starts
    n = len(texts)
    per_sentence: list[list[Keyphrase]] = [[] for _ in texts]
    where: dict[int, int] = {}
    fast = _A_FAST.fullmatch
    for number, line in enumerate(_physical_lines(_read_text(path)), 1):
        m = fast(line)
        if m is not None:
            # A well-formed line with one contiguous span: the common case, parsed inline.
            kp_id, s, e = int(m.group(1)), int(m.group(2)), int(m.group(3))
            k = bisect_right(ends, s)
            if k >= n or s < starts[k] or s > e or e > ends[k]:
                _place(sentences, path, number, [(s, e)])  # raises the precise error
            where[kp_id] = k
            if wanted is not None and k not in wanted:
                continue
            offset = starts[k]
            pairs = split_words(texts[k], s - offset, e - offset)
            label = m.group(4)
        else:
            kp_id, label, listed = _parse_a_line(path, number, line)
            k, relative = _place(sentences, path, number, listed)
            where[kp_id] = k
            if wanted is not None and k not in wanted:
                continue
            pairs = split_words(texts[k], *relative[0]) if len(relative) == 1 else tuple(relative)
        per_sentence[k].append(Keyphrase(kp_id, label, pairs))
    return per_sentence, where


def read_relations(
    path: Path, where: Mapping[int, int], n_sentences: int, a_path: Path
) -> list[list[Relation]]:
    """Relations per sentence; a relation whose endpoints lie in two sentences is dropped."""
    per_sentence: list[list[Relation]] = [[] for _ in range(n_sentences)]
    crossing = []
    for number, line in enumerate(_physical_lines(_read_text(path)), 1):
        fields = line.strip().split("\t")
        if len(fields) != 3:
            raise ValueError(
                f"{path}, line {number}: expected 3 TAB-separated fields {_B_LAYOUT}, "
                f"got {len(fields)} in {line.strip()!r}"
            )
        label, source, target = fields
        ends = []
        for field, value in (("source ID", source), ("target ID", target)):
            kp_id = _int(path, number, f"the {field}", value)
            if kp_id not in where:
                raise ValueError(
                    f"{path}, line {number}: the {field} {kp_id} is not a key-phrase ID of {a_path}"
                )
            ends.append(kp_id)
        k = where[ends[0]]
        if where[ends[1]] != k:
            crossing.append(number)
            continue
        per_sentence[k].append(Relation(label.lower(), ends[0], ends[1]))
    if crossing:
        shown = ", ".join(map(str, crossing[:5])) + (", ..." if len(crossing) > 5 else "")
        warnings.warn(
            f"{path}: {len(crossing)} relation(s) cross sentence boundaries and were dropped, "
            f"as in the official evaluation (lines {shown})",
            stacklevel=3,
        )
    return per_sentence


def _companion(sentence_file: Path, kind: str) -> Path:
    # Official lookup: the second "_"-separated field of the sentence file name.
    parts = sentence_file.name.split("_")
    if len(parts) < 2:
        raise ValueError(
            f"{sentence_file}: a sentence file name must look like input_<name>.txt or "
            f"output_<name>.txt, so that its output_{kind}_<name>.txt companion can be found"
        )
    return sentence_file.with_name(f"output_{kind}_{parts[1]}")


def _scenario_number(folder: Path) -> str | None:
    m = re.match(r"scenario(\d+)", folder.name)
    return m.group(1) if m else None


def gold_sentence_file(folder: str | PathLike) -> Path:
    """``input_scenarioN.txt`` of a gold scenario folder (or its only ``input_*.txt``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: expected a scenario folder (e.g. scenario1-main)")
    number = _scenario_number(folder)
    if number is not None and (folder / f"input_scenario{number}.txt").is_file():
        return folder / f"input_scenario{number}.txt"
    candidates = sorted(folder.glob("input_*.txt"))
    if len(candidates) != 1:
        raise ValueError(
            f"{folder}: expected one gold sentence file input_<name>.txt, "
            f"found {[c.name for c in candidates]}"
        )
    return candidates[0]


def submission_sentence_file(folder: str | PathLike, gold_file: Path) -> Path:
    """``output_<name>.txt``, else (official fallback) ``input_<name>.txt``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: expected a submission scenario folder (e.g. scenario1-main)")
    name = gold_file.name.split("_", 1)[1]
    for candidate in (folder / f"output_{name}", folder / f"input_{name}"):
        if candidate.is_file():
            return candidate
    raise ValueError(f"{folder}: sentence file not found (expected output_{name} or input_{name})")


def _read_side(
    sentence_file: Path, wanted: set[int] | None = None
) -> tuple[list[str], list[list[Keyphrase]], list[list[Relation]]]:
    a_path, b_path = _companion(sentence_file, "a"), _companion(sentence_file, "b")
    sentences = _Sentences(sentence_file, read_sentences(sentence_file))
    keyphrases, where = read_keyphrases(a_path, sentences, wanted)
    relations = read_relations(b_path, where, len(sentences.texts), a_path)
    return sentences.texts, keyphrases, relations


def read_scenario(
    references: str | PathLike, predictions: str | PathLike, *, scored_only: bool = False
) -> tuple[list[Sentence], list[Sentence]]:
    """Both sides of one scenario as ``Sentence`` tuples, paired by position.

    Pairing stops at the shorter side, as in the official tool. With ``scored_only``, the
    submitted annotations of sentences whose gold has none (never scored) are checked but not
    kept.
    """
    gold_file = gold_sentence_file(references)
    sub_file = submission_sentence_file(predictions, gold_file)
    g_texts, g_kps, g_rels = _read_side(gold_file)
    wanted = None
    if scored_only:
        wanted = {k for k in range(len(g_texts)) if g_kps[k] or g_rels[k]}
    s_texts, s_kps, s_rels = _read_side(sub_file, wanted)
    n = min(len(g_texts), len(s_texts))
    gold = [Sentence(g_texts[k], tuple(g_kps[k]), tuple(g_rels[k])) for k in range(n)]
    sub = [Sentence(s_texts[k], tuple(s_kps[k]), tuple(s_rels[k])) for k in range(n)]
    return sub, gold


def _row(sentence: Sentence) -> dict:
    return {
        "text": sentence.text,
        "keyphrases": [
            {"id": kp.id, "label": kp.label, "spans": [list(p) for p in kp.pairs]}
            for kp in sentence.keyphrases
        ],
        "relations": [
            {"label": r.label, "source": r.source, "target": r.target} for r in sentence.relations
        ],
    }


def read_official(references: str | PathLike, predictions: str | PathLike) -> dict[str, list]:
    """A gold scenario folder and a submission scenario folder → ``predictions``/``references``.

    One row per sentence (the shorter side decides how many), spans sentence-relative and
    already normalised as the official tool does (sorted except in the first sentence, single
    spans split at spaces), relation labels lower-cased, cross-sentence relations dropped.
    """
    if references is None:
        raise ValueError("ehealthkd needs the gold scenario folder as references")
    sub, gold = read_scenario(references, predictions)
    return {"predictions": [_row(s) for s in sub], "references": [_row(s) for s in gold]}


def score_files(references: str | PathLike, predictions: str | PathLike) -> dict[str, dict]:
    """What ``taskeval score ehealthkd`` prints: the three scenarios of a submission folder.

    ``references`` and ``predictions`` are the gold and submission top folders, each holding
    ``scenario1-main``, ``scenario2-taskA`` and ``scenario3-taskB``.
    """
    if references is None:
        raise ValueError("ehealthkd needs the gold folder as references")
    out = {}
    for scenario in SCENARIOS:
        gold_dir = Path(references) / SCENARIO_FOLDERS[scenario]
        sub_dir = Path(predictions) / SCENARIO_FOLDERS[scenario]
        sub, gold = read_scenario(gold_dir, sub_dir, scored_only=True)
        out[scenario] = score(sub, gold, scenario)
    return out


def references_from_hub(rows: Iterable[Mapping]) -> list[dict]:
    """Rows of the Hub ``ehealth_kd`` dataset → ``references`` (one per sentence)."""
    raise NotImplementedError
