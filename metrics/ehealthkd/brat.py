"""Official eHealth-KD 2020 files: a ``scenario.txt`` of sentences with its BRAT ``scenario.ann``
beside it, read exactly as the official 2020 reader reads them.

Sentences: the text cut by ``str.splitlines()`` (universal newlines first), empty lines dropped,
each kept line stripped; global offsets over the kept stripped lines joined by one newline.
Annotations, each line by its first character: ``T`` key phrases (``T<n><TAB>LABEL START
END[;START END...]<TAB>TEXT``, id ``n``), ``R`` relations (``R<n><TAB>LABEL Arg1:T<a>
Arg2:T<b>``), ``*`` relations from the first id to each other (``*<TAB>LABEL T<a> T<b>...``),
``E`` events (legacy: an argument ``ROLE:ID`` is a relation from the trigger, its role without
digits and lower-cased; an event id stands for its trigger), ``A`` attributes and ``#`` notes
(not scored). Relation labels keep their case; event relations come first in a sentence, then
the ``R`` and ``*`` ones in file order. A key phrase is placed, and its pairs made
sentence-relative, as the 2019 reader does (``inputs._keyphrase``). A relation whose ends lie
in two sentences is refused: the 2020 reader means to drop it with a warning, but formats the
warning with ``%i`` from the ids' text and fails (2019 drops it). The key phrases are sorted by
the scoring core (``scoring.sorted_keyphrases``), as the official reader sorts them.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from .inputs import _caller_level, _keyphrase, _read_text, _sentence_of, _Sentences, find_runs
from .plain_values import shown
from .records import Keyphrase, Relation, Sentence
from .scoring import aligned_pairs, is_annotated

# The scenario folders of the 2020 layout, and the sentence file of each.
SCENARIO_FOLDERS_2020 = {
    "scenario1": "scenario1-main",
    "scenario2": "scenario2-taskA",
    "scenario3": "scenario3-taskB",
    "scenario4": "scenario4-transfer",
}
SENTENCE_FILE = "scenario.txt"


def read_sentences_2020(path: str | PathLike) -> list[str]:
    """The sentences of a 2020 ``.txt``: ``splitlines()``, empty lines dropped, lines stripped."""
    return [line.strip() for line in _read_text(Path(path)).splitlines() if line]


@dataclass
class _Annotations:
    """What the lines of one ``.ann`` say, before the sentences are built."""

    entities: list[tuple[int, Keyphrase]] = field(default_factory=list)  # (sentence, phrase)
    phrases: dict[str, tuple[int, Keyphrase]] = field(default_factory=dict)  # raw id: the last
    events: list[tuple[int, str, str, list[tuple[str, str]]]] = field(default_factory=list)
    links: list[tuple[int, str, str, str]] = field(default_factory=list)  # line, label, ids
    problems: dict[int, ValueError] = field(default_factory=dict)  # sentence: its first problem


def _fail(path: Path, number: int, problem: str) -> ValueError:
    return ValueError(f"{path}, line {number}: {problem}; the official 2020 reader fails here")


def _parse_entity(ann: Path, number: int, line: str, sentences: _Sentences, out: _Annotations):
    parts = line.split("\t")
    if len(parts) != 3 or " " not in parts[1]:
        raise _fail(ann, number, f"expected T<n><TAB>LABEL START END<TAB>TEXT, got {shown(line)}")
    raw_id, (label, spans) = parts[0], parts[1].split(" ", 1)
    pairs = []
    for chunk in spans.split(";"):
        bounds = chunk.split()
        try:
            pairs.append((int(bounds[0]), int(bounds[1])) if len(bounds) == 2 else None)
        except ValueError:
            pairs.append(None)
        if pairs[-1] is None:
            raise _fail(ann, number, f"each span must be 'START END' of ints, got {shown(chunk)}")
    try:
        kp_id = int(raw_id[1:])
    except ValueError:
        raise _fail(ann, number, f"a key-phrase id must be T<int>, got {shown(raw_id)}") from None
    k = _sentence_of(sentences, ann, number, pairs[0][0])
    try:
        entity = (k, _keyphrase(sentences, ann, number, k, kp_id, label, pairs))
    except ValueError as e:
        # Pairs that cannot be split or lie before the sentence: refused only if the sentence
        # is scored (the official tool scores them silently; see read_scenario_2020).
        out.problems.setdefault(k, e)
        offset = sentences.starts[k]
        entity = (k, Keyphrase(kp_id, label, tuple((a - offset, b - offset) for a, b in pairs)))
    out.entities.append(entity)
    out.phrases[raw_id] = entity  # a later T line with the same id takes the id over


def _parse_line(ann: Path, number: int, line: str, sentences: _Sentences, out: _Annotations):
    head = line[:1]
    if head == "T":
        _parse_entity(ann, number, line, sentences, out)
    elif head == "R":
        fields = line.strip().split()
        if len(fields) != 4 or ":" not in fields[2] or ":" not in fields[3]:
            raise _fail(ann, number, f"expected R<n><TAB>LABEL Arg1:ID Arg2:ID, got {shown(line)}")
        ends = [f.split(":")[1] for f in fields[2:]]
        out.links.append((number, fields[1], ends[0], ends[1]))
    elif head == "*":
        body = line[1:].strip()
        if " " not in body:
            raise _fail(ann, number, f"expected *<TAB>LABEL ID ID..., got {shown(line)}")
        label, args = body.split(" ", 1)
        ids = args.split()
        out.links.extend((number, label, ids[0], other) for other in ids[1:])
    elif head == "E":
        fields = line.strip().split("\t")
        args = fields[1].split() if len(fields) == 2 else []
        if not args or args[0].count(":") != 1 or any(a.count(":") < 1 for a in args[1:]):
            raise _fail(ann, number, f"expected E<n><TAB>TYPE:ID ROLE:ID..., got {shown(line)}")
        roles = dict((a.split(":")[0], a.split(":")[1]) for a in args[1:])
        out.events.append((number, fields[0], args[0].split(":")[1], list(roles.items())))
    elif head == "A":
        if len(line.strip().split()) != 3:
            raise _fail(ann, number, f"expected A<n><TAB>NAME ID, got {shown(line)}")
    elif head != "#":
        raise _fail(ann, number, f"unknown annotation line {shown(line)}")


def _attribute_refs(ann: Path, content: list[str], phrases: dict) -> None:
    for number, line in enumerate(content, 1):
        if line[:1] == "A" and line.strip().split()[2] not in phrases:
            raise _fail(
                ann, number, f"the attribute's key phrase is not in the file: {shown(line)}"
            )


def read_scenario_file(path: str | PathLike) -> tuple[list[Sentence], dict[int, ValueError]]:
    """Every sentence of a 2020 ``scenario.txt`` with the annotations of its ``scenario.ann``,
    and the sentences whose key phrases cannot be scored (a negative offset, start > end, a
    single span past the sentence), each with its first such problem."""
    txt = Path(path)
    ann = txt.with_suffix(".ann")
    texts = read_sentences_2020(txt)
    sentences = _Sentences(txt, texts)
    lines = _read_text(ann).split("\n")
    if lines[-1] == "":
        lines.pop()
    out = _Annotations()
    for number, line in enumerate(lines, 1):
        _parse_line(ann, number, line + "\n", sentences, out)
    phrases = out.phrases
    kps: list[list[Keyphrase]] = [[] for _ in texts]
    for k, phrase in out.entities:
        kps[k].append(phrase)
    # Legacy events: an event id stands for its trigger, then each argument is a relation.
    for number, event_id, ref, _ in out.events:
        if ref not in phrases:
            raise _fail(ann, number, f"the event's trigger {shown(ref)} is not a key phrase")
        phrases[event_id] = phrases[ref]
    links = [
        (number, "".join(c for c in role if not c.isdigit()).lower(), ref, target)
        for number, _, ref, roles in out.events
        for role, target in roles
    ]
    _attribute_refs(ann, lines, phrases)
    rels: list[list[Relation]] = [[] for _ in texts]
    for number, label, source, target in [*links, *out.links]:
        for end in (source, target):
            if end not in phrases:
                raise _fail(ann, number, f"{shown(end)} is not the id of a key phrase of the file")
        (k, a), (k2, b) = phrases[source], phrases[target]
        if k != k2:
            raise _fail(
                ann,
                number,
                f"the relation {shown(label)} from {source} (sentence {k + 1}) to {target} "
                f"(sentence {k2 + 1}) crosses sentence boundaries (2020's warning about it "
                f"cannot be formatted)",
            )
        rels[k].append(Relation(label, a.id, b.id))
    return [Sentence(t, tuple(kps[k]), tuple(rels[k])) for k, t in enumerate(texts)], out.problems


def read_scenario_2020(
    references: str | PathLike, predictions: str | PathLike
) -> tuple[list[Sentence], list[Sentence], list[str]]:
    """The scored sentence pairs of one 2020 scenario folder on each side: (submitted, gold)
    ``Sentence`` lists, aligned as the official 2020 tool aligns them (``aligned_pairs``; a gold
    sentence without a counterpart gets an empty one), gold sentences without annotation left
    out, and where each pair lies (for error messages)."""
    gold_file, sub_file = Path(references) / SENTENCE_FILE, Path(predictions) / SENTENCE_FILE
    (gold_all, gold_problems), (sub_all, sub_problems) = map(
        read_scenario_file, (gold_file, sub_file)
    )
    gold, sub, names = [], [], []
    for index, sub_index in aligned_pairs(sub_all, gold_all):
        g = gold_all[index]
        if not is_annotated(g):
            continue
        for problem in (gold_problems.get(index), sub_problems.get(sub_index)):
            if problem is not None:
                raise problem
        gold.append(g)
        if sub_index is None:
            sub.append(Sentence(g.text, (), ()))
            names.append(f"{sub_file}: none for gold sentence {index + 1}")
        else:
            sub.append(sub_all[sub_index])
            names.append(f"{sub_file}, sentence {sub_index + 1}")
    return sub, gold, names


def _named_scenario(folder: Path) -> str | None:
    head = folder.name.split("-", 1)[0]
    return head if head in SCENARIO_FOLDERS_2020 else None


def layout_2020(folder: Path) -> dict[str | None, Path] | None:
    """The scenario folders of a 2020 gold or run folder, keyed by scenario: the folder itself
    when it holds ``scenario.txt`` (keyed None if its name does not tell the scenario), else its
    sub-folders named ``scenarioN-...``; None if neither."""
    if (folder / SENTENCE_FILE).is_file():
        return {_named_scenario(folder): folder}
    found = {
        scenario: child
        for child in sorted(p for p in folder.iterdir() if p.is_dir())
        if (scenario := _named_scenario(child)) is not None
    }
    return found or None


MODES = ("test", "dev", "train")
_FIRST_THREE = ("scenario1", "scenario2", "scenario3")


def _holds(folder: Path) -> bool:
    return (folder / SENTENCE_FILE).is_file()


def gold_2020(references: Path) -> tuple[dict[str, Path], str | None]:
    """The gold folder of each scenario, and the official ``--mode`` the gold layout stands for.

    ``testing`` (``test``): its ``scenarioN-...`` folders. ``development`` (``dev``): ``main``
    for scenarios 1 to 3 and ``transfer`` for 4. A folder holding ``scenario.txt``: the scenario
    its name says (``scenario2-taskA``), 4 for ``transfer``, else scenarios 1 to 3 (``training``
    (``train``), ``main``), as the official modes use them.
    """
    if _holds(references):
        named = _named_scenario(references)
        if named is not None:
            return {named: references}, None
        if references.name == "transfer":
            return {"scenario4": references}, "dev"
        mode = "train" if references.name == "training" else "dev"
        return dict.fromkeys(_FIRST_THREE, references), mode
    found = layout_2020(references)
    if found:
        return {k: v for k, v in found.items() if k is not None}, "test"
    main, transfer = references / "main", references / "transfer"
    if _holds(main) or _holds(transfer):
        golds = dict.fromkeys(_FIRST_THREE, main) if _holds(main) else {}
        return {**golds, **({"scenario4": transfer} if _holds(transfer) else {})}, "dev"
    raise ValueError(
        f"{references}: expected a 2020 gold: a folder of scenario folders "
        f"({', '.join(SCENARIO_FOLDERS_2020.values())}), a development folder (main, transfer) "
        f"or one folder holding {SENTENCE_FILE} and its .ann"
    )


def is_2020_gold(references: Path) -> bool:
    """Whether a folder is a gold of the 2020 layout (``gold_2020`` finds a ``scenario.txt``)."""
    try:
        golds, _ = gold_2020(references)
    except ValueError:
        return False
    return any(map(_holds, golds.values()))


def _other_mode(name: str, mode: str | None) -> bool:
    """Whether a run's path says it is a run of another mode (``TEAM/dev/run1`` for test)."""
    return mode is not None and any(p in MODES and p != mode for p in name.split("/")[:-1])


