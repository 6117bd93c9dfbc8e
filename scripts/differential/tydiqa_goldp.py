"""tydiqa_goldp against the real code of each convention, on random SQuAD-format files.

Each case draws TyDiQA-GoldP questions (every language prefix, several gold answers, empty and
whitespace answers, repeated ids) and a predictions JSON object biased toward the edges: Unicode
punctuation that the SQuAD script keeps, English articles in every language, the Arabic ال,
case changes that lengthen a string (İ), odd whitespace, repeated tokens, empty answers, missing
and extra predictions, repeated keys, and now and then an id the official split refuses.

* official: ``split_predictions.py`` (TyDi QA ``gold_passage_baseline/``) splits the predictions,
  then ``evaluate-v1.1.py`` (allenai/bi-att-flow) runs as a command on each language's gold file
  and prediction file, and the non-English languages are averaged (``sum / count``, in the order
  of ``eval_gold_passage_baseline.sh``). The shell loop itself reads an English file name the
  split never writes, so it is reproduced here; a language the split wrote no file for is scored
  on an empty prediction object.
* xtreme: google-research/xtreme ``evaluate.evaluate`` on a prediction folder and a label folder
  (``tydiqa/test-<xx>.json``); only cases with all nine languages (XTREME reads nine files).
* lm_eval: lm-evaluation-harness ``lm_eval/tasks/tydiqa/utils.py`` ``process_results_lang`` on
  each question (gold texts stripped as the Hub dataset strips them; a missing prediction an
  empty generation), then its ``mean`` aggregation.

taskeval goes through ``compute(**read_official(...))``, ``taskeval.score_files`` and, every
``--cli-every``-th case, ``taskeval score tydiqa_goldp``. The official folder holds
``tydiqa`` (google-research-datasets/tydiqa), ``bi-att-flow/squad/evaluate-v1.1.py``, ``xtreme``
(``evaluate.py`` and ``third_party/``) and ``lm-evaluation-harness`` (``lm_eval/tasks/tydiqa/
utils.py`` of the TyDiQA-GoldP tasks, ``lm_eval/api/metrics.py``). Needs ``absl-py``; XTREME's
``seqeval`` import (used only by its tagging tasks) is stubbed.

    python scripts/differential/tydiqa_goldp.py --official DIR --cases 10000
"""

from __future__ import annotations

import ast
import collections
import contextlib
import importlib.util
import io
import json
import random
import runpy
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Outcome, compare_values, run, taskeval_cli, taskeval_compute, taskeval_files

LANGUAGES = ["english", "arabic", "bengali", "finnish", "indonesian", "swahili", "korean"]
LANGUAGES += ["russian", "telugu"]
LOOP_ORDER = LANGUAGES  # eval_gold_passage_baseline.sh
ISO = {"english": "en", "arabic": "ar", "bengali": "bn", "finnish": "fi", "indonesian": "id"}
ISO |= {"swahili": "sw", "korean": "ko", "russian": "ru", "telugu": "te"}
WORDS = {
    "english": ["Beatles", "London", "river", "1990", "king", "Queen's", "co-op", "U.S.", "an"],
    "arabic": ["الكتاب", "كتاب", "القاهرة", "النيل", "مصر", "ال", "بال", "والد"],
    "bengali": ["ঢাকা", "নদী", "বাংলা", "১৯৭১", "রাজা"],
    "finnish": ["Helsinki", "järvi", "yksi", "se", "äa", "Suomi"],
    "indonesian": ["Jakarta", "dan", "pulau", "Jawa", "anak"],
    "swahili": ["Nairobi", "mji", "mkuu", "wa", "Kenya"],
    "korean": ["서울", "서울은", "대한민국", "수도", "강"],
    "russian": ["Москва", "столица", "России", "река", "Ёж"],
    "telugu": ["హైదరాబాద్", "తెలంగాణ", "రాజధాని", "నది"],
}
ARTICLES = ["a", "an", "the", "The", "A", "AN", "THE", "an"]
UNICODE_PUNCT = ["«", "»", "“", "”", "‘", "’", "،", "؟", "।", "॥", "—", "–", "…", "¿", "¡", "・"]
UNICODE_PUNCT += ["‹", "›", "「", "」", "、", "。", "״", "‐"]
ASCII_PUNCT = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
SYMBOLS = ["€", "°", "©", "$", "+", "^", "`", "|", "~", "·", "\u0301"]
SPACES = [" ", " ", "  ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\u200b", "\x1c", "\u2028"]
ODD = ["İ", "ß", "ﬁ", "Σ", "ΣΑ", "ǅ", "K"]  # lower() may change the length
BAD_IDS = ["thai-1-0", "japanese-2-0", "nohyphen", "English-3-0", "", "arabic"]

