"""How long loading takes: ``taskeval.load(name)`` after ``import taskeval, evaluate``, and a
plain ``evaluate.load(name)`` after ``taskeval install`` with ``HF_EVALUATE_OFFLINE=1``.

    python bench/bench_load.py [--repeat 5]

Each measurement runs in a fresh interpreter (imports excluded from the timing) with its own
``HF_HOME``, first load of each metric in that process. Writes bench/load.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import machine, table, write_summary

# Imports (evaluate, and taskeval's loader, imported on first use) happen before the timing, and
# the garbage collector is run before each load: a full collection falls wherever the objects of
# the imports add up (about 200 ms with datasets and pyarrow loaded), which is not the load's cost.
PROBE = """
import gc, sys, time
import evaluate, taskeval, taskeval.api
names = taskeval.list_metrics()
load = taskeval.load if sys.argv[1] == "taskeval" else evaluate.load
for name in names:
    gc.collect()
    t = time.perf_counter()
    load(name)
    print(name, 1000 * (time.perf_counter() - t))
"""


def measure(how: str, home: str, repeat: int) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(HF_HOME=home, HF_EVALUATE_OFFLINE="1")
    times: dict[str, list[float]] = {}
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", PROBE, how], env=env, capture_output=True, text=True, check=True
        ).stdout
        for line in out.split("\n"):
            if line:
                name, ms = line.split()
                times.setdefault(name, []).append(float(ms))
    return {name: statistics.median(ms) for name, ms in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HF_HOME": home}
        subprocess.run([sys.executable, "-m", "taskeval", "install"], env=env, check=True,
                       capture_output=True)  # fmt: skip
        ours = measure("taskeval", home, args.repeat)
        bare = measure("evaluate", home, args.repeat)
    rows = [[name, f"{ours[name]:.1f}", f"{bare[name]:.1f}"] for name in ours]
    worst_ours, worst_bare = max(ours.values()), max(bare.values())
    report = f"""# Loading a metric

Machine: {machine()}. Command: `python bench/bench_load.py --repeat {args.repeat}`.
Fresh interpreter per run, imports excluded, the garbage collector run before each load, first
load of each metric; medians in ms.
`evaluate.load(name)` runs after `taskeval install`, with `HF_EVALUATE_OFFLINE=1` set before
`evaluate` is imported (without it, evaluate first probes the Hub for about 1.5 s or more).

{table(["metric", "taskeval.load(name) ms", "evaluate.load(name) ms"], rows)}

Targets: `taskeval.load` under 50 ms (worst {worst_ours:.1f} ms), bare-name `evaluate.load`
under 100 ms (worst {worst_bare:.1f} ms).
"""
    Path(__file__).with_name("load.md").write_text(report, encoding="utf-8")
    print(report)
    write_summary(
        "load",
        [
            {
                "size": f"{len(ours)} metrics",
                "what": "first load in a fresh process",
                "official": "—",
                "taskeval": f"taskeval.load ≤ {worst_ours:.0f} ms; evaluate.load ≤ "
                f"{worst_bare:.0f} ms",
                "ratio": "—",
                "target": "< 50 ms; < 100 ms",
                "verdict": "met" if worst_ours < 50 and worst_bare < 100 else "missed",
            }
        ],
    )


if __name__ == "__main__":
    main()
