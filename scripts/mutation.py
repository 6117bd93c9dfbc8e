"""Mutation testing with cosmic-ray, outside CI (see docs/mutation.md; run via scripts/mutation.sh).

Each module listed under ``[modules]`` in scripts/mutation.toml is mutated one small change at a
time, and the tests listed with it are run on every mutant. The work happens in a
scratch copy of the working tree (under ``.mutation/``, one per run, so runs on different
modules can go on side by side), never in the checkout itself: cosmic-ray
rewrites the mutated file on disk, which is also what lets it reach code loaded in unusual ways
(the metric folders' linked files, ``taskeval._metrics`` mapped onto ``metrics/``, and modules that
``evaluate.load`` copies into its cache).

Results are kept per module in a cosmic-ray database (``.mutation/<module>.sqlite``), so a run can
stop after ``--minutes`` and the next one goes on where it stopped. The record is started anew
when its module's source changes; ``--recheck`` runs the survivors again (after new tests).
Mutants reviewed as equivalent are listed in scripts/mutation.toml by a key that outlives edits
elsewhere in the module (scripts/mutation_keys.py); the report names the keys that match no
mutant of the module any more, and listed mutants that a test kills (``--listed`` runs the
listed ones again to find these).

Two things make a mutant cheap. The tests run in a child forked from a process that has already
imported the heavy third-party packages (numpy, evaluate, datasets, pytest: about four of the ten
seconds of a run), never taskeval itself. And a mutant is run on the tests that execute its line
only (a coverage run of the selection, once per module, tells which), or on the whole selection
where none does or the line runs at import. A mutant those tests let through is recorded as a
survivor; ``--recheck`` runs each survivor (those not listed as equivalent) on those tests and
then on the whole selection, so after a recheck every survivor is one the whole selection lets
through.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import hashlib
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import tomllib
from cosmic_ray.commands.init import init
from cosmic_ray.mutating import use_mutation
from cosmic_ray.plugins import get_operator
from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult
from mutation_keys import Key, Mutant, mutant_keys, parse_key

ROOT = Path(__file__).resolve().parents[1]
STATE = ROOT / ".mutation"
CONFIG = Path(__file__).with_name("mutation.toml")


# A metric's own selections (and the equivalents reviewed in them) may live with its test entry,
# as tests/entries/<name>/mutation.toml, so that adding a metric edits no shared file.
ENTRY_CONFIGS = ROOT / "tests" / "entries"


def settings() -> dict:
    """scripts/mutation.toml with every entry's ``mutation.toml`` merged in: their ``[modules]``
    added (a module listed twice is an error) and their ``[[equivalent]]`` groups appended."""
    config = tomllib.loads(CONFIG.read_text())
    for path in sorted(ENTRY_CONFIGS.glob("*/mutation.toml")):
        extra = tomllib.loads(path.read_text())
        twice = set(config["modules"]) & set(extra.get("modules", {}))
        if twice:
            raise SystemExit(f"{path.relative_to(ROOT)}: modules listed twice: {sorted(twice)}")
        config["modules"].update(extra.get("modules", {}))
        config.setdefault("equivalent", []).extend(extra.get("equivalent", []))
    return config


def equivalents(config: dict) -> dict[str, dict[Key, str]]:
    """The keys of the mutants reviewed as equivalent, by module, each with its reason."""
    found: dict[str, dict[Key, str]] = {}
    for group in config.get("equivalent", []):
        keys = found.setdefault(group["module"], {})
        for entry in group["mutants"]:
            key = parse_key(entry)
            if key in keys:
                raise SystemExit(f"{CONFIG.name}: {group['module']} lists {list(key)} twice")
            keys[key] = group["reason"]
    unknown = set(found) - set(config["modules"])
    if unknown:
        raise SystemExit(f"{CONFIG.name}: equivalents of modules not listed: {sorted(unknown)}")
    return found


def slug(module: str) -> str:
    return module.replace("/", "_").removesuffix(".py")


def make_tree() -> Path:
    """A fresh copy of the working tree's files (tracked and new, links kept as links)."""
    tree = Path(tempfile.mkdtemp(prefix="tree-", dir=STATE))
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree
        target = tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)
    # The editable install maps taskeval._metrics onto the checkout's metrics/: the copy gets the
    # same mapping as a link, found first because the tests run with the copy as the cwd.
    (tree / "taskeval" / "_metrics").symlink_to("../metrics")
    # The tests find the parity corpus beside the repository.
    shared = STATE / "shared"
    if not shared.exists() and (ROOT.parent / "shared").is_dir():
        shared.symlink_to(ROOT.parent / "shared")
    check = "import taskeval.registry as r; print(r.metrics_root().resolve())"
    where = subprocess.run(
        [sys.executable, "-c", check], cwd=tree, capture_output=True, text=True, check=True
    ).stdout.strip()
    if Path(where) != (tree / "metrics").resolve():
        raise SystemExit(f"the copy imports its metrics from {where}, not from the copy")
    return tree


