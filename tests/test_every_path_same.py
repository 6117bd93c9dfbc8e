"""Every path of every metric takes and refuses the same rows and gives the same numbers.

``compute()`` on whole inputs, ``add()`` row by row, ``add_batch()`` in chunks, the two mixed,
and ``num_process=2``: on rows with lone surrogates in every string field ("\\ud800": valid JSON,
which Arrow, storing UTF-8, cannot hold as it is), with strings that start with the mark that
stored escapes start with, and with a low-high surrogate pair next to the real character. And a
refused call leaves nothing behind: the same object then scores the rows added before and after,
and numbers rows in later errors as if the refused call never happened.

``compute()`` on whole inputs is checked against the official FEVER scorer here, and against
fixed official numbers for SciFact (computed with the leaderboard evaluator).
"""

from __future__ import annotations

import copy
import importlib
import inspect
import pickle
import random
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

import taskeval
from taskeval.registry import contract

from harness import assert_same

REPO = Path(__file__).resolve().parents[1]
HIGH_LOW = "\ud83d" + "\ude00"  # two lone surrogates, not the one character "\U0001f600"
ROWS = 12
PLAIN_ROWS = 3  # the first rows stay ordinary: add_batch meets an unstorable string later on

# Strings Arrow cannot store as they are, and strings that start with the escape mark: each row
# past the first few gets one of these, the same on both sides, so matches stay matches.
TRANSFORMS: list[Callable[[str], str]] = [
    lambda s: "\ud800" + s,
    lambda s: s + "\udfff",
    lambda s: "\ufdd0" + s,
    lambda s: "\ude00\ud83d" + s,  # a low-high pair: two lone surrogates
    lambda s: "\ufdd0\ud800" + s,
    lambda s: "é\udbff" + s,
]


def _entry(name: str):
    return importlib.import_module(f"entries.{name}").ENTRY


CASES = [
    pytest.param(name, config, id=f"{name}-{config}" if config else name)
    for name in taskeval.list_metrics()
    for config in _entry(name).configs
]


def _load(name: str, config: str | None, **kwargs):
    # Its own experiment id: an object left with rows in mid-course (a refused call) holds the
    # lock of its cache file until collected.
    kwargs.setdefault("experiment_id", uuid.uuid4().hex)
    if config is None:
        return taskeval.load(name, **kwargs)
    return taskeval.load(name, config, **kwargs)


def _options(metric) -> dict:
    """``details=True`` where the metric has it: the strings come back as they were given."""
    return {"details": True} if "details" in inspect.signature(metric._compute).parameters else {}


# --- Rows -----------------------------------------------------------------------------------


