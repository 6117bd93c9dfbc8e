"""``taskeval check`` against ``taskeval score`` on the same submission, at the real sizes.

    python bench/bench_check.py [--fever 20000] [--tydiqa 18670] [--goldp 5077] [--repeat 5]

A check must cost less than scoring the file it checks. Each set of commands runs in turn, a
fresh process each (``bench.common.alternate``: taskeval installed from its wheel, bytecode
compiled), so the load of the shared machine hits them alike:

* FEVER, a test-set-size submission (20,000 claims; the test set has 19,998): ``check`` with the
  unlabelled claims (``--inputs``, the ``shared_task_test.jsonl`` layout: id, claim) and with
  the gold (``--references``), against ``score`` with the gold. Data: ``bench_fever``'s
  synthetic profile, with ids.
* TyDi QA, dev size (18,670 examples, ``bench_tydiqa``'s generator: 11 languages, about 24 KB of
  document per example, gzip): ``check`` with the gold file as ``--inputs`` (the test file's
  layout plus annotations: documents and passage candidates to hold offsets to), against
  ``score`` with the same file.
* SciFact, dev size: the real dev gold (300 claims, CC BY 4.0) and a real prediction set of the
  parity corpus (``dev_multivers_fever_ckpt``), ``check`` and ``score`` with the gold.
* eHealth-KD 2019: a real submission of the parity corpus (``abravo__576683``, its three
  scenarios) against the real gold folder.
* TyDi QA GoldP, dev size (5,077 questions in 9 languages, made up here: a context of a few
  hundred words per question, its answer and the prediction spans of it), ``check`` and ``score`` with the gold.

Writes bench/check.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import bench_fever, bench_tydiqa
from bench.common import PARITY, alternate, installed, load_note, machine, table

HERE = Path(__file__).resolve().parent


def fever_files(folder: Path, n: int) -> dict[str, Path]:
    predictions, references = bench_fever.synthetic(n)
    paths = {k: folder / f"fever_{k}.jsonl" for k in ("predictions", "test", "gold")}
    with (
        open(paths["predictions"], "w", encoding="utf-8") as p,
        open(paths["test"], "w", encoding="utf-8") as t,
        open(paths["gold"], "w", encoding="utf-8") as g,
    ):
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            fields = {k: pred[k] for k in ("predicted_label", "predicted_evidence")}
            p.write(json.dumps({"id": i, **fields}) + "\n")
            t.write(json.dumps({"id": i, "claim": f"claim {i}"}) + "\n")
            g.write(json.dumps({"id": i, "label": ref["label"], "evidence": ref["evidence"]}))
            g.write("\n")
    return paths


def tydiqa_files(folder: Path, n: int) -> tuple[Path, Path]:
    """``bench_tydiqa``'s files, the predictions completed with a null answer for each example
    the generator leaves without one: a clean submission, which ``check`` passes (exit 0)."""
    gold, preds = bench_tydiqa.generate(folder, n)
    with gzip.open(gold, "rt", encoding="utf-8") as f:
        examples = [(r["example_id"], r["language"]) for r in map(json.loads, f)]
    with open(preds, encoding="utf-8") as f:
        predicted = {json.loads(line)["example_id"] for line in f}
    with open(preds, "a", encoding="utf-8") as f:
        for example_id, language in examples:
            if example_id not in predicted:
                null = {"start_byte_offset": -1, "end_byte_offset": -1}
                f.write(json.dumps({
                    "example_id": example_id, "language": language, "passage_answer_index": -1,
                    "passage_answer_score": 0.0, "minimal_answer": null,
                    "minimal_answer_score": 0.0, "yes_no_answer": "NONE",
                }) + "\n")  # fmt: skip
    return gold, preds


GOLDP_LANGUAGES = (
    "arabic", "bengali", "english", "finnish", "indonesian", "korean", "russian", "swahili",
    "telugu",
)  # fmt: skip


def goldp_files(folder: Path, n: int, seed: int = 0) -> tuple[Path, Path]:
    """A GoldP-like gold file (SQuAD 1.1 layout, one paragraph per question) and predictions
    (one JSON object, id: text), ``n`` questions spread over the languages."""
    rng = random.Random(seed)
    words = ["".join(rng.choices("abcdefghijklmnopqrstuvwxyzåäö", k=rng.randint(2, 9)))
             for _ in range(5000)]  # fmt: skip
    data, predictions = [], {}
    for i in range(n):
        language = GOLDP_LANGUAGES[i % len(GOLDP_LANGUAGES)]
        context = " ".join(rng.choices(words, k=rng.randint(80, 200)))
        tokens = context.split()
        start = rng.randrange(len(tokens) - 4)
        answer = " ".join(tokens[start : start + rng.randint(1, 4)])
        qid = f"{language}-{rng.getrandbits(62)}-{i % 3}"
        qa = {"id": qid, "question": "?", "answers": [{"text": answer, "answer_start": 0}]}
        data.append({"title": "t", "paragraphs": [{"context": context, "qas": [qa]}]})
        other = rng.randrange(len(tokens) - 2)  # a wrong answer: another span of the context
        predictions[qid] = answer if rng.random() < 0.6 else " ".join(tokens[other : other + 2])
    gold, preds = folder / "goldp_gold.json", folder / "goldp_predictions.json"
    gold.write_text(json.dumps({"version": "1.1", "data": data}, ensure_ascii=False), "utf-8")
    preds.write_text(json.dumps(predictions, ensure_ascii=False), "utf-8")
    return gold, preds


RUNS_HEADER = ["size", "command", "runs (wall s)", "wall median", "CPU median", "peak MB", "load"]
RATIOS_HEADER = [
    "size", "check", "score (wall)", "check (wall)", "check / score (wall)", "check / score (CPU)"
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fever", type=int, default=20_000)
    parser.add_argument("--tydiqa", type=int, default=18_670)
    parser.add_argument("--goldp", type=int, default=5_077)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    _, taskeval = installed()
    rows, runs_table = [], []
    with tempfile.TemporaryDirectory(prefix="taskeval-bench-check-") as tmp:
        folder = Path(tmp)
        fever = fever_files(folder, args.fever)
        gold, preds = tydiqa_files(folder, args.tydiqa)
        goldp_gold, goldp_preds = goldp_files(folder, args.goldp)
        scifact = PARITY / "scifact" / "cases" / "dev_multivers_fever_ckpt"
        ehealthkd = PARITY / "ehealthkd" / "real"
        ehealthkd_run = ehealthkd / "cases" / "abravo__576683" / "submission"
        cases = [
            (
                f"FEVER, {args.fever:,} claims",
                {
                    "score --references": [taskeval, "score", "fever_score",
                        "--predictions", str(fever["predictions"]), "--references", str(fever["gold"])],
                    "check --inputs": [taskeval, "check", "fever_score",
                        "--predictions", str(fever["predictions"]), "--inputs", str(fever["test"])],
                    "check --references": [taskeval, "check", "fever_score",
                        "--predictions", str(fever["predictions"]), "--references", str(fever["gold"])],
                },
            ),
            (
                f"TyDi QA, {args.tydiqa:,} examples (gzip, {gold.stat().st_size / 1e6:.0f} MB)",
                {
                    "score --references": [taskeval, "score", "tydiqa",
                        "--predictions", str(preds), "--references", str(gold)],
                    "check --inputs": [taskeval, "check", "tydiqa",
                        "--predictions", str(preds), "--inputs", str(gold)],
                },
            ),
            (
                "SciFact dev, 300 claims (real gold and run)",
                {
                    "score --references": [taskeval, "score", "scifact_abstract",
                        "--predictions", str(scifact / "predictions.jsonl"),
                        "--references", str(scifact / "gold.jsonl")],
                    "check --references": [taskeval, "check", "scifact_abstract",
                        "--predictions", str(scifact / "predictions.jsonl"),
                        "--references", str(scifact / "gold.jsonl")],
                },
            ),
            (
                "eHealth-KD 2019, a real run (abravo__576683), 3 scenarios",
                {
                    "score --references": [taskeval, "score", "ehealthkd",
                        "--predictions", str(ehealthkd_run), "--references", str(ehealthkd / "gold")],
                    "check --references": [taskeval, "check", "ehealthkd",
                        "--predictions", str(ehealthkd_run), "--references", str(ehealthkd / "gold")],
                },
            ),
            (
                f"TyDi QA GoldP, {args.goldp:,} questions",
                {
                    "score --references": [taskeval, "score", "tydiqa_goldp",
                        "--predictions", str(goldp_preds), "--references", str(goldp_gold)],
                    "check --references": [taskeval, "check", "tydiqa_goldp",
                        "--predictions", str(goldp_preds), "--references", str(goldp_gold)],
                },
            ),
        ]  # fmt: skip
        for size, commands in cases:
            before = os.getloadavg()[0]
            runs = alternate(commands, args.repeat)
            loads = f"{before:.1f} / {os.getloadavg()[0]:.1f}"
            score = runs["score --references"]
            for name, run in runs.items():
                runs_table.append(
                    [size, f"`{name}`", ", ".join(f"{w:.2f}" for w in run.walls),
                     f"{run.median:.3f}", f"{run.cpu_median:.3f}", f"{run.peak_mb:.0f}", loads]
                )  # fmt: skip
                if name != "score --references":
                    rows.append([size, f"`{name}`", f"{score.median:.3f} s", f"{run.median:.3f} s",
                                 f"**{run.median / score.median:.2f}**",
                                 f"{run.cpu_median / score.cpu_median:.2f}"])  # fmt: skip
    report = [
        "# `taskeval check` against `taskeval score`",
        "",
        f"Machine: {machine()}; {load_note(load)}.",
        f"Command: `python bench/bench_check.py --fever {args.fever} --tydiqa {args.tydiqa} "
        f"--goldp {args.goldp} --repeat {args.repeat}`.",
        "Each command a fresh process of taskeval installed from its wheel, the commands of a "
        "size taken in turn, at normal priority. Data: see the script's docstring (FEVER: "
        "`bench_fever`'s synthetic profile with ids, and a test file of id and claim; TyDi QA: "
        "`bench_tydiqa`'s dev-like generator, the gold file serving as the test inputs; SciFact "
        "and eHealth-KD: real files of the parity corpus; GoldP: made up here).",
        "",
        "Runs (wall s), medians of wall and CPU time (user + system, every thread) and peak "
        "memory, with the load average (1 minute) before and after each size's runs:",
        "",
        table(RUNS_HEADER, runs_table),
        "",
        "Check against score, medians of the same runs (target: below 1):",
        "",
        table(RATIOS_HEADER, rows),
        "",
    ]
    (HERE / "check.md").write_text("\n".join(report), encoding="utf-8")
    print("\n".join(report))


if __name__ == "__main__":
    main()
