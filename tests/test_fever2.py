"""FEVER 2.0 (builder–breaker) scores of fever_score: potency, adjusted potency, resilience.

The expected values are fixed: the official FEVER 2.0 scorer's (``fever2/scorer.py`` of
fever-scorer's ``release-v2.0`` branch: its ``potency`` and its command line's resilience) on
the same rows. The official code adds with ``sum()``, which Python 3.12 made compensated, so a
few values differ in the last bit between 3.11 and 3.12: both are given, each the official
code's on that interpreter.
"""

from __future__ import annotations

import copy
import json
import sys

import pytest

from taskeval.cli import main
from taskeval.registry import contract, metric_module

fever2 = metric_module("fever_score", "fever2")
fever2_files = metric_module("fever_score", "fever2_files")

COMPENSATED = sys.version_info >= (3, 12)  # sum() of floats: Neumaier's compensated sum


def gold(n: int) -> list[dict]:
    return [
        {"id": i, "label": "SUPPORTS", "evidence": [[[None, None, f"Page_{i}", i]]]}
        for i in range(n)
    ]


def system(n: int, k: int) -> list[dict]:
    """Predictions of ``n`` claims, the first ``k`` strictly right (FEVER score k/n); the others
    with the wrong label or the right label and the wrong evidence."""
    return [
        {
            "id": i,
            "predicted_label": "SUPPORTS" if i < k or i % 2 == 0 else "REFUTES",
            "predicted_evidence": [[f"Page_{i}", i]] if i < k else [["Other", i]],
        }
        for i in range(n)
    ]


def table(breakers: list[tuple[str, float, int, list[tuple[str, int]]]]) -> dict:
    return {
        name: {
            "correct_rate": rate,
            "references": gold(n),
            "systems": {s: system(n, k) for s, k in systems},
        }
        for name, rate, n, systems in breakers
    }


# Sums whose last bit depends on the order of the additions (on Python 3.11): breaker b1's
# potency adds 1 - 6/7, 1 - 0/7, 1 - 3/7, 1 - 7/7; s3's resilience 3/7*0.85, 4/7*0.9, 1/7*0.2.
ORDER = [
    ("b1", 0.85, 7, [("s1", 6), ("s2", 0), ("s3", 3), ("s4", 7)]),
    ("b2", 0.9, 7, [("s1", 1), ("s2", 7), ("s3", 4), ("s4", 0)]),
    ("b3", 0.2, 7, [("s1", 0), ("s2", 2), ("s3", 1), ("s4", 7)]),
]
ORDER_BREAKERS = {
    "b1": (0.4285714285714286, 0.3642857142857143)
    if COMPENSATED
    else (0.42857142857142855, 0.36428571428571427),
    "b2": (0.5714285714285714, 0.5142857142857142),
    "b3": (0.6428571428571429, 0.1285714285714286),
}
ORDER_SYSTEMS = {
    "s1": (0.43956043956043955, {"b1": 0.8571428571428571, "b2": 0.14285714285714285, "b3": 0.0}),
    "s2": (0.4908424908424909, {"b1": 0.0, "b2": 1.0, "b3": 0.2857142857142857}),
    "s3": (
        0.46520146520146516 if COMPENSATED else 0.4652014652014652,
        {"b1": 0.42857142857142855, "b2": 0.5714285714285714, "b3": 0.14285714285714285},
    ),
    "s4": (0.5384615384615385, {"b1": 1.0, "b2": 0.0, "b3": 1.0}),
}

# Correct rates 0, 1 and 1/3; FEVER scores 0 and 1; two systems tied everywhere.
EDGES = [
    ("none-right", 0.0, 4, [("perfect", 4), ("hopeless", 0), ("half", 2), ("tie", 2)]),
    ("all-right", 1.0, 3, [("perfect", 3), ("hopeless", 0), ("half", 1), ("tie", 1)]),
    ("third", 1 / 3, 9, [("perfect", 9), ("hopeless", 0), ("half", 5), ("tie", 5)]),
]
EDGE_BREAKERS = {
    "none-right": (0.5, 0.0),
    "all-right": (0.5833333333333334, 0.5833333333333334),
    "third": (0.4722222222222222, 0.15740740740740738),
}
_HALF = {"none-right": 0.5, "all-right": 0.3333333333333333, "third": 0.5555555555555556}
EDGE_SYSTEMS = {
    "perfect": (1.0, {"none-right": 1.0, "all-right": 1.0, "third": 1.0}),
    "hopeless": (0.0, {"none-right": 0.0, "all-right": 0.0, "third": 0.0}),
    "half": (0.3888888888888889, _HALF),
    "tie": (0.3888888888888889, _HALF),
}