_modules: dict[str, Any] = {}


# ---------------------------------------------------------------------------------------------
# Drawing a case


def _token(rng: random.Random, language: str) -> str:
    roll = rng.random()
    if roll < 0.55:
        word = rng.choice(WORDS[language] + WORDS[rng.choice(LANGUAGES)][:2])
    elif roll < 0.7:
        word = rng.choice(ARTICLES)
    elif roll < 0.8:
        word = rng.choice(ODD) + rng.choice(WORDS[language])
    elif roll < 0.9:
        word = rng.choice(UNICODE_PUNCT + ASCII_PUNCT + SYMBOLS)
    else:
        word = str(rng.randint(0, 30))
    if rng.random() < 0.25:  # punctuation stuck to a word
        mark = rng.choice(UNICODE_PUNCT + ASCII_PUNCT + SYMBOLS)
        word = mark + word if rng.random() < 0.5 else word + mark
    if rng.random() < 0.1:
        word = word.upper() if rng.random() < 0.5 else word.capitalize()
    return word


def _text(rng: random.Random, language: str, size: int) -> str:
    words = [_token(rng, language) for _ in range(size)]
    out = rng.choice(["", "", " ", rng.choice(SPACES)])
    for word in words:
        out += word + rng.choice(SPACES)
    return out if rng.random() < 0.5 else out.strip()


def _perturb(rng: random.Random, gold: str, language: str) -> str:
    """A prediction near a gold answer: the kind of difference each convention treats apart."""
    roll = rng.random()
    if roll < 0.2:
        return gold
    if roll < 0.35:
        mark = rng.choice(UNICODE_PUNCT + ASCII_PUNCT)
        return rng.choice(UNICODE_PUNCT + ASCII_PUNCT) + gold + mark
    if roll < 0.45:
        return rng.choice(ARTICLES) + rng.choice(SPACES) + gold
    if roll < 0.55:
        return ("ال" if rng.random() < 0.7 else "") + gold
    if roll < 0.65:
        return gold + " " + gold
    if roll < 0.75:
        return gold.upper() if rng.random() < 0.5 else gold.lower()
    if roll < 0.85:
        tokens = gold.split()
        rng.shuffle(tokens)
        return rng.choice(SPACES).join(tokens[: rng.randint(0, len(tokens))])
    return gold + rng.choice(SPACES) + _text(rng, language, rng.randint(1, 3))


def _gold_answers(rng: random.Random, language: str) -> list[str]:
    answers = []
    for _ in range(rng.choice([1, 1, 1, 2, 3, 4])):
        roll = rng.random()
        if roll < 0.05:
            answers.append("")
        elif roll < 0.08:
            answers.append(rng.choice(SPACES) * 2)
        elif roll < 0.15 and answers:
            answers.append(rng.choice(answers))  # the same answer twice
        else:
            answers.append(_text(rng, language, rng.choice([1, 1, 2, 3, 5])))
    return answers


