"""The keys that name equivalent mutants in scripts/mutation.toml outlive edits elsewhere in their
module and change with the mutated line (scripts/mutation_keys.py; cosmic-ray is not needed:
mutants are given by line, operator and occurrence as cosmic-ray numbers them)."""

import importlib.util
from pathlib import Path

_path = Path(__file__).resolve().parents[1] / "scripts" / "mutation_keys.py"
_spec = importlib.util.spec_from_file_location("mutation_keys", _path)
keys = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(keys)
Key, Mutant = keys.Key, keys.Mutant

SOURCE = """\
LIMIT = 1 << 20


def first(values):
    return values[0]


class Reader:
    def read(self, k):
        if k < 0:
            return -1
        if k < 0:  # the same test again
            return -2
        return k
"""

# the second `if k < 0:` of Reader.read (line 12), and `values[0]` of first (line 5)
SECOND = Mutant(12, "core/ReplaceComparisonOperator_Lt_LtE", 1)
INDEX = Mutant(5, "core/NumberReplacer", 0)


def key_of(source: str, mutant: Mutant, *others: Mutant) -> Key:
    return keys.mutant_keys(source, [*others, mutant])[-1]


def test_a_key_names_function_line_operator_and_occurrence():
    first = Mutant(10, "core/ReplaceComparisonOperator_Lt_LtE", 0)
    assert keys.mutant_keys(SOURCE, [first, SECOND, INDEX]) == [
        Key("Reader.read", "if k < 0:", "ReplaceComparisonOperator_Lt_LtE", 0),
        Key("Reader.read", "if k < 0:", "ReplaceComparisonOperator_Lt_LtE", 1),
        Key("first", "return values[0]", "NumberReplacer", 0),
    ]
    assert key_of("X = 1\n", Mutant(1, "core/NumberReplacer", 1)) == Key(
        "<module>", "X = 1", "NumberReplacer", 0
    )


def test_an_edit_above_a_mutant_keeps_its_key():
    first = Mutant(10, "core/ReplaceComparisonOperator_Lt_LtE", 0)
    before = key_of(SOURCE, SECOND, first)
    edited = SOURCE.replace(
        "LIMIT = 1 << 20\n", "import os\n\nLIMIT = 1 << 21  # bytes\nOTHER = 3\n"
    ).replace(
        "    return values[0]\n", "    # the first one\n    return values[0] if values else None\n"
    )
    assert edited.splitlines()[15] == "        if k < 0:  # the same test again"
    moved_first = Mutant(first.line + 4, first.operator, first.occurrence + 1)
    moved = Mutant(SECOND.line + 4, SECOND.operator, SECOND.occurrence + 1)
    assert key_of(edited, moved, moved_first) == before
    # nor does a new comment on the mutated line, or other indentation and spacing
    respaced = SOURCE.replace("if k < 0:  # the same test again", "if  k <  0:  # reworded")
    assert key_of(respaced, SECOND, first) == before


def test_an_edit_of_the_mutated_line_changes_its_key():
    before = key_of(SOURCE, INDEX)
    edited = SOURCE.replace("return values[0]", "return values[1]")
    assert key_of(edited, INDEX) != before
    assert key_of(edited, INDEX).line == "return values[1]"


def test_a_renamed_function_changes_its_mutants_keys():
    renamed = SOURCE.replace("def first(", "def head(")
    assert key_of(renamed, INDEX).function == "head"
    assert key_of(renamed, INDEX) != key_of(SOURCE, INDEX)


def test_keys_as_written_in_the_configuration():
    written = ["Reader.read", "if  k < 0:", "core/ReplaceComparisonOperator_Lt_LtE", 1]
    first = Mutant(10, "core/ReplaceComparisonOperator_Lt_LtE", 0)
    assert keys.parse_key(written) == key_of(SOURCE, SECOND, first)
