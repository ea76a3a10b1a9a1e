"""The test-grid guard sees a test puzzle in all eight orientations (shapes turning with the
grid), with its colours permuted and with S and E swapped, and the generator never emits one.
Oracles: numpy's rot90/flip for the orientations; a colour permutation and an S/E swap written
here cell by cell."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import numpy as np
import pytest

from inspect_sparc.core.generate import generator
from inspect_sparc.core.generate.generator import generate_one, generate_puzzles
from inspect_sparc.core.generate.grid_hashes import grid_hash, shipped_test_hashes
from inspect_sparc.core.generate.leakage import LeakageError, check_no_test_grids, is_test_grid
from inspect_sparc.core.puzzle.parse import COLORS


def oriented(
    record: dict[str, Any], turns: int, flip: bool, rename: bool = False
) -> dict[str, Any]:
    """The record turned `turns` quarters (numpy) and mirrored, its shapes turned alike."""

    def move(matrix: list[Any]) -> list[Any]:
        array = np.rot90(np.array(matrix, dtype=object), turns)
        return cast("list[Any]", (np.fliplr(array) if flip else array).tolist())

    shapes = json.loads(record["polyshapes"] or "{}")
    names = {key: f"9{key}" if rename else key for key in shapes}
    grid = [[_renamed(value, names) for value in row] for row in move(record["puzzle_array"])]
    polyshapes = {names[key]: move(matrix) for key, matrix in shapes.items()}
    return dict(
        record,
        id=f"{record['id']}-{turns}{flip}",
        puzzle_array=grid,
        polyshapes=json.dumps(polyshapes),
    )


def recoloured(record: dict[str, Any], colours: dict[str, str]) -> dict[str, Any]:
    """The record with every symbol's colour letter replaced by `colours[letter]`."""

    def cell(value: str) -> str:
        parts = value.split("-")
        if len(parts) > 1:
            parts[1] = colours.get(parts[1], parts[1])
        return "-".join(parts)

    grid = [[cell(value) for value in row] for row in record["puzzle_array"]]
    return dict(record, id=f"{record['id']}-recoloured", puzzle_array=grid)


def ends_swapped(record: dict[str, Any]) -> dict[str, Any]:
    """The record with S and E trading places (its solutions read backwards)."""
    swap = {"S": "E", "E": "S"}
    grid = [[swap.get(value, value) for value in row] for row in record["puzzle_array"]]
    return dict(record, id=f"{record['id']}-swapped", puzzle_array=grid)


def colours_of(record: dict[str, Any]) -> list[str]:
    """The colour letters a record's grid uses."""
    found = {value.split("-")[1] for row in record["puzzle_array"] for value in row if "-" in value}
    return sorted(found)


def _renamed(value: str, names: dict[str, str]) -> str:
    parts = value.split("-")
    return f"{parts[0]}-{parts[1]}-{names[parts[2]]}" if len(parts) == 3 else value


@pytest.fixture(scope="module")
def shaped(sparc_records) -> dict[str, Any]:
    """A test puzzle on a non-square grid with an asymmetric polyshape (the hardest case)."""
    for record in sparc_records:
        shapes = json.loads(record["polyshapes"] or "{}")
        size = record["grid_size"]
        asymmetric = any(
            not np.array_equal(np.array(m), np.rot90(np.array(m), 2)) for m in shapes.values()
        )
        if size["width"] != size["height"] and asymmetric:
            return cast("dict[str, Any]", record)
    pytest.fail("no fixture puzzle with an asymmetric shape on a non-square grid")


def test_the_shipped_hashes_are_the_test_split_grids(sparc_test_split):
    assert shipped_test_hashes() == {grid_hash(r) for r in sparc_test_split}


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
@pytest.mark.parametrize("flip", [False, True])
def test_every_orientation_of_a_test_grid_is_caught(shaped, turns, flip):
    variant = oriented(shaped, turns, flip, rename=True)
    assert is_test_grid(variant)
    with pytest.raises(LeakageError, match=variant["id"]):
        check_no_test_grids([variant])


