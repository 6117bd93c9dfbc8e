"""What the Spaces show, checked through the data they draw: the bars and curves of the plots
(read back from the figure), the breakdown's rows, the example rows, the options, and the
messages, word for word. Each test names the defect it guards against."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import taskeval

pytest.importorskip("gradio")
from matplotlib.colors import to_hex
from test_spaces import (
    _ehealthkd_uploads,
    _gradio_upload,
    app_module,
    default_controls,
    shown_scores,
)

from taskeval.space import bar_chart, compute, scores_table


def drawn_bars(figure) -> dict[tuple[str, str], int]:
    """The bars of a stacked bar chart: (x tick label, legend label) → height, as drawn."""
    (ax,) = figure.axes
    # Long tick labels are drawn on several lines.
    ticks = {
        round(t.get_position()[0]): " ".join(t.get_text().split()) for t in ax.get_xticklabels()
    }
    bars = {}
    for container in ax.containers:
        for patch in container.patches:
            if patch.get_height():
                x = ticks[round(patch.get_x() + patch.get_width() / 2)]
                bars[x, container.get_label()] = int(patch.get_height())
    return bars


def drawn_colours(figure) -> dict[str, str]:
    (ax,) = figure.axes
    return {c.get_label(): to_hex(c.patches[0].get_facecolor()) for c in ax.containers}


def example_inputs(name: str) -> dict:
    spec = app_module(name).SPEC
    files = spec.example_files
    pick = (lambda ps: ps[0].parent) if spec.folders else (lambda ps: ps[0])
    return taskeval.read_official(
        name, references=pick(files["references"]), predictions=pick(files["predictions"])
    )


def _rows(pairs: list[tuple[str, str]]) -> dict[str, list]:
    """FEVER rows: (gold label, predicted label) per claim, no evidence."""
    return {
        "references": [
            {"id": i, "label": gold, "evidence": [[[i, None, None, None]]]}
            for i, (gold, _) in enumerate(pairs)
        ],
        "predictions": [
            {"id": i, "predicted_label": predicted, "predicted_evidence": []}
            for i, (_, predicted) in enumerate(pairs)
        ],
    }


# --- plots ------------------------------------------------------------------------------------


def test_an_unknown_predicted_label_is_a_grey_bar_and_the_scores_show():
    """Planted: the grey built as ``f"#{v:02x}" * 3`` ("#70#70#70", a matplotlib error)."""
    spec = app_module("fever_score").SPEC
    rows = _rows([("SUPPORTS", "SUPPORT"), ("SUPPORTS", "SUPPORTS"), ("REFUTES", "SUPPORT")])
    error, _, scores, _, _, plot = compute(
        spec, "json", json.dumps(rows["predictions"]), json.dumps(rows["references"]), None, None,
        *default_controls(spec),
    )  # fmt: skip
    assert error["visible"] is False, error["value"]
    expected = taskeval.load("fever_score").compute(**rows)
    assert shown_scores(scores["value"], None) == scores_table(expected)
    figure = plot["value"]
    assert drawn_bars(figure) == {
        ("SUPPORTS", "SUPPORTS"): 1,
        ("SUPPORTS", "SUPPORT"): 1,
        ("REFUTES", "SUPPORT"): 1,
    }
    assert drawn_colours(figure)["SUPPORT"] == "#707070"


def test_extra_values_get_five_distinct_greys():
    """Planted: the same grey string for every extra value."""
    import pandas as pd

    extra = ["e0", "e1", "e2", "e3", "e4"]
    frame = pd.DataFrame({"x": ["a"] * 5, "c": extra, "n": [1] * 5})
    figure = bar_chart(frame, x="x", y="n", color="c", x_order=["a"], colors={}, title="t")
    colours = drawn_colours(figure)
    assert colours == dict(zip(extra, ("#707070", "#888888", "#a0a0a0", "#b8b8b8", "#d0d0d0")))


def test_fever_lower_case_labels_are_the_official_labels_in_the_plot():
    """Planted: ``label_confusion`` without ``.upper()`` (lower-case labels as extra bars). The
    official scorer compares labels upper-cased, so "supports" is SUPPORTS."""
    spec = app_module("fever_score").SPEC
    rows = _rows(
        [
            ("SUPPORTS", "supports"),
            ("REFUTES", "refutes"),
            ("REFUTES", "Supports"),
            ("NOT ENOUGH INFO", "not enough info"),
        ]
    )
    details = taskeval.load("fever_score").compute(**rows, details=True)["details"]
    assert drawn_bars(spec.plot(details, None)) == {
        ("SUPPORTS", "SUPPORTS"): 1,
        ("REFUTES", "REFUTES"): 1,
        ("REFUTES", "SUPPORTS"): 1,
        ("NOT ENOUGH INFO", "NOT ENOUGH INFO"): 1,
    }


def test_fever_example_plot_is_the_label_confusion():
    """Planted: bars counting claims by predicted label on both axes."""
    spec = app_module("fever_score").SPEC
    inputs = example_inputs("fever_score")
    expected = Counter(
        (r["label"].upper(), p["predicted_label"].upper())
        for r, p in zip(inputs["references"], inputs["predictions"])
    )
    details = taskeval.load("fever_score").compute(**inputs, details=True)["details"]
    assert drawn_bars(spec.plot(details, None)) == dict(expected)
    assert sum(expected.values()) == 100


@pytest.mark.parametrize("name", ["scifact_abstract", "scifact_sentence"])
def test_scifact_bars_count_every_item_false_positives_included(name):
    """Planted: ``_outcomes`` keeping only items with a gold label (false positives dropped)."""
    spec = app_module(name).SPEC
    details = taskeval.load(name).compute(**example_inputs(name), details=True)["details"]
    bars = drawn_bars(spec.plot(details, None))
    expected = Counter((d["outcome"], d["gold_label"] or "not gold") for d in details)
    assert bars == dict(expected)
    assert any(label == "not gold" for _, label in bars)  # the example has false positives


def test_ehealthkd_bars_are_the_metric_counts():
    """Planted: the plot counting the 'ignored' duplicate relation line (as spurious, or as a
    bar of its own). The bars must be compute()'s correct_A ... spurious_B, nothing more."""
    spec = app_module("ehealthkd").SPEC
    rows = spec.example_rows
    subtasks = {"A": "A: key phrases", "B": "B: relations"}
    # Scenario 2 scores subtask A only, scenario 3 subtask B only (compute() reports both).
    for scenario, letters in (("scenario1", "AB"), ("scenario2", "A"), ("scenario3", "B")):
        result = taskeval.load("ehealthkd", scenario).compute(**rows, details=True)
        bars = drawn_bars(spec.plot(result["details"], scenario))
        expected = {
            (outcome, subtasks[letter]): result[f"{outcome}_{letter}"]
            for outcome in ("correct", "incorrect", "partial", "missing", "spurious")
            for letter in letters
            if result.get(f"{outcome}_{letter}")
        }
        assert bars == expected, scenario
    assert any(d["outcome"] == "ignored" for d in result["details"])  # a duplicate is there


