"""What every taskeval metric adds to ``evaluate.Metric``: rows checked before they are encoded,
and whole inputs scored straight by the scoring core.

Each metric folder links this file (``checked_metric.py``), so a folder still loads on its own
(copy it with links followed to push it to the Hub). A metric class lists ``CheckedRows`` before
``evaluate.Metric`` and defines two methods:

* ``_score_rows(predictions, references, **options)``: the scoring core on raw rows, with all its
  checks (what ``compute()`` returns when it can skip evaluate's Arrow round trip);
* ``_checked_rows(predictions, references, start)``: the same checks, returning the rows as the
  metric's features expect them (plain Python values), ready to be encoded; errors number the
  rows from ``start``.

So ``compute()``, ``add()``, ``add_batch()`` and distributed runs accept and refuse the same
inputs with the same messages, and no datasets or pyarrow error reaches the user.
"""


def _require_both(call: str, names: tuple[str, str], values: tuple) -> None:
    missing = [name for name, value in zip(names, values) if value is None]
    if missing:
        raise ValueError(
            f"{call} needs both {names[0]} and {names[1]}; {' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing (None)"
        )


class CheckedRows:
    # datasets' encoding would silently turn malformed values (a "1" or 1.5 where an int
    # belongs, a tuple) into valid ones and change the official numbers, and fails with its own
    # errors on others (an int beyond int64): rows are checked first.

    # Rows added by this process since the last compute(): errors number rows as compute() would
    # over everything added (add_batch's third row after ten is "predictions[12]").
    _rows_added = 0

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the scores (see the class docs).

        When all rows come in this one call of a single process, the scoring core takes them
        directly: the same checks and numbers, without evaluate's Arrow round trip.
        """
        if predictions is not None or references is not None:
            _require_both("compute()", ("predictions", "references"), (predictions, references))
            if self.num_process == 1 and self.writer is None:
                return self._score_rows(predictions, references, **kwargs)
        elif self.num_process == 1 and self.writer is None:
            raise ValueError(
                "compute() needs predictions and references, or rows added first with add() "
                "or add_batch()"
            )
        try:
            return super().compute(predictions=predictions, references=references, **kwargs)
        finally:
            self._rows_added = 0

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (checked first; see the class docs)."""
        _require_both("add_batch()", ("predictions", "references"), (predictions, references))
        predictions, references = self._checked_rows(predictions, references, self._rows_added)
        super().add_batch(predictions=predictions, references=references, **kwargs)
        self._rows_added += len(predictions)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference (checked first; see the class docs)."""
        _require_both("add()", ("prediction", "reference"), (prediction, reference))
        predictions, references = self._checked_rows([prediction], [reference], self._rows_added)
        super().add(prediction=predictions[0], reference=references[0], **kwargs)
        self._rows_added += 1
