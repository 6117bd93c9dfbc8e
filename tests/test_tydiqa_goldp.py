"""tydiqa_goldp: the official procedure and the other conventions, against numbers of the real code.

Every expected number below, and in ``tests/data/tydiqa_goldp/*/expected*.json``, was printed by
the real code on the same inputs (TyDi QA's split_predictions.py then the SQuAD 1.1 script per
language; XTREME's evaluate.py; lm-evaluation-harness's tydiqa utils and mean), written out by
``scripts/differential/tydiqa_goldp.py``; none is computed here by the metric's own functions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import taskeval
import taskeval.registry
from taskeval.compare import compare_rows
from taskeval.units import identity_scores

from entries.tydiqa_goldp import CASES, LANGUAGES, random_rows
from harness import assert_plain, assert_same, read_json, resample_one_by_one, run_cli

NAME = "tydiqa_goldp"
_metric = None


def metric():
    global _metric
    if _metric is None:
        _metric = taskeval.load(NAME)
    return _metric


def inputs(questions: list[tuple[str, list[str]]], pairs: list[tuple[str, str]]) -> dict:
    """compute() rows of questions ``(id, golds)`` and prediction pairs ``(id, text)``."""
    refs = [{"id": i, "answers": {"text": g, "answer_start": [0] * len(g)}} for i, g in questions]
    preds = [{"id": i, "prediction_text": t} for i, t in pairs]
    n = max(len(refs), len(preds))
    refs += [{"id": None}] * (n - len(refs))
    preds += [{"id": None}] * (n - len(preds))
    return {"predictions": preds, "references": refs}


def nested(flat: dict) -> dict:
    out = {k: v for k, v in flat.items() if "/" not in k}
    for key, value in flat.items():
        if "/" in key:
            _, language, name = key.split("/")
            out.setdefault("per_language", {}).setdefault(language, {})[name] = value
    return out


# ---------------------------------------------------------------------------------------------
# Conventions on the parity files


def _case_params():
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        for convention in ("official", "xtreme", "lm_eval"):
            name = "expected.json" if convention == "official" else f"expected_{convention}.json"
            if (case / name).exists():
                yield pytest.param(case, convention, name, id=f"{case.name}-{convention}")


@pytest.mark.parametrize("case,convention,expected", list(_case_params()))
def test_each_convention_equals_its_tool_on_the_parity_files(case, convention, expected):
    gold = case / "gold.json" if (case / "gold.json").exists() else case / "gold"
    rows = taskeval.read_official(NAME, references=gold, predictions=case / "predictions.json")
    result = metric().compute(**rows, convention=convention)
    assert_plain(result)
    assert_same(result, read_json(case / expected))
    files = taskeval.score_files(
        NAME, references=gold, predictions=case / "predictions.json", convention=convention
    )
    assert_same(files, read_json(case / expected))


def test_the_official_numbers_of_the_examples():
    """The Space's example files: every language, English left out of the mean."""
    folder = Path(__file__).resolve().parents[1] / "spaces" / NAME / "examples"
    rows = taskeval.read_official(
        NAME, references=folder / "gold.json", predictions=folder / "predictions.json"
    )
    assert_same(metric().compute(**rows), read_json(CASES / "examples" / "expected.json"))
    result = metric().compute(**rows)
    assert (result["exact_match"], result["f1"]) == (31.25, 43.75)


# ---------------------------------------------------------------------------------------------
# Where the conventions part (values printed by the real code on these rows)

