"""A metric's official numbers and unit statistics in one pass (``official_and_stats``) are, to
the last bit and type, its ``official`` and ``stats`` computed apart: on the parity corpus'
files, on rows in the other forms ``compute()`` takes (where the one pass falls back), and on
rows it refuses (the same error)."""

from __future__ import annotations

import copy
import sys

import pytest

import taskeval
from taskeval.compare import compare, compare_rows
from taskeval.registry import contract

from harness import PARITY

FEVER = sorted((PARITY / "fever" / "cases").glob("*/predictions.jsonl"))
EHEALTHKD = PARITY / "ehealthkd" / "real"
needs_parity = pytest.mark.skipif(not PARITY.is_dir(), reason="the parity corpus is absent")


def _outcome(function, inputs: dict):
    """The result, or the message of the ValueError raised."""
    try:
        return function(inputs)
    except ValueError as e:
        return str(e)


def _check(name: str, config: str | None, options: dict, inputs: dict) -> None:
    statistics = contract(name).statistics(config, options)
    before = copy.deepcopy(inputs)
    together = _outcome(statistics.official_and_stats, inputs)
    assert inputs == before  # the caller's rows are not touched
    official, rows = _outcome(statistics.official, inputs), _outcome(statistics.stats, inputs)
    if isinstance(official, str):  # refused rows: the same error, all three ways
        assert together == official
        assert rows == official
        return
    official_once, rows_once = together
    assert official_once == official
    assert list(official_once) == list(official)
    assert [type(v) for v in official_once.values()] == [type(v) for v in official.values()]
    assert [tuple(r) for r in rows_once] == [tuple(r) for r in rows]


def _fever_cases() -> list[dict]:
    cases = []
    for predictions in FEVER:
        gold = predictions.parent / "actual.jsonl"
        try:
            cases.append(
                taskeval.read_official(
                    "fever_score",
                    references=gold if gold.is_file() else None,
                    predictions=predictions,
                )
            )
        except ValueError:  # a case of a refused file
            continue
    return cases


@needs_parity
@pytest.mark.parametrize("max_evidence", [5, 1, None])
def test_fever_one_pass_on_the_parity_files(max_evidence):
    cases = _fever_cases()
    assert len(cases) > 20
    for inputs in cases:
        options = {"max_evidence": max_evidence}
        _check("fever_score", None, options, inputs)


@needs_parity
def test_fever_one_pass_on_rows_in_other_forms_and_refused_rows():
    inputs = _fever_cases()[0]
    # evidence as {"page", "line"} records: not the official list form, the checking path
    records = {
        "predictions": [
            {
                **p,
                "predicted_evidence": [
                    {"page": e[0], "line": e[1]} for e in p["predicted_evidence"]
                ],
            }
            for p in inputs["predictions"]
        ],
        "references": inputs["references"],
    }
    _check("fever_score", None, {}, records)
    broken = {**inputs, "predictions": [*inputs["predictions"][:-1], {"predicted_label": 3}]}
    with pytest.raises(ValueError):
        contract("fever_score").statistics(None, {}).official(broken)
    _check("fever_score", None, {}, broken)
    # One side longer, in the official form otherwise: refused, never paired short
    for longer in ("predictions", "references"):
        uneven = {**inputs, longer: [*inputs[longer], inputs[longer][0]]}
        with pytest.raises(ValueError, match="length"):
            contract("fever_score").statistics(None, {}).stats(uneven)
        _check("fever_score", None, {}, uneven)


@needs_parity
@pytest.mark.parametrize("scenario", ["scenario1", "scenario2", "scenario3"])
def test_ehealthkd_one_pass_on_real_runs(scenario):
    folder = {"scenario1": "scenario1-main", "scenario2": "scenario2-taskA"}.get(
        scenario, "scenario3-taskB"
    )
    runs = sorted((EHEALTHKD / "cases").glob(f"*/submission/{folder}"))
    assert runs
    for run in runs[:2]:
        inputs = taskeval.read_official(
            "ehealthkd", references=EHEALTHKD / "gold" / folder, predictions=run
        )
        _check("ehealthkd", scenario, {}, inputs)


def _read_then_one_pass(options: dict, gold, predictions):
    """``official_and_stats`` of the rows ``read_official`` makes, or its refusal's message."""
    try:
        inputs = taskeval.read_official("fever_score", references=gold, predictions=predictions)
    except ValueError as e:
        return str(e)
    return _outcome(contract("fever_score").statistics(None, options).official_and_stats, inputs)


