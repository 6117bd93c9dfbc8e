"""A transformers ``Trainer``'s ``compute_metrics`` whose rows cannot be misaligned.

The Trainer hands ``compute_metrics`` the model outputs of whichever dataset it evaluates
(``trainer.evaluate(other)``, ``trainer.predict(test)``, evaluation during training), gathered
from every process. A recipe that looks the rows up in a dataset held by a global pairs the
outputs with the wrong gold as soon as another dataset is evaluated. Here every evaluated row
carries its own row number, as a label column that the Trainer hands back beside the outputs:

    args = TrainingArguments(..., label_names=["labels", "row_id"])
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", rows=fever_rows)

``rows(row_ids, outputs)`` builds the ``compute()`` inputs of the evaluated rows from their row
numbers (positions in the task's file, so that the official file order is restored) and their
model outputs, both in ascending row number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["trainer_compute_metrics"]

Rows = Callable[[list[int], list[Any]], Mapping[str, Any]]


def _numpy(value: Any) -> Any:
    """A torch tensor (``batch_eval_metrics=True`` hands them over) as a numpy array; tuples of
    outputs element by element; anything else as it is."""
    if isinstance(value, (tuple, list)):
        return type(value)(_numpy(v) for v in value)
    detach = getattr(value, "detach", None)
    if detach is not None:
        return detach().cpu().numpy()
    return value


def _per_row(outputs: Any, n: int) -> list[Any]:
    """The model outputs of each of ``n`` rows (a tuple of outputs gives a tuple per row)."""
    if isinstance(outputs, (tuple, list)):
        columns = [_per_row(o, n) for o in outputs]
        return [tuple(c[i] for c in columns) for i in range(n)]
    if len(outputs) != n:
        raise ValueError(
            f"the model gave outputs for {len(outputs)} rows but the evaluated dataset's row ids "
            f"number {n}: every evaluated row needs exactly one row id"
        )
    return list(outputs)


def _batch_by_batch(label_ids: Any, names: int) -> bool:
    """Whether the labels come as a list of batches (``eval_do_concat_batches=False``): each item
    is one batch's labels (a tuple of arrays for several label names), not one label array."""
    if not isinstance(label_ids, list) or not label_ids:
        return False
    first = label_ids[0]
    if names > 1:
        return isinstance(first, (tuple, list))
    return isinstance(first, (tuple, list)) or getattr(first, "ndim", 0) >= 1


def _row_ids(label_ids: Any, label_names: Sequence[str], id_column: str) -> np.ndarray:
    """The row-id column among what the Trainer returns as labels."""
    if id_column not in label_names:
        raise ValueError(f"label_names must list the row-id column {id_column!r}")
    if label_ids is None:
        raise ValueError(
            f"the Trainer returned no labels: the evaluated dataset needs the column "
            f"{id_column!r}, and TrainingArguments(label_names=...) must list it "
            f"(label_names={list(label_names)!r} here)"
        )
    if _batch_by_batch(label_ids, len(label_names)):
        raise ValueError(
            f"the Trainer handed the labels batch by batch ({len(label_ids)} batches), as "
            f"TrainingArguments(eval_do_concat_batches=False) makes it do: leave "
            f"eval_do_concat_batches=True (the default), or set batch_eval_metrics=True to score "
            f"batch by batch"
        )
    if len(label_names) > 1:
        if not isinstance(label_ids, (tuple, list)) or len(label_ids) != len(label_names):
            raise ValueError(
                f"the Trainer returned labels that do not match label_names={list(label_names)!r}: "
                f"pass trainer_compute_metrics the label_names of the TrainingArguments"
            )
        label_ids = label_ids[list(label_names).index(id_column)]
    ids = np.asarray(label_ids)
    if ids.ndim != 1 or ids.dtype.kind not in "iu":
        raise ValueError(
            f"the row-id column {id_column!r} must hold one integer per row (the row's number "
            f"in the task's file), got an array of dtype {ids.dtype} and shape {ids.shape}"
        )
    return ids


