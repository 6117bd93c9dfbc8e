"""Where the metric folders are, and how to reach their plain-Python modules.

Plain strings and ``os.path`` on the scoring path: ``pathlib`` alone costs the command line more
than scoring a small file, so ``Path`` objects are made only for the callers that ask for them.
"""

from __future__ import annotations

import importlib
import os

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from pathlib import Path
    from types import ModuleType

    from .contract import MetricContract


def _root() -> str:
    # The package's own path, not one relative to this file: editable installs map
    # ``taskeval._metrics`` onto the repository's top-level ``metrics/`` folder. (Not
    # importlib.resources, whose import alone costs the CLI more than scoring a small file.)
    return importlib.import_module("taskeval._metrics").__path__[0]


def metrics_root() -> Path:
    """The folder that holds the metric folders."""
    from pathlib import Path

    return Path(_root())


_listed: dict[str, tuple[str, ...]] = {}  # by metrics root: the folder is read once


def list_metrics() -> list[str]:
    """Names of the metrics taskeval ships, as given to ``taskeval.load``."""
    root = _root()
    if root not in _listed:
        _listed[root] = tuple(
            sorted(
                name
                for name in os.listdir(root)
                if os.path.isfile(os.path.join(root, name, f"{name}.py"))
            )
        )
    return list(_listed[root])


def _check_known(name: str) -> None:
    known = list_metrics()
    if name not in known:
        raise ValueError(f"unknown metric {name!r}; taskeval has {', '.join(known)}")


def metric_file(name: str, file: str) -> str:
    """The path of ``file`` in the folder of the metric ``name`` (which must be a metric)."""
    _check_known(name)
    return os.path.join(_root(), name, file)


def metric_dir(name: str) -> Path:
    """Absolute path of a metric folder (what ``evaluate.load`` takes to load offline)."""
    from pathlib import Path

    return Path(metric_file(name, ""))


def metric_module(name: str, module: str) -> ModuleType:
    """A plain-Python module of a metric folder, e.g. its ``inputs`` (official file readers)."""
    _check_known(name)
    return importlib.import_module(f"taskeval._metrics.{name}.{module}")


def contract(name: str) -> MetricContract:
    """The metric's ``CONTRACT`` (its folder's ``contract.py``): everything taskeval needs from
    it (see ``taskeval.contract``)."""
    return metric_module(name, "contract").CONTRACT