def digest(source: bytes, config: dict) -> str:
    """What a record was made from: the module's source and the operators left out."""
    excluded = config.get("exclude-operators", [])
    return hashlib.sha256(source + repr(excluded).encode()).hexdigest()


def keys_of(source: str, items) -> dict[str, Key]:
    """The key of each of cosmic-ray's work items, by job id."""
    items = list(items)
    mutants = [
        Mutant(i.mutations[0].start_pos[0], i.mutations[0].operator_name, i.mutations[0].occurrence)
        for i in items
    ]
    return {i.job_id: k for i, k in zip(items, mutant_keys(source, mutants), strict=True)}


def results_db(module: str, config: dict, tree: Path) -> Path:
    """The module's cosmic-ray database, started anew when the module or the operators change
    (a verdict holds for the version it was run on); beside it, the key of each of its mutants."""
    db = STATE / f"{slug(module)}.sqlite"
    meta = STATE / f"{slug(module)}.json"
    made_from = digest((tree / module).read_bytes(), config)
    known = json.loads(meta.read_text()) if meta.exists() else {}
    if db.exists() and known.get("sha256") == made_from:
        return db
    excluded = config.get("exclude-operators", [])
    patterns = [re.compile(p) for p in excluded]
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        with use_db(str(db), WorkDB.Mode.create) as work_db:
            init([Path(module)], work_db, {})
            # Operators left out (see docs/mutation.md): marked skipped, never run.
            skipped = [
                item.job_id
                for item in work_db.work_items
                if any(p.search(m.operator_name) for p in patterns for m in item.mutations)
            ]
            work_db.set_multiple_results(skipped, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
            keys = keys_of((tree / module).read_text(), work_db.work_items)
    finally:
        os.chdir(cwd)
    record = {"module": module, "sha256": made_from, "keys": {j: list(k) for j, k in keys.items()}}
    meta.write_text(json.dumps(record))
    return db


def record_keys(module: str, config: dict, work_db: WorkDB) -> dict[str, Key] | None:
    """The keys of the record's mutants; None for a record of another version of the module
    made before keys were kept beside it."""
    meta = STATE / f"{slug(module)}.json"
    known = json.loads(meta.read_text()) if meta.exists() else {}
    if "keys" in known:
        return {job: Key(*key) for job, key in known["keys"].items()}
    if known.get("sha256") == digest((ROOT / module).read_bytes(), config):
        return keys_of((ROOT / module).read_text(), work_db.work_items)
    return None


def current_keys(module: str, config: dict) -> set[Key]:
    """The keys of the mutants of the module as it is now (those of the operators kept)."""
    meta = STATE / f"{slug(module)}.json"
    known = json.loads(meta.read_text()) if meta.exists() else {}
    db = STATE / f"{slug(module)}.sqlite"
    made_from = digest((ROOT / module).read_bytes(), config)
    scratch = None
    if not (db.exists() and known.get("sha256") == made_from):
        scratch = Path(tempfile.mkdtemp(prefix="keys-", dir=STATE))
        db = scratch / "mutants.sqlite"
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            with use_db(str(db), WorkDB.Mode.create) as work_db:
                init([Path(module)], work_db, {})
        finally:
            os.chdir(cwd)
    patterns = [re.compile(p) for p in config.get("exclude-operators", [])]
    try:
        with use_db(str(db), WorkDB.Mode.open) as work_db:
            items = list(work_db.work_items)
    finally:
        if scratch:
            shutil.rmtree(scratch)
    keys = keys_of((ROOT / module).read_text(), items)
    return {
        keys[i.job_id]
        for i in items
        if not any(p.search(m.operator_name) for p in patterns for m in i.mutations)
    }


def pytest_options(module: str, config: dict) -> list[str]:
    args = config["modules"][module]
    options = ["-x", "-q", "-p", "no:cacheprovider"]
    # hypothesis' pytest plugin takes a second or two to import: left out where unused
    files = [ROOT / a for a in args if a.endswith(".py")]
    if not any("hypothesis" in f.read_text() for f in files):
        options += ["-p", "no:hypothesispytest"]
    return options


# What tests/conftest.py fixes before evaluate is imported, fixed here before the warm-up imports
# it: offline, and its caches in a scratch folder that is emptied after every mutant.
_OFFLINE = ("HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE", "HF_HUB_OFFLINE")
_CACHES = (
    "HF_HOME",
    "HF_MODULES_CACHE",
    "HF_EVALUATE_CACHE",
    "HF_METRICS_CACHE",
    "HF_DATASETS_CACHE",
)


def warm_up(tree: Path) -> Path:
    """Import the heavy third-party packages once, in the process the test runs are forked from
    (which import taskeval from the copy, as ``python -m pytest`` there would); its scratch folder."""
    scratch = tree / ".scratch"
    for var in _OFFLINE:
        os.environ[var] = "1"
    for var in _CACHES:
        os.environ[var] = str(scratch / "cache" / var.lower())
    os.environ["TMPDIR"] = str(scratch / "tmp")
    tempfile.tempdir = None
    for name in ("numpy", "pyarrow", "pandas", "datasets", "evaluate", "pytest", "hypothesis"):
        __import__(name)
    leaked = [m for m in sys.modules if m == "taskeval" or m.startswith("taskeval.")]
    if leaked:
        raise SystemExit(f"the warm-up imported {leaked[0]}: mutants of it would go unseen")
    sys.path.insert(0, str(tree))
    return scratch


_child = 0  # the test run under way, stopped with this process


def stop_child() -> None:
    if _child:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(_child, signal.SIGKILL)


def forked_pytest(args: list[str], timeout: float, scratch: Path) -> tuple[int | None, str]:
    """pytest's exit code (None on timeout) and its output, from a child of this process."""
    for sub in ("cache", "tmp"):
        shutil.rmtree(scratch / sub, ignore_errors=True)
        (scratch / sub).mkdir(parents=True)
    read, write = os.pipe()
    pid = os.fork()
    global _child
    _child = pid
    if pid == 0:  # the child: its own process group, so a timeout stops what it started too
        code = 3
        try:
            os.setpgrp()
            os.close(read)
            os.dup2(write, 1)
            os.dup2(write, 2)
            import pytest

            code = int(pytest.main(args))
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
    os.close(write)
    chunks: list[bytes] = []
    end = time.monotonic() + timeout
    timed_out = False
    with os.fdopen(read, "rb", buffering=0) as pipe:
        while True:
            left = end - time.monotonic()
            if left <= 0 or not select.select([pipe], [], [], left)[0]:
                timed_out = True
                break
            data = pipe.read(65536)
            if not data:
                break
            chunks.append(data)
    if timed_out:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    _child = 0
    output = b"".join(chunks)[-20000:].decode("utf-8", "replace")
    return (None if timed_out else os.waitstatus_to_exitcode(status)), output


def test_times(report: Path, tree: Path) -> dict[str, float]:
    """Seconds each test took, by node id, from a JUnit XML report of the selection."""
    from xml.etree import ElementTree

    times = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        parts = case.get("classname", "").split(".")
        for n in range(len(parts), 0, -1):  # the module, then classes inside it
            if (tree / Path(*parts[:n])).with_suffix(".py").is_file():
                node = "/".join(parts[:n]) + ".py::" + "::".join([*parts[n:], case.get("name")])
                times[node] = float(case.get("time") or 0)
                break
    return times


def covering_tests(module: str, config: dict, tree: Path) -> dict[int, list[str]]:
    """For each line of the module, the tests of its selection that execute it, the fastest
    first (a coverage run with a context per test; the module is recognised by its content,
    wherever it was imported from: through a link or from evaluate's cache)."""
    data_file = Path(tempfile.mkdtemp(prefix="cover-", dir=STATE)) / "coverage"
    try:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                *pytest_options(module, config)[1:],
                "--cov",
                "--cov-context=test",
                "--cov-report=",
                f"--junitxml={data_file.parent / 'times.xml'}",
                *config["modules"][module],
            ],
            cwd=tree,
            env={**os.environ, "COVERAGE_FILE": str(data_file)},
            stdout=subprocess.DEVNULL,
            check=True,
        )
        from coverage import CoverageData

        data = CoverageData(basename=str(data_file))
        data.read()
        lines: dict[int, set[str]] = {}
        for measured in data.measured_files():
            if not is_copy_of(Path(measured), tree, module):
                continue
            for line, contexts in data.contexts_by_lineno(measured).items():
                lines.setdefault(line, set()).update(c.rpartition("|")[0] for c in contexts)
        times = test_times(data_file.parent / "times.xml", tree)
        # a line run at import, in collection, has the empty context: only the whole selection
        return {
            line: sorted(tests, key=lambda t: (times.get(t, float("inf")), t))
            for line, tests in lines.items()
            if "" not in tests
        }
    finally:
        shutil.rmtree(data_file.parent)


