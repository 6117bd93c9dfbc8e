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

The 2021 edition (ehealthkd/corpora, ``scripts/anntools.py``) names the files ``output.txt`` and
``output.ann`` and has scenarios 1 to 3; its reader is 2020's but forgiving (``Layout.forgiving``):
a ``T`` line is split at tabs after stripping it, so its text field may be missing or hold tabs;
a key phrase whose first offset lies past the last sentence is dropped, and so is a relation
with an end no key phrase has or ends in two sentences, each with a warning.
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


@dataclass(frozen=True)
class Layout:
    """How an edition lays out and reads its BRAT files."""

    edition: int
    sentence_file: str  # in each scenario folder, its .ann beside it
    folders: dict[str, str]  # scenario: its folder's name
    splits: tuple[str, ...]  # names of folders that hold the runs of one gold split
    forgiving: bool  # the 2021 reader (see the module's docstring)


LAYOUTS = {
    2020: Layout(
        2020,
        "scenario.txt",
        {
            "scenario1": "scenario1-main",
            "scenario2": "scenario2-taskA",
            "scenario3": "scenario3-taskB",
            "scenario4": "scenario4-transfer",
        },
        ("test", "dev", "train"),
        forgiving=False,
    ),
    2021: Layout(
        2021,
        "output.txt",
        {
            "scenario1": "scenario1-main",
            "scenario2": "scenario2-taskA",
            "scenario3": "scenario3-taskB",
        },
        ("training", "develop", "testing"),
        forgiving=True,
    ),
}


def edition_of_folder(folder: str | PathLike) -> int | None:
    """The BRAT edition a scenario folder is laid out for (its sentence file's name), or None."""
    for layout in LAYOUTS.values():
        if (Path(folder) / layout.sentence_file).is_file():
            return layout.edition
    return None


def read_brat_sentences(path: str | PathLike) -> list[str]:
    """The sentences of a BRAT ``.txt``: ``splitlines()``, empty lines dropped, lines stripped."""
    return [line.strip() for line in _read_text(Path(path)).splitlines() if line]


@dataclass
class _Annotations:
    """What the lines of one ``.ann`` say, before the sentences are built."""

    entities: list[tuple[int, Keyphrase]] = field(default_factory=list)  # (sentence, phrase)
    phrases: dict[str, tuple[int, Keyphrase]] = field(default_factory=dict)  # raw id: the last
    events: list[tuple[int, str, str, list[tuple[str, str]]]] = field(default_factory=list)
    links: list[tuple[int, str, str, str]] = field(default_factory=list)  # line, label, ids
    problems: dict[int, ValueError] = field(default_factory=dict)  # sentence: its first problem
    layout: Layout = LAYOUTS[2020]


def _fail(path: Path, number: int, problem: str, edition: int = 2020) -> ValueError:
    return ValueError(f"{path}, line {number}: {problem}; the official {edition} reader fails here")


def _dropped(path: Path, number: int, what: str) -> None:
    warnings.warn(
        f"{path}, line {number}: {what}; dropped, as the official 2021 reader drops it",
        stacklevel=_caller_level(),
    )


def _entity_fields(line: str, forgiving: bool) -> list[str] | None:
    """The tab-separated fields of a ``T`` line, or None if the reader cannot split it: 2020
    wants exactly three, 2021 two or more of the stripped line (the text joined back)."""
    parts = line.strip().split("\t") if forgiving else line.split("\t")
    if (len(parts) >= 2 if forgiving else len(parts) == 3) and " " in parts[1]:
        return parts
    return None


