"""Behaviour that only a test keeps: each test here fails when its behaviour breaks."""

from __future__ import annotations

import json
import math
import random
import shutil
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

import taskeval
import taskeval.api
from taskeval.compare import compare, compare_rows, intervals
from taskeval.contract import ContractError, check_folder
from taskeval.registry import contract
from taskeval.units import adapter, identity_scores

from entries.fever_score import random_rows
from harness import PARITY, entries, run_cli

EHEALTHKD = PARITY / "ehealthkd" / "real"


# --- several metrics scored together ----------------------------------------------------------


def _taking(name: str, options: list[str], calls: dict):
    def score_files(references, predictions, **kwargs):
        calls[name] = kwargs
        return {f"{name}_score": 1.0}

    reader = SimpleNamespace(group=None, score_files=score_files, score_metrics=None)
    return SimpleNamespace(
        name=name, reader=reader, option=lambda key: None, setting_names=lambda: options
    )


def test_each_metric_scored_together_gets_only_its_own_options(monkeypatch):
    calls: dict = {}
    fakes = {"a": _taking("a", ["alpha"], calls), "b": _taking("b", ["beta"], calls)}
    monkeypatch.setattr(taskeval.api, "contract", fakes.__getitem__)
    monkeypatch.setattr(taskeval.api, "list_metrics", lambda: sorted(fakes))
    taskeval.api.score_files("a,b", predictions="p", alpha=1, beta=2)
    assert calls == {"a": {"alpha": 1}, "b": {"beta": 2}}


# --- load keeps the config ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "config"),
    [(e.name, c) for e in entries() for c in e.configs if c is not None],
)
def test_load_keeps_the_config_name(name, config):
    assert taskeval.load(name, config).config_name == config


# --- install --uninstall removes what install wrote, nothing else ----------------------------


def test_uninstall_removes_only_the_copies_install_wrote(tmp_path):
    cache = tmp_path / "cache"
    assert run_cli(["install", "fever_score", "tydiqa", "--cache", str(cache)])[0] == 0
    root = cache / "evaluate_modules" / "metrics"
    foreign = [
        root / "evaluate-metric--fever_score" / ("0" * 64),  # evaluate's own copy, say
        root / "evaluate-metric--accuracy" / ("1" * 64),
        root / "fever_score" / ("2" * 64),  # evaluate's copy of a local load
    ]
    for folder in foreign:
        folder.mkdir(parents=True)
        (folder / "module.py").write_text("", encoding="utf-8")
    code, out, err = run_cli(["install", "--uninstall", "fever_score", "--cache", str(cache)])
    assert code == 0, err
    (removed,) = out.split()
    assert removed.startswith(str(root / "evaluate-metric--fever_score"))
    assert all((folder / "module.py").is_file() for folder in foreign)
    assert len(list((root / "evaluate-metric--tydiqa").glob("*/tydiqa.py"))) == 1


# --- export rewrites every import of taskeval ---------------------------------------------------


def test_export_rewrites_every_taskeval_import_of_a_file():
    from taskeval.export import PACKAGE, _bundled

    source = "from taskeval.space import a\nx = 1\nfrom taskeval.table import b\n"
    assert _bundled(source) == (
        f"from {PACKAGE}.space import a\nx = 1\nfrom {PACKAGE}.table import b\n"
    )


# --- compare pairs eHealth-KD scenarios by name --------------------------------------------------


def test_compare_pairs_the_scenarios_of_two_systems_by_name(monkeypatch):
    """A system whose scenarios come in another order is paired scenario by scenario."""
    runs = sorted((EHEALTHKD / "cases").iterdir())
    picked = [r / "submission" for r in runs if r.name.split("__")[0] in ("baseline", "abravo")]
    kwargs = dict(references=EHEALTHKD / "gold", predictions=picked, resamples=400)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = compare("ehealthkd", **kwargs)
        config = contract("ehealthkd").config
        pairs = config.pairs

        def reversed_for_the_second(references, predictions, chosen):
            found = list(pairs(references, predictions, chosen))
            return found[::-1] if predictions == picked[1] else found

        monkeypatch.setattr(config, "pairs", reversed_for_the_second)
        assert compare("ehealthkd", **kwargs) == expected


# --- the official order of the sums --------------------------------------------------------------


def test_identity_scores_add_the_units_left_to_right_as_the_official_loop():
    """Rows whose evidence precision, added left to right (the official loop), differs from the
    exact sum: the per-unit path gives compute()'s number, the left-to-right one."""
    rows = random_rows(random.Random(0), 40)
    stats = adapter("fever_score").units(rows).stats
    exact = adapter("fever_score").aggregate(
        np.array([[math.fsum(column) for column in stats.T]]), len(stats)
    )
    official = taskeval.load("fever_score").compute(**rows)
    assert exact["evidence_precision"][0] != official["evidence_precision"]  # the case tells
    assert identity_scores("fever_score", rows) == official


# --- FEVER files of different lengths --------------------------------------------------------


def test_fever_files_of_different_lengths_get_the_checking_paths_error(tmp_path):
    gold, preds = tmp_path / "gold.jsonl", tmp_path / "preds.jsonl"
    rows = random_rows(random.Random(1), 3)
    gold.write_text(
        "".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(rows["references"]))
    )
    official = [
        {"predicted_label": p["predicted_label"], "predicted_evidence": p["predicted_evidence"]}
        for p in rows["predictions"][:2]
    ]
    preds.write_text("".join(json.dumps(p) + "\n" for p in official))
    with pytest.raises(ValueError) as slow:
        taskeval.read_official("fever_score", references=gold, predictions=preds)
    with pytest.raises(ValueError) as fast:
        taskeval.score_files("fever_score", references=gold, predictions=preds)
    assert str(fast.value) == str(slow.value)
    assert "has 3 lines but" in str(fast.value)


# --- a metric folder needs its requirements.txt ----------------------------------------------


def test_check_folder_refuses_a_metric_folder_without_requirements(tmp_path):
    folder = tmp_path / "fever_score"
    shutil.copytree(taskeval.metric_dir("fever_score"), folder)
    check_folder(folder)
    (folder / "requirements.txt").unlink()
    with pytest.raises(ContractError, match=r"lacks requirements\.txt"):
        check_folder(folder)


# --- a config name given as an option ----------------------------------------------------------


def test_a_config_given_as_an_option_is_refused_naming_config_name():
    entry = next(e for e in entries() if e.name == "ehealthkd")
    rows = entry.random_inputs(random.Random(1), 6)
    for call in (
        lambda: compare_rows("ehealthkd", [rows], scenario="scenario2", resamples=400),
        lambda: intervals("ehealthkd", rows, scenario="scenario2", resamples=400),
    ):
        with pytest.raises(ValueError, match=r"config_name='scenario2'"):
            call()