def expected(breakers: list, by_breaker: dict, by_system: dict) -> dict:
    rates = {name: float(rate) for name, rate, _, _ in breakers}
    counts = {name: len(systems) for name, _, _, systems in breakers}
    return {
        "breakers": {
            name: {
                "correct_rate": rates[name],
                "systems": counts[name],
                "potency": p,
                "adjusted_potency": a,
            }
            for name, (p, a) in by_breaker.items()
        },
        "systems": {
            name: {"resilience": r, "fever_scores": scores}
            for name, (r, scores) in by_system.items()
        },
    }


@pytest.mark.parametrize(
    "breakers, by_breaker, by_system",
    [(ORDER, ORDER_BREAKERS, ORDER_SYSTEMS), (EDGES, EDGE_BREAKERS, EDGE_SYSTEMS)],
    ids=["order", "edges"],
)
def test_a_table_scores_as_the_official_scorer(breakers, by_breaker, by_system):
    rows = table(breakers)
    before = copy.deepcopy(rows)
    assert fever2.fever2_scores(rows) == expected(breakers, by_breaker, by_system)
    assert rows == before  # the caller's rows are left as they were


def test_the_score_functions_give_the_table_numbers():
    scores = [k / 7 for _, k in ORDER[0][3]]
    assert fever2.potency(scores) == ORDER_BREAKERS["b1"][0]
    assert fever2.adjusted_potency(scores, 0.85) == ORDER_BREAKERS["b1"][1]
    assert fever2.resilience([3 / 7, 4 / 7, 1 / 7], [0.85, 0.9, 0.2]) == ORDER_SYSTEMS["s3"][0]
    assert fever2.resilience([0.5, 1 / 3, 5 / 9], [0.0, 1.0, 1 / 3]) == EDGE_SYSTEMS["half"][0]


def test_a_breaker_without_systems_has_the_official_int_0():
    assert fever2.potency([]) == 0 and type(fever2.potency([])) is int
    adjusted = fever2.adjusted_potency([], 0.5)
    assert adjusted == 0.0 and type(adjusted) is float  # the official 0 * 0.5
    result = fever2.fever2_scores({"empty": {"correct_rate": 0.5, "systems": {}}})
    assert result == {
        "breakers": {
            "empty": {"correct_rate": 0.5, "systems": 0, "potency": 0, "adjusted_potency": 0.0}
        },
        "systems": {},
    }
    assert type(result["breakers"]["empty"]["potency"]) is int


def test_one_system_one_breaker():
    rows = table([("only", 0.75, 5, [("sys", 2)])])
    assert fever2.fever2_scores(rows) == {
        "breakers": {
            "only": {
                "correct_rate": 0.75,
                "systems": 1,
                "potency": 0.6,
                "adjusted_potency": 0.44999999999999996,
            }
        },
        "systems": {"sys": {"resilience": 0.4000000000000001, "fever_scores": {"only": 0.4}}},
    }


def test_a_breakers_potency_adds_its_systems_in_the_order_given():
    """The same scores in another order give another last bit (Python 3.11), as officially."""
    rows = table(ORDER)
    rows["b1"]["systems"] = dict(reversed(rows["b1"]["systems"].items()))
    got = fever2.fever2_scores(rows)["breakers"]["b1"]["potency"]
    assert got == 0.4285714285714286  # the official potency of s4, s3, s2, s1
    # the systems of the result follow the first breaker's order
    assert list(fever2.fever2_scores(rows)["systems"]) == ["s4", "s3", "s2", "s1"]


def test_a_system_may_bring_its_own_gold():
    """compute()'s inputs of its own, as read_official gives for lines carrying their gold."""
    rows = table(ORDER)
    s2 = rows["b2"]["systems"]["s2"]
    rows["b2"]["systems"]["s2"] = {"predictions": s2, "references": gold(7)}
    assert fever2.fever2_scores(rows) == expected(ORDER, ORDER_BREAKERS, ORDER_SYSTEMS)


# ---------------------------------------------------------------------------------------------
# Refusals: each names the breaker, the system, the row and the field


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda t: t["b2"]["systems"].pop("s3"),
            "breaker 'b2': no predictions of system 's3' (breaker 'b1' has them)",
        ),
        (
            lambda t: t["b3"]["systems"].update(extra=system(7, 1)),
            "breaker 'b3': predictions of system 'extra', which breaker 'b1' lacks",
        ),
        (
            lambda t: t["b2"].update(correct_rate=1.5),
            "breaker 'b2': field 'correct_rate' must be a correct rate, a number from 0 to 1, "
            "got 1.5",
        ),
        (
            lambda t: t["b2"].update(correct_rate=True),
            "breaker 'b2': field 'correct_rate' must be a correct rate",
        ),
        (lambda t: t["b1"].pop("correct_rate"), "breaker 'b1': missing field 'correct_rate'"),
        (
            lambda t: t["b1"].update(rate=1.0),
            "breaker 'b1': unknown field 'rate'",
        ),
        (
            lambda t: t["b2"]["systems"]["s1"][3].pop("predicted_label"),
            "breaker 'b2', system 's1': predictions[3] (id 3): missing field 'predicted_label'",
        ),
        (
            lambda t: t["b3"]["references"][2].update(label=None),
            "breaker 'b3', system 's1': references[2] (id 2): field 'label' must be a string",
        ),
        (
            lambda t: t["b1"]["systems"]["s4"].pop(),
            "breaker 'b1', system 's4': predictions and references must have the same length",
        ),
        (
            lambda t: t["b1"].pop("references"),
            "breaker 'b1', system 's1': the breaker has no 'references'",
        ),
    ],
)
def test_a_bad_table_is_refused_by_name(change, message):
    rows = table(ORDER)
    change(rows)
    with pytest.raises(ValueError) as caught:
        fever2.fever2_scores(rows)
    assert message in str(caught.value)


