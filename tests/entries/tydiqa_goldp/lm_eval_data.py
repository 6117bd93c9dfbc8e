"""Made-up TyDiQA-GoldP questions and generations in the harness's layout, and the task configs
that read them from local files: for the end-to-end tests (``test_lm_eval.py``) and the
differential check (``differential_lm_eval.py``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from taskeval import lm_eval_logs
from taskeval._metrics.tydiqa_goldp import lm_eval_task
from taskeval._metrics.tydiqa_goldp.scoring import LANGUAGES

TASKS = Path(lm_eval_logs.include_path()) / "tydiqa_goldp" / "lm_eval_tasks"
CODES = lm_eval_task.CODES
GROUP = lm_eval_task.GROUP
# Answers and generations: articles in and out of English, Arabic's ال, Unicode punctuation,
# case, spaces; so that the official rules and the harness's own part.
WORDS = ["the", "A", "an", "Beatles", "«Москва»", "Москва", "الكتاب", "كتاب", "ঢাকা।", "ঢাকা",
         "dan", "1990", "Helsinki.", "서울", "“x”", "x", "—", "Kiswahili", "తెలుగు"]  # fmt: skip


def _text(rng: random.Random, least: int = 0) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(least, 4)))


def made_up(seed: int) -> dict:
    """Hub ``secondary_task`` rows (validation, and a few for the few-shot split) and two
    systems' generations."""
    rng = random.Random(seed)
    rows = []
    for language in LANGUAGES:
        for n in range(rng.randint(3, 9)):
            golds = [_text(rng, 1) for _ in range(rng.choice([1, 1, 2, 3]))]
            rows.append(
                {
                    "id": f"{language}-{rng.randint(0, 10**12)}-{n}",
                    "title": "t",
                    "context": "c " + golds[0],
                    "question": "q",
                    "answers": {"text": golds, "answer_start": [2] * len(golds)},
                }
            )
    rng.shuffle(rows)  # the split's order, which each language keeps
    systems = []
    for _ in range(2):
        generations = {}
        for row in rows:
            gold = rng.choice(row["answers"]["text"])
            generations[row["id"]] = rng.choice(
                [gold, f" {gold.upper()} ", gold + ".", _text(rng), ""]
            )
        systems.append(generations)
    return {"rows": rows, "train": rows[:4], "systems": systems}


def official_files(data: dict, folder: Path) -> tuple[Path, list[Path]]:
    """The same questions as the official procedure's files: SQuAD 1.1 gold, predictions."""
    gold = {
        "version": "TyDiQA-GoldP-1.1-for-SQuAD-1.1",
        "data": [
            {
                "title": "t",
                "paragraphs": [
                    {
                        "context": row["context"],
                        "qas": [
                            {
                                "id": row["id"],
                                "question": row["question"],
                                "answers": [
                                    {"text": text, "answer_start": start}
                                    for text, start in zip(
                                        row["answers"]["text"], row["answers"]["answer_start"]
                                    )
                                ],
                            }
                        ],
                    }
                    for row in data["rows"]
                ],
            }
        ],
    }
    (folder / "gold.json").write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
    predictions = []
    for i, generations in enumerate(data["systems"]):
        path = folder / f"predictions{i}.json"
        path.write_text(json.dumps(generations, ensure_ascii=False), encoding="utf-8")
        predictions.append(path)
    return folder / "gold.json", predictions


def task_configs(data: dict, folder: Path) -> Path:
    """An include folder whose tasks are taskeval's, read from local JSON Lines instead of the
    Hub (and the harness's own tydiqa_goldp_<xx>, where it has them, likewise)."""
    for split, rows in (("validation", data["rows"]), ("train", data["train"])):
        lines = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        (folder / f"{split}.jsonl").write_text(lines, encoding="utf-8")
    tasks = folder / "tasks"
    tasks.mkdir()
    local = (
        "dataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n"
        f"    validation: {folder / 'validation.jsonl'}\n    train: {folder / 'train.jsonl'}\n"
    )
    for config in TASKS.glob(f"{GROUP}_*.yaml"):
        (tasks / config.name).write_text(f"include: {config}\n{local}", encoding="utf-8")
    group = TASKS / f"{GROUP}.yaml"
    (tasks / group.name).write_text(group.read_text(encoding="utf-8"), encoding="utf-8")
    for config in harness_own_configs():
        (tasks / f"own_{config.name}").write_text(f"include: {config}\n{local}", "utf-8")
    return tasks


def harness_own_configs() -> list[Path]:
    """The harness's own tydiqa_goldp_<xx> configs, where its release has them."""
    import lm_eval

    folder = Path(lm_eval.__file__).parent / "tasks" / "tydiqa"
    return sorted(folder.glob("tydiqa_goldp_*.yaml"))