@needs_parity
@pytest.mark.parametrize("max_evidence", [5, 1, None, "x"])
def test_fever_from_files_is_the_one_pass_of_the_rows_read(max_evidence):
    # Straight from the files: the very numbers and claim rows of the rows read_official makes,
    # or None (the caller then reads the rows, and names any problem from there).
    options = {"max_evidence": max_evidence}
    from_files = contract("fever_score").statistics(None, options).official_and_stats_from_files
    taken = 0
    for predictions in FEVER:
        gold = predictions.parent / "actual.jsonl"
        gold = gold if gold.is_file() else None
        found = from_files(gold, predictions)
        if found is None:
            continue
        taken += 1
        official, rows = _read_then_one_pass(options, gold, predictions)
        assert found[0] == official
        assert [type(v) for v in found[0].values()] == [type(v) for v in official.values()]
        assert [tuple(r) for r in found[1]] == [tuple(r) for r in rows]
        assert [[type(v) for v in r] for r in found[1]] == [[type(v) for v in r] for r in rows]
    assert taken > (20 if max_evidence != "x" else -1)
    if max_evidence == "x":
        assert taken == 0


def _compare_outcome(**kwargs):
    try:
        return compare("fever_score", resamples=50, **kwargs)
    except ValueError as e:
        return str(e)


def _both_ways(monkeypatch, name: str, resamples: int, **kwargs) -> list:
    """``compare``'s outcome (its result, or the type and message of what it raised) with the
    shortcut from files and with it turned off (the rows' path)."""
    outcomes = []
    for shortcut in (True, False):
        if not shortcut:
            monkeypatch.setattr(sys.modules["taskeval.compare"], "_from_files", lambda *a: None)
        try:
            outcomes.append(compare(name, resamples=resamples, **kwargs))
        except (ValueError, OSError) as e:
            outcomes.append((type(e), str(e)))
        finally:
            monkeypatch.undo()
    return outcomes


@needs_parity
def test_fever_compare_from_files_equals_compare_of_the_rows_read(tmp_path, monkeypatch):
    for predictions in FEVER[:12]:
        gold = predictions.parent / "actual.jsonl"
        gold = gold if gold.is_file() else None
        result = _compare_outcome(
            references=gold, predictions=[predictions], names=["s"], max_evidence=1
        )
        inputs = taskeval.read_official("fever_score", references=gold, predictions=predictions)
        rows = compare_rows("fever_score", [inputs], names=["s"], resamples=50, max_evidence=1)
        assert result == rows
    # Refusals stay those of the rows' path (the shortcut turned off): unreadable and malformed
    # files, bad arguments.
    good = next(p for p in FEVER if (p.parent / "actual.jsonl").is_file())
    gold = good.parent / "actual.jsonl"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "predicted_label": "SUPPORTS"}\n', encoding="utf-8")
    for kwargs in [
        {"references": gold, "predictions": [tmp_path / "none.jsonl"]},
        {"references": tmp_path / "none.jsonl", "predictions": [good]},
        {"references": gold, "predictions": [bad]},
        {"references": None, "predictions": [good]},
        {"references": gold, "predictions": [good], "confidence": 2.0},
        {"references": gold, "predictions": [good], "names": ["a", "b"]},
        {"references": gold, "predictions": [good], "max_evidence": "x"},
        {"references": gold, "predictions": [good], "colour": 1},
        {"references": gold, "predictions": [good], "max_evidence": 2},
    ]:
        outcomes = _both_ways(monkeypatch, "fever_score", 50, **kwargs)
        assert outcomes[0] == outcomes[1]


