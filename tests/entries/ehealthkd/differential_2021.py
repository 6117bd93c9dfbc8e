"""ehealthkd, edition 2021: taskeval against the official eHealth-KD 2021 scorer on random BRAT
file sets.

The sentences and annotations are drawn by the 2020 check (``differential_2020``: its edges of
alignment, overlap, ids, line breaks and unparsable lines), written as ``output.txt`` and
``output.ann`` in the 2021 scenario folders (``scenario1-main`` to ``scenario3-taskB``), with
the edges of the 2021 reader added to the ``.ann``: ``T`` lines without their text field, with
tabs inside it, or followed by tabs and other blanks ``str.strip`` takes; relations (``R``,
``*``, legacy ``E`` arguments) to ids no key phrase has and across sentences (ignored: numbers
are expected); key phrases whose first offset lies past the last sentence (skipped), some with
relations to them; a repeated ``T`` id; ``CRLF`` or lone ``CR`` between lines; now and then a
line the reader raises on (an ``A`` line or ``E`` trigger with an unknown id, a tab between
label and spans, a byte-order mark): taskeval must refuse those. A case is one gold and one
run, or several runs laid out as ``run1/``, ``run2/`` (the official ``--runs`` layout) or
under team folders.

Every run's scenario is scored by the official ``score.main_scenario`` (precision, recall, F1;
the counts are the sizes of the data dicts its ``subtaskA`` and ``subtaskB`` return: none for
subtask B in scenario 2, which skips it, so 0) and by ``compute(edition=2021)`` on
``read_official`` inputs; the whole tree by ``score_files(edition=2021)``; every
``--cli-every``-th case also through ``taskeval score ehealthkd --edition 2021``. Where the
official code raises, each path must raise ValueError.

    python scripts/differential/run.py ehealthkd:2021 --official DIR --cases 5000 --cli-every 50
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import random
import sys
import tempfile
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

from common import Outcome, run

import taskeval


def _sibling(name: str) -> ModuleType:
    path = Path(__file__).resolve().with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"ehealthkd_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


base = _sibling("differential_2020")
Sent = base.Sent

FOLDERS = {1: "scenario1-main", 2: "scenario2-taskA", 3: "scenario3-taskB"}
STEM = "output"
COUNTS = ("correct_A", "incorrect_A", "partial_A", "missing_A", "spurious_A")
COUNTS += ("correct_B", "missing_B", "spurious_B")
stats = {
    "scenario_runs": 0,
    "official_raised": 0,
    "compute_refused": 0,
    "score_files_refused": 0,
    "cli_refused": 0,
}
_official: dict[str, Any] = {}


# --------------------------------------------------------------------------------------------
# The official code, with the data dicts of each scenario kept for their counts


def official_code(official: Path) -> ModuleType:
    if not _official:
        scripts = official / "ehealthkd-corpora" / "scripts"
        sys.path.insert(0, str(scripts))  # score.py imports anntools by its bare name
        spec = importlib.util.spec_from_file_location("ehealthkd_2021_score", scripts / "score.py")
        score = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(score)  # the official code, never copied
        real_a, real_b = score.subtaskA, score.subtaskB

        def spy_a(gold, submit, verbose=False):
            data = real_a(gold, submit, verbose)
            _official["seen"] = {"A": data}
            return data

        def spy_b(gold, submit, data, verbose=False):
            found = real_b(gold, submit, data, verbose)
            _official["seen"]["B"] = found
            return found

        score.subtaskA, score.subtaskB = spy_a, spy_b
        _official["score"] = score
    return _official["score"]


def official_scenario(official: Path, gold: Path, run_dir: Path, n: int) -> dict | Exception:
    """The official numbers of one run's scenario ``n``, or what the official code raised."""
    score = official_code(official)
    folder, skip_a, skip_b = score.SCENARIOS[n]
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            metrics = score.main_scenario(
                gold / folder / f"{STEM}.txt",
                run_dir / folder / f"{STEM}.txt",
                skip_a,
                skip_b,
                False,
            )
    except Exception as e:  # the official code crashes: no official number
        return e
    # The data dicts main_scenario gathers: scenario 2 skips subtask B, so none of its keys.
    data = {**_official["seen"]["A"], **_official["seen"].get("B", {})}
    return {key: len(data.get(key, ())) for key in COUNTS} | metrics


# --------------------------------------------------------------------------------------------
# The 2021 reader's edges, added to the .ann lines the 2020 check writes


def retabbed(rng: random.Random, line: str) -> str:
    """A ``T`` line with its text field dropped, split by tabs, or followed by blanks."""
    head, _, text = line.rpartition("\t")
    kind = rng.randint(0, 5)
    if kind == 5 and rng.random() < 0.03:
        return line.replace(" ", "\t", 1)  # label and spans apart: the reader raises
    if kind == 0:
        return head
    if kind == 1:
        return head + "\t" + text.replace(" ", "\t")
    if kind == 2:
        return head + "\t" + text + "\t" + rng.choice(["x", "", "a b"])
    if kind == 3:
        return head + rng.choice(["\t", "\t\t", " \t", "\t "])
    return line + rng.choice(["\t", " ", "\t\t", " \t ", "\xa0", "\x0c", "\u2028\t"])


