"""The Space layer's data, in-process and fast: what the plots draw and the breakdowns list,
computed by the Spaces' own builders from fixed details, and the messages the page shows, word
for word. Written against the surviving mutants of the Space layer (docs/mutation.md, "The
Spaces"); each test names the defect it guards against."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import taskeval
from taskeval.messages import one_line, shorten

pytest.importorskip("gradio")
from test_space_views import drawn_bars, example_inputs
from test_spaces import app_module

# --- messages ---------------------------------------------------------------------------------


def test_a_message_at_the_limit_is_kept_whole_and_a_longer_one_says_what_was_cut():
    """Planted: ``<`` for ``<=`` (a message of exactly the limit cut), the count of characters
    left out off by one."""
    assert shorten("abcde", 5) == "abcde"
    assert shorten("abcdefghij", 4) == "abcd… (6 more characters)"
    assert shorten("x" * 1_234_567, 3) == "xxx… (1,234,564 more characters)"


def test_one_line_joins_the_lines_with_spaces_then_cuts():
    """Planted: lines joined with nothing, the cut made before the join."""
    assert one_line("first line\nsecond\r\nthird") == "first line second third"
    assert one_line(ValueError("a\nbc"), 3) == "a b… (1 more characters)"


def test_messages_are_cut_at_two_thousand_characters_by_default():
    """Planted: the default limit one character off (a 2,000-character quote cut, or a longer
    one let through)."""
    assert one_line("x" * 2000) == "x" * 2000
    assert one_line("x" * 2001) == "x" * 2000 + "… (1 more characters)"
    assert shorten("y" * 2002) == "y" * 2000 + "… (2 more characters)"


# --- TyDi QA's precision-recall curves ----------------------------------------------------------


def _tydiqa_detail(language: str, predicted: bool, passage: tuple, minimal: tuple) -> dict:
    """One example's details as the metric gives them, with only what the curves read."""
    detail = {"language": language, "predicted": predicted}
    for task, credit, numbers in (
        ("passage", "passage_correct", passage),
        ("minimal", "minimal_f1", minimal),
    ):
        gold, has, value, score = numbers
        detail.update(
            {f"{task}_gold": gold, f"{task}_predicted": has, credit: value, f"{task}_score": score}
        )
    return detail


def _curves(figure) -> dict[tuple[str, str], tuple[list, list]]:
    """(panel title, language) → (recall, precision) of the curve drawn."""
    return {
        (ax.get_title(), line.get_label()): (list(line.get_xdata()), list(line.get_ydata()))
        for ax in figure.axes
        for line in ax.lines
        if line.get_marker() != "o"
    }


def test_tydiqa_curves_are_the_official_sweep_point_by_point():
    """Planted: ties of score walked one by one (a point between them), a missing prediction
    counted as predicting nothing, the credit or the count of predictions taken from the other
    example, recall over the predictions, a language with no gold dividing by zero."""
    D = _tydiqa_detail  # (language, predicted, passage's and minimal's numbers)
    english = [
        # (gold has, predicted has, credit, score) per task
        D("english", True, (True, True, True, 3.0), (True, True, 0.5, 9.0)),
        D("english", True, (True, True, False, 2.0), (True, True, 1.0, 8.0)),
        D("english", True, (False, True, False, 2.0), (False, True, 0.0, 8.0)),
        D("english", False, (True, True, True, 5.0), (False, True, 1.0, 7.0)),
        D("english", True, (True, True, True, 1.0), (True, False, 0.0, 1.0)),
    ]
    # No gold answer in this language, one prediction: precision 0, recall 0 (not a division).
    swahili = [
        D("swahili", True, (False, True, False, 4.0), (False, False, 0.0, 1.0)),
    ]
    figure = app_module("tydiqa").SPEC.plot(english + swahili, None)
    # Passage: gold 4 (the missing prediction's gold counts), ranked 3.0; 2.0, 2.0 (one step);
    # 1.0; 0.0 (the missing one, predicting the opposite of its gold: nothing).
    assert _curves(figure)[("passage answer", "english")] == (
        [1 / 4, 1 / 4, 2 / 4, 2 / 4],
        [1 / 1, 1 / 3, 2 / 4, 2 / 4],
    )
    # Minimal: gold 3 (the missing prediction has none, and counts as predicting one); ranked
    # 9.0; 8.0, 8.0; 1.0 (predicting nothing); 0.0 (the missing one, credit 0).
    assert _curves(figure)[("minimal answer", "english")] == (
        [0.5 / 3, 1.5 / 3, 1.5 / 3, 1.5 / 3],
        [0.5 / 1, 1.5 / 3, 1.5 / 3, 1.5 / 4],
    )
    assert _curves(figure)[("passage answer", "swahili")] == ([0.0], [0.0])
    assert _curves(figure)[("minimal answer", "swahili")] == ([0.0], [0.0])


# --- the bar charts' words and totals ---------------------------------------------------------