def draw(rng: random.Random) -> tuple[list[dict], list[tuple[str, Any]]]:
    """Questions ``{"id", "language", "answers"}`` in combined-file order and prediction pairs
    ``(id, text)`` in file order (a repeated key possible)."""
    languages = LANGUAGES if rng.random() < 0.9 else rng.sample(LANGUAGES, rng.randint(1, 8))
    questions = []
    for language in languages:
        for _ in range(rng.choice([1, 1, 2, 3, 5, 8])):
            tail = rng.choice([f"{rng.randint(0, 10**19)}-{rng.randint(0, 3)}", "x", "", "-1"])
            questions.append(
                {"id": f"{language}-{tail}", "language": language,
                 "answers": _gold_answers(rng, language)}
            )  # fmt: skip
    if rng.random() < 0.05:  # a question repeated in the gold file: both count
        questions.append(dict(rng.choice(questions)))
    rng.shuffle(questions)
    pairs: list[tuple[str, Any]] = []
    for q in questions:
        roll = rng.random()
        if roll < 0.1:
            continue  # no prediction
        if roll < 0.55:
            text = _perturb(rng, rng.choice(q["answers"]), q["language"])
        elif roll < 0.62:
            text = rng.choice(["", " ", rng.choice(ARTICLES), rng.choice(UNICODE_PUNCT)])
        else:
            text = _text(rng, q["language"], rng.randint(0, 6))
        pairs.append((q["id"], text))
    for _ in range(rng.choice([0, 0, 1, 2])):  # predictions for no question: ignored
        language = rng.choice(LANGUAGES)
        pairs.append((f"{language}-{rng.randint(0, 99)}-9", _text(rng, language, 2)))
    if pairs and rng.random() < 0.08:  # a repeated key: json.load keeps the last value
        example_id = rng.choice(pairs)[0]
        pairs.insert(rng.randint(0, len(pairs)), (example_id, _text(rng, "english", 2)))
    if rng.random() < 0.02:  # an id the official split refuses
        pairs.insert(rng.randint(0, len(pairs)), (rng.choice(BAD_IDS), "x"))
    rng.shuffle(pairs)
    return questions, pairs


# ---------------------------------------------------------------------------------------------
# Writing the files


def _squad(rng: random.Random, questions: list[dict]) -> dict:
    """A SQuAD 1.1 file of the questions, in order, cut into articles and paragraphs at random."""
    data, i = [], 0
    while i < len(questions):
        paragraphs = []
        for _ in range(rng.randint(1, 2)):
            chunk = questions[i : i + rng.randint(1, 3)]
            i += len(chunk)
            qas = [
                {"id": q["id"], "question": "?",
                 "answers": [{"text": a, "answer_start": rng.randint(0, 9)} for a in q["answers"]]}
                for q in chunk
            ]  # fmt: skip
            paragraphs.append({"context": "c", "qas": qas})
        data.append({"title": "t", "paragraphs": paragraphs})
    return {"version": "TyDiQA-GoldP-1.1-for-SQuAD-1.1", "data": data}


def _write_json(rng: random.Random, path: Path, value: Any) -> None:
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1]))
    path.write_text(text, encoding="utf-8")


