"""Row checks of ``ehealthkd``: sentence rows (``text``, ``keyphrases``, ``relations``) turned
into ``Sentence`` tuples, or a ``ValueError`` that names the row, the key phrase or relation and
the field, on anything the official tool would crash on or silently misread."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .plain_values import INT64, as_int, as_list, int_problem, shown
from .records import EDITION_SCENARIOS, EDITIONS, Keyphrase, Relation, Sentence, split_words

_ROW_FIELDS = ("text", "keyphrases", "relations")
_KEYPHRASE_FIELDS = ("id", "label", "spans")
_RELATION_FIELDS = ("label", "source", "target")


def check_rows(rows: Any, side: str) -> None:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise ValueError(f"{side} must be a list of sentence dicts, got {type(rows).__name__}")


def check_lengths(n_predictions: int, n_references: int) -> None:
    if n_predictions != n_references:
        raise ValueError(
            f"predictions and references must have the same length (sentences are paired by "
            f"position), got {n_predictions} predictions and {n_references} references"
        )


def check_edition(edition: Any) -> int:
    """The edition as an int (2019, 2020 or 2021), or a ``ValueError``."""
    if type(edition) is not int or edition not in EDITIONS:
        raise ValueError(
            f"edition must be one of {', '.join(map(str, EDITIONS))}, got {shown(edition)}"
        )
    return edition


def uses_2020_rules(edition: int) -> bool:
    """Whether an edition scores by the 2020 rules: 2021's ``scripts/score.py`` matches and
    counts as 2020's does (only its reader differs, see ``brat.py``)."""
    return edition in (2020, 2021)


def check_scenario(scenario: Any, edition: int = 2019) -> str:
    scenarios = EDITION_SCENARIOS[check_edition(edition)]
    if scenario not in scenarios:
        extra = f" (edition {edition})" if edition != 2019 else ""
        if scenario in EDITION_SCENARIOS[2020] and edition != 2020:
            extra = f" ({scenario} needs edition 2020)"
        raise ValueError(
            f"scenario must be one of {', '.join(scenarios)}{extra}, got {shown(scenario)}"
        )
    return scenario


def span_problem(pairs: Sequence[tuple[int, int]], text_length: int) -> str | None:
    """Why a list of sentence-relative pairs cannot be scored, or None if it can."""
    for start, end in pairs:
        if start < 0:
            return f"offsets must be >= 0, got [{start}, {end}]"
        if start > end:
            return f"a pair must have start <= end, got [{start}, {end}]"
    if len(pairs) == 1 and pairs[0][1] > text_length:
        # A single span is split at the spaces of the text it covers, which must exist.
        return (
            f"the single span [{pairs[0][0]}, {pairs[0][1]}] ends past the end of the sentence "
            f"text ({text_length} characters)"
        )
    return None


def _int64(value: Any) -> int | None:
    """A plain int64 (numpy and 0-d torch integers made plain), or None."""
    number = value if type(value) is int else as_int(value)
    return number if number is not None and number in INT64 else None


def _check_fields(where: str, record: Any, fields: tuple[str, ...], what: str) -> None:
    if not isinstance(record, Mapping):
        raise ValueError(f"{where}: expected a {what} dict, got {type(record).__name__}")
    keys = set(record)
    if keys != set(fields):
        missing = [f for f in fields if f not in keys]
        extra = sorted(map(str, keys - set(fields)))
        detail = f"missing {missing}" if missing else f"unexpected {extra}"
        raise ValueError(f"{where}: a {what} has the fields {list(fields)}, {detail}")


def _list_field(where: str, row: Mapping, field: str) -> list:
    value = row[field]
    if not isinstance(value, list):
        raise ValueError(f"{where}: field {shown(field)} must be a list, got {shown(value)}")
    return value