def _parse_entity(ann: Path, number: int, line: str, sentences: _Sentences, out: _Annotations):
    edition, forgiving = out.layout.edition, out.layout.forgiving
    parts = _entity_fields(line, forgiving)
    if parts is None:
        expected = (
            "T<n><TAB>LABEL START END<TAB>TEXT" if not forgiving else "T<n><TAB>LABEL START END"
        )
        raise _fail(ann, number, f"expected {expected}, got {shown(line)}", edition)
    raw_id, (label, spans) = parts[0], parts[1].split(" ", 1)
    pairs = []
    for chunk in spans.split(";"):
        bounds = chunk.split()
        try:
            pairs.append((int(bounds[0]), int(bounds[1])) if len(bounds) == 2 else None)
        except ValueError:
            pairs.append(None)
        if pairs[-1] is None:
            raise _fail(
                ann, number, f"each span must be 'START END' of ints, got {shown(chunk)}", edition
            )
    try:
        kp_id = int(raw_id[1:])
    except ValueError:
        raise _fail(
            ann, number, f"a key-phrase id must be T<int>, got {shown(raw_id)}", edition
        ) from None
    try:
        k = _sentence_of(sentences, ann, number, pairs[0][0])
    except ValueError as e:
        if not forgiving:
            raise
        del e  # the 2021 reader drops what the 2020 one refuses
        _dropped(
            ann,
            number,
            f"the key phrase {shown(raw_id)} starts at offset {pairs[0][0]}, past the last "
            f"sentence of {sentences.path}",
        )
        return
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
    head, edition = line[:1], out.layout.edition
    if head == "T":
        _parse_entity(ann, number, line, sentences, out)
    elif head == "R":
        fields = line.strip().split()
        if len(fields) != 4 or ":" not in fields[2] or ":" not in fields[3]:
            raise _fail(
                ann, number, f"expected R<n><TAB>LABEL Arg1:ID Arg2:ID, got {shown(line)}", edition
            )
        ends = [f.split(":")[1] for f in fields[2:]]
        out.links.append((number, fields[1], ends[0], ends[1]))
    elif head == "*":
        body = line[1:].strip()
        if " " not in body:
            raise _fail(ann, number, f"expected *<TAB>LABEL ID ID..., got {shown(line)}", edition)
        label, args = body.split(" ", 1)
        ids = args.split()
        out.links.extend((number, label, ids[0], other) for other in ids[1:])
    elif head == "E":
        fields = line.strip().split("\t")
        args = fields[1].split() if len(fields) == 2 else []
        if not args or args[0].count(":") != 1 or any(a.count(":") < 1 for a in args[1:]):
            raise _fail(
                ann, number, f"expected E<n><TAB>TYPE:ID ROLE:ID..., got {shown(line)}", edition
            )
        roles = dict((a.split(":")[0], a.split(":")[1]) for a in args[1:])
        out.events.append((number, fields[0], args[0].split(":")[1], list(roles.items())))
    elif head == "A":
        if len(line.strip().split()) != 3:
            raise _fail(ann, number, f"expected A<n><TAB>NAME ID, got {shown(line)}", edition)
    elif head != "#":
        raise _fail(ann, number, f"unknown annotation line {shown(line)}", edition)


def _attribute_refs(
    ann: Path, content: list[str], phrases: dict, edition: int, collected: Problems
) -> None:
    for number, line in enumerate(content, 1):
        fields = line.strip().split()
        if line[:1] == "A" and len(fields) == 3 and fields[2] not in phrases:
            problem = f"the attribute's key phrase is not in the file: {shown(line)}"
            _refuse(_fail(ann, number, problem, edition), collected)


Problems = list[ValueError] | None  # where a check collects what the reader refuses


def _refuse(problem: ValueError, collected: Problems) -> None:
    """Raise what the official reader fails on, or, for a check, note it and read on."""
    if collected is None:
        raise problem
    collected.append(problem)


def _links(ann: Path, out: _Annotations, collected: Problems) -> list[tuple[int, str, str, str]]:
    """Every relation line as ``(line, label, source id, target id)``: the legacy events' first
    (an event id stands for its trigger), then the ``R`` and ``*`` ones in file order."""
    phrases = out.phrases
    for number, event_id, ref, _ in out.events:
        if ref not in phrases:
            problem = f"the event's trigger {shown(ref)} is not a key phrase"
            _refuse(_fail(ann, number, problem, out.layout.edition), collected)
            continue
        phrases[event_id] = phrases[ref]
    events = [
        (number, "".join(c for c in role if not c.isdigit()).lower(), ref, target)
        for number, _, ref, roles in out.events
        for role, target in roles
    ]
    return [*events, *out.links]


