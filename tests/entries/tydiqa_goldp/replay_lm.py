"""A language model for lm-evaluation-harness that answers with recorded generations, and the
harness's command line with it registered: ``python replay_lm.py [harness arguments]`` with
``--model taskeval-replay --model_args generations=FILE`` (FILE: ``{question id: text}``).

The tests run the harness end to end with it: offline, on the CPU, in seconds.
"""

from __future__ import annotations

import json
import sys

from lm_eval.api.model import LM
from lm_eval.api.registry import register_model


@register_model("taskeval-replay")
class Replay(LM):
    def __init__(self, generations: str, **kwargs) -> None:
        super().__init__()
        with open(generations, encoding="utf-8") as f:
            self.generations = json.load(f)

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        return [self.generations[request.doc["id"]] for request in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("recorded generations only")

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("recorded generations only")


if __name__ == "__main__":
    from lm_eval.__main__ import cli_evaluate

    sys.argv[0] = "lm_eval"
    cli_evaluate()
