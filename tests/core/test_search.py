"""Search reproduces exactly the stored solution sets of the shipped puzzles, with both engines
(pure Python and the compiled one), in the same order."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

import pytest

from inspect_sparc.core import search as search_engines
from inspect_sparc.core.puzzle.parse import Point, Puzzle, parse_puzzle
from inspect_sparc.core.puzzle.rules import check
from inspect_sparc.core.search import solve

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sparc"
SAMPLE = Path(__file__).parents[2] / "inspect_sparc" / "data" / "sparc_sample.jsonl"


def _read(path: Path) -> list[Puzzle]:
    """Every puzzle of a JSON-lines records file."""
    return [
        parse_puzzle(json.loads(line))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line
    ]


PUZZLES = _read(FIXTURES / "puzzles.jsonl")
#: Fixture puzzles that still take seconds to enumerate in pure Python (none at present: the
#: slowest, 7f017c48853b5bdf, a 6x6 grid full of polyshapes, takes about 3 s of CPU).
SLOW: set[str] = set()


#: Tests of the compiled engine: skipped without numba, failed without it in CI (conftest).
needs_numba = pytest.mark.usefixtures("numba_required")


@pytest.fixture(params=["python", "compiled"])
def engine(request: pytest.FixtureRequest) -> str:
    """Each search engine in turn (the compiled one needs numba: see `numba_required`)."""
    if request.param == "compiled":
        request.getfixturevalue("numba_required")
    return cast(str, request.param)


def _params(puzzles: list[Puzzle]) -> list[object]:
    """Every given puzzle, the slow ones marked."""
    return [
        pytest.param(p, id=p.id, marks=[pytest.mark.slow] if p.id in SLOW else []) for p in puzzles
    ]


@pytest.mark.parametrize("puzzle", _params(PUZZLES))
def test_search_finds_exactly_the_stored_solutions(puzzle: Puzzle, engine: str) -> None:
    found = solve(puzzle, engine=engine)
    assert len(found) == len(set(found))
    assert set(found) == set(puzzle.solutions)


def _wrong_sets(records: list[dict[str, Any]], engine: str) -> list[str]:
    """Ids whose search result is not exactly the stored solution set (or repeats a path)."""
    wrong = []
    for record in records:
        puzzle = parse_puzzle(record)
        found = solve(puzzle, engine=engine)
        if len(found) != len(set(found)) or set(found) != set(puzzle.solutions):
            wrong.append(puzzle.id)
    return wrong


@pytest.mark.slow
def test_python_search_reproduces_every_stored_set_of_the_test_split(
    sparc_test_split: list[dict[str, Any]],
) -> None:
    """All 500 published puzzles: the search finds exactly the stored solutions, no repeats."""
    assert len(sparc_test_split) == 500
    assert _wrong_sets(sparc_test_split, "python") == []


@needs_numba
def test_compiled_search_reproduces_every_stored_set_of_the_test_split(
    sparc_test_split: list[dict[str, Any]],
) -> None:
    """The compiled engine on all 500 published puzzles (a few seconds, so in every run)."""
    assert len(sparc_test_split) == 500
    assert _wrong_sets(sparc_test_split, "compiled") == []


@needs_numba
@pytest.mark.slow
def test_engines_give_the_same_order_on_the_test_split(
    sparc_test_split: list[dict[str, Any]],
) -> None:
    """Both engines list every puzzle's paths in the same order (so limits cut the same)."""
    differ = []
    for record in sparc_test_split:
        puzzle = parse_puzzle(record)
        if solve(puzzle, engine="python") != solve(puzzle, engine="compiled"):
            differ.append(puzzle.id)
    assert differ == []


@pytest.mark.parametrize("puzzle", _params(_read(SAMPLE)))
def test_search_matches_the_bundled_sample(puzzle: Puzzle, engine: str) -> None:
    assert set(solve(puzzle, engine=engine)) == set(puzzle.solutions)


