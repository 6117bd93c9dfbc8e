"""SciFact: the official evaluator and taskeval side by side, whole process and in memory.

    python bench/bench_scifact.py [--n 99900] [--repeat 5] [--official DIR]

Data: the real SciFact dev gold (300 claims, CC BY 4.0) with a real prediction set of the parity
corpus, as official files, and the same replicated in order to ``--n`` claims (ids renumbered).
Whole process: ``eval.py --verbose`` (all 12 numbers) against one taskeval process giving the
same 12 numbers (``taskeval score scifact_abstract,scifact_sentence``, or where the CLI does not
take several metrics yet, ``leaderboard_scores`` of the package's reader, which it calls). In
memory: the official ``Evaluator.evaluate`` on the parsed lines against each metric's
``compute()`` on the rows. ``--official`` (or ``$TASKEVAL_OFFICIAL``) names the folder holding
the ``scifact-evaluator`` checkout; without it the recorded figures of the official evaluator on
this machine class are used. Writes bench/scifact.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
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
    official_checkout,
    row,
    table,
    write_summary,
)

CASES = Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "scifact" / "cases"
# eval.py --verbose, whole process, on this machine class (99,900 claims; 300 claims).
RECORDED = {"large": 2.96, "small": 0.12}


def replicate(source: Path, target: Path, n: int) -> None:
    lines = [json.loads(x) for x in source.read_text(encoding="utf-8").splitlines()]
    with open(target, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps({**lines[i % len(lines)], "id": i}) + "\n")


def taskeval_command(gold: Path, preds: Path) -> list[str]:
    """The installed ``taskeval`` command that prints the 12 numbers."""
    return [installed()[1], "score", "scifact_abstract,scifact_sentence",
            "--references", str(gold), "--predictions", str(preds)]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=99_900)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--predictions", default="dev_multivers_covidfact_ckpt")
    add_official_option(parser)
    args = parser.parse_args()
    checkout = official_checkout(args.official, "scifact-evaluator", "evaluator/eval.py")
    load_start = os.getloadavg()[0]
    case = CASES / args.predictions
    rows, lines = [], []
    with tempfile.TemporaryDirectory() as tmp:
        big_gold, big_preds = Path(tmp) / "gold.jsonl", Path(tmp) / "predictions.jsonl"
        replicate(case / "gold.jsonl", big_gold, args.n)
        replicate(case / "predictions.jsonl", big_preds, args.n)
        sizes = {
            "large": (f"{args.n:,} claims (dev replicated)", big_gold, big_preds, 0.5),
            "small": ("300 claims (dev)", case / "gold.jsonl", case / "predictions.jsonl", 1.0),
        }
        for key, (size, gold, preds, target) in sizes.items():
            ours = taskeval_command(gold, preds)
            commands = {"taskeval": ours}
            if checkout:
                out = Path(tmp) / "metrics.json"
                commands["official"] = [
                    installed()[0], str(checkout / "evaluator" / "eval.py"),
                    "--labels_file", str(gold), "--preds_file", str(preds),
                    "--metrics_output_file", str(out), "--verbose",
                ]  # fmt: skip
                # Same numbers first: the official output file against taskeval's.
                subprocess.run(commands["official"], check=True, stdout=subprocess.DEVNULL)
                printed = subprocess.run(commands["taskeval"], check=True, capture_output=True)
                official_numbers = json.loads(out.read_text(encoding="utf-8"))
                assert json.loads(printed.stdout) == official_numbers, size
                commands = {"official": commands["official"], "taskeval": commands["taskeval"]}
            # a small file's run takes some 25 ms: more runs, so that its median holds still
            runs = alternate(
                commands, args.repeat if key == "large" else max(args.repeat, SMALL_RUNS)
            )
            official = runs["official"].median if checkout else RECORDED[key]
            rows.append(
                row(size, "whole process, 12 numbers", official, runs["taskeval"].median, target,
                    source="" if checkout else "recorded figure")
            )  # fmt: skip
            for name, run in runs.items():
                walls = ", ".join(f"{w:.2f}" for w in run.walls)
                lines.append(
                    f"| {size} | {name} | {walls} | {run.median:.3f} | {run.peak_mb:.0f} |"
                )
        if checkout:
            rows.append(in_memory(checkout, big_gold, big_preds, sizes["large"][0], args.repeat))
    write_summary("scifact", rows)
    report = f"""# SciFact benchmark

Machine: {machine()}; {load_note(load_start)}.
Command: `python bench/bench_scifact.py --n {args.n} --repeat {args.repeat}` with
`--official` naming the folder of the `scifact-evaluator` checkout
({"given" if checkout else "not given: recorded official figures"}).
Data: the real SciFact dev gold (300 claims) with the `{args.predictions}` predictions of the
parity corpus, as official files, and both replicated to {args.n:,} claims.
taskeval's process: `taskeval score scifact_abstract,scifact_sentence --references G
--predictions P`, taskeval installed from its wheel. Both print the same 12 numbers (checked on
each size before timing).

Whole process, runs taken in turn (wall s); the official command is
`python evaluator/eval.py --labels_file G --preds_file P --metrics_output_file M --verbose`:

| size | scorer | runs | median | peak MB |
|---|---|---|---|---|
{chr(10).join(lines)}

Summary (taskeval / official, target at most):

{table(["size", "what", "official", "taskeval", "ratio", "target", "verdict"], [list(r.values()) for r in rows])}
"""
    out = Path(__file__).with_name("scifact.md")
    out.write_text(report, encoding="utf-8")
    print(report)


def in_memory(checkout: Path, gold: Path, preds: Path, size: str, repeat: int) -> dict[str, str]:
    """Official ``Evaluator.evaluate`` (12 numbers) against each metric's ``compute()``."""
    import taskeval

    spec = importlib.util.spec_from_file_location(
        "official_scifact_eval", checkout / "evaluator" / "eval.py"
    )
    official = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(official)  # type: ignore[union-attr]
    gold_lines = [json.loads(x) for x in gold.read_text(encoding="utf-8").splitlines()]
    pred_lines = [json.loads(x) for x in preds.read_text(encoding="utf-8").splitlines()]
    inputs = taskeval.read_official("scifact_abstract", references=gold, predictions=preds)
    abstract, sentence = taskeval.load("scifact_abstract"), taskeval.load("scifact_sentence")

    def run_official():
        golds = [official.unify_label(g) for g in gold_lines]
        return official.Evaluator(verbose=True).evaluate(golds, pred_lines)

    expected = run_official()
    assert {**abstract.compute(**inputs), **sentence.compute(**inputs)} == expected
    times = alternate_calls(
        {
            "official": run_official,
            "abstract": lambda: abstract.compute(**inputs),
            "sentence": lambda: sentence.compute(**inputs),
        },
        max(1, repeat // 2),
    )
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    slower = max(med["abstract"], med["sentence"])
    return row(
        size, "in memory: each metric's compute() (6 numbers) vs Evaluator.evaluate (12)",
        med["official"], slower, 1.0,
        note=f"abstract {med['abstract']:.3g} s, sentence {med['sentence']:.3g} s",
    )  # fmt: skip


if __name__ == "__main__":
    main()
