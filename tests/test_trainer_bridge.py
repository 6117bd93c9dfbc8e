"""``taskeval.trainer_compute_metrics`` on the values a Trainer hands over, without a Trainer:
rows found by their row ids, restored to file order, batches collected, every misalignment
refused. (``test_trainer.py`` runs it inside real Trainers.)"""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest

import taskeval

from entries.fever_score import random_rows

LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]

# Twelve FEVER rows whose evidence precision is 0.2 in file order and 0.19999999999999998 when the
# rows come strided (0, 2, 4, ..., 1, 3, ...), as the official scorer sums them.
ROWS = random_rows(random.Random(8), 12)
STRIDED = list(range(0, 12, 2)) + list(range(1, 12, 2))


def one_hot(labels: list[str]) -> np.ndarray:
    """Logits whose argmax is each row's predicted label (lower-case labels map to their upper)."""
    out = np.zeros((len(labels), 3), dtype=np.float32)
    for i, label in enumerate(labels):
        out[i, LABELS.index(label.upper())] = 1.0
    return out


# The model here predicts upper-case labels; the gold rows' predicted evidence is the "retriever".
PREDICTED = [p["predicted_label"].upper() for p in ROWS["predictions"]]
LOGITS = one_hot(PREDICTED)


def fever_rows(row_ids: list[int], outputs: list) -> dict:
    return {
        "predictions": [
            {
                "predicted_label": LABELS[int(o.argmax())],
                "predicted_evidence": ROWS["predictions"][i]["predicted_evidence"],
            }
            for i, o in zip(row_ids, outputs)
        ],
        "references": [ROWS["references"][i] for i in row_ids],
    }


def eval_pred(rows: list[int], label_ids=None, predictions=None):
    """What the Trainer hands compute_metrics for the given rows in that order."""
    if label_ids is None:
        label_ids = (np.zeros(len(rows), dtype=np.int64), np.array(rows, dtype=np.int64))
    if predictions is None:
        predictions = LOGITS[rows]
    return SimpleNamespace(predictions=predictions, label_ids=label_ids)


def file_order_numbers(rows: list[int]) -> dict:
    """compute() on the given rows in file order (the rows' own predicted labels, upper-cased)."""
    ordered = sorted(rows)
    return taskeval.load("fever_score").compute(
        predictions=[{**ROWS["predictions"][i], "predicted_label": PREDICTED[i]} for i in ordered],
        references=[ROWS["references"][i] for i in ordered],
    )


def test_rows_come_back_in_file_order_with_the_official_sum():
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", fever_rows)
    result = compute_metrics(eval_pred(STRIDED))
    # The official scorer's value on the file order (fever-scorer 2.0.39 on these rows).
    assert result["evidence_precision"] == 0.2
    assert result == file_order_numbers(list(range(12)))


def test_another_dataset_scores_its_own_rows():
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", fever_rows)
    first = compute_metrics(eval_pred(list(range(8))))
    other = [11, 3, 9, 10]
    result = compute_metrics(eval_pred(other))
    assert result == file_order_numbers(other)
    assert result != first
    # What a global eval-dataset recipe gave: the first dataset's gold zipped with these outputs.
    misaligned = taskeval.load("fever_score").compute(
        predictions=fever_rows(other, LOGITS[other])["predictions"],
        references=[ROWS["references"][i] for i in range(len(other))],
    )
    assert misaligned != result


def test_batches_are_collected_and_scored_on_the_last():
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", fever_rows)
    batches = [STRIDED[:5], STRIDED[5:10], STRIDED[10:]]
    assert compute_metrics(eval_pred(batches[0]), compute_result=False) == {}
    assert compute_metrics(eval_pred(batches[1]), compute_result=False) == {}
    result = compute_metrics(eval_pred(batches[2]), compute_result=True)
    assert result == file_order_numbers(list(range(12)))
    # The next evaluation starts afresh.
    assert compute_metrics(eval_pred([4, 1]), compute_result=True) == file_order_numbers([4, 1])


def test_torch_tensors_as_batch_eval_metrics_hands_them_over():
    torch = pytest.importorskip("torch")
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", fever_rows)
    rows = [7, 2, 5]
    got = compute_metrics(
        SimpleNamespace(
            predictions=torch.tensor(LOGITS[rows]),
            label_ids=(torch.zeros(3, dtype=torch.int64), torch.tensor(rows)),
        ),
        compute_result=True,
    )
    assert got == file_order_numbers(rows)


def test_only_the_row_id_column_as_labels():
    compute_metrics = taskeval.trainer_compute_metrics(
        "fever_score", fever_rows, label_names=["row_id"]
    )
    rows = [3, 0, 6]
    assert compute_metrics(eval_pred(rows, label_ids=np.array(rows))) == file_order_numbers(rows)