def test_limit_is_a_prefix_on_a_large_grid(engine: str) -> None:
    """A 4x6 level-5 grid with several solutions: every limit cuts the same fixed order."""
    puzzle = next(p for p in PUZZLES if p.id == "a454bd9c3ad0168a")
    everything = solve(puzzle, engine=engine)
    assert len(everything) == len(puzzle.solutions) > 2
    for limit in range(1, len(everything) + 1):
        assert solve(puzzle, limit=limit, engine=engine) == everything[:limit]


def test_order_is_deterministic_and_limit_is_a_prefix(engine: str) -> None:
    puzzle = max((p for p in PUZZLES if p.id not in SLOW), key=lambda p: len(p.solutions))
    everything = solve(puzzle, engine=engine)
    assert len(everything) == len(puzzle.solutions) > 10
    assert solve(puzzle, engine=engine) == everything
    assert solve(puzzle, limit=3, engine=engine) == everything[:3]
    assert solve(puzzle, limit=0, engine=engine) == []


@needs_numba
@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_engines_list_paths_in_the_same_order(puzzle: Puzzle) -> None:
    assert solve(puzzle, engine="compiled") == solve(puzzle, engine="python")


def test_relaxed_puzzle_yields_only_checked_paths(engine: str) -> None:
    """Dropping every symbol gives more paths, all of them valid for the relaxed puzzle."""
    record = dict(copy.deepcopy(PUZZLES[0].record))
    record["puzzle_array"] = [
        [
            "N" if (x % 2 and y % 2) else ("+" if v not in ("S", "E") else v)
            for x, v in enumerate(row)
        ]
        for y, row in enumerate(record["puzzle_array"])
    ]
    relaxed = parse_puzzle(record)
    found = solve(relaxed, engine=engine)
    assert len(found) > len(PUZZLES[0].solutions)
    assert all(check(relaxed, path).valid for path in found)
    assert len(found) == len(set(found))


def test_unsolvable_puzzle_yields_nothing(engine: str) -> None:
    record = dict(copy.deepcopy(PUZZLES[0].record))
    end_x, end_y = PUZZLES[0].end
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y = end_x + dx, end_y + dy
        if 0 <= y < len(record["puzzle_array"]) and 0 <= x < len(record["puzzle_array"][0]):
            if (x % 2) != (y % 2):
                record["puzzle_array"][y][x] = "G"
    assert solve(parse_puzzle(record), engine=engine) == []


def _refuse(*_args: object) -> None:
    raise AssertionError("the compiled engine ran")


def test_engine_names_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = PUZZLES[0]
    with pytest.raises(ValueError, match="engine must be one of auto, python, compiled"):
        solve(puzzle, engine="fast")
    monkeypatch.setenv(search_engines.ENGINE_VARIABLE, "numba")
    with pytest.raises(ValueError, match="INSPECT_SPARC_SEARCH must be one of"):
        solve(puzzle)