def is_copy_of(path: Path, tree: Path, module: str) -> bool:
    """Whether a file coverage measured is the module: the file itself, through a link, or the
    copy ``evaluate.load`` made of it in its modules cache (gone by now with the tests' cache:
    ``.../evaluate_modules/metrics/<metric>/<hash>/<file>``, a copy of ``metrics/<metric>/<file>``)."""
    target = (tree / module).resolve()
    if path.is_file():
        return path.resolve() == target or path.read_bytes() == target.read_bytes()
    parts = path.parts
    if "evaluate_modules" not in parts or len(parts) < 4 or parts[-4] != "metrics":
        return False
    origin = tree / "metrics" / parts[-3] / parts[-1]
    return origin.exists() and origin.resolve() == target


def run_mutant(
    item, whole: list[str], subset: list[str], timeout: float, scratch: Path, confirm: bool
):
    """Apply the mutant on disk, run the tests on it, put the file back. ``confirm``: a mutant
    the subset lets through is run on the whole selection before it counts as a survivor."""
    mutation = item.mutations[0]
    operator = get_operator(mutation.operator_name)(**(mutation.operator_args or {}))
    try:
        return _run_mutant(mutation, operator, whole, subset, timeout, scratch, confirm)
    except Exception:  # cosmic-ray cannot make this mutant (as its own runner, it is incompetent)
        return WorkResult(
            output=traceback.format_exc(),
            test_outcome=TestOutcome.INCOMPETENT,
            worker_outcome=WorkerOutcome.EXCEPTION,
        )


