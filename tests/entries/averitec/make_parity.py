"""Build the parity cases of this entry with the official AVeriTeC scorers.

    python tests/entries/averitec/make_parity.py RUNNER PYTHON_391 PYTHON_3104 OUT_DIR

``RUNNER`` is a script, kept outside this repository, that runs the official scorers unchanged:
``PYTHON RUNNER EDITION CASES.json OUT.json`` imports FEVER-7's ``evaluate_veracity.py``
(EDITION 2024) or FEVER-8's ``averitec_evaluate.py`` at 547e9f7 (2025, its API modules stubbed)
from their files, or runs the AVeriTeC paper's ``eval.py`` (2023) and parses what it prints,
and for each case of CASES.json (the official JSON records as ``predictions`` and
``references``; 2025: ``solution_csv`` and ``submission_csv`` texts) calls them as their main
programs do, writing ``{"case", "result"}`` or ``{"case", "error"}`` (2023: both, when eval.py
printed every score and then failed on its list of best examples).
``PYTHON_391`` and ``PYTHON_3104`` are interpreters with nltk 3.9.1 and 3.10.4 (with scipy,
numpy, pandas and scikit-learn, and the nltk data under ``NLTK_DATA``).

Each case is a pair of official files (``dev.json`` and ``predictions.json``, or
``solution.csv`` and ``submission.csv``); ``OUT_DIR/cases.jsonl`` holds, for each case and each
nltk release, the options and the official numbers under this metric's key names (null where
the official scorer failed).
"""

from __future__ import annotations

import csv
import io
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

RELEASES = {"3.9.1": 1, "3.10.4": 2}  # the argument holding each release's Python
VERDICTS = ["Supported", "Refuted", "Not Enough Evidence", "Conflicting Evidence/Cherrypicking"]
NO_ANSWER = "No answer could be found."

README = """# Parity cases of `averitec`

Made by `../make_parity.py` with the official scorers (FEVER-7's `evaluate_veracity.py`,
FEVER-8's `averitec_evaluate.py` at 547e9f7 and the AVeriTeC paper's `eval.py`), run outside
this repository under nltk 3.9.1 and 3.10.4; `cases.jsonl` holds each case's options and the official numbers (under this metric's
key names; null where the official scorer failed). The claims are random text written for this
project by `../random_records.py` (no AVeriTeC data), released with it under its licence.
"""


def _official_questions(questions: list[dict]) -> list[dict]:
    official = []
    for question in questions:
        answers = []
        for answer in question["answers"]:
            kept = {"answer": answer["answer"], "answer_type": answer["answer_type"]}
            if answer["boolean_explanation"] is not None:
                kept["boolean_explanation"] = answer["boolean_explanation"]
            answers.append(kept)
        official.append({"question": question["question"], "answers": answers})
    return official


def official_json(rows: dict, edition: str) -> dict:
    """``compute()`` rows as the 2024 files (or the 2023 paper's) hold them."""
    predictions = []
    for k, row in enumerate(rows["predictions"]):
        record = {"claim_id": k, "claim": f"claim {k}"}
        record["pred_label" if edition == "2024" else "label"] = row["label"]
        fields = ("evidence", "string_evidence")
        if edition == "2023":
            fields = ("questions", "string_evidence", "justification")
        for field in fields:
            if row.get(field) is not None:
                value = row[field]
                record[field] = _official_questions(value) if field == "questions" else value
        predictions.append(record)
    references = [
        {
            "claim": f"claim {k}",
            "label": row["label"],
            "claim_types": row["claim_types"],
            "questions": _official_questions(row["questions"]),
            "justification": row["justification"],
        }
        for k, row in enumerate(rows["references"])
    ]
    return {"predictions": predictions, "references": references}


def _evi(pairs: list[tuple[str, str]]) -> str:
    return "\t\t\n\n".join(question + "\t\t\n" + answer for question, answer in pairs)


def _gold_pairs(row: dict) -> list[tuple[str, str]]:
    pairs = []
    for question in row["questions"]:
        for answer in question["answers"]:
            text = answer["answer"]
            if answer["answer_type"] == "Boolean":
                text += ". " + answer["boolean_explanation"]
            pairs.append((question["question"], text))
        if not question["answers"]:
            pairs.append((question["question"], NO_ANSWER))
    return pairs


