"""Build the parity cases of this entry with the official KILT scorers.

    python tests/entries/kilt/make_parity.py OFFICIAL_DIR OUT_DIR

``OFFICIAL_DIR`` holds KILT at commit 64e284a as ``kilt-64e284a`` and at 2664322 as ``kilt-head``;
PyPI ``rouge`` 1.0.1 must be importable (``nltk``, which ``kilt_utils`` imports and the scorers
never call, may be absent). Each case is a gold and a guess KILT file; its official output (under
this metric's key names, or null where the official scorer failed) goes to
``OUT_DIR/cases.jsonl``. Each scorer runs in a process of its own (both checkouts are the
package ``kilt``).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUTS = {"64e284a": "kilt-64e284a", "2664322": "kilt-head"}
FIXTURES = HERE / "fixtures"


README = """# Parity cases of `kilt`

Made by `../make_parity.py` with the official scorers (KILT at 64e284a and at 2664322, rouge
1.0.1), run outside this repository; `cases.jsonl` holds each case's options and the official
output (under this metric's key names; null where the official scorer failed).

- `kilt-tests-*`: KILT's own test fixtures (`tests/test_data`, MIT License; the notice is in
  `../fixtures/README.md`), each scored by both scripts.
- `random-*`: random records of `../random_records.py`, written for this project.
- `no-guess-for-an-id`, `two-guess-outputs`: two inputs the official scorer stops on.
"""


def official(checkout: Path, gold: Path, guess: Path, options: dict) -> dict | None:
    """The official scorer's output, flattened, or None when it raised."""
    script = f"""
import contextlib, io, json, sys, types
sys.path.insert(0, {str(checkout)!r})
try:
    import nltk
except ImportError:
    sys.modules["nltk"] = types.ModuleType("nltk")
from kilt import eval_downstream, eval_retrieval
options = json.loads({json.dumps(json.dumps(options))})
with contextlib.redirect_stdout(io.StringIO()):
    if options.get("evaluation", "downstream") == "downstream":
        out = eval_downstream.evaluate({str(gold)!r}, {str(guess)!r})
        flat = {{**out["kilt"], **out["downstream"], **out["retrieval"]}}
    else:
        flat = dict(eval_retrieval.evaluate({str(gold)!r}, {str(guess)!r},
                    options.get("ks") or [1, 5, 10, 20], options.get("rank_keys") or ["wikipedia_id"]))
print(json.dumps({{k: [type(v).__name__, repr(v)] for k, v in flat.items()}}))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    if done.returncode:
        return None
    out = json.loads(done.stdout.splitlines()[-1])
    return {k: {"float": float, "int": int, "bool": bool}[t](eval(v)) for k, (t, v) in out.items()}


def write(folder: Path, name: str, rows: list) -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def main() -> None:
    official_dir, out = Path(sys.argv[1]), Path(sys.argv[2])
    sys.path.insert(0, str(HERE))
    import random_records as cases  # the random records of the differential check

    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    made = []

    def case(name: str, gold: list | Path, guess: list | Path, note: str, **options) -> None:
        folder = out / name
        folder.mkdir()
        gold_path = (
            Path(shutil.copy(gold, folder / "gold.jsonl"))
            if isinstance(gold, Path)
            else write(folder, "gold.jsonl", gold)
        )
        guess_path = (
            Path(shutil.copy(guess, folder / "guess.jsonl"))
            if isinstance(guess, Path)
            else write(folder, "guess.jsonl", guess)
        )
        checkout = official_dir / CHECKOUTS[options.get("commit", "64e284a")]
        expected = official(checkout, gold_path, guess_path, options)
        made.append({"case": name, "options": options, "expected": expected, "note": note})

    for gold, guess in (("gold1", "guess1_1"), ("gold2", "guess2_1"), ("gold2", "guess2_2"),
                        ("gold3", "guess3_1")):  # fmt: skip
        for evaluation in ("downstream", "retrieval"):
            case(
                f"kilt-tests-{guess}-{evaluation}",
                FIXTURES / f"{gold}.jsonl",
                FIXTURES / f"{guess}.jsonl",
                "KILT's own test fixtures (tests/test_data, MIT)",
                evaluation=evaluation,
            )
    rng = random.Random(36)
    n = 0
    while n < 24:
        drawn = cases.random_case(rng)
        if not drawn["gold"]:
            continue
        n += 1
        evaluation = "downstream" if n % 2 else "retrieval"
        options: dict = {"evaluation": evaluation}
        if evaluation == "retrieval" and n % 4 == 0:
            options.update(ks=sorted(drawn["ks"]), rank_keys=drawn["rank_keys"])
        if n % 3 == 0:
            options["commit"] = "2664322"
        guess = drawn["guess"]
        if evaluation == "retrieval":
            guess = cases.with_answer_outputs(rng, guess)
        case(
            f"random-{n:02d}", drawn["gold"], guess, "random records of the differential", **options
        )
    gold = [
        {"id": 1, "input": "q", "output": [{"answer": "a", "provenance": [{"wikipedia_id": "1"}]}]}
    ]
    case("no-guess-for-an-id", gold, [{"id": 2, "output": [{"answer": "a"}]}],
         "the official scorer raises: no prediction for id 1")  # fmt: skip
    case("two-guess-outputs", gold, [{"id": 1, "output": [{"answer": "a"}, {"answer": "b"}]}],
         "the official scorer asserts one output per guess")  # fmt: skip
    (out / "README.md").write_text(README, encoding="utf-8")
    (out / "cases.jsonl").write_text("".join(json.dumps(m) + "\n" for m in made), encoding="utf-8")


if __name__ == "__main__":
    main()
