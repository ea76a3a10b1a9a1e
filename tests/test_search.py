"""Search reproduces exactly the stored solution sets of the shipped puzzles."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from inspect_sparc.core.puzzle import Puzzle, parse_puzzle
from inspect_sparc.core.rules import check
from inspect_sparc.core.search import solve

FIXTURES = Path(__file__).parent / "fixtures" / "sparc"
SAMPLE = Path(__file__).parent.parent / "inspect_sparc" / "data" / "sparc_sample.jsonl"


def _read(path: Path) -> list[Puzzle]:
    """Every puzzle of a JSON-lines records file."""
    return [parse_puzzle(json.loads(line)) for line in path.read_text().splitlines() if line]


PUZZLES = _read(FIXTURES / "puzzles.jsonl")
#: Fixture puzzles that still take seconds to enumerate in pure Python (none at present: the
#: slowest, 7f017c48853b5bdf, a 6x6 grid full of polyshapes, takes about 3 s of CPU).
SLOW: set[str] = set()


def _params(puzzles: list[Puzzle]) -> list[object]:
    """Every given puzzle, the slow ones marked."""
    return [
        pytest.param(p, id=p.id, marks=[pytest.mark.slow] if p.id in SLOW else []) for p in puzzles
    ]


@pytest.mark.parametrize("puzzle", _params(PUZZLES))
def test_search_finds_exactly_the_stored_solutions(puzzle: Puzzle) -> None:
    found = solve(puzzle)
    assert len(found) == len(set(found))
    assert set(found) == set(puzzle.solutions)


@pytest.mark.slow
def test_search_reproduces_every_stored_set_of_the_test_split(
    sparc_test_split: list[dict],
) -> None:
    """All 500 published puzzles: the search finds exactly the stored solutions, no repeats."""
    wrong = []
    for record in sparc_test_split:
        puzzle = parse_puzzle(record)
        found = solve(puzzle)
        if len(found) != len(set(found)) or set(found) != set(puzzle.solutions):
            wrong.append(puzzle.id)
    assert len(sparc_test_split) == 500
    assert wrong == []


@pytest.mark.parametrize("puzzle", _params(_read(SAMPLE)))
def test_search_matches_the_bundled_sample(puzzle: Puzzle) -> None:
    assert set(solve(puzzle)) == set(puzzle.solutions)


def test_limit_is_a_prefix_on_a_large_grid() -> None:
    """A 4x6 level-5 grid with several solutions: every limit cuts the same fixed order."""
    puzzle = next(p for p in PUZZLES if p.id == "a454bd9c3ad0168a")
    everything = solve(puzzle)
    assert len(everything) == len(puzzle.solutions) > 2
    for limit in range(1, len(everything) + 1):
        assert solve(puzzle, limit=limit) == everything[:limit]


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
