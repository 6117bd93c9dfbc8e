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

import operator
import re
import sys
import warnings
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import partial
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, itemgetter, le, ne, sub
from os import PathLike
from pathlib import Path
from typing import Any

from .plain_values import gc_paused, shown
from .records import SCENARIOS, Keyphrase, Relation, Sentence, split_words
from .rows import check_edition, check_scenario, span_problem
from .scoring import score

# compute() options with the parser of their CLI value: none (the scenario is the config name).
OPTIONS: dict[str, Any] = {}

# Scenario sub-folders of a gold or submission top folder, as the official tool expects them.
SCENARIO_FOLDERS = {
    "scenario1": "scenario1-main",
    "scenario2": "scenario2-taskA",
    "scenario3": "scenario3-taskB",
}


def _read_text(path: Path) -> str:
    r"""The file's text with universal newlines (``\r\n`` and a lone ``\r`` become ``\n``)."""
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
    return list(map(str.strip, _physical_lines(_read_text(Path(path)))))


class _Sentences:
    """Sentence texts with the global offsets where each starts and ends (official layout)."""

    def __init__(self, path: Path, texts: list[str]) -> None:
        self.path = path
        self.texts = texts
        # Stripped sentences joined by one newline: sentence k starts at sum(len + 1) before it.
        after = list(accumulate(map(add, map(len, texts), repeat(1))))
        self.starts = [0, *after[:-1]] if texts else []
        self.ends = list(map(sub, after, repeat(1)))  # exclusive text ends: the bisect keys