def _relation(
    ann: Path, link: tuple[int, str, str, str], out: _Annotations, collected: Problems
) -> tuple[int, Relation] | None:
    """The sentence and relation of a relation line, or None where the 2021 reader drops it."""
    number, label, source, target = link
    edition, phrases = out.layout.edition, out.phrases
    for end in (source, target):
        if end not in phrases:
            problem = f"{shown(end)} is not the id of a key phrase of the file"
            if not out.layout.forgiving:
                _refuse(_fail(ann, number, problem, edition), collected)
            else:
                _dropped(ann, number, f"the relation {shown(label)}: {problem}")
            return None
    (k, a), (k2, b) = phrases[source], phrases[target]
    if k != k2:
        problem = (
            f"the relation {shown(label)} from {source} (sentence {k + 1}) to {target} "
            f"(sentence {k2 + 1}) crosses sentence boundaries"
        )
        if not out.layout.forgiving:
            problem += " (2020's warning about it cannot be formatted)"
            _refuse(_fail(ann, number, problem), collected)
        else:
            _dropped(ann, number, problem)
        return None
    return k, Relation(label, a.id, b.id)


def read_scenario_file(
    path: str | PathLike, edition: int = 2020, collected: Problems = None
) -> tuple[list[Sentence], dict[int, ValueError]]:
    """Every sentence of a BRAT sentence file (2020: ``scenario.txt``, 2021: ``output.txt``)
    with the annotations of the ``.ann`` beside it, read as the edition's reader reads them,
    and the sentences whose key phrases cannot be scored (a negative offset, start > end, a
    single span past the sentence), each with its first such problem.

    What the official reader fails on raises a ``ValueError``, or, given a list ``collected``
    (a check), is added to it and the line skipped, so that every such line is found."""
    txt = Path(path)
    ann = txt.with_suffix(".ann")
    texts = read_brat_sentences(txt)
    sentences = _Sentences(txt, texts)
    lines = _read_text(ann).split("\n")
    if lines[-1] == "":
        lines.pop()
    out = _Annotations(layout=LAYOUTS[edition])
    for number, line in enumerate(lines, 1):
        try:
            _parse_line(ann, number, line + "\n", sentences, out)
        except ValueError as problem:
            _refuse(problem, collected)
    kps: list[list[Keyphrase]] = [[] for _ in texts]
    for k, phrase in out.entities:
        kps[k].append(phrase)
    links = _links(ann, out, collected)
    _attribute_refs(ann, lines, out.phrases, edition, collected)
    rels: list[list[Relation]] = [[] for _ in texts]
    for link in links:
        found = _relation(ann, link, out, collected)
        if found is not None:
            rels[found[0]].append(found[1])
    return [Sentence(t, tuple(kps[k]), tuple(rels[k])) for k, t in enumerate(texts)], out.problems


