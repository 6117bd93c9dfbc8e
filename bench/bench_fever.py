"""FEVER: the official scorer vs our scoring core vs ``compute()`` vs the CLI, in one run.

    python bench/bench_fever.py [--n 200000] [--repeat 5]

The official scorer (package fever-scorer) runs side by side with taskeval: whole process on the
Space's example and on the synthetic files, and in memory.

Data: the synthetic profile of the FEVER spec (one third per gold label; verifiable claims with
1-3 groups of 1-2 sentences; 5 predicted sentences, gold sentences planted at random positions
in half of the verifiable claims, lists up to 7 long; labels right 60% of the time plus chance).
Writes bench/fever.md.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (
    SMALL_RUNS,
    add_official_option,
    alternate,
    alternate_calls,
    installed,
    load_note,
    machine,
    row,
    table,
    write_summary,
)

LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]


def synthetic(n: int, seed: int = 0) -> tuple[list[dict], list[dict]]:
    rng = random.Random(seed)
    page = lambda: f"Page_{rng.randint(0, 50000)}"  # noqa: E731
    predictions, references = [], []
    for i in range(n):
        gold = LABELS[i % 3]
        if gold == "NOT ENOUGH INFO":
            evidence = [[[rng.randint(1, 10**6), None, None, None]]]
        else:
            evidence = [
                [[i, g, page(), rng.randint(0, 30)] for _ in range(rng.randint(1, 2))]
                for g in range(rng.randint(1, 3))
            ]
        predicted = [[page(), rng.randint(0, 30)] for _ in range(5)]
        if gold != "NOT ENOUGH INFO" and rng.random() < 0.5:
            for item in rng.choice(evidence):
                predicted.insert(rng.randint(0, len(predicted)), item[2:])
        label = gold if rng.random() < 0.6 else rng.choice(LABELS)
        predictions.append({"id": i, "predicted_label": label, "predicted_evidence": predicted})
        references.append({"id": i, "label": gold, "evidence": evidence})
    return predictions, references


# The official way to score files: load both JSONL files, call fever_score (as its README shows).
OFFICIAL_FILES = (
    "import json, sys\n"
    "from fever.scorer import fever_score\n"
    "predictions = [json.loads(line) for line in open(sys.argv[1])]\n"
    "actual = [json.loads(line) for line in open(sys.argv[2])]\n"
    "print(json.dumps(fever_score(predictions, actual)))"
)
EXAMPLE = Path(__file__).resolve().parents[1] / "spaces" / "fever_score" / "examples"


def files_side_by_side(preds: Path, gold: Path, repeat: int) -> dict:
    """The official load + score process and ``taskeval score fever_score``, runs in turn."""
    python, taskeval = installed()
    official = [python, "-c", OFFICIAL_FILES, str(preds), str(gold)]
    ours = [taskeval, "score", "fever_score"]
    ours += ["--predictions", str(preds), "--references", str(gold)]
    expected = json.loads(subprocess.run(official, check=True, capture_output=True).stdout)
    got = json.loads(subprocess.run(ours, check=True, capture_output=True).stdout)
    assert tuple(got.values()) == tuple(expected), (got, expected)
    return alternate({"official": official, "taskeval": ours}, repeat)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    add_official_option(parser)  # fever-scorer is a package: always run, whatever the folder
    args = parser.parse_args()
    load_start = os.getloadavg()[0]

    from fever.scorer import fever_score as official

    import taskeval
    from taskeval._metrics.fever_score.scoring import fever_score as core

    predictions, references = synthetic(args.n)
    merged = [{**p, **r} for p, r in zip(predictions, references)]
    metric = taskeval.load("fever_score")
    expected = official(copy.copy(merged))
    ours = core(predictions, references)
    via_compute = metric.compute(predictions=predictions, references=references)
    assert tuple(ours.values()) == tuple(expected) == tuple(via_compute.values())
    times = alternate_calls(
        {
            "official": lambda: official(copy.copy(merged)),
            "core": lambda: core(predictions, references),
            "compute": lambda: metric.compute(predictions=predictions, references=references),
        },
        args.repeat,
    )
    med = {k: statistics.median(v) for k, v in times.items()}
    # a run of a small file takes some 20 ms: more runs, so that its median holds still
    small = files_side_by_side(
        EXAMPLE / "predictions.jsonl", EXAMPLE / "actual.jsonl", max(args.repeat, SMALL_RUNS)
    )
    with tempfile.TemporaryDirectory() as tmp:
        pred_path, gold_path = Path(tmp) / "predictions.jsonl", Path(tmp) / "gold.jsonl"
        pred_path.write_text("".join(json.dumps(p) + "\n" for p in predictions), encoding="utf-8")
        gold_path.write_text("".join(json.dumps(r) + "\n" for r in references), encoding="utf-8")
        big = files_side_by_side(pred_path, gold_path, max(1, args.repeat // 2 + 1))
    size = f"{args.n:,} claims (synthetic)"
    rows = [
        row("100 claims (Space example)", "whole process: read + score",
            small["official"].median, small["taskeval"].median, 1.0),
        row(size, "whole process: read + score",
            big["official"].median, big["taskeval"].median, 0.5,
            note=f"peak {big['taskeval'].peak_mb:.0f} MB, official {big['official'].peak_mb:.0f} MB"),
        row(size, "in memory: compute() vs fever_score", med["official"], med["compute"], 1.0,
            note=f"scoring core {med['core']:.3g} s"),
    ]  # fmt: skip
    write_summary("fever", rows)
    runs = []
    for label, got in (("100 claims", small), (size, big)):
        for name, run in got.items():
            walls = ", ".join(f"{w:.2f}" for w in run.walls)
            runs.append([label, name, walls, f"{run.median:.3f}", f"{run.peak_mb:.0f}"])
    calls = [[k, ", ".join(f"{w:.3f}" for w in v), f"{med[k]:.3f}"] for k, v in times.items()]
    report = f"""# FEVER benchmark

Machine: {machine()}; {load_note(load_start)}.
Command: `python bench/bench_fever.py --n {args.n} --repeat {args.repeat}`.
Data: the Space's example (100 claims) and {args.n:,} synthetic claims (FEVER spec profile).
Official whole process: a Python process that loads both JSONL files with `json` and calls
`fever.scorer.fever_score(predictions, actual)` (fever-scorer 2.0.39); taskeval's: `taskeval
score fever_score --predictions P --references R`. In memory: `fever_score` on the merged rows
against `taskeval.load("fever_score").compute()` and the scoring core. All give identical
numbers: {tuple(expected)}.

Whole process, runs taken in turn (wall s):

{table(["size", "scorer", "runs", "median", "peak MB"], runs)}

In memory at {args.n:,} claims, calls taken in turn (wall s):

{table(["what", "runs", "median"], calls)}

Summary (taskeval / official, target at most):

{table(["size", "what", "official", "taskeval", "ratio", "target", "verdict"], [list(r.values()) for r in rows])}
"""
    out = Path(__file__).with_name("fever.md")
    out.write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