def _run_mutant(mutation, operator, whole, subset, timeout, scratch, confirm) -> WorkResult:
    with use_mutation(mutation.module_path, operator, mutation.occurrence) as (before, after):
        if after is None:
            return WorkResult(worker_outcome=WorkerOutcome.NO_TEST)
        diff = "\n".join(
            difflib.unified_diff(
                before.splitlines(),
                after.splitlines(),
                f"a/{mutation.module_path}",
                f"b/{mutation.module_path}",
                lineterm="",
            )
        )
        code, output = forked_pytest(subset, timeout, scratch) if subset else (0, "")
        # passed (and to be confirmed), or the subset did not run: the whole selection
        if code not in (None, 0, 1) or not subset or (code == 0 and confirm):
            code, output = forked_pytest(whole, timeout, scratch)
    outcome = TestOutcome.SURVIVED if code == 0 else TestOutcome.KILLED
    return WorkResult(
        output=output or "timeout",
        diff=diff,
        test_outcome=outcome,
        worker_outcome=WorkerOutcome.NORMAL,
    )


def run(
    module: str,
    config: dict,
    tree: Path,
    scratch: Path,
    deadline: float,
    recheck: bool,
    listed: bool = False,
) -> bool:
    """Run the module's pending mutants until done or the deadline; True when done. ``recheck``:
    the survivors not listed as equivalent instead; ``listed``: those listed as equivalent, so
    that the report names any that a test kills (a listing that no longer holds)."""
    db = results_db(module, config, tree)
    options = pytest_options(module, config)
    whole = options + config["modules"][module]
    timeout = float(config.get("timeout", 120))
    equivalent = equivalents(config).get(module, {})
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        with use_db(str(db), WorkDB.Mode.open) as work_db:
            keys = record_keys(module, config, work_db) or {}
            if recheck:  # a survivor not reached before the deadline stays a survivor
                survivors = {
                    job
                    for job, result in work_db.results
                    if result.test_outcome == TestOutcome.SURVIVED
                }
                pending = [
                    i
                    for i in work_db.work_items
                    if i.job_id in survivors and keys.get(i.job_id) not in equivalent
                ]
            elif listed:
                pending = [i for i in work_db.work_items if keys.get(i.job_id) in equivalent]
            else:
                pending = list(work_db.pending_work_items)
            print(f"{module}: {len(pending)} mutants to run", flush=True)
            covering = covering_tests(module, config, tree) if pending else {}
            for n, item in enumerate(pending):
                if time.monotonic() > deadline:
                    return False
                tests = covering.get(item.mutations[0].start_pos[0], [])
                subset = options + tests if tests else []
                confirm = recheck or listed
                result = run_mutant(item, whole, subset, timeout, scratch, confirm=confirm)
                work_db.set_result(item.job_id, result)
                if result.test_outcome == TestOutcome.SURVIVED:
                    m = item.mutations[0]
                    print(f"  survived: line {m.start_pos[0]} {m.operator_name}", flush=True)
                if n % 25 == 24:
                    print(f"  {n + 1} of {len(pending)}", flush=True)
    finally:
        os.chdir(cwd)
    return True


