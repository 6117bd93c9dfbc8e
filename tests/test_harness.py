"""Checks every metric passes, driven by the entries in ``tests/entries/`` (see ``harness.py``)."""

from __future__ import annotations

import doctest
import inspect
import json
import os
import pickle
import random
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import taskeval
from taskeval.contract import ContractError, check_folder
from taskeval.export import spaces_root

from harness import (
    PARITY,
    REPO,
    assert_plain,
    assert_same,
    assert_unchanged,
    entries,
    model_outputs,
    run_cli,
    snapshot,
)

ENTRIES = {e.name: e for e in entries()}
_loaded: dict = {}


def load(name: str, config_name: str | None = None):
    key = (name, config_name)
    if key not in _loaded:
        _loaded[key] = taskeval.load(name, config_name)
    return _loaded[key]


def _parity_params():
    params = []
    for entry in ENTRIES.values():
        folder = entry.parity_folder_path()
        if entry.parity_root is None and not folder.is_dir():
            # Only a machine without the corpus may skip; CI always has it.
            marks = [] if os.environ.get("CI") else pytest.mark.skip(reason=f"{folder} is absent")
            params.append(pytest.param(entry.name, None, marks=marks, id=f"{entry.name}-absent"))
            continue
        for case in entry.parity_cases(folder):
            params.append(pytest.param(entry.name, case, id=f"{entry.name}-{case.id}"))
    return params


PARITY_PARAMS = _parity_params()


def test_every_metric_has_an_entry():
    assert sorted(ENTRIES) == taskeval.list_metrics()


@pytest.mark.parametrize("name", taskeval.list_metrics())
def test_every_metric_has_its_row_in_the_readme_with_its_space_picture(name):
    """The README's table of metrics is the one place besides the folders a metric is named: a
    row with its Space's picture (taken by the browser tests, ``TASKEVAL_SCREENSHOTS=spaces``)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if line.startswith(f"| `{name}` |")]
    assert len(rows) == 1, f"the README's table of metrics has no one row for {name}"
    assert f'<img src="spaces/{name}/screenshot.png"' in rows[0]
    assert (REPO / "spaces" / name / "screenshot.png").is_file()


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_every_entry_carries_what_the_shared_tests_read(name):
    """The shared tests know a metric only through its entry: a crafted submission for the
    Space's check panel, and parity cases (its own, or a folder of the shared corpus)."""
    entry = ENTRIES[name]
    assert entry.space_check is not None and entry.space_check.lines
    if entry.parity_root is not None:
        assert (entry.parity_root / "cases.jsonl").is_file()
        assert list(entry.parity_cases(entry.parity_root))


@pytest.mark.parametrize("name", taskeval.list_metrics())
def test_every_metric_folder_meets_the_contract(name):
    """Its folder holds what the package reads (contract.py with a complete CONTRACT), and its
    Space folder the app and the examples the contract names."""
    contract = check_folder(taskeval.metric_dir(name), spaces_root() / name)
    assert contract.name == name


def test_a_folder_lacking_part_of_the_contract_is_refused(tmp_path):
    """A metric folder copied elsewhere passes; without contract.py, without a CONTRACT, or with
    parts of it missing, the check says what is missing."""
    import shutil

    folder = tmp_path / "fever_score"
    shutil.copytree(
        taskeval.metric_dir("fever_score"), folder, ignore=shutil.ignore_patterns("__pycache__")
    )
    assert check_folder(folder).name == "fever_score"
    source = (folder / "contract.py").read_text(encoding="utf-8")

    def refusal_of(text: str | None) -> str:
        if text is None:
            (folder / "contract.py").unlink()
        else:
            (folder / "contract.py").write_text(text, encoding="utf-8")
        with pytest.raises(ContractError) as info:
            check_folder(folder)
        return str(info.value)

    assert refusal_of(None) == f"metric folder {folder} lacks contract.py"
    assert "defines no CONTRACT" in refusal_of("X = 1\n")
    # The Space part names no predictions example and has no help: both are listed.
    broken = source.replace('"predictions": "predictions.jsonl"}', "}")
    message = refusal_of(broken.replace("file_help=(", 'file_help="" and ('))
    assert message.startswith("metric 'fever_score' does not meet the contract: ")
    for part in (
        "CONTRACT.space.file_help must be a non-empty text",
        "CONTRACT.space.examples must name the predictions example",
    ):
        assert part in message, message
    # Statistics are checked once the rest is sound.
    message = refusal_of(source.replace("    statistics=statistics,\n", "    statistics=None,\n"))
    assert "CONTRACT.statistics must be a function, got None" in message
    message = refusal_of(
        source.replace("official_and_stats=official_and_stats,", "official_and_stats=1,")
    )
    assert "CONTRACT.statistics(...).official_and_stats must be a function, got 1" in message
    message = refusal_of(source.replace("Option(name, parse,", 'Option("max-evidence", parse,'))
    assert "CONTRACT.options[0].name must be a keyword name, got 'max-evidence'" in message
    # A Space folder without its examples.
    (folder / "contract.py").write_text(source, encoding="utf-8")
    (tmp_path / "space").mkdir()
    (tmp_path / "space" / "app.py").write_text("", encoding="utf-8")
    with pytest.raises(
        ContractError, match=r"the references example \S*actual.jsonl does not exist"
    ):
        check_folder(folder, tmp_path / "space")