_BAR_CHARTS = {
    # (Space, config): (title, y label, x label, legend title, legend entries)
    ("ehealthkd", "scenario2"): (
        "Scenario 2: task A (key phrases only): items per outcome (C, I, P, M and S)",
        "items", "outcome", "subtask", ["A: key phrases"],
    ),
    ("ehealthkd", None): (
        "Scenario 1: main (key phrases A + relations B): items per outcome (C, I, P, M and S)",
        "items", "outcome", "subtask", ["A: key phrases", "B: relations"],
    ),
    ("fever_score", None): (
        "Label confusion: claims per gold label, stacked by predicted label",
        "claims", "gold label", "predicted label", ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"],
    ),
    ("scifact_abstract", None): (
        "Where predicted abstracts were lost: predicted and gold abstracts by outcome",
        "abstracts", "outcome", "gold label", ["SUPPORT", "CONTRADICT", "not gold"],
    ),
    ("scifact_sentence", None): (
        "Where sentences were lost: predicted and gold rationale sentences by outcome",
        "sentences", "outcome", "gold label", ["SUPPORT", "CONTRADICT", "not gold"],
    ),
    ("tydiqa_goldp", None): (
        "Questions per language, by how each answer scored (English is not in the official mean)",
        "questions", "language", "answer",
        ["exact match", "partial overlap", "no token in common", "no prediction"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name, config", list(_BAR_CHARTS))
def test_bar_charts_say_what_they_count_and_each_bar_its_total(name, config):
    """Planted: eHealth-KD's title naming another scenario (or the value, not the menu's
    words), a total written above a bar off by one or over the wrong bar, the legend out of the
    colours' order, no room above the tallest bar for its total (18% of it)."""
    spec = app_module(name).SPEC
    metric = taskeval.load(name, config)
    details = metric.compute(**example_inputs(name), details=True)["details"]
    figure = spec.plot(details, config)
    (ax,) = figure.axes
    title, y, x, legend, entries = _BAR_CHARTS[name, config]
    assert " ".join(ax.get_title().split()) == title
    assert (ax.get_ylabel(), ax.get_xlabel()) == (y, x)
    assert ax.get_legend().get_title().get_text() == legend
    assert [t.get_text() for t in ax.get_legend().get_texts()] == entries
    totals: dict[str, int] = {}
    for (bar, _), height in drawn_bars(figure).items():
        totals[bar] = totals.get(bar, 0) + height
    ticks = [" ".join(t.get_text().split()) for t in ax.get_xticklabels()]
    written = {ticks[round(t.xy[0])]: int(t.get_text()) for t in ax.texts}
    assert written == totals and [t.xy[1] for t in ax.texts] == [
        totals[ticks[round(t.xy[0])]] for t in ax.texts
    ]
    assert ax.get_ylim() == (0, pytest.approx(max(totals.values()) * 1.18))


# --- the page and its uploads -----------------------------------------------------------------


def _upload(folder, name: str, text: str) -> str:
    """A file as gradio's upload route leaves it: a folder of its own in the upload folder."""
    target = folder / f"{abs(hash((name, text))):x}" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return str(target)


def test_two_users_of_one_file_each_keep_it_until_their_last_step(tmp_path, monkeypatch):
    """gradio stores the same upload (name and content) of two users at one path. Planted: the
    upload removed at the end of one user's last step (the other's Compute, after it, found
    "no longer on the server"), removed while the other's step still runs, and the example
    files gradio serves removed with the uploads."""
    from test_spaces import default_controls

    from taskeval.space import _uploads, add_intervals, build, compute

    uploads = tmp_path / "uploads"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(uploads))
    spec = app_module("fever_score").SPEC
    controls = default_controls(spec)
    files = spec.example_files
    pred = _upload(uploads, "mine.jsonl", files["predictions"][0].read_text(encoding="utf-8"))
    ref = _upload(uploads, "gold.jsonl", files["references"][0].read_text(encoding="utf-8"))
    values = ("files", "", "", pred, ref, *controls)

    def files_left() -> list[str]:
        return sorted(str(p.relative_to(uploads)) for p in uploads.rglob("*"))

    start = files_left()
    first = compute(spec, *values)  # A
    assert first[0]["visible"] is False, first[0]["value"]
    add_intervals(spec, *values, False, first[2]["value"])  # A's last step
    assert files_left() == start
    second = compute(spec, *values)  # B, who uploaded the same file before A's last step
    assert second[0]["visible"] is False, second[0]["value"]
    with _uploads.using([pred, ref]):  # B's next step runs: never swept meanwhile
        _uploads.sweep(-1)
        assert files_left() == start
    _uploads.sweep(3600)  # used a moment ago: kept
    assert files_left() == start
    _uploads.sweep(-1)  # unused since: removed, and their folders
    assert files_left() == []
    # The example files the page serves (gradio's copies in the upload folder) stay.
    demo = build(spec)
    served = files_left()
    assert {Path(p).name for p in served if "." in p} == {"actual.jsonl", "predictions.jsonl"}
    _uploads.sweep(-1)
    assert files_left() == served
    demo.close()


def _event(demo, session: str, target: str, *values) -> dict:
    """The page's event ``target`` (an endpoint's name, "upload" of the first upload box, or
    "unload": the page closed) run for ``session`` as the server runs it: gradio hands the
    request, and so the session, to the handler."""
    import asyncio

    import gradio as gr
    from gradio.state_holder import SessionState

    fn = next(
        f
        for f in demo.fns.values()
        if f.api_name == target or any(t[1] == target for t in f.targets)
    )
    # An upload as the page sends it: gradio's file data, naming the stored copy.
    files = [_file_data(v) if v in demo.upload_file_set else v for v in values]
    request = gr.Request(session_hash=session)
    reply = asyncio.run(demo.process_api(fn, files, SessionState(demo), request=request))
    return reply["data"]


def _file_data(path: str) -> dict:
    return {"path": path, "meta": {"_type": "gradio.FileData"}}


def _session_page(tmp_path, monkeypatch):
    """The FEVER page, computing in this process, with a folder of uploads of its own; the
    official dev file and predictions uploaded (gradio's upload route names both users' copies
    by their content: one path each)."""
    from taskeval import space

    uploads = tmp_path / "uploads"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(uploads))
    monkeypatch.setattr(space._LIMITS, "workers", 0)
    spec = app_module("fever_score").SPEC
    demo = space.build(spec)
    files = spec.example_files
    pred = _upload(uploads, "mine.jsonl", files["predictions"][0].read_text(encoding="utf-8"))
    ref = _upload(uploads, "gold.jsonl", files["references"][0].read_text(encoding="utf-8"))
    demo.upload_file_set.update([pred, ref])  # as the upload route does

    def uploads_left() -> list[str]:
        """The two uploads and their folders still there (beside them: the examples' copies
        and the page's outputs)."""
        paths = (pred, ref, os.path.dirname(pred), os.path.dirname(ref))
        return sorted(os.path.relpath(p, uploads) for p in paths if os.path.exists(p))

    return spec, demo, pred, ref, uploads_left


def test_an_upload_stays_until_every_session_using_it_ended_then_goes_at_once(
    tmp_path, monkeypatch
):
    """Two sessions use the same upload, one to compute, the other to check; the first ends
    (its page closed): the upload stays; the second ends: the upload goes at once, its time
    not waited for. Planted: no session's end removing anything, one session's end removing
    an upload another session holds, the Check request holding nothing."""
    from test_spaces import default_controls

    spec, demo, pred, ref, uploads_left = _session_page(tmp_path, monkeypatch)
    start = uploads_left()
    assert len(start) == 4  # two files, each in a folder
    scores = _event(demo, "A", "compute", "files", "", "", pred, ref, *default_controls(spec))
    assert scores[0]["visible"] is False, scores[0]
    checked = _event(demo, "B", "check", pred, None, ref)
    assert checked[0]["visible"] is False, checked[0]
    _event(demo, "A", "unload")
    assert uploads_left() == start
    _event(demo, "B", "unload")
    assert uploads_left() == []
    demo.close()


def test_an_upload_box_ties_its_upload_to_the_session_and_a_new_copy_is_left_to_its_time(
    tmp_path, monkeypatch
):
    """A page's upload is the session's as soon as it is uploaded (the box's upload event),
    used or not; an upload made again by someone else after the session last held it (a script
    uploads without that event) stays when the session ends, for its own time. Planted: the
    upload event holding nothing, a session's end removing a newer copy of its file."""
    _, demo, pred, ref, uploads_left = _session_page(tmp_path, monkeypatch)
    start = uploads_left()
    _event(demo, "A", "upload", pred)  # the first box's own upload event
    _event(demo, "A", "unload")
    assert uploads_left() == [p for p in start if Path(pred).parent.name not in p]
    _event(demo, "B", "upload", ref)
    copy = Path(ref).with_name("copy")  # another client's copy, moved over B's as gradio does
    copy.write_bytes(Path(ref).read_bytes())
    os.replace(copy, ref)
    _event(demo, "B", "unload")
    assert Path(ref).exists()
    demo.close()


def test_a_sessions_upload_it_never_used_is_still_removed_after_its_time(tmp_path, monkeypatch):
    """A session that never ends (a script, a page left open) holds its uploads only until
    the sweep: past their time unused they go, held or not. Planted: the sweep passing over
    the uploads a session holds (a client holding uploads could fill the disk)."""
    from taskeval.space import _uploads

    _, demo, pred, _, uploads_left = _session_page(tmp_path, monkeypatch)
    _event(demo, "A", "upload", pred)
    _uploads.sweep(3600)
    assert len(uploads_left()) == 4
    _uploads.sweep(-1)
    assert uploads_left() == []
    demo.close()


def test_folder_uploads_are_staged_in_temporary_folders_removed_after_each_step(
    tmp_path, monkeypatch
):
    """Planted: the temporary folder of a side's linked uploads left behind, after a
    computation and after an error. (The folder of this test's own: other test runs on the
    machine make folders named taskeval-* too.)"""
    import tempfile

    from test_spaces import _ehealthkd_uploads

    from taskeval.space import compute

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    spec = app_module("ehealthkd").SPEC
    preds, refs = _ehealthkd_uploads(tmp_path / "uploads")
    error, *_ = compute(spec, "files", "", "", preds, refs, "scenario1", with_interval=True)
    assert error["visible"] is False, error["value"]
    error, *_ = compute(spec, "files", "", "", preds[:1], refs, "scenario1")
    assert error["value"] == (
        "the uploaded predictions files: sentence file not found (expected "
        "output_scenario1.txt or input_scenario1.txt)"
    )
    assert list(scratch.iterdir()) == []


def _components(demo) -> dict[str, dict]:
    """The page's components by elem_id, else label, else type: their props as served."""
    found = {}
    for component in demo.config["components"]:
        props = component.get("props", {})
        name = props.get("elem_id") or props.get("label") or component["type"]
        found.setdefault(name, props)
    return found


def test_the_page_shows_its_texts_examples_and_wires_compute_word_for_word():
    """Planted: the title or the introduction of another metric, the example rows not one JSON
    object per line, the uploads of a folder Space as one file, the card with its YAML header,
    the placeholder or the limits left out, the hidden source shown, Compute's inputs in another order, the tabs
    telling the wrong source."""
    from taskeval.space import PLACEHOLDER, build
    from taskeval.space_worker import Limits

    fever = app_module("fever_score").SPEC
    demo = build(fever)
    shown = _components(demo)
    intro = shown["markdown"]["value"]
    assert intro.startswith("# taskeval · fever_score\nThe official FEVER shared-task scorer")
    assert intro.endswith(
        "\n\nScore the example as it is with **Compute**, or upload your own official files, or "
        "paste JSON rows (the metric's `compute()` inputs). The per-item breakdown says how "
        "each item was counted."
    )
    for side in ("references", "predictions"):
        lines = shown[f"{side}-json"]["value"].split("\n")
        assert lines[0] == "[" and lines[-1] == "]"
        rows = [json.loads(line.removesuffix(",")) for line in lines[1:-1]]
        assert rows == fever.example_rows[side]
        assert (
            Path(shown[f"{side}-files"]["value"]["path"]).name == fever.example_files[side][0].name
        )
    assert shown["source"]["visible"] is False  # the tabs say it; the API takes it
    assert shown["references-files"]["label"] == "references (gold)"
    assert shown["interval"]["label"] == "bootstrap 95% interval (1,000 resamples)"
    assert (
        shown["placeholder"]["value"]
        == PLACEHOLDER
        == (
            "Press **Compute**: the scores, the per-item breakdown and the plot of the inputs above "
            "appear here."
        )
    )
    assert shown["limits"]["value"] == Limits().note()
    cards = [
        c["props"]["value"]
        for c in demo.config["components"]
        if c["type"] == "markdown" and str(c["props"].get("value")).startswith("# Metric card")
    ]
    assert len(cards) == 1 and not cards[0].startswith("---")
    names = {c["id"]: c["props"].get("elem_id") or c["props"].get("label") for c in
             demo.config["components"]}  # fmt: skip
    wiring = {
        d["api_name"]: ([names[i] for i in d["inputs"]], [names[i] for i in d["outputs"]])
        for d in demo.config["dependencies"]
    }
    controls = ["max-evidence", "count every predicted sentence (max_evidence=None)"]
    inputs = ["source", "predictions-json", "references-json", "predictions-files"]
    inputs += ["references-files", *controls]
    assert wiring["compute"] == (
        inputs,
        ["error", "placeholder", "scores", "groups", "breakdown", "plot"],
    )
    assert wiring["intervals"] == ([*inputs, "interval", "scores"], ["scores"])
    sources = [demo.fns[i].fn() for i, d in enumerate(demo.config["dependencies"])
               if [t[1] for t in d["targets"]] == ["select"]]  # the tabs  # fmt: skip
    assert sources == ["files", "json"]
    demo.close()
    # A folder Space: every file of the example folders, one upload each.
    ehealthkd = app_module("ehealthkd").SPEC
    demo = build(ehealthkd)
    shown = _components(demo)
    for side in ("references", "predictions"):
        uploads = [Path(v["path"]).name for v in shown[f"{side}-files"]["value"]]
        assert uploads == [p.name for p in ehealthkd.example_files[side]]
        assert len(uploads) == 3
    assert "plot" in shown
    demo.close()


def test_the_interval_column_is_the_bootstrap_of_each_headline_score_to_four_places():
    """Planted: the bounds swapped or written to another precision, the intervals step adding
    the column when the box is clear or Compute failed, or changing the scores Compute showed."""
    from test_spaces import default_controls

    from taskeval.compare import intervals
    from taskeval.space import add_intervals, compute, scores_table

    spec = app_module("fever_score").SPEC
    rows = spec.example_rows
    values = ("json", json.dumps(rows["predictions"]), json.dumps(rows["references"]), None, None)
    values += tuple(default_controls(spec))
    bounds = intervals("fever_score", rows, workers=1)
    expected = [
        [key, value, f"[{bounds[key][0]:.4f}, {bounds[key][1]:.4f}]" if key in bounds else ""]
        for key, value in scores_table(taskeval.load("fever_score").compute(**rows))
    ]
    assert {row[0] for row in expected if row[2]} == set(bounds) != set()
    assert all(lo < hi for lo, hi in bounds.values())
    shown = compute(spec, *values, with_interval=True)[2]["value"]
    assert list(shown.columns) == ["score", "value", "95% interval"]
    assert shown.values.tolist() == expected
    table = compute(spec, *values)[2]["value"]
    assert list(table.columns) == ["score", "value"]
    added = add_intervals(spec, *values, True, table)
    assert added.values.tolist() == expected
    assert add_intervals(spec, *values, False, table) == {"__type__": "update"}
    assert add_intervals(spec, *values, True, None) == {"__type__": "update"}
    broken = ("json", "[{", *values[2:])
    assert add_intervals(spec, *broken, True, table) == {"__type__": "update"}


def test_a_long_breakdown_is_cut_to_its_limit_and_says_so(monkeypatch):
    """The page gets at most ``TASKEVAL_SPACE_MAX_BREAKDOWN_ROWS`` rows of the breakdown (a
    490,000-claim answer was 54 MB of JSON, held by the server for each request), and its label
    says how many were left out and where to get them all. Planted: every row sent, the label
    left as it was, one row off at the limit."""
    from taskeval import space

    spec = app_module("fever_score").SPEC
    rows = spec.example_rows
    values = ("json", json.dumps(rows["predictions"]), json.dumps(rows["references"]), None, None)
    count = len(rows["predictions"])
    monkeypatch.setattr(space._LIMITS, "breakdown_rows", 3)
    breakdown = space.compute(spec, *values, 5, False)[4]
    assert len(breakdown["value"]) == 3
    assert breakdown["label"] == (
        f"per-item breakdown: the first 3 of {count:,} items "
        "(TASKEVAL_SPACE_MAX_BREAKDOWN_ROWS; all of them: the metric's "
        "`compute(..., details=True)`)"
    )
    monkeypatch.setattr(space._LIMITS, "breakdown_rows", count)
    breakdown = space.compute(spec, *values, 5, False)[4]
    assert len(breakdown["value"]) == count
    assert breakdown["label"] == "per-item breakdown"


def test_breakdown_headers_read_as_words_and_columns_fit_their_longest_word():
    """Planted: headers left with underscores, a column as wide as its whole text (or as its
    header), widths off the 8.5 px a character and 30 px a cell."""
    from taskeval.space import column_widths, compute

    spec = app_module("scifact_abstract").SPEC
    rows = spec.example_rows
    values = ("json", json.dumps(rows["predictions"]), json.dumps(rows["references"]), None, None)
    breakdown = compute(spec, *values)[4]
    frame = breakdown["value"]
    assert list(frame.columns)[:4] == ["claim id", "doc id", "outcome", "why"]
    assert breakdown["column_widths"] == column_widths(frame)
    import pandas as pd

    table = pd.DataFrame(
        {
            "a_long_header": ["x", "y"],  # the header's word, 13 characters
            "why": ["one two three four five six", "seven"],  # texts wrap at 20 characters
            "n": [1, 22],  # the longest value, 2 characters: the header's 1 is shorter
            "w": ["abcdefghijklmnopqrstuvwxyz", ""],  # a word of 26 characters is never cut
        }
    )
    assert column_widths(table) == ["140px", "200px", "47px", "251px"]


def test_uploads_no_request_used_are_swept_after_their_time_and_within_their_total(
    tmp_path, monkeypatch
):
    """Planted: uploads no request used never removed (a client could fill the disk), the
    sweep removing uploads within their time, going past the total or removing the newest
    first, leaving their folders, and removing the empty files gradio's upload route leaves
    beside the uploads while they may still be being written (younger than ten seconds) or
    files that are not empty."""
    import os
    import time

    from taskeval.space import _uploads

    uploads = tmp_path / "uploads"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(uploads))
    now = time.time()
    ages = {"a.jsonl": 100, "b.jsonl": 50, "c.jsonl": 10, "d.jsonl": 0}
    for name, age in ages.items():
        path = _upload(uploads, name, name * 100)  # 700 bytes each
        os.utime(path, (now - age, now - age))
    old = now - 11
    for name, text, when in (("tmpold", "", old), ("tmpnew", "", None), ("tmpfull", "x", old)):
        (uploads / name).write_text(text)
        if when:
            os.utime(uploads / name, (when, when))
    (uploads / "old-but-not-tmp").write_text("")
    os.utime(uploads / "old-but-not-tmp", (old, old))

    def left() -> list[str]:
        return sorted(p.name for p in uploads.rglob("*") if p.is_file())

    _uploads.sweep(3600)  # within their time; empty files wait a minute then
    assert left() == sorted([*ages, "old-but-not-tmp", "tmpfull", "tmpnew", "tmpold"])
    _uploads.sweep(60)  # a.jsonl was uploaded 100 s ago
    assert left() == ["b.jsonl", "c.jsonl", "d.jsonl", "old-but-not-tmp", "tmpfull", "tmpnew",
                      "tmpold"]  # fmt: skip
    assert len(list(uploads.iterdir())) == 3 + 4  # a.jsonl's folder went with it
    _uploads.sweep(3600, total=1400)  # at most two: the oldest goes
    assert left() == ["c.jsonl", "d.jsonl", "old-but-not-tmp", "tmpfull", "tmpnew", "tmpold"]
    _uploads.sweep(0)  # empty files wait ten seconds then
    assert left() == ["old-but-not-tmp", "tmpfull", "tmpnew"]


