"""One BLAS setting's run for ``test_compare_machines.py`` (the setting is in the environment):
the pinned record's tests, then ``taskeval compare``, randomization and ``score --ci`` on the
FEVER files of the folder given, in this process. Prints a JSON object: pytest's exit status and
each command's exit status and output."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def commands(folder: Path) -> list[list[str]]:
    references, a, b = (str(folder / name) for name in ("gold.jsonl", "a.jsonl", "b.jsonl"))
    common = ["--references", references, "--resamples", "400"]
    both = ["compare", "fever_score", *common, "--predictions", a, b]
    return [
        both,
        [*both, "--table"],
        [*both, "--method", "randomization", "--max-evidence", "none"],
        ["score", "fever_score", *common, "--predictions", a, "--ci"],
    ]


def main(folder: Path) -> None:
    from taskeval.entry import main as taskeval

    with contextlib.redirect_stdout(io.StringIO()) as tests:
        status = pytest.main(
            ["-q", "-p", "no:cacheprovider", str(TESTS / "test_compare_pinned.py"),
             str(TESTS / "test_compare_order.py")]
        )  # fmt: skip
    printed = []
    for argv in commands(folder):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            code = taskeval(argv)
        printed.append([code, out.getvalue()])
    print(
        json.dumps(
            {"pytest": int(status), "pytest_output": tests.getvalue()[-3000:], "commands": printed}
        )
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