def test_parity_corpus_present_in_ci():
    if os.environ.get("CI"):
        assert PARITY.is_dir(), f"CI must run with the parity corpus at {PARITY}"


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_doctests(name, monkeypatch):
    import evaluate

    metric = load(name)
    module = sys.modules[type(metric).__module__]
    real_load = evaluate.load

    def load_bare_name(path, *args, **kwargs):
        if path in ENTRIES:
            path = str(taskeval.metric_dir(path))
        return real_load(path, *args, **kwargs)

    monkeypatch.setattr(evaluate, "load", load_bare_name)
    results = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert results.failed == 0
    assert results.attempted > 1


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_compute_has_explicit_arguments(name):
    for config in ENTRIES[name].configs:
        params = inspect.signature(load(name, config)._compute).parameters.values()
        assert not [p for p in params if p.kind == p.VAR_KEYWORD]


def _compute_case(name: str, case):
    inputs = taskeval.read_official(name, references=case.references, predictions=case.predictions)
    before = snapshot(inputs)
    try:
        return load(name, case.config_name).compute(**inputs, **case.options)
    finally:
        assert inputs == before, "compute() mutated its inputs"


@pytest.mark.parametrize("name,case", PARITY_PARAMS)
def test_parity(name, case):
    if case.expected is None:
        with pytest.raises(ValueError):
            _compute_case(name, case)
        return
    try:
        result = _compute_case(name, case)
    except ValueError:
        if case.questionable:
            return  # a clear error is the preferred answer to questionable input
        raise
    assert_plain(result)
    assert_same(result, case.expected)


@pytest.mark.parametrize("name,case", PARITY_PARAMS)
def test_cli_matches_compute(name, case):
    code, out, err = run_cli(case.cli_argv(name))
    if case.expected is None:
        assert code == 1 and not out and "error" in err  # a data error
        return
    if code != 0:
        assert case.questionable, err
        return
    printed = json.loads(out)
    if case.cli_key is not None:
        printed = printed[case.cli_key]
    assert_same(printed, _compute_case(name, case))


def test_cli_console_script_runs():
    entry = next(iter(ENTRIES.values()))
    case = next(c for _, c in (p.values for p in PARITY_PARAMS) if c and c.expected)
    proc = subprocess.run(
        [sys.executable, "-m", "taskeval", *case.cli_argv(entry.name)],
        capture_output=True,
        text=True,
        check=True,
    )
    printed = json.loads(proc.stdout)
    assert_same(printed[case.cli_key] if case.cli_key else printed, case.expected)


def _variants():
    for entry in ENTRIES.values():
        for config in entry.configs:
            for options in entry.options:
                yield pytest.param(
                    entry.name, config, options, id=f"{entry.name}-{config}-{options}"
                )