UNICODE = (
    [("russian-1-0", ["Москва"]), ("bengali-2-0", ["ঢাকা"]), ("english-3-0", ["Beatles"]),
     ("arabic-4-0", ["كتاب"])],
    [("russian-1-0", "«Москва»"), ("bengali-2-0", "ঢাকা।"), ("english-3-0", "“Beatles”"),
     ("arabic-4-0", "الكتاب")],
)  # fmt: skip
ARTICLES = (
    [("swahili-1-0", ["The Beatles"]), ("english-2-0", ["the"]), ("finnish-3-0", ["yksi"]),
     ("indonesian-4-0", ["dan"])],
    [("swahili-1-0", "Beatles"), ("english-2-0", "a"), ("finnish-3-0", "yksi"),
     ("indonesian-4-0", "dan dan")],
)  # fmt: skip
MISSING = (
    [("korean-1-0", ["서울"]), ("korean-2-0", ["강"]), ("korean-1-0", ["서울"]),
     ("telugu-3-0", ["నది"]), ("english-4-0", ["the"])],
    [("korean-1-0", "서울 강"), ("korean-1-0", "서울"), ("telugu-9-9", "నది"),
     ("telugu-3-0", "నది నది"), ("english-99-0", "x")],
)  # fmt: skip

OFFICIAL = {
    "unicode": {
        "per_language/english/exact_match": 0.0, "per_language/english/f1": 0.0,
        "per_language/arabic/exact_match": 0.0, "per_language/arabic/f1": 0.0,
        "per_language/bengali/exact_match": 0.0, "per_language/bengali/f1": 0.0,
        "per_language/russian/exact_match": 0.0, "per_language/russian/f1": 0.0,
        "exact_match": 0.0, "f1": 0.0,
    },
    "articles": {
        "per_language/english/exact_match": 100.0, "per_language/english/f1": 0.0,
        "per_language/finnish/exact_match": 100.0, "per_language/finnish/f1": 100.0,
        "per_language/indonesian/exact_match": 0.0,
        "per_language/indonesian/f1": 66.66666666666666,
        "per_language/swahili/exact_match": 100.0, "per_language/swahili/f1": 100.0,
        "exact_match": 66.66666666666667, "f1": 88.88888888888887,
    },
    "missing": {
        "per_language/english/exact_match": 0.0, "per_language/english/f1": 0.0,
        "per_language/korean/exact_match": 66.66666666666667,
        "per_language/korean/f1": 66.66666666666667,
        "per_language/telugu/exact_match": 0.0, "per_language/telugu/f1": 66.66666666666666,
        "exact_match": 33.333333333333336, "f1": 66.66666666666666,
    },
}  # fmt: skip
LM_EVAL = {
    "unicode": {
        "per_language/english/exact_match": 1.0, "per_language/english/f1": 1.0,
        "per_language/arabic/exact_match": 1.0, "per_language/arabic/f1": 1.0,
        "per_language/bengali/exact_match": 1.0, "per_language/bengali/f1": 1.0,
        "per_language/russian/exact_match": 1.0, "per_language/russian/f1": 1.0,
    },
    "articles": {
        "per_language/english/exact_match": 1.0, "per_language/english/f1": 0.0,
        "per_language/finnish/exact_match": 1.0, "per_language/finnish/f1": 1.0,
        "per_language/indonesian/exact_match": 0.0,
        "per_language/indonesian/f1": 0.6666666666666666,
        "per_language/swahili/exact_match": 0.0, "per_language/swahili/f1": 0.6666666666666666,
    },
    "missing": {
        "per_language/english/exact_match": 1.0, "per_language/english/f1": 0.0,
        "per_language/korean/exact_match": 0.6666666666666666,
        "per_language/korean/f1": 0.6666666666666666,
        "per_language/telugu/exact_match": 0.0, "per_language/telugu/f1": 0.6666666666666666,
    },
}  # fmt: skip
ROWS = {"unicode": UNICODE, "articles": ARTICLES, "missing": MISSING}


@pytest.mark.parametrize("case", sorted(ROWS))
def test_official_and_lm_eval_on_the_edges(case):
    """Unicode punctuation kept by the SQuAD script, removed by lm-eval; English articles
    removed in every language (officially) or only in English; the Arabic article; a gold that
    normalises to nothing; a missing prediction (0, or an empty generation for lm-eval); an
    extra one (ignored); a repeated prediction id (the last counts); a repeated question."""
    rows = inputs(*ROWS[case])
    assert_same(metric().compute(**rows), nested(OFFICIAL[case]))
    assert_same(metric().compute(**rows, convention="lm_eval"), nested(LM_EVAL[case]))


