"""Where the metric folders are, and how to reach their plain-Python modules."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType


def metrics_root() -> Path:
    # The package's own path, not one relative to this file: editable installs map
    # ``taskeval._metrics`` onto the repository's top-level ``metrics/`` folder. (Not
    # importlib.resources, whose import alone costs the CLI more than scoring a small file.)
    return Path(importlib.import_module("taskeval._metrics").__path__[0])


_listed: dict[Path, tuple[str, ...]] = {}  # by metrics root: the folder is read once


def list_metrics() -> list[str]:
    """Names of the metrics taskeval ships, as given to ``taskeval.load``."""
    root = metrics_root()
    if root not in _listed:
        _listed[root] = tuple(
            sorted(p.name for p in root.iterdir() if (p / f"{p.name}.py").is_file())
        )
    return list(_listed[root])


def metric_dir(name: str) -> Path:
    """Absolute path of a metric folder (what ``evaluate.load`` takes to load offline)."""
    known = list_metrics()
    if name not in known:
        raise ValueError(f"unknown metric {name!r}; taskeval has {', '.join(known)}")
    return metrics_root() / name


def metric_module(name: str, module: str) -> ModuleType:
    """A plain-Python module of a metric folder, e.g. its ``inputs`` (official file readers)."""
    metric_dir(name)
    return importlib.import_module(f"taskeval._metrics.{name}.{module}")
