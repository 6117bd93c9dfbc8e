"""``taskeval``: score official files, compare systems, list the metrics, install them.

stdout carries the result only: JSON by default (``--table``: a table for people; a metric may
offer formats of its own, such as ``--csv``). Every error is one line on stderr; the exit status
is 2 for a usage error and 1 for a data error (a bad file, a bad row). Only what a command uses
is imported: scoring a file needs neither numpy nor evaluate.

A subcommand is a ``(setup, run)`` pair in ``COMMANDS``: ``setup`` adds its arguments to its
parser, ``run`` takes the parsed arguments and returns the exit status. ``score`` and
``compare`` take the metric first, and their options depend on it, so their parser is built
once the metric is known.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, NoReturn

from . import __version__
from .contract import MetricCommand, MetricContract, OutputFormat, ResultFilter, UsageError
from .defaults import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, METHODS
from .entry import say_notes, score_notes
from .messages import one_line, shorten
from .pipes import silence_stdout
from .registry import contract, list_metrics

USAGE_ERROR = 2
DATA_ERROR = 1


class DataError(Exception):
    """A problem with the files given: reported on one line, exit status 1."""


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, its width found without importing shutil (and with it lzma,
    bz2: milliseconds of startup, since argparse makes a formatter for every argument)."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        if kwargs.get("width") is None:
            try:
                columns = int(os.environ.get("COLUMNS", "")) or os.get_terminal_size().columns
            except (ValueError, OSError):
                columns = 80
            kwargs["width"] = max(columns - 2, 11)
        super().__init__(prog, **kwargs)


class _Parser(argparse.ArgumentParser):
    """argparse, with every error on one line (argparse prints the usage block first)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(**kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _typed(parse: Callable[[str], Any], expected: str) -> Callable[[str], Any]:
    """A ``type=`` for argparse whose error says what was expected (not a function name)."""

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except (ValueError, TypeError):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None

    return convert


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def _natural(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def _fraction(text: str) -> float:
    value = float(text)
    if not 0.0 < value < 1.0:
        raise ValueError(text)
    return value


# ---------------------------------------------------------------------------------------------
# What each metric reads and takes: its contract (see ``taskeval.contract``).


def _file_arguments(
    parser: argparse.ArgumentParser, metrics: list[str], systems: bool, optional: bool = False
) -> None:
    """--references and --predictions; ``optional``: another argument may stand for both."""
    files = [contract(m).files for m in metrics]
    described = {(f.references.help, f.predictions.help) for f in files}
    refs, preds = described.pop() if len(described) == 1 else ("gold file", "predictions file")
    if len(files) == 1 and files[0].submissions and not systems:
        preds += ", " + files[0].submissions
    parser.add_argument(
        "--references",
        metavar="PATH",
        required=not optional and any(not f.references.optional for f in files),
        help=refs,
    )
    parser.add_argument(
        "--predictions",
        metavar="PATH",
        required=not optional,
        nargs="+" if systems else None,
        help=f"one per system, the first is the baseline: {preds}" if systems else preds,
    )


def _metric_arguments(parser: argparse.ArgumentParser, metrics: list[str]) -> None:
    group = parser.add_argument_group("options of the metric")
    seen = set()
    for metric in map(contract, metrics):
        for option in metric.options:
            if option.name in seen:
                continue
            seen.add(option.name)
            group.add_argument(
                option.flag,
                dest=option.name,
                metavar=option.metavar,
                type=_typed(option.parse, option.metavar),
                default=argparse.SUPPRESS,
                help=option.help,
            )
        config = metric.config
        if config is not None and config.name not in seen:
            seen.add(config.name)
            group.add_argument(
                config.flag,
                dest=config.name,
                metavar=config.metavar,
                type=_typed(config.parse, config.expected),
                default=argparse.SUPPRESS,
                help=config.help,
            )


def _resampling_arguments(parser: argparse.ArgumentParser, metric: str, when: str) -> None:
    group = parser.add_argument_group(f"resampling{when}")
    group.add_argument(
        "--resamples",
        metavar="N",
        type=_typed(_positive, "a positive integer"),
        default=DEFAULT_RESAMPLES,
        help="bootstrap resamples (default %(default)s)",
    )
    group.add_argument(
        "--seed",
        metavar="N",
        type=_typed(_natural, "a non-negative integer"),
        default=DEFAULT_SEED,
        help="random seed: the same seed gives the same intervals (default %(default)s)",
    )
    group.add_argument(
        "--confidence",
        metavar="P",
        type=_typed(_fraction, "a number between 0 and 1"),
        default=DEFAULT_CONFIDENCE,
        help="confidence level of the intervals (default %(default)s)",
    )
    if contract(metric).resamples_in_processes():
        group.add_argument(
            "--workers",
            metavar="N",
            type=_typed(_positive, "a positive integer"),
            help="deprecated, no effect: the resamples are scored all at once in this process "
            "(accepted for older scripts)"
            if _vectorized(metric)
            else "processes scoring the resamples (default: the number of CPUs, at most 8); "
            "the results do not depend on it",
        )


def _vectorized(metric: str) -> bool:
    """Whether ``compare`` scores the metric's resamples all at once (``ManyResamples``), so
    that worker processes have nothing to do."""
    declared = contract(metric)
    statistics = declared.statistics(declared._default_config(), {})
    return getattr(statistics, "many", None) is not None


def _warn_workers(args: argparse.Namespace, metrics: list[str]) -> None:
    if getattr(args, "workers", None) is not None and all(_vectorized(m) for m in metrics):
        warnings.warn(
            "--workers is deprecated and has no effect: the resamples are scored all at once "
            "in this process",
            DeprecationWarning,
            stacklevel=2,
        )


def _output_arguments(parser: argparse.ArgumentParser, metric: MetricContract | None) -> None:
    """--table, --json and, for ``score`` of one metric, its own formats and filters."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--table", action="store_true", help="print a table for people instead of JSON"
    )
    if metric is not None:
        for output in metric.formats:
            group.add_argument(f"--{output.name}", action="store_true", help=output.help)
        for kept in metric.filters:
            parser.add_argument(f"--{kept.name}", action="store_true", help=kept.help)
    group.add_argument(
        "--json", action="store_true", help="print JSON (the default; kept for older scripts)"
    )


# ---------------------------------------------------------------------------------------------
# score


def _score_setup(parser: argparse.ArgumentParser, metrics: list[str]) -> None:
    _file_arguments(parser, metrics, systems=False)
    _metric_arguments(parser, metrics)
    _output_arguments(parser, contract(metrics[0]) if len(metrics) == 1 else None)
    if len(metrics) == 1 or all(contract(m).config is None for m in metrics):
        parser.add_argument(
            "--ci",
            action="store_true",
            help="add a paired-bootstrap confidence interval to each score (JSON: the layout "
            "of taskeval compare)",
        )
        _resampling_arguments(parser, metrics[0], " (with --ci)")


def _score_run(args: argparse.Namespace, metrics: list[str]) -> int:
    options = _options(args, metrics)
    extras = _extras(metrics)
    for extra in extras:
        if getattr(args, "ci", False) and getattr(args, extra.name, False):
            raise _UsageError(f"--{extra.name} is for the scores alone: use it without --ci")
    if getattr(args, "ci", False):
        from .compare import compare, format_result

        _warn_workers(args, metrics)

        result = _located(
            lambda: compare(
                ",".join(metrics),
                references=args.references,
                predictions=[args.predictions],
                **_resampling(args),
                **options,
            ),
            metrics,
            args.references,
            [args.predictions],
            options,
        )
        text = format_result(result) if args.table else json.dumps(result)
        _print_scored(text, args.table, metrics, options)
        return 0
    from .api import score_files

    result = _located(
        lambda: score_files(
            metrics, references=args.references, predictions=args.predictions, **options
        ),
        metrics,
        args.references,
        [args.predictions],
        options,
    )
    for extra in extras:
        if isinstance(extra, ResultFilter) and getattr(args, extra.name, False):
            result = extra.apply(result, options)
    chosen = [e for e in extras if isinstance(e, OutputFormat) and getattr(args, e.name, False)]
    if chosen:
        text = chosen[0].write(result, args.predictions)
    else:
        text = _score_table(result) if args.table else json.dumps(result)
    _print_scored(text, args.table and not chosen, metrics, options)
    return 0


def _print_scored(text: str, table: bool, metrics: list[str], options: dict) -> None:
    """A result as printed, with what its numbers follow (the options' notes): above a table;
    beside any other output, which is the result alone, on stderr."""
    notes = score_notes(metrics, options)
    if table:
        _print("\n".join([*notes, text]))
    else:
        _print(text)
        say_notes(metrics, notes)


# ---------------------------------------------------------------------------------------------
# compare


def _lm_eval_logs(metrics: list[str]) -> bool:
    """Whether ``compare`` of these metrics also reads harness runs: one metric with tasks."""
    return len(metrics) == 1 and contract(metrics[0]).lm_eval is not None


def _compare_setup(parser: argparse.ArgumentParser, metrics: list[str]) -> None:
    logs = _lm_eval_logs(metrics)
    _file_arguments(parser, metrics, systems=True, optional=logs)
    if logs:
        parser.add_argument(
            "--lm-eval-logs",
            metavar="RUN",
            nargs="+",
            help="instead of --references and --predictions: two or more lm-evaluation-harness "
            "runs made with --log_samples, each its --output_path folder or one "
            "samples_<task>_<time>.jsonl file, paired by question; the first is the baseline",
        )
    parser.add_argument(
        "--names", metavar="NAME", nargs="+", help="system names (default: the paths)"
    )
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="bootstrap",
        help="how the p-values are computed (the intervals always come from the paired "
        "bootstrap; default %(default)s)",
    )
    _metric_arguments(parser, metrics)
    _output_arguments(parser, None)
    _resampling_arguments(parser, metrics[0], "")


def _compare_run(args: argparse.Namespace, metrics: list[str]) -> int:
    from .compare import compare, format_result

    options = _options(args, metrics)
    if getattr(args, "lm_eval_logs", None) is not None:
        return _compare_logs_run(args, metrics, options)
    if args.predictions is None:
        raise _UsageError("give --predictions (and --references), or --lm-eval-logs")
    if args.references is None and not contract(metrics[0]).files.references.optional:
        raise _UsageError("the following arguments are required: --references")
    if args.names is not None and len(args.names) != len(args.predictions):
        raise _UsageError(f"{len(args.names)} names for {len(args.predictions)} prediction files")
    _warn_workers(args, metrics)
    result = _located(
        lambda: compare(
            ",".join(metrics),
            references=args.references,
            predictions=args.predictions,
            names=args.names,
            method=args.method,
            **_resampling(args),
            **options,
        ),
        metrics,
        args.references,
        args.predictions,
        options,
    )
    _print(format_result(result) if args.table else json.dumps(result))
    return 0


def _compare_logs_run(args: argparse.Namespace, metrics: list[str], options: dict) -> int:
    from .compare import format_result
    from .lm_eval_logs import compare_runs

    runs = args.lm_eval_logs
    if args.predictions is not None or args.references is not None:
        raise _UsageError("--lm-eval-logs stands for --references and --predictions: give one")
    if args.names is not None and len(args.names) != len(runs):
        raise _UsageError(f"{len(args.names)} names for {len(runs)} runs")
    _warn_workers(args, metrics)
    try:
        result = compare_runs(
            metrics[0], runs, names=args.names, method=args.method, **_resampling(args), **options
        )
    except (ValueError, OSError) as e:
        raise DataError(str(e)) from None
    _print(format_result(result) if args.table else json.dumps(result))
    return 0


# ---------------------------------------------------------------------------------------------
# list, install


def _list_setup(parser: argparse.ArgumentParser) -> None:
    pass


def _list_run(args: argparse.Namespace) -> int:
    _print("\n".join(list_metrics()))
    return 0


def _install_setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "names",
        nargs="*",
        metavar="METRIC",
        help=f"the metrics to install (default: all; {', '.join(list_metrics())})",
    )
    parser.add_argument("--uninstall", action="store_true", help="remove what install wrote")
    parser.add_argument(
        "--cache", metavar="DIR", help="modules cache (default: evaluate's HF_MODULES_CACHE)"
    )


def _install_run(args: argparse.Namespace) -> int:
    from .api import metric_names
    from .install import install_metrics, uninstall_metrics

    if args.names:
        try:
            metric_names(args.names)
        except ValueError as e:
            raise _UsageError(str(e)) from None
    action = uninstall_metrics if args.uninstall else install_metrics
    try:
        paths = action(args.names or None, cache=args.cache)
    except OSError as e:
        raise DataError(_os_error(e)) from None
    except ValueError as e:  # the environment places the cache nowhere usable
        raise _UsageError(str(e)) from None
    _print("\n".join(map(str, paths)))
    return 0


def _export_setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="METRIC", help=f"one of {', '.join(list_metrics())}")
    parser.add_argument("dir", metavar="DIR", help="the folder to write (missing or empty)")
    parser.add_argument("--overwrite", action="store_true", help="write into a non-empty DIR")


def _export_run(args: argparse.Namespace) -> int:
    from .api import metric_names
    from .export import export, how_to_load

    try:
        metric_names(args.name)
    except ValueError as e:
        raise _UsageError(str(e)) from None
    try:
        paths = export(args.name, args.dir, overwrite=args.overwrite)
    except ValueError as e:  # a DIR that is not empty: the command's arguments are off
        raise _UsageError(str(e)) from None
    except OSError as e:
        raise DataError(_os_error(e)) from None
    _print("\n".join(map(str, paths)))
    sys.stderr.write(f"taskeval export: {how_to_load(args.name, args.dir)}\n")
    return 0


def _check_setup(parser: argparse.ArgumentParser, metrics: list[str]) -> None:
    declared = contract(metrics[0]).check
    files = contract(metrics[0]).files
    parser.add_argument(
        "--predictions", required=True, metavar="P", help=f"{files.predictions.help}"
    )
    parser.add_argument(
        "--inputs",
        nargs="+",
        default=[],
        metavar="I",
        help="the task's unlabelled test inputs: "
        + (declared.inputs if declared is not None else "(this metric has no check)"),
    )
    parser.add_argument(
        "--references", metavar="R", help=f"the gold, when you have it: {files.references.help}"
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


def _check_run(args: argparse.Namespace, metrics: list[str]) -> int:
    from .check import check, report_text

    try:
        report = check(metrics[0], args.predictions, args.inputs, args.references)
    except ValueError as e:
        raise _UsageError(str(e)) from None
    _print(report_text(report, args.json))
    return 0 if report.ok else DATA_ERROR


# ---------------------------------------------------------------------------------------------
# lm-eval-tasks


def _lm_eval_tasks_setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the tasks and groups to run, one line per metric, instead of the folder",
    )


def _lm_eval_tasks_run(args: argparse.Namespace) -> int:
    from .lm_eval_logs import include_path, lm_eval_tasks

    if args.list:
        _print("\n".join(f"{m}: {','.join(tasks)}" for m, tasks in lm_eval_tasks().items()))
    else:
        _print(include_path())
    return 0


# ---------------------------------------------------------------------------------------------
# The commands


class Command(NamedTuple):
    """One subcommand: its help, how its parser is set up, how it runs.

    ``setup(parser)`` adds the arguments, ``run(args)`` returns the exit status. Commands
    ``per_metric`` take the metric (``several``: comma-separated metrics) before their options,
    which depend on it: their ``setup`` and ``run`` also receive the metric names.
    """

    help: str
    setup: Callable[..., None]
    run: Callable[..., int]
    per_metric: bool = False
    several: bool = False


COMMANDS: dict[str, Command] = {
    "score": Command(
        "score official files: the official scorer's numbers as one JSON object",
        _score_setup,
        _score_run,
        per_metric=True,
        several=True,
    ),
    "compare": Command(
        "compare systems on the same gold: intervals, differences and p-values",
        _compare_setup,
        _compare_run,
        per_metric=True,
        several=True,
    ),
    "check": Command(
        "check a submission before it is scored: every error (the scorer would fail on it or "
        "score it other than meant) and warning, with file, line, id and field; exit status 1 "
        "when there is an error",
        _check_setup,
        _check_run,
        per_metric=True,
    ),
    "list": Command("list the metrics", _list_setup, _list_run),
    "install": Command(
        'make a plain evaluate.load("<name>") work offline (set HF_EVALUATE_OFFLINE=1 before '
        "importing evaluate to skip the Hub probe)",
        _install_setup,
        _install_run,
    ),
    "lm-eval-tasks": Command(
        "print the folder of taskeval's lm-evaluation-harness task configs, for the harness's "
        "--include_path (pip install taskeval[lmeval]); --list: the tasks to run",
        _lm_eval_tasks_setup,
        _lm_eval_tasks_run,
    ),
    "export": Command(
        "write a metric's Hub Space repository (metric, card, app.py, examples, "
        "requirements.txt) into a folder, ready to upload",
        _export_setup,
        _export_run,
    ),
}


def metric_commands() -> dict[str, tuple[str, MetricCommand]]:
    """The metrics' own commands (``MetricContract.commands``) by name, each with its metric.
    Every metric's contract is imported: asked only for a command that is not built in."""
    found: dict[str, tuple[str, MetricCommand]] = {}
    for metric in list_metrics():
        for command in contract(metric).commands:
            if command.name in COMMANDS or command.name in found:
                other = found[command.name][0] if command.name in found else "taskeval"
                raise RuntimeError(
                    f"metric {metric!r} declares the command {command.name!r}, which {other} "
                    f"already has"
                )
            found[command.name] = (metric, command)
    return found


def _metric_command_run(prog: str, command: MetricCommand, argv: list[str]) -> int:
    """``taskeval <name> ...`` of a metric's own command: its arguments and ``--table``/``--json``;
    the result printed as JSON or tables; errors as the other commands report them."""
    parser = _Parser(prog=prog, description=command.help)
    command.arguments(parser)
    _output_arguments(parser, None)
    args = parser.parse_args(argv)
    try:
        result = command.run(args)
    except UsageError as e:
        raise _UsageError(str(e), prog) from None
    except OSError as e:
        raise DataError(_os_error(e)) from None
    except ValueError as e:
        raise DataError(str(e)) from None
    if not args.table:
        _print(json.dumps(result))
    elif command.table is None:
        _print(_score_table(result))
    else:
        from .table import text_table

        _print("\n\n".join(map(text_table, command.table(result))))
    return 0


def _parser(with_metric_commands: bool = False) -> _Parser:
    """The top-level parser; a per-metric command's parser here only says the metric is due.
    ``with_metric_commands``: the metrics' own commands listed too (for the help, and for a
    command name that is none of them)."""
    parser = _Parser(prog="taskeval", description="Official shared-task scorers, bit for bit.")
    parser.add_argument("--version", action="version", version=f"taskeval {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, command in COMMANDS.items():
        sub = commands.add_parser(name, help=command.help, description=command.help)
        if command.per_metric:
            what = "METRIC[,METRIC...]" if command.several else "METRIC"
            sub.add_argument(
                "metric",
                metavar=what,
                help=f"one of {', '.join(list_metrics())}"
                + ("; several, comma-separated, are scored together" if command.several else "")
                + f". Its options: taskeval {name} METRIC --help",
            )
        else:
            command.setup(sub)
    if with_metric_commands:
        for name, (metric, own) in metric_commands().items():
            commands.add_parser(name, help=f"{own.help} ({metric})")
    return parser


def _metric_parser(name: str, command: Command, spec: str) -> tuple[_Parser, list[str]]:
    try:
        from .api import metric_names

        metrics = metric_names(spec)
    except ValueError as e:
        raise _UsageError(str(e), f"taskeval {name}") from None
    if len(metrics) > 1 and not command.several:
        raise _UsageError(f"{name} takes one metric", f"taskeval {name}")
    with_configs = [m for m in metrics if contract(m).config is not None]
    if len(metrics) > 1 and name == "compare" and with_configs:
        raise _UsageError(
            f"{', '.join(with_configs)} has configs: compare it alone, not with other metrics",
            f"taskeval {name}",
        )
    parser = _Parser(prog=f"taskeval {name} {spec}", description=command.help)
    command.setup(parser, metrics)
    return parser, metrics


class _UsageError(Exception):
    def __init__(self, message: str, prog: str | None = None) -> None:
        super().__init__(message)
        self.prog = prog


# ---------------------------------------------------------------------------------------------
# Helpers of the commands

_RESAMPLING = ("resamples", "seed", "confidence", "workers")


def _options(args: argparse.Namespace, metrics: list[str]) -> dict[str, Any]:
    """The metrics' settings given on the command line (options and config)."""
    names = {name for metric in metrics for name in contract(metric).setting_names()}
    return {k: v for k, v in vars(args).items() if k in names}


def _extras(metrics: list[str]) -> list[OutputFormat | ResultFilter]:
    """The formats and filters of ``taskeval score`` for one metric (none for several)."""
    if len(metrics) != 1:
        return []
    metric = contract(metrics[0])
    return [*metric.formats, *metric.filters]


def _resampling(args: argparse.Namespace) -> dict[str, Any]:
    return {k: getattr(args, k, None) for k in _RESAMPLING}


def _print(text: str) -> None:
    sys.stdout.write(text + "\n")


def _os_error(e: OSError) -> str:
    if e.filename is not None and e.strerror:
        return f"{e.filename}: {e.strerror}"
    return str(e)


# ``predictions[3]`` / ``references[3]`` in the scoring cores' messages: row indices of
# compute() inputs, which for metrics whose files hold a row per line are the line numbers less
# one.
_ROW = re.compile(r"\b(predictions|references)\[(\d+)\]")


def _where(metrics: list[str], references: Any, predictions: Any) -> Callable[[str], str]:
    files = [contract(m).files for m in metrics]
    own_gold = [f.gold_in_line for f in files if f.gold_in_line is not None]

    def replace(match: re.Match) -> str:
        side, line = match.group(1), int(match.group(2)) + 1
        path = predictions
        if side == "references" and references is not None:
            path = references
            if any(gold_in_line(predictions, line) for gold_in_line in own_gold):
                path = predictions  # that prediction line is its own gold
        return f"{path}, line {line}"

    def locate(message: str) -> str:
        if not all(f.row_per_line for f in files):
            return message
        return _ROW.sub(replace, message)

    return locate


def _located(
    work: Callable[[], Any],
    metrics: list[str],
    references: Any,
    predictions: list[Any],
    options: dict[str, Any],
) -> Any:
    """``work()``, its errors turned into one-line ``DataError`` naming the file and line.

    Row errors of a run over several prediction files (``compare``) do not say which file:
    each file is then scored alone to find the one at fault.
    """
    try:
        return work()
    except OSError as e:
        raise DataError(_hinted(_os_error(e), metrics, references, predictions)) from None
    except ValueError as e:
        message = str(e)
    at_fault = predictions
    if len(predictions) > 1 and _ROW.search(message):
        from .api import score_files

        for path in predictions:
            try:
                score_files(metrics, references=references, predictions=path, **options)
            except (ValueError, OSError) as e:
                message, at_fault = f"{_where(metrics, references, path)(str(e))}", [path]
                break
    else:
        message = _where(metrics, references, predictions[0])(message)
    raise DataError(_hinted(message, metrics, references, at_fault))


def _hinted(message: str, metrics: list[str], references: Any, predictions: list[Any]) -> str:
    """``message`` and, once, the sentence naming the mistake behind it (swapped files, a file
    of another task), when the files show one. Several prediction files: the first that shows
    one, named."""
    from .mistakes import hint, with_sentence

    for path in predictions:
        sentence = hint(metrics, references, path, named=len(predictions) > 1)
        if sentence is not None:
            unnamed = hint(metrics, references, path) if len(predictions) > 1 else None
            if unnamed and unnamed != sentence:  # read_official's, without the path: replaced
                message = message.replace(f" {unnamed}", "")
            return with_sentence(message, sentence)
    return message


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return "" if value is None else str(value)


def _leaves(result: dict, labels: tuple = ()) -> list[tuple[tuple, dict]]:
    """The dicts of scores in a nested result, each with the keys leading to it."""
    flat = {k: v for k, v in result.items() if not isinstance(v, dict)}
    out = [(labels, flat)] if flat else []
    for key, value in result.items():
        if isinstance(value, dict):
            out += _leaves(value, (*labels, key))
    return out


def _score_table(result: dict) -> str:
    """A result of ``score`` for people: its scores, and each nested level as a matrix."""
    from .table import text_table

    blocks = []
    leaves = _leaves(result)
    if leaves and not leaves[0][0]:  # top-level scores
        _, flat = leaves.pop(0)
        blocks.append(text_table([["score", "value"]] + [[k, _cell(v)] for k, v in flat.items()]))
    by_depth: dict[int, list[tuple[tuple, dict]]] = {}
    for labels, flat in leaves:
        by_depth.setdefault(len(labels), []).append((labels, flat))
    for group in by_depth.values():
        columns = list(dict.fromkeys(k for _, flat in group for k in flat))
        # A level every row shares (such as a per-language breakdown) heads the table instead.
        shared = 0
        while shared < len(group[0][0]) - 1 and len({g[0][shared] for g in group}) == 1:
            shared += 1
        heading = " / ".join(map(str, group[0][0][:shared])) or "score"
        names = [" / ".join(map(str, labels[shared:])) for labels, _ in group]
        if len(columns) > len(group):  # more scores than rows: one row per score reads better
            rows = [[heading, *names]]
            rows += [[c, *(_cell(flat.get(c)) for _, flat in group)] for c in columns]
        else:
            rows = [[heading if shared else "", *columns]]
            rows += [
                [n, *(_cell(flat.get(c)) for c in columns)] for n, (_, flat) in zip(names, group)
            ]
        blocks.append(text_table(rows))
    return "\n\n".join(blocks)


# ---------------------------------------------------------------------------------------------


def _show_warning(prog: str) -> Callable[..., None]:
    def show(message: Any, category: Any, *args: Any, **kwargs: Any) -> None:
        sys.stderr.write(f"{prog}: warning: {shorten(' '.join(str(message).split()))}\n")

    return show


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``taskeval`` with ``argv`` (default: the command line); returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    prog = "taskeval"
    try:
        name = argv[0] if argv and not argv[0].startswith("-") else None
        command = COMMANDS.get(name) if name else None
        if command is not None and command.per_metric and len(argv) > 1:
            spec = argv[1]
            if spec.startswith("-") and spec not in ("-h", "--help"):
                raise _UsageError(
                    f"the metric comes first: taskeval {name} METRIC [options]", f"taskeval {name}"
                )
            if not spec.startswith("-"):
                parser, metrics = _metric_parser(name, command, spec)
                prog = parser.prog
                args = parser.parse_args(argv[2:])
                with warnings.catch_warnings():
                    warnings.simplefilter("default")
                    warnings.showwarning = _show_warning(prog)
                    return command.run(args, metrics)
        if name is not None and command is None:
            own = metric_commands().get(name)
            if own is not None:
                prog = f"taskeval {name}"
                with warnings.catch_warnings():
                    warnings.simplefilter("default")
                    warnings.showwarning = _show_warning(prog)
                    return _metric_command_run(prog, own[1], argv[1:])
        args = _parser(with_metric_commands=command is None).parse_args(argv)
        prog = f"taskeval {args.command}"
        return COMMANDS[args.command].run(args)
    except _UsageError as e:
        sys.stderr.write(f"{e.prog or prog}: error: {one_line(e)} (see {e.prog or prog} --help)\n")
        return USAGE_ERROR
    except DataError as e:
        sys.stderr.write(f"{prog}: error: {one_line(e)}\n")
        return DATA_ERROR
    except ValueError as e:  # a metric's setting refused by its scorer
        sys.stderr.write(f"{prog}: error: {one_line(e)}\n")
        return USAGE_ERROR
    except SystemExit as e:  # argparse: --help, --version, a usage error (already printed)
        return e.code if isinstance(e.code, int) else USAGE_ERROR
    except KeyboardInterrupt:
        sys.stderr.write(f"{prog}: interrupted\n")
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 0
    except Exception as e:  # a bug: still one line, with the traceback on request
        if os.environ.get("TASKEVAL_TRACEBACK"):
            raise
        sys.stderr.write(
            f"{prog}: internal error: {type(e).__name__}: {one_line(e)} "
            f"(please report it; TASKEVAL_TRACEBACK=1 shows the traceback)\n"
        )
        return DATA_ERROR


if __name__ == "__main__":
    sys.exit(main())
