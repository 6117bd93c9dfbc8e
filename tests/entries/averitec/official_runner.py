"""The official AVeriTeC scorers, unchanged, on a batch of cases: run by an interpreter that has
the nltk release under test (not taskeval's), from ``differential.py`` and ``make_parity.py``.

    PYTHON official_runner.py OFFICIAL_DIR EDITION CASES.json OUT.json

``OFFICIAL_DIR`` holds ``averitec-2024/evaluate_veracity.py`` (FEVER-7), ``averitec-2025/
averitec_evaluate.py`` (FEVER-8 at 547e9f7) and ``averitec-2023/eval.py`` with its
``utils.py`` (the AVeriTeC paper). Each case is ``{"case", "predictions", "references"}``
(the official JSON records) or, for 2025, ``{"case", "solution_csv", "submission_csv"}``.
OUT.json gets ``{"case", "result"}`` (the official numbers, unrounded) or ``{"case", "error"}``
per case (2023: a result with ``failed_after`` when ``eval.py`` printed every score and then
failed on its list of best examples).

* 2024: the evaluator's methods, called as the script's main program calls them.
* 2025: the solution and submission read with pandas as ``compute()`` reads them (the gold
  split's ids, sorted by id, the ``split`` column left out) and the three Hungarian-METEOR
  methods called on them; the module's API clients (Hugging Face Hub, Gemini, OpenAI) are
  stubbed, as nothing of them is called.
* ev2r: the Ev2R numbers of recorded judge answers (``{"case", "recording", "labels"}``),
  by the evaluator's own methods from the answers on.
* 2023: ``eval.py`` run as a program on the files, and the numbers it prints read back
  (``str`` of numpy floats is their shortest repr). Its ``utils`` imports ``leven``, which
  no scorer function calls: stubbed.
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import io
import json
import os
import runpy
import sys
import tempfile
import types
import warnings


def _module(name: str, path: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_2024(module, case: dict) -> dict:
    predictions, references = case["predictions"], case["references"]
    scorer = module.AVeriTeCEvaluator()
    fresh = copy.deepcopy  # the script changes the gold's answers in place
    veracity = scorer.evaluate_veracity(fresh(predictions), fresh(references))
    levels = scorer.averitec_reporting_levels
    return {
        "q": float(scorer.evaluate_questions_only(fresh(predictions), fresh(references))),
        "qa": float(scorer.evaluate_questions_and_answers(fresh(predictions), fresh(references))),
        "veracity": {k: float(v) for k, v in veracity.items()},
        "averitec": dict(
            zip(
                map(str, levels),
                map(float, scorer.evaluate_averitec_score(fresh(predictions), fresh(references))),
            )
        ),
        "by_type": {
            k: float(v)
            for k, v in scorer.evaluate_averitec_veracity_by_type(
                fresh(predictions), fresh(references), threshold=0.25
            ).items()
        },
    }


def run_2025(module, pandas, case: dict, folder: str) -> dict:
    paths = {}
    for side in ("solution", "submission"):
        paths[side] = os.path.join(folder, side + ".csv")
        with open(paths[side], "w", encoding="utf-8", newline="") as handle:
            handle.write(case[side + "_csv"])
    solution = pandas.read_csv(paths["solution"])
    submission = pandas.read_csv(paths["submission"])
    gold_ids = solution[solution.split == "gold"]["id"].values
    frames = []
    for frame in (submission, solution):
        kept = frame[frame["id"].isin(gold_ids)].sort_values("id").reset_index(drop=True)
        frames.append(kept[[c for c in solution.columns if c != "split"]])
    scorer = module.AVeriTeCEvaluator()
    q, _ = scorer.evaluate_questions_only(*frames)
    qa, _ = scorer.evaluate_questions_and_answers(*frames)
    averitec, _ = scorer.evaluate_averitec_score(*frames)
    return {"q": float(q), "qa": float(qa), "averitec": {"0.25": float(averitec[0])}}


def _printed(text: str) -> dict:
    """The numbers eval.py prints: ``name: value`` lines; the two lists by claim type (after
    the second and third rule of dashes) apart."""
    found: dict = {"by_type": [{}, {}]}
    rules = 0
    for line in text.splitlines():
        if line.startswith("--------------------"):
            rules += 1
            continue
        if line.startswith("Printing"):
            break
        if ":" not in line:
            continue
        key, value = line.rsplit(":", 1)
        key = key.strip().lstrip("*").strip()
        try:
            number = float(value)
        except ValueError:
            continue
        if rules >= 2 and key.startswith("Veracity scores (") and "@" not in key:
            found["by_type"][rules - 2][key[len("Veracity scores (") : -1]] = number
        else:
            found[key] = number
    return found


def run_2023(script: str, case: dict, folder: str) -> dict:
    paths = {}
    for side in ("predictions", "references"):
        paths[side] = os.path.join(folder, side + ".json")
        with open(paths[side], "w", encoding="utf-8") as handle:
            json.dump(case[side], handle)
    sys.argv = [
        "eval.py",
        "--predictions",
        paths["predictions"],
        "--references",
        paths["references"],
    ]
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            runpy.run_path(script, run_name="__main__")
    except Exception as error:
        if "Printing 5 best examples" not in printed.getvalue():
            raise
        # every score was printed; the list of best examples after them failed
        return {**_printed(printed.getvalue()), "failed_after": f"{type(error).__name__}: {error}"}
    return _printed(printed.getvalue())


def run_ev2r(module, pandas, case: dict) -> dict:
    """FEVER-8's Ev2R numbers of recorded judge answers: its own methods, from the answers on
    (the model is never called)."""
    evaluator = module.EV2REvaluator.__new__(module.EV2REvaluator)  # no API client

    def answers(kind: str) -> list:
        return [
            None if a is None else types.SimpleNamespace(id=a.get("id"), response=a["response"])
            for a in case["recording"].get(kind, [])
        ]

    with contextlib.redirect_stdout(io.StringIO()):  # it prints each failed answer
        q = [
            None if a is None else evaluator.calculate_question_score_prec_recall_openai_response(a)
            for a in answers("question")
        ]
        qa = [
            None if a is None else evaluator.calculate_atomic_score_prec_recall_openai_response(a)
            for a in answers("qa_pair")
        ]
        predicted = pandas.DataFrame({"label": [p for p, _ in case["labels"]]})
        gold = pandas.DataFrame({"label": [g for _, g in case["labels"]]})
        q_recall, _ = evaluator.extract_recall_score(q)
        new_score, _, qa_recall, _ = evaluator.extract_ev2r_score(predicted, gold, qa)
    return {
        "ev2r_q_recall": float(q_recall),
        "ev2r_qa_recall": float(qa_recall),
        "ev2r@0.5": float(new_score[0]),
    }


def main(official: str, edition: str, source: str, target: str) -> None:
    warnings.filterwarnings("ignore")  # scikit-learn's undefined-metric warnings
    os.environ["TQDM_DISABLE"] = "1"
    with open(source, encoding="utf-8") as handle:
        cases = json.load(handle)
    folder = tempfile.mkdtemp(prefix="averitec-official-")
    if edition == "2024":
        module = _module(
            "evaluate_veracity", os.path.join(official, "averitec-2024", "evaluate_veracity.py")
        )
        score = lambda case: run_2024(module, case)  # noqa: E731
    elif edition in ("2025", "ev2r"):
        for name in ("huggingface_hub", "google", "google.generativeai", "openai"):
            sys.modules[name] = types.ModuleType(name)
        sys.modules["huggingface_hub"].hf_hub_download = None
        sys.modules["google"].generativeai = sys.modules["google.generativeai"]
        sys.modules["openai"].OpenAI = lambda **kwargs: None
        module = _module(
            "averitec_evaluate", os.path.join(official, "averitec-2025", "averitec_evaluate.py")
        )
        import pandas

        if edition == "ev2r":
            score = lambda case: run_ev2r(module, pandas, case)  # noqa: E731
        else:
            score = lambda case: run_2025(module, pandas, case, folder)  # noqa: E731
    else:
        sys.modules["leven"] = types.ModuleType("leven")
        sys.modules["leven"].levenshtein = None
        sys.path.insert(0, os.path.join(official, "averitec-2023"))
        script = os.path.join(official, "averitec-2023", "eval.py")
        score = lambda case: run_2023(script, case, folder)  # noqa: E731
    out = []
    for case in cases:
        try:
            out.append({"case": case["case"], "result": score(case)})
        except Exception as error:  # the official code failed on this case
            out.append({"case": case["case"], "error": f"{type(error).__name__}: {error}"})
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(out, handle, ensure_ascii=False)


if __name__ == "__main__":
    main(*sys.argv[1:5])
