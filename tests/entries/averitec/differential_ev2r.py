"""averitec's Ev2R replay against FEVER-8's own ``EV2REvaluator`` methods (547e9f7): random
recorded judge answers (texts and objects, some not JSON, counts of 0, answers missing, ids out
of order or absent) scored by ``ev2r.scores`` and by the official methods.

    python scripts/differential/run.py averitec:ev2r --official DIR --python PYTHON --cases 2000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from official_files import run_official

from taskeval._metrics.averitec import ev2r

VERDICTS = ("Supported", "Refuted", "Not Enough Evidence")


def _answer(rng: random.Random, kind: str) -> object:
    side = "questions" if kind == "question" else "evidence"
    counts = {
        f"{what} {whose} {side}": rng.randint(0, 6)
        for what in ("support", "facts count")
        for whose in ("predicted", "reference")
    }
    way = rng.random()
    if way < 0.08:
        return "I cannot judge this."
    if way < 0.12:
        del counts[rng.choice(list(counts))]
    return json.dumps(counts) if rng.random() < 0.5 else counts


def recording(rng: random.Random, n: int) -> dict:
    def answers(kind: str) -> list:
        ids = list(range(n))
        if rng.random() < 0.3:
            rng.shuffle(ids)
        if rng.random() < 0.3:
            ids = ids[: rng.randint(0, n)]
        return [
            None if rng.random() < 0.05 else {"id": i, "response": _answer(rng, kind)} for i in ids
        ]

    return {"question": answers("question"), "qa_pair": answers("qa_pair")}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="run.py averitec:ev2r")
    parser.add_argument("--official", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    cases = []
    for k in range(args.cases):
        n = rng.randint(1, 15)
        labels = [[rng.choice(VERDICTS), rng.choice(VERDICTS)] for _ in range(n)]
        cases.append({"case": str(k), "recording": recording(rng, n), "labels": labels})
    outputs = run_official(args.python, args.official, "ev2r", cases)
    differing = values = 0
    for case in cases:
        want = outputs[case["case"]]["result"]
        got = ev2r.scores(case["recording"], [p == g for p, g in case["labels"]])
        for key, value in want.items():
            values += 1
            same = (math.isnan(value) and math.isnan(got[key])) or got[key] == value
            if not same:
                differing += 1
                print(case["case"], key, got[key], value)
    print(json.dumps({"recordings": len(cases), "values": values, "differing": differing}))
    return 1 if differing else 0