def _csv(rows: list[list]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def official_2025(rows: dict, rng: random.Random) -> dict:
    """``compute()`` rows as the 2025 CSV files hold them: ids shuffled in the submission, a
    row of another split in the solution, a submission row for an id not in the gold."""
    n = len(rows["references"])
    solution = [["id", "claim", "evi", "label", "split"]]
    for k, row in enumerate(rows["references"]):
        solution.append([k, f"claim {k}", _evi(_gold_pairs(row)), row["label"], "gold"])
    solution.append([n + 5, "another claim", "q\t\t\na", "Refuted", "test"])
    submission = [
        [
            k,
            f"claim {k}",
            _evi([(p["question"], p["answer"]) for p in row["evidence"]]),
            row["label"],
        ]
        for k, row in enumerate(rows["predictions"])
    ]
    submission.append([n + 7, "extra", "q\t\t\na", "Supported"])
    rng.shuffle(submission)
    return {
        "solution_csv": _csv(solution),
        "submission_csv": _csv([["id", "claim", "evi", "label"], *submission]),
    }


def expected_2024(result: dict) -> dict:
    veracity = result["veracity"]
    out = {"q_only": result["q"], "q_and_a": result["qa"], "accuracy": veracity["acc"]}
    out["macro_f1"] = veracity["macro"]
    out.update({f"f1[{v}]": veracity[v] for v in VERDICTS})
    out.update(
        {f"averitec@{lv}": x for lv, x in zip(result["averitec_levels"], result["averitec"])}
    )
    out.update({f"by_type@0.25[{t}]": x for t, x in result["by_type"].items()})
    return out


def expected_2023(result: dict) -> dict:
    """The numbers eval.py prints (as the runner parses them) under this metric's keys."""
    out = {
        "q_only": result["Question-only score (HU-meteor)"],
        "q_and_a": result["Question-answer score (HU-meteor)"],
        "accuracy": result["acc"],
        "macro_f1": result["macro"],
    }
    out.update({f"f1[{v}]": result[v] for v in VERDICTS})
    out["justification"] = result["Justification score (meteor)"]
    for level in (0.1, 0.2, 0.25, 0.3, 0.4, 0.5):
        out[f"averitec@{level}"] = result[f"Veracity scores (meteor @ {level})"]
        out[f"justification@{level}"] = result[f"Justification scores (meteor @ {level})"]
    for level, types in zip((0.2, 0.3), result["by_type"]):
        out.update({f"by_type@{level}[{t}]": x for t, x in types.items()})
    return out


def expected_2025(result: dict) -> dict:
    return {"q_only": result["q"], "q_and_a": result["qa"], "averitec@0.25": result["averitec"]}


def run(python: str, runner: str, edition: str, cases: list[dict]) -> dict[str, dict]:
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder, "in.json"), Path(folder, "out.json")
        source.write_text(json.dumps(cases), encoding="utf-8")
        subprocess.run([python, runner, edition, str(source), str(target)], check=True)
        return {o["case"]: o for o in json.loads(target.read_text(encoding="utf-8"))}


def main(runner: str, pythons: dict[str, str], out: Path) -> None:
    sys.path.insert(0, str(HERE))
    from random_records import random_inputs  # the random rows of the differential check

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "README.md").write_text(README, encoding="utf-8")
    rng = random.Random(37)
    cases = {"2024": [], "2025": [], "2023": []}
    for edition, count in (("2024", 14), ("2025", 8), ("2023", 8)):
        for k in range(count):
            rows = random_inputs(rng, rng.randint(1, 9), edition)
            name = f"random-{edition}-{k}"
            folder = out / name
            folder.mkdir()
            if edition != "2025":
                files = official_json(rows, edition)
                (folder / "dev.json").write_text(
                    json.dumps(files["references"], ensure_ascii=False, indent=1), encoding="utf-8"
                )
                (folder / "predictions.json").write_text(
                    json.dumps(files["predictions"], ensure_ascii=False, indent=1),
                    encoding="utf-8",
                )
                cases[edition].append({"case": name, **files})
            else:
                files = official_2025(rows, rng)
                (folder / "solution.csv").write_text(files["solution_csv"], encoding="utf-8")
                (folder / "submission.csv").write_text(files["submission_csv"], encoding="utf-8")
                cases[edition].append({"case": name, **files})
    lines = []
    for edition, edition_cases in cases.items():
        for release, python in pythons.items():
            outputs = run(python, runner, edition, edition_cases)
            expect = {"2024": expected_2024, "2025": expected_2025, "2023": expected_2023}[edition]
            for case in edition_cases:
                found = outputs[case["case"]]
                lines.append(
                    {
                        "case": case["case"],
                        "options": {"edition": edition, "nltk": release},
                        "expected": expect(found["result"]) if "result" in found else None,
                    }
                )
    (out / "cases.jsonl").write_text(
        "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8"
    )


if __name__ == "__main__":
    main(sys.argv[1], {r: sys.argv[1 + k] for r, k in RELEASES.items()}, Path(sys.argv[4]))
