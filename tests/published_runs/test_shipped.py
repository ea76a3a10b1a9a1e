"""The shipped subsets and 2PL fit are what the build makes from the shipped verdicts (so a
changed build cannot slip in without a version change), and hold their promises."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from inspect_sparc.published_runs.shipped import (
    NAMES,
    build,
    check_subset_name,
    load_item_model,
    load_subset,
    subset_puzzles,
)
from inspect_sparc.published_runs.verdicts import load_verdicts


def test_rebuilding_gives_the_shipped_subsets_and_fit(tmp_path):
    build(tmp_path)
    shipped = {n: subset_puzzles(n) for n in NAMES}
    with (tmp_path / "subsets.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    for name in NAMES:
        assert {r["puzzle_id"]: float(r[name]) for r in rows if r[name]} == shipped[name]
    with (tmp_path / "irt_items.csv").open() as handle:
        b = np.array([float(r["b"]) if r["b"] else np.nan for r in csv.DictReader(handle)])
    np.testing.assert_allclose(b, load_item_model().b, atol=2e-3)


@pytest.mark.parametrize("name", NAMES)
def test_each_subset_has_its_size_every_level_and_weights_summing_to_the_split(name):
    weights = subset_puzzles(name)
    size = int(name.split(":")[1])
    assert len(weights) == size
    assert sum(weights.values()) == pytest.approx(500, abs=1e-3)
    verdicts = load_verdicts()
    subset = load_subset(name)
    assert set(verdicts.levels[subset.chosen]) == {1, 2, 3, 4, 5}
    assert [verdicts.puzzle_ids[i] for i in subset.chosen] == list(weights)


def test_the_puzzles_no_published_run_solved_are_not_placed_and_are_sampled():
    model = load_item_model()
    never = np.nansum(load_verdicts().solved, axis=0) == 0
    assert (~model.placed == never).all() and never.sum() == 309
    assert (~model.placed[load_subset("informative:50").chosen]).sum() >= 10


def test_an_unknown_subset_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="informative:100"):
        check_subset_name("informative:75")