def test_python_engine_by_argument_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asking for the pure search never touches the compiled one (and gives the same paths)."""
    puzzle = PUZZLES[0]
    expected = solve(puzzle, engine="python")
    monkeypatch.setattr(search_engines, "solve_compiled", _refuse)
    monkeypatch.setenv(search_engines.ENGINE_VARIABLE, "Python")
    assert solve(puzzle) == expected
    monkeypatch.setenv(search_engines.ENGINE_VARIABLE, "compiled")
    assert solve(puzzle, engine="python") == expected


def test_without_numba_auto_runs_python_and_compiled_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    puzzle = PUZZLES[0]
    monkeypatch.setattr(search_engines, "available", lambda: False)
    monkeypatch.setattr(search_engines, "solve_compiled", _refuse)
    monkeypatch.delenv(search_engines.ENGINE_VARIABLE, raising=False)
    assert set(solve(puzzle)) == set(puzzle.solutions)
    hint = r"needs numba: pip install numba \(from a checkout: pip install -e '\.\[fast\]'\)"
    with pytest.raises(RuntimeError, match=hint):
        solve(puzzle, engine="compiled")


@needs_numba
def test_auto_runs_the_compiled_engine_when_numba_is_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(search_engines.ENGINE_VARIABLE, raising=False)
    monkeypatch.setattr(search_engines, "solve_compiled", _refuse)
    with pytest.raises(AssertionError, match="the compiled engine ran"):
        solve(PUZZLES[0])


def test_a_grid_too_large_for_the_masks_runs_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """8x8 cells (81 lattice nodes) do not fit 63-bit masks: the pure search takes over."""
    size = 17
    array = [["+" if (x % 2 == 0 or y % 2 == 0) else "N" for x in range(size)] for y in range(size)]
    array[size - 1][0], array[0][size - 1] = "S", "E"
    # one solution: up the left border, then along the top
    corner = [(0, y) for y in range(size - 1, -1, -1)] + [(x, 0) for x in range(1, size)]
    stored = [{"path": [{"x": x, "y": y} for x, y in corner], "pathLength": len(corner)}]
    record = dict(copy.deepcopy(PUZZLES[0].record))
    record.update(
        id="large", puzzle_array=array, grid_size={"width": 8, "height": 8}, solutions=stored
    )
    large = parse_puzzle(record)
    assert not search_engines.fits(large)
    assert search_engines.fits(PUZZLES[0])
    monkeypatch.setattr(search_engines, "solve_compiled", _refuse)
    found = solve(large, limit=3, engine="auto")
    assert len(found) == 3
    assert all(check(large, path).valid for path in found)


@needs_numba
@pytest.mark.slow
def test_engines_agree_on_fresh_generated_puzzles() -> None:
    """Beyond the published split: 120 generated puzzles (60 of the level mix, 60 of level 5)."""
    from inspect_sparc.core.generate.generator import generate_puzzles

    records = generate_puzzles(60, 11) + generate_puzzles(60, 12, level=5)
    differ = []
    for record in records:
        puzzle = parse_puzzle(record)
        if solve(puzzle, engine="python") != solve(puzzle, engine="compiled"):
            differ.append(puzzle.id)
    assert len(records) == 120
    assert differ == []


@pytest.mark.parametrize("limit", [10**6, 10**12, 2**70])
def test_a_huge_limit_is_no_limit(limit: int, engine: str) -> None:
    """No buffer is sized by the limit: a limit far beyond any puzzle's paths just means all."""
    puzzle = next(p for p in PUZZLES if p.id == "a454bd9c3ad0168a")
    assert solve(puzzle, limit=limit, engine=engine) == solve(puzzle, engine=engine)


