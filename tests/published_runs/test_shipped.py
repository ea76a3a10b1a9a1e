"""The shipped subsets and 2PL fit are what the build makes from the shipped verdicts (so a
changed build cannot slip in without a version change), and hold their promises."""

from __future__ import annotations

import csv
import dataclasses
import json
from importlib.resources import files

import numpy as np
import pytest

from inspect_sparc.published_runs.shipped import (
    NAMES,
    SUBSETS_VERSION,
    build,
    check_subset_name,
    frozen_run_ids,
    load_item_model,
    load_subset,
    subset_puzzles,
)
from inspect_sparc.published_runs.subsets import balance_matrix
from inspect_sparc.published_runs.verdicts import DATA, Verdicts, load_verdicts


def with_a_new_run(verdicts: Verdicts) -> Verdicts:
    """The shipped verdicts plus a strong made-up run published later: it solves every other
    puzzle, among them many that no shipped run solved (so it would move strata and fit)."""
    run = dataclasses.replace(verdicts.runs[0], run_id="later/strong-model", model="Later")
    row = (np.arange(len(verdicts.puzzle_ids)) % 2).astype(float)
    return dataclasses.replace(
        verdicts, runs=(*verdicts.runs, run), solved=np.vstack([verdicts.solved, row])
    )


def test_rebuilding_gives_the_shipped_subsets_and_fit_even_after_a_new_published_run(tmp_path):
    # built from the frozen list of runs: a run published later changes neither subset nor fit
    build(tmp_path, with_a_new_run(load_verdicts()))
    shipped = {n: subset_puzzles(n) for n in NAMES}
    with (tmp_path / "subsets.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    for name in NAMES:
        assert {r["puzzle_id"]: float(r[name]) for r in rows if r[name]} == shipped[name]
    with (tmp_path / "irt_items.csv").open() as handle:
        b = np.array([float(r["b"]) if r["b"] else np.nan for r in csv.DictReader(handle)])
    np.testing.assert_allclose(b, load_item_model().b, atol=2e-3)
    meta = json.loads((tmp_path / "irt_model.json").read_text())
    assert meta["version"] == SUBSETS_VERSION == 2 and "later/strong-model" not in meta["runs"]


def test_the_frozen_runs_are_the_59_shipped_and_the_fit_names_them():
    ids = frozen_run_ids()
    assert len(ids) == len(set(ids)) == 59
    assert set(ids) == {r.run_id for r in load_verdicts().runs}
    meta = json.loads(files(DATA).joinpath("irt_model.json").read_text("utf-8"))
    assert meta["runs"] == list(ids)


def test_a_missing_frozen_run_stops_the_build(tmp_path):
    verdicts = load_verdicts()
    fewer = dataclasses.replace(verdicts, runs=verdicts.runs[1:], solved=verdicts.solved[1:])
    with pytest.raises(KeyError, match="no published run"):
        build(tmp_path, fewer)


@pytest.mark.parametrize("name", NAMES)
def test_each_subset_is_balanced_on_the_2pl_chances_across_and_beyond_the_published_runs(name):
    # the Horvitz-Thompson totals of each puzzle's 2PL chance, at abilities from below the
    # published runs to far above them, match the split's: within 0.5 points for every one,
    # where the version 1 (unbalanced) informative:100 was off by up to 1.8 points
    model, subset = load_item_model(), load_subset(name)
    chances = balance_matrix(model)
    estimated = (subset.weights()[:, None] * chances[subset.chosen]).sum(axis=0) / 500
    assert np.abs(estimated - chances.mean(axis=0)).max() < 0.005


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


def test_the_puzzles_no_published_run_solved_are_not_placed_and_get_their_share():
    model = load_item_model()
    never = np.nansum(load_verdicts().solved, axis=0) == 0
    assert (~model.placed == never).all() and never.sum() == 309
    meta = json.loads(files(DATA).joinpath("irt_model.json").read_text("utf-8"))
    for name in NAMES:
        share = round(int(name.split(":")[1]) * meta["unsolved_share"])
        assert (~model.placed[load_subset(name).chosen]).sum() == share


def test_an_unknown_subset_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="informative:100"):
        check_subset_name("informative:75")
