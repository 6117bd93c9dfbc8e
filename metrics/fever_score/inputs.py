"""Official FEVER files and Hub ``fever`` dataset rows, turned into ``compute()`` inputs.

Plain Python; not imported by the metric script, so the folder stays loadable by ``evaluate``
alone. ``read_official`` reproduces how ``fever_score(predictions, actual)`` pairs the two files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import chain
from os import PathLike

from .fast_path import official_form_claims
from .jsonl import read_jsonl
from .plain_values import shown
from .rows import check_max_evidence
from .scoring import DEFAULT_MAX_EVIDENCE, fever_score, gc_paused, official_form_score

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any


def _int_or_none(text: str) -> int | None:
    return None if text.lower() in ("none", "null") else int(text)


# compute() options: the parser of the command-line value, its metavar and its help.
OPTIONS = {
    "max_evidence": (
        _int_or_none,
        "N|none",
        "count only the first N predicted evidence sentences of each claim, as the official "
        "scorer does (default 5; none: all of them)",
    )
}


_PREDICTION_FIELDS = ("id", "predicted_label", "predicted_evidence")


def read_official(
    references: str | PathLike | None, predictions: str | PathLike
) -> dict[str, list[dict]]:
    """Predictions JSONL (+ optional gold JSONL, "blind" mode) → ``predictions``/``references``.

    As in the official scorer, a prediction line that carries both ``label`` and ``evidence`` is
    its own gold, and ``references`` is then not read for that line; any other line takes the
    gold of the same line of ``references``.
    """
    preds = read_jsonl(predictions)
    actual = read_jsonl(references) if references is not None else None
    with gc_paused():
        return _pair(preds, actual, references, predictions)


def pair_lines(
    preds: list, actual: list | None, references: Any, predictions: Any
) -> dict[str, list[dict]]:
    """``read_official`` of parsed lines: ``preds`` (the lines of the file ``predictions``) and
    ``actual`` (those of the gold file ``references``, or None), paired as the official scorer
    pairs them; errors name the files and lines."""
    with gc_paused():
        return _pair(preds, actual, references, predictions)


def _pair(
    preds: list, actual: list | None, references: Any, predictions: Any
) -> dict[str, list[dict]]:
    out_preds, out_refs, gold_files = [], [], []
    for index, row in enumerate(preds):
        if type(row) is not dict:
            raise ValueError(
                f"{predictions}, line {index + 1}: expected a JSON object, got {shown(row)}"
            )
        out_preds.append({k: row[k] for k in _PREDICTION_FIELDS if k in row})
        own = carries_gold(row)
        gold = row if own else _gold(actual, index, preds, references, predictions)
        gold_files.append(predictions if own else references)
        ref = {"label": gold["label"], "evidence": gold["evidence"]}
        if "id" in gold or "id" in row:
            ref = {"id": gold.get("id", row.get("id")), **ref}
        out_refs.append(ref)
    _refuse_records(out_preds, out_refs, gold_files, predictions)
    return {"predictions": out_preds, "references": out_refs}


def _refuse_records(preds: list, refs: list, gold_files: list, predictions: Any) -> None:
    """Evidence items that are JSON objects, refused where the official scorer reads them.

    ``compute()`` takes ``{"page", "line"}`` records as a convenience, but in an official file an
    object is what the official scorer reads: a predicted one never equals a ``[page, line]``
    list (and fails its format check when the label is right), and a gold one of a claim that is
    not NOT ENOUGH INFO has no position 2 or 3 (KeyError). Such a line is refused rather than
    scored as the record it would be for ``compute()``.
    """
    evidence = [row.get("predicted_evidence") for row in preds]
    lists = [items for items in evidence if type(items) is list]
    if dict in set(map(type, chain.from_iterable(lists))):
        for index, items in enumerate(evidence):
            for k, item in enumerate(items if type(items) is list else ()):
                if type(item) is dict:
                    raise ValueError(
                        f"{predictions}, line {index + 1}: field 'predicted_evidence'[{k}] must "
                        f"be a [page, line] list in an official file, got {shown(item)} (the official "
                        f"scorer never matches a JSON object)"
                    )
    read = [  # the gold groups the official scorer reads: those of claims not NOT ENOUGH INFO
        (index, groups)
        for index, row in enumerate(refs)
        if type(row["label"]) is str
        and row["label"].upper() != _NEI
        and type(groups := row["evidence"]) is list
    ]
    groups = [group for _, row_groups in read for group in row_groups if type(group) is list]
    if dict in set(map(type, chain.from_iterable(groups))):
        for index, row_groups in read:
            for g, group in enumerate(row_groups):
                for k, item in enumerate(group if type(group) is list else ()):
                    if type(item) is dict:
                        raise ValueError(
                            f"{gold_files[index]}, line {index + 1}: field 'evidence'[{g}][{k}] "
                            f"must be an [annotation_id, evidence_id, page, line] list in an "
                            f"official file, got {shown(item)} (the official scorer reads its "
                            f"positions 2 and 3)"
                        )


def carries_gold(row: dict) -> bool:
    """Whether a prediction line is its own gold (then ``references`` is not read for it)."""
    return "label" in row and "evidence" in row


def _gold(actual: list | None, index: int, preds: list, references: Any, predictions: Any) -> dict:
    """The gold line for a prediction line that lacks its own gold fields."""
    if actual is None:
        raise ValueError(
            f"{predictions}, line {index + 1}: no gold 'label' and 'evidence' in the prediction, "
            f"and no references file was given"
        )
    if len(actual) != len(preds):
        raise ValueError(
            f"{references} has {len(actual)} lines but {predictions} has {len(preds)}: "
            f"gold lines are paired with prediction lines by position"
        )
    gold = actual[index]
    if type(gold) is not dict:
        raise ValueError(
            f"{references}, line {index + 1}: expected a JSON object, got {shown(gold)}"
        )
    for field in ("label", "evidence"):
        if field not in gold:
            raise ValueError(f"{references}, line {index + 1}: missing gold field {shown(field)}")
    return gold


def score_files(
    references: str | PathLike | None,
    predictions: str | PathLike,
    max_evidence: int | None = DEFAULT_MAX_EVIDENCE,
) -> dict[str, float]:
    """What ``taskeval score fever_score`` prints.

    The parsed lines are scored as they are when they are plainly valid (each prediction line
    with its own gold, or paired with the gold line of the same number); anything else goes
    through ``read_official`` and ``fever_score``, which name the line and field of a problem.
    """
    preds = read_jsonl(predictions)
    actual = read_jsonl(references) if references is not None else None
    gold = _gold_lines(preds, actual)
    if gold is not None:
        try:
            scores = official_form_score(preds, gold, max_evidence)
        except ValueError:  # a bad max_evidence: the checking path reports it in its turn
            scores = None
        if scores is not None:
            return scores
    del preds, actual, gold
    return fever_score(**read_official(references, predictions), max_evidence=max_evidence)


def official_form_file_claims(
    references: str | PathLike | None, predictions: str | PathLike, max_evidence: int | None
) -> list[tuple[float, float, float, float, float]] | None:
    """Per claim, the statistics ``official_form_claims`` gives for ``read_official``'s rows,
    straight from the parsed lines (``score_files``'s pairing, no ``compute()`` rows made), or
    None whenever that path does not apply (a file that cannot be read, a line in another form,
    a bad ``max_evidence``): the caller then reads the files the checking way, which scores them
    or names the problem. ``read_official`` copies the fields it keeps unchanged, and the rules
    read only those, so the statistics are the same floats."""
    try:
        cut = check_max_evidence(max_evidence)
        preds = read_jsonl(predictions)
        actual = read_jsonl(references) if references is not None else None
    except (OSError, ValueError):
        return None
    gold = _gold_lines(preds, actual)
    if gold is None:
        return None
    return official_form_claims(preds, gold, cut)


def _gold_lines(preds: list, actual: list | None) -> list | None:
    """The gold of each prediction line as ``_pair`` picks it (the line itself when it holds
    ``label`` and ``evidence``, else the gold line of the same number), or None when that pairing
    would fail."""
    own = [type(row) is dict and "label" in row and "evidence" in row for row in preds]
    if all(own):
        return preds
    if actual is None or len(actual) != len(preds):
        return None
    return [row if mine else gold for row, mine, gold in zip(preds, own, actual)]


_NEI = "NOT ENOUGH INFO"


def references_from_hub(rows: Iterable[Mapping]) -> list[dict]:
    """Group rows of the Hub ``fever`` dataset (config ``v1.0``) into one reference per claim.

    That dataset has one row per gold evidence item (``id``, ``label``, ``evidence_annotation_id``,
    ``evidence_id``, ``evidence_wiki_url``, ``evidence_sentence_id``). Its loading script writes
    every falsy field of an official item ``[annotation_id, evidence_id, page, line]`` as ``-1``
    (ids and line) or ``""`` (page), so sentence 0 arrives as ``-1``; and a claim whose gold
    ``evidence`` is empty gets one row with all four fields empty. Back to the official form:

    - a row with a page is the sentence ``[page, line]``, ``-1`` read as line 0 (the sentence id
      the script cannot have written as ``-1`` otherwise: real lines are never negative);
    - a row without a page is the item ``[annotation_id, None, None, None]`` of a NOT ENOUGH
      INFO claim, or, for any other claim, its empty gold evidence (then its only row);
    - ``-1`` ids are None (the scorer never reads ids).

    Claims keep the order of their first row; within a claim, rows sharing
    ``(evidence_annotation_id, evidence_id)`` form one evidence group, as in the official files.
    Each reference carries the claim ``id`` so predictions can be aligned to it.
    """
    claims: dict[Any, dict] = {}
    for index, row in enumerate(rows):
        try:
            claim_id, label = row["id"], row["label"]
            annotation_id, evidence_id = row["evidence_annotation_id"], row["evidence_id"]
            page, line = row["evidence_wiki_url"], row["evidence_sentence_id"]
        except (KeyError, TypeError) as e:
            raise ValueError(f"rows[{index}]: expected a Hub fever v1.0 row, missing {e}") from None
        where = f"rows[{index}] (id {shown(claim_id)})"
        if not isinstance(label, str) or not label:
            raise ValueError(
                f"{where}: field 'label' must be a non-empty string, got {shown(label)} (the "
                f"unlabelled splits have no gold)"
            )
        claim = claims.setdefault(
            claim_id, {"id": claim_id, "label": label, "groups": {}, "empty": False}
        )
        if claim["label"] != label:
            raise ValueError(
                f"{where}: field 'label' is {shown(label)} but an earlier row of the same claim has "
                f"{shown(claim['label'])}"
            )
        annotation_id = None if annotation_id == -1 else annotation_id
        evidence_id = None if evidence_id == -1 else evidence_id
        if page:
            item = [annotation_id, evidence_id, page, 0 if line == -1 else line]
        elif label.upper() == _NEI:
            item = [annotation_id, evidence_id, None, None]
        else:
            claim["empty"] = True
            item = None
        if item is not None:
            claim["groups"].setdefault((annotation_id, evidence_id), []).append(item)
        if claim["empty"] and claim["groups"]:
            raise ValueError(
                f"{where}: a {shown(label)} claim has a row without 'evidence_wiki_url' (the Hub's "
                f"form of an empty gold evidence list) and rows with evidence"
            )
    return [
        {"id": c["id"], "label": c["label"], "evidence": list(c["groups"].values())}
        for c in claims.values()
    ]