def _grid_record(columns: int, rows: int, marks: dict[tuple[int, int], str]) -> dict[str, Any]:
    """A bare record: a grid of the given size in positions, with `marks` (S, E, symbols)."""
    array = [["N" if x % 2 and y % 2 else "+" for x in range(columns)] for y in range(rows)]
    for (x, y), value in marks.items():
        array[y][x] = value
    start = next(point for point, value in marks.items() if value == "S")
    record = dict(copy.deepcopy(PUZZLES[0].record))
    record.update(
        id="inner-end",
        puzzle_array=array,
        grid_size={"width": columns // 2, "height": rows // 2},
        polyshapes="{}",
        solutions=[{"path": [{"x": start[0], "y": start[1]}], "pathLength": 1}],
    )
    return record


def _every_valid_path(puzzle: Puzzle) -> set[tuple[Point, ...]]:
    """Brute force: every simple path from S to E over usable positions that `check` accepts."""
    usable = {
        (x, y)
        for x in range(puzzle.columns)
        for y in range(puzzle.rows)
        if not (x % 2 and y % 2) and (x, y) not in puzzle.gaps
    }
    found: set[tuple[Point, ...]] = set()

    def grow(path: list[Point], seen: set[Point]) -> None:
        x, y = path[-1]
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            edge, node = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
            if edge not in usable or edge in seen:
                continue
            if edge == puzzle.end:
                if check(puzzle, (*path, edge)).valid:
                    found.add((*path, edge))
            elif node in usable and node not in seen:
                if node == puzzle.end:
                    if check(puzzle, (*path, edge, node)).valid:
                        found.add((*path, edge, node))
                else:
                    grow([*path, edge, node], seen | {edge, node})

    sx, sy = puzzle.start
    firsts = [puzzle.start] if sx % 2 == 0 and sy % 2 == 0 else []
    firsts += (
        [] if firsts else [(sx + dx, sy + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    )
    for first in firsts:
        if first not in usable or first[0] % 2 or first[1] % 2:
            continue
        path = [puzzle.start] if first == puzzle.start else [puzzle.start, first]
        if first == puzzle.end:
            if check(puzzle, tuple(path)).valid:
                found.add(tuple(path))
        else:
            grow(path, set(path))
    return found


@pytest.mark.parametrize(
    "marks",
    [
        {(2, 0): "S", (2, 3): "E", (1, 3): "o-B", (3, 3): "o-R"},  # E mid-edge inside
        {(2, 3): "S", (6, 6): "E", (1, 3): "o-B", (3, 3): "o-R"},  # S mid-edge inside
        {(0, 0): "S", (3, 4): "E", (3, 3): "o-B", (3, 5): "o-R", (1, 1): "o-B"},
    ],
    ids=["inner-E", "inner-S", "inner-E-horizontal"],
)
def test_a_mid_edge_end_inside_the_grid_loses_no_path(
    marks: dict[tuple[int, int], str], engine: str
) -> None:
    """The cells either side of an inner mid-edge S or E may end in two regions: the search must
    not treat the cells along one side of the path as one region there (both engines once
    dropped 47 of the 91 paths of the first grid)."""
    puzzle = parse_puzzle(_grid_record(7, 7, marks))
    every = _every_valid_path(puzzle)
    assert len(every) > 10
    assert set(solve(puzzle, engine=engine)) == every


@needs_numba
def test_a_cold_numba_cache_is_announced_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The first compiled search on a machine pauses while numba compiles: one WARNING line
    says why, once per process, and none when the disk cache is warm."""
    from inspect_sparc.core.search import compiled

    def cold(dispatcher: object) -> bool:
        time.sleep(0.2)  # a slow probe: threads that arrive together would each announce
        return False

    monkeypatch.setattr(compiled, "cache_is_warm", cold)
    compiled._load_engine.cache_clear()
    try:
        with caplog.at_level("WARNING", logger="inspect_sparc.core.search"):
            # samples search in worker threads: the first few arrive together
            with ThreadPoolExecutor(4) as pool:
                list(pool.map(lambda p: solve(p, engine="compiled"), PUZZLES[:4]))
            solve(PUZZLES[1], engine="compiled")
        assert [r.getMessage() for r in caplog.records] == [
            "compiling the search engine with numba (once per machine, about 20 s; "
            "cached on disk afterwards)"
        ]
        monkeypatch.setattr(compiled, "cache_is_warm", lambda dispatcher: True)
        compiled._load_engine.cache_clear()
        caplog.clear()
        solve(PUZZLES[0], engine="compiled")
        assert caplog.records == []
    finally:
        compiled._load_engine.cache_clear()


@needs_numba
def test_the_cache_probe_finds_numbas_index_file() -> None:
    """`cache_is_warm` reads numba internals; this fails if they move (it would then stay
    silent rather than guess)."""
    from inspect_sparc.core.search import compiled, kernel

    assert hasattr(cast(Any, kernel.enumerate_candidates)._cache._cache_file, "_index_path")
    solve(PUZZLES[0], engine="compiled")
    assert compiled.cache_is_warm(kernel.enumerate_candidates)


def test_importing_the_search_loads_neither_numba_nor_inspect() -> None:
    """core/ is pure logic (no Inspect), and numba loads only with the compiled engine's first
    search (`available()` or the kernel), not on import."""
    code = (
        "import sys, inspect_sparc.core.search; "
        "print(','.join(m for m in ('numba', 'inspect_ai', 'numpy') if m in sys.modules))"
    )
    command = [sys.executable, "-c", code]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