def _write_pairs(rng: random.Random, path: Path, pairs: list[tuple[str, Any]]) -> None:
    """A JSON object written pair by pair, so that a key may repeat."""
    ascii_only = rng.random() < 0.5
    items = [
        json.dumps(k, ensure_ascii=ascii_only) + ": " + json.dumps(v, ensure_ascii=ascii_only)
        for k, v in pairs
    ]
    path.write_text("{" + rng.choice([", ", ",\n  "]).join(items) + "}", encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The real code


def _load_official(official: Path) -> dict[str, Any]:
    if _modules:
        return _modules
    from absl import logging

    logging.set_verbosity(logging.ERROR)
    spec = importlib.util.spec_from_file_location(
        "split_predictions", official / "tydiqa" / "gold_passage_baseline" / "split_predictions.py"
    )
    split = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(split)
    # XTREME's evaluate.py imports seqeval for its tagging tasks only.
    seqeval = types.ModuleType("seqeval")
    seqeval.metrics = types.ModuleType("seqeval.metrics")
    for name in ("f1_score", "precision_score", "recall_score"):
        setattr(seqeval.metrics, name, None)
    sys.modules.setdefault("seqeval", seqeval)
    sys.modules.setdefault("seqeval.metrics", seqeval.metrics)
    sys.path.insert(0, str(official / "xtreme"))  # for its ``third_party`` package
    spec = importlib.util.spec_from_file_location(
        "xtreme_evaluate", official / "xtreme/evaluate.py"
    )
    xtreme_evaluate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(xtreme_evaluate)
    sys.path.pop(0)  # its evaluate.py would shadow Hugging Face's evaluate
    lm_dir = official / "lm-evaluation-harness" / "lm_eval"
    spec = importlib.util.spec_from_file_location("lm_tydiqa", lm_dir / "tasks/tydiqa/utils.py")
    lm_utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lm_utils)
    # lm-eval's ``mean`` aggregation, taken from its file (the module imports the harness).
    tree = ast.parse((lm_dir / "api" / "metrics.py").read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "mean")
    node.decorator_list = []  # its registration in the harness's aggregation registry
    namespace: dict[str, Any] = {}
    exec(compile(ast.Module(body=[node], type_ignores=[]), "metrics.py", "exec"), namespace)
    _modules.update(
        split=split,
        squad=str(official / "bi-att-flow" / "squad" / "evaluate-v1.1.py"),
        xtreme=xtreme_evaluate,
        lm=lm_utils,
        mean=namespace["mean"],
    )
    return _modules


def _squad_cli(script: str, gold: Path, predictions: Path) -> dict:
    """``python evaluate-v1.1.py GOLD PREDICTIONS``: the JSON it prints."""
    out = io.StringIO()
    argv = sys.argv
    sys.argv = [script, str(gold), str(predictions)]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_path(script, run_name="__main__")
    finally:
        sys.argv = argv
    return json.loads(out.getvalue())


def official_procedure(mods: dict, folder: Path, predictions: Path, gold: dict[str, Path]) -> dict:
    """Split, score each language with the SQuAD script, average the non-English languages."""
    split_dir = folder / "split"
    split_dir.mkdir()
    split = mods["split"]
    split.FLAGS(["split_predictions", f"--input_json={predictions}", f"--output_dir={split_dir}"])
    split.main(["split_predictions"])
    values: dict[str, Any] = {}
    averaged: list[dict] = []
    for language in LOOP_ORDER:
        if language not in gold:
            continue
        name = "english-DO-NOT-AVERAGE" if language == "english" else language
        predict_file = split_dir / f"tydiqa-goldp-dev-predictions-{name}.json"
        if not predict_file.exists():  # the split writes no file for a language never predicted
            predict_file.write_text("{}", encoding="utf-8")
        scores = _squad_cli(mods["squad"], gold[language], predict_file)
        values.update({f"per_language/{language}/{k}": v for k, v in scores.items()})
        if language != "english":
            averaged.append(scores)
    if averaged:
        values["exact_match"] = sum(s["exact_match"] for s in averaged) / len(averaged)
        values["f1"] = sum(s["f1"] for s in averaged) / len(averaged)
    return values


def xtreme_scores(mods: dict, folder: Path, gold: dict[str, Path]) -> dict:
    preds_dir, labels_dir = folder / "xtreme-preds", folder / "xtreme-labels"
    for root in (preds_dir, labels_dir):
        (root / "tydiqa").mkdir(parents=True)
    for language, path in gold.items():
        name = "english-DO-NOT-AVERAGE" if language == "english" else language
        split_file = folder / "split" / f"tydiqa-goldp-dev-predictions-{name}.json"
        (preds_dir / "tydiqa" / f"test-{ISO[language]}.json").write_bytes(split_file.read_bytes())
        (labels_dir / "tydiqa" / f"test-{ISO[language]}.json").write_bytes(path.read_bytes())
    with contextlib.redirect_stderr(io.StringIO()):  # "Unanswered question ..."
        _, detailed = mods["xtreme"].evaluate(str(preds_dir), str(labels_dir), "xtreme")
    score = detailed["tydiqa"]
    values = {k: score[k] for k in ("avg_exact_match", "avg_f1", "avg_metric")}
    for language in LANGUAGES:
        for metric in ("exact_match", "f1"):
            values[f"per_language/{language}/{metric}"] = score[metric][ISO[language]]
    return values


