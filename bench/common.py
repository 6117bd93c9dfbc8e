"""Shared benchmark plumbing: machine description, medians, peak memory, markdown output."""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}, {platform.system()}"


def median_time(fn: Callable[[], Any], repeat: int = 5) -> tuple[float, Any]:
    """Median wall time of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def run_command(argv: list[str], repeat: int = 3) -> tuple[float, float]:
    """Median wall time (s) and peak RSS (MB) of a command run ``repeat`` times."""
    times, peaks = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - start)
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"{argv} failed")
        peaks.append(usage.ru_maxrss / 1024)
    return statistics.median(times), max(peaks)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


RESULTS = Path(__file__).with_name("results")


def write_summary(task: str, rows: list[dict[str, Any]]) -> None:
    """Rows of the table in bench/README.md (see bench/__main__.py), one file per benchmark.

    Keys: size, official, core, compute, cli, memory, verdict (all text)."""
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{task}.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