def test_english_is_scored_but_never_averaged():
    rows = inputs([("english-1-0", ["a cat"]), ("arabic-2-0", ["x"])], [("english-1-0", "cat")])
    result = metric().compute(**rows)
    assert result["per_language"]["english"] == {"exact_match": 100.0, "f1": 100.0}
    assert (result["exact_match"], result["f1"]) == (0.0, 0.0)
    xtreme = metric().compute(**rows, convention="xtreme")
    assert (xtreme["avg_exact_match"], xtreme["avg_f1"], xtreme["avg_metric"]) == (50.0, 50.0, 50.0)


def test_only_english_has_no_average():
    rows = inputs([("english-1-0", ["cat"])], [("english-1-0", "cat")])
    result = metric().compute(**rows)
    assert (result["exact_match"], result["f1"]) == (None, None)
    assert result["per_language"] == {"english": {"exact_match": 100.0, "f1": 100.0}}


def test_a_language_without_any_prediction_scores_zero():
    """The official split writes no file for it (the shell loop would stop): the SQuAD script
    on an empty prediction object gives 0, which is what the metric reports."""
    rows = inputs([("telugu-1-0", ["x"]), ("arabic-2-0", ["y"])], [("arabic-2-0", "y")])
    result = metric().compute(**rows)
    assert result["per_language"]["telugu"] == {"exact_match": 0.0, "f1": 0.0}
    assert (result["exact_match"], result["f1"]) == (50.0, 50.0)


def test_the_average_sums_in_the_scored_order():
    """Languages averaged in eval_gold_passage_baseline.sh's order (arabic, bengali, finnish,
    indonesian, swahili, korean, russian, telugu), whatever the order of the rows. The SQuAD
    script gives F1 100, 66.66666666666666 and 33.33333333333333 here; their sum in that order
    over 3 is 66.66666666666667, in the rows' order (telugu first) 66.66666666666666."""
    questions = [("telugu-1-0", ["w0 w1"]), ("arabic-2-0", ["w0"]), ("bengali-3-0", ["w0"])]
    pairs = [("telugu-1-0", "w0 z0 z1 z2"), ("arabic-2-0", "w0"), ("bengali-3-0", "w0 z0")]
    result = metric().compute(**inputs(questions, pairs))
    assert {k: v["f1"] for k, v in result["per_language"].items()} == {
        "arabic": 100.0,
        "bengali": 66.66666666666666,
        "telugu": 33.33333333333333,
    }
    assert result["f1"] == 66.66666666666667
    assert list(result["per_language"]) == ["arabic", "bengali", "telugu"]


# ---------------------------------------------------------------------------------------------
# details


def test_details_say_why():
    rows = inputs(*ARTICLES)
    rows["references"].append({"id": "russian-5-0", "answers": {"text": ["Москва", "Мск"]}})
    rows["predictions"].append({"id": None})
    details = metric().compute(**rows, details=True)["details"]
    assert [d["id"] for d in details] == [
        "swahili-1-0", "english-2-0", "finnish-3-0", "indonesian-4-0", "russian-5-0"
    ]  # fmt: skip
    swahili, english, _, indonesian, russian = details
    assert swahili == {
        "id": "swahili-1-0",
        "language": "swahili",
        "prediction": "Beatles",
        "normalized_prediction": "beatles",
        "best_answer": "The Beatles",
        "normalized_answer": "beatles",
        "exact_match": True,
        "f1": 1.0,
        "why": "exact match after normalisation",
    }
    assert english["why"].startswith("both normalise to the empty string")
    assert (english["exact_match"], english["f1"]) == (True, 0.0)
    assert indonesian["why"] == "partial token overlap with the best answer"
    assert indonesian["f1"] == 0.6666666666666666
    assert russian["prediction"] is None and russian["why"].startswith("no prediction")
    lm = metric().compute(**rows, details=True, convention="lm_eval")["details"]
    assert lm[0]["normalized_answer"] == "the beatles"
    assert (lm[0]["exact_match"], lm[0]["f1"]) == (False, 0.6666666666666666)
    assert lm[4]["why"].startswith("no prediction, scored as an empty generation")


