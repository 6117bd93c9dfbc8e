"""The shortcuts ``taskeval check`` takes on big files give what the plain ways give: a TyDi QA
document's length walked escape by escape, the search for integers orjson may misread, and a
plain ``taskeval check`` run without the command-line interface."""

from __future__ import annotations

import json
import random
import re

import pytest
from test_check import tydi_prediction, write

from taskeval._metrics.tydiqa.check import _counted, _measure
from taskeval.check import _has_long_int
from taskeval.entry import main as entry_main
from taskeval.entry import plain_check_call

# Pieces of the inside of a JSON string: text, one-character escapes, \u escapes (surrogate
# halves too), and escapes JSON does not have.
VALID = [
    "a", "é", "€", "😀", "\\n", "\\\\", '\\"', "\\/", "\\t", "\\u00e9", "\\u0041", "\\u20ac",
    "\\ud83d", "\\ude00", "\\uDBFF", "\\udc00", "u", "0",
]  # fmt: skip
INVALID = ["\\x", "\\u12", "\\uZZZZ", "\\u+12a", "\\u 123", "\\u1_23"]


def utf8_length(body: str) -> int:
    """The UTF-8 length of the text json reads from a string's inside (lone surrogates 3)."""
    return len(json.loads(f'"{body}"').encode("utf-8", "surrogatepass"))


def line(body: str) -> tuple[bytes, int, int]:
    data = ('{"document_plaintext":"' + body + '","x":1}').encode()
    start = data.index(b':"') + 2
    return data, start, start + len(body.encode())


@pytest.mark.parametrize("many", [1, 300])  # escapes walked one by one, and past the walk's cap
def test_document_length_is_the_utf8_length_json_reads(many):
    rng = random.Random(many)
    for _ in range(3000):
        body = "".join(rng.choice(VALID) for _ in range(rng.randint(0, 12))) * many
        assert _measure(*line(body)) == utf8_length(body), body


def test_fixed_lengths():
    assert _measure(*line("plain")) == 5
    assert _measure(*line("\\ud83d\\ude00")) == 4  # a surrogate pair: one 4-byte character
    assert _measure(*line("\\ude00\\ud83d")) == 6  # two lone halves, 3 bytes each
    assert _measure(*line("\\\\u0041")) == 6  # an escaped backslash, then "u0041"
    assert _measure(*line("\\n" * 300 + "\\u0800")) == 303


def test_an_escape_json_lacks_is_refused_only_where_the_document_holds_a_backslash_u():
    # (no scorer reads the document: one-character escapes alone are not validated)
    assert _measure(*line("a\\xb")) == 3
    assert _measure(*line("a\\xb" + "\\n" * 300)) == 303
    assert _measure(*line("a\\xb\\\\u")) is None
    for bad in INVALID:
        assert _measure(*line("é\\u00e9" + bad)) is None, bad
        assert _measure(*line(bad + "\\u00e9")) is None, bad


def test_walked_and_counted_lengths_agree_on_any_mix():
    rng = random.Random(7)
    for _ in range(20000):
        body = "".join(rng.choice(VALID + INVALID) for _ in range(rng.randint(0, 10)))
        data, start, end = line(body)
        assert _measure(data, start, end) == _counted(data, start, end), body


LONG_INT = re.compile(rb"\d{20}|-\d{19}")


@pytest.mark.parametrize(
    "text",
    [
        b'{"id": 1}',
        b'{"id": 12345678901234567890}',
        b'{"id": -1234567890123456789}',
        b'{"id": 1234567890123456789}',
        b'{"x": "0000000000000000000", "y": 1}',
        b'{"x": 1.00000000000000000000001}',
        b"9" * 19 + b" " + b"9" * 18,
        b"",
    ],
)
def test_long_integers_found_as_the_regular_expression_finds_them(text):
    assert _has_long_int(text) == bool(LONG_INT.search(text))


def test_long_integers_in_random_text():
    rng = random.Random(3)
    for _ in range(5000):
        text = bytes(rng.choice(b"0123456789- ,") for _ in range(rng.randint(0, 60)))
        assert _has_long_int(text) == bool(LONG_INT.search(text)), text


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["check", "m", "--predictions", "P"], ("m", "P", [], None, False)),
        (
            [
                "check",
                "m",
                "--json",
                "--inputs",
                "a",
                "b",
                "--references",
                "R",
                "--predictions",
                "P",
            ],
            ("m", "P", ["a", "b"], "R", True),
        ),
        (["check", "m", "--predictions", "P", "--predictions", "Q"], None),  # argparse decides
        (["check", "m", "--predictions", "P", "--inputs"], None),
        (["check", "m", "--predictions=P"], None),
        (["check", "m", "--pred", "P"], None),  # an abbreviation: argparse decides
        (["check", "m", "--predictions", "P", "--verbose"], None),  # no such option
        (["check", "m", "--predictions", "P", "-h"], None),
        (["check", "m", "--predictions", "P", "--json", "x"], None),
        (["check", "m", "--references", "R"], None),
        (["check", "--predictions", "P", "m"], None),
        (["score", "m", "--predictions", "P", "--references", "R"], None),
    ],
)
def test_plain_check_calls(argv, expected):
    assert plain_check_call(argv) == expected


