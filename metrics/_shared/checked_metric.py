"""What every taskeval metric adds to ``evaluate.Metric``: rows checked before they are encoded,
strings stored so that Arrow takes every one, and whole inputs scored straight by the scoring
core.

Each metric folder links this file (``checked_metric.py``), so a folder still loads on its own
(copy it with links followed to push it to the Hub). A metric class lists ``CheckedRows`` before
``evaluate.Metric`` and defines two methods:

* ``_score_rows(predictions, references, **options)``: the scoring core on raw rows, with all its
  checks (what ``compute()`` returns when it can skip evaluate's Arrow round trip);
* ``_checked_rows(predictions, references, start)``: the same checks, returning the rows as the
  metric's features expect them (plain Python values), ready to be encoded; errors number the
  rows from ``start``.

So ``compute()``, ``add()``, ``add_batch()`` and distributed runs accept and refuse the same
inputs with the same messages and give the same numbers, and no datasets or pyarrow error reaches
the user. A refused call adds nothing: later calls number rows and score as if it never happened.
"""

import os
import re

from .plain_values import gc_paused, shown

# --- Strings that Arrow cannot store -------------------------------------------------------------
# A Python str may hold a lone surrogate ("\ud800": an escaped one is valid JSON, and the official
# scorers compare such ids like any other), but Arrow stores strings as UTF-8, which has no code
# for it. Such a string is stored escaped: the mark below, then its code points as UTF-8
# (surrogates as themselves), one latin-1 character per byte; it is restored before scoring.
#
# Ordinary rows must cost nothing, so nothing is looked at on the way in: Arrow itself finds a lone
# surrogate, refusing the batch (with a UnicodeEncodeError, before writing any of it). From that
# row on, the process stores every row escaped, and a string that starts with the mark is escaped
# too: among the rows stored escaped, a string that starts with the mark is always an escape, so
# the encoding is injective (equal strings stay equal, different ones different). The rows stored
# before, untouched, are read back untouched. In a distributed run, process 0 reads every
# process's rows without knowing where each began escaping: there every row is stored escaped.
_MARK = "\ufdd0"  # a Unicode noncharacter: reserved for a program's internal use
_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def _unstorable(text: str) -> bool:
    """Whether a non-ASCII string must be stored escaped (among rows stored escaped)."""
    return text[0] == _MARK or _has_surrogate(text)


def _escaped(text: str) -> str:
    if text.isascii() or not _unstorable(text):
        return text
    return _MARK + text.encode("utf-8", "surrogatepass").decode("latin-1")


def _marked(text: str) -> bool:
    """Whether a non-ASCII string read back from rows stored escaped is an escape."""
    return text[0] == _MARK


def _restored(text: str) -> str:
    if text.isascii() or not _marked(text):
        return text
    return text[1:].encode("latin-1").decode("utf-8", "surrogatepass")


def _any_string(values, test) -> bool:
    """Whether a non-ASCII string nested in ``values`` (dicts, lists, tuples) passes ``test``."""
    for value in values:
        kind = type(value)
        if kind is str:
            if not value.isascii() and test(value):
                return True
        elif kind is dict:
            if _any_string(value.values(), test):
                return True
        elif kind is list or kind is tuple:
            if _any_string(value, test):
                return True
        elif isinstance(value, str) and not value.isascii() and test(value):
            return True
    return False


