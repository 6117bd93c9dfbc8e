"""The same numbers on every machine: ``compare``, approximate randomization and ``score --ci``
print the same bytes, and the pinned record holds, under every OpenBLAS kernel and thread count.

numpy's matrix products go to OpenBLAS, which picks a kernel for the CPU (``OPENBLAS_CORETYPE``
forces one) and splits the work among threads (``OPENBLAS_NUM_THREADS``); each choice may add a
float sum in another order. Each setting runs in a process of its own (``machine_run.py``), as
the variables are read when numpy loads; the processes start with the test run (``early``).
FEVER is the metric whose resampled sums are fractions, on claims enough that a kernel's
blocking splits them.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

import pytest

import early
from entries.fever_score import random_rows
from machine_run import commands

pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parent
KERNELS = ("SkylakeX", "Haswell", "Prescott", "Sandybridge")
SETTINGS = [(kernel, threads) for kernel in KERNELS for threads in (1, 2)]
_FOLDER: list[Path] = []


def _files() -> Path:
    """Two systems' FEVER predictions and a gold of 3,000 claims, made once per run."""
    if not _FOLDER:
        folder = Path(tempfile.mkdtemp(prefix="taskeval-machines-"))
        rng = random.Random(32)
        gold = random_rows(rng, 3000)["references"]
        for name in ("a", "b"):
            rows = random_rows(rng, 3000)["predictions"]
            (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        (folder / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in gold))
        _FOLDER.append(folder)
    return _FOLDER[0]


def early_commands() -> dict[str, early.Command]:
    folder = _files()
    return {
        f"machine {kernel} {threads}": early.Command(
            [sys.executable, str(TESTS / "machine_run.py"), str(folder)],
            env={
                **os.environ,
                "OPENBLAS_CORETYPE": kernel,
                "OPENBLAS_NUM_THREADS": str(threads),
                "OMP_NUM_THREADS": str(threads),
            },
            cwd=str(TESTS.parent),
        )
        for kernel, threads in SETTINGS
    }


def test_the_pinned_record_and_the_printed_bytes_under_every_blas_kernel_and_thread_count():
    runs = {}
    for key, command in early_commands().items():
        done = early.result(key, command)
        assert done.returncode == 0, (key, done.stderr[-3000:])
        runs[key] = json.loads(done.stdout)
    first = runs[next(iter(runs))]["commands"]
    assert all(code == 0 and "." in out for code, out in first), first
    for key, run in runs.items():
        assert run["pytest"] == 0, (key, run["pytest_output"])
        for argv, printed, expected in zip(commands(_files()), run["commands"], first):
            assert printed == expected, (key, argv)
