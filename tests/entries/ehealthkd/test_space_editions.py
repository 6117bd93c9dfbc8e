"""The ``ehealthkd`` Space with the edition chosen beside the scenario: BRAT uploads of the 2020
and 2021 layouts scored as the official evaluations score them, and the uploads of another
edition than the chosen one refused in plain words.

The expected values are the official tools' output on the Space's synthetic examples
(``examples/gold_2020`` with ``examples/submission_2020``: ``scripts/evaltest.py``'s
``evaluate_scenario`` of knowledge-learning/ehealthkd-2020; ``examples/gold_2021`` with
``examples/submission_2021``: ``scripts/score.py``'s ``main_scenario`` of ehealthkd/corpora,
its counts from ``subtaskA`` and ``subtaskB``).
"""

from __future__ import annotations

import importlib.util
import json
import pickle
from pathlib import Path

import pytest

import taskeval

gr = pytest.importorskip("gradio")
import taskeval.space  # noqa: E402
from taskeval.space import compute  # noqa: E402

SPACE = Path(__file__).resolve().parents[3] / "spaces" / "ehealthkd"
EXAMPLES = SPACE / "examples"

_COUNTS_2020 = {
    "correct_A": 8,
    "incorrect_A": 1,
    "partial_A": 1,
    "missing_A": 5,
    "spurious_A": 1,
    "correct_B": 5,
    "missing_B": 6,
    "spurious_B": 2,
}
_COUNTS_2021 = {
    "correct_A": 9,
    "incorrect_A": 1,
    "partial_A": 1,
    "missing_A": 1,
    "spurious_A": 0,
    "correct_B": 4,
    "missing_B": 5,
    "spurious_B": 4,
}
OFFICIAL = {
    (2020, "scenario1"): {
        **_COUNTS_2020,
        "precision": 0.75,
        "recall": 0.5192307692307693,
        "f1": 0.6136363636363638,
    },
    (2020, "scenario2"): {
        **_COUNTS_2020,
        "precision": 0.7727272727272727,
        "recall": 0.5666666666666667,
        "f1": 0.6538461538461539,
    },
    (2020, "scenario3"): {
        **_COUNTS_2020,
        "precision": 0.7142857142857143,
        "recall": 0.45454545454545453,
        "f1": 0.5555555555555556,
    },
    (2020, "scenario4"): {
        **_COUNTS_2020,
        "precision": 0.75,
        "recall": 0.5192307692307693,
        "f1": 0.6136363636363638,
    },
    (2021, "scenario1"): {
        **_COUNTS_2021,
        "precision": 0.7105263157894737,
        "recall": 0.6428571428571429,
        "f1": 0.6749999999999999,
    },
    (2021, "scenario2"): {
        # score.py matches no relations in scenario 2 (it skips subtaskB): no B counts.
        **_COUNTS_2021,
        "correct_B": 0,
        "missing_B": 0,
        "spurious_B": 0,
        "precision": 0.8636363636363636,
        "recall": 0.7916666666666666,
        "f1": 0.8260869565217391,
    },
    (2021, "scenario3"): {
        **_COUNTS_2021,
        "precision": 0.5,
        "recall": 0.4444444444444444,
        "f1": 0.47058823529411764,
    },
}


@pytest.fixture(scope="module")
def spec():
    module_spec = importlib.util.spec_from_file_location(
        "space_ehealthkd_editions", SPACE / "app.py"
    )
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module.SPEC


@pytest.fixture
def in_process(monkeypatch):
    """Every computation in the test process (the Space's debugging mode), no worker started."""
    monkeypatch.setattr(taskeval.space._LIMITS, "workers", 0)


def _upload(tmp_path: Path, side: str, source: Path) -> str:
    """A copy of ``source`` where gradio keeps an upload: a folder of its own, the name kept."""
    folder = tmp_path / "gradio" / side / source.name.replace(".", "-")
    folder.mkdir(parents=True)
    (folder / source.name).write_bytes(source.read_bytes())
    return str(folder / source.name)


def _uploads(tmp_path: Path, references: str, predictions: str) -> tuple[list[str], list[str]]:
    """(predictions, references) uploads of two example folders' files."""
    preds = [_upload(tmp_path, "p", f) for f in sorted((EXAMPLES / predictions).iterdir())]
    refs = [_upload(tmp_path, "r", f) for f in sorted((EXAMPLES / references).iterdir())]
    return preds, refs


def _scores(scores) -> dict[str, str]:
    return dict(scores["value"][["score", "value"]].values.tolist())


def _error(result) -> str:
    error = result[0]
    assert error["visible"] is True, "expected a refusal"
    return error["value"]


@pytest.mark.parametrize(("edition", "scenario"), sorted(OFFICIAL))
def test_brat_upload_gives_the_official_numbers(spec, in_process, tmp_path, edition, scenario):
    preds, refs = _uploads(tmp_path, f"gold_{edition}", f"submission_{edition}")
    error, _, scores, *_ = compute(spec, "files", "", "", preds, refs, scenario, edition)
    assert error["visible"] is False, error["value"]
    expected = {k: repr(v) for k, v in OFFICIAL[(edition, scenario)].items()}
    assert _scores(scores) == expected


