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


def fever_claims(n: int, seed: int) -> list[dict]:
    """The task's file: claim i is row i."""
    rng = random.Random(seed)
    claims = []
    for i in range(n):
        label = FEVER_LABELS[i % 3]
        page = f"Page_{rng.randint(0, 20)}"
        if label == "NOT ENOUGH INFO":
            gold = {"id": 1000 + i, "label": label, "evidence": [[[i, None, None, None]]]}
            retrieved = [[page, 0]]
        else:
            evidence = [[[i, i, page, rng.randint(0, 5)]]]
            gold = {"id": 1000 + i, "label": label, "evidence": evidence}
            retrieved = [evidence[0][0][2:]] if rng.random() < 0.6 else [[page, 9]]
        claims.append(
            {"text": f"claim {page} {label.lower()}", "gold": gold, "retrieved": retrieved}
        )
    return claims


def fever_rows_of(claims: list[dict]):
    """``rows`` for trainer_compute_metrics: row numbers and logits → fever_score rows."""

    def rows(row_ids: list[int], outputs: list) -> dict:
        return {
            "predictions": [
                {
                    "predicted_label": FEVER_LABELS[int(logits.argmax())],
                    "predicted_evidence": claims[i]["retrieved"],
                }
                for i, logits in zip(row_ids, outputs)
            ],
            "references": [claims[i]["gold"] for i in row_ids],
        }

    return rows


def fever_dataset(claims: list[dict], row_ids: list[int]) -> datasets.Dataset:
    return encode(
        [claims[i]["text"] for i in row_ids],
        [FEVER_LABELS.index(claims[i]["gold"]["label"]) for i in row_ids],
        row_ids,
    )


def direct_numbers(metric: str, rows, dataset: datasets.Dataset, logits) -> dict:
    """compute() on the dataset's rows in file order, the outputs paired by hand."""
    by_row = dict(zip(dataset["row_id"], logits))
    ordered = sorted(by_row)
    return taskeval.load(metric).compute(**rows(ordered, [by_row[i] for i in ordered]))


@pytest.mark.parametrize("batch_eval_metrics", [False, True])
def test_fever_evaluate_other_datasets_and_predict(tmp_path, batch_eval_metrics):
    """trainer.evaluate(other) and trainer.predict(test), of other sizes and orders than the
    eval dataset, score their own rows; so does the evaluation during training."""
    claims = fever_claims(60, seed=1)
    rng = random.Random(5)
    train = fever_dataset(claims, list(range(60)))
    evaluation = fever_dataset(claims, list(range(40)))
    other = fever_dataset(claims, rng.sample(range(30, 60), 21))  # shuffled, 21 rows
    test = fever_dataset(claims, list(range(59, 9, -3)))  # reversed, 17 rows
    rows = fever_rows_of(claims)
    trainer = trainer_for(
        tiny_model(3),
        train,
        evaluation,
        taskeval.trainer_compute_metrics("fever_score", rows),
        tmp_path,
        batch_eval_metrics=batch_eval_metrics,
        label_names=["labels", "row_id"],
        eval_strategy="steps",
        eval_steps=3,  # evaluates once during training, after the last step
    )
    trainer.train()
    during = [e for e in trainer.state.log_history if "eval_strict_score" in e]
    assert len(during) == 1
    numbers = {}
    for name, dataset in (("evaluation", evaluation), ("other", other), ("test", test)):
        predicted = trainer.predict(dataset)
        direct = direct_numbers("fever_score", rows, dataset, predicted.predictions)
        assert {k: predicted.metrics[f"test_{k}"] for k in direct} == direct
        logged = trainer.evaluate(eval_dataset=dataset)
        assert {k: logged[f"eval_{k}"] for k in direct} == direct
        numbers[name] = direct
    assert {k: during[0][f"eval_{k}"] for k in numbers["evaluation"]} == numbers["evaluation"]
    assert numbers["other"] != numbers["evaluation"] != numbers["test"]


def test_a_dataset_without_row_ids_is_named_before_metric_for_best_model_fails(tmp_path):
    """Without its row-id column the Trainer never calls compute_metrics; with the callback the
    evaluation stops there, naming the columns, instead of transformers' KeyError about
    metric_for_best_model. A dataset with the column passes it."""
    claims = fever_claims(24, seed=2)
    rows = fever_rows_of(claims)
    with_ids = fever_dataset(claims, list(range(24)))
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", rows)
    trainer = trainer_for(
        tiny_model(3),
        with_ids,
        with_ids.remove_columns("row_id"),
        compute_metrics,
        tmp_path,
        max_steps=1,
        label_names=["labels", "row_id"],
        eval_strategy="steps",
        eval_steps=1,
        metric_for_best_model="strict_score",
    )
    trainer.add_callback(compute_metrics.callback)
    with pytest.raises(ValueError) as stopped:
        trainer.train()
    assert str(stopped.value) == (
        "the Trainer evaluated without calling compute_metrics: the evaluated dataset needs "
        "every column of label_names=['labels', 'row_id'] (the row-id column 'row_id' "
        "included), one value per row"
    )
    assert "eval_strict_score" in trainer.evaluate(eval_dataset=with_ids)