class _Collected:
    """Row ids and outputs of the rows evaluated so far in one evaluation."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.ids: list[np.ndarray] = []
        self.outputs: list[Any] = []

    def add(self, ids: np.ndarray, outputs: Any) -> None:
        self.ids.append(ids)
        self.outputs.extend(_per_row(outputs, len(ids)))

    def in_file_order(self) -> tuple[list[int], list[Any]]:
        ids = [int(i) for part in self.ids for i in part]
        seen: dict[int, int] = {}
        for position, row_id in enumerate(ids):
            if row_id < 0:
                raise ValueError(
                    f"row id {row_id} (evaluated row {position}) is negative: the row-id column "
                    f"holds each row's number in the task's file, 0 or more"
                )
            if row_id in seen:
                raise ValueError(
                    f"row id {row_id} was evaluated twice (evaluated rows {seen[row_id]} and "
                    f"{position}): each row of the evaluated dataset needs its own row id"
                )
            seen[row_id] = position
        order = sorted(range(len(ids)), key=ids.__getitem__)
        return [ids[i] for i in order], [self.outputs[i] for i in order]


def _flat(result: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested results (TyDi QA's ``per_language``) as ``per_language/arabic/...`` keys: the
    Trainer logs scalars."""
    flat: dict[str, Any] = {}
    for key, value in result.items():
        if isinstance(value, Mapping):
            flat.update(_flat(value, f"{prefix}{key}/"))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def trainer_compute_metrics(
    metric: str | Any,
    rows: Rows,
    *,
    id_column: str = "row_id",
    label_names: Sequence[str] = ("labels", "row_id"),
    **options: Any,
) -> Callable[..., dict[str, Any]]:
    """A ``compute_metrics`` for a transformers ``Trainer`` that scores the rows it evaluated.

    Args:
        metric: a metric name (loaded with ``taskeval.load``) or a loaded metric (for example
            ``evaluate.combine`` of both SciFact levels).
        rows: ``rows(row_ids, outputs)`` returns the ``compute()`` inputs (``predictions`` and
            ``references``) of the evaluated rows; ``row_ids`` are their numbers in the task's
            file, ascending, and ``outputs`` their model outputs in the same order (a numpy
            array per row, or a tuple of them when the model returns several outputs).
        id_column: the dataset column holding each row's number in the task's file.
        label_names: the ``TrainingArguments(label_names=...)`` of the Trainer, which must list
            ``id_column`` (the Trainer then hands the row ids back with the outputs).
        **options: ``compute()`` options (``max_evidence``, thresholds, ...).

    Returns:
        A callable for ``Trainer(compute_metrics=...)``, with a ``callback`` for
        ``Trainer(callbacks=[...])`` that names a dataset without the row-id column (see
        there); it also works with
        ``batch_eval_metrics=True`` (rows are collected batch by batch and scored on the last).
        Nested results are flattened with ``/`` (``per_language/arabic/...``).

    Raises:
        ValueError: when the evaluated dataset has no row ids, when the number of row ids and of
            model outputs differ, or when a row id is negative or repeated.
    """
    label_names = tuple(label_names)
    if id_column not in label_names:
        raise ValueError(
            f"label_names={list(label_names)!r} must list the row-id column {id_column!r}, as "
            f"TrainingArguments(label_names=...) must"
        )
    if isinstance(metric, str):
        from .api import load

        metric = load(metric)
    return _ComputeMetrics(metric, rows, label_names, id_column, options)


class _ComputeMetrics:
    """What ``trainer_compute_metrics`` returns: the ``compute_metrics`` function, and its
    ``callback`` (see there)."""

    def __init__(self, metric: Any, rows: Rows, label_names: tuple, id_column: str, options):
        self._metric, self._rows, self._options = metric, rows, options
        self._label_names, self._id_column = label_names, id_column
        self._collected = _Collected()
        self.scored = 0  # evaluations scored so far

    def __call__(self, eval_pred: Any, compute_result: bool | None = None) -> dict[str, Any]:
        collected = self._collected
        try:
            ids = _row_ids(_numpy(eval_pred.label_ids), self._label_names, self._id_column)
            collected.add(ids, _numpy(eval_pred.predictions))
            if compute_result is False:  # batch_eval_metrics: more batches to come
                return {}
            row_ids, outputs = collected.in_file_order()
        except BaseException:
            collected.reset()  # the next evaluation starts afresh
            raise
        collected.reset()
        result = _flat(self._metric.compute(**self._rows(row_ids, outputs), **self._options))
        self.scored += 1
        return result

    @property
    def callback(self) -> Any:
        """A ``TrainerCallback`` (``Trainer(callbacks=[compute_metrics.callback])``) that stops
        an evaluation the Trainer ran without calling ``compute_metrics``, which it does when
        the evaluated dataset lacks a column of ``label_names``, with a ``ValueError`` naming
        the columns: otherwise that shows only later, as a ``KeyError`` of
        ``metric_for_best_model`` or as metrics silently missing."""
        return _missing_rows_callback(self)

    def _not_scored(self) -> str:
        return (
            f"the Trainer evaluated without calling compute_metrics: the evaluated dataset needs "
            f"every column of label_names={list(self._label_names)!r} (the row-id column "
            f"{self._id_column!r} included), one value per row"
        )


def _missing_rows_callback(compute_metrics: _ComputeMetrics) -> Any:
    from transformers import TrainerCallback

    class MissingRows(TrainerCallback):
        def __init__(self) -> None:
            self.seen = compute_metrics.scored

        def on_evaluate(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            if compute_metrics.scored == self.seen:
                raise ValueError(compute_metrics._not_scored())
            self.seen = compute_metrics.scored

    return MissingRows()