def lm_eval_scores(mods: dict, questions: list[dict], predicted: dict) -> dict:
    values = {}
    for language in LANGUAGES:
        docs = [q for q in questions if q["language"] == language]
        if not docs:
            continue
        results = [
            mods["lm"].process_results_lang(
                {"answers": [a.strip() for a in q["answers"]]},  # as the Hub rows hold them
                [predicted.get(q["id"], "")],
                ISO[language],
            )
            for q in docs
        ]
        for metric in ("exact_match", "f1"):
            values[f"per_language/{language}/{metric}"] = mods["mean"]([r[metric] for r in results])
    return values


# ---------------------------------------------------------------------------------------------
# One case

COUNTS: collections.Counter = collections.Counter()  # values compared per convention


def _flat(result: dict) -> dict:
    out = {k: v for k, v in result.items() if k != "per_language"}
    for language, scores in result["per_language"].items():
        out.update({f"per_language/{language}/{k}": v for k, v in scores.items()})
    return out


def _compare(expected: dict, got: dict, where: str, outcome: Outcome, convention: str) -> None:
    before = outcome.values
    compare_values(expected, _flat(got), where, outcome)
    extra = set(_flat(got)) - set(expected) - {"exact_match", "f1"}
    if extra:
        outcome.differences.append(f"{where}: keys the official code does not print: {extra}")
    COUNTS[convention] += outcome.values - before


def check(rng: random.Random, official: Path, with_cli: bool) -> Outcome:
    outcome = Outcome()
    mods = _load_official(official)
    questions, pairs = draw(rng)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        predictions = folder / "predictions.json"
        _write_pairs(rng, predictions, pairs)
        gold: dict[str, Path] = {}
        for language in LANGUAGES:
            mine = [q for q in questions if q["language"] == language]
            if mine:
                gold[language] = folder / f"tydiqa-goldp-dev-{language}.json"
                _write_json(rng, gold[language], _squad(rng, mine))
        form = rng.choice(["combined", "folder", "list"])
        if form == "combined":
            references: Any = folder / "tydiqa-goldp-v1.1-dev.json"
            _write_json(rng, references, _squad(rng, questions))
        elif form == "folder":
            references = folder / "per-language"
            references.mkdir()
            for path in gold.values():
                (references / path.name).write_bytes(path.read_bytes())
        else:
            references = list(gold.values())
        try:
            expected = {"official": official_procedure(mods, folder, predictions, gold)}
        except ValueError:  # the split refuses an id: taskeval must refuse the case too
            outcome.skipped = True
            try:
                taskeval_compute("tydiqa_goldp", references, predictions)
            except ValueError:
                return outcome
            outcome.differences.append("the official split refused the case, taskeval scored it")
            return outcome
        if len(gold) == len(LANGUAGES):
            expected["xtreme"] = xtreme_scores(mods, folder, gold)
        expected["lm_eval"] = lm_eval_scores(mods, questions, dict(pairs))
        for convention, values in expected.items():
            options = {} if convention == "official" else {"convention": convention}
            try:
                got = taskeval_compute("tydiqa_goldp", references, predictions, **options)
                _compare(values, got, f"{convention} compute", outcome, convention)
                got = taskeval_files("tydiqa_goldp", references, predictions, **options)
                _compare(values, got, f"{convention} files", outcome, convention)
                # The command line with its default convention (taskeval's plain score path).
                if with_cli and convention == "official" and not isinstance(references, list):
                    got = taskeval_cli("tydiqa_goldp", references, predictions)
                    _compare(values, got, f"{convention} cli", outcome, convention)
            except ValueError as e:
                outcome.refusals.append(f"{convention} refused: {e}")
    return outcome


