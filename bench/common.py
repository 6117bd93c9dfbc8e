"""Shared benchmark plumbing: machine description, medians, peak memory, markdown output."""

from __future__ import annotations

import argparse
import atexit
import functools
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PARITY = REPO.parent / "shared" / "parity"  # the parity corpus, beside the checkout


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}, {platform.system()}"


SMALL_RUNS = 21  # whole-process runs of a small file (tens of milliseconds each)


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

    Keys: size, what, official, taskeval, ratio, target, verdict (all text); ``row`` makes them."""
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{task}.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# taskeval as users install it


@functools.cache
def installed() -> tuple[str, str]:
    """``(python, taskeval)``: the interpreter of a fresh virtual environment where taskeval is
    installed from its wheel, as ``pip install`` does, and its ``taskeval`` command.

    Whole-process runs use it on both sides, not this checkout's environment: the editable
    install's import finder loads pathlib and re into every process there, which would hide
    what taskeval itself imports. The other packages (the official scorers' included) are the
    running environment's, reached through a path file. Made once per run, removed at exit.
    """
    folder = _scratch("installed")
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(folder / "dist"), str(REPO)],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True
    )
    python = folder / "venv" / "bin" / "python"
    wheel = next((folder / "dist").glob("taskeval-*.whl"))
    subprocess.run(
        [*pip, "--python", str(python), "install", "--no-deps", str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    ours = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    (Path(site) / "_running_environment.pth").write_text("\n".join(sorted(ours)) + "\n")
    return str(python), str(folder / "venv" / "bin" / "taskeval")


# ---------------------------------------------------------------------------------------------
# The official scorers, run side by side with taskeval

OFFICIAL_ENV = "TASKEVAL_OFFICIAL"


def add_official_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--official",
        default=os.environ.get(OFFICIAL_ENV),
        help="folder holding the official checkouts (scifact-evaluator, ehealthkd-2019, tydiqa; "
        f"default ${OFFICIAL_ENV}); without it the figures of the specs are used",
    )


def official_checkout(folder: str | None, name: str, probe: str) -> Path | None:
    """``folder/name`` when it holds the file ``probe``, else None (the spec figures are used)."""
    if not folder:
        return None
    path = Path(folder) / name
    return path if (path / probe).exists() else None


@dataclass
class Run:
    """Wall times (s), the peak RSS (MB) and CPU times (user + system, s, every thread) of one
    command run several times."""

    walls: list[float]
    peak_mb: float
    cpus: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpus)


# Runs one command and prints its wall time, peak RSS and CPU time: a small fresh interpreter
# forks it, so the peak is the command's own (a child forked from a big benchmark process would
# inherit the benchmark's peak, which survives exec).
_PROBE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
    "wall = time.perf_counter() - t\n"
    "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(wall, used.ru_maxrss / 1024, used.ru_utime + used.ru_stime)"
)


def alternate(
    commands: dict[str, list[str]], repeat: int, cwd: dict[str, Path] | None = None
) -> dict[str, Run]:
    """Run each command in turn, ``repeat`` rounds: a change of the machine's load hits all of
    them alike. Each run is a fresh process; its output is discarded. A command without a
    ``cwd`` of its own runs in an empty folder, so that no module is found there.

    Modules run from their bytecode, compiled first (see ``compile_bytecode``).
    """
    compile_bytecode(REPO / "taskeval", REPO / "metrics", *(cwd or {}).values())
    runs = {name: Run([], 0.0) for name in commands}
    empty = _scratch("empty")
    for _ in range(repeat):
        for name, argv in commands.items():
            done = subprocess.run(
                [sys.executable, "-c", _PROBE, *argv],
                cwd=(cwd or {}).get(name, empty),
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise RuntimeError(f"{argv} failed: {done.stderr[-2000:]}")
            wall, peak, cpu = map(float, done.stdout.split())
            runs[name].walls.append(wall)
            runs[name].peak_mb = max(runs[name].peak_mb, peak)
            runs[name].cpus.append(cpu)
    return runs


@functools.cache
def _scratch(name: str) -> Path:
    """A folder of this run's, removed at exit."""
    folder = Path(tempfile.mkdtemp(prefix=f"taskeval-bench-{name}-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def compile_bytecode(*folders: Path) -> None:
    """Compile the modules of ``folders`` to bytecode, as installing a package does (pip compiles
    the official fever-scorer's): a process run from an editable checkout, or with
    ``PYTHONDONTWRITEBYTECODE`` set, would otherwise compile every module it imports, each run.

    The bytecode goes beside the sources, where installed packages keep theirs: a
    ``PYTHONPYCACHEPREFIX`` is dropped, for this process and the commands it runs, because under
    it a process looks for all bytecode in that prefix, finds none of numpy's or an official
    scorer's there, and compiles them again on every run."""
    import compileall

    os.environ.pop("PYTHONPYCACHEPREFIX", None)
    sys.pycache_prefix = None
    for folder in folders:
        compileall.compile_dir(folder, quiet=2)


def alternate_calls(calls: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """Wall times of in-process calls, run in turn ``repeat`` rounds."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, fn in calls.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def row(
    size: str,
    what: str,
    official: float,
    ours: float,
    target: float,
    unit: str = "s",
    source: str = "",
    note: str = "",
) -> dict[str, str]:
    """One row of the table: taskeval / official against the target ratio (at most); ``source``
    says where an official figure not measured in this run comes from."""
    ratio = ours / official

    def show(value: float) -> str:
        return f"{value:.0f} MB" if unit == "MB" else f"{value:.3g} s"

    return {
        "size": size,
        "what": what,
        "official": show(official) + (f" ({source})" if source else ""),
        "taskeval": show(ours) + (f" ({note})" if note else ""),
        "ratio": f"{ratio:.2f}",
        "target": f"≤ {target:g}",
        "verdict": "met" if ratio <= target else "missed",
    }


def load_note(start: float) -> str:
    end = os.getloadavg()[0]
    busy = max(start, end) > (os.cpu_count() or 1) + 0.5  # more runnable jobs than CPUs
    what = (
        "the machine was shared with other jobs, so single timings vary"
        if busy
        else "nothing else ran, beyond the benchmark's own processes"
    )
    return (
        f"load average {start:.1f} at the start and {end:.1f} at the end: {what}; medians of "
        "runs taken in turn (official, taskeval, official, ...) keep the ratios fair"
    )
