"""Run as two processes (``torchrun --standalone --nproc_per_node 2``): a Trainer evaluates an
odd-sized, shuffled FEVER dataset with ``taskeval.trainer_compute_metrics``; each process prints
the metric numbers it got as JSON."""

import json
import random
import sys
from pathlib import Path

from test_trainer import fever_claims, fever_dataset, fever_rows_of, tiny_model, trainer_for

import taskeval

METRIC_KEYS = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall",
               "evidence_f1")  # fmt: skip


def fever_setup():
    claims = fever_claims(40, seed=1)
    return claims, tiny_model(3), fever_dataset(claims, list(range(40)))


def evaluated_rows() -> list[int]:
    """13 rows in another order: two processes get 7 each, one row repeated and dropped."""
    return random.Random(4).sample(range(40), 13)


def main(folder: str) -> None:
    claims, model, dataset = fever_setup()
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", fever_rows_of(claims))
    trainer = trainer_for(
        model, dataset, dataset, compute_metrics, Path(folder), label_names=["labels", "row_id"]
    )
    assert trainer.args.world_size == 2, "not launched as two processes"
    result = trainer.evaluate(eval_dataset=dataset.select(evaluated_rows()))
    print(json.dumps({f"eval_{k}": result[f"eval_{k}"] for k in METRIC_KEYS}), flush=True)
    # Both ranks leave together and close the process group (see accelerate_worker.py).
    trainer.accelerator.wait_for_everyone()
    trainer.accelerator.end_training()


if __name__ == "__main__":
    main(sys.argv[1])
