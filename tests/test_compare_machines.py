"""The same numbers on every machine: ``compare``, approximate randomization and ``score --ci``
print the same bytes, and the pinned record holds, under every OpenBLAS kernel and thread count.

numpy's matrix products go to OpenBLAS, which picks a kernel for the CPU (``OPENBLAS_CORETYPE``
forces one) and splits the work among threads (``OPENBLAS_NUM_THREADS``); each choice may add a
float sum in another order. Each setting runs in a process of its own, as the variables are read
when numpy loads. FEVER is the metric whose resampled sums are fractions, on claims enough that
a kernel's blocking splits them.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from entries.fever_score import random_rows

pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parent
KERNELS = ("SkylakeX", "Haswell", "Prescott", "Sandybridge")
SETTINGS = [(kernel, threads) for kernel in KERNELS for threads in (1, 2)]


def _environment(kernel: str, threads: int) -> dict[str, str]:
    return {
        **os.environ,
        "OPENBLAS_CORETYPE": kernel,
        "OPENBLAS_NUM_THREADS": str(threads),
        "OMP_NUM_THREADS": str(threads),
    }


def _each_setting(run) -> dict[tuple[str, int], object]:
    with ThreadPoolExecutor(2) as pool:
        return dict(zip(SETTINGS, pool.map(lambda setting: run(*setting), SETTINGS)))


def test_the_pinned_record_holds_under_every_blas_kernel_and_thread_count():
    def run(kernel: str, threads: int) -> subprocess.CompletedProcess:
        files = [str(TESTS / "test_compare_pinned.py"), str(TESTS / "test_compare_order.py")]
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
            env=_environment(kernel, threads),
            capture_output=True,
            text=True,
            cwd=TESTS.parent,
        )

    for setting, done in _each_setting(run).items():
        assert done.returncode == 0, (setting, done.stdout[-3000:], done.stderr[-2000:])


def _files(folder: Path, n: int = 3000) -> tuple[Path, list[Path]]:
    rng = random.Random(32)
    gold = random_rows(rng, n)["references"]
    paths = []
    for name in ("a", "b"):
        rows = random_rows(rng, n)["predictions"]
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), "utf-8")
        paths.append(path)
    references = folder / "gold.jsonl"
    references.write_text("".join(json.dumps(row) + "\n" for row in gold), "utf-8")
    return references, paths


def test_compare_randomization_and_ci_print_the_same_bytes_everywhere(tmp_path):
    references, (a, b) = _files(tmp_path)
    common = ["--references", str(references), "--resamples", "400"]
    both = ["compare", "fever_score", *common, "--predictions", str(a), str(b)]
    commands = [
        both,
        [*both, "--table"],
        [*both, "--method", "randomization", "--max-evidence", "none"],
        ["score", "fever_score", *common, "--predictions", str(a), "--ci"],
    ]

    def run(kernel: str, threads: int) -> list[str]:
        outputs = []
        for command in commands:
            done = subprocess.run(
                [sys.executable, "-m", "taskeval", *command],
                env=_environment(kernel, threads),
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, (kernel, threads, command, done.stderr)
            outputs.append(done.stdout)
        return outputs

    printed = _each_setting(run)
    first = printed[SETTINGS[0]]
    assert all("." in out for out in first)
    for setting, outputs in printed.items():
        for command, out, expected in zip(commands, outputs, first):
            assert out == expected, (setting, command)