def test_plain_check_call_prints_what_the_cli_prints(tmp_path, capsys):
    from taskeval.cli import main as cli_main

    preds = tmp_path / "p.jsonl"
    rows = [{"id": i, "predicted_label": "MAYBE", "predicted_evidence": []} for i in range(3)]
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for extra in ([], ["--json"]):
        argv = ["check", "fever_score", "--predictions", str(preds), *extra]
        assert entry_main(argv) == 1
        fast = capsys.readouterr()
        assert cli_main(argv) == 1
        assert capsys.readouterr() == fast
        assert "MAYBE" in fast.out


def test_tydiqa_span_within_its_passage_but_past_the_document(tmp_path):
    """A passage candidate may run past the document (a broken inputs file): a span inside it
    is still past the document."""
    import gzip

    import taskeval

    inputs = tmp_path / "test.jsonl.gz"
    example = {
        "example_id": 1,
        "language": "finnish",
        "document_plaintext": "Yksi kaksi.",
        "passage_answer_candidates": [{"plaintext_start_byte": 0, "plaintext_end_byte": 40}],
    }
    with gzip.open(inputs, "wt", encoding="utf-8") as f:
        f.write(json.dumps(example) + "\n")
    preds = tmp_path / "p.jsonl"
    write(preds, [tydi_prediction(1, 0, (5, 30))])
    report = taskeval.check("tydiqa", preds, inputs=inputs)
    assert [(p.line, p.field, p.message) for p in report.problems] == [
        (1, "'minimal_answer'", "[5, 30) ends outside the document (11 bytes of UTF-8 text)")
    ]


def fever_rows(n: int = 20, **fields) -> list[dict]:
    return [
        {"id": i, "predicted_label": "SUPPORTS", "predicted_evidence": [["Page", i]], **fields}
        for i in range(n)
    ]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"predicted_label": "refutes"}, []),  # compared upper-cased: fine
        ({"predicted_label": "MAYBE"}, ["'predicted_label'"] * 20),
        ({"label": "SUPPORTS", "evidence": [[[0, 0, "Page", 1]]]}, []),  # its own gold
        ({"label": "MAYBE", "evidence": []}, ["'label'"] * 20),  # its own gold, refused
    ],
)
def test_fever_a_file_clean_but_for_one_column(tmp_path, fields, expected):
    """Rows sound in every other respect take the column tests: what they cannot see is still
    reported on every line."""
    import taskeval

    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in fever_rows(**fields)), "utf-8")
    report = taskeval.check("fever_score", path)
    assert [p.field for p in report.errors] == expected
    assert [p.line for p in report.errors] == list(range(1, 21))[: len(expected)]


@pytest.mark.parametrize(
    ("offset", "refused"),
    [(0, False), (True, True), (1.0, True), ("0", True), (None, True), (2**63 + 5, False)],
)
def test_tydiqa_candidate_offsets_must_be_ints(tmp_path, offset, refused):
    """Read fast or whole (a line with true or false in it), an offset that is no int (a bool
    is none) refuses the example; an int past a signed 64-bit one is still an int."""
    import gzip

    import taskeval

    for question in ("is it so", "is it true"):  # "true" in the line: the whole reading
        inputs = tmp_path / "test.jsonl.gz"
        example = {
            "example_id": 1, "language": "finnish", "question_text": question,
            "document_plaintext": "Yksi kaksi.",
            "passage_answer_candidates": [{"plaintext_start_byte": offset,
                                           "plaintext_end_byte": 11}],
        }  # fmt: skip
        with gzip.open(inputs, "wt", encoding="utf-8") as f:
            f.write(json.dumps(example) + "\n")
        preds = write(tmp_path / "p.jsonl", [tydi_prediction(1, 0)])
        report = taskeval.check("tydiqa", preds, inputs=inputs)
        messages = [p.message for p in report.errors]
        expected = "objects with int plaintext_start_byte and plaintext_end_byte"
        assert any(expected in m for m in messages) == refused, (offset, question, messages)
