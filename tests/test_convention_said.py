"""TyDiQA-GoldP's numbers follow one of several conventions (scale, languages averaged): the
command line and the Space say which, beside the numbers, while compute()'s result stays the
official dict alone."""

from __future__ import annotations

import json

import pytest

import taskeval
from taskeval.export import spaces_root
from taskeval.registry import contract

from harness import run_cli

EXAMPLES = spaces_root() / "tydiqa_goldp" / "examples"
FILES = ["--references", str(EXAMPLES / "gold.json"), "--predictions", str(EXAMPLES / "predictions.json")]  # fmt: skip


def _said(convention: str) -> str:
    from taskeval.space import metric_module

    return metric_module("tydiqa_goldp", "conventions").said(convention)


@pytest.mark.parametrize("full", [False, True])  # the entry point's fast path, and the CLI's
def test_json_output_is_the_result_and_the_convention_is_said_on_stderr(full):
    code, out, err = run_cli(["score", "tydiqa_goldp", *FILES], full=full)
    assert code == 0
    assert json.loads(out) == taskeval.score_files(
        "tydiqa_goldp", references=EXAMPLES / "gold.json", predictions=EXAMPLES / "predictions.json"
    )
    assert err == f"taskeval score tydiqa_goldp: note: {_said('official')}\n"


@pytest.mark.parametrize("convention", ["official", "xtreme", "lm_eval"])
def test_the_table_names_the_convention_its_scale_and_languages(convention):
    code, out, err = run_cli(
        ["score", "tydiqa_goldp", *FILES, "--convention", convention, "--table"]
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == _said(convention)


def test_each_convention_is_said_with_its_scale_and_languages():
    assert "8 non-English languages" in _said("official") and "0-100" in _said("official")
    assert "English included" in _said("xtreme") and "0-100" in _said("xtreme")
    assert "fractions (0-1)" in _said("lm_eval")


def test_a_metric_without_such_an_option_says_nothing_more():
    assert contract("fever_score").notes({}) == []
    assert contract("tydiqa_goldp").notes({}) == [_said("official")]
    assert contract("tydiqa_goldp").notes({"convention": "xtreme"}) == [_said("xtreme")]


def test_the_space_says_each_convention_beside_its_choice():
    import gradio as gr
    from test_spaces import app_module

    with gr.Blocks():
        (radio,) = app_module("tydiqa_goldp").SPEC.controls()
    for convention in ("official", "xtreme", "lm_eval"):
        assert _said(convention) in radio.info


@pytest.mark.parametrize("table", [False, True])
def test_scores_with_intervals_say_the_convention_too(table):
    argv = ["score", "tydiqa_goldp", *FILES, "--ci", "--resamples", "400", "--convention", "xtreme"]
    code, out, err = run_cli(argv + ["--table"] * table)
    assert code == 0, err
    if table:
        assert (out.splitlines()[0], err) == (_said("xtreme"), "")
    else:
        assert "avg_metric" in json.loads(out)["systems"][0]["scores"]
        assert err == f"taskeval score tydiqa_goldp: note: {_said('xtreme')}\n"
