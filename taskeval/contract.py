"""The contract of a metric folder: everything taskeval needs from ``metrics/<name>/``.

A metric folder is an ``evaluate`` metric (``<name>.py`` and the plain-Python modules it
imports, loadable with only evaluate, datasets and numpy) plus ``contract.py``, a module evaluate
never loads, which defines ``CONTRACT = MetricContract(...)``. The command line, ``read_official``,
``compare`` and the ``--ci`` intervals, the Spaces and ``taskeval export`` read the metric only
through it; ``check`` says what a folder lacks. The parts of a Space that need gradio (option
widgets, custom plots) are in the Space's own ``spaces/<name>/app.py``.

The classes are plain classes, not dataclasses: ``taskeval score`` imports this module on its
fastest path, where importing ``dataclasses`` or ``typing`` would cost more than scoring a small
file. Their arguments are keyword-only beyond the first ones, and every value is kept as given.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs the command line milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from os import PathLike
    from typing import Any

    Path = str | PathLike
    Inputs = Mapping[str, Any]  # compute() keyword inputs: predictions, references

__all__ = [
    "BarChart",
    "Config",
    "ContractError",
    "FileArgument",
    "FileKinds",
    "Files",
    "LmEvalTasks",
    "ManyResamples",
    "MetricCommand",
    "MetricContract",
    "Option",
    "OutputFormat",
    "Reader",
    "ResultFilter",
    "SpaceContract",
    "StratifiedStatistics",
    "SubmissionCheck",
    "SumStatistics",
    "UsageError",
    "check",
]


class _Record:
    """Equality and a readable repr from ``__slots__`` (what a dataclass would give)."""

    __slots__ = ()

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(
            getattr(self, k) == getattr(other, k) for k in self.__slots__
        )

    __hash__ = None  # type: ignore[assignment]


# ---------------------------------------------------------------------------------------------
# Files


class FileArgument(_Record):
    """One of the two paths a metric reads (``--references`` or ``--predictions``).

    ``help`` is the command line's help text. ``kind`` is ``"file"`` or ``"folder"`` (a folder
    of files with official names; a Space then takes several uploads for it). ``gzip``: a path
    whose name contains ``.gz`` is read as gzip. ``gold``: this side carries the gold.
    ``optional``: the path may be left out (the other side then carries what it would give).
    """

    __slots__ = ("gold", "gzip", "help", "kind", "optional")

    def __init__(
        self,
        help: str,
        *,
        kind: str = "file",
        gzip: bool = False,
        gold: bool = False,
        optional: bool = False,
    ) -> None:
        self.help, self.kind, self.gzip, self.gold, self.optional = help, kind, gzip, gold, optional


class FileKinds(_Record):
    """How to tell the task's files at a glance, so that a refused file can be named as the
    other side's (swapped predictions and references) or another task's (``taskeval.mistakes``).

    ``task``: the task's name in messages ("FEVER"); metrics of the same task read the same files.
    ``recognise(sample)``: a ``taskeval.mistakes.Sample`` (a file's name and first JSON value,
    perhaps cut short; a folder's names) → ``("references" | "predictions", evidence)``, the
    evidence as a message says it ("it has 'label' and 'evidence'"), or None for a file it does
    not know. Asked only after an error, on any file: it must be cheap and not raise.
    """

    __slots__ = ("recognise", "task")

    def __init__(self, task: str, recognise: Callable[[Any], tuple[str, str] | None]) -> None:
        self.task, self.recognise = task, recognise


class Files(_Record):
    """What ``--references`` and ``--predictions`` are.

    ``submissions``: when ``predictions`` may also be a folder of several submissions, each
    scored on its own (``taskeval score`` only), the words added to its help. ``row_per_line``:
    row ``i`` of ``compute()``'s inputs is line ``i + 1`` of each file, so an error naming
    ``predictions[i]`` is reported as the file and line. ``gold_in_line(predictions, line)``:
    whether that prediction line carries its own gold (an error about its reference then names
    the predictions file). ``kinds``: how to tell the task's files (``FileKinds``).
    ``inflate(path)``: for a metric reading gzip files (a ``FileArgument`` with ``gzip``), how
    its reader inflates one: the inflated bytes, chunk by chunk, as the reader reads them (every
    member, padding skipped), raising ``OSError``, ``EOFError`` or ``zlib.error`` on a broken
    file. A Space holds a gzip upload to its inflated-size limit with it; without it, Python's
    ``gzip`` module inflates the upload.
    """

    __slots__ = (
        "gold_in_line",
        "inflate",
        "kinds",
        "predictions",
        "references",
        "row_per_line",
        "submissions",
    )

    def __init__(
        self,
        references: FileArgument,
        predictions: FileArgument,
        *,
        submissions: str | None = None,
        row_per_line: bool = False,
        gold_in_line: Callable[[Path, int], bool] | None = None,
        kinds: FileKinds | None = None,
        inflate: Callable[[str], Iterable[bytes]] | None = None,
    ) -> None:
        self.references, self.predictions, self.kinds = references, predictions, kinds
        self.inflate = inflate
        self.submissions, self.row_per_line, self.gold_in_line = (
            submissions,
            row_per_line,
            gold_in_line,
        )


# ---------------------------------------------------------------------------------------------
# Options


class Option(_Record):
    """A keyword option of ``compute()`` (``max_evidence``), given on the command line as
    ``flag`` (``--max-evidence``).

    ``parse`` turns the command-line text into the value (raising ``ValueError`` or
    ``TypeError`` on bad text; the command line then says it expected ``metavar``). ``default``
    is what ``compute()`` uses when the option is not given. ``note(value)``, for an option
    that changes what the numbers mean (their scale, what they average): the line saying so,
    printed and shown beside the scores (``MetricContract.notes``).
    """

    __slots__ = ("default", "help", "metavar", "name", "note", "parse")

    def __init__(
        self,
        name: str,
        parse: Callable[[str], Any],
        *,
        metavar: str,
        help: str,
        default: Any = None,
        note: Callable[[Any], str] | None = None,
    ) -> None:
        self.name, self.parse, self.metavar, self.help, self.default = (
            name,
            parse,
            metavar,
            help,
            default,
        )
        self.note = note

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


class Config(_Record):
    """The metric's ``evaluate`` configurations (``evaluate.load(name, config)``), of which the
    command line picks one with ``flag`` (``--<name>``) and the library with the keyword
    ``name``.

    ``values`` are the config names; ``parse`` turns the command-line text into one (a number
    into the config's name, say), ``expected`` says what it takes. ``default`` is the config of
    ``evaluate.load(name)``. ``pairs(references, predictions, value)`` gives, for files holding
    several configurations, ``(config, references, predictions)`` for each one to score
    (``value`` picks one): what ``compare`` scores config by config.
    """

    __slots__ = ("default", "expected", "help", "metavar", "name", "pairs", "parse", "values")

    def __init__(
        self,
        name: str,
        values: Sequence[str],
        parse: Callable[[str], str],
        *,
        metavar: str,
        expected: str,
        help: str,
        default: str,
        pairs: Callable[[Path, Path, str | None], list[tuple[str, Path, Path]]],
    ) -> None:
        self.name, self.values, self.parse, self.metavar = name, tuple(values), parse, metavar
        self.expected, self.help, self.default, self.pairs = expected, help, default, pairs

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


# ---------------------------------------------------------------------------------------------
# Reading official files and Hub rows


class Reader(_Record):
    """How official files and Hub rows become ``compute()`` inputs, and how files are scored.

    ``read_official(references, predictions)`` → ``{"predictions": [...], "references": [...]}``
    (``compute()``'s keyword inputs). ``score_files(references, predictions, **options)`` →
    what ``taskeval score`` prints, equal to ``compute(**read_official(...), **options)`` (for a
    metric with a ``Config``: ``{config: scores}`` for each config the files hold, the config
    option given as ``Config.name``). ``references_from_hub(rows, **kwargs)`` → ``references``
    from the rows of the task's Hugging Face Hub dataset.

    Metrics whose readers share a ``group`` read the same files: ``taskeval score a,b`` reads
    them once, through ``score_metrics(names, references, predictions, **options)``.

    ``row_id(row)``, for a metric that pairs predictions with gold by an id (not by position):
    the id of a ``compute()`` row, or None for none; ``compare`` names the ids that make two
    systems' rows differ.
    """

    __slots__ = (
        "group",
        "read_official",
        "references_from_hub",
        "row_id",
        "score_files",
        "score_metrics",
    )

    def __init__(
        self,
        read_official: Callable[[Path | None, Path], dict[str, list]],
        score_files: Callable[..., dict[str, Any]],
        *,
        references_from_hub: Callable[..., list[dict]] | None = None,
        group: str | None = None,
        score_metrics: Callable[..., dict[str, Any]] | None = None,
        row_id: Callable[[Mapping[str, Any]], Any] | None = None,
    ) -> None:
        self.read_official, self.score_files, self.row_id = read_official, score_files, row_id
        self.references_from_hub, self.group, self.score_metrics = (
            references_from_hub,
            group,
            score_metrics,
        )


# ---------------------------------------------------------------------------------------------
# Statistics for resampling (``compare``, ``--ci``, the Spaces' intervals)


class SumStatistics(_Record):
    """A metric whose scores are a function of sums over units (claims, sentences).

    ``stats(inputs)`` gives one row of ``width`` floats per unit (the statistics the official
    loop adds up; as sacrebleu's ``_extract_corpus_statistics``); ``scores(sums, n)`` turns the
    sums of a sample of ``n`` units into the scores (``_compute_score_from_stats``). A resample's
    sums are weighted sums of unit rows. ``official(inputs)`` is ``compute()``'s result on the
    inputs, ``keys`` the scores that get intervals, ``unit`` what a unit is (singular).
    Sums taken left to right over all units give ``compute()``'s numbers exactly.
    ``official_and_stats(inputs)``, optional: ``(official(inputs), stats(inputs))`` in one pass
    over the rows, for a metric where that is cheaper than the two apart.
    ``official_and_stats_from_files(references, predictions)``, optional: the same pair for the
    inputs ``Reader.read_official`` would make of the files, straight from the files, or None
    where that shortcut does not apply (then the files are read into inputs, and any problem is
    reported from there). It raises only what ``read_official`` raises on the same files, with
    the same warnings before it.
    """

    __slots__ = (
        "keys",
        "official",
        "official_and_stats",
        "official_and_stats_from_files",
        "scores",
        "stats",
        "unit",
        "width",
    )

    def __init__(
        self,
        unit: str,
        keys: Sequence[str],
        *,
        width: int,
        official: Callable[[Inputs], dict[str, Any]],
        stats: Callable[[Inputs], list[Sequence[float]]],
        scores: Callable[[list[float], int], dict[str, float]],
        official_and_stats: Callable[[Inputs], tuple[dict[str, Any], list[Sequence[float]]]]
        | None = None,
        official_and_stats_from_files: Callable[
            [Path | None, Path], tuple[dict[str, Any], list[Sequence[float]]] | None
        ]
        | None = None,
    ) -> None:
        self.unit, self.keys, self.width = unit, tuple(keys), width
        self.official, self.stats, self.scores = official, stats, scores
        self.official_and_stats = official_and_stats
        self.official_and_stats_from_files = official_and_stats_from_files


class ManyResamples(_Record):
    """The optional fast path of ``StratifiedStatistics``: many resamples scored at once.

    ``stratum(name, parts, picks)``: one stratum's name and parts (lists indexed by unit, as
    ``units`` gives them) and an int array ``picks`` of shape ``(resamples, m)`` whose row ``b``
    lists the units of resample ``b`` in the order ``score`` would visit them (``m`` = 0 for a
    stratum without units; the array may be a read-only view) → a tuple of float arrays with
    one entry per resample. ``combine(values)``: those tuples for every stratum scored, in the
    order of ``strata`` → one float array per key. Together they give every resample exactly
    (``==``) what ``score`` gives it: ``combine({s: stratum(s, parts[s], picks[s]) ...})[key][b]
    == score({s: tuple([p[i] for i in picks[s][b]] for p in parts[s]) ...})[key]``; values that
    ``combine`` ignores (a stratum left out of every key) may be anything of that shape. A
    stratum's resamples come in chunks (to bound memory), with the same ``parts`` objects
    every time, and several chunks may be scored at once in threads of one process: ``stratum``
    must not depend on the order of its calls.
    """

    __slots__ = ("combine", "stratum")

    def __init__(
        self,
        stratum: Callable[[str, tuple[list, ...], Any], tuple],
        combine: Callable[[dict[str, tuple]], dict[str, Any]],
    ) -> None:
        self.stratum, self.combine = stratum, combine


class StratifiedStatistics(_Record):
    """A metric scored anew on every resample from its units' statistics, within strata.

    ``units(inputs)`` → ``(parts, identity, strata)``: ``parts[stratum]`` holds one list per part
    of a unit's statistics, indexed by unit (a resample indexes them all with the same draw);
    ``identity[stratum]`` the unit indices in the official visiting order of the original
    sample; ``strata`` every stratum scored, even with no unit. ``score(stats)`` scores the parts
    of each stratum (in visiting order). Resamples are drawn within each stratum and may be
    scored in several processes. ``official``, ``keys``, ``unit``: as for ``SumStatistics``.

    ``many``, optional: a ``ManyResamples`` scoring many resamples at once (with numpy), the
    same numbers; without it, every resample is scored by ``score``, one by one.
    ``official_and_units_from_files(references, predictions)``, optional: ``(official(inputs),
    units(inputs))`` for the inputs ``Reader.read_official`` would make of the files, straight
    from the files, or None where that shortcut does not apply (then the files are read into
    inputs, and any problem is reported from there, as for ``SumStatistics``).
    """

    __slots__ = (
        "keys",
        "many",
        "official",
        "official_and_units_from_files",
        "score",
        "unit",
        "units",
    )

    def __init__(
        self,
        unit: str,
        keys: Sequence[str],
        *,
        official: Callable[[Inputs], dict[str, Any]],
        units: Callable[
            [Inputs], tuple[dict[str, tuple[list, ...]], dict[str, list[int]], list[str]]
        ],
        score: Callable[[dict[str, tuple[list, ...]]], dict[str, float]],
        many: ManyResamples | None = None,
        official_and_units_from_files: Callable[
            [Path | None, Path],
            tuple[
                dict[str, Any],
                tuple[dict[str, tuple[list, ...]], dict[str, list[int]], list[str]],
            ]
            | None,
        ]
        | None = None,
    ) -> None:
        self.unit, self.keys = unit, tuple(keys)
        self.official, self.units, self.score, self.many = official, units, score, many
        self.official_and_units_from_files = official_and_units_from_files


# ---------------------------------------------------------------------------------------------
# Output of ``taskeval score`` beyond JSON and the table


class OutputFormat(_Record):
    """A format ``taskeval score`` prints instead of JSON, chosen by ``--<name>``:
    ``write(result, predictions)`` → the text."""

    __slots__ = ("help", "name", "write")

    def __init__(self, name: str, help: str, write: Callable[[dict, Path], str]) -> None:
        self.name, self.help, self.write = name, help, write


class ResultFilter(_Record):
    """A switch ``--<name>`` of ``taskeval score`` that reduces the result before it is
    printed: ``apply(result, options)``, ``options`` those the files were scored with (the
    config's included), as ``score_files`` took them."""

    __slots__ = ("apply", "help", "name")

    def __init__(
        self, name: str, help: str, apply: Callable[[dict, Mapping[str, Any]], dict]
    ) -> None:
        self.name, self.help, self.apply = name, help, apply


# ---------------------------------------------------------------------------------------------
# Commands of the metric's own (``taskeval <name> ...``)


class UsageError(ValueError):
    """Raised by a ``MetricCommand``'s ``run`` when its arguments do not fit together (the
    command line then says so as a usage error, exit status 2); any other ``ValueError`` or
    ``OSError`` is a problem with the files (exit status 1)."""


class MetricCommand(_Record):
    """A command of the metric's own beyond ``score``, ``compare`` and ``check``: ``taskeval
    <name> [arguments]`` (FEVER 2.0's builder–breaker scores, say).

    ``name``: the command's word (lowercase letters, digits and hyphens; no other metric's and
    no built-in command's). ``help``: its help text. ``arguments(parser)`` adds its arguments to
    an ``argparse`` parser (the command line adds ``--table`` and ``--json``); ``run(args)``
    takes the parsed arguments and returns the result, printed as JSON, raising ``UsageError``
    for arguments that do not fit together and ``ValueError`` or ``OSError`` for bad files.
    ``table(result)``: the result for people (``--table``), as tables, each a list of rows of
    cells, its header first (default: the layout of ``taskeval score --table``).
    """

    __slots__ = ("arguments", "help", "name", "run", "table")

    def __init__(
        self,
        name: str,
        help: str,
        *,
        arguments: Callable[[Any], None],
        run: Callable[[Any], dict],
        table: Callable[[dict], list[list[list[str]]]] | None = None,
    ) -> None:
        self.name, self.help, self.arguments, self.run, self.table = (
            name,
            help,
            arguments,
            run,
            table,
        )


# ---------------------------------------------------------------------------------------------
# EleutherAI's lm-evaluation-harness


class LmEvalTasks(_Record):
    """The metric's tasks for EleutherAI's lm-evaluation-harness, and how a run's logs are read.

    ``folder``: the folder, inside the metric folder, of its task configs (YAML, and the Python
    file their ``!function`` tags name); the harness finds them under the folder of all metrics
    (``taskeval lm-eval-tasks``, its ``--include_path``). ``tasks``: the names of the tasks and
    groups in it, the ones to run first. ``read(samples)``: one run's logged samples
    (``--log_samples``), ``{task: [sample, ...]}`` for the tasks ``knows`` takes, → ``compute()``
    inputs (``taskeval compare --lm-eval-logs``). ``knows(task)``: whether the metric reads the
    samples of a logged task: its own, and the harness's own tasks of the same data.
    """

    __slots__ = ("folder", "knows", "read", "tasks")

    def __init__(
        self,
        folder: str,
        tasks: Sequence[str],
        *,
        knows: Callable[[str], bool],
        read: Callable[[Mapping[str, Sequence[Mapping[str, Any]]]], dict[str, list]],
    ) -> None:
        self.folder, self.tasks, self.knows, self.read = folder, tuple(tasks), knows, read


# ---------------------------------------------------------------------------------------------
# The Space


class BarChart(_Record):
    """The Space's plot as stacked bars: ``rows(details, config)`` gives one dict per counted
    item with its ``x`` and ``color`` values (and ``y``, its count, when not 1); bars in
    ``x_order``, each ``color`` value in its fixed colour of ``colors`` (the legend's order).
    ``y`` names the counted things; ``title`` is a text or ``title(config)``."""

    __slots__ = ("color", "colors", "rows", "title", "x", "x_order", "y")

    def __init__(
        self,
        rows: Callable[[list[dict], str | None], list[dict]],
        *,
        x: str,
        y: str,
        color: str,
        x_order: Sequence[str],
        colors: Mapping[str, str],
        title: str | Callable[[str | None], str],
    ) -> None:
        self.rows, self.x, self.y, self.color = rows, x, y, color
        self.x_order, self.colors, self.title = tuple(x_order), dict(colors), title


class SpaceContract(_Record):
    """What the metric's Space shows, beyond the shared layout (``taskeval.space``).

    ``examples``: per side (``references``, ``predictions``), the example's path in the Space's
    ``examples/`` folder (a folder for a ``"folder"`` file argument), scored when the page
    opens and shipped by ``taskeval export``; ``example_config``: the config they hold.
    ``example_rows(rows)`` picks the rows shown in the JSON tab from ``read_official`` of the
    examples. ``file_help``: the text above the uploads. ``breakdown_columns``: the columns of
    the per-item table (default: every detail field); ``chart``: the plot, unless the Space's
    ``app.py`` draws its own.
    """

    __slots__ = (
        "breakdown_columns",
        "chart",
        "example_config",
        "example_rows",
        "examples",
        "file_help",
    )

    def __init__(
        self,
        examples: Mapping[str, str],
        *,
        file_help: str,
        example_rows: Callable[[dict[str, list]], dict[str, list]] | None = None,
        example_config: str | None = None,
        breakdown_columns: Sequence[str] | None = None,
        chart: BarChart | None = None,
    ) -> None:
        self.examples, self.file_help, self.example_rows = dict(examples), file_help, example_rows
        self.example_config = example_config
        self.breakdown_columns = None if breakdown_columns is None else list(breakdown_columns)
        self.chart = chart


# ---------------------------------------------------------------------------------------------
# Checking a submission (``taskeval check``)


class SubmissionCheck(_Record):
    """The metric's submission check: ``run(files, report)`` reads ``files`` (a
    ``taskeval.check.CheckFiles``: ``predictions``, the task's unlabelled test ``inputs``, a
    tuple of paths, and the gold ``references`` or None) and reports every problem through
    ``report`` (a ``taskeval.check.Collector``: ``error``, ``warning``, ``refused``, ``jsonl``;
    it sets ``report.rows`` to the number of predictions read). Errors are what the official
    scorer would crash on, refuse, or score other than the user surely meant; warnings what is
    legal but likely a mistake. ``inputs`` is the command line's help for ``--inputs``."""

    __slots__ = ("inputs", "run")

    def __init__(self, run: Callable[[Any, Any], None], *, inputs: str) -> None:
        self.run, self.inputs = run, inputs


# ---------------------------------------------------------------------------------------------
# The contract


class MetricContract(_Record):
    """Everything taskeval needs from one metric folder; ``metrics/<name>/contract.py`` defines
    it as ``CONTRACT``.

    ``name``: the folder's name (as given to ``evaluate.load``). ``files``, ``options``,
    ``config``: what ``taskeval score`` and ``compare`` take (``options``: ``compute()``'s
    keyword options; ``config``: the metric's evaluate configs, if any). ``reader``: official
    files and Hub rows. ``statistics(config, options)``: the per-unit statistics and the scores
    made from them, for the given config name and ``compute()`` options (which it checks).
    ``formats`` and ``filters``: what ``taskeval score`` offers beyond JSON and ``--table``.
    ``space``: what its Space shows. ``check``: its ``SubmissionCheck`` (``taskeval check``),
    if it has one. ``commands``: its own commands (``MetricCommand``, ``taskeval <name>``).
    ``lm_eval``: its tasks for EleutherAI's lm-evaluation-harness (``LmEvalTasks``), if any.
    """

    __slots__ = (
        "check",
        "commands",
        "config",
        "files",
        "filters",
        "formats",
        "lm_eval",
        "name",
        "options",
        "reader",
        "space",
        "statistics",
    )

    def __init__(
        self,
        name: str,
        *,
        files: Files,
        reader: Reader,
        statistics: Callable[[str | None, Mapping[str, Any]], SumStatistics | StratifiedStatistics],
        space: SpaceContract,
        options: Sequence[Option] = (),
        config: Config | None = None,
        formats: Sequence[OutputFormat] = (),
        filters: Sequence[ResultFilter] = (),
        check: SubmissionCheck | None = None,
        commands: Sequence[MetricCommand] = (),
        lm_eval: LmEvalTasks | None = None,
    ) -> None:
        self.name, self.files, self.reader, self.statistics = name, files, reader, statistics
        self.check, self.commands, self.lm_eval = check, tuple(commands), lm_eval
        self.space, self.options, self.config = space, tuple(options), config
        self.formats, self.filters = tuple(formats), tuple(filters)

    def option(self, name: str) -> Option | None:
        """The option called ``name``, or None."""
        for option in self.options:
            if option.name == name:
                return option
        return None

    def setting_names(self) -> list[str]:
        """The keywords ``score_files`` and ``compare`` take for this metric: its options and
        its config's name."""
        names = [option.name for option in self.options]
        return names + ([self.config.name] if self.config is not None else [])

    def notes(self, options: Mapping[str, Any]) -> list[str]:
        """What the numbers scored with ``options`` (an option not given: its default) follow,
        one line per option that says (``Option.note``); none for most metrics."""
        return [
            option.note(options.get(option.name, option.default))
            for option in self.options
            if option.note is not None
        ]

    def resamples_in_processes(self) -> bool:
        """Whether its resamples are scored one by one (``StratifiedStatistics``), which
        ``compare`` spreads over worker processes, rather than summed."""
        return isinstance(self.statistics(self._default_config(), {}), StratifiedStatistics)

    def _default_config(self) -> str | None:
        return self.config.default if self.config is not None else None


# ---------------------------------------------------------------------------------------------
# Checking a contract


class ContractError(ValueError):
    """A metric folder that does not meet the contract; the message lists what is wrong."""


def _callable(problems: list[str], where: str, value: Any, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not callable(value):
        problems.append(f"{where} must be a function, got {value!r}")


def _text(problems: list[str], where: str, value: Any) -> None:
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{where} must be a non-empty text, got {value!r}")


def _of(problems: list[str], where: str, value: Any, kind: type) -> bool:
    if not isinstance(value, kind):
        problems.append(f"{where} must be a {kind.__name__}, got {type(value).__name__}")
        return False
    return True


def _check_files(problems: list[str], files: Any) -> None:
    if not _of(problems, "CONTRACT.files", files, Files):
        return
    for side in ("references", "predictions"):
        argument = getattr(files, side)
        where = f"CONTRACT.files.{side}"
        if _of(problems, where, argument, FileArgument):
            _text(problems, f"{where}.help", argument.help)
            if argument.kind not in ("file", "folder"):
                problems.append(f"{where}.kind must be 'file' or 'folder', got {argument.kind!r}")
    if isinstance(files.predictions, FileArgument) and files.predictions.optional:
        problems.append("CONTRACT.files.predictions cannot be optional")
    _callable(problems, "CONTRACT.files.gold_in_line", files.gold_in_line, optional=True)
    _callable(problems, "CONTRACT.files.inflate", files.inflate, optional=True)
    if files.kinds is not None and _of(problems, "CONTRACT.files.kinds", files.kinds, FileKinds):
        _text(problems, "CONTRACT.files.kinds.task", files.kinds.task)
        _callable(problems, "CONTRACT.files.kinds.recognise", files.kinds.recognise)


def _check_settings(problems: list[str], contract: MetricContract) -> None:
    names = []
    for i, option in enumerate(contract.options):
        where = f"CONTRACT.options[{i}]"
        if _of(problems, where, option, Option):
            if not option.name.isidentifier():
                problems.append(f"{where}.name must be a keyword name, got {option.name!r}")
            _callable(problems, f"{where}.parse", option.parse)
            _text(problems, f"{where}.help", option.help)
            names.append(option.name)
    config = contract.config
    if config is not None and _of(problems, "CONTRACT.config", config, Config):
        _callable(problems, "CONTRACT.config.parse", config.parse)
        _callable(problems, "CONTRACT.config.pairs", config.pairs)
        _text(problems, "CONTRACT.config.help", config.help)
        if config.default not in config.values:
            problems.append(
                f"CONTRACT.config.default must be one of {config.values}, got {config.default!r}"
            )
        names.append(config.name)
    if len(set(names)) != len(names):
        problems.append(f"CONTRACT's options and config share a name: {names}")
    for i, extra in enumerate(contract.formats):
        if _of(problems, f"CONTRACT.formats[{i}]", extra, OutputFormat):
            _callable(problems, f"CONTRACT.formats[{i}].write", extra.write)
    for i, extra in enumerate(contract.filters):
        if _of(problems, f"CONTRACT.filters[{i}]", extra, ResultFilter):
            _callable(problems, f"CONTRACT.filters[{i}].apply", extra.apply)


def _check_commands(problems: list[str], commands: Sequence[Any]) -> None:
    names = []
    for i, command in enumerate(commands):
        where = f"CONTRACT.commands[{i}]"
        if not _of(problems, where, command, MetricCommand):
            continue
        name = command.name
        word = isinstance(name, str) and name[:1].isalpha() and name.replace("-", "").isalnum()
        if not word or not name.isascii() or name != name.lower():
            problems.append(
                f"{where}.name must be a lowercase word (letters, digits, hyphens), got {name!r}"
            )
        names.append(name)
        _text(problems, f"{where}.help", command.help)
        _callable(problems, f"{where}.arguments", command.arguments)
        _callable(problems, f"{where}.run", command.run)
        _callable(problems, f"{where}.table", command.table, optional=True)
    if len(set(names)) != len(names):
        problems.append(f"CONTRACT.commands share a name: {names}")


def _check_reader(problems: list[str], reader: Any) -> None:
    if not _of(problems, "CONTRACT.reader", reader, Reader):
        return
    _callable(problems, "CONTRACT.reader.read_official", reader.read_official)
    _callable(problems, "CONTRACT.reader.score_files", reader.score_files)
    _callable(problems, "CONTRACT.reader.references_from_hub", reader.references_from_hub, True)
    if reader.group is not None:
        _callable(problems, "CONTRACT.reader.score_metrics", reader.score_metrics)


def _check_statistics(problems: list[str], contract: MetricContract) -> None:
    _callable(problems, "CONTRACT.statistics", contract.statistics)
    if problems:
        return
    try:
        made = contract.statistics(contract._default_config(), {})
    except Exception as e:
        problems.append(f"CONTRACT.statistics(default config, {{}}) failed: {e!r}")
        return
    if not isinstance(made, (SumStatistics, StratifiedStatistics)):
        problems.append(
            "CONTRACT.statistics must give a SumStatistics or a StratifiedStatistics, got "
            f"{type(made).__name__}"
        )
        return
    _text(problems, "CONTRACT.statistics(...).unit", made.unit)
    if not made.keys:
        problems.append("CONTRACT.statistics(...).keys must name at least one score")
    parts = ("stats", "scores") if isinstance(made, SumStatistics) else ("units", "score")
    for part in ("official", *parts):
        _callable(problems, f"CONTRACT.statistics(...).{part}", getattr(made, part))
    optional = (
        ("official_and_stats", "official_and_stats_from_files")
        if isinstance(made, SumStatistics)
        else ("official_and_units_from_files",)
    )
    for part in optional:
        _callable(problems, f"CONTRACT.statistics(...).{part}", getattr(made, part), optional=True)


def _check_space(problems: list[str], space: Any) -> None:
    if not _of(problems, "CONTRACT.space", space, SpaceContract):
        return
    _text(problems, "CONTRACT.space.file_help", space.file_help)
    for side in ("references", "predictions"):
        if not isinstance(space.examples.get(side), str):
            problems.append(f"CONTRACT.space.examples must name the {side} example")
    _callable(problems, "CONTRACT.space.example_rows", space.example_rows, optional=True)
    if space.chart is not None and _of(problems, "CONTRACT.space.chart", space.chart, BarChart):
        _callable(problems, "CONTRACT.space.chart.rows", space.chart.rows)


def check(module: Any, name: str) -> MetricContract:
    """The ``CONTRACT`` of a metric folder's imported ``contract`` module, checked: raises a
    ``ContractError`` listing every part missing or malformed."""
    contract = getattr(module, "CONTRACT", None)
    if contract is None:
        raise ContractError(
            f"metric {name!r}: its contract.py defines no CONTRACT (a taskeval.contract."
            f"MetricContract)"
        )
    if not isinstance(contract, MetricContract):
        raise ContractError(
            f"metric {name!r}: CONTRACT must be a MetricContract, got {type(contract).__name__}"
        )
    problems: list[str] = []
    if contract.name != name:
        problems.append(f"CONTRACT.name is {contract.name!r}, not the folder's name {name!r}")
    _check_files(problems, contract.files)
    _check_settings(problems, contract)
    _check_reader(problems, contract.reader)
    _check_commands(problems, contract.commands)
    _check_space(problems, contract.space)
    if contract.check is not None and _of(
        problems, "CONTRACT.check", contract.check, SubmissionCheck
    ):
        _callable(problems, "CONTRACT.check.run", contract.check.run)
        _text(problems, "CONTRACT.check.inputs", contract.check.inputs)
    tasks = contract.lm_eval
    if tasks is not None and _of(problems, "CONTRACT.lm_eval", tasks, LmEvalTasks):
        _text(problems, "CONTRACT.lm_eval.folder", tasks.folder)
        if not tasks.tasks or not all(isinstance(t, str) and t for t in tasks.tasks):
            problems.append(f"CONTRACT.lm_eval.tasks must name tasks, got {tasks.tasks!r}")
        _callable(problems, "CONTRACT.lm_eval.knows", tasks.knows)
        _callable(problems, "CONTRACT.lm_eval.read", tasks.read)
    if not problems:
        _check_statistics(problems, contract)
    if problems:
        raise ContractError(f"metric {name!r} does not meet the contract: " + "; ".join(problems))
    return contract


_REQUIRED_FILES = ("{name}.py", "contract.py", "README.md", "requirements.txt")


def check_folder(folder: str | PathLike, space: str | PathLike | None = None) -> MetricContract:
    """Check a metric folder (and, given, its Space folder) against the contract; returns its
    ``CONTRACT``, else raises a ``ContractError`` saying what is missing.

    The folder's ``contract.py`` is imported as a module of a package made of the folder (so its
    relative imports work), under a name of its own: any folder can be checked, wherever it is.
    """
    import importlib
    import importlib.util
    import itertools
    import sys
    from importlib.machinery import ModuleSpec
    from pathlib import Path

    folder = Path(folder)
    name = folder.name
    files = [f.format(name=name) for f in _REQUIRED_FILES]
    missing = [f for f in files if not (folder / f).is_file()]
    if missing:
        raise ContractError(f"metric folder {folder} lacks {', '.join(missing)}")
    package = next(
        f"_taskeval_checked_{n}"
        for n in itertools.count()
        if f"_taskeval_checked_{n}" not in sys.modules
    )
    spec = ModuleSpec(package, None, is_package=True)
    spec.submodule_search_locations = [str(folder)]
    sys.modules[package] = importlib.util.module_from_spec(spec)
    try:
        module = importlib.import_module(f"{package}.contract")
    except Exception as e:
        raise ContractError(f"metric {name!r}: its contract.py does not import: {e!r}") from e
    contract = check(module, name)
    if space is not None:
        space = Path(space)
        problems = [] if (space / "app.py").is_file() else [f"{space} has no app.py"]
        for side, path in contract.space.examples.items():
            if not (space / "examples" / path).exists():
                problems.append(f"the {side} example {space / 'examples' / path} does not exist")
        if problems:
            raise ContractError(
                f"metric {name!r}: its Space does not meet the contract: " + "; ".join(problems)
            )
    return contract