def test_correct_rates_that_sum_to_0_are_refused_where_a_system_needs_them():
    rows = table([("x", 0.0, 3, [("s", 1)]), ("y", 0.0, 3, [("s", 2)])])
    with pytest.raises(ValueError, match="the correct rates sum to 0"):
        fever2.fever2_scores(rows)
    with pytest.raises(ValueError, match="the correct rates sum to 0"):
        fever2.resilience([0.5, 0.5], [0.0, 0.0])
    # no system, no resilience: nothing divides by the sum
    assert fever2.fever2_scores({"x": {"correct_rate": 0.0, "systems": {}}})["systems"] == {}


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: fever2.potency([0.5, 1.2]), "fever_scores[1] must be a FEVER score"),
        (lambda: fever2.potency([float("nan")]), "fever_scores[0] must be a FEVER score"),
        (lambda: fever2.adjusted_potency([0.5], -0.1), "correct_rate must be a correct rate"),
        (lambda: fever2.resilience([0.5], [0.5, 0.5]), "fever_scores has 1 scores but"),
        (lambda: fever2.resilience([0.5, 0.2], ["1", 0.5]), "correct_rates[0] must be a correct"),
    ],
)
def test_bad_scores_and_rates_are_refused_by_position(call, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        call()


# ---------------------------------------------------------------------------------------------
# Official files and the command line


def write_jsonl(path, rows) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def write_breakers(root, breakers, names=None) -> tuple[str, str, str]:
    """Each breaker's gold file and folder (a file per system, named ``names[s]`` or ``s``)."""
    actual, folders = [], []
    for name, _, n, systems in breakers:
        write_jsonl(root / f"{name}.jsonl", gold(n))
        (root / name).mkdir()
        for s, k in systems:
            write_jsonl(root / name / (names or {}).get(s, s), system(n, k))
        actual.append(str(root / f"{name}.jsonl"))
        folders.append(str(root / name))
    rates = ",".join(str(rate) for _, rate, _, _ in breakers)
    return ",".join(actual), ",".join(folders), rates


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_prints_the_official_numbers_as_json(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    actual, folders, rates = write_breakers(tmp_path, ORDER)
    actual, folders = actual.replace(f"{tmp_path}/", ""), folders.replace(f"{tmp_path}/", "")
    status, out, err = run(
        capsys,
        "fever2",
        "--actual-files",
        actual,
        "--breaker-dirs",
        folders,
        "--correct-scores",
        rates,
    )
    assert (status, err) == (0, "")
    assert json.loads(out) == expected(ORDER, ORDER_BREAKERS, ORDER_SYSTEMS)


def test_a_breaker_folder_is_read_in_sorted_order(tmp_path, capsys):
    """Files named so that sorted order is the official order of the ``ORDER`` case: its potency,
    not the reversed order's."""
    names = {"s1": "a-team", "s2": "b-team", "s3": "c-team", "s4": "d-team"}
    reverse = [(n, r, c, list(reversed(s))) for n, r, c, s in ORDER]  # written d, c, b, a
    actual, folders, rates = write_breakers(tmp_path, reverse, names)
    result = fever2_files.score_breaker_files(
        actual.split(","), folders.split(","), list(map(float, rates.split(",")))
    )
    assert list(result["systems"]) == ["a-team", "b-team", "c-team", "d-team"]
    b1 = result["breakers"][str(tmp_path / "b1")]
    assert (b1["potency"], b1["adjusted_potency"]) == ORDER_BREAKERS["b1"]
    assert result["systems"]["c-team"]["resilience"] == ORDER_SYSTEMS["s3"][0]


def test_the_table(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write_breakers(tmp_path, EDGES)
    status, out, _ = run(
        capsys,
        "fever2",
        "--actual-files",
        "none-right.jsonl,all-right.jsonl,third.jsonl",
        "--breaker-dirs",
        "none-right,all-right,third",
        "--correct-scores",
        "0,1,0.3333333333333333",
        "--table",
    )
    assert status == 0
    assert out.splitlines() == [
        "breaker     systems  correct rate  potency  adjusted potency",
        "----------  -------  ------------  -------  ----------------",
        "none-right  4        0.0000        0.5000   0.0000",
        "all-right   4        1.0000        0.5833   0.5833",
        "third       4        0.3333        0.4722   0.1574",
        "",
        "system    resilience  FEVER on none-right  FEVER on all-right  FEVER on third",
        "--------  ----------  -------------------  ------------------  --------------",
        "half      0.3889      0.5000               0.3333              0.5556",
        "hopeless  0.0000      0.0000               0.0000              0.0000",
        "perfect   1.0000      1.0000               1.0000              1.0000",
        "tie       0.3889      0.5000               0.3333              0.5556",
    ]


def test_official_line_forms_are_read(tmp_path, capsys):
    """``predicted_sentences`` stands in for a missing ``predicted_evidence``, and a line carrying
    ``label`` and ``evidence`` is its own gold, as in the official scorer."""
    breakers = [("b", 0.5, 4, [("one", 3), ("two", 1)])]
    actual, folders, _ = write_breakers(tmp_path, breakers)
    lines = system(4, 3)
    lines[0]["predicted_sentences"] = lines[0].pop("predicted_evidence")
    lines[1].update(label="SUPPORTS", evidence=[[[None, None, "Page_1", 1]]])
    write_jsonl(tmp_path / "b" / "one", lines)
    result = fever2_files.score_breaker_files([actual], [folders], [0.5])
    assert result["systems"]["one"]["fever_scores"] == {folders: 0.75}
    assert result["breakers"][folders]["potency"] == 0.5  # (0.25 + 0.75) / 2


@pytest.mark.parametrize(
    "setup, argv_rates, status, message",
    [
        (
            lambda root: (root / "b2" / "s3").unlink(),
            None,
            1,
            "b2: no file 's3', which {root}/b1 has: each system's predictions must be in every "
            "breaker folder",
        ),
        (
            lambda root: write_jsonl(root / "b3" / "s5", system(7, 1)),
            None,
            1,
            "b3: file 's5', which {root}/b1 lacks",
        ),
        (
            lambda root: (root / "b1" / "sub").mkdir(),
            None,
            1,
            "b1: 'sub' is not a file: every entry of a breaker folder is read",
        ),
        (
            lambda root: write_jsonl(root / "b2" / "s2", [{"predicted_label": "SUPPORTS"}] * 7),
            None,
            1,
            "{root}/b2/s2, line 1: missing field 'predicted_evidence'",
        ),
        (
            lambda root: write_jsonl(root / "b2" / "s2", []),
            None,
            1,
            "{root}/b2/s2: predictions is empty",
        ),
        (lambda root: None, "0.9,0.8", 2, "3 --actual-files, 3 --breaker-dirs and 2 --correct"),
        (lambda root: None, "0.9,0.8,nan", 2, "--correct-scores: expected numbers from 0 to 1"),
        (lambda root: None, "0.9,0.8,1.01", 2, "expected numbers from 0 to 1, got '1.01'"),
        (lambda root: None, "0,0,0", 1, "the correct rates sum to 0"),
    ],
)
def test_the_command_refuses_by_file_and_line(tmp_path, capsys, setup, argv_rates, status, message):
    actual, folders, rates = write_breakers(tmp_path, ORDER)
    setup(tmp_path)
    got, out, err = run(
        capsys,
        "fever2",
        "--actual-files",
        actual,
        "--breaker-dirs",
        folders,
        "--correct-scores",
        argv_rates or rates,
    )
    assert (got, out) == (status, "")
    assert err.startswith("taskeval fever2: error: ")
    assert message.format(root=tmp_path) in err


def test_a_row_error_names_the_gold_file_and_line(tmp_path, capsys):
    actual, folders, rates = write_breakers(tmp_path, ORDER)
    rows = gold(7)
    rows[4]["evidence"] = [[["x", "y", "Page_4", "four"]]]
    write_jsonl(tmp_path / "b3.jsonl", rows)
    status, _, err = run(
        capsys, "fever2", "--actual-files", actual, "--breaker-dirs", folders,
        "--correct-scores", rates,
    )  # fmt: skip
    assert status == 1
    assert f"{tmp_path}/b3.jsonl, line 5 (id 4): field 'evidence'[0][0] must be" in err


def test_the_command_is_declared_by_the_contract_not_the_package():
    (command,) = contract("fever_score").commands
    assert command.name == "fever2"
    import taskeval.cli

    assert "fever2" not in taskeval.cli.COMMANDS
    assert taskeval.cli.metric_commands()["fever2"] == ("fever_score", command)