# --- what a request may hold: the limits' messages ---------------------------------------------


def _limits(monkeypatch, **values):
    from taskeval.space_worker import Limits

    for name, value in values.items():
        monkeypatch.setenv(f"TASKEVAL_{name}", str(value))
    return Limits()


def _task(source: str, predictions, references, names=None, metric="fever_score") -> dict:
    return {
        "metric": metric,
        "config": None,
        "options": {},
        "source": source,
        "with_interval": False,
        "predictions": predictions,
        "references": references,
        "names": names or {},
        "folders": {},
    }


def test_the_limits_are_stated_as_the_page_shows_them(monkeypatch):
    """Planted: a limit read from another variable, one not stated in MiB."""
    limits = _limits(
        monkeypatch,
        SPACE_MAX_UPLOAD_MB=2,
        SPACE_MAX_INFLATED_MB=3,
        SPACE_MAX_ROWS=1500,
        SPACE_MAX_PASTE_MB=0.5,
        MAX_LINE_BYTES=2 * 1024 * 1024,
    )
    assert limits.note() == (
        "Limits of this Space: an uploaded file up to 2 MiB (`TASKEVAL_SPACE_MAX_UPLOAD_MB`), a "
        "gzip file up to 3 MiB inflated (`TASKEVAL_SPACE_MAX_INFLATED_MB`), up to 1,500 lines or "
        "rows per file (`TASKEVAL_SPACE_MAX_ROWS`), JSON lines up to 2 MiB "
        "(`TASKEVAL_MAX_LINE_BYTES`), pasted rows up to 0.5 Mi characters "
        "(`TASKEVAL_SPACE_MAX_PASTE_MB`); each computation up to 300 s "
        "(`TASKEVAL_SPACE_TIMEOUT`) and 3,072 MiB of memory (`TASKEVAL_SPACE_MEMORY_MB`); up to "
        "4 requests of one client at once (`TASKEVAL_SPACE_QUEUE_PER_CLIENT`); uploads are "
        "removed when every page that used them has closed, or 900 s after their last use "
        "(`TASKEVAL_SPACE_UPLOAD_TTL`). Larger files: "
        "`taskeval score` on your machine."
    )
    assert (limits.upload_bytes, limits.rows, limits.paste_chars) == (2 << 20, 1500, 1 << 19)


