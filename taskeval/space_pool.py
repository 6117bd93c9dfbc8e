"""Worker processes for a Space's computations, each request with a time budget.

A request's computation runs in one of a few long-lived worker processes (``space_worker``,
which sets their memory budget), never in the server: a computation that overruns its time is
ended by killing its process, which is replaced, and the server and the other workers go on.
A worker is also replaced after a number of tasks, so that what a long run of requests leaves
in a process (caches, fragmented memory) never accumulates. Large requests (inputs over
``Limits.large_bytes``) share all workers but one, so that small ones are never held up by
them; a worker killed from outside is reported as such, and one found dead is never handed out.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from .space_worker import Limits, uploaded_files

# The worker imports this package by its own name ("taskeval", or the bundled copy's name in
# an exported Space), from the folder that holds it.
_BOOT = (
    "import importlib, sys; sys.path.insert(0, sys.argv[1]); "
    "importlib.import_module(sys.argv[2] + '.space_worker').main(sys.argv[3:])"
)
_PACKAGE = __name__.rpartition(".")[0]
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _Worker:
    def __init__(self, metric: str) -> None:
        task_read, task_write = os.pipe()
        reply_read, reply_write = os.pipe()
        env = {
            **os.environ,
            # One thread per numerical library: the budget is one computation, not a core each.
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                _BOOT,
                _ROOT,
                _PACKAGE,
                str(task_read),
                str(reply_write),
                metric,
            ],
            pass_fds=(task_read, reply_write),
            stdin=subprocess.DEVNULL,
            env=env,
        )
        os.close(task_read)
        os.close(reply_write)
        self.tasks = Connection(task_write, readable=False)
        self.replies = Connection(reply_read, writable=False)
        self.done = 0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.tasks.close()
        self.replies.close()


class Pool:
    """``size`` worker processes; ``run`` gives a task to a free one (waiting for one if all are
    busy) and returns its reply, or an error reply when it overruns ``limits.timeout``."""

    def __init__(self, metric: str, limits: Limits) -> None:
        self.metric, self.limits = metric, limits
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False
        # Large requests share all workers but one: a small request never waits for two big
        # ones (seconds to a minute each) when there is more than one worker.
        self._large = threading.BoundedSemaphore(max(limits.workers - 1, 1))
        self.waiting_large = 0  # large requests waiting for their share (tests look)
        for _ in range(max(limits.workers, 1)):
            self._replace()

    def _start(self) -> None:
        worker = _Worker(self.metric)
        with self._lock:
            if self._closed:
                worker.stop()
                return
            self._all.add(worker)
        self._idle.put(worker)

    def _replace(self, old: _Worker | None = None) -> None:
        """Stop ``old`` and start a worker in its place, in the background (a start imports the
        metric's libraries: a second or two the request need not wait for)."""
        if old is not None:
            with self._lock:
                self._all.discard(old)
            old.stop()
        threading.Thread(target=self._start, daemon=True).start()

    def _take(self) -> _Worker | None:
        """A free worker that still runs (waiting for one up to ``limits.timeout``); one that
        died while idle (killed from outside) is replaced, never handed to a request."""
        deadline = time.monotonic() + self.limits.timeout
        while True:
            try:  # waiting for a free worker is not the computation's time
                worker = self._idle.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                return None
            if worker.process.poll() is None:
                return worker
            self._replace(worker)

    def run(self, task: dict[str, Any]) -> dict[str, Any]:
        if input_bytes(task) <= self.limits.large_bytes:
            return self._run(task)
        with self._lock:
            self.waiting_large += 1
        try:
            shared = self._large.acquire(timeout=self.limits.timeout)
        finally:
            with self._lock:
                self.waiting_large -= 1
        if not shared:
            return {"error": "the Space is busy: try again in a minute"}
        try:
            return self._run(task)
        finally:
            self._large.release()

    def _run(self, task: dict[str, Any]) -> dict[str, Any]:
        worker = self._take()
        if worker is None:
            return {"error": "the Space is busy: try again in a minute"}
        healthy = False
        try:
            worker.tasks.send(task)
            if not worker.replies.poll(self.limits.timeout):
                return {
                    "error": f"the computation took longer than {self.limits.timeout:g} s, "
                    "the most this Space gives one request (TASKEVAL_SPACE_TIMEOUT)"
                }
            reply = worker.replies.recv()
            worker.done += 1
            healthy = not reply.get("restart") and worker.done < self.limits.tasks_per_worker
            return reply
        except (EOFError, OSError):  # the worker died before it replied
            return {"error": died(worker.process.wait(), self.limits)}
        finally:
            if healthy:
                self._idle.put(worker)
            else:
                self._replace(worker)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers, self._all = list(self._all), set()
        for worker in workers:
            worker.stop()


def input_bytes(task: dict[str, Any]) -> int:
    """How large a request's inputs are: the pasted characters, or the uploads' bytes (a
    folder side's files summed); what decides whether it takes the large requests' share."""
    if task.get("source") == "json":
        return sum(len(task.get(side) or "") for side in ("predictions", "references"))
    total = 0
    for side in (task.get("predictions"), task.get("references"), *task.get("inputs", [])):
        if side:
            for path, _ in uploaded_files(side, {}):
                with contextlib.suppress(OSError):
                    total += os.path.getsize(path)
    return total


# Signals that end a process from outside (a person, a supervisor, the kernel's OOM killer);
# a process that crashes on its own (a failed allocation inside a library) gets another.
_FROM_OUTSIDE = {signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP}


def died(status: int, limits: Limits) -> str:
    """What the user is told when the worker computing their request ended without a reply
    (``status``: its exit status, minus the signal that ended it)."""
    if status >= 0:
        return f"the computation stopped: its worker process exited with status {status}"
    number = -status
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = "unknown signal"
    if number in _FROM_OUTSIDE:
        return (
            "the computation stopped: its worker process was ended from outside the Space "
            f"(signal {number}, {name}): try again"
        )
    return (
        f"the computation stopped: its worker process crashed (signal {number}, {name}), "
        f"perhaps out of the {limits.memory_bytes >> 20:,} MiB of memory this Space gives one "
        "request (TASKEVAL_SPACE_MEMORY_MB)"
    )


_pool: Pool | None = None
_pool_lock = threading.Lock()


def pool(metric: str) -> Pool:
    """The server's pool, started on first use (its workers load ``metric`` first; any metric
    can be asked of them)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = Pool(metric, Limits())
        return _pool


@atexit.register
def _close_pool() -> None:
    if _pool is not None:
        _pool.close()
