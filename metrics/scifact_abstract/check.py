"""``taskeval check scifact_abstract|scifact_sentence``: every problem of a SciFact leaderboard
submission, before it is scored.

Plain Python, shared by both metric folders (one file; the other folder holds a symlink to it);
reached only through ``contract.py`` (evaluate never loads it). Each row is checked by the
metric's own row checks (``rows.check_predictions``), one row at a time so that every bad row is
reported, not the first.

* ``--inputs``: the claims file (``claims_test.jsonl``: ``id``, ``claim``, ``cited_doc_ids``; no
  ``evidence`` needed) and, optionally, the corpus (``corpus.jsonl``: ``doc_id``, ``abstract``,
  a list of sentences), told apart by their fields. The evaluator pairs predictions with claims
  by position: the same ids in the same order. With the corpus, every predicted doc id must be
  one of its documents and every sentence index within its abstract.
* ``--references``: the gold claims (``evidence``: doc id → rationales), held to the same order.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .rows import check_predictions, check_references
from .scoring import MIN_SENTENCE_CAP

_FEW = 10  # below this many predictions, one label for all or no evidence at all is no sign


def _count(lines: list, one: str, many: str) -> str:
    return f"{len(lines):,} {one if len(lines) == 1 else many}"


def _row(report: Any, path: Any, number: int, row: Any, gold: bool) -> dict | None:
    """A line as a row of ``compute()`` (one evidence entry per abstract, or per rationale for
    the gold), its shape reported when the evaluator could not read it."""
    if type(row) is not dict:
        report.error(
            f"expected a JSON object with 'id' and 'evidence', got {row!r}", file=path, line=number
        )
        return None
    for name in ("id", "evidence"):
        if name not in row:
            hint = " (is this the unlabelled claims file? give it as --inputs)" if gold else ""
            report.error(
                f"missing{hint}", file=path, line=number, id=row.get("id"), field=repr(name)
            )
            return None
    evidence = row["evidence"]
    if type(evidence) is not dict:
        report.error(
            f"must be an object keyed by doc id, got {evidence!r}",
            file=path,
            line=number,
            id=row["id"],
            field="'evidence'",
        )
        return None
    entries, sound = [], True
    for doc_id, value in evidence.items():
        items = value if gold else [value]
        if gold and (type(value) is not list or not value):
            report.error(
                f"must be a non-empty list of rationales, got {value!r}",
                file=path,
                line=number,
                id=row["id"],
                field=f"'evidence'[{doc_id!r}]",
            )
            sound = False
            continue
        for k, item in enumerate(items):
            if type(item) is not dict or "sentences" not in item or "label" not in item:
                report.error(
                    f"must be an object with 'sentences' and 'label', got {item!r}",
                    file=path,
                    line=number,
                    id=row["id"],
                    field=f"'evidence'[{doc_id!r}]" + (f"[{k}]" if gold else ""),
                )
                sound = False
                continue
            entries.append(
                {"doc_id": doc_id, "label": item["label"], "sentences": item["sentences"]}
            )
    if not sound:
        return None
    converted = {"id": row["id"], "evidence": entries}
    try:
        (check_references if gold else check_predictions)([converted])
    except ValueError as e:
        report.refused(e, file=path, line=number, id=row["id"])
        return None
    return converted


def _read_inputs(report: Any, paths: Any) -> tuple[list, Any, dict | None, Any]:
    """(claims as (line, id), the claims file, corpus doc id → sentence count or None, the
    corpus file), each file told apart by the fields of its first object."""
    claims, claims_file, corpus, corpus_file = [], None, None, None
    for path in paths:
        rows = report.jsonl(path)
        first = next((row for _, row in rows if type(row) is dict), {})
        if "doc_id" in first and "abstract" in first:
            corpus, corpus_file = _corpus(report, path, rows), path
        else:
            claims_file = path
            for number, row in rows:
                if type(row) is not dict or "id" not in row:
                    report.error("expected a JSON object with an 'id'", file=path, line=number)
                else:
                    claims.append((number, row["id"]))
    return claims, claims_file, corpus, corpus_file


def _corpus(report: Any, path: Any, rows: list) -> dict:
    sizes = {}
    for number, row in rows:
        abstract = row.get("abstract") if type(row) is dict else None
        if type(abstract) is not list or "doc_id" not in row:
            report.error(
                "expected a document with 'doc_id' and 'abstract' (a list of sentences)",
                file=path,
                line=number,
            )
            continue
        # Prediction keys are JSON object keys: the doc id as text.
        sizes[str(row["doc_id"])] = len(abstract)
    return sizes


def _against_corpus(report: Any, path: Any, rows: list, corpus: dict, corpus_file: Any) -> None:
    for number, row in rows:
        for entry in row["evidence"]:
            doc_id = entry["doc_id"]
            field = f"'evidence'[{doc_id!r}]"
            if doc_id not in corpus:
                report.error(
                    f"is not a document of {corpus_file}",
                    file=path,
                    line=number,
                    id=row["id"],
                    field=field,
                )
                continue
            size = corpus[doc_id]
            for k, s in enumerate(entry["sentences"]):
                if not 0 <= s < size:
                    report.error(
                        f"sentence {s} is outside the abstract of doc {doc_id} ({size} sentences, "
                        f"indices 0 to {size - 1})",
                        file=path,
                        line=number,
                        id=row["id"],
                        field=f"{field}['sentences'][{k}]",
                    )


def _warnings(report: Any, path: Any, rows: list) -> None:
    long_lists, repeated = [], []
    for number, row in rows:
        sentence_lists = [entry["sentences"] for entry in row["evidence"]]
        if any(len(s) > MIN_SENTENCE_CAP for s in sentence_lists):
            long_lists.append(number)
        if any(len(set(s)) != len(s) for s in sentence_lists):
            repeated.append(number)
    if long_lists:
        report.warning(
            f"{_count(long_lists, 'line predicts', 'lines predict')} more than "
            f"{MIN_SENTENCE_CAP} sentences for an abstract (lines {report.listed(long_lists)}): the "
            f"abstract-level rationalized score reads only the first {MIN_SENTENCE_CAP}, in the "
            f"order given, and drops the others silently",
            file=path,
            line=long_lists[0],
            field="'sentences'",
        )
    if repeated:
        report.warning(
            f"{_count(repeated, 'line lists', 'lines list')} a sentence twice for "
            f"an abstract (lines {report.listed(repeated)}): the repeat takes one of the first "
            f"{MIN_SENTENCE_CAP} places the abstract level reads",
            file=path,
            line=repeated[0],
            field="'sentences'",
        )
    labels = Counter(entry["label"] for _, row in rows for entry in row["evidence"])
    if len(rows) >= _FEW and not labels:
        report.warning(
            "no claim has any predicted abstract: every score is 0", file=path, field="'evidence'"
        )
    elif sum(labels.values()) >= _FEW and len(labels) == 1:
        report.warning(
            f"every predicted abstract is labelled {next(iter(labels))!r}",
            file=path,
            field="'label'",
        )


def _rows(report: Any, path: Any, lines: list, gold: bool) -> list[tuple[int, dict]]:
    """(line, row) of each line the evaluator reads as meant; the others reported."""
    out = []
    for number, line in lines:
        row = _row(report, path, number, line, gold)
        if row is not None:
            out.append((number, row))
    return out


def _ids(rows: list) -> list:
    return [(number, row["id"]) for number, row in rows]


def _claims_once(report: Any, ids: list[tuple[int, Any]], path: Any) -> None:
    """A gold claim given twice: the scorer pairs gold and prediction rows by position, so the
    predictions, which answer each claim once, come one row short."""
    first: dict[Any, int] = {}
    for number, claim_id in ids:
        key = (type(claim_id), claim_id) if type(claim_id) in (int, str) else repr(claim_id)
        if key in first:
            report.error(
                f"is given twice (first on line {first[key]}): the scorer pairs the gold with the "
                f"predictions row by row",
                file=path,
                line=number,
                id=claim_id,
                field="'id'",
            )
        first.setdefault(key, number)


def run(files: Any, report: Any) -> None:
    """Check ``files.predictions`` (with ``files.inputs``, ``files.references``) into
    ``report``."""
    path = files.predictions
    lines = report.jsonl(path)
    report.rows = len(lines)
    rows = _rows(report, path, lines, gold=False)
    if not lines and not report.problems:
        report.error("has no prediction: the evaluator needs one line per claim", file=path)
    shaped = [(n, row) for n, row in lines if type(row) is dict and "id" in row]
    claims, claims_file, corpus, corpus_file = _read_inputs(report, files.inputs)
    if claims_file is not None:
        report.match_ids(claims, claims_file, _ids(shaped), path, by_position=True, what="claim")
    if corpus is not None:
        _against_corpus(report, path, rows, corpus, corpus_file)
    if files.references is not None:
        gold_lines = report.jsonl(files.references)
        _rows(report, files.references, gold_lines, gold=True)
        if claims_file is None:
            gold_ids = [
                (n, row["id"]) for n, row in gold_lines if type(row) is dict and "id" in row
            ]
            _claims_once(report, gold_ids, files.references)
            report.match_ids(
                gold_ids, files.references, _ids(shaped), path, by_position=True, what="claim"
            )
    _warnings(report, path, rows)