@pytest.mark.parametrize("value", ["0", "-1", "lots", "nan", "inf"])
def test_a_limit_of_zero_or_less_or_unreadable_stops_the_space_naming_it(monkeypatch, value):
    """A Space limit is a positive number: 0 is neither "no limit" nor a limit of nothing, and
    is refused, as are negative and unreadable values, naming the variable and the default.
    Planted: 0 taken literally (every upload refused), or any of them silently replaced by the
    default. An empty value is no value: the default. The one setting 0 means something for:
    the worker processes (none: each computation in the server)."""
    for name in ("SPACE_MAX_ROWS", "SPACE_WORKERS", "SPACE_UPLOAD_TTL", "MAX_LINE_BYTES"):
        monkeypatch.setenv(f"TASKEVAL_{name}", value)
        if name == "SPACE_WORKERS" and value == "0":  # no worker processes: for debugging
            assert _limits(monkeypatch).workers == 0
            continue
        with pytest.raises(ValueError) as refused:
            _limits(monkeypatch)
        assert str(refused.value).startswith(f"TASKEVAL_{name}={value!r}: expected ")
        assert "positive number (unset it for the default, " in str(refused.value)
        monkeypatch.delenv(f"TASKEVAL_{name}")
    monkeypatch.setenv("TASKEVAL_SPACE_MAX_ROWS", "0")
    with pytest.raises(ValueError, match=r"^TASKEVAL_SPACE_MAX_ROWS='0': expected a positive "
                       r"number \(unset it for the default, 500,000\)$"):  # fmt: skip
        _limits(monkeypatch)
    assert _limits(monkeypatch, SPACE_MAX_ROWS="").rows == 500_000


