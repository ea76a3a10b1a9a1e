"""Every task builds the same samples, and scores the same answers the same way, as when
`tests/fixtures/evals/golden.json` was written (`python tests/eval_golden.py`): the proof that a
refactor of how tasks take their arguments changed nothing a user gets."""

from __future__ import annotations

import json
from typing import Any

import pytest
from eval_golden import COMBINATIONS, FIXTURE, SPLIT, combination_key, fingerprints

EXPECTED = json.loads(FIXTURE.read_text(encoding="utf-8"))
WITH_EVAL = [c for c in COMBINATIONS if c[2] is not None]
#: Generating puzzles takes most of a minute (compiling the search) and the 500-puzzle split
#: seconds a task: those run with the evals, among the slow tests.
HEAVY = [
    c for c in COMBINATIONS if c[2] is None and ("generated:" in str(c[1]) or SPLIT in str(c[1]))
]
DATASET_ONLY = [c for c in COMBINATIONS if c[2] is None and c not in HEAVY]


def test_the_fixture_covers_every_combination_and_every_task():
    assert sorted(EXPECTED) == sorted(combination_key(c) for c in COMBINATIONS)
    tasks = {"sparc", "sparc_hard", "sparc_gym", "sparc_visual", "sparc_agent", "algopuzzlevqa"}
    assert {task for task, _, _ in WITH_EVAL} == tasks  # each task also scores answers
    # the fixture pins real work: samples for most, the one-line error for the rest
    assert sum("samples" in found for found in EXPECTED.values()) >= 45
    assert all("\n" not in found.get("error", "") for found in EXPECTED.values())


@pytest.fixture(scope="module")
def datasets() -> dict[str, dict[str, Any]]:
    """The fingerprints of the combinations without an eval (seconds)."""
    found: dict[str, dict[str, Any]] = fingerprints(DATASET_ONLY)
    return found


@pytest.mark.parametrize("key", [combination_key(c) for c in DATASET_ONLY])
def test_the_same_arguments_give_the_same_samples_or_the_same_error(datasets, key):
    assert datasets[key] == EXPECTED[key]


@pytest.mark.slow
def test_the_same_answers_get_the_same_scores_and_metrics():
    """The short evals (scripted replies and baseline solvers: their scores and metrics) and the
    datasets of generated sets and of the whole test split."""
    found = fingerprints(WITH_EVAL + HEAVY)
    differing = [key for key, value in found.items() if value != EXPECTED[key]]
    assert not differing, {key: (found[key], EXPECTED[key]) for key in differing}
