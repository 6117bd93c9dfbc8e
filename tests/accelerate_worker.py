"""Run under ``accelerate launch --cpu --num_processes 2``: each process predicts its shard of
the claims, accelerate gathers the predictions, and only the main process computes the metric.
Prints the result as JSON on the main process."""

import json
import sys

from accelerate import Accelerator

import taskeval


def main(inputs_path: str) -> None:
    with open(inputs_path, encoding="utf-8") as f:
        inputs = json.load(f)
    accelerator = Accelerator(cpu=True)
    rows = list(range(len(inputs["predictions"])))
    with accelerator.split_between_processes(rows) as shard:
        # A real job would run its model here; each process "predicts" its own rows.
        local = [{"row": i, "prediction": inputs["predictions"][i]} for i in shard]
    gathered = sorted(
        (
            item
            for part in accelerator.gather_for_metrics([local], use_gather_object=True)
            for item in part
        ),
        key=lambda item: item["row"],
    )
    if accelerator.is_main_process:
        metric = taskeval.load("fever_score")
        result = metric.compute(
            predictions=[item["prediction"] for item in gathered], references=inputs["references"]
        )
        print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
