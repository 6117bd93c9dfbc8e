"""The Space's worker pool on its own: a worker killed from outside is reported as what it was,
and no dead worker is handed to a request. Workers are paused and killed with signals, never
raced against a clock."""

from __future__ import annotations

import json
import os
import signal
import threading

import pytest

from taskeval.space_pool import Pool
from taskeval.space_worker import Limits


def _task(predictions: list, references: list) -> dict:
    return {
        "metric": "fever_score", "config": None, "options": {}, "source": "json",
        "names": {}, "folders": {}, "with_interval": False,
        "predictions": json.dumps(predictions), "references": json.dumps(references),
    }  # fmt: skip


FEVER_ROW = {"predicted_label": "SUPPORTS", "predicted_evidence": [["Page", 0]]}
FEVER_GOLD = {"label": "SUPPORTS", "evidence": [[[1, 1, "Page", 0]]]}


@pytest.fixture
def one_worker():
    limits = Limits()
    limits.workers, limits.timeout = 1, 120.0
    pool = Pool("", limits)
    try:
        yield pool
    finally:
        pool.close()


def _idle_worker(pool: Pool):
    """The pool's one worker, once started and idle (taken from the idle queue and put back)."""
    worker = pool._idle.get(timeout=120)
    pool._idle.put(worker)
    return worker


def test_a_worker_killed_during_a_request_is_reported_as_killed_not_as_memory(one_worker):
    """Planted: every death of a worker reported as "needed more memory"."""
    worker = _idle_worker(one_worker)
    os.kill(worker.process.pid, signal.SIGSTOP)  # the task waits in the pipe, unread
    # Killed once the task is in the pipe: killed earlier, between the pool's look at whether
    # the worker runs and the send, it would be a worker that died idle (replaced).
    sent, pipe = threading.Event(), worker.tasks

    class Sending:
        def send(self, task: dict) -> None:
            pipe.send(task)
            sent.set()

        def __getattr__(self, name: str):
            return getattr(pipe, name)

    worker.tasks = Sending()
    replies: list[dict] = []
    asking = threading.Thread(target=lambda: replies.append(one_worker.run(_task([], []))))
    asking.start()
    try:
        assert sent.wait(120), "the request never sent its task"
    finally:
        os.kill(worker.process.pid, signal.SIGKILL)
    asking.join(timeout=120)
    (reply,) = replies
    assert reply["error"] == (
        "the computation stopped: its worker process was ended from outside the Space "
        "(signal 9, SIGKILL): try again"
    ), reply
    assert "memory" not in reply["error"]


def test_a_worker_that_died_idle_is_never_handed_to_a_request(one_worker):
    """Planted: the idle worker handed out without a look at whether it still runs (the next
    request told it "needed more memory")."""
    worker = _idle_worker(one_worker)
    os.kill(worker.process.pid, signal.SIGKILL)
    worker.process.wait(timeout=30)
    reply = one_worker.run(_task([FEVER_ROW], [FEVER_GOLD]))
    assert "error" not in reply, reply
    assert reply["result"]["strict_score"] == 1.0
    assert worker not in one_worker._all


def test_two_large_requests_leave_a_worker_for_a_small_one():
    """Two large requests (490,000 rows: up to a minute each) held both workers, and a small
    request waited for one of them. Planted: large requests taking any free worker. Both
    workers are paused, so that every request stays where the pool put it."""
    limits = Limits()
    limits.workers, limits.timeout, limits.large_bytes = 2, 120.0, 200
    pool = Pool("", limits)
    try:
        while len(pool._all) < 2 or pool._idle.qsize() < 2:  # both started
            threading.Event().wait(0.01)
        workers = set(pool._all)
        for worker in workers:
            os.kill(worker.process.pid, signal.SIGSTOP)
        large = _task([FEVER_ROW] * 4, [FEVER_GOLD] * 4)
        assert len(large["predictions"]) > limits.large_bytes
        replies: list[dict] = []
        asking = [
            threading.Thread(target=lambda: replies.append(pool.run(large))) for _ in range(2)
        ]
        try:
            for thread in asking:
                thread.start()
            # Settled: the first has a worker, the second waits for the large share (or,
            # planted, has taken the other worker).
            while not (pool._idle.qsize() == 0 or pool.waiting_large == 1):
                threading.Event().wait(0.01)
            while pool._idle.qsize() == 2:
                threading.Event().wait(0.01)
            assert pool._idle.qsize() == 1 and pool.waiting_large == 1
        finally:
            for worker in workers:
                os.kill(worker.process.pid, signal.SIGCONT)
        small = pool.run(_task([FEVER_ROW], [FEVER_GOLD]))
        assert small["result"]["strict_score"] == 1.0, small
        for thread in asking:
            thread.join(timeout=120)
        assert [r["result"]["strict_score"] for r in replies] == [1.0, 1.0], replies
    finally:
        pool.close()
