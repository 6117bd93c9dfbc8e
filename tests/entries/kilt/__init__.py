"""kilt in the shared harness; the package also holds the tests of the scoring rules, the parity
cases made by the official scorers (``make_parity.py``) and the differential checks."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from .random_records import random_inputs
from .space_check import SPACE_CHECK
from harness import InvalidCase, MetricEntry, ParityCase


class KiltCase(ParityCase):
    def cli_argv(self, metric: str) -> list[str]:
        """As ``ParityCase``'s, a list option written as the official flags take it: 1,5,10."""
        argv = super().cli_argv(metric)
        for name, value in self.options.items():
            if isinstance(value, list):
                flag = argv.index("--" + name.replace("_", "-"))
                argv[flag + 1] = ",".join(map(str, value))
        return argv


def parity_cases(folder: Path):
    """The entry's own cases: gold and guess KILT files with the official outputs (see
    ``make_parity.py``)."""
    for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        meta = json.loads(line)
        case = folder / meta["case"]
        yield KiltCase(
            id=meta["case"],
            predictions=case / "guess.jsonl",
            references=case / "gold.jsonl",
            options=meta["options"],
            expected=meta["expected"],
        )


def _gold(id_: object = "a", answer: object = "Paris", pages: object = ("1",)) -> dict:
    output = {"answer": answer, "provenance": [{"wikipedia_id": p} for p in pages]}
    return {"id": id_, "input": "q", "output": [output]}


def _guess(id_: object = "a", answer: object = "Paris", pages: object = ("1",)) -> dict:
    return {
        "id": id_,
        "output": [{"answer": answer, "provenance": [{"wikipedia_id": p} for p in pages]}],
    }


def _two(pred: dict | None = None, ref: dict | None = None) -> dict:
    return {
        "predictions": [_guess("b"), pred if pred is not None else _guess()],
        "references": [_gold("b"), ref if ref is not None else _gold()],
    }