def test_details_pick_the_gold_that_matched():
    rows = inputs([("finnish-1-0", ["järvi suuri", "Helsinki", "helsinki!"])], [])
    rows["predictions"] = [{"id": "finnish-1-0", "prediction_text": "HELSINKI"}]
    record = metric().compute(**rows, details=True)["details"][0]
    assert (record["best_answer"], record["exact_match"]) == ("Helsinki", True)


# ---------------------------------------------------------------------------------------------
# Rows, paths and readers


def test_a_placeholder_first_row_goes_through_add_batch():
    """evaluate refuses a first row whose string field is None: placeholders are stored as ""."""
    rows = inputs([("arabic-1-0", ["x"])], [("arabic-9-0", "y")])
    rows["predictions"].insert(0, {"id": None})
    rows["references"].append({"id": None})
    rows["references"].reverse()
    one = taskeval.load(NAME, keep_in_memory=True)
    one.add_batch(**rows)
    assert_same(one.compute(), metric().compute(**rows))
    assert metric().compute(**rows)["f1"] == 0.0


def test_a_lone_surrogate_is_scored_alike_by_compute_and_add_batch():
    """Python's json reads an escaped lone surrogate, which Arrow cannot store as it is."""
    rows = inputs([("russian-1-0", ["x\ud800 y"])], [("russian-1-0", "x\ud800")])
    assert metric().compute(**rows)["f1"] == 66.66666666666666
    batched = taskeval.load(NAME, keep_in_memory=True)
    batched.add_batch(**rows)
    assert batched.compute()["f1"] == 66.66666666666666


def test_the_card_example():
    rows = inputs(
        [("swahili-2-0", ["The Beatles"]), ("english-3-0", ["1990"])],
        [("swahili-2-0", "the Beatles band"), ("english-3-0", "1990 and 1994")],
    )
    result = metric().compute(**rows)
    assert result["f1"] == 66.66666666666666
    assert result["per_language"]["english"] == {"exact_match": 0.0, "f1": 50.0}


def test_answers_as_squad_records_score_alike():
    rows = inputs(*ARTICLES)
    records = [
        {"id": r["id"], "answers": [{"text": t, "answer_start": 0} for t in r["answers"]["text"]]}
        for r in rows["references"]
    ]
    assert_same(
        metric().compute(predictions=rows["predictions"], references=records),
        metric().compute(**rows),
    )


def _write(path: Path, value) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


def test_gold_as_combined_file_folder_or_list(tmp_path):
    case = CASES / "drawn_per_language_folder"
    files = sorted((case / "gold").glob("*.json"))
    predictions = case / "predictions.json"
    expected = read_json(case / "expected.json")
    for references in (case / "gold", files, [str(f) for f in reversed(files)]):
        rows = taskeval.read_official(NAME, references=references, predictions=predictions)
        assert_same(metric().compute(**rows), expected)
    combined = {"version": "1.1", "data": []}
    # Languages in another order; each keeps the order of its questions (on which the sums of
    # its numbers depend to the last bit).
    for f in random.Random(0).sample(files, len(files)):
        combined["data"] += read_json(f)["data"]
    rows = taskeval.read_official(
        NAME, references=_write(tmp_path / "dev.json", combined), predictions=predictions
    )
    assert_same(metric().compute(**rows), expected)