@pytest.mark.parametrize("name,config,options", list(_variants()))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batches_and_rows_give_the_one_call_result(name, config, options, seed):
    rng = random.Random(seed)
    inputs = ENTRIES[name].random_inputs(rng, rng.randint(1, 40))
    before = snapshot(inputs)
    metric = load(name, config)
    whole = metric.compute(**inputs, **options)
    assert inputs == before, "compute() mutated its inputs"
    assert_plain(whole)

    n = len(inputs["predictions"])
    cuts = sorted(rng.sample(range(1, n), min(3, n - 1))) if n > 1 else []
    for lo, hi in zip([0, *cuts], [*cuts, n]):
        metric.add_batch(**{k: v[lo:hi] for k, v in inputs.items()})
    assert_same(metric.compute(**options), whole)

    for i in range(n):
        metric.add(**{k[:-1]: v[i] for k, v in inputs.items()})
    assert_same(metric.compute(**options), whole)
    assert inputs == before, "add/add_batch mutated their inputs"


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_two_processes_give_rank0_the_single_process_result(name, tmp_path):
    """Two ranks with ``num_process=2``: ``add_batch`` then ``compute()``, and
    ``compute(predictions=..., references=...)`` on both ranks (the one-call shortcut of a single
    process must not be taken: rank 0 gets the numbers of all rows, rank 1 None), and every
    invalid input refused with the single-process message."""
    entry = ENTRIES[name]
    config, options = entry.configs[-1], entry.options[-1]
    inputs = entry.random_inputs(random.Random(7), 24)
    invalid = [(c.inputs, c.options) for c in entry.invalid_cases if c.config_name == config]
    spec = {
        "name": name,
        "config_name": config,
        "options": options,
        "inputs": inputs,
        "split": 10,
        "invalid": invalid,
        "experiment_id": uuid.uuid4().hex,
        "cache_dir": str(tmp_path / "cache"),
    }
    spec_path = tmp_path / "spec.pickle"
    spec_path.write_bytes(pickle.dumps(spec))
    worker = str(Path(__file__).parent / "dist_worker.py")
    procs = [
        subprocess.Popen(
            [sys.executable, worker, str(spec_path), str(rank)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        for rank in (0, 1)
    ]
    outputs = [p.communicate(timeout=240) for p in procs]
    for p, (_, err) in zip(procs, outputs):
        assert p.returncode == 0, err
    rank0, rank1 = (json.loads(out) for out, _ in outputs)
    metric = load(name, config)
    expected = json.loads(json.dumps(metric.compute(**inputs, **options)))
    assert_same(rank0["add_batch"], expected)
    assert_same(rank0["compute"], expected)
    assert rank1["add_batch"] is None and rank1["compute"] is None
    # The test can tell: rank 0's own rows alone score otherwise.
    own = {k: v[: spec["split"]] for k, v in inputs.items()}
    assert json.loads(json.dumps(metric.compute(**own, **options))) != expected
    for (case_inputs, case_options), got0, got1 in zip(invalid, rank0["errors"], rank1["errors"]):
        if got1 is None:
            # Rows that pass the row checks and fail in scoring: both ranks added them, so
            # rank 0 scored them twice over.
            case_inputs = {k: [*v, *v] for k, v in case_inputs.items()}
        with pytest.raises(ValueError) as info:
            metric.compute(**case_inputs, **case_options)
        assert got0 == str(info.value)
        assert got1 in (None, got0)


def _invalid_params():
    return [
        pytest.param(e.name, c, id=f"{e.name}-{c.id}")
        for e in ENTRIES.values()
        for c in e.invalid_cases
    ]


@pytest.mark.parametrize("name,case", _invalid_params())
def test_invalid_input_raises_a_clear_value_error(name, case):
    before = snapshot(case.inputs)
    with pytest.raises(ValueError) as info:
        load(name, case.config_name).compute(**case.inputs, **case.options)
    message = str(info.value)
    for fragment in case.fragments:
        assert fragment in message, f"{fragment!r} not in error message {message!r}"
    assert case.inputs == before, "compute() mutated its inputs"


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_at_least_fifteen_invalid_cases(name):
    assert len(ENTRIES[name].invalid_cases) >= 15


def _first_error(steps) -> str | None:
    """The message of the first ValueError the steps raise (None if none does)."""
    try:
        for step in steps:
            step()
    except ValueError as e:
        return str(e)
    return None


def _paths(name: str, config: str | None, inputs: dict, options: dict) -> dict:
    """The ways to give the same rows, each as a list of steps on a fresh metric (in memory: a
    metric whose compute() failed keeps its cache file locked, and the next would wait)."""
    paths = {}
    fresh = taskeval.load(name, config, keep_in_memory=True)
    paths["compute"] = [lambda: fresh.compute(**inputs, **options)]
    batches = taskeval.load(name, config, keep_in_memory=True)
    paths["add_batch"] = [
        lambda: batches.add_batch(**inputs),
        lambda: batches.compute(**options),
    ]
    rows = list(inputs.values())
    if all(isinstance(v, (list, tuple)) for v in rows) and len({len(v) for v in rows}) == 1:
        if rows[0]:  # add() cannot give zero rows, nor unpaired ones
            singles = taskeval.load(name, config, keep_in_memory=True)
            paths["add"] = [
                *(
                    lambda i=i: singles.add(**{k[:-1]: v[i] for k, v in inputs.items()})
                    for i in range(len(rows[0]))
                ),
                lambda: singles.compute(**options),
            ]
    return paths


@pytest.mark.parametrize("name,case", _invalid_params())
def test_invalid_input_same_message_on_every_path(name, case):
    """compute(), add_batch() then compute(), and add() row by row then compute() refuse the same
    input with the same message (no evaluate or pyarrow error)."""
    messages = {
        path: _first_error(steps)
        for path, steps in _paths(name, case.config_name, case.inputs, case.options).items()
    }
    assert messages["compute"] is not None
    assert all(m == messages["compute"] for m in messages.values()), messages


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_add_batch_checks_lengths_itself(name):
    """Unpaired rows are refused by the metric's own check, with compute()'s message (evaluate's
    generic "Mismatch in the number of predictions" would differ)."""
    inputs = ENTRIES[name].random_inputs(random.Random(3), 3)
    inputs = {"predictions": inputs["predictions"], "references": inputs["references"][:2]}
    metric = load(name, ENTRIES[name].configs[0])
    with pytest.raises(ValueError) as expected:
        metric.compute(**inputs)
    with pytest.raises(ValueError) as info:
        taskeval.load(name, ENTRIES[name].configs[0], keep_in_memory=True).add_batch(**inputs)
    assert str(info.value) == str(expected.value)
    assert "same length" in str(info.value)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_missing_predictions_or_references_is_a_value_error(name):
    config = ENTRIES[name].configs[0]
    inputs = ENTRIES[name].random_inputs(random.Random(4), 2)
    preds, refs = inputs["predictions"], inputs["references"]
    calls = {
        "compute() needs both predictions and references; predictions is missing": [
            lambda m: m.compute(predictions=None, references=refs),
            lambda m: m.compute(references=refs),
        ],
        "compute() needs both predictions and references; references is missing": [
            lambda m: m.compute(predictions=preds),
        ],
        "add_batch() needs both predictions and references; references is missing": [
            lambda m: m.add_batch(predictions=preds),
        ],
        "add_batch() needs both predictions and references; predictions and references are": [
            lambda m: m.add_batch(),
        ],
        "add() needs both prediction and reference; prediction is missing": [
            lambda m: m.add(reference=refs[0]),
        ],
        "compute() needs predictions and references, or rows added first": [
            lambda m: m.compute(),
        ],
    }
    for message, attempts in calls.items():
        for attempt in attempts:
            with pytest.raises(ValueError, match=re.escape(message)):
                attempt(taskeval.load(name, config, keep_in_memory=True))


@pytest.mark.parametrize("name,config,options", list(_variants()))
@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("seed", [0, 1])
def test_model_outputs_score_as_plain_values(name, config, options, kind, seed):
    """numpy scalars, 0-d arrays and tensors where ints and floats belong, 1-d arrays where lists
    of ints belong: the numbers of the plain values they stand for, on every path."""
    if kind == "torch":
        pytest.importorskip("torch")
    rng = random.Random(seed)
    inputs = ENTRIES[name].random_inputs(rng, rng.randint(1, 25))
    typed, plain = model_outputs(inputs, rng, kind)
    before = snapshot(typed)
    expected = load(name, config).compute(**plain, **options)
    for path, steps in _paths(name, config, typed, options).items():
        result = None
        for step in steps:
            result = step()
        assert_plain(result, path)
        assert_same(result, expected, path)
        assert_unchanged(typed, before, f"inputs after {path}")


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_no_path_mutates_its_inputs(name):
    """compute(), add_batch() and add(), with and without details, leave every input as it was,
    down to the types: unsorted lists, tuples, nested records, numpy and torch values."""
    entry = ENTRIES[name]
    rng = random.Random(5)
    variants = {}
    for seed in range(3):
        inputs = entry.random_inputs(random.Random(seed), 12)
        if entry.awkward is not None:
            inputs = entry.awkward(inputs, rng)
        variants[f"awkward-{seed}"] = inputs
        variants[f"numpy-{seed}"] = model_outputs(inputs, rng, "numpy")[0]
    for config in entry.configs:
        has_details = "details" in inspect.signature(load(name, config)._compute).parameters
        for options in [{}, {"details": True}] if has_details else [{}]:
            for label, inputs in variants.items():
                before = snapshot(inputs)
                for path, steps in _paths(name, config, inputs, options).items():
                    for step in steps:
                        step()
                    assert_unchanged(inputs, before, f"{label} inputs after {path} {options}")


def test_int64_bounds_are_accepted_on_every_path():
    """-2**63 and 2**63-1 fit the features: every path scores them (the fast path of FEVER's
    core leaves -2**63 to the row-by-row path, which must accept it)."""
    lines = [-(2**63), 2**63 - 1]
    inputs = {
        "predictions": [
            {"predicted_label": "SUPPORTS", "predicted_evidence": [["A", n] for n in lines]},
            {"predicted_label": "SUPPORTS", "predicted_evidence": [["A", 0]]},
        ],
        "references": [
            {"label": "SUPPORTS", "evidence": [[[0, 0, "A", n]] for n in lines]},
            # A group mixing a None line and line 0 (nothing left to bound once both are dropped).
            {"label": "SUPPORTS", "evidence": [[[0, 0, "A", 0], [0, 0, None, None]], []]},
        ],
    }
    results = []
    for steps in _paths("fever_score", None, inputs, {}).values():
        for step in steps:
            result = step()
        results.append(result)
    assert results[0]["strict_score"] == 1.0
    assert results[0]["evidence_precision"] == 1.0
    assert all(r == results[0] for r in results)
