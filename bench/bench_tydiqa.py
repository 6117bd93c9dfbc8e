"""Benchmark ``taskeval score tydiqa`` on dev-like data: wall time and peak memory.

    python bench/bench_tydiqa.py [--sizes 18670 200000] [--repeat 3] [--keep DIR]

Generates, into a temporary folder deleted afterwards (unless ``--keep``), a gold file in the
layout of ``tydiqa-v1.0-dev.jsonl.gz`` (11 languages, 3 annotators, about 24 KB of UTF-8
document text per example, keys sorted and compact as in the real file, gzip level 6) and a
prediction file, then runs the CLI in a fresh process per repetition and prints one JSON line
per size with the median wall time and the peak RSS (``ru_maxrss`` of the child).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import median_time, write_summary

# The official tydi_eval.py on this machine class (spec): (wall s, peak MB) per size.
OFFICIAL = {18_670: (5.7, 467), 200_000: (66.8, 4840)}

LANGUAGES = {
    # language: (first code point, size of the alphabet, share of dev examples in ‰)
    "arabic": (0x0627, 28, 74),
    "bengali": (0x0985, 40, 18),
    "english": (0x0061, 26, 55),
    "finnish": (0x0061, 26, 112),
    "indonesian": (0x0061, 26, 97),
    "japanese": (0x3041, 80, 92),
    "korean": (0xAC00, 400, 91),
    "russian": (0x0430, 32, 87),
    "swahili": (0x0061, 26, 123),
    "telugu": (0x0C05, 45, 133),
    "thai": (0x0E01, 46, 120),
}
DOC_BYTES = 24_000
DOCS_PER_LANGUAGE = 64  # a pool of documents per language, reused across examples


def _vocabulary(rng: random.Random, first: int, size: int) -> list[str]:
    letters = [chr(first + i) for i in range(size)]
    return ["".join(rng.choices(letters, k=rng.randint(2, 9))) for _ in range(3000)]


def _document(rng: random.Random, words: list[str], cumulative: list[float]) -> str:
    out, size = [], 0
    while size < DOC_BYTES:
        sentence = " ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(6, 20)))
        sentence += ". "
        if rng.random() < 0.15:
            sentence += "\n"
        out.append(sentence)
        size += len(sentence.encode("utf-8"))
    return "".join(out)


def _annotation(rng: random.Random, candidates: int, answer: int) -> dict:
    null = {"plaintext_start_byte": -1, "plaintext_end_byte": -1}
    if answer < 0 or rng.random() < 0.25:
        return {
            "annotation_id": rng.getrandbits(64),
            "minimal_answer": null,
            "passage_answer": {"candidate_index": -1},
            "yes_no_answer": "NONE",
        }
    if rng.random() < 0.04:
        return {
            "annotation_id": rng.getrandbits(64),
            "minimal_answer": null,
            "passage_answer": {"candidate_index": answer},
            "yes_no_answer": rng.choice(["YES", "NO"]),
        }
    start = answer * 500 + rng.randint(0, 300)
    span = {"plaintext_start_byte": start, "plaintext_end_byte": start + rng.randint(3, 60)}
    if rng.random() < 0.2:
        span = null
    return {
        "annotation_id": rng.getrandbits(64),
        "minimal_answer": span,
        "passage_answer": {"candidate_index": answer},
        "yes_no_answer": "NONE",
    }


def generate(folder: Path, n: int, seed: int = 0) -> tuple[Path, Path]:
    """Gold ``dev.jsonl.gz`` and ``preds.jsonl`` with ``n`` examples in ``folder``."""
    rng = random.Random(seed)
    pools, names, shares = {}, list(LANGUAGES), [LANGUAGES[k][2] for k in LANGUAGES]
    for name, (first, size, _) in LANGUAGES.items():
        words = _vocabulary(rng, first, size)
        cumulative = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(words))))
        pools[name] = [_document(rng, words, cumulative) for _ in range(DOCS_PER_LANGUAGE)]
    shares = list(itertools.accumulate(shares))
    # Documents are serialised once per pool; each line is assembled in the dev file's layout
    # (keys sorted, compact separators, raw UTF-8).
    docs = {k: [_compact(d) for d in v] for k, v in pools.items()}
    candidates = DOC_BYTES // 500
    passages = _compact(
        [
            {"plaintext_end_byte": i * 500 + 480, "plaintext_start_byte": i * 500}
            for i in range(candidates)
        ]
    )
    gold, preds = folder / "dev.jsonl.gz", folder / "preds.jsonl"
    with (
        gzip.open(gold, "wt", encoding="utf-8", compresslevel=6) as g,
        open(preds, "w", encoding="utf-8") as p,
    ):
        for _ in range(n):
            language = rng.choices(names, cum_weights=shares)[0]
            example_id = rng.getrandbits(64) - 2**63
            answer = rng.randrange(candidates) if rng.random() < 0.55 else -1
            annotations = [_annotation(rng, candidates, answer) for _ in range(3)]
            g.write(
                f'{{"annotations":{_compact(annotations)},'
                f'"document_plaintext":{rng.choice(docs[language])},'
                f'"document_title":"title {example_id}",'
                f'"document_url":"https://{language}.wikipedia.org/wiki/{example_id}",'
                f'"example_id":{example_id},"language":"{language}",'
                f'"passage_answer_candidates":{passages},'
                f'"question_text":"question {example_id}?"}}\n'
            )
            if rng.random() < 0.02:
                continue  # a missing prediction
            guess = answer if rng.random() < 0.6 else rng.randrange(-1, candidates)
            start = max(guess, 0) * 500 + rng.randint(0, 300)
            span = (start, start + rng.randint(3, 60)) if guess >= 0 else (-1, -1)
            score = round(rng.gauss(0, 2), rng.choice([1, 17]))
            p.write(
                json.dumps(
                    {
                        "example_id": example_id,
                        "language": language,
                        "passage_answer_index": guess,
                        "passage_answer_score": score,
                        "minimal_answer": {
                            "start_byte_offset": span[0],
                            "end_byte_offset": span[1],
                        },
                        "minimal_answer_score": score - abs(rng.gauss(0, 0.5)),
                        "yes_no_answer": "NONE",
                    }
                )
                + "\n"
            )
    return gold, preds


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def measure(gold: Path, preds: Path) -> tuple[float, float, float, dict]:
    """One fresh ``taskeval score tydiqa`` process: (wall s, CPU s, peak RSS MB, output)."""
    command = [sys.executable, "-m", "taskeval", "score", "tydiqa",
               "--references", str(gold), "--predictions", str(preds)]  # fmt: skip
    # A fresh interpreter per run: its RUSAGE_CHILDREN figures are this child's alone.
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "out = subprocess.run(sys.argv[1:], check=True, capture_output=True).stdout; "
        "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(time.perf_counter() - t, r.ru_utime + r.ru_stime, r.ru_maxrss); "
        "sys.stdout.flush(); sys.stdout.buffer.write(out)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *command], check=True, capture_output=True, text=True
    )
    first, output = done.stdout.split("\n", 1)
    wall, cpu, rss_kb = first.split()
    return float(wall), float(cpu), int(rss_kb) / 1024, json.loads(output)


def measure_inflate(gold: Path) -> float:
    """Wall seconds of a fresh process that only inflates the gold file (the floor for any
    reader of a single-stream gzip file: deflate decodes sequentially, on one core)."""
    code = (
        "import gzip, sys, time; t = time.perf_counter(); f = gzip.open(sys.argv[1], 'rb')\n"
        "while f.read(1 << 22): pass\n"
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(gold)], check=True, capture_output=True, text=True
    )
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[18_670, 200_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--keep", help="generate into this folder and keep the files (reused when present)"
    )
    args = parser.parse_args()
    print(
        json.dumps(
            {
                "nproc": os.cpu_count(),
                "python": platform.python_version(),
                "machine": platform.processor() or platform.machine(),
            }
        )
    )
    summary = []
    for n in args.sizes:
        with tempfile.TemporaryDirectory(prefix="tydiqa-bench-") as tmp:
            folder = Path(args.keep or tmp) / f"n{n}"
            folder.mkdir(parents=True, exist_ok=True)
            t = time.perf_counter()
            gold, preds = folder / "dev.jsonl.gz", folder / "preds.jsonl"
            if not (args.keep and gold.exists() and preds.exists()):
                gold, preds = generate(folder, n)
            made = time.perf_counter() - t
            runs = [measure(gold, preds) for _ in range(args.repeat)]
            inflate = [measure_inflate(gold) for _ in range(args.repeat)]
            print(
                json.dumps(
                    {
                        "examples": n,
                        "gold_gz_mb": round(gold.stat().st_size / 1e6, 1),
                        "gold_raw_mb_approx": round(_raw_size(gold) / 1e6, 1),
                        "generate_s": round(made, 1),
                        "wall_s": [round(w, 2) for w, _, _, _ in runs],
                        "median_wall_s": round(statistics.median(w for w, _, _, _ in runs), 2),
                        "median_cpu_s": round(statistics.median(c for _, c, _, _ in runs), 2),
                        "peak_rss_mb": round(max(m for _, _, m, _ in runs), 1),
                        "inflate_only_s": [round(w, 2) for w in inflate],
                        "median_inflate_only_s": round(statistics.median(inflate), 2),
                        "load_average": os.getloadavg()[0],
                        "avg_passage_f1": runs[0][3]["avg_passage_f1"],
                        "avg_minimal_f1": runs[0][3]["avg_minimal_f1"],
                    }
                ),
                flush=True,
            )
            wall = statistics.median(w for w, _, _, _ in runs)
            peak = max(m for _, _, m, _ in runs)
            official_s, official_mb = OFFICIAL.get(n, (None, None))
            row = {
                "size": f"{n:,} examples (dev-like, synthetic)",
                "official": f"{official_s} s, {official_mb} MB (spec)" if official_s else "—",
                "core": "—",
                "compute": "—",
                "cli": f"{wall:.2f} s"
                + (f" ({official_s / wall:.1f}× faster)" if official_s else ""),
                "memory": f"CLI peak {peak:.0f} MB"
                + (f" (1/{official_mb / peak:.0f} of official)" if official_mb else ""),
                "verdict": "—",
            }
            if n == args.sizes[0]:
                row.update(_core_and_compute(gold, preds))
            if official_s and n >= 200_000:
                fast, small = official_s / wall >= 5, peak <= official_mb / 10
                row["verdict"] = (
                    f"≥ 5× faster: {'met' if fast else f'missed ({official_s / wall:.1f}×)'}; "
                    f"≤ 1/10 memory: {'met' if small else 'missed'} (see tydiqa.md)"
                )
            summary.append(row)
    write_summary("tydiqa", summary)


def _core_and_compute(gold: Path, preds: Path) -> dict[str, str]:
    """The scoring core and compute() on the rows read from the files, in this process."""
    import taskeval
    from taskeval._metrics.tydiqa.scoring import tydiqa_score

    inputs = taskeval.read_official("tydiqa", references=gold, predictions=preds)
    t_core, expected = median_time(lambda: tydiqa_score(**inputs), 3)
    metric = taskeval.load("tydiqa")
    t_compute, got = median_time(lambda: metric.compute(**inputs), 3)
    assert got == expected
    return {
        "core": f"{t_core:.2f} s",
        "compute": f"{t_compute:.2f} s ({t_compute / t_core:.2f}× core)",
    }


def _raw_size(gold: Path) -> int:
    size = 0
    with gzip.open(gold, "rb") as f:
        while chunk := f.read(1 << 22):
            size += len(chunk)
    return size


if __name__ == "__main__":
    main()