# ---------------------------------------------------------------------------------------------
# Parity cases: the official procedure's numbers on fixed files


def write_parity(official: Path, cases: Path) -> None:
    """For each ``cases/<name>/`` holding ``predictions.json`` and ``gold.json`` (or a ``gold/``
    folder of per-language files), write the official numbers to ``expected.json``, or the
    split's refusal to ``error.json``; a case where the split writes no file for a language the
    gold has is refused here (the shell loop would stop on it)."""
    mods = _load_official(official)
    for case in sorted(p for p in cases.iterdir() if p.is_dir()):
        gold_path = case / "gold.json" if (case / "gold.json").exists() else case / "gold"
        paths = [gold_path] if gold_path.is_file() else sorted(gold_path.glob("*.json"))
        questions = []
        for path in paths:
            for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
                for paragraph in article["paragraphs"]:
                    for qa in paragraph["qas"]:
                        language = qa["id"].split("-")[0]
                        questions.append({"id": qa["id"], "language": language, "qa": qa})
        for stale in (
            "expected.json",
            "error.json",
            "expected_xtreme.json",
            "expected_lm_eval.json",
        ):
            (case / stale).unlink(missing_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            gold = {}
            for language in LANGUAGES:
                qas = [q["qa"] for q in questions if q["language"] == language]
                if qas:
                    gold[language] = folder / f"{language}.json"
                    data = [{"title": "t", "paragraphs": [{"context": "c", "qas": qas}]}]
                    gold[language].write_text(json.dumps({"version": "1.1", "data": data}))
            try:
                split_dir = folder / "check"
                split_dir.mkdir()
                split = mods["split"]
                split.FLAGS(["split", f"--input_json={case / 'predictions.json'}",
                             f"--output_dir={split_dir}"])  # fmt: skip
                split.main(["split"])
            except ValueError as e:
                (case / "error.json").write_text(json.dumps({"split_predictions": str(e)}) + "\n")
                continue
            written = {p.name.split("-")[-1].removesuffix(".json") for p in split_dir.iterdir()}
            written = {"english" if w == "AVERAGE" else w for w in written}
            assert set(gold) <= written, f"{case.name}: no predictions for {set(gold) - written}"
            values = official_procedure(mods, folder, case / "predictions.json", gold)
            expected = {k: values[k] for k in ("exact_match", "f1") if k in values}
            expected["per_language"] = {
                language: {m: values[f"per_language/{language}/{m}"] for m in ("exact_match", "f1")}
                for language in LOOP_ORDER
                if language in gold
            }
            (case / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
            if len(gold) == len(LANGUAGES):
                _write_flat(case / "expected_xtreme.json", xtreme_scores(mods, folder, gold))
            predicted = json.loads((case / "predictions.json").read_text(encoding="utf-8"))
            for q in questions:
                q["answers"] = [a["text"] for a in q["qa"]["answers"]]
            _write_flat(case / "expected_lm_eval.json", lm_eval_scores(mods, questions, predicted))


def _write_flat(path: Path, values: dict) -> None:
    """``{"per_language/<language>/<key>": v, ...}`` as the metric's nested result."""
    out: dict[str, Any] = {k: v for k, v in values.items() if "/" not in k}
    for key, value in values.items():
        if "/" in key:
            _, language, metric = key.split("/")
            out.setdefault("per_language", {}).setdefault(language, {})[metric] = value
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["parity"]:  # parity OFFICIAL_DIR CASES_DIR
        write_parity(Path(sys.argv[2]), Path(sys.argv[3]))
        sys.exit(0)
    code = run("tydiqa_goldp", check)
    print(json.dumps({"values_compared_per_convention": dict(COUNTS)}))
    sys.exit(code)
