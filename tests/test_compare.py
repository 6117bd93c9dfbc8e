"""taskeval compare: exact on the original sample, statistically sound, reproducible, on the CLI.

The statistical checks run on many fixed seeds: they are deterministic, and their tolerances are
set far from the observed values (and from what chance alone would give), so they cannot flake.
"""

from __future__ import annotations

import json
import random
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest

import taskeval
from taskeval.cli import main
from taskeval.compare import compare, compare_rows, format_result, short_names
from taskeval.units import identity_scores

from harness import PARITY, entries

ENTRIES = {e.name: e for e in entries()}
SCIFACT = PARITY / "scifact" / "cases"
FEVER = PARITY / "fever" / "cases" / "fixture_9999_blind"
EHEALTHKD = PARITY / "ehealthkd" / "real"
TYDIQA = PARITY / "tydiqa" / "cases"
needs_parity = pytest.mark.skipif(not PARITY.is_dir(), reason="the parity corpus is absent")


def _parity_params():
    if not PARITY.is_dir():
        return []
    params = []
    for name, entry in ENTRIES.items():
        for case in entry.parity_cases(entry.parity_folder_path()):
            if case.expected is not None and not case.questionable:
                params.append(pytest.param(name, case, id=f"{name}-{case.id}"))
    return params