def test_fever_misaligned_datasets_give_no_wrong_number(tmp_path):
    claims = fever_claims(12, seed=1)
    dataset = fever_dataset(claims, list(range(12)))
    trainer = trainer_for(
        tiny_model(3),
        dataset,
        dataset,
        taskeval.trainer_compute_metrics("fever_score", fever_rows_of(claims)),
        tmp_path,
        label_names=["labels", "row_id"],
    )
    # Rows evaluated twice (a dataset concatenated with itself) are refused.
    twice = datasets.concatenate_datasets([dataset, dataset.select([4])])
    with pytest.raises(ValueError, match="row id 4 was evaluated twice"):
        trainer.evaluate(eval_dataset=twice)
    # Without its row-id column a dataset has no labels, and the Trainer computes no metric.
    logged = trainer.evaluate(eval_dataset=dataset.remove_columns("row_id"))
    assert not [k for k in logged if "score" in k or "evidence" in k]
    # The same compute_metrics then scores a well-formed dataset.
    logged = trainer.evaluate()
    direct = direct_numbers(
        "fever_score", fever_rows_of(claims), dataset, trainer.predict(dataset).predictions
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


def tydiqa_rows_of(references: list[dict]):
    """Model outputs → rows, leaving the argmax and the max logit as numpy gives them (numpy
    scalars): the metric reads them as plain values."""

    def rows(row_ids: list[int], outputs: list) -> dict:
        return {
            "predictions": [
                {
                    "example_id": references[i]["example_id"],
                    "language": "arabic",
                    "passage_answer_index": logits.argmax(),
                    "passage_answer_score": logits.max(),
                    "minimal_answer": {"start_byte_offset": -1, "end_byte_offset": -1},
                    "minimal_answer_score": logits.max(),
                }
                for i, logits in zip(row_ids, outputs)
            ],
            "references": [references[i] for i in row_ids],
        }

    return rows


def test_tydiqa_batch_eval_metrics_with_nested_results(tmp_path):
    references, texts, labels = tydiqa_data(24, seed=3)
    dataset = encode(texts, labels, list(range(24)))
    rows = tydiqa_rows_of(references)
    trainer = trainer_for(
        tiny_model(4),
        dataset,
        dataset,
        taskeval.trainer_compute_metrics("tydiqa", rows),
        tmp_path,
        batch_eval_metrics=True,
        label_names=["labels", "row_id"],
    )
    trainer.train()
    subset = dataset.select([20, 3, 11, 7, 15, 0, 22, 9, 18])
    logged = trainer.evaluate(eval_dataset=subset)
    logits = trainer.predict(subset).predictions  # numpy float32
    direct = direct_numbers("tydiqa", rows, subset, logits)
    per_language = direct.pop("per_language")
    assert {k: logged[f"eval_{k}"] for k in direct} == direct
    assert {
        k: logged[f"eval_per_language/arabic/{k}"] for k in per_language["arabic"]
    } == per_language["arabic"]


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


def scifact_rows_of(references, pairs, rationale):
    """Pair-level label predictions → one SciFact row per claim of the evaluated pairs, in gold
    order (pairs are listed claim by claim, so pair numbers follow the claims' file order)."""

    def rows(pair_ids: list[int], outputs: list) -> dict:
        evidence: dict[int, list] = {}
        for pair_id, logits in zip(pair_ids, outputs):
            claim_id, doc_id, _ = pairs[pair_id]
            label = SCIFACT_LABELS[int(logits.argmax())]
            found = evidence.setdefault(claim_id, [])
            if label != "NOT_ENOUGH_INFO":
                sentences = rationale.get((claim_id, doc_id), [0, 1])
                found.append({"doc_id": doc_id, "label": label, "sentences": sentences})
        gold = [r for r in references if r["id"] in evidence]
        predictions = [{"id": r["id"], "evidence": evidence[r["id"]]} for r in gold]
        return {"predictions": predictions, "references": gold}

    return rows


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
    rows = scifact_rows_of(references, pairs, rationale)
    trainer = trainer_for(
        tiny_model(3),
        dataset,
        dataset,
        taskeval.trainer_compute_metrics(leaderboard, rows),
        tmp_path,
        max_steps=40,
        learning_rate=1e-2,
        label_names=["labels", "row_id"],
    )
    trainer.train()
    half = dataset.select(range(len(pairs) - 1, -1, -2))  # every other pair, reversed
    for evaluated in (dataset, half):
        logged = trainer.evaluate(eval_dataset=evaluated)
        outputs = trainer.predict(evaluated).predictions
        by_row = dict(zip(evaluated["row_id"], outputs))
        inputs = rows(sorted(by_row), [by_row[i] for i in sorted(by_row)])
        direct = {
            **taskeval.load("scifact_abstract").compute(**inputs),
            **taskeval.load("scifact_sentence").compute(**inputs),
        }
        assert len(direct) == 12
        assert any(row["evidence"] for row in inputs["predictions"])  # abstracts were predicted
        assert {k: logged[f"eval_{k}"] for k in direct} == direct


def test_trainer_in_two_processes_scores_the_rows_evaluated(tmp_path):
    """torchrun, two processes: the Trainer shards an odd-sized shuffled dataset, gathers the
    outputs (dropping the rows repeated to even out the shards) and every process scores the
    evaluated rows in file order."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    worker = Path(__file__).with_name("trainer_worker.py")
    done = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
         str(worker), str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    printed = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(printed) == 2  # both processes computed
    # The same model in this one process, predicting the same rows.
    sys.path.insert(0, str(worker.parent))
    from trainer_worker import evaluated_rows, fever_setup

    claims, model, dataset = fever_setup()
    single = trainer_for(model, dataset, dataset, None, tmp_path, label_names=["labels", "row_id"])
    subset = dataset.select(evaluated_rows())
    direct = direct_numbers(
        "fever_score", fever_rows_of(claims), subset, single.predict(subset).predictions
    )
    assert printed[0] == printed[1] == {f"eval_{k}": v for k, v in direct.items()}


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