def test_an_error_never_shows_a_server_path_only_the_users_file_names(tmp_path, monkeypatch):
    """Planted: a path of the request's uploads left whole when it starts another listed path
    (the longer one replaced first), and a server path the request did not list (an upload's
    resolved form, a library's copy in the temporary folder) shown as it is."""
    import tempfile

    from taskeval.space_worker import user_message

    uploads = tmp_path / "uploads"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(uploads))
    side = str(uploads / "3f2a" / "gold")  # a folder side's upload, and a file in it
    member = os.path.join(side, "gold.jsonl")
    error = ValueError(f"{side}: bad; {member}, line 2: bad")
    assert user_message(error, [side, member]) == "gold: bad; gold.jsonl, line 2: bad"
    elsewhere = os.path.join(tempfile.gettempdir(), "lib-copy-81x", "gold.jsonl")
    error = ValueError(f"{uploads}/9c1d/mine.jsonl, line 3 ('x'); read from {elsewhere}: bad")
    assert user_message(error, []) == "mine.jsonl, line 3 ('x'); read from gold.jsonl: bad"


def test_what_passes_the_limits_is_refused_word_for_word(tmp_path, monkeypatch):
    """Planted: a limit taken as allowed one past it (``>=`` for ``>``), the lines counted in
    the packed gzip instead of inflated, the message naming the server's copy."""
    import gzip

    from taskeval.space_worker import run

    limits = _limits(
        monkeypatch, SPACE_MAX_UPLOAD_MB=0.001, SPACE_MAX_ROWS=3, SPACE_MAX_INFLATED_MB=0.01
    )
    mib = 1 << 20
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"x" * (int(0.001 * mib) + 1))
    small = tmp_path / "small.jsonl"
    small.write_bytes(b"{}\n" * 3)  # three lines: at the limit
    long = tmp_path / "long.jsonl"
    long.write_bytes(b"{}\n" * 4)
    packed = tmp_path / "zeros.jsonl.gz"
    packed.write_bytes(gzip.compress(b"0" * (int(0.01 * mib) + 1)))

    def refused(path, names=None, metric="fever_score") -> str:
        return run(_task("files", str(path), None, names, metric), limits).get("error", "")

    assert refused(big, {str(big): "mine.jsonl"}) == (
        "mine.jsonl: 1,049 bytes, more than the 0 MiB this Space takes "
        "(TASKEVAL_SPACE_MAX_UPLOAD_MB)"
    )
    assert refused(long) == (
        "long.jsonl: more than 3 lines, the most this Space reads (TASKEVAL_SPACE_MAX_ROWS)"
    )
    assert "TASKEVAL_SPACE_MAX_ROWS" not in refused(small)
    gold = _task("files", str(small), str(packed), None, "tydiqa")  # TyDi QA's gold may be gzip
    assert run(gold, limits)["error"] == (
        "zeros.jsonl.gz: more than 0 MiB once decompressed, the most this Space inflates "
        "(TASKEVAL_SPACE_MAX_INFLATED_MB)"
    )
    limits = _limits(monkeypatch, SPACE_MAX_ROWS=2, SPACE_MAX_PASTE_MB=0.00002)
    rows = json.dumps([{}, {}, {}])
    assert run(_task("json", rows, "[]"), limits)["error"] == (
        "predictions: 3 rows, more than the 2 this Space scores (TASKEVAL_SPACE_MAX_ROWS)"
    )
    pasted = "[" + " " * 20 + "]"  # 22 characters, the limit 20
    assert run(_task("json", "[]", pasted), limits)["error"] == (
        "references: 22 characters pasted, more than the 20 this Space reads "
        "(TASKEVAL_SPACE_MAX_PASTE_MB): upload a file instead"
    )


