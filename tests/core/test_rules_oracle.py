"""`check` against an independent oracle on every simple S-to-E path of the fixture puzzles.

For each puzzle small enough, every simple path from S to E over nodes and edges (symbols
ignored, gaps allowed) is judged by `check` and by `tests/rule_oracle.py`, which reads the raw
record and uses other algorithms. Both must name the same rules on every path, and the paths
they accept must be exactly the stored solutions (the sets are complete). A too-lenient or
too-strict rule therefore fails here even when the search, which has its own copy of the
rules, still reproduces the stored sets.
"""

from __future__ import annotations

import gzip
import json
import os
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, cast

import pytest
from rule_oracle import Board, Point, broken_rules, simple_paths

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.rules import board_for, check

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sparc"
RECORDS = {
    record["id"]: record
    for record in map(json.loads, (FIXTURES / "puzzles.jsonl").read_text().splitlines())
}
#: Puzzles of at most this many cells run in the default suite (41 puzzles, up to 4,752 paths
#: each, 26,139 in all); the five of 18 and 20 cells (11,713 to 74,148 paths) run with `-m slow`.
DEFAULT_CELLS = 16
SLOW_CELLS = 20


def _cells(record: dict[str, Any]) -> int:
    return cast(int, record["grid_size"]["width"] * record["grid_size"]["height"])


SMALL = sorted(i for i, r in RECORDS.items() if _cells(r) <= DEFAULT_CELLS)
if "MUTANT_UNDER_TEST" in os.environ:  # under mutmut (hundreds of runs): grids up to 3x3 + ylops
    SMALL = [i for i in SMALL if _cells(RECORDS[i]) <= 9 or i == "581706995f65f93d"]
LARGER = sorted(i for i, r in RECORDS.items() if DEFAULT_CELLS < _cells(r) <= SLOW_CELLS)


#: Every path with the rules' broken rules and the oracle's.
Judged = list[tuple[tuple[Point, ...], frozenset[str], frozenset[str]]]


@cache
def judged(
    puzzle_id: str,
) -> tuple[Board, Judged]:
    """Every simple path of a fixture puzzle with the rules `check` and the oracle name."""
    return _judge(RECORDS[puzzle_id])


def _judge(
    record: dict[str, Any],
) -> tuple[Board, Judged]:
    board, puzzle = Board(record), parse_puzzle(record)
    tables = board_for(puzzle)  # the package's tables, shared by every check of this puzzle
    return board, [
        (
            path,
            frozenset(check(puzzle, path, tables).broken_rules),
            frozenset(broken_rules(board, path)),
        )
        for path in simple_paths(board)
    ]


def _assert_agrees(board: Board, results: Judged) -> None:
    wrong = [(path, got, expected) for path, got, expected in results if got != expected]
    assert not wrong, f"{len(wrong)} path(s) judged differently; first: {wrong[0]}"
    oracle_valid = {path for path, _, expected in results if not expected}
    assert oracle_valid == board.solutions, "the oracle disagrees with the stored solution set"
    accepted = {path for path, got, _ in results if not got}
    assert accepted == board.solutions
    # every rejected path names a rule, and a simple path along nodes and edges is a line:
    # only gaps and puzzle rules can reject it
    for path, got, _ in results:
        assert got or path in board.solutions
        assert got <= {"gap", "dot", "square", "star", "triangle", "polyshape"}, (path, got)


@pytest.mark.parametrize("puzzle_id", SMALL)
def test_check_names_the_oracles_rules_on_every_simple_path(puzzle_id: str) -> None:
    _assert_agrees(*judged(puzzle_id))


def test_every_rule_kind_is_exercised() -> None:
    named: Counter[str] = Counter()
    with_ylops = 0
    for puzzle_id in SMALL:
        board, results = judged(puzzle_id)
        has_ylop = any(letter == "Y" for letter, _, _ in board.symbols.values())
        for _, got, _ in results:
            named.update(got)
            with_ylops += has_ylop and "polyshape" in got
    for rule in ("gap", "dot", "square", "star", "triangle", "polyshape"):
        assert named[rule] > 0, f"no path of the default puzzles breaks {rule!r}"
    assert with_ylops > 0, "no path breaks a polyshape rule in a puzzle with ylops"
    assert len(SMALL) >= (20 if "MUTANT_UNDER_TEST" in os.environ else 40)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle_id", LARGER)
def test_oracle_on_larger_fixture_grids(puzzle_id: str) -> None:
    _assert_agrees(*judged(puzzle_id))


@pytest.mark.slow
def test_oracle_on_small_grids_of_the_test_split() -> None:
    checked = 0
    with gzip.open(FIXTURES / "test_split.jsonl.gz", "rt", encoding="utf-8") as lines:
        split = [json.loads(line) for line in lines if line.strip()]
    for record in split:
        if _cells(record) <= DEFAULT_CELLS:
            _assert_agrees(*_judge(record))
            checked += 1
    assert checked >= 400


#: Small shapes as cell offsets (x, y), anchored at their first cell in reading order.
SHAPES = {
    "dot": ((0, 0),),
    "bar": ((0, 0), (1, 0)),
    "pole": ((0, 0), (0, 1)),
    "ell": ((0, 0), (0, 1), (1, 1)),
    "jay": ((0, 0), (-1, 1), (0, 1)),
    "long": ((0, 0), (1, 0), (2, 0)),
}


def test_polyshape_fitting_agrees_with_brute_force_on_random_regions() -> None:
    # Shapes, negative shapes and regions drawn at random on a 3x3 board: the package's exact
    # cover (with its symmetry pruning of identical negatives) must agree with brute force.
    import random

    from rule_oracle import _tiles

    from inspect_sparc.core.puzzle.rules import Board as Tables
    from inspect_sparc.core.puzzle.rules import polyshape_problem

    record = next(r for r in RECORDS.values() if r["grid_size"] == {"width": 3, "height": 3})
    oracle = Board(record)
    oracle.shapes = {name: frozenset(cells) for name, cells in SHAPES.items()}
    puzzle = parse_puzzle(record)
    rng = random.Random(12)
    cells = [(x, y) for y in range(3) for x in range(3)]
    # first a case that fits only with two identical negatives on the same cell (bars over
    # (0,0)-(1,0) and (1,0)-(2,0), both dots cancelling (1,0) twice)
    cases: list[tuple[list[tuple[int, int]], tuple[str, ...], tuple[str, ...]]] = [
        ([(0, 0), (2, 0)], ("bar", "bar"), ("dot", "dot"))
    ]
    for _ in range(1500):
        positive = tuple(sorted(rng.choices(list(SHAPES), k=rng.randrange(0, 4))))
        negative = tuple(sorted(rng.choices(list(SHAPES), k=rng.randrange(0, 3))))
        net = sum(len(SHAPES[s]) for s in positive) - sum(len(SHAPES[s]) for s in negative)
        size = net if 0 < net <= 9 and rng.random() < 0.9 else rng.randrange(1, 10)
        if positive or negative:
            cases.append((rng.sample(cells, size), positive, negative))
    fits = 0
    for region, positive, negative in cases:
        tables = Tables(puzzle=puzzle, shapes=dict(SHAPES))
        key = frozenset(y * 3 + x for x, y in region)
        ours = polyshape_problem(tables, key, positive, negative) == ""
        expected = _tiles(oracle, frozenset(region), positive, negative)
        assert ours == expected, (region, positive, negative)
        fits += ours
    assert _tiles(oracle, frozenset(cases[0][0]), *cases[0][1:])
    assert fits > 50
