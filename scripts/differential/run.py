"""Run one metric's differential check against the official code.

    python scripts/differential/run.py METRIC[:VARIANT] --official DIR [--cases N] [--start K]
        [--seed S] [--cli-every N] [--show N]

The metric's own part (drawing a random case and scoring it both ways: ``check(rng, official,
with_cli)``, see ``common.run``) is read from its test entry, ``tests/entries/METRIC/
differential.py``, or, for the first metrics, from ``scripts/differential/METRIC.py``. A metric
with several official scorers (editions) has one check each, ``tests/entries/METRIC/
differential_VARIANT.py``, run as ``METRIC:VARIANT``. A module may define ``main(argv)`` for
extra output; otherwise ``common.run`` runs its ``check``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENTRIES = HERE.parents[1] / "tests" / "entries"
sys.path.insert(0, str(HERE))

import common  # noqa: E402


def module_path(metric: str) -> Path | None:
    """Where ``metric``'s (``METRIC`` or ``METRIC:VARIANT``) differential part is, or None."""
    if ":" in metric:
        name, variant = metric.split(":", 1)
        path = ENTRIES / name / f"differential_{variant}.py"
        return path if path.is_file() else None
    for path in (ENTRIES / metric / "differential.py", HERE / f"{metric}.py"):
        if path.is_file():
            return path
    return None


def known() -> list[str]:
    own = [p.parent.name for p in ENTRIES.glob("*/differential.py")]
    own += [f"{p.parent.name}:{p.stem[13:]}" for p in ENTRIES.glob("*/differential_*.py")]
    scripts = [p.stem for p in HERE.glob("*.py") if p.stem not in ("common", "run")]
    return sorted(own + scripts)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0].startswith("-"):
        sys.exit(f"usage: run.py METRIC --official DIR [...]; METRIC one of {', '.join(known())}")
    metric, rest = argv[0], argv[1:]
    path = module_path(metric)
    if path is None:
        sys.exit(f"run.py: no differential check for {metric!r}; known: {', '.join(known())}")
    spec = importlib.util.spec_from_file_location(f"differential_{metric.replace(':', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if hasattr(module, "main"):
        return module.main(rest)
    return common.run(metric, module.check, rest)


if __name__ == "__main__":
    sys.exit(main())
