"""fever_score's FEVER 2.0 scores against the official FEVER 2.0 scorer on random tables.

The official code is ``src/fever2/scorer.py`` (and the ``src/fever/scorer.py`` it imports) of
fever-scorer's ``release-v2.0`` branch, read from ``--official DIR`` (or ``$TASKEVAL_OFFICIAL``):
``DIR/fever-scorer`` is a checkout of that branch. Each case writes a builder–breaker table (a
gold file and a folder of system files per breaker, correct rates), biased toward the edges:
breakers without systems, one system or many, tied systems, FEVER scores 0 and 1, correct
rates 0 and 1 and arbitrary floats, sums whose last bit depends on the order, prediction lines
with ``predicted_sentences`` instead of ``predicted_evidence`` or carrying their own gold.

Official side: its ``potency`` per breaker, and its command line's resilience (``sum`` of FEVER
score times correct rate over ``sum`` of the rates), called as functions, then its command line
itself (``python -m fever2.scorer``, its printed numbers parsed back: ``str`` of a float reads
back to the same float). Its command line reads each folder in ``os.listdir`` order, which
taskeval fixes as sorted order: the official command line runs with ``os.listdir`` sorted.
taskeval side: ``fever2_files.score_breaker_files`` in this process and ``taskeval fever2`` in a
fresh one (every ``--cli-every``-th case), every value compared with ``==`` and its type.

Cases the official scorer cannot score alike are checked for taskeval's refusal: correct rates
summing to 0 (the official command line divides by zero) and a system missing from a breaker
folder (the official command line files its scores under the wrong breakers): both refusals are
the metric card's documented differences.

    python scripts/differential/fever2.py --official DIR --cases 2000 --cli-every 1
"""

from __future__ import annotations

import ast
import copy
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from common import Outcome, run, write_jsonl

common.DOCUMENTED_REFUSALS += (
    "must be in every breaker folder",  # a system missing from a folder (misaligned officially)
    "the correct rates sum to 0",  # the official command line's ZeroDivisionError
)

LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
PAGES = ["A", "B", "Page_one", "Beyoncé", "日本"]
NAMES = ["zeta", "alpha", "Mike", "b-2", "b-10", "sys.jsonl", "_x", "Ω", "team 7", "a"]
RATES = [0.0, 1.0, 0.5, 1 / 3, 0.85, 0.9, 0.2, 0.1, 0.7, 2 / 3, 1e-9]


def _official_modules(official: Path) -> tuple:
    src = official / "fever-scorer" / "src"
    if not (src / "fever2" / "scorer.py").is_file():
        sys.exit(f"differential: no {src}/fever2/scorer.py (fever-scorer's release-v2.0 branch)")
    if str(src) not in sys.path:
        sys.path.insert(0, str(src))
    from fever.scorer import fever_score
    from fever2.scorer import potency

    if not Path(sys.modules["fever.scorer"].__file__).is_relative_to(src):
        sys.exit("differential: fever.scorer is not the release-v2.0 one (another is installed)")
    return potency, fever_score


def _sentence(rng: random.Random) -> list:
    return [rng.choice(PAGES), rng.randint(0, 3)]


def _gold(rng: random.Random, n: int) -> list[dict]:
    rows = []
    for i in range(n):
        label = rng.choice(LABELS)
        if label == "NOT ENOUGH INFO":
            evidence = [[[rng.randint(1, 99), None, None, None]]]
        else:
            evidence = [
                [[rng.randint(1, 99), rng.randint(1, 99), *_sentence(rng)] for _ in range(k)]
                for k in rng.choices([0, 1, 2, 3], [1, 6, 3, 1], k=rng.choice([0, 1, 1, 2, 3]))
            ]
        rows.append({"id": i, "label": label, "claim": "c", "evidence": evidence})
    return rows


def _prediction(rng: random.Random, gold: dict, skill: float) -> dict:
    """A prediction of one claim: right with probability ``skill`` (1: every claim strictly
    right; 0: every label wrong)."""
    groups = [g for g in gold["evidence"] if gold["label"] != "NOT ENOUGH INFO"]
    if skill in (0.0, 1.0):
        right = skill == 1.0
    else:
        right = rng.random() < skill
    if right:
        label = rng.choice([gold["label"], gold["label"].lower()])
    else:
        label = rng.choice([x for x in LABELS if x != gold["label"]])
    evidence = [_sentence(rng) for _ in range(rng.choice([0, 1, 2, 4, 6]))]
    if groups and (skill == 1.0 or rng.random() < skill):
        group = rng.choice(groups)
        evidence[:0] = [item[2:] for item in group]  # first, within the 5 kept
    if rng.random() < 0.3:
        evidence = evidence[:5] if skill == 1.0 else evidence + [_sentence(rng)] * 3
    key = "predicted_sentences" if rng.random() < 0.1 else "predicted_evidence"
    row = {"id": gold["id"], "predicted_label": label, key: evidence}
    if rng.random() < 0.05:  # a line carrying its own gold
        row.update(label=gold["label"], evidence=gold["evidence"])
    return row