@pytest.mark.parametrize(
    "gold,predictions,fragments",
    [
        ("{", {}, ("gold.json", "not JSON")),
        ({"version": "1.1"}, {}, ("gold.json", "'data'")),
        ({"data": [{"paragraphs": [{"qas": [{"id": "arabic-1"}]}]}]}, {}, ("qas[0]", "answers")),
        ({"data": [{"paragraphs": [{"qas": [{"answers": []}]}]}]}, {}, ("qas[0]", "'id'")),
        ({"data": [{"title": "t"}]}, {}, ("data[0]", "paragraphs")),
        ({"data": []}, ["arabic-1"], ("predictions.json", "JSON object")),
    ],
)
def test_reader_errors_name_the_file_and_place(tmp_path, gold, predictions, fragments):
    gold_path = tmp_path / "gold.json"
    if isinstance(gold, str):
        gold_path.write_text(gold, encoding="utf-8")
    else:
        _write(gold_path, gold)
    preds = _write(tmp_path / "predictions.json", predictions)
    with pytest.raises(ValueError) as info:
        taskeval.read_official(NAME, references=gold_path, predictions=preds)
    for fragment in fragments:
        assert fragment in str(info.value)


_EXPECTED = (
    "expected one JSON object {question id: answer text}, the file the official procedure splits"
)
_SQUAD_ROWS = [
    {"id": "arabic-1-0", "prediction_text": "x"},
    {"id": "swahili-2-0", "prediction_text": "y"},
]


@pytest.mark.parametrize(
    "content,message",
    [
        (
            "".join(json.dumps(row) + "\n" for row in _SQUAD_ROWS),
            'the predictions file is JSON Lines of {"id", "prediction_text"} records '
            f"(evaluate's squad rows); {_EXPECTED}: turn the lines into one object with "
            "jq -s 'map({(.id): .prediction_text}) | add'",
        ),
        (
            '{"arabic-1-0": "x"}\n{"swahili-2-0": "y"}\n',
            f"the predictions file is JSON Lines (one JSON value per line); {_EXPECTED}",
        ),
        (
            json.dumps(_SQUAD_ROWS),
            'the predictions file is a list of {"id", "prediction_text"} records (evaluate\'s '
            f"squad rows, which compute() takes); {_EXPECTED}: turn it into one with "
            "jq 'map({(.id): .prediction_text}) | add'",
        ),
        ("", f"the predictions file is empty; {_EXPECTED}"),
        (" \n", f"the predictions file is empty; {_EXPECTED}"),
        (
            '{"arabic-1-0": ' + "7" * 10_001 + "}",
            "the predictions file holds an integer of more than 4,300 digits, more than "
            "Python's json (and so the official script) reads",
        ),
        (
            '{"arabic-1-0": ' + "[" * 100_000 + "]" * 100_000 + "}",
            "the predictions file holds JSON nested too deeply to be read",
        ),
    ],
)
def test_predictions_of_another_form_are_named_with_the_form_expected(tmp_path, content, message):
    gold = _write(tmp_path / "gold.json", {"data": []})
    path = tmp_path / "predictions.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        taskeval.read_official(NAME, references=gold, predictions=path)
    assert str(refused.value) == f"{path}: {message}"


def test_reader_refuses_what_the_official_json_load_refuses(tmp_path):
    gold = _write(tmp_path / "gold.json", {"data": []})
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf{}")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"arabic-1": "caf\xe9"}')
    for bad in (bom, latin, tmp_path / "absent.json"):
        with pytest.raises(ValueError, match=bad.name):
            taskeval.read_official(NAME, references=gold, predictions=bad)


def test_the_official_split_refuses_an_unknown_language(tmp_path):
    case = CASES / "refused_thai_id"
    rows = taskeval.read_official(
        NAME, references=case / "gold.json", predictions=case / "predictions.json"
    )
    with pytest.raises(ValueError, match=r"predictions\[\d+\] \(id 'thai-123-0'\)"):
        metric().compute(**rows)


