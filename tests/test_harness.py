"""Checks every metric passes, driven by the entries in ``tests/entries/`` (see ``harness.py``)."""

from __future__ import annotations

import doctest
import inspect
import json
import os
import random
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import taskeval

from harness import PARITY, REPO, assert_plain, assert_same, entries, run_cli, snapshot

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
        folder = PARITY / (entry.parity_folder or entry.name)
        if not folder.is_dir():
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
    entry = ENTRIES[name]
    config, options = entry.configs[-1], entry.options[-1]
    inputs = entry.random_inputs(random.Random(7), 24)
    spec = {
        "name": name,
        "config_name": config,
        "options": options,
        "inputs": inputs,
        "split": 10,
        "experiment_id": uuid.uuid4().hex,
        "cache_dir": str(tmp_path / "cache"),
    }
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
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
    outputs = [p.communicate(timeout=180) for p in procs]
    for p, (_, err) in zip(procs, outputs):
        assert p.returncode == 0, err
    assert json.loads(outputs[1][0]) is None
    expected = load(name, config).compute(**json.loads(json.dumps(inputs)), **options)
    assert_same(json.loads(outputs[0][0]), json.loads(json.dumps(expected)))


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