def _table(rng: random.Random) -> tuple[list, list, list[float], list[str]]:
    """(gold per breaker, {system: lines} per breaker, rates, system names)."""
    breakers = rng.choices([1, 2, 3, 4, 6], [3, 4, 3, 2, 1])[0]
    roll = rng.random()
    count = 0 if roll < 0.12 else rng.randint(12, 30) if roll < 0.22 else rng.randint(1, 5)
    names = rng.sample(NAMES, min(count, len(NAMES))) + [f"s{i:02d}" for i in range(count - 10)]
    golds, systems = [], []
    for _ in range(breakers):
        gold = _gold(rng, rng.choice([1, 2, 3, 5, 7, 9, 12]))
        lines: dict[str, list] = {}
        for name in names:
            twin = rng.choice(list(lines)) if lines and rng.random() < 0.15 else None
            if twin is not None:  # a tie
                lines[name] = copy.deepcopy(lines[twin])
                continue
            skill = rng.choice([0.0, 1.0, 0.5, rng.random()])
            lines[name] = [_prediction(rng, row, skill) for row in gold]
        golds.append(gold)
        systems.append(lines)
    rates = [rng.choice([*RATES, rng.random()]) for _ in range(breakers)]
    if rng.random() < 0.1:
        rates = [rng.choice([0.0, 1.0]) for _ in range(breakers)]
    return golds, systems, rates, names


def _write(rng: random.Random, root: Path, golds: list, systems: list) -> tuple[str, str]:
    actual, folders = [], []
    for b, (gold, lines) in enumerate(zip(golds, systems)):
        write_jsonl(rng, root / f"gold{b}.jsonl", gold)
        (root / f"breaker{b}").mkdir()
        for name, rows in lines.items():
            write_jsonl(rng, root / f"breaker{b}" / name, rows)
        actual.append(f"gold{b}.jsonl")
        folders.append(f"breaker{b}")
    return ",".join(actual), ",".join(folders)


def _with_sentences(row: dict) -> dict:
    if "predicted_evidence" not in row and "predicted_sentences" in row:
        return {**row, "predicted_evidence": row["predicted_sentences"]}
    return row


def _official_functions(modules: tuple, golds, systems, rates, folders: list[str]) -> dict:
    """The official numbers from its functions, in the command line's arithmetic (files read
    in sorted order)."""
    potency, fever_score = modules
    out: dict = {"breakers": {}, "systems": {}}
    for gold, lines, rate, folder in zip(golds, systems, rates, folders):
        runs = [[_with_sentences(r) for r in copy.deepcopy(lines[s])] for s in sorted(lines)]
        p = potency(copy.deepcopy(gold), *runs)
        out["breakers"][folder] = {"potency": p, "adjusted_potency": p * rate}
    for name in sorted(systems[0]):
        weighted, scores = [], {}
        for gold, lines, rate, folder in zip(golds, systems, rates, folders):
            rows = [_with_sentences(r) for r in copy.deepcopy(lines[name])]
            score = fever_score(rows, copy.deepcopy(gold))[0]
            scores[folder] = score
            weighted.append(score * rate)
        out["systems"][name] = {"resilience": sum(weighted) / sum(rates), "fever_scores": scores}
    return out


_SORTED_LISTDIR = (
    "import os, runpy, sys; listdir = os.listdir; "
    "os.listdir = lambda path='.': sorted(listdir(path)); "
    "sys.argv[0] = 'fever2.scorer'; runpy.run_module('fever2.scorer', run_name='__main__')"
)
_BREAKER = re.compile(
    r"^Breaker (.+)\. Potency: (\S+)\. Correct Rate: \S+\. Adjusted Potency: (\S+)$"
)
_SYSTEM = re.compile(r"^System (.+)\. Resilience (\S+)$")
_PAIR = re.compile(r"^Breaker (.+) - System (.+)$")