def test_references_from_hub():
    hub = [
        {"id": "arabic-1-0", "title": "t", "context": "c", "question": "q",
         "answers": {"text": ["كتاب", "الكتاب"], "answer_start": [3, 1]}},
        {"id": "english-2-0", "title": "t", "context": "c", "question": "q",
         "answers": {"text": ("the cat",), "answer_start": (0,)}},
    ]  # fmt: skip
    references = taskeval.references_from_hub(NAME, hub)
    assert references == [
        {"id": "arabic-1-0", "answers": {"text": ["كتاب", "الكتاب"], "answer_start": [3, 1]}},
        {"id": "english-2-0", "answers": {"text": ["the cat"], "answer_start": [0]}},
    ]
    predictions = [
        {"id": "english-2-0", "prediction_text": "cat dog"},
        {"id": "arabic-1-0", "prediction_text": "كتاب"},
    ]
    result = metric().compute(predictions=predictions, references=references)
    assert (result["exact_match"], result["f1"]) == (100.0, 100.0)
    assert result["per_language"]["english"] == {"exact_match": 0.0, "f1": 66.66666666666666}
    with pytest.raises(ValueError, match=r"rows\[1\] \(id 'thai-2-0'\)"):
        taskeval.references_from_hub(NAME, [hub[0], {**hub[1], "id": "thai-2-0"}])
    with pytest.raises(ValueError, match=r"rows\[0\]"):
        taskeval.references_from_hub(NAME, [{"id": "arabic-1-0"}])


# ---------------------------------------------------------------------------------------------
# Resampling (compare, score --ci): questions drawn within their language


def _statistics(convention: str):
    return taskeval.registry.contract(NAME).statistics(None, {"convention": convention})


def _padded(predictions: list, references: list) -> dict:
    n = max(len(predictions), len(references))
    return {
        "predictions": predictions + [{"id": None}] * (n - len(predictions)),
        "references": references + [{"id": None}] * (n - len(references)),
    }


@pytest.mark.parametrize("convention", ["official", "xtreme"])
def test_each_resample_scores_as_compute_scores_the_questions_drawn(convention):
    """A resample draws each language's questions with replacement, as many as it has; its
    scores are compute()'s on those questions (a question drawn twice counts twice)."""
    statistics = _statistics(convention)
    rng = random.Random(7)
    checked = 0
    for seed in range(25):
        rows = random_rows(random.Random(seed), 40)
        questions: dict[str, list] = {}  # per language, the gold rows in file order
        for row in rows["references"]:
            if row["id"] is not None:
                questions.setdefault(row["id"].split("-")[0], []).append(row)
        if not set(questions) - {"english"}:
            continue
        parts, identity, strata = statistics.units(rows)
        assert strata == [language for language in LANGUAGES if language in questions]
        assert {s: len(parts[s][0]) for s in strata} == {s: len(questions[s]) for s in strata}
        for _ in range(4):
            draws = {s: [rng.randrange(len(questions[s])) for _ in questions[s]] for s in strata}
            drawn = {s: tuple([part[i] for i in draws[s]] for part in parts[s]) for s in strata}
            # Languages interleaved at random, each keeping the order drawn (compute() groups
            # them by language itself, and sums each in its own order).
            queues = {s: [questions[s][i] for i in draws[s]] for s in strata}
            references = []
            while any(queues.values()):
                references.append(queues[rng.choice([s for s in strata if queues[s]])].pop(0))
            expected = metric().compute(
                **_padded(list(rows["predictions"]), references), convention=convention
            )
            assert statistics.score(drawn) == {key: expected[key] for key in statistics.keys}
            checked += 1
        # the sample itself, in the official order
        sample = {s: tuple([part[i] for i in identity[s]] for part in parts[s]) for s in strata}
        whole = metric().compute(**rows, convention=convention)
        assert statistics.score(sample) == {key: whole[key] for key in statistics.keys}
    assert checked >= 80


def test_intervals_and_the_identity_path_on_the_parity_files():
    for case in ("drawn_combined", "examples"):
        rows = taskeval.read_official(
            NAME,
            references=CASES / case / "gold.json",
            predictions=CASES / case / "predictions.json",
        )
        for convention, keys in (
            ("official", ("exact_match", "f1")),
            ("xtreme", ("avg_exact_match", "avg_f1", "avg_metric")),
        ):
            expected = read_json(
                CASES
                / case
                / ("expected.json" if convention == "official" else "expected_xtreme.json")
            )
            assert identity_scores(NAME, rows, convention=convention) == {
                key: expected[key] for key in keys
            }
            result = compare_rows(NAME, [rows], resamples=50, workers=1, convention=convention)
            scores = result["systems"][0]["scores"]
            assert list(scores) == list(keys) and result["unit"] == "question"
            assert result["units"] == sum(1 for r in rows["references"] if r["id"] is not None)
            for key in keys:
                assert scores[key]["score"] == expected[key]
                assert scores[key]["low"] <= expected[key] <= scores[key]["high"]


