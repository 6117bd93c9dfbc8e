"""Metrics inside a transformers Trainer: compute_metrics and batch_eval_metrics.

A tiny randomly initialised BERT (no download) trains for a few steps on CPU; its label
predictions are mapped back to the metric's rows through the eval dataset's ids and scored. The
Trainer's logged numbers must equal a direct compute() on the same predictions.
"""

from __future__ import annotations

import random
import zlib

import pytest

import taskeval

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
datasets = pytest.importorskip("datasets")

pytestmark = pytest.mark.slow

FEVER_LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]


def tiny_model(num_labels: int):
    config = transformers.BertConfig(
        vocab_size=64,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=32,
        num_labels=num_labels,
    )
    torch.manual_seed(0)
    return transformers.BertForSequenceClassification(config)


def encode(texts: list[str], labels: list[int], ids: list) -> datasets.Dataset:
    """A whitespace 'tokenizer' over a 64-word hashed vocabulary: enough for a few steps."""
    length = 12
    input_ids = [
        [1, *[2 + zlib.crc32(w.encode()) % 60 for w in t.split()][: length - 1]] for t in texts
    ]
    input_ids = [ids_ + [0] * (length - len(ids_)) for ids_ in input_ids]
    return datasets.Dataset.from_dict(
        {
            "input_ids": input_ids,
            "attention_mask": [[int(i != 0) for i in row] for row in input_ids],
            "labels": labels,
            "row_id": ids,
        }
    )


def trainer_for(
    model, train, evaluation, compute_metrics, tmp_path, max_steps=3, learning_rate=1e-3, **kwargs
):
    args = transformers.TrainingArguments(
        max_steps=max_steps,
        output_dir=str(tmp_path / "out"),
        per_device_train_batch_size=8,
        per_device_eval_batch_size=8,
        learning_rate=learning_rate,
        use_cpu=True,
        report_to="none",
        save_strategy="no",
        logging_strategy="no",
        seed=0,
        **kwargs,
    )
    return transformers.Trainer(
        model=model,
        args=args,
        train_dataset=train,
        eval_dataset=evaluation,
        compute_metrics=compute_metrics,
    )


# --- FEVER: claim label prediction, with evidence from a (stub) retriever ----------------------


def fever_claims(n: int, seed: int) -> dict:
    rng = random.Random(seed)
    claims = {}
    for i in range(n):
        label = FEVER_LABELS[i % 3]
        page = f"Page_{rng.randint(0, 20)}"
        if label == "NOT ENOUGH INFO":
            gold = {"label": label, "evidence": [[[i, None, None, None]]]}
            retrieved = [[page, 0]]
        else:
            gold = {"label": label, "evidence": [[[i, i, page, rng.randint(0, 5)]]]}
            retrieved = [gold["evidence"][0][0][2:]] if rng.random() < 0.6 else [[page, 9]]
        claims[1000 + i] = {
            "text": f"claim {page} {label.lower()}",
            "gold": gold,
            "retrieved": retrieved,
        }
    return claims


def fever_rows(claims: dict, claim_ids, label_ids) -> dict:
    """Model outputs → fever_score rows, by claim id (the eval dataset's `row_id` column)."""
    predictions, references = [], []
    for claim_id, label in zip(claim_ids, label_ids):
        claim = claims[int(claim_id)]
        predictions.append(
            {"predicted_label": FEVER_LABELS[int(label)], "predicted_evidence": claim["retrieved"]}
        )
        references.append(claim["gold"])
    return {"predictions": predictions, "references": references}


def fever_datasets():
    claims = fever_claims(40, seed=1)
    ids = list(claims)
    texts = [claims[i]["text"] for i in ids]
    labels = [FEVER_LABELS.index(claims[i]["gold"]["label"]) for i in ids]
    return claims, encode(texts, labels, ids), encode(texts[:20], labels[:20], ids[:20])


def test_fever_compute_metrics_in_trainer(tmp_path):
    claims, train, evaluation = fever_datasets()
    metric = taskeval.load("fever_score")

    def compute_metrics(eval_pred):
        labels = eval_pred.predictions.argmax(-1)
        return metric.compute(**fever_rows(claims, evaluation["row_id"], labels))

    trainer = trainer_for(tiny_model(3), train, evaluation, compute_metrics, tmp_path)
    trainer.train()
    logged = trainer.evaluate()
    outputs = trainer.predict(evaluation)
    direct = taskeval.load("fever_score").compute(
        **fever_rows(claims, evaluation["row_id"], outputs.predictions.argmax(-1))
    )
    assert {k: logged[f"eval_{k}"] for k in direct} == direct