# --- a contract's statistics off the fast path ------------------------------------------------


def test_fever_per_claim_statistics_off_the_official_form_give_the_official_scores():
    """Planted: the checking path of FEVER's per-claim statistics skipped (rows the fast path
    refuses: evidence as {page, line} records), a claim whose evidence is not scored adding a precision
    other than 0. The expected numbers are the official scorer's."""
    from fever.scorer import fever_score

    from taskeval.compare import compare_rows
    from taskeval.units import identity_scores

    spec = app_module("fever_score").SPEC
    inputs = example_inputs("fever_score")

    def records(pairs: list) -> list[dict]:
        return [{"page": page, "line": line} for page, line in pairs]

    predictions = [
        {**p, "predicted_evidence": records(p["predicted_evidence"])} for p in inputs["predictions"]
    ]
    assert spec is not None and any(p["predicted_evidence"] for p in predictions)
    assert any(r["label"] == "NOT ENOUGH INFO" for r in inputs["references"])
    rows = {"predictions": predictions, "references": inputs["references"]}
    scores = compare_rows("fever_score", [rows], resamples=2)["systems"][0]["scores"]
    official = fever_score(
        [dict(p) for p in inputs["predictions"]], [dict(r) for r in inputs["references"]]
    )
    keys = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall")
    assert [scores[k]["score"] for k in keys] == list(official[:4])
    # ... and summed from the per-claim statistics the intervals resample
    ours = identity_scores("fever_score", rows)
    assert [ours[k] for k in keys] == list(official[:4])