_P, _R = "predictions[1] (id 'a')", "references[1] (id 'a')"
INVALID = [
    InvalidCase("empty", {"predictions": [], "references": []}, ("references is empty",)),
    InvalidCase(
        "length-mismatch",
        {"predictions": [_guess()], "references": [_gold(), _gold("b")]},
        ("same length", "1 predictions", "2 references"),
    ),
    InvalidCase(
        "ids-out-of-step",
        _two(_guess("c")),
        ("predictions[1] (id 'c')", "field 'id'", "references[1] ('a')", "by position"),
    ),
    InvalidCase(
        "ids-out-of-step-the-other-way",
        _two(_guess("0")),
        ("predictions[1] (id '0')", "field 'id'", "references[1] ('a')"),
    ),
    InvalidCase(
        "duplicate-ids",
        {"predictions": [_guess("b"), _guess(" b")], "references": [_gold("b"), _gold("b ")]},
        ("references[1] (id 'b ')", "the id is also references[0] (id 'b')'s", "distinct"),
    ),
    InvalidCase("float-id", _two(_guess(1.0)), ("predictions[1]", "'id'", "string or an int")),
    InvalidCase("missing-id", _two({"output": []}), ("predictions[1]", "missing field 'id'")),
    InvalidCase("missing-output", _two({"id": "a"}), (_P, "missing field 'output'")),
    InvalidCase(
        "output-not-a-list", _two({"id": "a", "output": {"answer": "x"}}), (_P, "'output'", "list")
    ),
    InvalidCase("int-answer", _two(_guess(answer=5)), (_P, "output[0].answer", "string")),
    InvalidCase("gold-int-answer", _two(ref=_gold(answer=0)), (_R, "output[0].answer", "string")),
    InvalidCase(
        "two-guess-outputs",
        _two({"id": "a", "output": [{"answer": "x"}, {"answer": "y"}]}),
        (_P, "exactly one output", "got 2", "the official scorer crashes"),
    ),
    InvalidCase(
        "guess-without-answer",
        _two({"id": "a", "output": [{"provenance": []}]}),
        (_P, "missing field 'output[0].answer'"),
    ),
    InvalidCase(
        "guess-without-outputs",
        _two({"id": "a", "output": []}),
        (_P, "exactly one output", "got 0"),
    ),
    InvalidCase(
        "retrieval-guess-without-provenance",
        _two({"id": "a", "output": [{"answer": "x"}]}),
        (_P, "exactly one output with 'provenance'"),
        options={"evaluation": "retrieval"},
    ),
    InvalidCase(
        "gold-without-outputs", _two(ref={"id": "a", "output": []}), (_R, "at least one output")
    ),
    InvalidCase(
        "no-gold-answer",
        _two(ref={"id": "a", "output": [{"provenance": [{"wikipedia_id": "1"}]}]}),
        (_R, "no gold answer"),
    ),
    InvalidCase("page-float", _two(_guess(pages=[1.5])), (_P, "wikipedia_id", "string or an int")),
    InvalidCase(
        "passage-text-int",
        _two(
            {
                "id": "a",
                "output": [{"answer": "x", "provenance": [{"wikipedia_id": "1", "text": 3}]}],
            }
        ),
        (_P, "provenance[0].text", "string"),
    ),
    InvalidCase(
        "missing-rank-key",
        _two(_guess()),
        ("references[0] (id 'b')", "output[0].provenance[0].section", "rank key"),
        options={"evaluation": "retrieval", "rank_keys": ["wikipedia_id", "section"]},
    ),
    InvalidCase(
        "later-commit-needs-input",
        _two(ref={"id": "a", "output": _gold()["output"]}),
        (_R, "missing field 'input'", "2664322"),
        options={"commit": "2664322"},
    ),
    InvalidCase("ks-in-downstream", _two(), ("ks", "retrieval"), options={"ks": [1, 3]}),
    InvalidCase(
        "ks-zero", _two(), ("positive int",), options={"evaluation": "retrieval", "ks": [0, 5]}
    ),
    InvalidCase(
        "ks-repeated", _two(), ("distinct",), options={"evaluation": "retrieval", "ks": [5, 5]}
    ),
    InvalidCase(
        "unknown-rank-key",
        _two(),
        ("rank_keys", "wikipedia_id"),
        options={"evaluation": "retrieval", "rank_keys": ["bleu_score"]},
    ),
    InvalidCase(
        "unknown-evaluation", _two(), ("evaluation", "retrieval"), options={"evaluation": "rag"}
    ),
    InvalidCase("unknown-commit", _two(), ("commit", "64e284a"), options={"commit": "9bcb119"}),
]


def awkward(inputs: dict, rng: random.Random) -> dict:
    """Tuples for lists, ints for digit ids and page ids (the same numbers: the official scorer
    matches ``str(value).strip()``)."""
    inputs = copy.deepcopy(inputs)

    def as_int(value):
        return int(value) if isinstance(value, str) and value.isdigit() else value

    for row in inputs["predictions"]:
        row["id"] = as_int(row["id"])
        for output in row["output"]:
            if output.get("provenance") is not None:
                output["provenance"] = tuple(
                    {**p, "wikipedia_id": as_int(p["wikipedia_id"])} for p in output["provenance"]
                )
        row["output"] = tuple(row["output"])
    return {
        "predictions": tuple(inputs["predictions"]),
        "references": tuple(inputs["references"]),
    }


ENTRY = MetricEntry(
    name="kilt",
    parity_cases=parity_cases,
    random_inputs=random_inputs,
    invalid_cases=INVALID,
    options=[
        {},
        {"evaluation": "retrieval"},
        {"evaluation": "retrieval", "ks": [3, 1], "rank_keys": ["wikipedia_id", "section"]},
        {"evaluation": "retrieval", "commit": "2664322"},
    ],
    awkward=awkward,
    space_check=SPACE_CHECK,
    parity_root=Path(__file__).resolve().parent / "parity",
)
