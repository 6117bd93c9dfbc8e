"""One rank of the distributed checks: ``python dist_worker.py SPEC.pickle RANK``.

Loads the metric with ``num_process=2`` three times (a fresh experiment each) and prints one
JSON object:

* ``"add_batch"``: this rank adds its rows with ``add_batch`` and calls ``compute()``;
* ``"compute"``: this rank passes its rows to ``compute(predictions=..., references=...)``;
* ``"errors"``: for each invalid input (both ranks get the same one), the ``ValueError``
  message of ``compute(predictions=..., references=...)``, or None if there was none.

With a third argument ``killed``, the rank adds its rows with ``add_batch`` and is then killed
(SIGKILL) before it calls ``compute()``, leaving its cache file unfinished.

Rank 0's results are the global ones; rank 1's are None. The spec is a pickle, so that the
invalid inputs keep their tuples and types.
"""

import json
import os
import pickle
import signal
import sys

import taskeval


def _metric(spec: dict, rank: int, experiment: str):
    return taskeval.load(
        spec["name"],
        spec["config_name"],
        num_process=2,
        process_id=rank,
        experiment_id=f"{spec['experiment_id']}-{experiment}",
        cache_dir=spec["cache_dir"],
        timeout=60,
    )


def main(spec_path: str, rank: int, killed: bool = False) -> None:
    with open(spec_path, "rb") as f:
        spec = pickle.load(f)
    inputs, options = spec["inputs"], spec["options"]
    n = len(next(iter(inputs.values())))
    lo, hi = (0, spec["split"]) if rank == 0 else (spec["split"], n)
    shard = {k: v[lo:hi] for k, v in inputs.items()}
    out = {}
    metric = _metric(spec, rank, "add-batch")
    metric.add_batch(**shard)
    if killed:
        os.kill(os.getpid(), signal.SIGKILL)
    out["add_batch"] = metric.compute(**options)
    out["compute"] = _metric(spec, rank, "compute").compute(**shard, **options)
    out["errors"] = []
    for i, (case_inputs, case_options) in enumerate(spec["invalid"]):
        try:
            _metric(spec, rank, f"invalid-{i}").compute(**case_inputs, **case_options)
            out["errors"].append(None)
        except ValueError as e:
            out["errors"].append(str(e))
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3:] == ["killed"])