def _ehealthkd_from_files(scenario: str, gold, submission):
    """(official, rows) straight from the folders and the same computed apart on the rows
    ``read_official`` makes, or for each the error's message, with the warnings either gave."""
    import warnings

    statistics = contract("ehealthkd").statistics(scenario, {})
    outcomes = []
    for way in ("files", "rows"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if way == "files":
                    found = statistics.official_and_stats_from_files(gold, submission)
                else:
                    inputs = taskeval.read_official(
                        "ehealthkd", references=gold, predictions=submission
                    )
                    found = (statistics.official(inputs), statistics.stats(inputs))
                official, rows = found
                found = (
                    official,
                    [type(v) for v in official.values()],
                    [[(type(v), v) for v in r] for r in rows],
                )
            except ValueError as e:
                found = str(e)
        outcomes.append((found, [(str(w.message), w.category, w.filename) for w in caught]))
    return outcomes


@needs_parity
def test_ehealthkd_from_files_is_the_official_and_stats_of_the_rows_read():
    folders = {"scenario1": "scenario1-main", "scenario2": "scenario2-taskA"}
    folders["scenario3"] = "scenario3-taskB"
    runs = sorted((EHEALTHKD / "cases").glob("*/submission"))
    checked = 0
    for scenario, folder in folders.items():
        for run in runs:
            files, rows = _ehealthkd_from_files(scenario, EHEALTHKD / "gold" / folder, run / folder)
            assert files == rows
            checked += 1
    cases = sorted((PARITY / "ehealthkd" / "cases").glob("*/submission"))
    for case in cases:
        for scenario, folder in folders.items():
            gold, submission = case.parent / "gold" / folder, case / folder
            if submission.is_dir() and gold.is_dir():
                files, rows = _ehealthkd_from_files(scenario, gold, submission)
                assert files == rows, case
                checked += 1
    assert checked > 40


@needs_parity
def test_ehealthkd_compare_with_and_without_the_shortcut(monkeypatch):
    run = EHEALTHKD / "cases" / "talp__576639" / "submission"
    cases = [
        {"references": EHEALTHKD / "gold", "predictions": [run]},
        {"references": EHEALTHKD / "gold", "predictions": [run], "scenario": "scenario2"},
        {"references": EHEALTHKD / "gold", "predictions": [run], "seed": -1},
        {"references": EHEALTHKD / "gold" / "scenario1-main", "predictions": [run]},
    ]
    for kwargs in cases:
        outcomes = _both_ways(monkeypatch, "ehealthkd", 30, **kwargs)
        assert outcomes[0] == outcomes[1], kwargs


TYDIQA = sorted((PARITY / "tydiqa" / "cases").glob("*/predictions.jsonl"))


def _tydiqa_from_files(options: dict, gold, predictions):
    """(official, units) straight from the files, and the same computed apart on the rows
    ``read_official`` makes (or its refusal's message), each with the warnings it gave."""
    import warnings

    statistics = contract("tydiqa").statistics(None, options)
    outcomes = []
    for way in ("files", "rows"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if way == "files":
                found = statistics.official_and_units_from_files(gold, predictions)
            else:
                try:
                    inputs = taskeval.read_official(
                        "tydiqa", references=gold, predictions=predictions
                    )
                    found = (statistics.official(inputs), statistics.units(inputs))
                except ValueError as e:
                    found = str(e)
        outcomes.append((found, [str(w.message) for w in caught]))
    return outcomes


@needs_parity
@pytest.mark.parametrize("options", [{}, {"passage_non_null_threshold": 1}])
def test_tydiqa_from_files_is_the_official_and_units_of_the_rows_read(options):
    taken = refused = 0
    for predictions in TYDIQA:
        files, rows = _tydiqa_from_files(options, predictions.parent / "gold.jsonl", predictions)
        if files[0] is None:  # a file read_official refuses: that path names the problem
            assert isinstance(rows[0], str), predictions
            refused += 1
            continue
        taken += 1
        (official, units), (official_rows, units_rows) = files[0], rows[0]
        assert official == official_rows, predictions
        assert [type(v) for v in official.values()] == [type(v) for v in official_rows.values()]
        assert official["per_language"] == official_rows["per_language"]
        assert units == units_rows, predictions  # parts, visiting order and strata
        assert files[1] == rows[1]  # the same warnings (an empty prediction file)
    assert taken > 20 and refused > 3


@needs_parity
def test_tydiqa_compare_with_and_without_the_shortcut(tmp_path, monkeypatch):
    case = PARITY / "tydiqa" / "cases" / "edge_c05_duplicate_last_wins"
    gold, predictions = case / "gold.jsonl", case / "predictions.jsonl"
    garbled = tmp_path / "garbled.jsonl"
    garbled.write_text('{"example_id": 1, "language": "english"}\nnot json\n', encoding="utf-8")
    refused = [p for p in TYDIQA if (p.parent / "error.json").is_file()]
    assert refused
    cases = [
        {"references": gold, "predictions": [predictions]},
        {"references": gold, "predictions": [predictions], "minimal_non_null_threshold": 3},
        {"references": gold, "predictions": [predictions], "method": "randomization"},
        {"references": gold, "predictions": [predictions], "minimal_non_null_threshold": "x"},
        {"references": gold, "predictions": [predictions], "seed": -1},
        {"references": predictions, "predictions": [gold]},  # swapped: the mistake is named
        {"references": gold, "predictions": [garbled]},
        {"references": gold, "predictions": [tmp_path / "absent.jsonl"]},
        {"references": None, "predictions": [predictions]},
        *({"references": p.parent / "gold.jsonl", "predictions": [p]} for p in refused[:4]),
    ]
    for kwargs in cases:
        with_shortcut, without = _both_ways(monkeypatch, "tydiqa", 40, **kwargs)
        assert with_shortcut == without, kwargs
    assert isinstance(_both_ways(monkeypatch, "tydiqa", 40, **cases[0])[0], dict)
    assert "swapped" in _both_ways(monkeypatch, "tydiqa", 40, **cases[5])[0][1]


@needs_parity
def test_one_system_from_files_takes_the_shortcut_where_its_metric_has_one(monkeypatch):
    """FEVER, eHealth-KD and TyDi QA read one system's files straight into the resampling
    (``read_official`` never called); SciFact, without that shortcut, reads them as inputs.
    Either way the result is ``compare_rows``' on the rows read."""
    compare_module = sys.modules["taskeval.compare"]
    read = compare_module.read_official
    fever = next(p for p in FEVER if (p.parent / "actual.jsonl").is_file())
    tydiqa = PARITY / "tydiqa" / "cases" / "edge_c05_duplicate_last_wins"
    scifact = PARITY / "scifact" / "cases"
    submission = EHEALTHKD / "cases" / "talp__576639" / "submission"
    cases = [  # metric, gold, predictions, config, the files of that config
        ("fever_score", fever.parent / "actual.jsonl", fever, None, None),
        ("tydiqa", tydiqa / "gold.jsonl", tydiqa / "predictions.jsonl", None, None),
        ("scifact_abstract", scifact / "dev_oracle" / "gold.jsonl",
         scifact / "dev_multivers_fever_ckpt" / "predictions.jsonl", None, None),
        ("ehealthkd", EHEALTHKD / "gold", submission, "scenario2",
         (EHEALTHKD / "gold" / "scenario2-taskA", submission / "scenario2-taskA")),
    ]  # fmt: skip
    calls: list = []

    def counted(*args, **kwargs):
        calls.append(kwargs)
        return read(*args, **kwargs)

    for name, gold, predictions, config, files in cases:
        calls.clear()
        monkeypatch.setattr(compare_module, "read_official", counted)
        options = {"scenario": config} if config else {}
        result = compare(
            name, references=gold, predictions=[predictions], names=["s"], resamples=20, **options
        )
        monkeypatch.undo()
        assert len(calls) == (name == "scifact_abstract"), name
        if config is not None:
            result, (gold, predictions) = result[config], files
        rows = read(name, references=gold, predictions=predictions)
        assert result == compare_rows(name, [rows], names=["s"], config_name=config, resamples=20)


def _tydiqa_rows(languages: list[str], only_predicted: str) -> dict:
    """Gold examples in ``languages`` with their predictions, and one prediction in a
    language that has no gold example."""
    references, predictions = [], []
    for k, language in enumerate(languages * 3):
        annotation = {"candidate_index": k % 3, "start_byte": 10 * k, "end_byte": 10 * k + 5,
                      "yes_no_answer": "NONE"}  # fmt: skip
        references.append({"example_id": k, "language": language, "annotations": [annotation] * 3})
        predictions.append({
            "example_id": k, "language": language, "passage_answer_index": k % 2,
            "passage_answer_score": float(k), "minimal_answer": {"start_byte_offset": 10 * k,
            "end_byte_offset": 10 * k + 5 - k % 2}, "minimal_answer_score": float(k % 4),
            "yes_no_answer": "NONE",
        })  # fmt: skip
    predictions.append({**predictions[0], "example_id": 99, "language": only_predicted})
    references.append({"example_id": None})
    return {"predictions": predictions, "references": references}


def test_tydiqa_a_language_only_predicted_leaves_the_others_resampled():
    """A language scored (some prediction carries it) without gold examples has no units:
    the languages after it in the official order keep theirs."""
    from taskeval.units import identity_scores

    rows = _tydiqa_rows(["finnish", "telugu"], only_predicted="arabic")  # arabic comes first
    expected = taskeval.load("tydiqa").compute(**rows)
    scores = identity_scores("tydiqa", rows)
    assert scores == {key: expected[key] for key in scores}
    result = compare_rows("tydiqa", [rows], resamples=20)
    assert result["units"] == 6
    assert result["systems"][0]["official"] == expected


def test_tydiqa_references_that_are_no_list_are_refused_by_name():
    for references in (5, "gold.jsonl", {"example_id": 1}):
        with pytest.raises(ValueError, match="references must be a list of dicts"):
            compare_rows("tydiqa", [{"predictions": [], "references": references}], resamples=5)


def test_tydiqa_example_rows_are_the_first_eight_gold_examples_and_their_predictions():
    rows = _tydiqa_rows(["finnish", "telugu", "korean", "thai"], only_predicted="arabic")
    example = contract("tydiqa").space.example_rows(rows)
    assert example["references"] == rows["references"][:8]
    assert example["predictions"] == rows["predictions"][:8]
    fewer = {**rows, "predictions": rows["predictions"][1:]}  # the first example unanswered
    example = contract("tydiqa").space.example_rows(fewer)
    assert example["predictions"] == [*rows["predictions"][1:8], {"example_id": None}]