def report(module: str, config: dict) -> dict:
    """The module's record in figures, its survivors (not listed as equivalent) with their keys,
    and what in the list of equivalents no longer holds: keys that match no mutant of the module
    as it is now (stale), and listed mutants that the record has killed."""
    equivalent = equivalents(config).get(module, {})
    counts = {
        "mutants": 0,
        "killed": 0,
        "survived": 0,
        "equivalent": 0,
        "pending": 0,
        "incompetent": 0,
    }
    survivors: list[dict] = []
    killed_listed: list[Key] = []
    current = current_keys(module, config)
    stale = sorted(k for k in equivalent if k not in current)
    db = STATE / f"{slug(module)}.sqlite"
    meta = STATE / f"{slug(module)}.json"
    known = json.loads(meta.read_text()) if meta.exists() else {}
    outdated = db.exists() and known.get("sha256") != digest((ROOT / module).read_bytes(), config)
    found = {
        **counts,
        "survivors": survivors,
        "listed": len(equivalent),
        "stale": stale,
        "outdated": outdated,
    }
    if not db.exists():
        return {**found, "killed_listed": killed_listed}
    with use_db(str(db), WorkDB.Mode.open) as work_db:
        items = {i.job_id: i for i in work_db.work_items}
        results = dict(work_db.results)
        keys = record_keys(module, config, work_db)
    if keys is None:  # a record of another version, made before keys were kept: none is known
        keys = {}
    for job, item in items.items():
        result = results.get(job)
        if result is not None and result.worker_outcome == WorkerOutcome.SKIPPED:
            continue
        counts["mutants"] += 1
        key = keys.get(job)
        if result is None or result.test_outcome is None:
            counts["pending"] += 1
        elif result.test_outcome == TestOutcome.KILLED:
            counts["killed"] += 1
            if key in equivalent:
                killed_listed.append(key)
        elif result.test_outcome == TestOutcome.SURVIVED:
            if key in equivalent:
                counts["equivalent"] += 1
                continue
            counts["survived"] += 1
            m = item.mutations[0]
            survivors.append(
                {
                    "line": m.start_pos[0],
                    "operator": m.operator_name,
                    "key": key,
                    "diff": result.diff,
                }
            )
        else:
            counts["incompetent"] += 1
    survivors.sort(key=lambda s: (s["line"], s["operator"]))
    return {**found, **counts, "killed_listed": sorted(killed_listed)}


