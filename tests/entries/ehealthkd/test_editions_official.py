"""Each BRAT edition's hand-made cases (``brat_cases.CASES``) scored as its official code scores
them (``brat_cases.EDITION_EXPECTED``: the official 2020 ``evaluate_scenario`` and 2021
``score.py`` on the very files these tests write), from the files and from the rows
``read_official`` makes of them."""

from __future__ import annotations

import pytest

from .brat_cases import CASES, EDITION_EXPECTED, EDITION_FILES, KEYS, same, score_rows, score_tree

SCENARIOS = ("scenario1", "scenario2", "scenario3", "scenario4")
EDITION_CASES = [(edition, case) for edition in EDITION_FILES for case in CASES]


def _expected(edition: int, case: str, scenario: str) -> dict:
    return dict(zip(KEYS, EDITION_EXPECTED[edition][case][SCENARIOS.index(scenario)]))


def _scenarios(edition: int) -> tuple[str, ...]:
    return SCENARIOS[: len(EDITION_FILES[edition][1])]


@pytest.mark.parametrize("edition,case", EDITION_CASES)
def test_files_score_as_the_official_code(tmp_path, edition, case):
    scores = score_tree(tmp_path, CASES[case], edition)
    assert list(scores) == list(_scenarios(edition))
    for scenario in _scenarios(edition):
        got, want = scores[scenario], _expected(edition, case, scenario)
        assert same(got, want), (scenario, got)


@pytest.mark.parametrize("edition,case", EDITION_CASES)
def test_rows_read_from_the_files_score_alike(tmp_path, edition, case):
    for scenario in _scenarios(edition):
        got = score_rows(tmp_path / scenario, CASES[case], scenario, edition)
        assert same(got, _expected(edition, case, scenario)), (scenario, got)