def test_a_turned_grid_whose_shapes_did_not_turn_is_another_puzzle(shaped):
    turned = oriented(shaped, 1, False)
    stiff = dict(turned, polyshapes=shaped["polyshapes"])
    assert not is_test_grid(stiff)
    check_no_test_grids([stiff])


def test_a_test_grid_changed_in_one_cell_is_not_caught(shaped):
    grid = [list(row) for row in shaped["puzzle_array"]]
    y, x = next((y, x) for y, row in enumerate(grid) for x, v in enumerate(row) if v == "+")
    grid[y][x] = "G"
    assert not is_test_grid(dict(shaped, puzzle_array=grid))


def test_the_generator_skips_a_test_grid_and_draws_the_same_next_one(monkeypatch):
    first = generate_one(5, 0, 1)
    # pretend the puzzle it makes is a test grid: it must make another, the same every time
    monkeypatch.setattr(
        generator, "shipped_test_hashes", lambda: shipped_test_hashes() | {grid_hash(first)}
    )
    again = generate_one(5, 0, 1)
    assert grid_hash(again) != grid_hash(first)
    assert again == generate_one(5, 0, 1)
    assert generate_one(5, 1, 1) == generate_puzzles(2, 5, 1)[1]  # the others stay


def test_generated_sets_hold_no_test_grid():
    check_no_test_grids(generate_puzzles(6, 7, 1))


@pytest.fixture(scope="module")
def colourful(sparc_records) -> dict[str, Any]:
    """A test puzzle whose symbols have at least three colours."""
    return next(r for r in sparc_records if len(colours_of(r)) >= 3)


@pytest.mark.parametrize("turns", [0, 1])
def test_a_colour_permutation_of_a_test_grid_is_caught(colourful, turns):
    used = colours_of(colourful)
    shift = {c: COLORS[(COLORS.index(c) + 3) % len(COLORS)] for c in used}  # all moved
    variant = oriented(recoloured(colourful, shift), turns, flip=False)
    assert variant["puzzle_array"] != colourful["puzzle_array"]
    assert is_test_grid(variant)
    with pytest.raises(LeakageError, match=variant["id"]):
        check_no_test_grids([variant])


def test_swapping_s_and_e_of_a_test_grid_is_caught(colourful):
    variant = ends_swapped(colourful)
    assert variant["puzzle_array"] != colourful["puzzle_array"]
    assert is_test_grid(variant)
    with pytest.raises(LeakageError, match=variant["id"]):
        check_no_test_grids([variant])


def test_every_test_grid_permuted_turned_and_swapped_has_its_hash(sparc_test_split):
    """All 500: a random colour permutation, orientation and S/E swap keeps the hash."""
    rng = random.Random(38)
    for record in sparc_test_split:
        colours = dict(zip(COLORS, rng.sample(COLORS, len(COLORS)), strict=True))
        variant = recoloured(record, colours)
        variant = ends_swapped(variant) if rng.random() < 0.5 else variant
        variant = oriented(variant, rng.randrange(4), rng.random() < 0.5, rename=True)
        assert grid_hash(variant) == grid_hash(record), record["id"]


def test_a_recolouring_that_is_no_permutation_is_another_puzzle(sparc_records):
    """Two colours merged into one is a different puzzle (stars pair by colour): not caught."""
    record = next(r for r in sparc_records if len(colours_of(r)) >= 2)
    first, second = colours_of(record)[:2]
    merged = recoloured(record, {second: first})
    assert not is_test_grid(merged)
    check_no_test_grids([merged])


def test_a_generated_puzzle_that_was_a_recoloured_test_grid_is_no_longer_emitted():
    """Seed 202's level-1 puzzle 134 was a test grid with other colours before the guard
    saw colours; it is now drawn again, and the guard passes it."""
    check_no_test_grids([generate_one(202, 134, 1)])