def test_a_plot_shown_twice_is_drawn_once_per_format_and_each_format_is_its_own(tmp_path):
    """Planted: the picture kept under one key whatever the format (an SVG asked, the PNG
    written), a path given to savefig taken for a file object."""
    from taskeval.space import compute

    figures = {}
    for name in ("scifact_abstract", "scifact_sentence"):
        spec = app_module(name).SPEC
        rows = spec.example_rows
        values = ("json", json.dumps(rows["predictions"]), json.dumps(rows["references"]))
        first = compute(spec, *values, None, None)[5]["value"]
        again = compute(spec, *values, None, None)[5]["value"]
        assert again is first  # drawn once for the same details
        figures[name] = first
    assert figures["scifact_abstract"] is not figures["scifact_sentence"]
    assert figures["scifact_abstract"].axes[0].get_ylabel() == "abstracts"
    assert figures["scifact_sentence"].axes[0].get_ylabel() == "sentences"
    import io

    figure = figures["scifact_abstract"]
    pictures = []
    for kwargs in ({"format": "png"}, {"format": "svg"}, {"format": "png"}):
        buffer = io.BytesIO()
        figure.savefig(buffer, **kwargs)
        pictures.append(buffer.getvalue())
    assert pictures[0].startswith(b"\x89PNG") and pictures[2] == pictures[0]
    assert b"<svg" in pictures[1][:400]
    figure.savefig(tmp_path / "plot.png")
    assert (tmp_path / "plot.png").read_bytes().startswith(b"\x89PNG")


def test_fever_predictions_carrying_their_gold_are_scored_without_a_gold_upload(tmp_path):
    """Planted: the FEVER gold file made compulsory (the Space then asks for a references
    upload that the official scorer does without)."""
    from test_spaces import _gradio_upload, default_controls, shown_scores

    from taskeval.space import compute, scores_table

    spec = app_module("fever_score").SPEC
    inputs = example_inputs("fever_score")
    own = [
        {**p, "label": r["label"], "evidence": r["evidence"]}
        for p, r in zip(inputs["predictions"], inputs["references"])
    ]
    text = "".join(json.dumps(row) + "\n" for row in own)
    upload = _gradio_upload(tmp_path, "own.jsonl", text)
    error, _, scores, *_ = compute(spec, "files", "", "", upload, None, *default_controls(spec))
    assert error["visible"] is False, error["value"]
    expected = taskeval.load("fever_score").compute(**inputs)
    assert shown_scores(scores["value"], None) == scores_table(expected)
    error, *_ = compute(spec, "files", "", "", None, upload, *default_controls(spec))
    assert error["value"] == "predictions: no file was uploaded"


