"""The shared JSONL reader (metrics/_shared/jsonl.py) on fixed answers."""

from __future__ import annotations

import gc
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskeval.registry import metric_module

jsonl = metric_module("fever_score", "jsonl")
read_jsonl = jsonl.read_jsonl
pytestmark = pytest.mark.usefixtures("jsonl_parser")


def test_every_line_is_one_value(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"a": 1, "a": 2}\n[1, 2]\n"x"\n3\n')
    assert read_jsonl(path) == [{"a": 2}, [1, 2], "x", 3]
    assert read_jsonl(str(path)) == [{"a": 2}, [1, 2], "x", 3]
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert read_jsonl(empty) == []


# Python's bound on the digits of an int (sys.get_int_max_str_digits), said in plain words.
_TOO_MANY_DIGITS = (
    r"an integer of more than 4,300 digits, more than Python's json \(and so the official "
    r"scorer\) reads$"
)


@pytest.mark.parametrize(
    "content,line,what",
    [
        (b'{"a": 1}\n\n{"a": 2}\n', 2, "a blank line"),
        (b"{}\n{}\n{oops}\n", 3, "not a JSON value"),
        (b"nope", 1, "not a JSON value"),
        (b'{"a":\r1}\n', 1, "not a JSON value"),  # text mode: the \r ends the line
        (b'{"a": 1}\n"\xff"\n', 2, "not UTF-8 text"),
        (b'{"a": 1}\n{"a": ' + b"7" * 10_001 + b"}\n", 2, _TOO_MANY_DIGITS),
        (b'{}\n{"a": ' + b"[" * 200_000 + b"]" * 200_000 + b"}\n", 2, "JSON nested too deeply"),
    ],
)
def test_a_bad_line_is_named(tmp_path, content, line, what):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=rf"rows\.jsonl, line {line}: {what}") as info:
        read_jsonl(path)
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_the_garbage_collector_is_left_as_it_was(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b"1\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"{\n")
    assert gc.isenabled()
    read_jsonl(path)
    assert gc.isenabled()
    with pytest.raises(ValueError):
        read_jsonl(bad)
    assert gc.isenabled()
    gc.disable()
    try:
        read_jsonl(path)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_without_orjson_the_standard_json_reads_the_same(tmp_path, monkeypatch):
    """The metric folder alone needs only the standard library: with orjson missing, the reader
    falls back to json, with the same values and messages."""
    monkeypatch.setitem(sys.modules, "orjson", None)  # import orjson now raises ImportError
    source = Path(metric_module("fever_score", "jsonl").__file__)
    spec = importlib.util.spec_from_file_location("jsonl_without_orjson", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.fast_parser() is None
    monkeypatch.setattr(module, "_SMALL", 0)  # every file big enough for the fast parser
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"a": 1}\n{oops}\n')
    with pytest.raises(ValueError, match=r"rows\.jsonl, line 2: not a JSON value"):
        module.read_jsonl(path)
    path.write_bytes(b'{"a": 1, "a": 2}\n[1]\n')
    assert module.read_jsonl(path) == [{"a": 2}, [1]]


def test_without_the_c_scanner_json_loads_reads_every_line(tmp_path, monkeypatch):
    """On a Python without json's C accelerator, every line goes to json.loads."""
    monkeypatch.setitem(sys.modules, "_json", None)  # import _json now raises ImportError
    spec = importlib.util.spec_from_file_location("jsonl_without_c", Path(jsonl.__file__))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module._scan is None
    for line in ('{"a": 1, "a": [2.5, NaN]}', " 1", "[1,]"):
        assert _outcome(module.loads, line) == _outcome(json.loads, line)
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"a": 1}\r\n"x"\n')
    assert module.read_jsonl(path) == [{"a": 1}, "x"]


def test_reading_plain_lines_imports_neither_json_nor_re(tmp_path):
    """What makes a small file cheap to read: the reader alone, run without site (which may import
    re itself), imports neither json nor the regular expressions json would compile."""
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"a": [1, 2.5, "x", null, true]}\r\n"y"\n')
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import jsonl; "
        "rows = jsonl.read_jsonl(sys.argv[2]); "
        "print(rows, [m for m in ('json', 're') if m in sys.modules])"
    )
    folder = str(Path(jsonl.__file__).parent)
    done = subprocess.run(
        [sys.executable, "-S", "-c", code, folder, str(path)], capture_output=True, text=True
    )
    assert done.stdout == "[{'a': [1, 2.5, 'x', None, True]}, 'y'] []\n", done.stderr


def test_the_fast_parser_is_orjson():
    import orjson

    assert jsonl.fast_parser() is orjson.loads


@pytest.mark.parametrize(
    "content",
    [
        b'{"a": 1}\r{"a": 2}\r',
        b'{"a": 1}\r\n{"a": 2}\r\n',
        b'{"a": 1}\n{"a": 2}',
        b'{"a": 1}\r{"a": 2}',
    ],
)
def test_text_mode_line_breaks_each_end_a_line(tmp_path, content):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(content)
    assert read_jsonl(path) == [{"a": 1}, {"a": 2}]


