"""One rank of the distributed check: ``python dist_worker.py SPEC.json RANK``.

Loads the metric with ``num_process=2``, adds its half of the rows and prints rank 0's result
as JSON (rank 1 prints ``null``).
"""

import json
import sys

import taskeval


def main(spec_path: str, rank: int) -> None:
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    inputs = spec["inputs"]
    n = len(next(iter(inputs.values())))
    lo, hi = (0, spec["split"]) if rank == 0 else (spec["split"], n)
    metric = taskeval.load(
        spec["name"],
        spec["config_name"],
        num_process=2,
        process_id=rank,
        experiment_id=spec["experiment_id"],
        cache_dir=spec["cache_dir"],
        timeout=60,
    )
    metric.add_batch(**{k: v[lo:hi] for k, v in inputs.items()})
    print(json.dumps(metric.compute(**spec["options"])))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