def _string_paths(value, path=()):
    """The path of every string in ``value``: keys, and "*" for any list position."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _string_paths(item, (*path, key))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _string_paths(item, (*path, "*"))
    elif isinstance(value, str):
        yield path


def _mapped(value, change, path=(), row=None):
    """``value`` with ``change(path, row, s)`` applied to each string ``s`` (``row``: the index
    of the row it is in)."""
    if isinstance(value, dict):
        return {k: _mapped(v, change, (*path, k), row) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [
            _mapped(v, change, (*path, "*"), i if row is None and len(path) == 1 else row)
            for i, v in enumerate(value)
        ]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, str):
        return change(path, row, value)
    return value


def _rows_with(inputs: dict, paths: set) -> dict:
    """Each string at one of ``paths`` in rows past the first few, transformed by its row; and in
    one of the first rows, a mark first (Arrow stores that one as it is: it must come back as it
    is, while the same string stored escaped later must come back too)."""

    def change(path, row, text):
        if path not in paths:
            return text
        if row < PLAIN_ROWS:
            return "\ufdd0" + text if row == 1 else text
        return TRANSFORMS[row % len(TRANSFORMS)](text)

    return _mapped(inputs, change)


def _base(name: str) -> dict:
    return _entry(name).random_inputs(random.Random(f"every-path-{name}"), ROWS)


def _outcome(call: Callable[[], dict]) -> tuple[str, object]:
    try:
        return "scored", call()
    except ValueError as e:
        return "refused", str(e)


def _variants(name: str, config: str | None) -> list[tuple[str, dict]]:
    """(label, inputs): unstorable strings in each string field alone, then in every field that
    takes them (both sides alike), and a low-high pair against the real character."""
    base = _base(name)
    paths = sorted(set(_string_paths(base)))
    assert paths, f"{name}: no string field to test"
    variants = [(f"{'/'.join(p)}", _rows_with(base, {p})) for p in paths]
    direct = _load(name, config)
    taking = {
        p
        for p, (_, inputs) in zip(paths, variants)
        if _outcome(lambda inputs=inputs: direct.compute(**inputs))[0] == "scored"
    }
    variants.append(("every field that takes them", _rows_with(base, taking)))

    def pair(path, row, text):
        if path not in taking or row < PLAIN_ROWS:
            return text
        return ("\ud83d\ude00" if path[0] == "predictions" else "\U0001f600") + text

    variants.append(("a surrogate pair against the real character", _mapped(base, pair)))
    return variants


# --- The paths ------------------------------------------------------------------------------


def _chunks(n: int, sizes=(1, 2, 3, 4)):
    start = turn = 0
    while start < n:
        end = start + sizes[turn % len(sizes)]
        yield start, end
        start, turn = end, turn + 1


def _by_add_batch(metric, inputs, options):
    preds, refs = inputs["predictions"], inputs["references"]
    for lo, hi in _chunks(len(preds)):
        metric.add_batch(predictions=preds[lo:hi], references=refs[lo:hi])
    return metric.compute(**options)


def _by_add(metric, inputs, options):
    for prediction, reference in zip(inputs["predictions"], inputs["references"]):
        metric.add(prediction=prediction, reference=reference)
    return metric.compute(**options)


def _mixed(metric, inputs, options):
    """add_batch, add, add_batch, then compute() with the last rows (added to the others)."""
    preds, refs = inputs["predictions"], inputs["references"]
    n = len(preds)
    a = min(PLAIN_ROWS, n)
    b = min(a + 1, n)
    c = max(b, n - 2)
    metric.add_batch(predictions=preds[:a], references=refs[:a])
    for prediction, reference in zip(preds[a:b], refs[a:b]):
        metric.add(prediction=prediction, reference=reference)
    metric.add_batch(predictions=preds[b:c], references=refs[b:c])
    return metric.compute(predictions=preds[c:], references=refs[c:], **options)


def _add_then_add_batch(metric, inputs, options):
    """The plain rows by add() (evaluate holds them back), then one batch that Arrow refuses as
    it is: the held rows are written first, as they are, and the batch escaped after them."""
    preds, refs = inputs["predictions"], inputs["references"]
    for prediction, reference in zip(preds[:PLAIN_ROWS], refs[:PLAIN_ROWS]):
        metric.add(prediction=prediction, reference=reference)
    metric.add_batch(predictions=preds[PLAIN_ROWS:], references=refs[PLAIN_ROWS:])
    return metric.compute(**options)


PATHS = {
    "add_batch in chunks": _by_add_batch,
    "add row by row": _by_add,
    "mixed": _mixed,
    "add, then add_batch": _add_then_add_batch,
}


@pytest.mark.parametrize(("name", "config"), CASES)
def test_unstorable_strings_in_every_field_score_alike_on_every_path(name, config):
    options = _options(_load(name, config))
    seen = set()
    for label, inputs in _variants(name, config):
        before = copy.deepcopy(inputs)
        expected = _outcome(lambda v=inputs: _load(name, config).compute(**v, **options))
        seen.add(expected[0])
        for path, run in PATHS.items():
            metric = _load(name, config)
            got = _outcome(lambda run=run, metric=metric, v=inputs: run(metric, v, options))
            where = f"{name} {config}, {label}, {path}"
            assert got[0] == expected[0], f"{where}: {got} but compute() {expected}"
            if expected[0] == "refused":
                assert got[1] == expected[1], where
            else:
                assert_same(got[1], expected[1], where)
        assert inputs == before  # and the caller's rows untouched
    assert "scored" in seen


def test_a_low_high_pair_is_not_the_character_it_would_pair_into():
    """Two lone surrogates and the one character a high-low pair stands for are different
    strings for the official scorer: escaped, they must stay different (and equal ones equal)."""
    gold = {"label": "SUPPORTS", "evidence": [[[None, None, "\U0001f600", 0]]]}
    predictions = [
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["\ud83d\ude00", 0]]},
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["\U0001f600", 0]]},
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["\ufdd0\U0001f600", 0]]},
    ]
    inputs = {"predictions": predictions * 2, "references": [gold] * 6}
    expected = official_fever(inputs)
    assert expected["strict_score"] == 1 / 3
    for run in PATHS.values():
        assert run(_load("fever_score", None), inputs, {}) == expected


# --- Official numbers -----------------------------------------------------------------------


def official_fever(inputs: dict, max_evidence: int | None = 5) -> dict:
    from fever.scorer import fever_score

    keys = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall")
    merged = [
        {**copy.deepcopy(p), **copy.deepcopy(r)}
        for p, r in zip(inputs["predictions"], inputs["references"])
    ]
    strict, accuracy, precision, recall, f1 = fever_score(merged, max_evidence=max_evidence)
    return dict(zip(keys, (strict, accuracy, precision, recall))) | {"evidence_f1": f1}


def test_fever_compute_on_unstorable_strings_is_the_official_scorer():
    for label, inputs in _variants("fever_score", None):
        got = _load("fever_score", None).compute(**inputs)
        assert got == official_fever(inputs), label


# Claims with doc ids Arrow cannot store as they are; the numbers are the SciFact leaderboard
# evaluator's (evaluator/eval.py: unify_label, then Evaluator(verbose=True).evaluate) on these
# claims in its own shapes, as Python objects (in a JSON file, the escapes of a high-low pair
# read back as the one character they stand for).
SCIFACT_REFERENCES = [
    {"id": 1, "evidence": [{"doc_id": "11", "label": "SUPPORT", "sentences": [0, 1]}]},
    {"id": 2, "evidence": [
        {"doc_id": "\ud800", "label": "SUPPORT", "sentences": [2]},
        {"doc_id": "\U0001f600", "label": "CONTRADICT", "sentences": [0]},
    ]},
    {"id": 3, "evidence": [
        {"doc_id": "\ufdd0\ud800", "label": "CONTRADICT", "sentences": [4, 5]},
        {"doc_id": "\ude00\ud83d", "label": "SUPPORT", "sentences": [1]},
    ]},
    {"id": 4, "evidence": []},
]  # fmt: skip
SCIFACT_PREDICTIONS = [
    {"id": 1, "evidence": [{"doc_id": "11", "label": "SUPPORT", "sentences": [1, 0]}]},
    {"id": 2, "evidence": [
        {"doc_id": "\ud800", "label": "SUPPORT", "sentences": [2, 3]},
        {"doc_id": "\ud83d\ude00", "label": "CONTRADICT", "sentences": [0]},
    ]},
    {"id": 3, "evidence": [
        {"doc_id": "\ufdd0\ud800", "label": "CONTRADICT", "sentences": [5]},
        {"doc_id": "\ud83d\ude00", "label": "SUPPORT", "sentences": [1]},
    ]},
    {"id": 4, "evidence": [{"doc_id": "\ufdd0", "label": "SUPPORT", "sentences": [0]}]},
]  # fmt: skip
SCIFACT_OFFICIAL = {
    "abstract_label_only_precision": 0.5,
    "abstract_label_only_recall": 0.6,
    "abstract_label_only_f1": 0.5454545454545454,
    "abstract_rationalized_precision": 0.3333333333333333,
    "abstract_rationalized_recall": 0.4,
    "abstract_rationalized_f1": 0.3636363636363636,
    "sentence_selection_precision": 0.375,
    "sentence_selection_recall": 0.42857142857142855,
    "sentence_selection_f1": 0.39999999999999997,
    "sentence_label_precision": 0.375,
    "sentence_label_recall": 0.42857142857142855,
    "sentence_label_f1": 0.39999999999999997,
}


@pytest.mark.parametrize("name", ["scifact_abstract", "scifact_sentence"])
def test_scifact_unstorable_doc_ids_give_the_official_numbers_on_every_path(name):
    inputs = {"predictions": SCIFACT_PREDICTIONS, "references": SCIFACT_REFERENCES}
    expected = {k: v for k, v in SCIFACT_OFFICIAL.items() if k.startswith(name.split("_")[1])}
    direct = _load(name, None).compute(**inputs, details=True)
    assert {k: v for k, v in direct.items() if k != "details"} == expected
    doc_ids = {d["doc_id"] for d in direct["details"]}
    assert {"\ud800", "\U0001f600", HIGH_LOW, "\ufdd0", "\ude00\ud83d"} <= doc_ids
    for path, run in PATHS.items():
        assert_same(run(_load(name, None), inputs, {"details": True}), direct, path)


# --- Distributed ----------------------------------------------------------------------------

WORKER = textwrap.dedent(
    """
    import pickle, sys
    import taskeval
    with open(sys.argv[1], "rb") as f:
        jobs, cache_dir = pickle.load(f)
    rank = int(sys.argv[2])
    results = []
    for experiment, name, config, inputs, options, split in jobs:
        metric = taskeval.load(
            name, config, num_process=2, process_id=rank, experiment_id=experiment,
            cache_dir=cache_dir, timeout=120,
        )
        mine = slice(0, split) if rank == 0 else slice(split, None)
        preds, refs = inputs["predictions"][mine], inputs["references"][mine]
        metric.add_batch(predictions=preds[:2], references=refs[:2])
        metric.add_batch(predictions=preds[2:], references=refs[2:])
        results.append(metric.compute(**options))
    sys.stdout.buffer.write(pickle.dumps(results))
    """
)


def test_num_process_2_gives_the_numbers_of_compute(tmp_path):
    """Rank 0 reads both ranks' rows, stored escaped where they had to be, and restores them:
    rank 1's too when rank 0 itself had nothing to escape (split after the plain rows)."""
    jobs, expected = [], []
    for param in CASES:
        name, config = param.values
        options = _options(_load(name, config))
        for i, (label, inputs) in enumerate(_variants(name, config)):
            split = PLAIN_ROWS if i % 2 else len(inputs["predictions"]) // 2
            kind, result = _outcome(
                lambda n=name, c=config, v=inputs, o=options: _load(n, c).compute(**v, **o)
            )
            if kind == "scored":
                jobs.append((uuid.uuid4().hex, name, config, inputs, options, split))
                expected.append((f"{name} {config}, {label}, split at {split}", result))
    spec = tmp_path / "jobs.pickle"
    spec.write_bytes(pickle.dumps((jobs, str(tmp_path / "cache"))))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(spec), str(rank)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
        )
        for rank in (0, 1)
    ]
    outputs = [p.communicate(timeout=900) for p in procs]
    for p, (_, err) in zip(procs, outputs):
        assert p.returncode == 0, err.decode(errors="replace")[-3000:]
    rank0, rank1 = (pickle.loads(out) for out, _ in outputs)
    assert rank1 == [None] * len(jobs)
    for (where, result), got in zip(expected, rank0, strict=True):
        assert_same(got, result, where)