@pytest.mark.parametrize(
    ("chunks", "universal", "expected"),
    [
        ([b"a\r", b"\nb"], True, [b"a", b"b"]),  # a "\r\n" split between two reads
        ([b"a\r", b"b"], True, [b"a", b"b"]),
        ([b"a\nb", b"c\n"], True, [b"a", b"bc"]),
        ([b"a\r"], True, [b"a"]),
        ([b"a\r"], False, [b"a\r"]),  # binary files end lines at "\n" only
        ([b"a\rb\n"], False, [b"a\rb"]),
    ],
)
def test_lines_across_reads(chunks, universal, expected):
    iter_lines = metric_module("fever_score", "jsonl").iter_lines
    got = [(n, data[start:end]) for n, data, start, end in iter_lines(chunks, universal)]
    assert got == list(enumerate(expected, 1))


@pytest.mark.parametrize("universal", [True, False])
def test_lines_are_given_as_their_read_comes_in(universal):
    """A line is handed over once the read holding its end is in, not after the whole file (a
    file is never held whole in memory)."""
    iter_lines = metric_module("fever_score", "jsonl").iter_lines
    reads = []

    def chunks():
        for chunk in (b"a\nb", b"\nc\n", b"d\n"):
            reads.append(chunk)
            yield chunk

    lines = iter_lines(chunks(), universal)
    number, data, start, end = next(lines)
    assert (number, data[start:end], len(reads)) == (1, b"a", 1)
    number, data, start, end = next(lines)
    assert (number, data[start:end], len(reads)) == (2, b"b", 2)


def test_long_integers_are_read_by_the_standard_json(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"a": 18446744073709551616, "b": -9223372036854775809}\n')
    assert read_jsonl(path) == [{"a": 2**64, "b": -(2**63) - 1}]


@pytest.mark.parametrize(
    "digits",
    [
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "-18446744073709551616",
    ],
)
def test_integers_at_the_edges_of_int64_are_exact(tmp_path, digits):
    """Each alone on its line, so that no longer integer beside it sends the line to json: a
    19-digit integer below -2**63 is a float to orjson, the exact int to json.loads."""
    path = tmp_path / "rows.jsonl"
    path.write_text(f'{digits}\n[{digits}]\n{{"a": {digits}}}\n')
    rows = read_jsonl(path)
    assert rows == [int(digits), [int(digits)], {"a": int(digits)}]
    assert type(rows[0]) is int and type(rows[1][0]) is int and type(rows[2]["a"]) is int


def test_only_files_of_at_least_small_bytes_use_the_fast_parser(tmp_path, monkeypatch):
    module = metric_module("fever_score", "jsonl")
    used, fast_parser = [], module.fast_parser
    monkeypatch.setattr(module, "fast_parser", lambda: used.append(1) or fast_parser())
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"a": 1}\n')  # 9 bytes
    monkeypatch.setattr(module, "_SMALL", 10)
    assert module.read_jsonl(path) == [{"a": 1}] and used == []
    monkeypatch.setattr(module, "_SMALL", 9)
    assert module.read_jsonl(path) == [{"a": 1}] and used == [1]
    monkeypatch.setattr(module, "_SMALL", 8)
    assert module.read_jsonl(path) == [{"a": 1}] and used == [1, 1]


def test_a_pipe_is_read_as_it_comes(tmp_path, monkeypatch):
    """A pipe has no size: its lines are read a chunk at a time, not first read whole."""
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc/self/fd")
    monkeypatch.setattr(jsonl, "_text_rows", lambda data: pytest.fail("read whole"))
    read, write = os.pipe()
    try:
        os.write(write, b'{"a": 1}\r\n2\n')
        os.close(write)
        assert read_jsonl(f"/proc/self/fd/{read}") == [{"a": 1}, 2]
    finally:
        os.close(read)


# Lines json.loads reads, and lines it refuses: what a text-mode JSONL line can hold.
_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
_NOISE = st.sampled_from(
    [" ", "\t", "\ufeff", ",", "]", "}", "{", '"', "\\", "NaN", "-", "1", "e", "\x00", ":"]
)


@st.composite
def _json_lines(draw) -> str:
    value = draw(_JSON_VALUES)
    separators = draw(st.sampled_from([None, (",", ":"), (" , ", " : ")]))
    line = json.dumps(value, ensure_ascii=draw(st.booleans()), separators=separators)
    for _ in range(draw(st.integers(0, 2))):  # a few edits: most lines stay valid, some not
        at = draw(st.integers(0, len(line)))
        if draw(st.booleans()):
            line = line[:at] + draw(_NOISE) + line[at:]
        else:
            line = line[:at] + line[at + 1 :]
    return line


def _outcome(loads, line: str):
    try:
        value = loads(line)
    except Exception as error:  # the error is the outcome compared
        return type(error), str(error)
    return repr(value), [type(v) for v in _leaves(value)], [id(v) for v in _leaves(value) if v != v]


def _leaves(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


@settings(max_examples=1000, deadline=None)
@given(_json_lines())
def test_a_line_is_read_as_json_loads_reads_it(line):
    """The same value (types and json's own NaN object included), or the same error."""
    assert _outcome(jsonl.loads, line) == _outcome(json.loads, line)


@pytest.mark.parametrize(
    "line",
    ['{"a": NaN, "b": [Infinity, -Infinity, NaN]}', " 1", "1 ", "\t[]\t", "\ufeff{}", "", "[" * 5000,
     '"\\ud800"', "1e400", "-0", "12345678901234567890123", '{"a": 1, "a": 2}', '"\x01"'],
)  # fmt: skip
def test_lines_json_loads_reads_its_own_way(line):
    assert _outcome(jsonl.loads, line) == _outcome(json.loads, line)
