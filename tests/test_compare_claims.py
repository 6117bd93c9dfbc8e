"""fever_score's per-claim statistics for resampling, read straight from rows in the official
list form (``fast_path.official_form_claims``), are the checking path's: the core's
``claim_scores`` of the normalized rows, claim by claim, for every ``max_evidence``."""

from __future__ import annotations

import random

import pytest

from taskeval._metrics.fever_score import scoring as core
from taskeval._metrics.fever_score.fast_path import official_form_claims
from taskeval.registry import contract

from entries.fever_score import random_rows


def _checked(inputs: dict, max_evidence) -> list[tuple]:
    predictions = core.normalize_predictions(inputs["predictions"])
    references = core.normalize_references(inputs["references"])
    return [
        (float(strict), float(ok), float(p is not None), p or 0.0, r or 0.0)
        for ok, strict, p, r in core.claim_scores(predictions, references, max_evidence)
    ]


@pytest.mark.parametrize("max_evidence", [5, 1, 0, -1, None])
@pytest.mark.parametrize("seed", range(8))
def test_claims_from_official_rows_are_the_checked_claims(seed, max_evidence):
    inputs = random_rows(random.Random(seed), 300)
    claims = official_form_claims(inputs["predictions"], inputs["references"], max_evidence)
    assert claims is not None  # the official list form: the fast path takes it
    assert claims == _checked(inputs, max_evidence)
    statistics = contract("fever_score").statistics(None, {"max_evidence": max_evidence})
    assert statistics.stats(inputs) == claims
