"""A rank killed before its compute() (num_process=2): rank 0's compute() raises a ValueError
that says which process's cache file is unfinished, not pyarrow's message about a stream."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import taskeval

from harness import entries

REPO = Path(__file__).resolve().parents[1]
WORKER = str(Path(__file__).parent / "dist_worker.py")


def test_rank_0_names_the_unfinished_cache_file_of_a_killed_rank(tmp_path):
    entry = next(e for e in entries() if e.name == "fever_score")
    inputs = entry.random_inputs(random.Random(3), 8)
    spec = {
        "name": entry.name,
        "config_name": None,
        "options": {},
        "inputs": inputs,
        "split": 4,
        "invalid": [],
        "experiment_id": uuid.uuid4().hex,
        "cache_dir": str(tmp_path / "cache"),
    }
    spec_path = tmp_path / "spec.pickle"
    spec_path.write_bytes(pickle.dumps(spec))
    rank1 = subprocess.Popen(
        [sys.executable, WORKER, str(spec_path), "1", "killed"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        metric = taskeval.load(
            entry.name,
            num_process=2,
            process_id=0,
            experiment_id=f"{spec['experiment_id']}-add-batch",
            cache_dir=spec["cache_dir"],
            timeout=60,
        )
        metric.add_batch(**{k: v[:4] for k, v in inputs.items()})
        rank1.wait(timeout=120)
        assert rank1.returncode < 0, rank1.stderr.read()  # killed, as planned
        with pytest.raises(ValueError) as info:
            metric.compute()
    finally:
        rank1.kill()
        rank1.communicate()
    message = str(info.value)
    assert type(info.value) is ValueError, f"{type(info.value).__name__}: {message}"
    assert "process 1" in message and "unfinished" in message, message
    assert "\n" not in message