def edit_ann(rng: random.Random, sents: list[Sent], ann: list[str]) -> list[str]:
    out = [retabbed(rng, line) if line[:1] == "T" and rng.random() < 0.15 else line for line in ann]
    placed = [(k, p.raw) for k, s in enumerate(sents) for p in s.phrases]
    ids = [raw for _, raw in placed]
    total = sum(len(s.text.strip()) for s in sents) + len(sents) - 1
    if rng.random() < 0.12:  # a key phrase past the last sentence: skipped
        start = max(total, 0) + rng.choice([0, 0, 1, 7])
        raw = f"T{rng.choice([900, 901, 5])}"
        out.append(f"{raw}\t{rng.choice(base.KP_LABELS)} {start} {start + rng.randint(1, 4)}\tx")
        if ids and rng.random() < 0.5:
            out.append(f"R77\tis-a Arg1:{rng.choice(ids)} Arg2:{raw}")
    if ids and rng.random() < 0.12:  # a relation to an id no key phrase has: ignored
        known, unknown = rng.choice(ids), rng.choice(["T999", "T0", "X3", "E9", "T" + ids[0]])
        ends = [known, unknown] if rng.random() < 0.5 else [unknown, known]
        out.append(
            rng.choice(
                [
                    f"R88\t{rng.choice(base.REL_LABELS)} Arg1:{ends[0]} Arg2:{ends[1]}",
                    f"*\tsame-as {' '.join(ends)}",
                    f"E88\tAction:{known} Target:{unknown}",
                ]
            )
        )
    sentences = {k for k, _ in placed}
    if len(sentences) > 1 and rng.random() < 0.12:  # a relation across sentences: ignored
        a, b = rng.sample(sorted(sentences), 2)
        ends = [rng.choice([raw for k, raw in placed if k == side]) for side in (a, b)]
        out.append(
            rng.choice(
                [
                    f"R89\t{rng.choice(base.REL_LABELS)} Arg1:{ends[0]} Arg2:{ends[1]}",
                    f"*\tsame-as {' '.join(ends)}",
                    f"E89\tAction:{ends[0]} Subject:{ends[1]}",
                ]
            )
        )
    if ids and rng.random() < 0.03:  # a repeated T id: relations go to its last line
        repeated = rng.choice(ids) + "\t"
        out.append(next(line for line in ann if line.startswith(repeated)))
    if rng.random() < 0.003:  # an unknown attribute or trigger reference: the reader raises
        out.append(rng.choice(["A90\tNegated T999", "E90\tAction:T999 Target:T1"]))
    if rng.random() < 0.1:
        rng.shuffle(out)
    if out and rng.random() < 0.003:
        out[0] = "\ufeff" + out[0]  # a byte-order mark: the utf8 reader keeps it, and raises
    end = rng.choice(["\n"] * 6 + ["\r\n", "\r"])
    return [end.join(out)] if out and end != "\n" else out


# --------------------------------------------------------------------------------------------
# A case: one gold, and one run or several


def layout(rng: random.Random) -> list[str]:
    """Where the runs lie under the run folder: itself, ``runN/`` or ``TEAM/runN/``."""
    kind = rng.randint(0, 3)
    if kind <= 1:
        return [""]
    if kind == 2:
        return [f"run{k}" for k in rng.sample([1, 2, 3], rng.randint(1, 3))]
    return [f"{team}/run{k}" for team in ("uh", "team-b") for k in (1, 2) if rng.random() < 0.6]


def write_case(rng: random.Random, gold_top: Path, run_top: Path) -> list[str]:
    runs = layout(rng) or ["uh/run1"]
    for folder in FOLDERS.values():
        gold = base.draw_gold(rng)
        base.write_side(rng, gold, gold_top / folder, STEM, edit_ann)
        for name in runs:
            base.write_side(rng, base.draw_run(rng, gold), run_top / name / folder, STEM, edit_ann)
    return runs


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    outcome = Outcome()
    with tempfile.TemporaryDirectory(prefix="ehk2021-diff-") as tmp:
        gold_top, run_top = Path(tmp) / rng.choice(["gold", "testing"]), Path(tmp) / "runs"
        runs = write_case(rng, gold_top, run_top)
        expected: dict[str, Any] = {}
        for name in runs:
            scored = {}
            for n, folder in FOLDERS.items():
                want = official_scenario(official, gold_top, run_top / name, n)
                stats["scenario_runs"] += 1
                stats["official_raised"] += isinstance(want, Exception)
                refused = base.compute_one(
                    n, gold_top / folder, run_top / name / folder, want, 2021, outcome
                )
                stats["compute_refused"] += refused
                scored[f"scenario{n}"] = want
            expected[name] = scored
        if runs == [""]:
            expected = expected[""]
        crashed = any(isinstance(v, Exception) for _, v in base.leaves(expected))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                files = taskeval.score_files(
                    "ehealthkd", references=gold_top, predictions=run_top, edition=2021
                )
        except ValueError as e:
            if crashed:
                stats["score_files_refused"] += 1
            else:
                outcome.refusals.append(f"score_files refused: {e}")
        else:
            if crashed:
                outcome.differences.append("score_files: the official code raised, taskeval not")
            else:
                base.compare_tree(expected, files, "score_files", outcome)
                if set(files) != set(expected):
                    outcome.differences.append(
                        f"score_files: keys {sorted(files)}, official {sorted(expected)}"
                    )
        if with_cli:
            found = len(outcome.refusals) + len(outcome.differences)
            base.cli(gold_top, run_top, expected, outcome, 2021)
            found -= len(outcome.refusals) + len(outcome.differences)
            stats["cli_refused"] += crashed and not found
    return outcome


def main(argv: list[str]) -> int:
    status = run("ehealthkd (edition 2021)", check, argv)
    print(json.dumps(stats), file=sys.stderr)
    return status
