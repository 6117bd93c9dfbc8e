"""AVeriTeC: the official scorers and taskeval side by side, whole process, on the same files.

    python bench/bench_averitec.py --official DIR --python PYTHON [--repeat N]
        [--pair 2024:GOLD:PREDICTIONS] [--pair 2025:SOLUTION:SUBMISSION]

``DIR`` holds the official scripts as ``tests/entries/averitec/official_runner.py`` reads them;
``PYTHON`` has nltk 3.9.1 (with scipy, numpy, pandas, scikit-learn and the nltk data under
``NLTK_DATA``). Each ``--pair`` is an edition and two official files (default: the Space's
made-up example, 2024). The official side runs the 2024 ``evaluate_veracity.py`` as a program
(all it prints), or, for 2025, its Hungarian-METEOR evaluator on the two CSVs as ``compute()``
reads them (``official_runner.py``: the Ev2R part needs an LLM API and is left out);
taskeval's side runs ``taskeval score averitec --edition ...``. The numbers are checked equal
before timing. Writes bench/averitec.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import REPO, alternate, installed, load_note, machine, row, table, write_summary

ENTRY = REPO / "tests" / "entries" / "averitec"
EXAMPLE = REPO / "spaces" / "averitec" / "examples"
sys.path.insert(0, str(ENTRY))
from official_files import expected, run_official  # noqa: E402


def _official_case(edition: str, gold: Path, predictions: Path) -> dict:
    if edition == "2025":
        return {
            "case": "bench",
            "solution_csv": gold.read_text(encoding="utf-8"),
            "submission_csv": predictions.read_text(encoding="utf-8"),
        }
    return {
        "case": "bench",
        "references": json.loads(gold.read_text(encoding="utf-8")),
        "predictions": json.loads(predictions.read_text(encoding="utf-8")),
    }


def measure(args, edition: str, gold: Path, predictions: Path, tmp: Path) -> tuple[dict, list]:
    _, taskeval = installed()
    ours = [taskeval, "score", "averitec", "--references", str(gold)]
    ours += ["--predictions", str(predictions), "--edition", edition, "--nltk", "3.9.1"]
    printed = json.loads(subprocess.run(ours, check=True, capture_output=True, text=True).stdout)
    case = _official_case(edition, gold, predictions)
    want = expected(
        edition, run_official(args.python, args.official, edition, [case])["bench"]["result"]
    )
    assert printed == want, (printed, want)
    if edition == "2024":
        script = Path(args.official, "averitec-2024", "evaluate_veracity.py")
        official = [args.python, str(script), "-i", str(predictions), "--label_file", str(gold)]
    else:
        source = tmp / "case.json"
        source.write_text(json.dumps([case]), encoding="utf-8")
        official = [args.python, str(ENTRY / "official_runner.py"), args.official, "2025"]
        official += [str(source), str(tmp / "out.json")]
    runs = alternate({"official": official, "taskeval": ours}, args.repeat)
    return runs, [official, ours]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--official", required=True)
    parser.add_argument("--python", required=True, help="an interpreter with nltk 3.9.1")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pair", action="append", help="EDITION:GOLD:PREDICTIONS")
    args = parser.parse_args()
    pairs = args.pair or [f"2024:{EXAMPLE / 'dev.json'}:{EXAMPLE / 'predictions.json'}"]
    load_start = os.getloadavg()[0]
    lines, summary = [], []
    with tempfile.TemporaryDirectory() as folder:
        for pair in pairs:
            edition, gold, predictions = pair.split(":", 2)
            gold_path, predictions_path = Path(gold), Path(predictions)
            runs, _ = measure(args, edition, gold_path, predictions_path, Path(folder))
            official, ours = runs["official"].median, runs["taskeval"].median
            name = f"{gold_path.name} + {predictions_path.name} (edition {edition})"
            lines.append(f"**{name}** (wall s, runs taken in turn):\n")
            lines.append(
                table(
                    ["scorer", "runs", "median", "peak MB"],
                    [
                        [
                            k,
                            ", ".join(f"{w:.1f}" for w in r.walls),
                            f"{r.median:.2f}",
                            f"{r.peak_mb:.0f}",
                        ]
                        for k, r in runs.items()
                    ],
                )
                + "\n"
            )
            summary.append(row(name, "whole process: read + score", official, ours, 0.5))
    text = [
        "# AVeriTeC benchmark",
        "",
        f"Machine: {machine()}; {load_note(load_start)}.",
        "Command: `python bench/bench_averitec.py --official DIR --python PYTHON --repeat "
        f"{args.repeat} "
        + " ".join(f"--pair {p.split(':', 1)[0]}:GOLD:PREDICTIONS" for p in pairs)
        + "`",
        "with PYTHON an interpreter holding nltk 3.9.1 (scipy, numpy, pandas, scikit-learn; the",
        "nltk data under NLTK_DATA). The official side runs `evaluate_veracity.py` as a program",
        "(2024) or the FEVER-8 evaluator's three Hungarian-METEOR passes on the CSVs as",
        "`compute()` reads them (2025); taskeval's runs `taskeval score averitec --edition E",
        "--nltk 3.9.1`; the numbers are checked equal before timing.",
        "",
        *lines,
        "Summary (taskeval / official, target at most):",
        "",
        table(
            ["size", "what", "official", "taskeval", "ratio", "target", "verdict"],
            [
                [
                    r[k]
                    for k in ("size", "what", "official", "taskeval", "ratio", "target", "verdict")
                ]
                for r in summary
            ],
        ),
        "",
    ]
    (REPO / "bench" / "averitec.md").write_text("\n".join(text), encoding="utf-8")
    write_summary("averitec", summary)


if __name__ == "__main__":
    main()
