"""What every taskeval metric adds to ``evaluate.Metric``: rows checked before they are encoded,
and whole inputs scored straight by the scoring core.

Each metric folder links this file (``checked_metric.py``), so a folder still loads on its own
(copy it with links followed to push it to the Hub). A metric class lists ``CheckedRows`` before
``evaluate.Metric`` and defines two methods:

* ``_score_rows(predictions, references, **options)``: the scoring core on raw rows, with all its
  checks (what ``compute()`` returns when it can skip evaluate's Arrow round trip);
* ``_checked_rows(predictions, references)``: the same checks, returning the rows as the
  metric's features expect them, ready to be encoded.
"""


class CheckedRows:
    # datasets' encoding would silently turn malformed values (a "1" or 1.5 where an int
    # belongs, a tuple) into valid ones and change the official numbers: rows are checked first.

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the scores (see the class docs).

        When all rows come in this one call of a single process, the scoring core takes them
        directly: the same checks and numbers, without evaluate's Arrow round trip.
        """
        if predictions is not None and references is not None:
            if self.num_process == 1 and self.writer is None:
                return self._score_rows(predictions, references, **kwargs)
        return super().compute(predictions=predictions, references=references, **kwargs)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (checked first; see the class docs)."""
        if predictions is not None and references is not None:
            predictions, references = self._checked_rows(predictions, references)
        return super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference (checked first; see the class docs)."""
        if prediction is not None and reference is not None:
            predictions, references = self._checked_rows([prediction], [reference])
            prediction, reference = predictions[0], references[0]
        return super().add(prediction=prediction, reference=reference, **kwargs)
