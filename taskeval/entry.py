"""The ``taskeval`` command's entry point.

The most common calls, ``taskeval score METRIC[,METRIC...] --predictions P --references R`` with
nothing else, and ``taskeval check METRIC --predictions P`` with ``--inputs``, ``--references``
and ``--json``, are run here without loading the command-line interface: argparse and the rest
of ``taskeval.cli`` take several milliseconds, more than scoring or checking a small file. Every
other call, and those too when they warn or fail, goes to ``taskeval.cli``, which then runs it
again and reports as usual: what is printed and the exit status never depend on the path taken.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing costs this process milliseconds at start
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

_FILE_OPTIONS = ("--predictions", "--references")
_CHECK_OPTIONS = ("--predictions", "--inputs", "--references", "--json")


def plain_score_call(argv: Sequence[str]) -> tuple[str, str, str] | None:
    """``(metrics, predictions, references)`` of ``score METRICS --predictions P --references R``
    (the two options in either order), else None."""
    if len(argv) != 6 or argv[0] != "score" or argv[1].startswith("-"):
        return None
    options = dict(zip(argv[2::2], argv[3::2]))
    if sorted(options) != list(_FILE_OPTIONS) or any(v.startswith("-") for v in options.values()):
        return None
    return argv[1], options["--predictions"], options["--references"]


def _scored(metrics: str, predictions: str, references: str) -> str | None:
    """The JSON line ``taskeval score`` prints, or None when scoring warned or failed."""
    import warnings

    from .api import metric_names, score_files

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = score_files(
                metric_names(metrics), references=references, predictions=predictions
            )
    except Exception:  # reported by the command-line interface, which scores the call again
        return None
    return None if caught else json_line(result)


def score_notes(metrics: Sequence[str], options: Mapping[str, Any]) -> list[str]:
    """What the scores follow, where a metric's option says (``MetricContract.notes``)."""
    from .registry import contract

    return [note for metric in metrics for note in contract(metric).notes(options)]


def say_notes(metrics: Sequence[str], notes: Sequence[str]) -> None:
    """``notes`` on stderr, beside an output that is the scores alone (JSON, a format)."""
    for note in notes:
        sys.stderr.write(f"taskeval score {','.join(metrics)}: note: {note}\n")


def _written_as_is(key: object, value: object) -> bool:
    """Whether ``json.dumps`` writes this item as ``"key": repr(value)``: a printable ASCII key
    with nothing to escape, an int or a finite float."""
    return (
        type(key) is str
        and key.isascii()
        and key.isprintable()
        and '"' not in key
        and "\\" not in key
        and (type(value) is int or (type(value) is float and value - value == 0))
    )


def json_line(result: dict) -> str:
    """``json.dumps(result) + "\\n"``, written out here for the usual flat result, so that
    scoring a small file need not import json (nor the regular expressions it compiles)."""
    if all(_written_as_is(key, value) for key, value in result.items()):
        return "{" + ", ".join(f'"{key}": {value!r}' for key, value in result.items()) + "}\n"
    import json

    return json.dumps(result) + "\n"


def plain_check_call(argv: Sequence[str]) -> tuple[str, str, list[str], str | None, bool] | None:
    """``(metric, predictions, inputs, references, as_json)`` of ``check METRIC --predictions P``
    with ``--inputs I...``, ``--references R`` and ``--json`` each at most once (in any order,
    values written apart and not starting with ``-``), else None."""
    if len(argv) < 4 or argv[0] != "check" or argv[1].startswith("-"):
        return None
    given: dict[str, list[str]] = {}
    i = 2
    while i < len(argv):
        option = argv[i]
        if option in given or option not in _CHECK_OPTIONS:
            return None
        values = []
        i += 1
        while i < len(argv) and not argv[i].startswith("-"):
            values.append(argv[i])
            i += 1
        wanted = {"--predictions": (1, 1), "--references": (1, 1), "--inputs": (1, len(values))}
        low, high = wanted.get(option, (0, 0))
        if not low <= len(values) <= high:
            return None
        given[option] = values
    if "--predictions" not in given:
        return None
    references = given.get("--references", [None])[0]
    return (
        argv[1],
        given["--predictions"][0],
        given.get("--inputs", []),
        references,
        ("--json" in given),
    )


def _checked(
    metric: str, predictions: str, inputs: list[str], references: str | None, as_json: bool
) -> tuple[str, int] | None:
    """What ``taskeval check`` prints and its exit status, or None when checking warned or
    failed (the command-line interface then checks again and reports)."""
    import warnings

    from .check import check, report_text

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            report = check(metric, predictions, inputs, references)
    except Exception:
        return None
    if caught:
        return None
    return report_text(report, as_json) + "\n", 0 if report.ok else 1


def _as_printed(text: str | None) -> tuple[str, int] | None:
    return None if text is None else (text, 0)


def _fast(command: str, metric: str, run: Callable[[], tuple[str, int] | None]) -> int | None:
    """Print what a fast path gives (``run()``: the text and the exit status) and return the
    status; None where it gives nothing (the command-line interface then runs the command)."""
    try:
        done = run()
        if done is None:
            return None
        sys.stdout.write(done[0])
        sys.stdout.flush()
        return done[1]
    except KeyboardInterrupt:
        sys.stderr.write(f"taskeval {command} {metric}: interrupted\n")
        return 130
    except BrokenPipeError:
        from .pipes import silence_stdout

        silence_stdout()
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``taskeval`` with ``argv`` (default: the command line); returns the exit status."""
    from .pipes import settle_streams

    args = settle_streams(list(sys.argv[1:] if argv is None else argv))
    call = plain_score_call(args)
    if call is not None:
        status = _fast("score", call[0], lambda: _as_printed(_scored(*call)))
        if status == 0:  # printed: what the numbers follow, beside them
            from .api import metric_names

            metrics = metric_names(call[0])
            say_notes(metrics, score_notes(metrics, {}))
        if status is not None:
            return status
    check_call = plain_check_call(args)
    if check_call is not None:
        status = _fast("check", check_call[0], lambda: _checked(*check_call))
        if status is not None:
            return status
    from .cli import main as run_cli

    return run_cli(args)
