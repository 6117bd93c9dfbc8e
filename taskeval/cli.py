"""``taskeval``: score official files, list the metrics, install them for ``evaluate.load``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .api import score_files
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

    commands.add_parser("list", help="list the metrics")

    install = commands.add_parser(
        "install",
        help='make a plain evaluate.load("<name>") work offline (set HF_EVALUATE_OFFLINE=1 '
        "before importing evaluate to skip the Hub probe)",
    )
    install.add_argument("names", nargs="*", metavar="METRIC", help="default: all")
    install.add_argument("--uninstall", action="store_true", help="remove what install wrote")
    install.add_argument("--cache", help="modules cache (default: evaluate's HF_MODULES_CACHE)")
    return parser


def _score_parser(name: str) -> argparse.ArgumentParser:
    # Only the chosen metric's inputs module is imported: startup stays fast, and one metric's
    # trouble cannot stop the others.
    parser = argparse.ArgumentParser(
        prog=f"taskeval score {name}", description=f"score {name} files"
    )
    parser.add_argument("--references", help="gold file (or folder)")
    parser.add_argument("--predictions", required=True, help="predictions file (or folder)")
    for option, parse in metric_module(name, "inputs").OPTIONS.items():
        parser.add_argument(
            "--" + option.replace("_", "-"), dest=option, type=parse, default=argparse.SUPPRESS
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "list":
        print("\n".join(list_metrics()))
    elif args.command == "install":
        action = uninstall_metrics if args.uninstall else install_metrics
        for path in action(args.names or None, cache=args.cache):
            print(path)
    else:
        score_args = _score_parser(args.metric).parse_args(args.rest)
        options = {
            k: v for k, v in vars(score_args).items() if k not in ("references", "predictions")
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
