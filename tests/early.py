"""Commands that tests start when the run begins and read at their end: slow subprocesses (a
test suite in another environment, commands under several BLAS settings) then run on the CPU
the rest of the run leaves idle, mostly one of two, rather than after it.

A test module lists its commands in ``EARLY`` (key -> ``Command``); ``conftest.py`` starts the
commands of every collected module. ``result(key)`` waits for a command (starting it if no one
has, as when the test runs alone) and gives its exit status and output."""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass, field


@dataclass
class Command:
    argv: list[str]
    env: dict[str, str] | None = None
    cwd: str | None = None


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


@dataclass
class _Running:
    process: subprocess.Popen
    out: object = field(repr=False)
    err: object = field(repr=False)


_running: dict[str, _Running] = {}


def start(key: str, command: Command) -> None:
    """Start ``command`` under ``key`` unless it runs already. Its output goes to temporary files
    (a pipe no one reads would stop it once full)."""
    if key in _running:
        return
    out, err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
    process = subprocess.Popen(
        command.argv, env=command.env, cwd=command.cwd, stdout=out, stderr=err, text=True
    )
    _running[key] = _Running(process, out, err)


def result(key: str, command: Command) -> Done:
    """The exit status and output of ``command``, started under ``key`` now if not before."""
    start(key, command)
    running = _running.pop(key)
    returncode = running.process.wait()
    outputs = []
    for stream in (running.out, running.err):
        stream.seek(0)
        outputs.append(stream.read())
        stream.close()
    return Done(returncode, *outputs)


def stop_all() -> None:
    """Stop what no test came to read (a run stopped early, or deselected tests)."""
    for running in _running.values():
        running.process.kill()
        running.process.wait()
        running.out.close()
        running.err.close()
    _running.clear()