def _int(path: Path, number: int, field: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(
            f"{path}, line {number}: {field} must be an integer, got {shown(value)}"
        ) from None


_A_LAYOUT = "ID<TAB>START END[;START END...]<TAB>LABEL<TAB>TEXT"
_B_LAYOUT = "LABEL<TAB>SOURCE-ID<TAB>TARGET-ID"


def _parse_a_line(path: Path, number: int, line: str) -> tuple[int, str, list[tuple[int, int]]]:
    fields = line.strip().split("\t")
    if len(fields) != 4:
        raise ValueError(
            f"{path}, line {number}: expected 4 TAB-separated fields {_A_LAYOUT}, "
            f"got {len(fields)} in {shown(line.strip())}"
        )
    kp_id = _int(path, number, "the key-phrase ID", fields[0])
    pairs = []
    for chunk in fields[1].split(";"):
        bounds = chunk.split()
        if len(bounds) != 2:
            raise ValueError(
                f"{path}, line {number}: each span must be 'START END' (spans separated by ';'), "
                f"got {shown(chunk)}"
            )
        pairs.append(
            (
                _int(path, number, "a span offset", bounds[0]),
                _int(path, number, "a span offset", bounds[1]),
            )
        )
    return kp_id, fields[2], pairs


def _sentence_of(sentences: _Sentences, path: Path, number: int, start: int) -> int:
    """The sentence of a global offset: bisect on the text ends, as officially."""
    k = bisect_right(sentences.ends, start)
    if k >= len(sentences.texts):
        last = sentences.ends[-1] if sentences.ends else 0
        raise ValueError(
            f"{path}, line {number}: offset {start} lies past the last sentence of "
            f"{sentences.path} (its text ends at global offset {last}, counting one character "
            f"per line break)"
        )
    return k


def _keyphrase(
    sentences: _Sentences, path: Path, number: int, k: int, kp_id: int, label: str, pairs: list
) -> Keyphrase:
    """A key phrase of sentence ``k`` from its global pairs, normalised as officially."""
    offset = sentences.starts[k]
    relative = [(s - offset, e - offset) for s, e in pairs]
    if k and len(relative) > 1:
        relative.sort(key=itemgetter(0))  # official: sorted by start, except in sentence 0
    text = sentences.texts[k]
    problem = span_problem(relative, len(text))
    if problem:
        raise ValueError(
            f"{path}, line {number}: in sentence {k + 1} of {sentences.path} "
            f"(sentence-relative offsets), {problem}"
        )
    if len(relative) == 1:
        return Keyphrase(kp_id, label, split_words(text, *relative[0]))
    return Keyphrase(kp_id, label, tuple(relative))


# Fast paths: when every line of a file has the usual layout (one regular-expression pass finds
# as many well-formed lines as the file has lines), the IDs and first offsets are converted in
# bulk and only the lines of the scored sentences are parsed one by one. Any other file is read
# line by line, which reports the first malformed line. Both paths read a file alike.
_A_LINES = re.compile(
    r"^([0-9]+)\t([0-9]+) [0-9]+(?:;[0-9]+ [0-9]+)*\t[^\t\n]*\t[^\t\n]*\S *$", re.MULTILINE
)
_B_LINES = re.compile(r"^(\S[^\t\n]*)\t([0-9]+)\t([0-9]+)$", re.MULTILINE)


def _line_count(content: str) -> int:
    return content.count("\n") + (not content.endswith("\n") and content != "")


def _sentences_of(starts: list[int], ends: list[int]) -> list[int]:
    """``bisect_right(ends, start)`` for every start, in bulk."""
    if len(starts) > len(ends) and all(map(le, starts, islice(starts, 1, None))):
        # Many sorted starts: one bisect per sentence instead of one per line.
        cuts = list(map(partial(bisect_left, starts), ends))
        counts = list(map(sub, cuts, [0, *cuts[:-1]]))
        counts.append(len(starts) - (cuts[-1] if cuts else 0))
        return list(chain.from_iterable(map(repeat, range(len(counts)), counts)))
    return list(map(partial(bisect_right, ends), starts))


def read_keyphrases(
    path: Path, sentences: _Sentences, wanted: set[int] | None = None
) -> tuple[dict[int, list[Keyphrase]], dict[int, int]]:
    """Key phrases by sentence index, and each ID's sentence (a later duplicate ID wins).

    Every line is checked for what the official reader needs; phrases are built, and their
    spans checked, only for the sentences in ``wanted`` (all if None).
    """
    per_sentence: defaultdict[int, list[Keyphrase]] = defaultdict(list)
    content = _read_text(path)
    heads = _A_LINES.findall(content)
    if len(heads) == _line_count(content):
        ids = list(map(int, map(itemgetter(0), heads)))
        where = _sentences_of(list(map(int, map(itemgetter(1), heads))), sentences.ends)
        if not where or max(where) < len(sentences.texts):
            located = dict(zip(ids, where))
            chosen = range(len(where))
            if wanted is not None:
                chosen = compress(chosen, map(wanted.__contains__, where))
            lines = content.split("\n")
            texts, offsets = sentences.texts, sentences.starts
            for i in chosen:
                # The line is known to be well-formed: ID, spans "S E[;S E...]", label, text.
                _, spans, label, _ = lines[i].split("\t")
                k = where[i]
                if ";" not in spans:  # one span, the common case, inline
                    start, end = map(int, spans.split(" "))
                    text, offset = texts[k], offsets[k]
                    if offset <= start <= end <= offset + len(text):
                        pairs = split_words(text, start - offset, end - offset)
                        per_sentence[k].append(Keyphrase(ids[i], label, pairs))
                        continue
                pairs = [tuple(map(int, pair.split(" "))) for pair in spans.split(";")]
                per_sentence[k].append(_keyphrase(sentences, path, i + 1, k, ids[i], label, pairs))
            return per_sentence, located
    located = {}
    for number, line in enumerate(_physical_lines(content), 1):
        kp_id, label, pairs = _parse_a_line(path, number, line)
        k = _sentence_of(sentences, path, number, pairs[0][0])
        located[kp_id] = k
        if wanted is None or k in wanted:
            per_sentence[k].append(_keyphrase(sentences, path, number, k, kp_id, label, pairs))
    return per_sentence, located


def _parse_b_line(
    path: Path, number: int, line: str, where: Mapping[int, int], a_path: Path
) -> tuple[str, int, int]:
    fields = line.strip().split("\t")
    if len(fields) != 3:
        raise ValueError(
            f"{path}, line {number}: expected 3 TAB-separated fields {_B_LAYOUT}, "
            f"got {len(fields)} in {shown(line.strip())}"
        )
    label, ids = fields[0], []
    for field, value in (("source ID", fields[1]), ("target ID", fields[2])):
        kp_id = _int(path, number, f"the {field}", value)
        if kp_id not in where:
            raise ValueError(
                f"{path}, line {number}: the {field} {kp_id} is not a key-phrase ID of {a_path}"
            )
        ids.append(kp_id)
    return label, ids[0], ids[1]


def read_relations(
    path: Path,
    where: Mapping[int, int],
    a_path: Path,
    wanted: set[int] | None = None,
) -> dict[int, list[Relation]]:
    """Relations by sentence index; a relation whose endpoints lie in two sentences is dropped.

    Every line is checked; relations are kept only for the sentences in ``wanted`` (all if None).
    """
    per_sentence: defaultdict[int, list[Relation]] = defaultdict(list)
    content = _read_text(path)
    fast = None
    rows = _B_LINES.findall(content)
    if len(rows) == _line_count(content):
        sources = list(map(int, map(itemgetter(1), rows)))
        targets = list(map(int, map(itemgetter(2), rows)))
        source_at = list(map(where.get, sources))
        target_at = list(map(where.get, targets))
        if None not in source_at and None not in target_at:  # else: report the unknown ID
            fast = True
    if fast:
        crossing = [i + 1 for i in compress(range(len(rows)), map(ne, source_at, target_at))]
        chosen = range(len(rows))
        if wanted is not None:
            chosen = compress(chosen, map(wanted.__contains__, source_at))
        for i in chosen:
            k = source_at[i]
            if target_at[i] == k:
                per_sentence[k].append(Relation(rows[i][0].lower(), sources[i], targets[i]))
    else:
        crossing = []
        for number, line in enumerate(_physical_lines(content), 1):
            label, source, target = _parse_b_line(path, number, line, where, a_path)
            k = where[source]
            if where[target] != k:
                crossing.append(number)
            elif wanted is None or k in wanted:
                per_sentence[k].append(Relation(label.lower(), source, target))
    if crossing:
        shown = ", ".join(map(str, crossing[:5])) + (", ..." if len(crossing) > 5 else "")
        warnings.warn(
            f"{path}: {len(crossing)} relation(s) cross sentence boundaries and were dropped, "
            f"as in the official evaluation (lines {shown})",
            stacklevel=_caller_level(),
        )
    return per_sentence


def _caller_level() -> int:
    """The ``stacklevel`` at which a warning of the function calling this one names the code that
    asked for the files: the first frame outside this module and the taskeval package, however
    deep the reader was entered (``read_official``, ``score_files``, ``taskeval``'s API)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and (
        frame.f_code.co_filename == __file__
        or frame.f_globals.get("__name__", "").partition(".")[0] == "taskeval"
    ):
        frame, level = frame.f_back, level + 1
    return level


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
    brat = _brat_edition(folder) if not candidates else None
    if brat is not None:
        raise ValueError(
            f"{folder}: a scenario folder of the {brat} layout (BRAT .txt and .ann): "
            f"score it with edition={brat} (--edition {brat})"
        )
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


def _read_annotations(
    sentence_file: Path, texts: list[str], wanted: set[int] | None = None
) -> tuple[dict[int, list[Keyphrase]], dict[int, list[Relation]]]:
    a_path, b_path = _companion(sentence_file, "a"), _companion(sentence_file, "b")
    sentences = _Sentences(sentence_file, texts)
    keyphrases, where = read_keyphrases(a_path, sentences, wanted)
    relations = read_relations(b_path, where, a_path, wanted)
    return keyphrases, relations


def gold_annotations(gold_file: Path) -> None:
    """Read a gold sentence file and its annotations as ``read_scenario`` does: a
    ``ValueError`` where the scorer would refuse them."""
    _read_annotations(gold_file, read_sentences(gold_file))


def read_scenario(
    references: str | PathLike, predictions: str | PathLike
) -> tuple[list[Sentence], list[Sentence], list[str]]:
    """The scored sentence pairs of one scenario: (submitted, gold) ``Sentence`` lists and
    where each pair lies in the submission (for error messages).

    Sentences are paired by position up to the shorter side. A pair is left out, as the
    official tool skips it, when the gold sentence has no annotation or the stripped texts
    differ (with a warning); every line of every file is still checked.
    """
    gold_file = gold_sentence_file(references)
    sub_file = submission_sentence_file(predictions, gold_file)
    g_texts = read_sentences(gold_file)
    g_kps, g_rels = _read_annotations(gold_file, g_texts)
    s_texts = read_sentences(sub_file)
    n = min(len(g_texts), len(s_texts))
    annotated = sorted(k for k in {*g_kps, *g_rels} if k < n)
    scored = [k for k in annotated if g_texts[k] == s_texts[k]]
    if len(scored) < len(annotated):
        skipped = sorted(set(annotated) - set(scored))
        shown = ", ".join(str(k + 1) for k in skipped[:5]) + (", ..." if len(skipped) > 5 else "")
        warnings.warn(
            f"{sub_file}: {len(skipped)} annotated sentence(s) differ from the gold text and "
            f"are skipped, as in the official evaluation (lines {shown}); their gold is not "
            f"counted",
            stacklevel=_caller_level(),
        )
    s_kps, s_rels = _read_annotations(sub_file, s_texts, set(scored))
    gold = [Sentence(g_texts[k], tuple(g_kps[k]), tuple(g_rels[k])) for k in scored]
    sub = [Sentence(s_texts[k], tuple(s_kps[k]), tuple(s_rels[k])) for k in scored]
    return sub, gold, [f"{sub_file}, line {k + 1}" for k in scored]


def _brat_edition(folder: str | PathLike) -> int | None:
    """The edition whose BRAT layout a scenario folder has (2020: ``scenario.txt``, 2021:
    ``output.txt``, each with its ``.ann``), or None."""
    from .brat import edition_of_folder

    return edition_of_folder(folder)


def read_sentence_pairs(
    references: str | PathLike | None, predictions: str | PathLike, edition: int | None = None
) -> tuple[list[Sentence], list[Sentence], list[str]]:
    """``read_scenario`` as ``read_official`` calls it (the same refusals and warnings), with the
    garbage collector paused: the sentences that ``read_official`` turns into rows. The BRAT
    layouts (``edition=2020`` or ``2021``, or by default a folder holding ``scenario.txt`` or
    ``output.txt``) are read by ``brat.read_scenario_brat``."""
    if references is None:
        raise ValueError("ehealthkd needs the gold scenario folder as references")
    if edition is None:
        edition = _brat_edition(predictions) or 2019
    with gc_paused():
        if check_edition(edition) != 2019:
            from .brat import read_scenario_brat

            return read_scenario_brat(references, predictions, edition)
        return read_scenario(references, predictions)


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

    One row per scored sentence: sentences whose gold has no annotation, or whose texts
    differ, are left out, since the official evaluation skips them (predictions included);
    every line is still checked. Spans are sentence-relative and normalised as the official
    tool does (sorted except in the first sentence, single spans split at spaces), relation
    labels lower-cased, cross-sentence relations dropped with a warning. Folders of the 2020
    and 2021 layouts (``scenario.txt``, ``output.txt``) are read as those editions' tools read
    them (see ``brat.py``): aligned by normalised text, relation labels as written; score those
    rows with ``edition=2020`` or ``2021``.
    """
    sub, gold, _ = read_sentence_pairs(references, predictions)
    return {"predictions": [_row(s) for s in sub], "references": [_row(s) for s in gold]}


def _is_sentence_file(path: Path) -> bool:
    name = path.name
    return (
        name.endswith(".txt")
        and name.startswith(("input_", "output_"))
        and not name.startswith(("output_a_", "output_b_"))
    )


def _holds_sentences(folder: Path) -> bool:
    return any(_is_sentence_file(p) for p in folder.iterdir() if p.is_file())


def _scenario_of(folder: Path) -> str | None:
    """The scenario a scenario folder holds, told by its name or its sentence file's, or None."""
    number = _scenario_number(folder)
    if number is None:
        numbers = {
            m.group(1)
            for p in folder.iterdir()
            if (m := re.fullmatch(r"(?:input|output)_scenario(\d+)\.txt", p.name))
        }
        number = numbers.pop() if len(numbers) == 1 else None
    scenario = f"scenario{number}"
    return scenario if scenario in SCENARIOS else None


def _layout(folder: Path) -> dict[str | None, Path] | None:
    """The scenario folders of one gold or submission folder, keyed by scenario.

    The folder itself when it holds a sentence file (keyed None if nothing tells its
    scenario); else its sub-folders named for a scenario (``scenario1-main``, ...); else None.
    """
    if not folder.is_dir():
        return None
    if _holds_sentences(folder):
        return {_scenario_of(folder): folder}
    found: dict[str | None, Path] = {}
    for child in sorted(p for p in folder.iterdir() if p.is_dir()):
        number = _scenario_number(child)
        if number is None or f"scenario{number}" not in SCENARIOS:
            continue
        scenario = f"scenario{number}"
        if scenario in found:
            raise ValueError(
                f"{folder}: two folders for {scenario}: {found[scenario].name}, {child.name}"
            )
        found[scenario] = child
    return found or None


_LAYOUTS = (
    "a scenario folder (a sentence file such as output_scenario1.txt, or input_scenario1.txt for "
    "the gold, with its output_a_ and output_b_ companions) or a folder of scenario folders "
    f"({', '.join(SCENARIO_FOLDERS.values())})"
)


def find_runs(top: Path, is_run: Any, levels: int) -> list[tuple[str, Path]]:
    """The folders under ``top``, up to ``levels`` deep, that ``is_run`` takes for one run (not
    looked into further), in sorted order, each named by its path in ``top``; hidden folders
    left out."""
    runs: list[tuple[str, Path]] = []

    def walk(parent: Path, depth: int) -> None:
        for child in sorted(p for p in parent.iterdir() if p.is_dir()):
            if child.name.startswith("."):
                continue
            if is_run(child):
                runs.append((child.relative_to(top).as_posix(), child))
            elif depth < levels:
                walk(child, depth + 1)

    walk(top, 1)
    return runs


def submissions(folder: str | PathLike) -> list[tuple[str, Path]] | None:
    """The submissions in a folder of several, named by their path in it (``team/run1``).

    None when the folder is itself one submission. Submissions are looked for two levels deep,
    as the official tool's layouts (``runs/`` or ``participants/runs/``) put them.
    """
    top = Path(folder)
    if not top.is_dir():
        raise ValueError(f"{top}: no such folder")
    if _layout(top) is not None:
        return None
    runs = find_runs(top, lambda child: _layout(child) is not None, 2)
    if not runs:
        folders = [top, *(p for p in top.iterdir() if p.is_dir())]
        brat = next(filter(None, map(_brat_edition, folders)), None)
        hint = f"; it is laid out as in {brat}: score it with --edition {brat}" if brat else ""
        raise ValueError(
            f"{top}: no submission found: expected {_LAYOUTS}, or a folder of those{hint}"
        )
    return runs


def _unnamed(folder: str | PathLike) -> ValueError:
    return ValueError(
        f"{folder}: neither its name nor its files tell which scenario it holds "
        f"(1, 2 or 3): name it (--scenario N on the command line)"
    )


def _no_folder(top: str | PathLike, scenario: str) -> ValueError:
    return ValueError(f"{top}: no {SCENARIO_FOLDERS[scenario]} folder")


def _layouts(
    references: str | PathLike, predictions: str | PathLike, scenario: str | None
) -> tuple[dict[str | None, Path], dict[str | None, Path]]:
    """The scenario folders of both sides, checked."""
    if scenario is not None:
        check_scenario(scenario)
    for path in (references, predictions):
        if not Path(path).is_dir():
            raise ValueError(f"{path}: no such folder")
    gold, subm = _layout(Path(references)), _layout(Path(predictions))
    if gold is None:
        raise ValueError(f"{references}: expected {_LAYOUTS}")
    if subm is None:
        raise ValueError(f"{predictions}: expected {_LAYOUTS}")
    return gold, subm


def _submitted_scenario_folder(
    references: str | PathLike,
    predictions: str | PathLike,
    scenario: str | None,
    gold: dict[str | None, Path],
    subm: dict[str | None, Path],
) -> tuple[str, Path, Path]:
    """A submission that is one scenario folder, against its gold."""
    gold_direct = Path(references) in gold.values()  # the folder itself, not a sub-folder
    ((named, folder),) = subm.items()
    gold_named = next(iter(gold)) if gold_direct else None
    if scenario is None and named and gold_named and named != gold_named:
        raise ValueError(f"{references} holds {gold_named} but {predictions} holds {named}")
    chosen = scenario or named or gold_named
    if chosen is None:
        raise _unnamed(predictions)
    gold_folder = Path(references) if gold_direct else gold.get(chosen)
    if gold_folder is None:
        raise _no_folder(references, chosen)
    return chosen, gold_folder, folder


def _gold_scenario_folder(
    predictions: str | PathLike,
    references: str | PathLike,
    scenario: str | None,
    gold: dict[str | None, Path],
    subm: dict[str | None, Path],
) -> tuple[str, Path, Path]:
    """A gold scenario folder against a tree of submitted scenario folders."""
    ((named, folder),) = gold.items()
    chosen = scenario or named
    if chosen is None:
        raise _unnamed(references)
    if chosen not in subm:
        raise _no_folder(predictions, chosen)
    return chosen, folder, subm[chosen]


def _tree_pairs(
    references: str | PathLike,
    predictions: str | PathLike,
    scenario: str | None,
    gold: dict[str | None, Path],
    subm: dict[str | None, Path],
) -> list[tuple[str, Path, Path]]:
    """Two trees of scenario folders: the submitted scenarios (or the one asked for)."""
    wanted = [scenario] if scenario is not None else [s for s in SCENARIOS if s in subm]
    pairs = []
    for name in wanted:
        if name not in subm:
            raise _no_folder(predictions, name)
        if name not in gold:
            raise _no_folder(references, name)
        pairs.append((name, gold[name], subm[name]))
    missing = [SCENARIO_FOLDERS[s] for s in SCENARIOS if s in gold and s not in subm]
    if scenario is None and missing:
        warnings.warn(
            f"{predictions}: no {', '.join(missing)} folder; scored: "
            f"{', '.join(name for name, _, _ in pairs)}",
            stacklevel=_caller_level(),
        )
    return pairs


def scenario_pairs(
    references: str | PathLike, predictions: str | PathLike, scenario: str | None = None
) -> list[tuple[str, Path, Path]]:
    """``(scenario, gold folder, submission folder)`` for each scenario to score.

    Either side is a scenario folder or a folder of scenario folders. Scored: the scenarios of
    the submission (``scenario`` picks one, or names the scenario of a folder whose names do
    not tell it); each must have its gold. Gold scenarios the submission lacks are skipped
    with a warning.
    """
    from .brat import is_brat_gold, scenario_pairs_brat

    if Path(references).is_dir() and Path(predictions).is_dir():
        for edition in (2020, 2021):
            if is_brat_gold(Path(references), edition):
                return scenario_pairs_brat(Path(references), Path(predictions), scenario, edition)
    gold, subm = _layouts(references, predictions, scenario)
    if Path(predictions) in subm.values():
        return [_submitted_scenario_folder(references, predictions, scenario, gold, subm)]
    if Path(references) in gold.values():
        return [_gold_scenario_folder(predictions, references, scenario, gold, subm)]
    return _tree_pairs(references, predictions, scenario, gold, subm)


def score_files(
    references: str | PathLike,
    predictions: str | PathLike,
    scenario: str | None = None,
    edition: int = 2019,
) -> dict[str, dict]:
    """What ``taskeval score ehealthkd`` prints.

    ``predictions`` is one submission, a scenario folder or a folder of scenario folders
    (``scenario1-main``, ``scenario2-taskA``, ``scenario3-taskB``), scored as
    ``{"scenario1": {...}, ...}`` for the scenarios it holds; or a folder of several submissions,
    scored as ``{submission: {"scenario1": {...}, ...}}`` (see ``submissions``). ``references``
    is the gold, laid out the same way; ``scenario`` picks one scenario (see ``scenario_pairs``).
    ``edition=2020`` and ``2021`` read those editions' layouts (``brat.py``) and score by the
    2020 rules.
    """
    if references is None:
        raise ValueError("ehealthkd needs the gold folder as references")
    if check_edition(edition) != 2019:
        return _score_files_brat(Path(references), Path(predictions), scenario, edition)
    with gc_paused():
        runs = submissions(predictions)
        if runs is None:
            return _score_pairs(scenario_pairs(references, predictions, scenario))
        return {
            name: _score_pairs(scenario_pairs(references, path, scenario)) for name, path in runs
        }


def _score_files_brat(
    references: Path, predictions: Path, scenario: str | None, edition: int
) -> dict[str, dict]:
    from .brat import brat_submissions, gold_of, read_scenario_brat, scenario_pairs_brat

    if scenario is not None:
        check_scenario(scenario, edition)
    for path in (references, predictions):
        if not path.is_dir():
            raise ValueError(f"{path}: no such folder")

    def one(run: Path) -> dict[str, dict]:
        out = {}
        for name, gold_dir, sub_dir in scenario_pairs_brat(references, run, scenario, edition):
            submitted, gold, names = read_scenario_brat(gold_dir, sub_dir, edition)
            out[name] = score(submitted, gold, name, names, edition=edition)
        return out

    with gc_paused():
        runs = brat_submissions(predictions, edition, gold_of(references, edition)[1])
        if runs is None:
            return one(predictions)
        return {name: one(path) for name, path in runs}


def _score_pairs(pairs: list[tuple[str, Path, Path]]) -> dict[str, dict]:
    out = {}
    for scenario, gold_dir, sub_dir in pairs:
        submitted, gold, names = read_scenario(gold_dir, sub_dir)
        out[scenario] = score(submitted, gold, scenario, names)
    return out


# Class-label names of the Hub ``ehealth_kd`` dataset, in their index order.
HUB_ENTITY_LABELS = ("Concept", "Action", "Predicate", "Reference")
HUB_RELATION_LABELS = (
    "is-a",
    "same-as",
    "has-property",
    "part-of",
    "causes",
    "entails",
    "in-time",
    "in-place",
    "in-context",
    "subject",
    "target",
    "domain",
    "arg",
)


def _hub_label(value: Any, names: tuple[str, ...], where: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    raise ValueError(f"{where}: expected a label name or a class index below {len(names)}")


def _hub_id(value: Any, where: str) -> int:
    text = value if isinstance(value, str) else None
    digits = text.lstrip("TR") if text else ""
    if not (digits.isascii() and digits.isdigit()):  # '²' is a digit to isdigit, not to int
        raise ValueError(f"{where}: expected a BRAT id such as 'T12', got {shown(value)}")
    return int(digits)


def _fragments(text: str, start: int, end: int, words: list[str]) -> list[list[int]] | None:
    """One pair per word of ``words`` inside ``text[start:end]``, the first word starting at
    ``start`` and the last ending at ``end``, or None if they are not there or could be in
    more than one way (a repeated word between the ends)."""
    first, last = words[0], words[-1]
    low, high = start + len(first), end - len(last)
    if len(words) < 2 or low > high:
        return None
    if not (text.startswith(first, start) and text.startswith(last, high)):
        return None
    leftmost, at = [], low
    for word in words[1:-1]:  # each middle word as early as it can be
        found = text.find(word, at, high)
        if found < 0:
            return None
        leftmost.append([found, found + len(word)])
        at = found + len(word)
    rightmost, at = [], high
    for word in reversed(words[1:-1]):  # and as late: both must agree
        found = text.rfind(word, low, at)
        rightmost.insert(0, [found, found + len(word)])
        at = found
    if leftmost != rightmost:
        return None
    return [[start, low], *leftmost, [high, end]]


def _hub_spans(text: str, base: int, entity: Mapping, kp_id: int, at: str) -> list[list[int]]:
    """Sentence-relative spans of a Hub entity, from its file-level offsets."""
    start, end = entity["start_character"], entity["end_character"]
    for field, value in (("start_character", start), ("end_character", end)):
        if isinstance(value, (bool, str, float)) or not hasattr(value, "__index__"):
            raise ValueError(
                f"{at}, field {shown(field)}: expected an int offset, got {shown(value)}"
            )
    start, end = operator.index(start), operator.index(end)  # numpy ints from a data frame too
    relative = (start - base, end - base)
    if not 0 <= relative[0] <= relative[1] <= len(text):
        raise ValueError(
            f"{at} (T{kp_id}): the offsets [{start}, {end}) are file-level (the Hub rows keep "
            f"the BRAT offsets of the split's whole scenario.txt), and counted from the first "
            f"row given, this row's sentence covers [{base}, {base + len(text)}): the entity "
            f"lies outside it. Pass every row of the split, in order, from its first row; the "
            f"offsets cannot be recovered if the Hub loading script shifted sentences (it "
            f"merges the annotations of a sentence without relations into the next row)"
        )
    ent_text = entity.get("ent_text")
    if not isinstance(ent_text, str) or text[relative[0] : relative[1]] == ent_text:
        return [list(relative)]  # contiguous: one span, split at spaces when scored
    # A discontinuous entity: the Hub keeps its first start and last end only; its words
    # (BRAT joins the fragments with a space) locate the fragments, one pair per word.
    pairs = _fragments(text, *relative, ent_text.split(" "))
    if pairs is None:
        raise ValueError(
            f"{at} (T{kp_id}): the sentence over [{start}, {end}) reads "
            f"{shown(text[relative[0] : relative[1]])}, not the entity text {shown(ent_text)}; the Hub "
            f"rows keep only the first start and the last end of a discontinuous entity, and "
            f"its words do not locate its fragments unambiguously"
        )
    return pairs


def references_from_hub(rows: Iterable[Mapping]) -> list[dict]:
    """Rows of the Hub ``ehealth_kd`` dataset (``community-datasets/ehealth_kd``) → references.

    A Hub row holds ``sentence``, ``entities`` (``ent_id`` such as ``"T3"``, ``ent_text``,
    ``ent_label``, ``start_character``, ``end_character``) and ``relations`` (``rel_id``,
    ``rel_label``, ``arg1``, ``arg2``); labels may be class indices or names. The Hub loading
    script copies the offsets of the BRAT ``scenario.ann``, which count characters over the
    split's whole ``scenario.txt``: row k's sentence starts after the sentences of rows 0..k-1
    and one line break each. So the rows must be the whole split, in order. Each entity becomes
    one key phrase: a single span (split into words when scored, as the official tool does)
    when the sentence reads ``ent_text`` there, else (a discontinuous entity, of which the Hub
    keeps only the first start and last end) one pair per word of ``ent_text``. An entity that
    does not fit is refused with the reason. The Hub dataset is the 2020 edition of the corpus.
    """
    out = []
    base = 0  # file-level offset of the current row's sentence
    for index, row in enumerate(rows):
        where = f"rows[{index}]"
        try:
            text, entities, links = row["sentence"], row["entities"], row["relations"]
        except (KeyError, TypeError):
            raise ValueError(
                f"{where}: expected a Hub ehealth_kd row with 'sentence', 'entities' and "
                f"'relations'"
            ) from None
        if not isinstance(text, str):
            raise ValueError(f"{where}, field 'sentence': expected a string, got {shown(text)}")
        keyphrases, ids = [], set()
        for k, entity in enumerate(entities):
            at = f"{where}, entities[{k}]"
            try:
                kp_id = _hub_id(entity["ent_id"], f"{at}, field 'ent_id'")
                label = _hub_label(entity["ent_label"], HUB_ENTITY_LABELS, f"{at}, 'ent_label'")
                spans = _hub_spans(text, base, entity, kp_id, at)
            except (KeyError, TypeError) as e:
                raise ValueError(f"{at}: missing field {e}") from None
            keyphrases.append({"id": kp_id, "label": label, "spans": spans})
            ids.add(kp_id)
        relations = []
        for r, link in enumerate(links):
            at = f"{where}, relations[{r}]"
            try:
                label = _hub_label(link["rel_label"], HUB_RELATION_LABELS, f"{at}, 'rel_label'")
                ends = [_hub_id(link[f], f"{at}, field {shown(f)}") for f in ("arg1", "arg2")]
            except (KeyError, TypeError) as e:
                raise ValueError(f"{at}: missing field {e}") from None
            for field, kp_id in zip(("arg1", "arg2"), ends):
                if kp_id not in ids:
                    raise ValueError(
                        f"{at}, field {shown(field)}: no entity of this row has that id"
                    )
            relations.append({"label": label, "source": ends[0], "target": ends[1]})
        out.append({"text": text, "keyphrases": keyphrases, "relations": relations})
        base += len(text) + 1
    return out
