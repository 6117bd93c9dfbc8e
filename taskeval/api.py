"""The front door: load a metric offline, read official files, convert Hub dataset rows."""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike

from .pipes import settled
from .registry import contract, list_metrics, metric_dir

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from typing import Any

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
    references, predictions = settled(references), settled(predictions)
    try:
        return contract(name).reader.read_official(references, predictions)
    except ValueError as e:
        raise _hinted(e, name, references, predictions) from None


def _hinted(error: ValueError, names: Any, references: Any, predictions: Any) -> ValueError:
    """``error`` naming the mistake behind it, when the files show one (``taskeval.mistakes``)."""
    from .mistakes import add_hint

    return add_hint(error, names, references, predictions)


def metric_names(names: str | Sequence[str]) -> list[str]:
    """``"a,b"`` or ``["a", "b"]`` → ``["a", "b"]``, each a known metric, none twice."""
    listed = names.split(",") if isinstance(names, str) else list(names)
    known = list_metrics()
    out: list[str] = []
    for name in listed:
        if name not in known:
            raise ValueError(f"unknown metric {name!r}; taskeval has {', '.join(known)}")
        if name in out:
            raise ValueError(f"metric {name!r} is given twice")
        out.append(name)
    if not out:
        raise ValueError("give at least one metric")
    return out


def score_files(
    name: str | Sequence[str],
    *,
    references: StrPath | None = None,
    predictions: StrPath,
    **options: Any,
) -> dict[str, Any]:
    """Score official files with the metrics' plain scoring cores (what ``taskeval score`` prints).

    ``name`` is one metric or several (``"a,b"`` or a list): their numbers are merged into one
    dict, and metrics whose readers share a group (``CONTRACT.reader.group``) read and score the
    files once. ``options`` are the metrics' ``compute()`` options
    and, for a metric with configs, its config by the config's name (``CONTRACT.config.name``;
    such a metric's ``predictions`` may hold several configs, or be a folder of several
    submissions: see its ``CONTRACT.reader.score_files``).
    """
    names = metric_names(name)
    contracts = [contract(metric) for metric in names]
    references, predictions = settled(references), settled(predictions)
    # An unset config (None) is no setting: the files then tell it.
    options = {
        k: v
        for k, v in options.items()
        if v is not None or any(c.option(k) is not None for c in contracts)
    }
    accepted = {c.name: set(c.setting_names()) for c in contracts}
    unknown = sorted(set(options) - set().union(*accepted.values()))
    if unknown:
        takes = "take" if len(names) > 1 else "takes"
        raise ValueError(f"{', '.join(names)} {takes} no option {', '.join(unknown)}")
    groups: dict[tuple[str, str], list] = {}
    for c in contracts:
        key = ("group", c.reader.group) if c.reader.group is not None else ("metric", c.name)
        groups.setdefault(key, []).append(c)
    result: dict[str, Any] = {}
    for group in groups.values():
        reader = group[0].reader
        kwargs = {k: v for k, v in options.items() if k in accepted[group[0].name]}
        try:
            if len(group) == 1:
                scores = reader.score_files(references, predictions, **kwargs)
            else:
                scores = reader.score_metrics(
                    [c.name for c in group], references, predictions, **kwargs
                )
        except ValueError as e:
            raise _hinted(e, names, references, predictions) from None
        clash = sorted(set(scores) & set(result))
        if clash:
            raise ValueError(f"{', '.join(names)} both give {', '.join(clash)}: score them apart")
        result.update(scores)
    return result


def references_from_hub(name: str, rows: Any, **kwargs: Any) -> list[dict]:
    """Turn rows of the task's Hugging Face Hub dataset into ``references`` for ``compute()``."""
    convert = contract(name).reader.references_from_hub
    if convert is None:
        raise ValueError(f"{name} reads no Hub dataset rows")
    return convert(rows, **kwargs)