def test_more_than_five_bars_put_every_other_label_below_and_make_room_for_it():
    """Planted: the lowered labels moved by another height than their lines (12-point text,
    1.25 line spacing), the figure not made taller by 0.4 inch a line, the labels of five bars
    or fewer lowered too."""
    name = "tydiqa_goldp"
    spec = app_module(name).SPEC
    details = taskeval.load(name).compute(**example_inputs(name), details=True)["details"]
    (ax,) = spec.plot(details, None).axes
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert len(labels) == 9
    lines = max(label.count("\n") + 1 for label in labels)
    pads = [tick.get_pad() for tick in ax.xaxis.get_major_ticks()]
    lowered = lines * 12 * 1.25
    assert [round(p - pads[0], 9) for p in pads] == [0, lowered] * 4 + [0]
    assert ax.figure.get_figheight() == pytest.approx(4.8 + 0.4 * lines)
    fever = app_module("fever_score").SPEC
    details = taskeval.load("fever_score").compute(**example_inputs("fever_score"), details=True)
    (ax,) = fever.plot(details["details"], None).axes
    assert len({tick.get_pad() for tick in ax.xaxis.get_major_ticks()}) == 1
    assert ax.figure.get_figheight() == pytest.approx(4.8)


def test_a_gold_error_in_the_last_prediction_line_names_the_predictions_file(tmp_path):
    """Planted: the last line of the predictions file never taken as carrying its own gold
    (``<`` for ``<=`` in FEVER's ``gold_in_line``): its error then named the gold file."""
    from test_cli_settings import one_line_error

    inputs = example_inputs("fever_score")
    predictions, gold = inputs["predictions"][:3], inputs["references"][:3]
    bad = [[[1, 2, "Page", {"x": 1}]]]
    predictions[2] = {**predictions[2], "label": "SUPPORTS", "evidence": bad}
    own = tmp_path / "own.jsonl"
    own.write_text("".join(json.dumps(r) + "\n" for r in predictions), encoding="utf-8")
    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text("".join(json.dumps(r) + "\n" for r in gold), encoding="utf-8")
    argv = ["score", "fever_score", "--references", str(gold_path), "--predictions", str(own)]
    one_line_error(argv, 1, f"{own}, line 3 (id {predictions[2]['id']})", "'evidence'")


def test_the_plot_of_a_compute_is_of_the_scenario_asked():
    """Planted: the plot drawn with the options in place of the config (the title then said
    scenario 1 for a scenario-3 request)."""
    from taskeval.space import compute

    spec = app_module("ehealthkd").SPEC
    rows = spec.example_rows
    values = ("json", json.dumps(rows["predictions"]), json.dumps(rows["references"]))
    plot = compute(spec, *values, None, None, "scenario3")[5]["value"]
    (ax,) = plot.axes
    assert " ".join(ax.get_title().split()) == (
        "Scenario 3: task B (relations, gold key phrases given): items per outcome (C, I, P, M "
        "and S)"
    )


def test_six_bars_with_labels_of_two_lines_make_the_figure_taller_by_two_lines():
    """Planted: ``0.4 / lines`` for ``0.4 * lines`` (the same with one-line labels)."""
    import pandas as pd

    from taskeval.space import bar_chart

    names = [f"outcome number{i}" for i in range(6)]  # wrapped at 8 characters: two lines
    frame = pd.DataFrame({"x": names, "c": ["a"] * 6, "n": [1] * 6})
    figure = bar_chart(frame, x="x", y="n", color="c", x_order=names, colors={}, title="t")
    assert figure.get_figheight() == pytest.approx(4.8 + 0.4 * 2)


def test_the_intervals_step_does_not_score_again(monkeypatch):
    """The page's second step wants the intervals alone: the scores Compute showed are not
    computed again (planted: ``scores`` ignored, which doubled a big file's time)."""
    from taskeval import space_worker
    from taskeval.compare import intervals

    rows = app_module("fever_score").SPEC.example_rows
    scored = []
    real = space_worker.metric
    monkeypatch.setattr(space_worker, "metric", lambda *a: scored.append(a) or real(*a))
    task = {
        "metric": "fever_score",
        "config": None,
        "options": {},
        "source": "json",
        "predictions": json.dumps(rows["predictions"]),
        "references": json.dumps(rows["references"]),
        "names": {},
        "folders": {},
        "with_interval": True,
    }
    reply = space_worker.run({**task, "scores": False})
    assert reply == {"result": None, "bounds": intervals("fever_score", rows, workers=1)}
    assert scored == []
    assert space_worker.run(task)["result"]["strict_score"] == 0.375  # scored when asked
    assert scored == [("fever_score", None)]


@pytest.mark.parametrize("name", ["fever_score", "ehealthkd"])
def test_a_folder_given_as_a_file_is_refused_and_no_other_upload_is_named(
    tmp_path, monkeypatch, name
):
    """A request may name any path: gradio's upload folder itself, whose listing holds other
    users' uploads in folders named by their content's hash. It is refused as not a file, on
    Compute and in the check panel, and no other upload's folder is named."""
    from test_spaces import default_controls

    from taskeval.space import compute
    from taskeval.space_check import check_submission

    uploads = tmp_path / "uploads"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(uploads))
    spec = app_module(name).SPEC
    other = _upload(uploads, "theirs.jsonl", "secret\n")
    hashed = Path(other).parent.name
    good = [str(p) for p in spec.example_files["references"]]
    for folder in (str(uploads), str(Path(other).parent)):
        error, *_ = compute(spec, "files", "", "", [folder] if spec.folders else folder,
                            good if spec.folders else good[0], *default_controls(spec))  # fmt: skip
        assert error["visible"] and "not a file: upload a file" in error["value"], error
        assert hashed not in error["value"] and "theirs" not in error["value"]
        assert str(tmp_path) not in error["value"]
        shown = json.dumps(check_submission(spec, [folder], None, None))
        assert (
            "not a file: upload a file" in shown and hashed not in shown and "theirs" not in shown
        ), shown
