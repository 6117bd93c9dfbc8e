"""Official SciFact files and Hub ``allenai/scifact`` rows, turned into ``compute()`` inputs.

Plain Python, shared by ``scifact_abstract`` and ``scifact_sentence`` (one file; the other folder
holds a symlink to it). Not imported by the metric scripts, so each folder stays loadable by
``evaluate`` alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from os import PathLike

from .fast_counts import official_counts
from .jsonl import read_jsonl
from .plain_values import gc_paused, shown
from .scoring import ABSTRACT_KEYS, SENTENCE_KEYS, abstract_scores, scifact_scores, sentence_scores

TYPE_CHECKING = False  # typing itself costs the command-line scorer milliseconds at start
if TYPE_CHECKING:
    from typing import Any

# compute() options with the parser of their command-line value: the evaluator has none.
OPTIONS: dict[str, Any] = {}

# This file is reached through both metric folders; the folder it is read from says which half
# of the leaderboard's numbers ``taskeval score`` prints.
_KEYS = {"scifact_abstract": ABSTRACT_KEYS, "scifact_sentence": SENTENCE_KEYS}
_METRIC = os.path.basename(os.path.dirname(__file__))


def _claim(path: Any, number: int, row: Any) -> tuple[str, Any, Mapping]:
    where = f"{path}, line {number}"
    if not isinstance(row, dict):
        raise ValueError(
            f"{where}: expected a JSON object with 'id' and 'evidence', got {shown(row)}"
        )
    for field in ("id", "evidence"):
        if field not in row:
            raise ValueError(f"{where}: missing field {shown(field)}")
    if not isinstance(row["evidence"], dict):
        raise ValueError(
            f"{where} (id {shown(row['id'])}): field 'evidence' must be an object keyed by doc id, "
            f"got {shown(row['evidence'])}"
        )
    return where, row["id"], row["evidence"]


def _entry(where: str, claim_id: Any, field: str, doc_id: str, item: Any) -> dict:
    if not isinstance(item, dict) or "sentences" not in item or "label" not in item:
        raise ValueError(
            f"{where} (id {shown(claim_id)}): field {field} must be an object with 'sentences' and "
            f"'label', got {shown(item)}"
        )
    return {"doc_id": doc_id, "label": item["label"], "sentences": item["sentences"]}


def read_gold(path: str | PathLike) -> list[dict]:
    """``claims_*.jsonl`` (``evidence``: doc id → list of rationales) → references."""
    out = []
    for number, row in enumerate(read_jsonl(path), 1):
        where, claim_id, evidence = _claim(path, number, row)
        entries = []
        for doc_id, rationales in evidence.items():
            if not isinstance(rationales, list) or not rationales:
                raise ValueError(
                    f"{where} (id {shown(claim_id)}): field 'evidence'[{shown(doc_id)}] must be a non-empty "
                    f"list of rationales, got {shown(rationales)}"
                )
            entries += [
                _entry(where, claim_id, f"'evidence'[{shown(doc_id)}][{i}]", doc_id, r)
                for i, r in enumerate(rationales)
            ]
        out.append({"id": claim_id, "evidence": entries})
    return out


def read_predictions(path: str | PathLike) -> list[dict]:
    """A leaderboard submission (``evidence``: doc id → {sentences, label}) → predictions."""
    out = []
    for number, row in enumerate(read_jsonl(path), 1):
        where, claim_id, evidence = _claim(path, number, row)
        entries = [
            _entry(where, claim_id, f"'evidence'[{shown(d)}]", d, item)
            for d, item in evidence.items()
        ]
        out.append({"id": claim_id, "evidence": entries})
    return out


def read_official(
    references: str | PathLike | None, predictions: str | PathLike
) -> dict[str, list[dict]]:
    """Gold ``claims_*.jsonl`` and a submission JSONL → ``predictions``/``references``."""
    if references is None:
        raise ValueError("SciFact needs the gold claims file as references")
    return {"predictions": read_predictions(predictions), "references": read_gold(references)}


def leaderboard_scores(
    references: str | PathLike | None, predictions: str | PathLike
) -> dict[str, float]:
    """The leaderboard's 12 numbers for two official files, as ``eval.py --verbose`` writes them.

    Each file is parsed once and counted straight from its parsed lines (``official_counts``).
    A file with anything unusual or wrong is read again by ``read_official`` and scored by
    ``scifact_scores``, whose checks name the line and field: the same numbers and errors as
    ``compute(**read_official(...))``, at a fraction of the cost on valid files.
    """
    if references is None:
        raise ValueError("SciFact needs the gold claims file as references")
    # Only long-lived JSON values are made here, and no cycles: the collector's passes over
    # them would cost more than the scoring.
    with gc_paused():
        pred_lines = read_jsonl(predictions)  # the order in which read_official reads them
        counts = official_counts(read_jsonl(references), pred_lines)
        if counts is None:
            del pred_lines
            return scifact_scores(**read_official(references, predictions))
        return {**abstract_scores(counts), **sentence_scores(counts)}


def score_files(references: str | PathLike | None, predictions: str | PathLike) -> dict[str, float]:
    """What ``taskeval score scifact_abstract|scifact_sentence`` prints."""
    return score_metrics([_METRIC] if _METRIC in _KEYS else list(_KEYS), references, predictions)


def score_metrics(
    metrics: list[str], references: str | PathLike | None, predictions: str | PathLike
) -> dict[str, float]:
    """The numbers of several metrics served by this module, the files read and scored once
    (``taskeval score scifact_abstract,scifact_sentence``: the leaderboard's 12 numbers)."""
    scores = leaderboard_scores(references, predictions)
    return {k: scores[k] for metric in metrics for k in _KEYS[metric]}


_HUB_FIELDS = ("id", "evidence_doc_id", "evidence_label", "evidence_sentences")


def references_from_hub(rows: Iterable[Mapping]) -> list[dict]:
    """Group rows of the Hub ``allenai/scifact`` dataset (config ``claims``) into references.

    That dataset has one row per gold rationale (``id``, ``claim``, ``evidence_doc_id``,
    ``evidence_label``, ``evidence_sentences``, ``cited_doc_ids``), so an abstract with two
    rationales has two rows; a NOT ENOUGH INFO claim has one row with an empty doc id, label and
    sentence list. Claims keep the order of their first row. The ``test`` split carries no gold
    (every row empty, no cited docs) and is refused rather than scored as all NOT ENOUGH INFO.
    """
    claims: dict[Any, dict] = {}
    for index, row in enumerate(rows):
        try:
            claim_id, doc_id, label, sentences = (row[f] for f in _HUB_FIELDS)
        except (KeyError, TypeError) as e:
            raise ValueError(
                f"rows[{index}]: expected a row of the Hub allenai/scifact 'claims' config, "
                f"missing {e}"
            ) from None
        where = f"rows[{index}] (id {shown(claim_id)})"
        if not isinstance(sentences, (list, tuple)):
            raise ValueError(
                f"{where}: field 'evidence_sentences' must be a list of ints, got {shown(sentences)}"
            )
        claim = claims.setdefault(claim_id, {"id": claim_id, "evidence": [], "nei": False})
        if doc_id == "":
            if label or sentences:
                raise ValueError(
                    f"{where}: field 'evidence_doc_id' is empty but 'evidence_label' or "
                    f"'evidence_sentences' is not"
                )
            if not row.get("cited_doc_ids"):
                raise ValueError(
                    f"{where}: no evidence and no 'cited_doc_ids': this looks like the test "
                    f"split, whose gold labels are hidden"
                )
            claim["nei"] = True
        else:
            claim["evidence"].append(
                {"doc_id": doc_id, "label": label, "sentences": list(sentences)}
            )
        if claim["nei"] and claim["evidence"]:
            raise ValueError(
                f"{where}: the claim has both a NOT ENOUGH INFO row (empty 'evidence_doc_id') "
                f"and evidence rows"
            )
    return [{"id": c["id"], "evidence": c["evidence"]} for c in claims.values()]