def test_tydiqa_dot_is_the_threshold_the_metric_reports():
    """Found by this test: the curve counted a missing prediction as predicting nothing, where
    the official sweep counts the opposite of the gold, so Finnish's and Telugu's dots sat on
    another threshold than the metric reports. Planted since: the dot at the best F1 of the
    Space's own curve with the old counting."""
    spec = app_module("tydiqa").SPEC
    result = taskeval.load("tydiqa").compute(**example_inputs("tydiqa"), details=True)
    figure = spec.plot(result["details"], None)
    for ax, task in zip(figure.axes, ("passage", "minimal")):
        curves = {line.get_label(): line for line in ax.lines if line.get_marker() != "o"}
        dots = [line for line in ax.lines if line.get_marker() == "o"]
        assert sorted(curves) == sorted(result["per_language"])
        for language, line in curves.items():
            values = result["per_language"][language]
            (dot,) = [d for d in dots if d.get_color() == line.get_color()]
            point = (dot.get_xdata()[0], dot.get_ydata()[0])
            assert point == (
                values[f"{task}-best-threshold-recall"],
                values[f"{task}-best-threshold-precision"],
            ), (task, language)
            # ... and the dot is a point of the curve drawn
            assert point in zip(line.get_xdata(), line.get_ydata()), (task, language)


