"""Run as two processes (``torchrun --standalone --nproc_per_node 2``; accelerate takes the
ranks from torchrun's environment): each process predicts a strided shard
of the claims (rows rank, rank + 2, ..., as torch's DistributedSampler deals them), accelerate
gathers the predictions with their row numbers, and only the main process restores the file
order and computes the metric. Prints the result as JSON on the main process."""

import json
import sys

from accelerate import Accelerator

import taskeval


def main(inputs_path: str) -> None:
    with open(inputs_path, encoding="utf-8") as f:
        inputs = json.load(f)
    accelerator = Accelerator(cpu=True)
    assert accelerator.num_processes == 2, "not launched as two processes"
    rank, size = accelerator.process_index, accelerator.num_processes
    # A real job would run its model here; each process "predicts" its own rows.
    local = [(i, inputs["predictions"][i]) for i in range(rank, len(inputs["predictions"]), size)]
    gathered = accelerator.gather_for_metrics([local], use_gather_object=True)
    if accelerator.is_main_process:
        # The official number is the one of the file order: restore it (a dict by row number
        # also drops the rows a sampler repeats to even out its shards).
        by_row = {i: prediction for part in gathered for i, prediction in part}
        metric = taskeval.load("fever_score")
        result = metric.compute(
            predictions=[by_row[i] for i in sorted(by_row)], references=inputs["references"]
        )
        print(json.dumps(result))
    # Both ranks leave together and close the process group: a rank that exits while its
    # communication threads still run can be aborted by the C++ runtime at exit.
    accelerator.wait_for_everyone()
    accelerator.end_training()


if __name__ == "__main__":
    main(sys.argv[1])
