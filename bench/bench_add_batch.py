"""evaluate's add_batch() path against compute() on whole inputs, FEVER rows.

    python bench/bench_add_batch.py [--n 200000] [--chunk 1000] [--repeat 3]

Each way runs in a fresh process (rows made first, then timed): ``compute()`` with all rows
(the scoring core straight), ``add_batch()`` in chunks of ``--chunk`` rows then ``compute()``,
and one ``add_batch()`` of all rows then ``compute()`` (evaluate's Arrow cache both times). Each
process checks that its numbers equal compute()'s. Rows: bench_fever's synthetic profile.
Prints medians and the peak memory of each way; writes bench/add_batch.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import machine, table

HERE = Path(__file__).resolve().parent
WAYS = {
    "compute(all rows)": "direct",
    "add_batch(chunks) + compute()": "chunks",
    "add_batch(all rows) + compute()": "one",
}
PROBE = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[4])
from bench.bench_fever import synthetic
import taskeval
way, n, chunk = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
preds, refs = synthetic(n)
metric = taskeval.load("fever_score")
expected = taskeval.load("fever_score").compute(predictions=preds, references=refs)
t = time.perf_counter()
if way == "direct":
    got = metric.compute(predictions=preds, references=refs)
else:
    step = chunk if way == "chunks" else n
    for lo in range(0, n, step):
        metric.add_batch(predictions=preds[lo : lo + step], references=refs[lo : lo + step])
    got = metric.compute()
seconds = time.perf_counter() - t
assert got == expected, (got, expected)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mb": peak}))
"""


def run(way: str, n: int, chunk: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, way, str(n), str(chunk), str(HERE.parent)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for label, way in WAYS.items():
        runs = [run(way, args.n, args.chunk) for _ in range(args.repeat)]
        seconds = statistics.median(r["seconds"] for r in runs)
        peak = max(r["peak_mb"] for r in runs)
        rows.append([label, f"{seconds:.2f}", f"{peak:.0f}"])
        print(label, rows[-1][1:], flush=True)
    text = f"""# add_batch() against compute()

Machine: {machine()}. Command: `python bench/bench_add_batch.py --n {args.n} --chunk {args.chunk}
--repeat {args.repeat}`. FEVER rows of bench_fever's synthetic profile; each way a fresh process,
rows made before the timing; median seconds, and the peak memory of the whole process (the rows
themselves included).

{table(["way", "seconds", "peak MB"], rows)}
"""
    (HERE / "add_batch.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