# --- breakdowns -------------------------------------------------------------------------------


def test_ehealthkd_breakdown_rows_word_for_word():
    """Planted: ``_item`` writing a relation's ends as (target → source)."""
    spec = app_module("ehealthkd").SPEC
    rows = spec.example_rows
    details = taskeval.load("ehealthkd", "scenario1").compute(**rows, details=True)["details"]
    table = spec.breakdown(details)
    assert list(table.columns) == ["sentence", "item", "outcome", "why", "gold", "predicted"]
    records = [list(map(str, r)) for r in table.values.tolist()]
    assert len(records) == 17
    assert records[0] == [
        "0", "key phrase", "partial", "overlaps gold phrase 1 ('tipo')",
        '"tipo" Concept (id 1)', '"tipo de" Concept (id 1)',
    ]  # fmt: skip
    assert records[5] == [
        "0", "relation", "spurious",
        "relation endpoint not matched in subtask A (target phrase 2 is only incorrect (other "
        "label))",
        "", "subject: afecta → cáncer (3 → 2)",
    ]  # fmt: skip
    assert records[13] == [
        "1", "relation", "correct",
        "endpoints in the same gold same-as classes as the gold relation's",
        "same-as: A → B (5 → 6)", "same-as: C → A (7 → 5)",
    ]  # fmt: skip
    assert records[14][4:] == ["", "is-a: C → B (7 → 6)"]


def test_scifact_breakdown_rows_are_the_details():
    """Planted: a breakdown column filled from another detail field."""
    spec = app_module("scifact_abstract").SPEC
    details = taskeval.load("scifact_abstract").compute(
        **example_inputs("scifact_abstract"), details=True
    )["details"]
    table = spec.breakdown(details)
    assert len(table) == len(details)
    for column in table.columns:
        shown = [None if v is None or v != v else v for v in table[column].tolist()]  # NaN
        assert shown == [d.get(column) for d in details], column


# --- example rows and options -----------------------------------------------------------------


def test_example_rows_are_the_documented_claims():
    """Planted: FEVER's examples from the second claim on; SciFact's keeping claims with both
    gold and predicted evidence (``and``); TyDi's predictions not paired with its gold rows."""
    ids = {
        name: [r.get("id", r.get("example_id")) for r in app_module(name).SPEC.example_rows[side]]
        for name in ("fever_score", "scifact_abstract", "tydiqa")
        for side in ("references",)
    }
    assert ids["fever_score"] == [91198, 194462, 137334, 166626, 111897, 89891, 181634, 219028]
    assert ids["scifact_abstract"] == [3, 5, 42, 48, 49, 50]
    assert ids["tydiqa"] == [
        4636039512902026315, 660818599618223361, -167646608027327045, 4948445750345981714,
        -8177957640560366608, 4794557843800044320, -2103803235752381255, 8130070515851976816,
    ]  # fmt: skip
    for name in ("fever_score", "scifact_abstract", "scifact_sentence", "tydiqa"):
        rows = app_module(name).SPEC.example_rows
        key = "example_id" if name == "tydiqa" else "id"
        assert [r[key] for r in rows["predictions"]] == [r[key] for r in rows["references"]]
    # FEVER: the first eight claims of the example file, in order.
    inputs = example_inputs("fever_score")
    rows = app_module("fever_score").SPEC.example_rows
    assert rows["predictions"] == inputs["predictions"][:8]


