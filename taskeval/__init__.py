"""taskeval: the official scorers of shared tasks as Hugging Face ``evaluate`` metrics.

Usage::

    import taskeval

    metric = taskeval.load("fever_score")  # offline, by absolute path
    metric.compute(**taskeval.read_official("fever_score", predictions="predictions.jsonl"))
"""

from .api import load, read_official, references_from_hub, score_files
from .compare import compare, compare_rows, intervals
from .install import install_metrics, uninstall_metrics
from .registry import list_metrics, metric_dir

__version__ = "0.1.0"

__all__ = [
    "compare",
    "compare_rows",
    "install_metrics",
    "intervals",
    "list_metrics",
    "load",
    "metric_dir",
    "read_official",
    "references_from_hub",
    "score_files",
    "uninstall_metrics",
]