def toml_key(key: Key | None) -> str:
    """A key as it is written in scripts/mutation.toml."""
    return json.dumps(list(key), ensure_ascii=False) if key else "(no key: an older record)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: all listed)")
    parser.add_argument("--minutes", type=float, default=10.0, help="stop after this long")
    again = parser.add_mutually_exclusive_group()
    again.add_argument("--recheck", action="store_true", help="run the survivors again")
    again.add_argument(
        "--listed", action="store_true", help="run the mutants listed as equivalent again"
    )
    parser.add_argument("--report", action="store_true", help="only print the results so far")
    args = parser.parse_args(argv)
    # Stopped with SIGTERM, the run still restores the mutated file and removes its copy.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    config = settings()
    equivalents(config)  # a malformed list stops the run before any mutant
    modules = args.modules or list(config["modules"])
    unknown = [m for m in modules if m not in config["modules"]]
    if unknown:
        parser.error(f"not listed under [modules] in {CONFIG.name}: {', '.join(unknown)}")
    STATE.mkdir(exist_ok=True)
    if not args.report:
        deadline = time.monotonic() + args.minutes * 60
        tree = make_tree()
        scratch = warm_up(tree)
        try:
            for module in modules:
                if not run(module, config, tree, scratch, deadline, args.recheck, args.listed):
                    print("time is up: run again to go on", flush=True)
                    break
        finally:
            stop_child()
            shutil.rmtree(tree)
    problems = 0
    for module in modules:
        r = report(module, config)
        done = r["killed"] + r["survived"]
        score = f"{100 * r['killed'] / done:.1f}%" if done else "-"
        print(
            f"{module}: {r['mutants']} mutants, {r['killed']} killed, {r['survived']} survived, "
            f"{r['equivalent']} equivalent, {r['incompetent']} incompetent, {r['pending']} "
            f"pending; score (killed of the non-equivalent run) {score}; {r['listed']} listed as "
            f"equivalent, {len(r['stale'])} of them stale"
        )
        if r["outdated"]:
            print("  the record is of another version of the module: run it again")
        for s in r["survivors"]:
            print(f"  line {s['line']}: {s['operator']}, key {toml_key(s['key'])}")
            print("    " + "\n    ".join((s["diff"] or "").splitlines()[2:]))
        for key in r["stale"]:
            print(f"  stale equivalent (matches no mutant of the module now): {toml_key(key)}")
        for key in r["killed_listed"]:
            print(f"  listed as equivalent but killed in the record: {toml_key(key)}")
        problems += len(r["stale"])
    if problems:
        print(f"{problems} stale equivalent keys in {CONFIG.relative_to(ROOT)}: review them again")
    return 0


if __name__ == "__main__":
    sys.exit(main())
