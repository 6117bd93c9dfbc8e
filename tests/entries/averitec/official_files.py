"""The official files of ``compute()`` rows (the 2024 and 2023 JSON lists, the 2025 CSVs) and
the official runner's numbers under this metric's key names: shared by ``make_parity.py`` and
``differential.py``."""

from __future__ import annotations

import csv
import io
import json
import random
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERDICTS = ["Supported", "Refuted", "Not Enough Evidence", "Conflicting Evidence/Cherrypicking"]
NO_ANSWER = "No answer could be found."


def _answers(question: dict) -> list[dict]:
    answers = question["answers"]
    return [answers] if isinstance(answers, dict) else answers


def _official_questions(questions: list[dict]) -> list[dict]:
    official = []
    for question in questions:
        answers = []
        for answer in _answers(question):
            kept = {"answer": answer["answer"], "answer_type": answer["answer_type"]}
            if answer["boolean_explanation"] is not None:
                kept["boolean_explanation"] = answer["boolean_explanation"]
            answers.append(kept)
        as_given = answers[0] if isinstance(question["answers"], dict) else answers
        official.append({"question": question["question"], "answers": as_given})
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
        for answer in _answers(question):
            text = answer["answer"]
            if answer["answer_type"] == "Boolean":
                text += ". " + answer["boolean_explanation"]
            pairs.append((question["question"], text))
        if not _answers(question):
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
    out.update({f"averitec@{level}": x for level, x in result["averitec"].items()})
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
    return {
        "q_only": result["q"],
        "q_and_a": result["qa"],
        "averitec@0.25": result["averitec"]["0.25"],
    }


def run_official(python: str, official: str, edition: str, cases: list[dict]) -> dict[str, dict]:
    """``official_runner.py`` on ``cases`` in ``python``: its output by case."""
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder, "in.json"), Path(folder, "out.json")
        source.write_text(json.dumps(cases), encoding="utf-8")
        subprocess.run(
            [python, str(HERE / "official_runner.py"), official, edition, str(source), str(target)],
            check=True,
        )
        return {o["case"]: o for o in json.loads(target.read_text(encoding="utf-8"))}


def official_case(name: str, rows: dict, edition: str, rng: random.Random) -> dict:
    """A runner case of ``rows``: the files' contents."""
    if edition == "2025":
        return {"case": name, **official_2025(rows, rng)}
    return {"case": name, **official_json(rows, edition)}


def write_case(folder: Path, case: dict) -> tuple[Path, Path]:
    """The case's official files in ``folder``: ``(references, predictions)``."""
    folder.mkdir(parents=True, exist_ok=True)
    if "solution_csv" in case:
        references, predictions = folder / "solution.csv", folder / "submission.csv"
        references.write_text(case["solution_csv"], encoding="utf-8")
        predictions.write_text(case["submission_csv"], encoding="utf-8")
    else:
        references, predictions = folder / "dev.json", folder / "predictions.json"
        for path, side in ((references, "references"), (predictions, "predictions")):
            path.write_text(json.dumps(case[side], ensure_ascii=False, indent=1), encoding="utf-8")
    return references, predictions


def expected(edition: str, result: dict) -> dict:
    """The runner's numbers under this metric's keys."""
    return {"2024": expected_2024, "2025": expected_2025, "2023": expected_2023}[edition](result)
