"""The front door: load a metric offline, read official files, convert Hub dataset rows."""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Any

from .registry import metric_dir, metric_module

if TYPE_CHECKING:
    from evaluate import EvaluationModule

StrPath = str | PathLike


def load(
    name: str,
    config_name: str | None = None,
    *,
    num_process: int = 1,
    process_id: int = 0,
    experiment_id: str | None = None,
    cache_dir: str | None = None,
    keep_in_memory: bool = False,
    **init_kwargs: Any,
) -> EvaluationModule:
    """``evaluate.load`` of a taskeval metric by its absolute folder path: no network, no env vars.

    ``init_kwargs`` (e.g. ``timeout``) go to the metric's constructor, as with ``evaluate.load``.
    """
    import evaluate

    return evaluate.load(
        str(metric_dir(name)),
        config_name,
        num_process=num_process,
        process_id=process_id,
        experiment_id=experiment_id,
        cache_dir=cache_dir,
        keep_in_memory=keep_in_memory,
        **init_kwargs,
    )


def read_official(
    name: str, *, references: StrPath | None = None, predictions: StrPath
) -> dict[str, list]:
    """Read the official file formats of a task into the keyword arguments of ``compute()``.

    ``taskeval.load(name).compute(**taskeval.read_official(name, references=R, predictions=P))``
    gives the official scorer's numbers on those files.
    """
    return metric_module(name, "inputs").read_official(references, predictions)


def score_files(
    name: str, *, references: StrPath | None = None, predictions: StrPath, **options: Any
) -> dict[str, Any]:
    """Score official files with the metric's plain scoring core (what ``taskeval score`` prints)."""
    return metric_module(name, "inputs").score_files(references, predictions, **options)


def references_from_hub(name: str, rows: Any, **kwargs: Any) -> list[dict]:
    """Turn rows of the task's Hugging Face Hub dataset into ``references`` for ``compute()``."""
    return metric_module(name, "inputs").references_from_hub(rows, **kwargs)
