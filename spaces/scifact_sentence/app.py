"""Gradio Space of ``scifact_sentence``: the SciFact leaderboard evaluator, bit for bit, with a breakdown."""

from pathlib import Path

from taskeval.registry import metric_module
from taskeval.space import launch

# The layout both SciFact Spaces share lives beside the metric's scoring core.
shared = metric_module("scifact_abstract", "scifact_space")
SPEC = shared.space_spec("scifact_sentence", Path(__file__).resolve().parent / "examples")

if __name__ == "__main__":
    launch(SPEC)