def test_brat_upload_through_a_worker_process(spec, tmp_path):
    """The chosen scenario reaches a worker process (pickled) and is scored there alike."""
    preds, refs = _uploads(tmp_path, "gold_2021", "submission_2021")
    error, _, scores, *_ = compute(spec, "files", "", "", preds, refs, "scenario2", 2021)
    assert error["visible"] is False, error["value"]
    assert _scores(scores) == {k: repr(v) for k, v in OFFICIAL[(2021, "scenario2")].items()}


def test_the_edition_reaches_json_rows(spec, in_process):
    rows = taskeval.read_official(
        "ehealthkd",
        references=EXAMPLES / "gold_2020",
        predictions=EXAMPLES / "submission_2020",
    )
    _, _, scores, *_ = compute(
        spec,
        "json",
        json.dumps(rows["predictions"]),
        json.dumps(rows["references"]),
        None,
        None,
        "scenario2",
        2020,
    )
    assert _scores(scores) == {k: repr(v) for k, v in OFFICIAL[(2020, "scenario2")].items()}
    # The same rows scored by the 2019 rules give other numbers: the edition made the difference.
    other = taskeval.load("ehealthkd", "scenario2").compute(**rows, edition=2019)
    assert _scores(scores)["f1"] != repr(other["f1"])


def test_read_controls_give_the_edition_as_an_option(spec):
    for edition in (2019, 2020, 2021, "2021"):
        config, options = spec.read_controls("scenario1", edition)
        assert config == "scenario1" and options == {"edition": int(edition)}
        # The config reaches a worker process as the plain scenario name.
        sent = pickle.loads(pickle.dumps(config))
        assert sent == "scenario1" and type(sent) is str
    assert spec.read_controls("scenario4", 2020)[1] == {"edition": 2020}
    for bad in (2018, "twenty", None, True):
        with pytest.raises(ValueError, match="edition: choose 2019, 2020 or 2021"):
            spec.read_controls("scenario1", bad)


@pytest.mark.parametrize("edition", [2019, 2021])
def test_scenario4_is_refused_outside_2020(spec, in_process, tmp_path, edition):
    folders = {2019: ("gold", "submission"), 2021: ("gold_2021", "submission_2021")}[edition]
    preds, refs = _uploads(tmp_path, *folders)
    message = _error(compute(spec, "files", "", "", preds, refs, "scenario4", edition))
    assert "scenario 4 (transfer) exists in the 2020 edition only" in message
    assert f"choose edition 2020, or scenario 1, 2 or 3 for edition {edition}" in message


@pytest.mark.parametrize(
    ("references", "predictions", "chosen", "said"),
    [
        ("gold_2020", "submission_2020", 2019, 2020),  # the default edition left as it is
        ("gold_2020", "submission_2020", 2021, 2020),
        ("gold_2021", "submission_2021", 2020, 2021),
        ("gold_2021", "submission_2021", 2019, 2021),
        ("gold", "submission", 2020, 2019),
        ("gold", "submission", 2021, 2019),
    ],
)
def test_files_of_another_edition_are_refused(
    spec, in_process, tmp_path, references, predictions, chosen, said
):
    preds, refs = _uploads(tmp_path, references, predictions)
    message = _error(compute(spec, "files", "", "", preds, refs, "scenario1", chosen))
    assert f"are eHealth-KD {said} files, but edition {chosen} is chosen" in message
    assert f"choose edition {said} in the edition menu" in message
    assert str(tmp_path) not in message and "gradio" not in message


def test_files_of_two_editions_are_refused(spec, in_process, tmp_path):
    preds, _ = _uploads(tmp_path / "a", "gold_2021", "submission_2021")
    _, refs = _uploads(tmp_path / "b", "gold_2020", "submission_2020")
    message = _error(compute(spec, "files", "", "", preds, refs, "scenario1", 2020))
    assert message == (
        "the uploaded files are of the eHealth-KD editions 2020 and 2021 (references: "
        "scenario.ann (2020), scenario.txt (2020); predictions: output.ann (2021), output.txt "
        "(2021)): upload the files of one edition"
    )


@pytest.mark.parametrize("edition", [2020, 2021])
def test_a_brat_text_without_its_annotations_is_refused(spec, in_process, tmp_path, edition):
    stem = {2020: "scenario", 2021: "output"}[edition]
    preds, refs = _uploads(tmp_path, f"gold_{edition}", f"submission_{edition}")
    lone = [p for p in preds if p.endswith(".txt")]
    message = _error(compute(spec, "files", "", "", lone, refs, "scenario1", edition))
    assert f"predictions: {stem}.txt was uploaded without {stem}.ann" in message
    assert str(tmp_path) not in message
    lone = [p for p in refs if p.endswith(".ann")]
    message = _error(compute(spec, "files", "", "", preds, lone, "scenario1", edition))
    assert f"references: {stem}.ann was uploaded without {stem}.txt" in message


def test_the_2019_example_is_still_scored_by_default(spec, in_process):
    preds = [str(p) for p in spec.example_files["predictions"]]
    refs = [str(p) for p in spec.example_files["references"]]
    error, _, scores, *_ = compute(spec, "files", "", "", preds, refs, "scenario1", 2019)
    assert error["visible"] is False, error["value"]
    shown = _scores(scores)
    # The example README's official numbers (evaltest of knowledge-learning/ehealthkd-2019).
    assert shown["f1"] == "0.5632183908045977" and shown["correct_A"] == "67"