def _with_strings(value, change):
    """``value`` rebuilt with ``change`` applied to every string nested in it."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {key: _with_strings(item, change) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_with_strings(item, change) for item in value]
    return value


def _stored_escaped(rows: list) -> list:
    """``rows`` as they are stored escaped."""
    return _with_strings(rows, _escaped) if _any_string(rows, _unstorable) else rows


def _restored_rows(rows: list) -> list:
    """Rows read back from rows stored escaped, every escape restored."""
    return _with_strings(rows, _restored) if _any_string(rows, _marked) else rows


# --- evaluate's notice on loading an installed copy -----------------------------------------------
# ``evaluate.load("<name>")`` offline finds a metric that ``taskeval install`` put in its modules
# cache and logs, on every load, that it uses "the latest cached version" of it: for taskeval's
# copies, which are that copy by design, the notice is noise. Once a taskeval metric is imported,
# the notice is dropped for the copies taskeval installed (their folder holds the marker below,
# taskeval.install.MARKER), and only for them.
_INSTALLED_MARKER = "TASKEVAL_INSTALLED"
_NOTICE = re.compile(r"Using the latest cached version of the module from (.+?) \(last modified")


def _not_an_installed_copy_notice(record) -> bool:
    found = _NOTICE.match(record.getMessage())
    return found is None or not os.path.isfile(os.path.join(found[1], _INSTALLED_MARKER))


def _quiet_installed_copy_notice() -> None:
    import logging

    logger = logging.getLogger("evaluate.loading")
    if not getattr(logger, "_taskeval_quiet", False):  # each metric folder has its own copy
        logger.addFilter(_not_an_installed_copy_notice)
        logger._taskeval_quiet = True


_quiet_installed_copy_notice()


# --- The mixin -----------------------------------------------------------------------------------


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
    # The first row (numbered as above) from which this process stores rows escaped; None while
    # it stores them as they are (see "Strings that Arrow cannot store").
    _escaping_from = None

    def _escaped_from(self):
        return 0 if self.num_process > 1 else self._escaping_from

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the scores (see the class docs).

        When all rows come in this one call of a single process, the scoring core takes them
        directly: the same checks and numbers, without evaluate's Arrow round trip.
        """
        self._check_options(kwargs)
        if predictions is not None or references is not None:
            _require_both("compute()", ("predictions", "references"), (predictions, references))
            if self.num_process == 1 and self.writer is None:
                return self._score_rows(predictions, references, **kwargs)
            # Added here, not by evaluate's compute(): rows refused are refused before the rows
            # added earlier are read (and so consumed), which stay for the next compute().
            self.add_batch(predictions=predictions, references=references)
        elif self.num_process == 1 and self.writer is None:
            raise ValueError(
                "compute() needs predictions and references, or rows added first with add() "
                "or add_batch()"
            )
        start = self._escaped_from()
        if start is None:
            try:
                with gc_paused():
                    return super().compute(**kwargs)
            finally:
                self._rows_added = 0
        own = self.__dict__.get("_compute")  # this instance's own _compute, if any (a test's)
        scoring = self._compute
        features = set(self._feature_names())

        def restoring_compute(**inputs):
            # The rows come back in the order they were added (process by process).
            for key in features & set(inputs):
                rows = inputs[key]
                inputs[key] = rows[:start] + _restored_rows(rows[start:])
            return scoring(**inputs)

        self._compute = restoring_compute
        try:
            with gc_paused():
                return super().compute(**kwargs)
        finally:
            if own is None:
                del self._compute
            else:
                self._compute = own
            self._rows_added = 0
            self._escaping_from = None

    def _finalize(self):
        """evaluate's gathering of every process's cache file, with a file that a process never
        finished (it was killed, or stopped, before its compute()) named as such, not by the
        Arrow reader's message about a stream."""
        import pyarrow as pa

        try:
            super()._finalize()
        except pa.ArrowInvalid:
            raise ValueError(self._unfinished_files()) from None

    def _unfinished_files(self) -> str:
        import pyarrow as pa

        unfinished = []
        for process_id in range(self.num_process):
            name = f"{self.experiment_id}-{self.num_process}-{process_id}.arrow"
            try:
                with pa.memory_map(os.path.join(self.data_dir, name)) as source:
                    pa.ipc.open_stream(source).read_all()
            except (OSError, pa.ArrowInvalid):
                unfinished.append(f"process {process_id} ({name})")
        return (
            f"{self.name}: the cache file of {', '.join(unfinished) or 'a process'} in "
            f"{self.data_dir} is unfinished: that process stopped (killed or failed) before its "
            "compute(); run every process again"
        )

    def _check_options(self, options):
        """Refuse an option ``_compute`` does not take, or a value it would refuse, before any
        row is read: evaluate's compute() consumes the rows added before it scores them, and a
        refused call must keep them for the next."""
        import inspect

        taken = [
            name
            for name in inspect.signature(self._compute).parameters
            if name not in ("predictions", "references")
        ]
        unknown = sorted(set(options) - set(taken))
        if unknown:
            raise ValueError(
                f"{self.name} takes no option {', '.join(map(shown, unknown))} "
                f"(its options: {', '.join(taken)})"
            )
        self._checked_options(**options)

    def _checked_options(self, **options):
        """The checks ``_compute`` makes of its options (a metric with options overrides it)."""

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (checked first; see the class docs)."""
        _require_both("add_batch()", ("predictions", "references"), (predictions, references))
        with gc_paused():
            predictions, references = self._checked_rows(predictions, references, self._rows_added)
            if self._escaped_from() is None:
                try:
                    self._store(predictions, references, kwargs)
                except UnicodeEncodeError:  # a lone surrogate: nothing of the batch was written
                    self._escaping_from = self._rows_added
                else:
                    self._rows_added += len(predictions)
                    return
            self._store(_stored_escaped(predictions), _stored_escaped(references), kwargs)
        self._rows_added += len(predictions)

    def _store(self, predictions, references, kwargs):
        """Write checked rows to evaluate's Arrow cache as evaluate's add_batch() would, without
        its encoding: checked rows are already the plain values the features hold, which that
        encoding (a Python call per value) would hand on unchanged."""
        if kwargs:  # evaluate names the inputs it does not take
            super().add_batch(predictions=predictions, references=references, **kwargs)
            return
        batch = {"predictions": predictions, "references": references}
        if self.writer is None:
            self.selected_feature_format = self._infer_feature_from_batch(batch)
            self._init_writer()
        self.writer.write_batch(batch)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference (checked first; see the class docs)."""
        _require_both("add()", ("prediction", "reference"), (prediction, reference))
        predictions, references = self._checked_rows([prediction], [reference], self._rows_added)
        # evaluate holds rows of add() and writes them later, with the next batch: a lone
        # surrogate must be found now, while this row can still be stored escaped.
        if self._escaped_from() is None and _any_string((predictions, references), _has_surrogate):
            self._escaping_from = self._rows_added
        if self._escaped_from() is not None:
            predictions = _stored_escaped(predictions)
            references = _stored_escaped(references)
        super().add(prediction=predictions[0], reference=references[0], **kwargs)
        self._rows_added += 1