def _number(text: str) -> float | int:
    return int(text) if re.fullmatch(r"-?\d+", text) else float(text)


def _official_cli(official: Path, root: Path, actual: str, folders: str, rates: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(official / "fever-scorer" / "src")}
    done = subprocess.run(
        [sys.executable, "-c", _SORTED_LISTDIR, "--actual-files", actual, "--breaker-dirs",
         folders, "--correct-scores", rates],
        capture_output=True, text=True, cwd=root, env=env,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    out: dict = {"breakers": {}, "systems": {}}
    lines = done.stdout.splitlines()
    for i, line in enumerate(lines):
        if m := _BREAKER.match(line):
            out["breakers"][m[1]] = {"potency": _number(m[2]), "adjusted_potency": _number(m[3])}
        elif m := _PAIR.match(line):
            fever = dict(ast.literal_eval(lines[i + 1]))["fever"]
            out["systems"].setdefault(m[2], {"fever_scores": {}})["fever_scores"][m[1]] = fever
        elif m := _SYSTEM.match(line):
            out["systems"][m[1]]["resilience"] = _number(m[2])
    return out


def _taskeval_cli(root: Path, actual: str, folders: str, rates: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "taskeval", "fever2", "--actual-files", actual, "--breaker-dirs",
         folders, "--correct-scores", rates],
        capture_output=True, text=True, cwd=root,
    )  # fmt: skip
    if done.returncode != 0:
        raise ValueError(f"taskeval fever2 exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def _compare(expected: dict, got: dict, where: str, outcome: Outcome) -> None:
    """Every official value, ``==`` and of the same type (the int 0 of no system too)."""
    for side in ("breakers", "systems"):
        if set(expected[side]) != set(got[side]):
            outcome.differences.append(
                f"{where}: {side}: official {sorted(expected[side])}, taskeval {sorted(got[side])}"
            )
            continue
        for name, values in expected[side].items():
            for key, value in values.items():
                mine = got[side][name].get(key, "<missing>")
                pairs = value.items() if isinstance(value, dict) else [(None, value)]
                for sub, v in pairs:
                    m = mine.get(sub, "<missing>") if sub is not None else mine
                    outcome.values += 1
                    if m != v or type(m) is not type(v):
                        outcome.differences.append(
                            f"{where}: {name} {key} {sub or ''}: official {v!r}, taskeval {m!r}"
                        )


_modules: tuple | None = None


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    global _modules
    if _modules is None:
        _modules = _official_modules(official)
    from taskeval.registry import metric_module

    files = metric_module("fever_score", "fever2_files")
    outcome = Outcome()
    golds, systems, rates, names = _table(rng)
    misaligned = len(systems) > 1 and bool(names) and rng.random() < 0.04
    if misaligned:
        b = rng.randrange(len(systems))
        del systems[b][rng.choice(names)]
    rate_text = ",".join(map(repr, rates))
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        actual, folders = _write(rng, root, golds, systems)
        breaker_dirs = [str(root / f) for f in folders.split(",")]
        gold_files = [str(root / f) for f in actual.split(",")]
        refusable = misaligned or (bool(names) and sum(rates) == 0)
        try:
            got = files.score_breaker_files(gold_files, breaker_dirs, rates)
        except ValueError as e:
            if refusable:
                outcome.skipped = True
                outcome.refusals.append(f"refused: {e}")
            else:
                outcome.refusals.append(f"refused a table the official scorer scores: {e}")
            return outcome
        if refusable:
            outcome.differences.append("taskeval scored a table it should refuse")
            return outcome
        # the in-process result names breakers by their full path; the official by the argument
        got = {
            "breakers": dict(zip(folders.split(","), got["breakers"].values())),
            "systems": {
                s: {
                    "resilience": v["resilience"],
                    "fever_scores": dict(zip(folders.split(","), v["fever_scores"].values())),
                }
                for s, v in got["systems"].items()
            },
        }
        expected = _official_functions(_modules, golds, systems, rates, folders.split(","))
        _compare(expected, got, "functions", outcome)
        if with_cli:
            printed = _official_cli(official, root, actual, folders, rate_text)
            _compare(printed, got, "official cli", outcome)
            _compare(expected, _taskeval_cli(root, actual, folders, rate_text), "cli", outcome)
    return outcome


if __name__ == "__main__":
    sys.exit(run("fever_score (FEVER 2.0)", check))