def read_scenario_brat(
    references: str | PathLike, predictions: str | PathLike, edition: int = 2020
) -> tuple[list[Sentence], list[Sentence], list[str]]:
    """The scored sentence pairs of one BRAT scenario folder on each side: (submitted, gold)
    ``Sentence`` lists, aligned as the official 2020 and 2021 tools align them
    (``aligned_pairs``; a gold sentence without a counterpart gets an empty one), gold sentences
    without annotation left out, and where each pair lies (for error messages)."""
    name = LAYOUTS[edition].sentence_file
    gold_file, sub_file = Path(references) / name, Path(predictions) / name
    (gold_all, gold_problems), (sub_all, sub_problems) = (
        read_scenario_file(f, edition) for f in (gold_file, sub_file)
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


def _named_scenario(folder: Path, layout: Layout) -> str | None:
    head = folder.name.split("-", 1)[0]
    return head if head in layout.folders else None


def _holds(folder: Path, layout: Layout) -> bool:
    return (folder / layout.sentence_file).is_file()


def scenario_folders(folder: Path, layout: Layout) -> dict[str | None, Path] | None:
    """The scenario folders of a BRAT gold or run folder, keyed by scenario: the folder itself
    when it holds the sentence file (keyed None if its name does not tell the scenario), else
    its sub-folders named ``scenarioN-...``; None if neither."""
    if _holds(folder, layout):
        return {_named_scenario(folder, layout): folder}
    found = {
        scenario: child
        for child in sorted(p for p in folder.iterdir() if p.is_dir())
        if (scenario := _named_scenario(child, layout)) is not None
    }
    return found or None


_FIRST_THREE = ("scenario1", "scenario2", "scenario3")


def _layout_names(layout: Layout) -> str:
    return ", ".join(layout.folders.values())


def gold_2020(references: Path) -> tuple[dict[str, Path], str | None]:
    """The gold folder of each scenario, and the official ``--mode`` the gold layout stands for.

    ``testing`` (``test``): its ``scenarioN-...`` folders. ``development`` (``dev``): ``main``
    for scenarios 1 to 3 and ``transfer`` for 4. A folder holding ``scenario.txt``: the scenario
    its name says (``scenario2-taskA``), 4 for ``transfer``, else scenarios 1 to 3 (``training``
    (``train``), ``main``), as the official modes use them.
    """
    layout = LAYOUTS[2020]
    if _holds(references, layout):
        named = _named_scenario(references, layout)
        if named is not None:
            return {named: references}, None
        if references.name == "transfer":
            return {"scenario4": references}, "dev"
        mode = "train" if references.name == "training" else "dev"
        return dict.fromkeys(_FIRST_THREE, references), mode
    found = scenario_folders(references, layout)
    if found:
        return {k: v for k, v in found.items() if k is not None}, "test"
    main, transfer = references / "main", references / "transfer"
    if _holds(main, layout) or _holds(transfer, layout):
        golds = dict.fromkeys(_FIRST_THREE, main) if _holds(main, layout) else {}
        return {**golds, **({"scenario4": transfer} if _holds(transfer, layout) else {})}, "dev"
    raise ValueError(
        f"{references}: expected a 2020 gold: a folder of scenario folders "
        f"({_layout_names(layout)}), a development folder (main, transfer) "
        f"or one folder holding {layout.sentence_file} and its .ann"
    )


def gold_2021(references: Path) -> tuple[dict[str | None, Path], str | None]:
    """The gold folder of each scenario (keyed None for one folder whose name does not tell its
    scenario), and the split it is (``training``, ``develop``, ``testing``: its folder's name)."""
    layout = LAYOUTS[2021]
    found = scenario_folders(references, layout)
    if not found:
        raise ValueError(
            f"{references}: expected a 2021 gold: a folder of scenario folders "
            f"({_layout_names(layout)}) or one of them, each holding {layout.sentence_file} "
            f"and its .ann"
        )
    split = references.name if references.name in layout.splits else None
    return found, split


def gold_of(references: Path, edition: int) -> tuple[dict[str | None, Path], str | None]:
    """The edition's gold folders by scenario, and the split (2020: ``--mode``) they stand for."""
    return gold_2020(references) if edition == 2020 else gold_2021(references)


def is_brat_gold(references: Path, edition: int) -> bool:
    """Whether a folder is a gold of the edition's layout (``gold_of`` finds a sentence file)."""
    try:
        golds, _ = gold_of(references, edition)
    except ValueError:
        return False
    return any(_holds(folder, LAYOUTS[edition]) for folder in golds.values())


def _other_split(name: str, split: str | None, layout: Layout) -> bool:
    """Whether a run's path says it is a run of another split (``TEAM/dev/run1`` for test)."""
    return split is not None and any(
        p in layout.splits and p != split for p in name.split("/")[:-1]
    )


def brat_submissions(
    folder: Path, edition: int, split: str | None = None
) -> list[tuple[str, Path]] | None:
    """The runs of a folder of several (``TEAM/test/run1``, up to three levels deep), named by
    their path in it; None when the folder is itself one run. Runs under a folder named for
    another split than the gold's (``dev`` beside ``test``) are left out, as ``--mode`` (2020)
    and the gold given (2021) do."""
    layout = LAYOUTS[edition]
    if scenario_folders(folder, layout) is not None:
        return None
    runs = find_runs(folder, lambda child: scenario_folders(child, layout) is not None, 3)
    kept = [(name, path) for name, path in runs if not _other_split(name, split, layout)]
    if not kept:
        raise ValueError(
            f"{folder}: no {edition} submission found{f' for the {split} gold' if runs else ''}: "
            f"expected scenario folders ({_layout_names(layout)}) holding "
            f"{layout.sentence_file} and its .ann, or a folder of such runs"
        )
    return kept


def scenario_pairs_brat(
    references: Path, predictions: Path, scenario: str | None, edition: int
) -> list[tuple[str, Path, Path]]:
    """``(scenario, gold folder, submission folder)`` for each scenario the run has and the gold
    scores (see ``gold_of``). 2020, as the official ``evaltest``: a scenario whose sentence file
    the run lacks is not scored, nor one the gold's mode has no gold for (``train``: 4). 2021, as
    the official ``score.py``: every scenario of the gold (or ``scenario``) must be in the run."""
    layout = LAYOUTS[edition]
    golds, _ = gold_of(references, edition)
    subm = scenario_folders(predictions, layout)
    if subm is None:
        raise ValueError(
            f"{predictions}: expected an {edition} run (scenario folders) or one of them"
        )
    if edition == 2021:
        return _pairs_2021(golds, subm, references, predictions, scenario)
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
        if not _holds(folder, layout):
            warnings.warn(
                f"{folder}: no {layout.sentence_file}; {chosen} not scored, as officially",
                stacklevel=_caller_level(),
            )
            continue
        pairs.append((chosen, gold_folder, folder))
    return pairs


def _pairs_2021(
    golds: dict[str | None, Path],
    subm: dict[str | None, Path],
    references: Path,
    predictions: Path,
    scenario: str | None,
) -> list[tuple[str, Path, Path]]:
    layout = LAYOUTS[2021]
    singles = {
        side: next(iter(found))
        for side, found, top in (("gold", golds, references), ("run", subm, predictions))
        if list(found.values()) == [top]
    }
    if singles:
        # One scenario folder on a side: ``scenario``, or the name of that folder, tells which.
        named = {k for k in singles.values() if k is not None}
        if scenario is None and len(named) > 1:
            raise ValueError(
                f"{predictions}: the gold folder holds {singles['gold']}, the run folder "
                f"{singles['run']}: give folders of the same scenario"
            )
        chosen = scenario or (named.pop() if named else None)
        if chosen is None:
            raise ValueError(
                f"{predictions}: neither the folders' names nor --scenario tell which scenario "
                f"it holds: name it (--scenario N on the command line)"
            )
        gold = golds.get(chosen, golds.get(None))
        sub = subm.get(chosen, subm.get(None))
        if gold is None or sub is None:
            side = "gold" if gold is None else "run"
            raise ValueError(f"{predictions}: the {side} has no {chosen} folder")
        return [(chosen, gold, sub)]
    wanted = [scenario] if scenario is not None else [k for k in layout.folders if k in golds]
    pairs = []
    for chosen in wanted:
        gold, sub = golds.get(chosen), subm.get(chosen)
        missing = [
            f"{side} {folder / layout.sentence_file if folder else layout.folders[chosen]}"
            for side, folder in (("gold", gold), ("run", sub))
            if folder is None or not _holds(folder, layout)
        ]
        if missing:
            raise ValueError(
                f"{predictions}: no {' and no '.join(missing)} for {chosen}; the official 2021 "
                f"script stops here: score the scenarios the run has with --scenario N"
            )
        pairs.append((chosen, gold, sub))
    return pairs
