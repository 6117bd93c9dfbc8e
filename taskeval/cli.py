"""``taskeval``: score official files, list the metrics, install them for ``evaluate.load``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import export
from .api import score_files
from .compare import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    METHODS,
    compare,
    format_result,
)
from .install import install_metrics, uninstall_metrics
from .registry import list_metrics, metric_module


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taskeval", description="Official shared-task scorers, bit for bit."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser(
        "score", help="score official files and print the result as one JSON object"
    )
    names = list_metrics()
    score.add_argument("metric", choices=names, metavar="METRIC", help=", ".join(names))
    score.add_argument(
        "rest", nargs=argparse.REMAINDER, help="--references, --predictions, options"
    )

    comp = commands.add_parser(
        "compare",
        help="paired bootstrap / approximate randomization: intervals and p-values for systems",
    )
    comp.add_argument("metric", choices=names, metavar="METRIC", help=", ".join(names))
    comp.add_argument(
        "rest",
        nargs=argparse.REMAINDER,
        help="--references, --predictions A B [...], --method, --resamples, --seed, options",
    )

    commands.add_parser("list", help="list the metrics")
    export.add_command(commands)

    install = commands.add_parser(
        "install",
        help='make a plain evaluate.load("<name>") work offline (set HF_EVALUATE_OFFLINE=1 '
        "before importing evaluate to skip the Hub probe)",
    )
    install.add_argument("names", nargs="*", metavar="METRIC", help="default: all")
    install.add_argument("--uninstall", action="store_true", help="remove what install wrote")
    install.add_argument("--cache", help="modules cache (default: evaluate's HF_MODULES_CACHE)")
    return parser


_RESAMPLING = (
    "resamples",
    "seed",
    "confidence",
    "workers",
    "json",
    "ci",
    "method",
    "names",
    "scenario",
)


def _resampling_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--resamples", type=int, default=DEFAULT_RESAMPLES, help="default %(default)s"
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="random seed (default %(default)s)"
    )
    parser.add_argument(
        "--confidence", type=float, default=DEFAULT_CONFIDENCE, help="default %(default)s"
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="processes scoring TyDi QA resamples (default: the number of CPUs, at most 8)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _score_parser(name: str) -> argparse.ArgumentParser:
    # Only the chosen metric's inputs module is imported: startup stays fast, and one metric's
    # trouble cannot stop the others.
    parser = argparse.ArgumentParser(
        prog=f"taskeval score {name}", description=f"score {name} files"
    )
    parser.add_argument("--references", help="gold file (or folder)")
    parser.add_argument("--predictions", required=True, help="predictions file (or folder)")
    parser.add_argument(
        "--ci",
        action="store_true",
        help="also give each score a paired-bootstrap confidence interval (a table; --json: JSON)",
    )
    _resampling_arguments(parser)
    _metric_options(parser, name)
    return parser


def _compare_parser(name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"taskeval compare {name}",
        description=f"compare systems on {name}: each score with its paired-bootstrap interval, "
        "each system against the first with the difference, its interval and a p-value",
    )
    parser.add_argument("--references", help="gold file (or folder)")
    parser.add_argument(
        "--predictions",
        required=True,
        nargs="+",
        help="one predictions file (or folder) per system; the first is the baseline",
    )
    parser.add_argument("--names", nargs="+", help="system names (default: the paths)")
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="bootstrap",
        help="how the p-values are computed (the intervals always come from the paired "
        "bootstrap; default %(default)s)",
    )
    if name == "ehealthkd":
        parser.add_argument(
            "--scenario",
            choices=("scenario1", "scenario2", "scenario3"),
            help="one scenario only (default: all three)",
        )
    _resampling_arguments(parser)
    _metric_options(parser, name)
    return parser


def _metric_options(parser: argparse.ArgumentParser, name: str) -> None:
    for option, parse in metric_module(name, "inputs").OPTIONS.items():
        parser.add_argument(
            "--" + option.replace("_", "-"), dest=option, type=parse, default=argparse.SUPPRESS
        )


def _resampled(command: str, metric: str, args: argparse.Namespace) -> int:
    options = {
        k: v for k, v in vars(args).items() if k not in ("references", "predictions", *_RESAMPLING)
    }
    predictions = args.predictions if command == "compare" else [args.predictions]
    try:
        result = compare(
            metric,
            references=args.references,
            predictions=predictions,
            names=getattr(args, "names", None),
            scenario=getattr(args, "scenario", None),
            method=getattr(args, "method", "bootstrap"),
            resamples=args.resamples,
            seed=args.seed,
            confidence=args.confidence,
            workers=args.workers,
            **options,
        )
    except (ValueError, OSError) as e:
        print(f"taskeval {command} {metric}: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else format_result(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "export":
        return export.run_command(args)
    if args.command == "list":
        print("\n".join(list_metrics()))
    elif args.command == "install":
        action = uninstall_metrics if args.uninstall else install_metrics
        for path in action(args.names or None, cache=args.cache):
            print(path)
    elif args.command == "compare":
        return _resampled(
            "compare", args.metric, _compare_parser(args.metric).parse_args(args.rest)
        )
    else:
        score_args = _score_parser(args.metric).parse_args(args.rest)
        if score_args.ci:
            return _resampled("score", args.metric, score_args)
        options = {
            k: v
            for k, v in vars(score_args).items()
            if k not in ("references", "predictions", *_RESAMPLING)
        }
        try:
            result = score_files(
                args.metric,
                references=score_args.references,
                predictions=score_args.predictions,
                **options,
            )
        except (ValueError, OSError) as e:
            print(f"taskeval score {args.metric}: error: {e}", file=sys.stderr)
            return 2
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
