"""averitec: groundwork (the metric comes later; no harness entry yet)."""
