"""taskeval: the official scorers of shared tasks as Hugging Face ``evaluate`` metrics.

Usage::

    import taskeval

    metric = taskeval.load("fever_score")  # offline, by absolute path
    metric.compute(**taskeval.read_official("fever_score", predictions="predictions.jsonl"))
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType

# What type checkers and IDEs see; at run time, __getattr__ below. (Not typing.TYPE_CHECKING:
# importing typing costs the command line milliseconds at start.)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .api import load, read_official, references_from_hub, score_files
    from .check import check, format_report
    from .compare import compare, compare_rows, intervals
    from .install import install_metrics, uninstall_metrics
    from .registry import list_metrics, metric_dir
    from .trainer import trainer_compute_metrics

__version__ = "0.1.0"

# Public name -> the submodule defining it. Submodules are imported on first use, so that
# ``import taskeval`` and the scoring path of the CLI stay free of numpy, evaluate and datasets.
_EXPORTS = {
    "check": "check",
    "compare": "compare",
    "compare_rows": "compare",
    "format_report": "check",
    "install_metrics": "install",
    "intervals": "compare",
    "list_metrics": "registry",
    "load": "api",
    "metric_dir": "registry",
    "read_official": "api",
    "references_from_hub": "api",
    "score_files": "api",
    "trainer_compute_metrics": "trainer",
    "uninstall_metrics": "install",
}

__all__ = [
    "check",
    "compare",
    "compare_rows",
    "format_report",
    "install_metrics",
    "intervals",
    "list_metrics",
    "load",
    "metric_dir",
    "read_official",
    "references_from_hub",
    "score_files",
    "trainer_compute_metrics",
    "uninstall_metrics",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'taskeval' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    setattr(sys.modules[__name__], name, value)
    return value


def __dir__() -> list[str]:
    return sorted([*_EXPORTS, "__version__"])


class _Package(ModuleType):
    """The package module: ``taskeval.compare`` stays the function, not its submodule.

    Importing a submodule binds it on its package under its own name; the function
    ``compare`` shares its name with the submodule that defines it, so that binding is
    turned into the function (as the former eager ``from .compare import compare`` did).
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and _EXPORTS.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
