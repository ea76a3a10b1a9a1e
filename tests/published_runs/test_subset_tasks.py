"""`-T puzzles=informative:N`: the tasks keep exactly the shipped subset of the test split, each
sample carrying its Horvitz-Thompson weight and the task naming the subset and its version."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
from inspect_sparc.evals.sparc.gym.tasks import sparc_gym
from inspect_sparc.evals.sparc.single_shot.tasks import sparc
from inspect_sparc.evals.sparc.visual.tasks import sparc_visual
from inspect_sparc.published_runs.shipped import SUBSETS_VERSION, subset_puzzles
from inspect_sparc.published_runs.verdicts import load_verdicts

SPARC_TEST_SPLIT = Path(__file__).parents[1] / "fixtures" / "sparc" / "test_split.jsonl.gz"

SPLIT = str(SPARC_TEST_SPLIT)


def test_the_verdicts_cover_exactly_the_published_test_split_with_its_levels():
    with gzip.open(SPARC_TEST_SPLIT, "rt") as handle:
        records = [json.loads(line) for line in handle]
    levels = {r["id"]: r["difficulty_level"] for r in records}
    verdicts = load_verdicts()
    assert dict(zip(verdicts.puzzle_ids, verdicts.levels.tolist(), strict=True)) == levels


@pytest.mark.parametrize("make", [sparc, sparc_gym, sparc_visual, sparc_agent])
def test_a_subset_task_runs_the_subset_with_its_weights(make):
    task = make(source=SPLIT, puzzles="informative:100")
    weights = subset_puzzles("informative:100")
    samples = list(task.dataset)
    assert sorted(s.id for s in samples) == sorted(weights)
    assert all(s.metadata["subset_weight"] == weights[s.id] for s in samples)
    assert task.metadata["puzzles"] == "informative:100"
    assert task.metadata["puzzles_version"] == SUBSETS_VERSION
    # levels still interleave, so --limit 10 stays spread over levels
    assert len({s.metadata["level"] for s in samples[:5]}) == 5


def test_all_puzzles_is_the_default_and_adds_no_metadata():
    task = sparc(source=SPLIT)
    assert task.metadata is not None
    assert len(task.dataset) == 500 and "puzzles" not in task.metadata


def level_5_count() -> int:
    """How many of informative:50's puzzles are level 5 (what a level filter leaves of it)."""
    levels = dict(zip(load_verdicts().puzzle_ids, load_verdicts().levels.tolist(), strict=True))
    return sum(levels[p] == 5 for p in subset_puzzles("informative:50"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"puzzles": "informative:75"}, "informative:50, informative:100, informative:200"),
        ({"puzzles": "informative:50", "level": 5}, f"has {level_5_count()} of its 50 puzzles"),
        ({"puzzles": "informative:50", "source": "sample"}, "whole test split"),
        ({"puzzles": "informative:50", "split": "train"}, "subset of the test split"),
    ],
)
def test_a_subset_needs_the_whole_test_split(args, message):
    with pytest.raises(ValueError, match=message):
        sparc(**{"source": SPLIT, **args})