def test_fever_max_evidence_zero_is_taken():
    """Planted: ``if not max_evidence: raise`` (0 refused). compute() takes 0: no predicted
    sentence counts."""
    spec = app_module("fever_score").SPEC
    assert spec.read_controls(0, False) == (None, {"max_evidence": 0})
    assert spec.read_controls(0.0, False) == (None, {"max_evidence": 0})
    inputs = example_inputs("fever_score")
    references = json.dumps(inputs["references"])
    predictions = json.dumps(inputs["predictions"])
    error, _, scores, *_ = compute(spec, "json", predictions, references, None, None, 0, False)
    assert error["visible"] is False, error["value"]
    metric = taskeval.load("fever_score")
    expected = metric.compute(**inputs, max_evidence=0)
    assert expected != metric.compute(**inputs)  # 0 changes the numbers of the example
    assert shown_scores(scores["value"], None) == scores_table(expected)


# --- messages ---------------------------------------------------------------------------------


def test_an_error_in_pasted_references_is_the_references_box():
    """Planted: ``_inputs`` parsing the pasted references under the name "predictions"."""
    spec = app_module("fever_score").SPEC
    predictions = json.dumps(spec.example_rows["predictions"][:1])
    controls = default_controls(spec)
    error, *_ = compute(spec, "json", predictions, "[{", None, None, *controls)
    assert error["value"] == (
        "references, line 1, column 3: not valid JSON (Expecting property name "
        "enclosed in double quotes)"
    )
    error, *_ = compute(spec, "json", predictions, '[{"nonsense": 1}]', None, None, *controls)
    assert error["value"] == "references[0]: missing field 'label'"
    error, *_ = compute(spec, "json", predictions, "", None, None, *controls)
    assert error["value"] == "references: nothing was pasted"


@pytest.mark.parametrize(
    "name, text, message",
    [
        (
            "scifact_abstract",
            '{"id": 3, "evidence": {}}\n{"id": 5, "evidence": 7}\n',
            "preds.jsonl, line 2 (id 5): field 'evidence' must be an object keyed by doc id, got 7",
        ),
        (
            "tydiqa",
            '{"example_id": 1, "language": "english"}\n',
            "preds.jsonl, line 1 (example_id 1): missing field 'passage_answer_score' (a number; "
            "the sweep needs it)",
        ),
    ],
)
def test_upload_errors_name_the_file_never_the_server_path(tmp_path, name, text, message):
    """Planted: ``user_message`` not replacing the uploaded files' paths by their names."""
    spec = app_module(name).SPEC
    bad = _gradio_upload(tmp_path, "preds.jsonl", text)
    good = str(spec.example_files["references"][0])
    error, *_ = compute(spec, "files", "", "", bad, good, *default_controls(spec))
    assert error["value"] == f"{message}"
    assert str(tmp_path) not in error["value"]


def test_folder_upload_errors_name_the_file_never_the_server_path(tmp_path):
    """Planted: the temporary folder's path left in the message."""
    spec = app_module("ehealthkd").SPEC
    preds, refs = _ehealthkd_uploads(tmp_path)
    broken = next(p for p in preds if Path(p).name.startswith("output_a"))
    text = Path(broken).read_text(encoding="utf-8")
    Path(broken).write_text("T1\tConcept 0 x\tfoo\n" + text, encoding="utf-8")
    error, *_ = compute(spec, "files", "", "", preds, refs, "scenario1")
    assert error["value"] == (
        "output_a_scenario1.txt, line 1: expected 4 TAB-separated fields "
        "ID<TAB>START END[;START END...]<TAB>LABEL<TAB>TEXT, got 3 in 'T1\\tConcept 0 x\\tfoo'"
    )


def test_ehealthkd_scenario_check_reads_both_sides_and_names_each_file_once(tmp_path):
    """Planted: the check reading the predictions' names only (and, before the fix, the
    message listed each name of both sides twice)."""
    spec = app_module("ehealthkd").SPEC
    preds, _ = _ehealthkd_uploads(tmp_path / "one", scenario=1)
    _, refs = _ehealthkd_uploads(tmp_path / "two", scenario=2)
    error, _, scores, *_ = compute(spec, "files", "", "", preds, refs, "scenario1")
    assert scores["visible"] is False
    assert error["value"] == (
        "the uploaded files are for scenario 1 and scenario 2 (references: "
        "input_scenario2.txt, output_a_scenario2.txt, output_b_scenario2.txt; predictions: "
        "output_a_scenario1.txt, output_b_scenario1.txt, output_scenario1.txt): upload the "
        "files of one scenario"
    )