# --- A refused call leaves nothing behind ---------------------------------------------------


def _refused_by_add_batch(name: str, config: str | None, inputs: dict) -> bool:
    """Whether add_batch refuses ``inputs`` (some invalid inputs are refused only by compute(),
    such as options or no rows at all)."""
    try:
        _load(name, config).add_batch(**inputs)
    except ValueError:
        return True
    return False


@pytest.mark.parametrize(("name", "config"), CASES)
def test_a_refused_call_leaves_nothing_behind(name, config, tmp_path):
    options = _options(_load(name, config))
    variants = dict(_variants(name, config))
    refused = [v for v in variants.values() if _outcome(lambda v=v: _load(name, config)
               .compute(**v))[0] == "refused"]  # fmt: skip
    inputs = variants["every field that takes them"]
    preds, refs = inputs["predictions"], inputs["references"]
    expected = _load(name, config).compute(**inputs, **options)
    metric = _load(name, config, cache_dir=str(tmp_path))
    metric.add_batch(predictions=preds[:4], references=refs[:4])
    # a bad row in the middle of a batch that would start escaping
    with pytest.raises(ValueError, match=r"^predictions\[5\]"):
        metric.add_batch(predictions=[preds[4], 42, preds[5]], references=refs[4:7])
    with pytest.raises(ValueError, match=r"^references\[4\]"):
        metric.add(prediction=preds[4], reference="not a row")
    with pytest.raises(ValueError):
        metric.add_batch(predictions=preds[4:7], references=refs[4:6])  # lengths differ
    for bad in refused:  # unstorable strings where the metric takes none
        with pytest.raises(ValueError):
            metric.add_batch(predictions=bad["predictions"][4:], references=bad["references"][4:])
    for case in _entry(name).invalid_cases:  # wrong types, missing fields, ... (those add refuses)
        if case.config_name in (None, config) and _refused_by_add_batch(name, config, case.inputs):
            with pytest.raises(ValueError):
                metric.add_batch(**case.inputs)
    with pytest.raises(ValueError, match=r"^predictions\[4\]"):
        metric.compute(predictions=[42], references=refs[4:5], **options)
    metric.add_batch(predictions=preds[4:8], references=refs[4:8])
    metric.add(prediction=preds[8], reference=refs[8])
    with pytest.raises(ValueError, match=r"^predictions\[10\]"):
        metric.add_batch(predictions=[preds[9], None], references=refs[9:11])
    metric.add_batch(predictions=preds[9:], references=refs[9:])
    # options refused before any row is read: the rows stay for the next compute()
    with pytest.raises(ValueError, match=r"takes no option 'bogus' \(its options: .*details"):
        metric.compute(bogus=1, **options)
    for option in contract(name).options:
        with pytest.raises(ValueError, match=option.name):
            metric.compute(**{**options, option.name: object()})
    assert_same(metric.compute(**options), expected, f"{name} {config}")
    # no cache file left (evaluate leaves the lock file of every compute(), empty)
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".lock"]