def test_several_outputs_per_row_come_as_tuples():
    seen = []

    def rows_of(row_ids, outputs):
        seen.extend(outputs)
        return fever_rows(row_ids, [logits for logits, _ in outputs])

    compute_metrics = taskeval.trainer_compute_metrics("fever_score", rows_of)
    rows = [2, 1]
    hidden = np.arange(4, dtype=np.float32).reshape(2, 2)
    result = compute_metrics(eval_pred(rows, predictions=(LOGITS[rows], hidden)))
    assert result == file_order_numbers(rows)
    assert [h.tolist() for _, h in seen] == [[2.0, 3.0], [0.0, 1.0]]  # row 1 first


def test_nested_results_are_flattened_and_options_reach_compute():
    calls = []

    class Metric:
        def compute(self, **kwargs):
            calls.append(kwargs)
            return {"avg": 1.0, "per_language": {"arabic": {"f1": 0.5}}}

    compute_metrics = taskeval.trainer_compute_metrics(
        Metric(), lambda ids, outputs: {"predictions": ids}, threshold=3
    )
    assert compute_metrics(eval_pred([1, 0])) == {"avg": 1.0, "per_language/arabic/f1": 0.5}
    assert calls == [{"predictions": [0, 1], "threshold": 3}]


@pytest.mark.parametrize(
    ("label_ids", "predictions", "message"),
    [
        (None, LOGITS[:2], "returned no labels: the evaluated dataset needs the column 'row_id'"),
        (np.array([0, 1]), LOGITS[:2], r"labels that do not match label_names=\['labels', 'row_id'\]"),
        ((np.zeros(2), np.array([0.0, 1.0])), LOGITS[:2], "one integer per row"),
        ((np.zeros(2), np.array([[0], [1]])), LOGITS[:2], "one integer per row"),
        ((np.zeros(3), np.array([0, 1, 2])), LOGITS[:2], "outputs for 2 rows but the evaluated"),
        ((np.zeros(2), np.array([0, -100])), LOGITS[:2], r"row id -100 \(evaluated row 2\) is negative"),
        ((np.zeros(3), np.array([4, 2, 4])), LOGITS[:3], r"row id 4 was evaluated twice \(evaluated rows 1 and 3\)"),
    ],
)  # fmt: skip
def test_misaligned_rows_are_refused_and_leave_nothing_behind(label_ids, predictions, message):
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", fever_rows)
    # A batch collected before the bad one is dropped with it.
    assert compute_metrics(eval_pred([9]), compute_result=False) == {}
    with pytest.raises(ValueError, match=message):
        compute_metrics(SimpleNamespace(predictions=predictions, label_ids=label_ids), True)
    assert compute_metrics(eval_pred([5, 3])) == file_order_numbers([5, 3])


@pytest.mark.parametrize("label_names", [("labels", "row_id"), ("row_id",)])
def test_labels_handed_batch_by_batch_name_the_setting(label_names):
    """TrainingArguments(eval_do_concat_batches=False): a list of per-batch labels, two batches
    here as there are two label names (which must not pass for one array per label name)."""
    compute_metrics = taskeval.trainer_compute_metrics(
        "fever_score", fever_rows, label_names=label_names
    )
    batches = [[0, 1], [2, 3]]
    if len(label_names) > 1:
        label_ids = [(np.zeros(2, dtype=np.int64), np.array(b)) for b in batches]
    else:
        label_ids = [np.array(b) for b in batches]
    predictions = [LOGITS[b] for b in batches]
    with pytest.raises(ValueError, match=r"batch by batch \(2 batches\).*eval_do_concat_batches"):
        compute_metrics(SimpleNamespace(predictions=predictions, label_ids=label_ids))


def test_a_duplicate_across_batches_is_refused():
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", fever_rows)
    compute_metrics(eval_pred([1, 2]), compute_result=False)
    with pytest.raises(ValueError, match="row id 2 was evaluated twice"):
        compute_metrics(eval_pred([2]), compute_result=True)


def test_label_names_must_list_the_row_id_column():
    with pytest.raises(ValueError, match="must list the row-id column 'row_id'"):
        taskeval.trainer_compute_metrics("fever_score", fever_rows, label_names=["labels"])
    with pytest.raises(ValueError, match="must list the row-id column 'claim'"):
        taskeval.trainer_compute_metrics("fever_score", fever_rows, id_column="claim")


def test_inputs_are_not_mutated():
    compute_metrics = taskeval.trainer_compute_metrics("fever_score", fever_rows)
    ids = np.array([3, 1, 2])
    logits = LOGITS[[3, 1, 2]].copy()
    compute_metrics(eval_pred([3, 1, 2], label_ids=(np.zeros(3), ids), predictions=logits))
    assert ids.tolist() == [3, 1, 2]
    assert (logits == LOGITS[[3, 1, 2]]).all()