@pytest.mark.parametrize("convention", ["official", "xtreme"])
@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_all_resamples_at_once_score_as_each_resample_scored_alone(convention, method, monkeypatch):
    """The vectorized sums (``resampled``) give every resample, bit for bit, what the
    convention's own aggregation gives the questions drawn, in chunks of any size."""
    import importlib

    compare_module = importlib.import_module("taskeval.compare")
    for seed in range(6):
        rng = random.Random(seed)
        references = random_rows(rng, 160)["references"]
        systems = []
        for _ in range(2):
            rows = random_rows(rng, 160)  # predictions for the same questions, and others
            golds = {r["id"]: r["answers"]["text"] for r in references if r["id"] is not None}
            preds = [
                {"id": i, "prediction_text": rng.choice([*golds[i], "x y", "z"])}
                for i in golds
                if rng.random() < 0.9
            ] + [p for p in rows["predictions"] if p["id"] is not None][:5]
            systems.append(_padded(preds, list(references)))
        if not {r["id"].split("-")[0] for r in references if r["id"]} - {"english"}:
            continue
        run = dict(method=method, resamples=60, seed=seed, convention=convention)
        fast = json.dumps(compare_rows(NAME, systems, **run))
        monkeypatch.setattr(compare_module, "_MANY_CELLS", 7)  # a resample or two per chunk
        chunked = json.dumps(compare_rows(NAME, systems, **run))
        resample_one_by_one(monkeypatch)
        alone = json.dumps(compare_rows(NAME, systems, workers=1, **run))
        monkeypatch.undo()
        assert fast == alone and chunked == alone, seed
        for system, rows in zip(json.loads(fast)["systems"], systems):  # compute()'s numbers
            assert system["official"] == metric().compute(**rows, convention=convention)


def test_resampled_sums_count_flags_and_add_floats_in_order():
    import numpy as np

    from taskeval._metrics.tydiqa_goldp.resampled import LanguageSums

    sums = LanguageSums()
    f1s = [0.1, 0.2, 0.3, 0, 0.7]
    picks = np.array([[0, 1, 2, 3, 4], [2, 1, 0, 3, 4], [2, 2, 2, 0, 1]])
    for ems in ([True, False, 1, 0, True], [1, 0, 2, 0, 1]):  # flags, and (never met) counts
        exact, f1 = sums("arabic", (ems, f1s), picks)
        for b, row in enumerate(picks.tolist()):
            em_sum = f1_sum = 0
            for i in row:
                em_sum += ems[i]
                f1_sum += f1s[i]
            assert exact[b] == 100.0 * em_sum / 5 and f1[b] == 100.0 * f1_sum / 5
    # 0.1 + 0.2 + 0.3 + 0 + 0.7 and 0.3 + 0.2 + 0.1 + 0 + 0.7 differ in the last bit: each
    # resample's sum is in its drawn order, not in a pairwise or sorted one
    assert f1[0] != f1[1]
    # A language without questions has no numbers, and the means leave it out, as the
    # convention's own aggregation leaves out a language it has no question of
    from taskeval._metrics.tydiqa_goldp.resampled import COMBINE

    assert sums("bengali", ([], []), picks[:, :0]) == ()
    other = sums("telugu", ([0, 1], [0.5, 0.25]), np.array([[0, 1], [1, 1], [0, 0]]))
    for convention, combine in COMBINE.items():
        with_empty = combine({"arabic": (exact, f1), "bengali": (), "telugu": other})
        without = combine({"arabic": (exact, f1), "telugu": other})
        assert with_empty.keys() == without.keys()
        assert all((with_empty[k] == without[k]).all() for k in without), convention
        assert (without[next(iter(without))] == (exact + other[0]) / 2).all()


