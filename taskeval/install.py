"""Make a plain ``evaluate.load("<name>")`` work offline by filling evaluate's modules cache.

evaluate resolves a bare name on the Hub first and, when that fails (always, with
``HF_EVALUATE_OFFLINE=1``), falls back to the newest
``$HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--<name>/<64-hex hash>/<name>.py``.
We write each metric there, under the sha256 of its files, and mark the folders we wrote so that
``uninstall_metrics`` removes only those.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from .registry import list_metrics, metric_dir

MARKER = "TASKEVAL_INSTALLED"


# The variables that place evaluate's modules cache, the first one set deciding.
_CACHE_VARIABLES = ("HF_MODULES_CACHE", "HF_HOME", "XDG_CACHE_HOME")


def _empty_cache_variable() -> str | None:
    """The variable that places the modules cache, if it is set to an empty string: evaluate
    then keeps its modules in the current folder (huggingface_hub would take it as unset)."""
    for name in _CACHE_VARIABLES:
        if name in os.environ:
            return name if not os.environ[name] else None
    return None


def modules_cache() -> Path:
    """evaluate's modules cache (``HF_MODULES_CACHE``, else ``$HF_HOME/modules``); a
    ``ValueError`` when the variable that places it is set to an empty string."""
    from evaluate import config

    empty = _empty_cache_variable()
    if empty is not None:
        raise ValueError(
            f"{empty} is set to an empty string, which makes evaluate keep its modules cache in "
            f"the current folder: unset {empty} or set it to a folder (or give --cache DIR)"
        )
    return Path(config.HF_MODULES_CACHE)


def _metrics_cache(cache: str | os.PathLike | None) -> Path:
    return Path(cache if cache is not None else modules_cache()) / "evaluate_modules" / "metrics"


def _touch_init(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").touch(exist_ok=True)


def _code_files(name: str) -> list[Path]:
    return sorted(metric_dir(name).glob("*.py"))


def _code_hash(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def install_metrics(
    names: list[str] | None = None, cache: str | os.PathLike | None = None
) -> list[Path]:
    """Install metrics (all by default) into evaluate's modules cache; returns the module files."""
    root = _metrics_cache(cache)
    for folder in (root.parent, root):
        _touch_init(folder)
    written = []
    for name in names or list_metrics():
        files = _code_files(name)
        target = root / f"evaluate-metric--{name}" / _code_hash(files)
        _touch_init(target.parent)
        _touch_init(target)
        for path in files:
            shutil.copyfile(path, target / path.name)
        (target / MARKER).write_text(str(metric_dir(name)) + "\n")
        script = target / f"{name}.py"
        os.utime(script)  # evaluate picks the cached version with the newest script
        written.append(script)
    return written


def uninstall_metrics(
    names: list[str] | None = None, cache: str | os.PathLike | None = None
) -> list[Path]:
    """Remove what ``install_metrics`` wrote; returns the folders removed."""
    root = _metrics_cache(cache)
    removed = []
    for name in names or list_metrics():
        parent = root / f"evaluate-metric--{name}"
        for target in parent.glob("*/" + MARKER):
            shutil.rmtree(target.parent)
            removed.append(target.parent)
        if parent.is_dir() and not [p for p in parent.iterdir() if p.name != "__init__.py"]:
            shutil.rmtree(parent)
    return removed
