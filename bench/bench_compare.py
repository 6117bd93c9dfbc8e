"""Benchmark ``taskeval.compare``: 1,000 paired resamples of two systems, per metric.

    python bench/bench_compare.py [--repeat 3] [--resamples 1000] [--workers 1]
        [--only tydiqa ...] [--methods bootstrap randomization]

Targets (bench/compare.md): 20,000 FEVER claims within 0.5 s, the SciFact dev set under 1 s, a
TyDi QA dev-size set (18,670 examples in 11 languages) within 2 s (randomization, which adds
1,000 swaps to the 1,000 bootstrap resamples: 4 s). Each timing is a whole
``compare_rows`` call on ``compute()`` inputs already in memory: both systems' official scores,
their per-unit statistics, and the resamples. FEVER and TyDi QA inputs are generated (seeded);
SciFact and eHealth-KD use the parity corpus' real prediction sets when it is beside the
checkout. Wall time and the process's CPU time are both recorded: the CPU time is what a
loaded machine does not inflate (with ``--workers 1``, all the work is in this process); the
load average (1 minute) is recorded before each timing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import taskeval
from bench.common import PARITY, machine, table
from taskeval.compare import compare_rows

LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
# TyDi QA dev: examples per language
TYDI_DEV = {
    "arabic": 1380, "bengali": 328, "english": 1031, "finnish": 2082, "indonesian": 1805,
    "japanese": 1709, "korean": 1698, "russian": 1625, "swahili": 2288, "telugu": 2479,
    "thai": 2245,
}  # fmt: skip


def fever_inputs(n: int, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    refs, systems = [], [[], []]
    for _ in range(n):
        label = rng.choice(LABELS)
        groups = [] if label == LABELS[2] else [[[None, None, f"p{rng.randint(0, 99)}", rng.randint(0, 9)]]
                                                  for _ in range(rng.randint(1, 3))]  # fmt: skip
        refs.append({"label": label, "evidence": groups})
        for skill, rows in zip((0.6, 0.65), systems):
            guess = label if rng.random() < skill else rng.choice(LABELS)
            evidence = [
                [f"p{rng.randint(0, 99)}", rng.randint(0, 9)] for _ in range(rng.randint(0, 7))
            ]
            if groups and rng.random() < skill:
                evidence[:0] = [item[2:] for item in rng.choice(groups)]
            rows.append({"predicted_label": guess, "predicted_evidence": evidence})
    return [{"predictions": rows, "references": refs} for rows in systems]


def tydiqa_inputs(seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    refs, systems = [], [[], []]
    example_id = 10**18
    for language, count in TYDI_DEV.items():
        for _ in range(count):
            example_id += rng.randint(1, 10**9)
            annotations = []
            for _ in range(3):
                if rng.random() < 0.4:
                    annotations.append({"candidate_index": -1, "start_byte": -1, "end_byte": -1,
                                        "yes_no_answer": "NONE"})  # fmt: skip
                else:
                    start = rng.randint(0, 5000)
                    annotations.append({"candidate_index": rng.randint(0, 3), "start_byte": start,
                                        "end_byte": start + rng.randint(1, 40),
                                        "yes_no_answer": "NONE"})  # fmt: skip
            refs.append(
                {"example_id": example_id, "language": language, "annotations": annotations}
            )
            for skill, rows in zip((0.5, 0.55), systems):
                gold = rng.choice(annotations)
                right = rng.random() < skill and gold["candidate_index"] >= 0
                start = gold["start_byte"] if right else rng.randint(0, 5000)
                rows.append({
                    "example_id": example_id, "language": language,
                    "passage_answer_index": gold["candidate_index"] if right else rng.randint(-1, 3),
                    "passage_answer_score": round(rng.random() * 10 + right, 2),
                    "minimal_answer": {"start_byte_offset": start,
                                       "end_byte_offset": start + rng.randint(1, 40)},
                    "minimal_answer_score": round(rng.random() * 10 + right, 2),
                    "yes_no_answer": "NONE",
                })  # fmt: skip
    return [{"predictions": rows, "references": refs} for rows in systems]


def goldp_inputs(n: int = 5_077, seed: int = 1) -> list[dict]:
    """Two systems on a GoldP-like dev set (``bench_check.goldp_files``, ``n`` questions in 9
    languages): the second gives the gold answer for a few more questions."""
    from bench.bench_check import goldp_files

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="taskeval-bench-goldp-") as tmp:
        gold, first = goldp_files(Path(tmp), n)
        answers = json.loads(first.read_text("utf-8"))
        golds = {
            qa["id"]: qa["answers"][0]["text"]
            for article in json.loads(gold.read_text("utf-8"))["data"]
            for paragraph in article["paragraphs"]
            for qa in paragraph["qas"]
        }
        better = {k: golds[k] if rng.random() < 0.05 else v for k, v in answers.items()}
        second = Path(tmp) / "better.json"
        second.write_text(json.dumps(better, ensure_ascii=False), "utf-8")
        return [
            taskeval.read_official("tydiqa_goldp", references=gold, predictions=p)
            for p in (first, second)
        ]


def parity_systems(name: str) -> list[dict] | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "scifact":
            cases = PARITY / "scifact" / "cases"
            if not cases.is_dir():
                return None
            return [
                taskeval.read_official(
                    "scifact_abstract",
                    references=cases / "dev_oracle" / "gold.jsonl",
                    predictions=cases / f"dev_multivers_{c}_ckpt" / "predictions.jsonl",
                )
                for c in ("scifact", "healthver")
            ]
        real = PARITY / "ehealthkd" / "real"
        if not real.is_dir():
            return None
        return [
            taskeval.read_official(
                "ehealthkd",
                references=real / "gold" / "scenario1-main",
                predictions=real / "cases" / run / "submission" / "scenario1-main",
            )
            for run in ("abravo__576683", "talp__576639")
        ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1, help="processes for TyDi QA")
    parser.add_argument("--only", nargs="+", help="metrics to run (default: all)")
    parser.add_argument("--methods", nargs="+", default=["bootstrap", "randomization"])
    args = parser.parse_args()
    jobs = [
        ("fever_score", "20,000 claims (generated)", None, fever_inputs(20_000), 0.5),
        ("scifact_abstract", "SciFact dev, 300 claims (MultiVerS runs)", None,
         parity_systems("scifact"), 1.0),
        ("scifact_sentence", "SciFact dev, 300 claims (MultiVerS runs)", None,
         parity_systems("scifact"), 1.0),
        ("ehealthkd", "2019 test, 100 sentences (two real runs)", "scenario1",
         parity_systems("ehealthkd"), None),
        ("tydiqa", "18,670 examples, 11 languages (generated)", None, None, 2.0),
        ("tydiqa_goldp", "5,077 questions, 9 languages (generated)", None, None, None),
    ]  # fmt: skip
    rows = []
    for name, data, config, systems, target in jobs:
        if args.only and name not in args.only:
            continue
        if name == "tydiqa":
            systems = tydiqa_inputs()
        elif name == "tydiqa_goldp":
            systems = goldp_inputs()
        if systems is None:
            print(f"{name}: skipped (the parity corpus is absent)", file=sys.stderr)
            continue
        for method in args.methods:
            walls, cpus, loads = [], [], []
            for _ in range(args.repeat):
                loads.append(os.getloadavg()[0])
                wall, cpu = time.perf_counter(), time.process_time()
                result = compare_rows(
                    name,
                    systems,
                    config_name=config,
                    method=method,
                    resamples=args.resamples,
                    workers=args.workers,
                )
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            key = next(iter(result["comparisons"][0]["scores"]))
            p = result["comparisons"][0]["scores"][key]["p_value"]
            goal = target if method == "bootstrap" else (2 * target if name == "tydiqa" else None)
            line = {"metric": name, "data": data, "method": method, "wall_s": round(wall, 3),
                    "cpu_s": round(cpu, 3), "target_s": goal, "load": loads,
                    f"p({key})": p}  # fmt: skip
            print(json.dumps(line), flush=True)
            rows.append([name, data, method, f"{wall:.2f}", f"{cpu:.2f}",
                         f"<= {goal:g}" if goal else "", f"{min(loads):.1f}-{max(loads):.1f}",
                         f"{key}: {p:.4f}"])  # fmt: skip
    print()
    print(machine())
    print(
        f"{args.resamples} resamples, two systems, {args.workers} worker(s), "
        f"median of {args.repeat} runs\n"
    )
    header = ["metric", "data", "method", "wall (s)", "CPU (s)", "target (s)", "load", "p-value"]
    print(table(header, rows))


if __name__ == "__main__":
    main()
