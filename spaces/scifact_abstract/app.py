"""Gradio Space of ``scifact_abstract``: the SciFact leaderboard evaluator, bit for bit, with a breakdown."""

from pathlib import Path

from taskeval.space import launch, space_spec

# Everything this Space shows beyond the shared layout is in the metric's contract.
SPEC = space_spec("scifact_abstract", Path(__file__).resolve().parent / "examples")

if __name__ == "__main__":
    launch(SPEC)
