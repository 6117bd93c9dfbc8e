"""Settings of ``taskeval compare`` that the CLI shows without importing it (it needs numpy)."""

METHODS = ("bootstrap", "randomization")
DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 12345
DEFAULT_CONFIDENCE = 0.95
