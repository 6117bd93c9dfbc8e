"""kilt: tests of the scoring rules (the metric's harness entry comes with the metric)."""