def test_ehealthkd_files_that_do_not_name_a_scenario_use_the_menu(tmp_path):
    """Planted: the menu ignored (scenario 1 always) when the names say nothing."""
    spec = app_module("ehealthkd").SPEC
    preds, refs = _ehealthkd_uploads(tmp_path)
    unnamed = []
    for paths in (preds, refs):
        moved = []
        for path in paths:
            target = Path(path).with_name(Path(path).name.replace("_scenario1", "_x"))
            Path(path).rename(target)
            moved.append(str(target))
        unnamed.append(moved)
    assert spec.check_uploads({"predictions": ["a.txt"], "references": []}, "scenario2") is None
    inputs = example_inputs("ehealthkd")
    for scenario in ("scenario2", "scenario3"):
        error, _, scores, *_ = compute(spec, "files", "", "", *unnamed, scenario)
        assert error["visible"] is False, error["value"]
        expected = taskeval.load("ehealthkd", scenario).compute(**inputs)
        assert shown_scores(scores["value"], None) == scores_table(expected)


def test_uploads_of_one_name_on_both_sides_stay_apart(tmp_path):
    """Planted: the two sides staged in one folder (the predictions' output_a_scenario1.txt
    overwriting the gold one of the same name): the scores would be those of gold vs gold."""
    spec = app_module("ehealthkd").SPEC
    preds, refs = _ehealthkd_uploads(tmp_path)
    shared = {Path(p).name for p in preds} & {Path(p).name for p in refs}
    assert shared == {"output_a_scenario1.txt", "output_b_scenario1.txt"}
    error, _, scores, *_ = compute(spec, "files", "", "", preds, refs, "scenario1")
    expected = taskeval.load("ehealthkd", "scenario1").compute(**example_inputs("ehealthkd"))
    assert expected["f1"] < 1
    assert shown_scores(scores["value"], None) == scores_table(expected)
    # FEVER: both files uploaded as "data.jsonl".
    fever = app_module("fever_score").SPEC
    files = fever.example_files
    pred = _gradio_upload(tmp_path / "p", "data.jsonl", files["predictions"][0].read_text())
    ref = _gradio_upload(tmp_path / "r", "data.jsonl", files["references"][0].read_text())
    error, _, scores, *_ = compute(fever, "files", "", "", pred, ref, *default_controls(fever))
    assert error["visible"] is False, error["value"]
    expected = taskeval.load("fever_score").compute(**example_inputs("fever_score"))
    assert shown_scores(scores["value"], None) == scores_table(expected)


def test_two_uploads_of_one_name_on_one_side_are_refused(tmp_path):
    """Planted: the second upload of a name silently replacing the first."""
    spec = app_module("ehealthkd").SPEC
    preds, refs = _ehealthkd_uploads(tmp_path)
    again = _gradio_upload(tmp_path / "again", Path(preds[0]).name, "")
    error, _, scores, *_ = compute(spec, "files", "", "", [*preds, again], refs, "scenario1")
    assert scores["visible"] is False
    assert error["value"] == "predictions: two uploaded files have the same name"


@pytest.mark.parametrize(
    "name", ["ehealthkd", "fever_score", "scifact_abstract", "scifact_sentence"]
)
def test_bar_labels_do_not_overlap(name):
    """Planted: tick labels on one line ("wrong label" over "incomplete rationale"), and
    SciFact's six labels all on the same lines."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    spec = app_module(name).SPEC
    config = "scenario1" if name == "ehealthkd" else None
    details = taskeval.load(name, config).compute(**example_inputs(name), details=True)["details"]
    figure = spec.plot(details, config)
    renderer = FigureCanvasAgg(figure).get_renderer()
    boxes = [t.get_window_extent(renderer) for t in figure.axes[0].get_xticklabels()]
    assert len(boxes) >= 3
    for i, one in enumerate(boxes):
        for other in boxes[i + 1 :]:
            assert not one.overlaps(other), (one, other)