def _pairs(where: str, spans: Any) -> list[tuple[int, int]]:
    if not isinstance(spans, list) or not spans:
        raise ValueError(
            f"{where}, field 'spans': expected a non-empty list of [start, end] pairs, "
            f"got {shown(spans)}"
        )
    pairs = []
    for pair in spans:
        # A pair is a list, or a 1-d numpy array or torch tensor (never a tuple, as before).
        items = pair if type(pair) is list else None if isinstance(pair, tuple) else as_list(pair)
        ends = [_int64(n) for n in items] if isinstance(items, list) and len(items) == 2 else []
        if len(ends) != 2 or None in ends:
            raise ValueError(
                f"{where}, field 'spans': expected [start, end] pairs of ints (signed 64-bit), "
                f"got {shown(pair)}"
            )
        pairs.append((ends[0], ends[1]))
    return pairs


def _keyphrase(at: str, phrase: Any, text: str) -> Keyphrase:
    """One key-phrase record, checked; a single span is split into words."""
    _check_fields(at, phrase, _KEYPHRASE_FIELDS, "key phrase")
    kp_id, label = _int64(phrase["id"]), phrase["label"]
    if kp_id is None:
        raise ValueError(f"{at}, field 'id': {int_problem(phrase['id'])}")
    at = f"{at} (id {kp_id})"
    if not isinstance(label, str):
        raise ValueError(f"{at}, field 'label': expected a string, got {shown(label)}")
    pairs = _pairs(at, phrase["spans"])
    problem = span_problem(pairs, len(text))
    if problem:
        raise ValueError(f"{at}, field 'spans': {problem}")
    return Keyphrase(
        kp_id, label, split_words(text, *pairs[0]) if len(pairs) == 1 else tuple(pairs)
    )


def _relation(at: str, link: Any, ids: set[int], lower: bool = True) -> Relation:
    """One relation record, checked against the key-phrase ids of its sentence; label lower-cased
    (2019) or as written (2020, ``lower=False``)."""
    _check_fields(at, link, _RELATION_FIELDS, "relation")
    label = link["label"]
    if not isinstance(label, str):
        raise ValueError(f"{at}, field 'label': expected a string, got {shown(label)}")
    ends = []
    for field in ("source", "target"):
        value = _int64(link[field])
        if value is None:
            raise ValueError(
                f"{at}, field {shown(field)}: expected a key-phrase id, "
                f"{int_problem(link[field]).removeprefix('expected ')}"
            )
        if value not in ids:
            raise ValueError(
                f"{at}, field {shown(field)}: no key phrase of this sentence has id {value}"
            )
        ends.append(value)
    return Relation(label.lower() if lower else label, *ends)


def normalize_row(side: str, index: int, row: Any, edition: int = 2019) -> Sentence:
    """Check one sentence row and return its ``Sentence`` (single spans split into words;
    relation labels lower-cased in the 2019 edition, as written in 2020)."""
    where = f"{side}[{index}]"
    _check_fields(where, row, _ROW_FIELDS, "sentence")
    text = row["text"]
    if not isinstance(text, str):
        raise ValueError(f"{where}: field 'text' must be a string, got {shown(text)}")
    keyphrases = tuple(
        [
            _keyphrase(f"{where}, keyphrases[{k}]", phrase, text)
            for k, phrase in enumerate(_list_field(where, row, "keyphrases"))
        ]
    )
    ids = {phrase.id for phrase in keyphrases}
    relations = tuple(
        [
            _relation(f"{where}, relations[{r}]", link, ids, edition == 2019)
            for r, link in enumerate(_list_field(where, row, "relations"))
        ]
    )
    return Sentence(text, keyphrases, relations)


def normalize_rows(rows: Sequence[Mapping], side: str, edition: int = 2019) -> list[Sentence]:
    """Check sentence rows (see the metric card) and return one ``Sentence`` per row."""
    check_rows(rows, side)
    return [normalize_row(side, index, row, edition) for index, row in enumerate(rows)]
