"""eHealth-KD 2019: the official ``evaltest.py`` and taskeval side by side on a real submission.

    python bench/bench_ehealthkd.py [--repeat N] [--submission NAME] [--official DIR]

Whole process: one real 2019 submission of the parity corpus, its three scenarios, scored by
the official script and by ``taskeval score ehealthkd`` in turn (``--official`` or
``$TASKEVAL_OFFICIAL`` names the folder holding the ``ehealthkd-2019`` checkout; without it a
recorded figure of the official script is used). Then ``compute()`` is timed on the rows
``read_official`` gives for every real submission and scenario: all rows in one call, with
``details=True``, and ``add_batch()`` then ``compute()`` (evaluate's Arrow path).
Writes bench/ehealthkd.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import taskeval

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import (
    add_official_option,
    alternate,
    installed,
    load_note,
    machine,
    median_time,
    official_checkout,
    row,
    table,
    write_summary,
)

PARITY = Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "ehealthkd"
# The official evaltest --single on one real submission, whole process, this machine class.
RECORDED_S = 0.49


def side_by_side(checkout: Path, case: dict, repeat: int, tmp: Path) -> dict:
    """``evaltest --single`` and ``taskeval score ehealthkd`` on one submission, runs in turn."""
    holder = tmp / case["name"]  # evaltest --single scores every folder in the folder it is given
    holder.mkdir()
    (holder / "submission").symlink_to(PARITY / case["submission"], target_is_directory=True)
    gold = PARITY / case["gold"]
    python, taskeval = installed()
    official = [python, "-m", "scripts.evaltest", str(holder), str(gold), "--single"]
    ours = [taskeval, "score", "ehealthkd"]
    ours += ["--references", str(gold), "--predictions", str(PARITY / case["submission"])]
    printed = subprocess.run(ours, check=True, capture_output=True, text=True).stdout
    expected = json.loads((PARITY / case["result"]).read_text(encoding="utf-8"))
    assert json.loads(printed) == expected, case["name"]
    return alternate({"official": official, "taskeval": ours}, repeat, cwd={"official": checkout})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--submission", default="abravo__576683")
    add_official_option(parser)
    args = parser.parse_args()
    checkout = official_checkout(args.official, "ehealthkd-2019", "scripts/evaltest.py")
    load_start = os.getloadavg()[0]
    manifest = json.loads((PARITY / "manifest.json").read_text(encoding="utf-8"))
    cases = [c for c in manifest["cases"] if c["kind"] == "real"]
    case = next(c for c in cases if c["name"] == args.submission)
    warnings.simplefilter("ignore")  # cross-sentence relations are reported as warnings
    size = f"1 real submission ({case['name']}) × 3 scenarios"
    lines = []
    if checkout:
        with tempfile.TemporaryDirectory() as tmp:
            runs = side_by_side(checkout, case, args.repeat, Path(tmp))
        official, ours = runs["official"].median, runs["taskeval"].median
        source = ""
        for name, run in runs.items():
            walls = ", ".join(f"{w:.2f}" for w in run.walls)
            lines.append([name, walls, f"{run.median:.3f}", f"{run.peak_mb:.0f}"])
    else:
        cli = [installed()[1], "score", "ehealthkd", "--references",
               str(PARITY / case["gold"]), "--predictions", str(PARITY / case["submission"])]  # fmt: skip
        official, ours, source = (
            RECORDED_S,
            alternate({"t": cli}, args.repeat)["t"].median,
            "recorded",
        )
    rows = [row(size, "whole process: read + score", official, ours, 1.0, source=source)]
    direct_ms = time_compute(cases, args.repeat)
    write_summary("ehealthkd", rows)
    report = f"""# eHealth-KD benchmark

Machine: {machine()}; {load_note(load_start)}.
Command: `python bench/bench_ehealthkd.py --repeat {args.repeat} --submission {args.submission}`
with `--official` naming the folder of the `ehealthkd-2019` checkout.
Whole process: the official `python -m scripts.evaltest HOLDER GOLD --single` (run in the
checkout; HOLDER holds only the folder `submission`) against `taskeval score ehealthkd
--references GOLD --predictions SUBMISSION`, both scoring the three scenarios of the real 2019
testing gold; the same numbers (checked before timing). Runs taken in turn (wall s):

{table(["scorer", "runs", "median", "peak MB"], lines) if lines else "(official not run)"}

In memory, `compute()` on the rows of all {len(cases)} real submissions × 3 scenarios takes
{direct_ms:.0f} ms ({direct_ms / (3 * len(cases)):.1f} ms per scenario); the official script has no
in-memory entry separate from its file reading.

Summary (taskeval / official, target at most):

{table(["size", "what", "official", "taskeval", "ratio", "target", "verdict"], [list(r.values()) for r in rows])}
"""
    out = Path(__file__).with_name("ehealthkd.md")
    out.write_text(report, encoding="utf-8")
    print(report)


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
