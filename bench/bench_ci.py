"""``taskeval score --ci`` against ``taskeval score`` on a dev-size file of every metric.

    python bench/bench_ci.py [--repeat 3] [--only tydiqa ...] [--base CHECKOUT [--base-python PY]]

Target (bench/compare.md): the scores with 1,000-resample bootstrap intervals (``--ci``) take at
most twice the time of the scores alone. Each run is a fresh ``python -m taskeval`` process; its
wall time and CPU time (user + system, from ``wait4``) are recorded, the commands taking turns
so that a change of the machine's load hits them alike. ``--base`` also runs ``score`` and
``--ci`` from another checkout, for side-by-side figures: its folder is the working directory,
and ``--base-python`` the interpreter of an environment where that checkout is installed (an
editable install maps the metrics folder of its own checkout; default: this interpreter). The
``--ci`` output of both must be the same, byte for byte. Data: FEVER and TyDi QA files generated at the size of
their dev sets (the generators of ``bench_fever`` and ``bench_tydiqa``; GoldP's of ``bench_check``), the SciFact dev set and
the eHealth-KD 2019 test set with real runs from the parity corpus when it is beside the
checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_check import goldp_files
from bench.bench_fever import synthetic
from bench.bench_tydiqa import generate
from bench.common import PARITY, compile_bytecode, machine, table


def _files(folder: Path, only: list[str] | None) -> list[tuple[str, str, Path, Path]]:
    jobs = []
    if not only or "fever_score" in only:
        predictions, references = synthetic(19_998)  # the size of FEVER's shared-task dev set
        gold, preds = folder / "fever_gold.jsonl", folder / "fever_preds.jsonl"
        gold.write_text("".join(json.dumps(r) + "\n" for r in references), encoding="utf-8")
        preds.write_text("".join(json.dumps(p) + "\n" for p in predictions), encoding="utf-8")
        jobs.append(("fever_score", "19,998 claims (generated)", gold, preds))
    cases = PARITY / "scifact" / "cases"
    for name in ("scifact_abstract", "scifact_sentence"):
        if (not only or name in only) and cases.is_dir():
            jobs.append((name, "SciFact dev, 300 claims (MultiVerS run)",
                         cases / "dev_oracle" / "gold.jsonl",
                         cases / "dev_multivers_scifact_ckpt" / "predictions.jsonl"))  # fmt: skip
    real = PARITY / "ehealthkd" / "real"
    if (not only or "ehealthkd" in only) and real.is_dir():
        jobs.append(("ehealthkd", "2019 test, 3 scenarios (real run)", real / "gold",
                     real / "cases" / "talp__576639" / "submission"))  # fmt: skip
    if not only or "tydiqa" in only:
        gold, preds = generate(folder, 18_670)
        jobs.append(("tydiqa", "18,670 examples (generated, dev layout)", gold, preds))
    if not only or "tydiqa_goldp" in only:
        gold, preds = goldp_files(folder, 5_077)  # the size of the GoldP dev set
        jobs.append(("tydiqa_goldp", "5,077 questions (generated)", gold, preds))
    return jobs


def _run(argv: list[str], cwd: Path, outputs: dict[str, set], label: str) -> tuple[float, float]:
    """Wall and CPU time (s) of one process; its output is added to ``outputs[label]``."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"{argv} failed")
        out.seek(0)
        outputs.setdefault(label, set()).add(out.read())
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="+", help="metrics to run (default: all)")
    parser.add_argument("--base", type=Path, help="a checkout whose commands run alongside")
    parser.add_argument("--base-python", default=sys.executable, help="its interpreter")
    parser.add_argument(
        "--other-numbers",
        action="store_true",
        help="time a base that prints other numbers (say, before a change of the summing order)",
    )
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    compile_bytecode(here / "taskeval", here / "metrics", *([args.base] if args.base else []))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, gold, preds in _files(Path(tmp), args.only):
            call = ["-m", "taskeval", "score", name,
                    "--references", str(gold), "--predictions", str(preds)]  # fmt: skip
            score = [sys.executable, *call]
            commands = {"score": (score, here), "score --ci": ([*score, "--ci"], here)}
            if args.base:
                base_score = [args.base_python, *call]
                commands["base score"] = (base_score, args.base)
                commands["base --ci"] = ([*base_score, "--ci"], args.base)
            times: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
            outputs: dict[str, set] = {}
            loads = []
            for _ in range(args.repeat):
                for label, (argv, cwd) in commands.items():
                    loads.append(os.getloadavg()[0])
                    times[label].append(_run(argv, cwd, outputs, label))
            if any(len(printed) != 1 for printed in outputs.values()):
                raise RuntimeError(f"{name}: a command printed other numbers on another run")
            for command in ("score", "score --ci") if args.base and not args.other_numbers else ():
                if outputs[f"base {command.removeprefix('score ') or 'score'}"] != outputs[command]:
                    raise RuntimeError(f"{name}: {command} prints other numbers than the base")
            med = {
                label: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
                for label, t in times.items()
            }
            line = {"metric": name, "data": data, **med, "load": [min(loads), max(loads)]}
            print(json.dumps(line), flush=True)
            rows.append([name, data, *_figures(med, "score", "score --ci"),
                         *(_figures(med, "base score", "base --ci") if args.base else []),
                         f"{min(loads):.1f}-{max(loads):.1f}"])  # fmt: skip
    print()
    print(machine())
    print(f"median of {args.repeat} runs per command, wall / CPU seconds\n")
    header = ["metric", "data", "score", "score --ci", "ratio"]
    if args.base:
        header += ["before: score", "before: --ci", "before: ratio"]
    print(table([*header, "load"], rows))


def _figures(med: dict, score: str, ci: str) -> list[str]:
    (wall, cpu), (ci_wall, ci_cpu) = med[score], med[ci]
    return [f"{wall:.3f} / {cpu:.3f}", f"{ci_wall:.3f} / {ci_cpu:.3f}",
            f"{ci_wall / wall:.2f} / {ci_cpu / cpu:.2f}"]  # fmt: skip


if __name__ == "__main__":
    main()
