"""tydiqa_goldp's lm-evaluation-harness tasks against the official procedure: for random made-up
question sets in the nine languages and two systems' generations each, the harness (in this
process, answering with the recorded generations) runs ``taskeval_tydiqa_goldp`` and
``taskeval_tydiqa_goldp_en``; each language's numbers must equal what the real
``evaluate-v1.1.py`` prints on that language's questions, and the group's the mean of the eight
non-English languages added in the official order.

    python scripts/differential/run.py tydiqa_goldp:lm_eval --official DIR [--cases 150] [--start 0]

``DIR`` holds ``bi-att-flow/squad/evaluate-v1.1.py``. Run it under each Python to check (the
group's ``sum()`` compensates rounding from 3.12 on).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from lm_eval_data import CODES, GROUP, made_up, official_files, task_configs  # noqa: E402
from replay_lm import Replay  # noqa: E402

from taskeval._metrics.tydiqa_goldp.scoring import AVERAGED, LANGUAGES  # noqa: E402


def _official_language(script: Path, rows: list[dict], generations: dict, folder: Path) -> dict:
    """``python evaluate-v1.1.py GOLD PREDICTIONS`` on one language's questions."""
    gold, (predictions,) = official_files({"rows": rows, "systems": [generations]}, folder)
    done = subprocess.run(
        [sys.executable, str(script), str(gold), str(predictions)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    return json.loads(done.stdout)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="run.py tydiqa_goldp:lm_eval")
    parser.add_argument("--official", default=os.environ.get("TASKEVAL_OFFICIAL"))
    parser.add_argument("--cases", type=int, default=150)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args(argv)
    script = Path(args.official or "") / "bi-att-flow" / "squad" / "evaluate-v1.1.py"
    if not script.is_file():
        sys.exit(f"differential: no {script}: give --official DIR holding bi-att-flow")
    os.environ.update(HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
    logging.disable(logging.WARNING)
    import lm_eval
    from lm_eval.tasks import TaskManager

    runs = values = differing = 0
    for case in range(args.start, args.start + args.cases):
        data = made_up(10_000 + case)
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            manager = TaskManager(include_path=str(task_configs(data, folder)))
            for generations in data["systems"]:
                model = Replay.__new__(Replay)
                lm_eval.api.model.LM.__init__(model)
                model.generations = generations
                results = lm_eval.simple_evaluate(
                    model=model,
                    tasks=[GROUP, f"{GROUP}_en"],
                    task_manager=manager,
                    log_samples=False,
                    verbosity="ERROR",
                )["results"]
                runs += 1
                official = {
                    language: _official_language(
                        script,
                        [r for r in data["rows"] if r["id"].startswith(language + "-")],
                        generations,
                        folder,
                    )
                    for language in LANGUAGES
                }
                expected = {}
                for language in LANGUAGES:
                    for key in ("exact_match", "f1"):
                        expected[(f"{GROUP}_{CODES[language]}", key)] = official[language][key]
                for key in ("exact_match", "f1"):
                    total = 0
                    for language in AVERAGED:  # the official order, from the int 0
                        total = total + official[language][key]
                    expected[(GROUP, key)] = total / len(AVERAGED)
                for (task, key), value in expected.items():
                    values += 1
                    got = results[task][f"taskeval_{key},none"]
                    if got != value:
                        differing += 1
                        print(f"case {case}: {task} {key}: harness {got!r}, official {value!r}")
    print(
        f"tydiqa_goldp:lm_eval, Python {sys.version.split()[0]}, lm_eval "
        f"{lm_eval.__version__ if hasattr(lm_eval, '__version__') else '?'}: {runs} runs, "
        f"{values} values, {differing} differing"
    )
    return 1 if differing else 0