def test_fever_batch_eval_metrics_in_trainer(tmp_path):
    claims, train, evaluation = fever_datasets()
    metric = taskeval.load("fever_score")
    seen = {"rows": 0}

    def compute_metrics(eval_pred, compute_result: bool):
        # Batches come in eval-dataset order: the running offset maps them back to claim ids.
        labels = eval_pred.predictions.argmax(-1).cpu().numpy()
        start = seen["rows"]
        seen["rows"] += len(labels)
        metric.add_batch(**fever_rows(claims, evaluation["row_id"][start : seen["rows"]], labels))
        if compute_result:
            seen["rows"] = 0
            return metric.compute()
        return {}

    trainer = trainer_for(
        tiny_model(3), train, evaluation, compute_metrics, tmp_path, batch_eval_metrics=True
    )
    trainer.train()
    logged = trainer.evaluate()
    outputs = trainer.predict(evaluation)
    direct = taskeval.load("fever_score").compute(
        **fever_rows(claims, evaluation["row_id"], outputs.predictions.argmax(-1))
    )
    assert {k: logged[f"eval_{k}"] for k in direct} == direct


# --- TyDi QA: passage selection, rows made of the model's tensors as they come ------------------


def tydiqa_data(n: int, seed: int):
    """Arabic questions over 4 candidate passages; 3 annotators, two of them agreeing."""
    rng = random.Random(seed)
    references, texts, labels = [], [], []
    for i in range(n):
        passage = rng.randrange(4)
        answer = {"candidate_index": passage, "start_byte": -1, "end_byte": -1}
        null = {"candidate_index": -1, "start_byte": -1, "end_byte": -1}
        annotations = [answer, answer, null] if rng.random() < 0.8 else [null, null, answer]
        references.append(
            {
                "example_id": 7000 + i,
                "language": "arabic",
                "annotations": [{**a, "yes_no_answer": "NONE"} for a in annotations],
            }
        )
        texts.append(f"question {i} passage {passage}")
        labels.append(passage)
    return references, texts, labels


def tydiqa_rows(example_ids, logits) -> list[dict]:
    """Model outputs → prediction rows, leaving the argmax and the max logit as the model gives
    them (0-d torch tensors, or numpy scalars): the metric reads them as plain values."""
    return [
        {
            "example_id": example_id,
            "language": "arabic",
            "passage_answer_index": row.argmax(),
            "passage_answer_score": row.max(),
            "minimal_answer": {"start_byte_offset": -1, "end_byte_offset": -1},
            "minimal_answer_score": row.max(),
        }
        for example_id, row in zip(example_ids, logits)
    ]


def test_tydiqa_batch_eval_metrics_with_tensors_as_they_come(tmp_path):
    references, texts, labels = tydiqa_data(24, seed=3)
    ids = [r["example_id"] for r in references]
    dataset = encode(texts, labels, ids)
    metric = taskeval.load("tydiqa")
    seen = {"rows": 0, "types": set()}

    def compute_metrics(eval_pred, compute_result: bool):
        logits = eval_pred.predictions  # a torch tensor, float32
        start = seen["rows"]
        seen["rows"] += len(logits)
        rows = tydiqa_rows(ids[start : seen["rows"]], logits)
        seen["types"].add(type(rows[0]["passage_answer_index"]).__module__)
        metric.add_batch(predictions=rows, references=references[start : seen["rows"]])
        if compute_result:
            seen["rows"] = 0
            result = metric.compute()
            return {k: v for k, v in result.items() if k != "per_language"}
        return {}

    trainer = trainer_for(
        tiny_model(4), dataset, dataset, compute_metrics, tmp_path, batch_eval_metrics=True
    )
    trainer.train()
    logged = trainer.evaluate()
    assert seen["types"] == {"torch"}  # the rows held tensors, not converted values
    logits = trainer.predict(dataset).predictions  # numpy float32
    plain = [
        {
            **row,
            "passage_answer_index": int(row["passage_answer_index"]),
            "passage_answer_score": float(row["passage_answer_score"]),
            "minimal_answer_score": float(row["minimal_answer_score"]),
        }
        for row in tydiqa_rows(ids, logits)
    ]
    direct = taskeval.load("tydiqa").compute(predictions=plain, references=references)
    direct.pop("per_language")
    assert {k: logged[f"eval_{k}"] for k in direct} == direct
    # numpy scalars (compute_metrics without batch_eval_metrics) give the same numbers.
    numpy_rows = taskeval.load("tydiqa").compute(
        predictions=tydiqa_rows(ids, logits), references=references
    )
    numpy_rows.pop("per_language")
    assert numpy_rows == direct


# --- SciFact: abstract label prediction per claim–abstract pair, rows rebuilt per claim --------

SCIFACT_LABELS = ["SUPPORT", "CONTRADICT", "NOT_ENOUGH_INFO"]


