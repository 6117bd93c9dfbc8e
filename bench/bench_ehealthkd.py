"""Benchmark: score every real submission of the eHealth-KD parity corpus end to end.

Each run parses the gold and submission folders and scores the three scenarios
(``taskeval.score_files("ehealthkd", ...)``), as ``taskeval score ehealthkd`` does. The time per
scenario evaluation is the CPU time of a run divided by 3, summed over submissions from the
median (and the minimum) over repeats. Then ``compute()`` is timed on the rows ``read_official``
gives for the same 39 scenario evaluations: all rows in one call (scored directly), the same with
``details=True``, and ``add_batch()`` then ``compute()`` (evaluate's Arrow path).
Run: ``python bench/bench_ehealthkd.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

import taskeval

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import machine, median_time, write_summary

PARITY = Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "ehealthkd"
# The official tool's figure: ~24 s of CPU for 150 scenario evaluations (50 runs x 3 scenarios).
OFFICIAL_MS_PER_SCENARIO = 160.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    manifest = json.loads((PARITY / "manifest.json").read_text(encoding="utf-8"))
    cases = [c for c in manifest["cases"] if c["kind"] == "real"]
    warnings.simplefilter("ignore")  # cross-sentence relations are reported as warnings
    rows = []
    for case in cases:
        gold, submission = PARITY / case["gold"], PARITY / case["submission"]
        expected = json.loads((PARITY / case["result"]).read_text(encoding="utf-8"))
        cpu, wall = [], []
        for _ in range(args.repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            result = taskeval.score_files("ehealthkd", references=gold, predictions=submission)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        assert result == expected, case["name"]
        rows.append((case["name"], statistics.median(cpu), statistics.median(wall), min(cpu)))
    n_eval = 3 * len(rows)
    total_cpu = sum(r[1] for r in rows)
    total_wall = sum(r[2] for r in rows)
    per_eval = 1000 * total_cpu / n_eval
    per_eval_min = 1000 * sum(r[3] for r in rows) / n_eval
    print(f"machine: {machine()}")
    print(f"{'submission':28s} {'CPU ms (3 scenarios)':>22s} {'wall ms':>9s} {'min CPU ms':>11s}")
    for name, c, w, m in rows:
        print(f"{name:28s} {1000 * c:22.1f} {1000 * w:9.1f} {1000 * m:11.1f}")
    print(
        f"{len(rows)} submissions, {n_eval} scenario evaluations: "
        f"{1000 * total_cpu:.0f} ms CPU ({1000 * total_wall:.0f} ms wall) in all, "
        f"{per_eval:.1f} ms CPU per scenario evaluation (median; {per_eval_min:.1f} ms from the "
        f"minima); official ~{OFFICIAL_MS_PER_SCENARIO:.0f} ms, ratio "
        f"{OFFICIAL_MS_PER_SCENARIO / per_eval:.1f}x ({OFFICIAL_MS_PER_SCENARIO / per_eval_min:.1f}x)"
    )
    direct_ms = time_compute(cases, args.repeat)
    write_summary(
        "ehealthkd",
        [
            {
                "size": f"{len(rows)} real submissions × 3 scenarios",
                "official": f"≈{OFFICIAL_MS_PER_SCENARIO:.0f} ms CPU per scenario (spec)",
                "core": "—",
                "compute": f"{direct_ms / n_eval:.1f} ms per scenario (scored rows, direct)",
                "cli": f"{per_eval:.1f} ms CPU per scenario (read + score; "
                f"{OFFICIAL_MS_PER_SCENARIO / per_eval:.1f}× less than official)",
                "memory": "—",
                "verdict": "≥ 5× less than official: "
                + ("met" if OFFICIAL_MS_PER_SCENARIO / per_eval >= 5 else "missed"),
            }
        ],
    )


def time_compute(cases: list[dict], repeat: int) -> float:
    """compute() on the scored rows of every real submission and scenario, three ways."""
    folders = ("scenario1-main", "scenario2-taskA", "scenario3-taskB")
    metrics = {s: taskeval.load("ehealthkd", s) for s in ("scenario1", "scenario2", "scenario3")}
    work = []
    for case in cases:
        expected = json.loads((PARITY / case["result"]).read_text(encoding="utf-8"))
        for (scenario, metric), folder in zip(metrics.items(), folders):
            inputs = taskeval.read_official(
                "ehealthkd",
                references=PARITY / case["gold"] / folder,
                predictions=PARITY / case["submission"] / folder,
            )
            assert metric.compute(**inputs) == expected[scenario], case["name"]
            work.append((metric, inputs))

    def direct():
        for metric, inputs in work:
            metric.compute(**inputs)

    def with_details():
        return sum(len(m.compute(**inputs, details=True)["details"]) for m, inputs in work)

    def arrow():
        for metric, inputs in work:
            metric.add_batch(**inputs)
            metric.compute()

    n_rows = sum(len(inputs["references"]) for _, inputs in work)
    n_records = with_details()
    t_direct, t_details, t_arrow = (
        1000 * median_time(f, repeat)[0] for f in (direct, with_details, arrow)
    )
    print(
        f"compute() on {len(work)} scenario evaluations ({n_rows} scored sentence pairs), wall ms:"
    )
    print(f"  all rows in one compute() call (scored directly): {t_direct:8.1f}")
    print(f"  the same with details=True ({n_records} records):  {t_details:8.1f}")
    print(f"  add_batch() then compute() (Arrow path):          {t_arrow:8.1f}")
    print(f"  Arrow path / direct: {t_arrow / t_direct:.1f}x")
    return t_direct


if __name__ == "__main__":
    main()
