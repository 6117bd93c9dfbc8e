"""Gradio Space of ``scifact_sentence``: the SciFact leaderboard evaluator, bit for bit, with a breakdown."""

from pathlib import Path

from taskeval.scifact_space import space_spec
from taskeval.space import launch

# The layout both SciFact Spaces share is in scifact_space; only the metric name differs.
SPEC = space_spec("scifact_sentence", Path(__file__).resolve().parent / "examples")

if __name__ == "__main__":
    launch(SPEC)