@pytest.mark.parametrize("name,case", _parity_params())
def test_per_unit_path_equals_compute_on_parity_cases(name, case):
    """Sums of the per-unit statistics, left to right, give the official numbers bit for bit."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        inputs = taskeval.read_official(
            name, references=case.references, predictions=case.predictions
        )
        adapter_keys = compare_rows(
            name, [inputs], config_name=case.config_name, resamples=2, **case.options
        )["systems"][0]["scores"]
        ours = identity_scores(name, inputs, case.config_name, **case.options)
    for key in adapter_keys:
        assert ours[key] == case.expected[key], key
        assert type(ours[key]) is type(case.expected[key]) or isinstance(ours[key], float), key
        assert adapter_keys[key]["score"] == case.expected[key], key


# ---------------------------------------------------------------------------------------------
# Synthetic systems on fever_score: label_accuracy is a mean of per-claim Bernoulli outcomes.

GOLD = {"label": "SUPPORTS", "evidence": [[[None, None, "page", 1]]]}


def _system(rng: random.Random, n: int, p_right: float) -> list[dict]:
    rows = []
    for _ in range(n):
        right = rng.random() < p_right
        # 1 to 5 sentences, each a gold one with probability 1/2: precision takes many values
        evidence = [["page", 1 if rng.random() < 0.5 else 2] for _ in range(rng.randint(1, 5))]
        rows.append(
            {"predicted_label": "SUPPORTS" if right else "REFUTES", "predicted_evidence": evidence}
        )
    return rows


def _pair(seed: int, n: int, p_a: float, p_b: float) -> list[dict]:
    rng = random.Random(seed)
    refs = [GOLD] * n
    return [
        {"predictions": _system(rng, n, p_a), "references": refs},
        {"predictions": _system(rng, n, p_b), "references": refs},
    ]


def _ks(p_values: list[float]) -> float:
    """Kolmogorov-Smirnov distance of the p-values to the uniform distribution."""
    p = np.sort(np.asarray(p_values))
    k = np.arange(1, len(p) + 1)
    return float(max(np.max(k / len(p) - p), np.max(p - (k - 1) / len(p))))


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_p_values_of_equally_good_systems_are_uniform(method):
    """Two systems drawn from the same distribution: p-values spread uniformly over [0, 1]."""
    p_values = []
    for seed in range(300):
        result = compare_rows(
            "fever_score", _pair(seed, 150, 0.6, 0.6), method=method, resamples=199, seed=seed
        )
        p_values.append(result["comparisons"][0]["scores"]["evidence_precision"]["p_value"])
    # KS critical value at alpha = 1e-4 for 300 draws is 2.15 / sqrt(300) = 0.124.
    assert _ks(p_values) < 0.124
    # and a false-positive rate near the nominal 5%
    assert 0.01 <= np.mean(np.asarray(p_values) < 0.05) <= 0.10


def test_identical_systems_have_p_one():
    systems = _pair(0, 100, 0.6, 0.6)[:1] * 2
    for method in ("bootstrap", "randomization"):
        result = compare_rows("fever_score", systems, method=method, resamples=100)
        for entry in result["comparisons"][0]["scores"].values():
            assert entry["p_value"] == 1.0 and entry["difference"] == 0.0


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_a_clearly_better_system_is_significant(method):
    result = compare_rows("fever_score", _pair(1, 400, 0.5, 0.65), method=method, seed=3)
    label = result["comparisons"][0]["scores"]["label_accuracy"]
    assert label["difference"] > 0 and label["p_value"] < 0.05 and label["low"] > 0


def test_bootstrap_interval_covers_the_truth_at_the_nominal_rate():
    """label_accuracy of a system right with probability 0.7 on every claim: the truth is 0.7."""
    covered = []
    for seed in range(300):
        system = _pair(seed, 200, 0.7, 0.7)[:1]
        result = compare_rows("fever_score", system, resamples=400, seed=seed)
        s = result["systems"][0]["scores"]["label_accuracy"]
        covered.append(s["low"] <= 0.7 <= s["high"])
    # 95% nominal; the percentile interval of a binomial mean is a little short at n=200.
    # A binomial(300, 0.95) lies in [0.90, 0.99] with probability > 0.9999.
    assert 0.90 <= np.mean(covered) <= 0.99


def test_results_are_reproducible_with_a_seed():
    systems = _pair(5, 120, 0.6, 0.7)
    for method in ("bootstrap", "randomization"):
        one = compare_rows("fever_score", systems, method=method, resamples=300, seed=7)
        two = compare_rows("fever_score", systems, method=method, resamples=300, seed=7)
        other = compare_rows("fever_score", systems, method=method, resamples=300, seed=8)
        assert one == two
        assert one != other
        assert (
            one["systems"] == compare_rows("fever_score", systems, resamples=300, seed=7)["systems"]
        )


def test_invalid_arguments_are_explained():
    systems = _pair(0, 10, 0.5, 0.5)
    other_gold = {**systems[1], "references": [{"label": "REFUTES", "evidence": []}] * 10}
    for kwargs, fragment in (
        ({"method": "permutation"}, "method must be one of"),
        ({"resamples": 0}, "resamples must be a positive int"),
        ({"seed": -1}, "seed must be"),
        ({"confidence": 95}, "confidence must be"),
        ({"names": ["one"]}, "1 names for 2 systems"),
        ({"max_evidence_": 3}, "has no option max_evidence_"),
    ):
        with pytest.raises(ValueError, match=fragment):
            compare_rows("fever_score", systems, **kwargs)
    with pytest.raises(ValueError, match="other references"):
        compare_rows("fever_score", [systems[0], other_gold])
    with pytest.raises(ValueError, match=r"predictions\[0\]"):
        compare_rows(
            "fever_score", [{"predictions": [{}] * 10, "references": systems[0]["references"]}]
        )


# ---------------------------------------------------------------------------------------------
# Every metric on the parity corpus' real prediction sets


@needs_parity
def test_scifact_real_dev_systems():
    preds = [
        SCIFACT / f"dev_multivers_{c}_ckpt" / "predictions.jsonl" for c in ("scifact", "fever")
    ]
    for name in ("scifact_abstract", "scifact_sentence"):
        for method in ("bootstrap", "randomization"):
            result = compare(
                name, references=SCIFACT / "dev_oracle" / "gold.jsonl", predictions=preds,
                method=method,
            )  # fmt: skip
            assert result["units"] == 300 and result["unit"] == "claim"
            for system, path in zip(result["systems"], preds):
                expected = json.loads((path.parent / "expected.json").read_text())
                for key, s in system["scores"].items():
                    assert s["score"] == expected[key]
                    assert s["low"] <= s["score"] <= s["high"] or s["low"] == s["high"]
            f1 = list(result["comparisons"][0]["scores"])[-1]
            assert result["comparisons"][0]["scores"][f1]["p_value"] < 0.05


@needs_parity
def test_fever_real_fixture():
    refs, preds = FEVER / "actual.jsonl", FEVER / "predictions.jsonl"
    result = compare("fever_score", references=refs, predictions=[preds, preds], resamples=200)
    expected = json.loads((FEVER / "expected.json").read_text())
    strict = result["systems"][0]["scores"]["strict_score"]
    assert strict["score"] == expected["strict_score"]
    assert strict["low"] < strict["score"] < strict["high"]
    assert result["comparisons"][0]["scores"]["strict_score"]["p_value"] == 1.0


@needs_parity
def test_ehealthkd_real_runs_all_scenarios():
    runs = sorted((EHEALTHKD / "cases").iterdir())
    picked = [r / "submission" for r in runs if r.name.split("__")[0] in ("baseline", "abravo")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compare("ehealthkd", references=EHEALTHKD / "gold", predictions=picked)
        one = compare(
            "ehealthkd", references=EHEALTHKD / "gold", predictions=picked, scenario="scenario2"
        )
    assert list(result) == ["scenario1", "scenario2", "scenario3"]
    assert one["scenario2"] == result["scenario2"]
    for scenario, r in result.items():
        assert r["unit"] == "sentence" and r["units"] == 100
        for system, run in zip(r["systems"], picked):
            expected = json.loads((run.parent / "expected.json").read_text())[scenario]
            assert system["official"] == expected
            assert list(system["scores"]) == ["precision", "recall", "f1"]
    assert result["scenario1"]["comparisons"][0]["scores"]["f1"]["p_value"] < 0.05


@needs_parity
def test_tydiqa_real_tiny_dev():
    cases = ["real_tiny_dev_first_passage", "real_tiny_dev_oracle", "real_tiny_dev_partial"]
    preds = [TYDIQA / c / "predictions.jsonl" for c in cases]
    for method in ("bootstrap", "randomization"):
        result = compare(
            "tydiqa", references=TYDIQA / cases[0] / "gold.jsonl.gz", predictions=preds,
            method=method, resamples=100,
        )  # fmt: skip
        assert result["unit"] == "example" and result["units"] == 11
        for system, c in zip(result["systems"], cases):
            expected = json.loads((TYDIQA / c / "expected.json").read_text())
            assert system["official"] == expected
        # one example per language: each resample is the sample itself
        assert all(
            s["low"] == s["high"] == s["score"]
            for system in result["systems"]
            for s in system["scores"].values()
        )


@needs_parity
def test_tydiqa_resamples_rerun_the_sweep_per_language():
    case = TYDIQA / "synth_gen_n300_s21"
    result = compare(
        "tydiqa", references=case / "gold.jsonl.gz", predictions=[case / "predictions.jsonl"],
        resamples=50,
    )  # fmt: skip
    expected = json.loads((case / "expected.json").read_text())
    for key, s in result["systems"][0]["scores"].items():
        assert s["score"] == expected[key] and s["low"] < s["high"]


# ---------------------------------------------------------------------------------------------
# The command line


@needs_parity
def test_cli_compare_table_and_json(capsys):
    preds = [
        str(SCIFACT / f"dev_multivers_{c}_ckpt" / "predictions.jsonl") for c in ("scifact", "fever")
    ]
    gold = str(SCIFACT / "dev_oracle" / "gold.jsonl")
    argv = ["compare", "scifact_abstract", "--references", gold, "--predictions", *preds]
    assert main([*argv, "--resamples", "100", "--seed", "1", "--table"]) == 0
    table = capsys.readouterr().out
    assert "95% interval" in table and "dev_multivers_fever_ckpt/predictions.jsonl" in table
    assert main([*argv, "--resamples", "100", "--seed", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == compare(
        "scifact_abstract", references=gold, predictions=preds, resamples=100, seed=1
    )
    assert format_result(data) == table.rstrip("\n")
    argv = [*argv, "--method", "randomization", "--names", "A", "B"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "randomization" and data["comparisons"][0]["system"] == "B"


@needs_parity
def test_cli_score_ci(capsys):
    gold, preds = str(FEVER / "actual.jsonl"), str(FEVER / "predictions.jsonl")
    argv = ["score", "fever_score", "--references", gold, "--predictions", preds]
    assert main(argv) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, "--ci", "--resamples", "50", "--max-evidence", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"] == {"max_evidence": 5}
    assert data["systems"][0]["official"] == plain and data["comparisons"] == []
    assert main([*argv, "--ci", "--resamples", "50", "--table"]) == 0
    assert "strict_score" in capsys.readouterr().out


def test_cli_errors_go_to_stderr(tmp_path, capsys):
    bad = tmp_path / "p.jsonl"
    bad.write_text('{"predicted_label": "SUPPORTS"}\n')
    argv = ["compare", "fever_score", "--predictions", str(bad), str(bad)]
    assert main(argv) == 1
    assert "taskeval compare fever_score: error:" in capsys.readouterr().err


def test_short_names():
    assert short_names([Path("a/x/p.jsonl"), Path("b/x/p.jsonl")]) == ["a/x/p.jsonl", "b/x/p.jsonl"]
    assert short_names(["run1/p.jsonl", "run2/p.jsonl"]) == ["run1/p.jsonl", "run2/p.jsonl"]
    assert short_names(["a.jsonl", "b.jsonl"]) == ["a.jsonl", "b.jsonl"]


# ---------------------------------------------------------------------------------------------
# The Spaces: an optional interval column


def test_space_interval_column():
    gr = pytest.importorskip("gradio")
    import importlib.util

    from taskeval.space import INTERVAL_COLUMN, add_intervals, compute, scores_table

    repo = Path(__file__).resolve().parents[1]
    for app in sorted((repo / "spaces").glob("*/app.py")):
        module_spec = importlib.util.spec_from_file_location(f"space_{app.parent.name}", app)
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        spec = module.SPEC
        with gr.Blocks():
            controls = [c.value for c in spec.controls()]
        rows = spec.example_rows
        args = ("json", json.dumps(rows["predictions"]), json.dumps(rows["references"]), None, None)
        plain = compute(spec, *args, *controls)[2]["value"]
        error, _, scores, *_ = compute(spec, *args, *controls, with_interval=True)
        assert error["visible"] is False, error
        scores = scores["value"]
        # the page's second step adds the same column to Compute's table
        added = add_intervals(spec, *args, *controls, True, plain)
        assert added.values.tolist() == scores.values.tolist()
        assert add_intervals(spec, *args, *controls, False, plain) == gr.update()
        assert add_intervals(spec, *args, *controls, True, None) == gr.update()
        assert list(scores.columns) == ["score", "value", INTERVAL_COLUMN]
        assert scores[["score", "value"]].values.tolist() == plain.values.tolist()
        config, options = spec.read_controls(*controls)
        bounds = taskeval.intervals(spec.metric, rows, config_name=config, **options)
        shown = dict(zip(scores["score"], scores[INTERVAL_COLUMN]))
        for key, (low, high) in bounds.items():
            assert shown[key] == f"[{low:.4f}, {high:.4f}]"
        assert set(k for k, v in shown.items() if v) == set(bounds)
        result = taskeval.load(spec.metric, config).compute(**rows, **options)
        headline = {k: v for k, v in result.items() if not isinstance(v, dict)}
        assert plain.values.tolist() == scores_table(headline)  # nested scores: their own table


@needs_parity
@pytest.mark.parametrize("first", ["both", "one"])
def test_ehealthkd_systems_holding_other_scenarios_are_named(first):
    """The first system sets the scenarios; one holding others (more or fewer) is named, with
    both lists."""
    baseline = next(r for r in sorted((EHEALTHKD / "cases").iterdir()) if "baseline" in r.name)
    with tempfile.TemporaryDirectory() as tmp:
        both, one = Path(tmp) / "both", Path(tmp) / "one"
        for folder, scenarios in (
            (both, ("scenario1-main", "scenario2-taskA")),
            (one, ("scenario1-main",)),
        ):
            folder.mkdir()
            for name in scenarios:
                (folder / name).symlink_to(baseline / "submission" / name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(ValueError) as refused:
                systems = [both, one] if first == "both" else [one, both]
                compare("ehealthkd", references=EHEALTHKD / "gold", predictions=systems)
    held = {one: "scenario1", both: "scenario1, scenario2"}
    base, other = systems
    assert str(refused.value) == (
        f"{other} holds {held[other]} but {base} holds {held[base]}: compare the same "
        "scenarios (or pick one)"
    )


def test_the_quantiles_are_numpys_to_the_last_bit():
    """``_quantile`` (the intervals' percentiles without ``numpy.ma``) is ``np.quantile``'s linear
    method, operation for operation: both of its formulas and both ends."""
    from taskeval.compare import _quantile

    rng = random.Random(11)
    qs = [0.0, 0.025, 0.05, 0.5, 0.9, 0.95, 0.975, 0.99, 0.999, 1.0]
    for _ in range(3000):
        n = rng.randint(1, 12)
        values = sorted(rng.uniform(-1e3, 1e3) * rng.choice([1, 1e-9, 1e9]) for _ in range(n))
        q = rng.choice([*qs, rng.random()])
        assert _quantile(values, q) == np.quantile(values, q).item(), (values, q)


@needs_parity
def test_compare_from_files_keeps_an_option_set_to_none():
    """``max_evidence=None`` (FEVER: no cut) is an option given, not an unset config."""
    case = PARITY / "fever" / "cases" / "edge_A1_readme_example1"
    gold = case / "actual.jsonl" if (case / "actual.jsonl").is_file() else None
    predictions = case / "predictions.jsonl"
    result = compare(
        "fever_score", references=gold, predictions=[predictions], resamples=10, max_evidence=None
    )
    assert result["options"] == {"max_evidence": None}
    rows = taskeval.read_official("fever_score", references=gold, predictions=predictions)
    expected = taskeval.load("fever_score").compute(**rows, max_evidence=None)
    assert result["systems"][0]["official"] == expected


def test_systems_predicting_other_rows_are_named_both_ways():
    def system(ids: list) -> dict:
        rows = [{"example_id": i, "language": "finnish", "passage_answer_index": -1,
                 "passage_answer_score": 0.0, "minimal_answer": {"start_byte_offset": -1,
                 "end_byte_offset": -1}, "minimal_answer_score": 0.0, "yes_no_answer": "NONE"}
                for i in ids]  # fmt: skip
        gold = [{"example_id": i, "language": "finnish", "annotations": [
            {"candidate_index": -1, "start_byte": -1, "end_byte": -1, "yes_no_answer": "NONE"}]}
            for i in ids]  # fmt: skip
        return {"predictions": rows, "references": gold}

    with pytest.raises(ValueError) as refused:
        compare_rows("tydiqa", [system([1, 2, 3]), system([2, 3, 4])], names=["a", "b"])
    assert str(refused.value) == (
        "system 1 (b) and a predict other rows (ids 1 only in a; ids 4 only in b): a paired "
        "comparison needs predictions for the same rows"
    )


def test_a_metric_with_configs_needs_its_gold_folder():
    with pytest.raises(ValueError, match=r"^ehealthkd needs the gold folder as references$"):
        compare("ehealthkd", references=None, predictions=[Path("run")], resamples=5)


def test_systems_whose_ids_cannot_be_gathered_get_the_general_message():
    first = {"predictions": [{"example_id": [1]}], "references": [{"example_id": 1}]}
    second = {"predictions": [{"example_id": [2]}], "references": [{"example_id": 2}]}
    with pytest.raises(ValueError) as refused:
        compare_rows("tydiqa", [first, second], names=["a", "b"])
    assert str(refused.value) == (
        "system 1 (b) is scored against other references than a: a paired comparison needs "
        "the same gold for every system"
    )