def submissions_2020(folder: Path, mode: str | None = None) -> list[tuple[str, Path]] | None:
    """The runs of a folder of several (``TEAM/test/run1``, up to three levels deep), named by
    their path in it; None when the folder is itself one run. Runs under a folder named for
    another mode than the gold's (``dev`` beside ``test``) are left out, as ``--mode`` does."""
    if layout_2020(folder) is not None:
        return None
    runs = find_runs(folder, lambda child: layout_2020(child) is not None, 3)
    kept = [(name, path) for name, path in runs if not _other_mode(name, mode)]
    if not kept:
        raise ValueError(
            f"{folder}: no 2020 submission found{f' for the {mode} gold' if runs else ''}: "
            f"expected scenario folders ({', '.join(SCENARIO_FOLDERS_2020.values())}) holding "
            f"{SENTENCE_FILE} and its .ann, or a folder of such runs"
        )
    return kept


def scenario_pairs_2020(
    references: Path, predictions: Path, scenario: str | None
) -> list[tuple[str, Path, Path]]:
    """``(scenario, gold folder, submission folder)`` for each scenario the run has and the gold
    scores (see ``gold_2020``). As the official ``evaltest``, a scenario whose ``scenario.txt``
    the run lacks is not scored, nor one the gold's mode has no gold for (``train``: 4)."""
    golds, _ = gold_2020(references)
    subm = layout_2020(predictions)
    if subm is None:
        raise ValueError(f"{predictions}: expected a 2020 run (scenario folders) or one of them")
    pairs = []
    for named, folder in subm.items():
        chosen = named or scenario or (next(iter(golds)) if len(golds) == 1 else None)
        if chosen is None:
            raise ValueError(
                f"{folder}: neither its name nor the gold's tells which scenario it holds: "
                f"name it (--scenario N on the command line)"
            )
        if scenario is not None and chosen != scenario:
            continue
        gold_folder = golds.get(chosen)
        if gold_folder is None:
            if named is not None and len(subm) > 1:
                continue  # a scenario of the run that this gold does not score
            raise ValueError(f"{references}: no gold for {chosen}")
        if not _holds(folder):
            warnings.warn(
                f"{folder}: no {SENTENCE_FILE}; {chosen} not scored, as officially",
                stacklevel=_caller_level(),
            )
            continue
        pairs.append((chosen, gold_folder, folder))
    return pairs
