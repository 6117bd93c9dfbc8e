"""SciFact: our scoring core vs ``compute()`` vs the CLI, on the real dev gold scaled up.

    python bench/bench_scifact.py [--n 100000] [--repeat 5] [--predictions dev_multivers_covidfact_ckpt]

Data: the real SciFact dev gold (300 claims, CC BY 4.0) and a real prediction set on it, both from
the parity corpus, replicated in order to ``--n`` claims (claim ids renumbered 0..n-1 so they stay
unique). The official evaluator is not run here: its outputs on the unreplicated files are the
parity cases. Writes bench/scifact.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import machine, median_time, run_command, table, write_summary

CASES = Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "scifact" / "cases"


def replicate(rows: list[dict], n: int) -> list[dict]:
    return [{**rows[i % len(rows)], "id": i} for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--predictions", default="dev_multivers_covidfact_ckpt")
    args = parser.parse_args()

    import evaluate

    import taskeval
    from taskeval._metrics.scifact_abstract.scoring import (
        check_pairs,
        count,
        prediction_records,
        reference_records,
        scifact_scores,
    )

    load_before = os.getloadavg()[0]
    case = CASES / args.predictions
    dev = taskeval.read_official(
        "scifact_abstract", references=case / "gold.jsonl", predictions=case / "predictions.jsonl"
    )
    predictions = replicate(dev["predictions"], args.n)
    references = replicate(dev["references"], args.n)

    t_core, ours = median_time(lambda: scifact_scores(predictions, references), args.repeat)
    preds, refs = prediction_records(predictions), reference_records(references)
    check_pairs(preds, refs)
    t_count, _ = median_time(lambda: count(preds, refs), args.repeat)
    few = max(1, args.repeat // 2)
    abstract, sentence = taskeval.load("scifact_abstract"), taskeval.load("scifact_sentence")
    both = evaluate.combine([abstract, sentence])
    t_abs, r_abs = median_time(
        lambda: abstract.compute(predictions=predictions, references=references), few
    )
    t_sent, r_sent = median_time(
        lambda: sentence.compute(predictions=predictions, references=references), few
    )
    t_both, r_both = median_time(
        lambda: both.compute(predictions=predictions, references=references), few
    )
    assert ours == {**r_abs, **r_sent} == r_both

    def through_arrow(metric):
        metric.add_batch(predictions=predictions, references=references)
        return metric.compute()

    t_arrow, r_arrow = median_time(lambda: through_arrow(abstract), few)
    t_det_abs, d_abs = median_time(
        lambda: abstract.compute(predictions=predictions, references=references, details=True), few
    )
    t_det_sent, d_sent = median_time(
        lambda: sentence.compute(predictions=predictions, references=references, details=True), few
    )
    assert r_arrow == r_abs
    n_abs, n_sent = len(d_abs.pop("details")), len(d_sent.pop("details"))
    assert d_abs == r_abs and d_sent == r_sent

    with tempfile.TemporaryDirectory() as tmp:
        gold_path, pred_path = Path(tmp) / "gold.jsonl", Path(tmp) / "predictions.jsonl"
        with open(gold_path, "w", encoding="utf-8") as f:
            for r in references:
                evidence: dict[str, list] = {}
                for e in r["evidence"]:
                    item = {"sentences": e["sentences"], "label": e["label"]}
                    evidence.setdefault(e["doc_id"], []).append(item)
                f.write(json.dumps({"id": r["id"], "evidence": evidence}) + "\n")
        with open(pred_path, "w", encoding="utf-8") as f:
            for p in predictions:
                evidence = {
                    e["doc_id"]: {"sentences": e["sentences"], "label": e["label"]}
                    for e in p["evidence"]
                }
                f.write(json.dumps({"id": p["id"], "evidence": evidence}) + "\n")
        cli = [sys.executable, "-m", "taskeval", "score", "scifact_abstract"]
        t_cli, rss_cli = run_command(
            [*cli, "--references", str(gold_path), "--predictions", str(pred_path)], repeat=3
        )

    def row(what: str, seconds: float) -> list[str]:
        return [what, f"{seconds:.3f}", f"{seconds / t_core:.2f}"]

    rows = [
        row("scoring core `scifact_scores` (check + count, all 12 numbers)", t_core),
        row("scoring core, counting only (rows already checked)", t_count),
        row("`taskeval.load('scifact_abstract').compute()`", t_abs),
        row("`taskeval.load('scifact_sentence').compute()`", t_sent),
        row("`evaluate.combine([both]).compute()` (12 numbers)", t_both),
        row("`scifact_abstract`: `add_batch()` then `compute()` (evaluate's Arrow path)", t_arrow),
        row(f"`scifact_abstract.compute(details=True)` ({n_abs:,} records)", t_det_abs),
        row(f"`scifact_sentence.compute(details=True)` ({n_sent:,} records)", t_det_sent),
        row(f"`taskeval score scifact_abstract` CLI (read + score; peak {rss_cli:.0f} MB)", t_cli),
    ]
    report = f"""# SciFact benchmark

Machine: {machine()}; load average {load_before:.1f} at the start and {os.getloadavg()[0]:.1f} at
the end (other jobs shared the CPUs, so single timings vary by up to 2x).
Command: `python bench/bench_scifact.py --n {args.n} --repeat {args.repeat} --predictions {args.predictions}`.
Data: the real SciFact dev gold (300 claims) with the `{args.predictions}` predictions of the
parity corpus, replicated to {args.n:,} claims ({sum(len(r["evidence"]) for r in references):,}
gold rationales, {sum(len(p["evidence"]) for p in predictions):,} predicted abstracts), in memory;
the CLI reads the same rows from official JSONL files. Medians of {args.repeat} runs (compute:
{few}, CLI: 3). All give identical numbers:
`{json.dumps(ours)}`.
`compute()` with all rows in one call of one process scores them directly (the same checks as
`add_batch`); rows added first go through evaluate's Arrow cache.

{table(["what", "median s", "ratio to core"], rows)}
"""
    write_summary(
        "scifact",
        [
            {
                "size": f"{args.n:,} claims (real dev gold, replicated)",
                "official": "not runnable here (source only on GitHub)",
                "core": f"{t_core:.2f} s (12 numbers)",
                "compute": f"abstract {t_abs:.2f} s, sentence {t_sent:.2f} s "
                f"({max(t_abs, t_sent) / t_core:.2f}× core)",
                "cli": f"{t_cli:.2f} s",
                "memory": f"CLI peak {rss_cli:.0f} MB",
                "verdict": "compute ≤ 2× core: "
                + ("met" if max(t_abs, t_sent) <= 2 * t_core else "missed"),
            }
        ],
    )
    out = Path(__file__).with_name("scifact.md")
    out.write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
