"""Build the parity cases of this entry with the official AVeriTeC scorers.

    python tests/entries/averitec/make_parity.py OFFICIAL_DIR PYTHON_391 PYTHON_3104 OUT_DIR

``OFFICIAL_DIR`` holds the official scripts as ``official_runner.py`` reads them;
``PYTHON_391`` and ``PYTHON_3104`` are interpreters with nltk 3.9.1 and 3.10.4 (and scipy,
numpy, pandas and scikit-learn; the nltk data under ``NLTK_DATA``). Each case is a pair of
official files (``dev.json`` and ``predictions.json``, or ``solution.csv`` and
``submission.csv``); ``OUT_DIR/cases.jsonl`` holds, for each case and each nltk release, the
options and the official numbers under this metric's key names (null where the official
scorer failed).
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RELEASES = {"3.9.1": 2, "3.10.4": 3}  # the argument holding each release's Python
COUNTS = {"2024": 14, "2025": 8, "2023": 8}

README = """# Parity cases of `averitec`

Made by `../make_parity.py` with the official scorers (FEVER-7's `evaluate_veracity.py`,
FEVER-8's `averitec_evaluate.py` at 547e9f7 and the AVeriTeC paper's `eval.py`), run outside
this repository under nltk 3.9.1 and 3.10.4; `cases.jsonl` holds each case's options and the
official numbers (under this metric's key names; null where the official scorer failed). The
claims are random text written for this project by `../random_records.py` (no AVeriTeC data),
released with it under its licence.
"""


def main(official: str, pythons: dict[str, str], out: Path) -> None:
    sys.path.insert(0, str(HERE))
    from official_files import expected, official_case, run_official, write_case
    from random_records import random_inputs

    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    (out / "README.md").write_text(README, encoding="utf-8")
    rng = random.Random(37)
    cases: dict[str, list[dict]] = {edition: [] for edition in COUNTS}
    for edition, count in COUNTS.items():
        for k in range(count):
            rows = random_inputs(rng, rng.randint(1, 9), edition)
            case = official_case(f"random-{edition}-{k}", rows, edition, rng)
            write_case(out / case["case"], case)
            cases[edition].append(case)
    lines = []
    for edition, edition_cases in cases.items():
        for release, python in pythons.items():
            outputs = run_official(python, official, edition, edition_cases)
            for case in edition_cases:
                found = outputs[case["case"]]
                lines.append(
                    {
                        "case": case["case"],
                        "options": {"edition": edition, "nltk": release},
                        "expected": expected(edition, found["result"])
                        if "result" in found
                        else None,
                    }
                )
    (out / "cases.jsonl").write_text(
        "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8"
    )


if __name__ == "__main__":
    main(sys.argv[1], {r: sys.argv[k] for r, k in RELEASES.items()}, Path(sys.argv[4]))