def scifact_data(n_claims: int, seed: int):
    """Claims with gold abstracts and distractors; one classification row per claim–abstract pair."""
    rng = random.Random(seed)
    references, pairs = [], []
    for c in range(n_claims):
        claim_id, evidence = 100 + c, []
        for d in range(rng.randint(0, 2)):
            doc_id, label = str(5000 + 10 * c + d), rng.choice(SCIFACT_LABELS[:2])
            sentences = rng.sample(range(12), 6)  # rationales of one abstract are disjoint
            for r in range(rng.randint(1, 2)):
                evidence.append(
                    {
                        "doc_id": doc_id,
                        "label": label,
                        "sentences": sentences[3 * r : 3 * r + rng.randint(1, 3)],
                    }
                )
            pairs.append((claim_id, doc_id, label))
        pairs.append((claim_id, str(9000 + c), "NOT_ENOUGH_INFO"))  # a retrieved distractor
        references.append({"id": claim_id, "evidence": evidence})
    # A stub rationale selector: the first gold rationale's sentences, else sentences 0-1.
    rationale = {
        (r["id"], e["doc_id"]): e["sentences"] for r in references for e in reversed(r["evidence"])
    }
    return references, pairs, rationale


def scifact_rows(references, pairs, rationale, pair_ids, label_ids) -> dict:
    """Pair-level label predictions → one SciFact prediction row per claim, in gold order."""
    evidence: dict[int, list] = {r["id"]: [] for r in references}
    for pair_id, label in zip(pair_ids, label_ids):
        claim_id, doc_id, _ = pairs[int(pair_id)]
        if SCIFACT_LABELS[int(label)] != "NOT_ENOUGH_INFO":
            sentences = rationale.get((claim_id, doc_id), [0, 1])
            evidence[claim_id].append(
                {"doc_id": doc_id, "label": SCIFACT_LABELS[int(label)], "sentences": sentences}
            )
    predictions = [{"id": r["id"], "evidence": evidence[r["id"]]} for r in references]
    return {"predictions": predictions, "references": references}


def test_scifact_leaderboard_numbers_in_trainer(tmp_path):
    import evaluate

    references, pairs, rationale = scifact_data(30, seed=2)
    # The label's word is in the text, so a few steps learn something and the scores move.
    texts = [f"claim {c} abstract {label.lower()}" for c, _, label in pairs]
    labels = [SCIFACT_LABELS.index(label) for _, _, label in pairs]
    dataset = encode(texts, labels, list(range(len(pairs))))
    leaderboard = evaluate.combine(
        [taskeval.load("scifact_abstract"), taskeval.load("scifact_sentence")]
    )

    def compute_metrics(eval_pred):
        labels = eval_pred.predictions.argmax(-1)
        return leaderboard.compute(
            **scifact_rows(references, pairs, rationale, dataset["row_id"], labels)
        )

    trainer = trainer_for(
        tiny_model(3), dataset, dataset, compute_metrics, tmp_path, max_steps=40, learning_rate=1e-2
    )
    trainer.train()
    logged = trainer.evaluate()
    outputs = trainer.predict(dataset)
    rows = scifact_rows(
        references, pairs, rationale, dataset["row_id"], outputs.predictions.argmax(-1)
    )
    direct = {
        **taskeval.load("scifact_abstract").compute(**rows),
        **taskeval.load("scifact_sentence").compute(**rows),
    }
    assert len(direct) == 12
    assert any(row["evidence"] for row in rows["predictions"])  # abstracts were predicted
    assert {k: logged[f"eval_{k}"] for k in direct} == direct


def test_gather_with_accelerate_and_compute_on_the_main_process(tmp_path):
    """The second multi-process recipe, as the README gives it: strided shards (as torch's
    DistributedSampler deals rows), gathered with their row numbers, the file order restored on
    the main process before compute()."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from fever.scorer import fever_score as official

    from entries.fever_score import random_rows

    # Rows whose evidence precision sums to another last bit in the strided order.
    inputs = random_rows(random.Random(8), 12)
    file_order = taskeval.load("fever_score").compute(**inputs)
    assert file_order["evidence_precision"] == 0.2
    strided = {k: v[0::2] + v[1::2] for k, v in inputs.items()}
    assert taskeval.load("fever_score").compute(**strided)["evidence_precision"] == (
        0.19999999999999998
    )
    merged = [{**p, **r} for p, r in zip(inputs["predictions"], inputs["references"])]
    assert tuple(file_order.values()) == tuple(official(merged))

    path = tmp_path / "inputs.json"
    path.write_text(json.dumps(inputs), encoding="utf-8")
    worker = Path(__file__).with_name("accelerate_worker.py")
    done = subprocess.run(
        # torchrun: `accelerate launch --cpu --num_processes 2` starts a single process.
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
         str(worker), str(path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    printed = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(printed) == 1  # only the main process computes
    assert json.loads(printed[0]) == file_order
