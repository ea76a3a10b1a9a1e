"""Search reproduces exactly the stored solution sets of the shipped puzzles."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from inspect_sparc.puzzle import Puzzle, parse_puzzle
from inspect_sparc.rules import check
from inspect_sparc.search import solve

FIXTURES = Path(__file__).parent / "fixtures" / "sparc"
PUZZLES = [
    parse_puzzle(json.loads(line)) for line in (FIXTURES / "puzzles.jsonl").read_text().splitlines()
]
#: Puzzles that take seconds to enumerate in pure Python (the 6x6 grids).
SLOW = {p.id for p in PUZZLES if p.width * p.height >= 36}


def _params() -> list[object]:
    """Every shipped puzzle, the slow ones marked."""
    return [
        pytest.param(p, id=p.id, marks=[pytest.mark.slow] if p.id in SLOW else []) for p in PUZZLES
    ]


@pytest.mark.parametrize("puzzle", _params())
def test_search_finds_exactly_the_stored_solutions(puzzle: Puzzle) -> None:
    found = solve(puzzle)
    assert len(found) == len(set(found))
    assert set(found) == set(puzzle.solutions)


def test_order_is_deterministic_and_limit_is_a_prefix() -> None:
    puzzle = max((p for p in PUZZLES if p.id not in SLOW), key=lambda p: len(p.solutions))
    everything = solve(puzzle)
    assert len(everything) == len(puzzle.solutions) > 10
    assert solve(puzzle) == everything
    assert solve(puzzle, limit=3) == everything[:3]
    assert solve(puzzle, limit=0) == []


def test_relaxed_puzzle_yields_only_checked_paths() -> None:
    """Dropping every symbol gives more paths, all of them valid for the relaxed puzzle."""
    record = copy.deepcopy(PUZZLES[0].record)
    record["puzzle_array"] = [
        [
            "N" if (x % 2 and y % 2) else ("+" if v not in ("S", "E") else v)
            for x, v in enumerate(row)
        ]
        for y, row in enumerate(record["puzzle_array"])
    ]
    relaxed = parse_puzzle(record)
    found = solve(relaxed)
    assert len(found) > len(PUZZLES[0].solutions)
    assert all(check(relaxed, path).valid for path in found)
    assert len(found) == len(set(found))


def test_unsolvable_puzzle_yields_nothing() -> None:
    record = copy.deepcopy(PUZZLES[0].record)
    end_x, end_y = PUZZLES[0].end
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y = end_x + dx, end_y + dy
        if 0 <= y < len(record["puzzle_array"]) and 0 <= x < len(record["puzzle_array"][0]):
            if (x % 2) != (y % 2):
                record["puzzle_array"][y][x] = "G"
    assert solve(parse_puzzle(record)) == []