def test_lm_eval_has_no_score_to_resample():
    rows = inputs([("arabic-1-0", ["x"])], [("arabic-1-0", "x")])
    with pytest.raises(ValueError, match=r"convention 'lm_eval' has no score over languages"):
        compare_rows(NAME, [rows], resamples=5, convention="lm_eval")
    only_english = inputs([("english-1-0", ["x"])], [("english-1-0", "x")])
    with pytest.raises(ValueError, match="no question of a language the convention averages"):
        compare_rows(NAME, [only_english], resamples=5)
    assert compare_rows(NAME, [only_english], resamples=5, convention="xtreme")["units"] == 1


def test_compare_and_ci_on_the_command_line(tmp_path):
    case = CASES / "examples"
    gold, first = case / "gold.json", case / "predictions.json"
    answers = read_json(first)
    answers["arabic-1003-0"] = "القاهرة"  # now right
    second = _write(tmp_path / "better.json", answers)
    code, out, err = run_cli(
        ["compare", NAME, "--references", str(gold), "--predictions", str(first), str(second),
         "--resamples", "200", "--convention", "xtreme", "--workers", "1"]
    )  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    for system, path in zip(result["systems"], (first, second)):
        rows = taskeval.read_official(NAME, references=gold, predictions=path)
        assert system["official"] == metric().compute(**rows, convention="xtreme")
    difference = result["comparisons"][0]["scores"]["avg_exact_match"]["difference"]
    first_em, second_em = (s["official"]["avg_exact_match"] for s in result["systems"])
    assert difference == second_em - first_em
    assert difference == pytest.approx(100 / 2 / 9)  # one of 2 Arabic questions, of 9 languages
    code, out, err = run_cli(
        ["score", NAME, "--references", str(gold), "--predictions", str(first), "--ci",
         "--resamples", "100"]
    )  # fmt: skip
    assert code == 0, err
    scores = json.loads(out)["systems"][0]["scores"]
    assert (scores["exact_match"]["score"], scores["f1"]["score"]) == (31.25, 43.75)
    code, out, err = run_cli(
        ["score", NAME, "--references", str(gold), "--predictions", str(first), "--ci",
         "--convention", "lm_eval"]
    )  # fmt: skip
    assert code != 0 and "use convention 'official' or 'xtreme'" in err
    code, out, err = run_cli(
        ["score", NAME, "--references", str(gold), "--predictions", str(first),
         "--convention", "squad"]
    )  # fmt: skip
    assert code != 0 and "expected official|xtreme|lm_eval, got 'squad'" in err


def test_goldp_systems_predicting_other_questions_are_named():
    first = inputs([("arabic-1-0", ["x"]), ("arabic-2-0", ["y"])], [("arabic-1-0", "x")])
    second = inputs(
        [("arabic-1-0", ["x"]), ("arabic-2-0", ["y"]), ("bengali-3-0", ["z"])],
        [("arabic-1-0", "x"), ("bengali-3-0", "z")],
    )
    with pytest.raises(ValueError) as refused:
        compare_rows(NAME, [first, second], names=["a", "b"], resamples=5)
    assert str(refused.value) == (
        "system 1 (b) and a predict other rows (ids 'bengali-3-0' only in b): a paired "
        "comparison needs predictions for the same rows"
    )


def test_goldp_outcome_of_a_question_as_the_chart_counts_it():
    from taskeval._metrics.tydiqa_goldp.contract import outcome

    assert outcome({"exact_match": True, "prediction": "x", "f1": 1.0}) == "exact match"
    assert outcome({"exact_match": False, "prediction": None, "f1": 0}) == "no prediction"
    assert outcome({"exact_match": False, "prediction": "x y", "f1": 0.5}) == "partial overlap"
    assert outcome({"exact_match": False, "prediction": "z", "f1": 0}) == "no token in common"
