"""Differential fuzzing of the search: seeded random small grids, both engines, a brute force.

Each random puzzle is small enough for `rule_oracle` to enumerate every simple S-to-E path and
judge each with its own rule code; the pure and the compiled engine must list exactly those
paths (the same list, in the same order, from both). The grids cover every rule kind (dots,
gaps, squares, stars, triangles, polyshapes, ylops) and the shapes the published puzzles miss:
S or E a mid-edge inside the grid, E off the border, grids one cell wide. Used by
tests/core/test_search_fuzz.py and benchmarks/fuzz_search.py.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from rule_oracle import Board, valid_paths

from inspect_sparc.core.puzzle.parse import Path, Point, parse_puzzle
from inspect_sparc.core.search import solve

#: Shapes the random puzzles draw from (ids as in the records' `polyshapes`).
SHAPES = {
    "1": [[1]],
    "2": [[1, 1]],
    "3": [[1], [1]],
    "4": [[1, 1], [1, 0]],
    "5": [[1, 1, 1]],
    "6": [[1, 1], [1, 1]],
}
SIZES = {"1": 1, "2": 2, "3": 2, "4": 3, "5": 3, "6": 4}
COLORS = ("R", "B", "G")
#: Grid sizes (cells), smallest first; `max_nodes` keeps those the oracle enumerates quickly.
GRID_SIZES: tuple[tuple[int, int], ...] = (
    (1, 1),
    (1, 2),
    (2, 1),
    (1, 3),
    (3, 1),
    (2, 2),
    (1, 4),
    (4, 1),
    (2, 3),
    (3, 2),
)
GRID_SIZES += ((1, 5), (5, 1), (3, 3), (2, 4), (4, 2), (1, 7), (7, 1), (2, 5), (5, 2))
GRID_SIZES += ((3, 4), (4, 3), (2, 6), (6, 2), (4, 4), (3, 5), (5, 3))
#: What the figures count: rule kinds and endpoint shapes.
FEATURES = (
    "dot",
    "gap",
    "square",
    "star",
    "triangle",
    "polyshape",
    "ylop",
    "inner mid-edge S",
    "inner mid-edge E",
    "E off the border",
    "one cell wide",
)


def _nodes(size: tuple[int, int]) -> int:
    return (size[0] + 1) * (size[1] + 1)


def _is_border(point: Point, columns: int, rows: int) -> bool:
    x, y = point
    return x in (0, columns - 1) or y in (0, rows - 1)


def random_record(
    rng: random.Random, max_nodes: int = 16, name: str = "fuzz", inner: bool = False
) -> dict[str, Any]:
    """A random small puzzle as a published-schema record (its `solutions` a placeholder);
    `inner`: S or E is a mid-edge inside the grid (the shape the published puzzles lack)."""
    sizes = [size for size in GRID_SIZES if _nodes(size) <= max_nodes]
    if inner or rng.random() < 0.75:  # a grid one cell wide a quarter of the time
        sizes = [size for size in sizes if min(size) > 1]
    # larger grids more often: they hold the excursions, strips and walls most rules prune on
    (width, height) = rng.choices(sizes, weights=[_nodes(size) ** 2 for size in sizes])[0]
    columns, rows = 2 * width + 1, 2 * height + 1
    grid = [["N" if x % 2 and y % 2 else "+" for x in range(columns)] for y in range(rows)]
    positions = [(x, y) for y in range(rows) for x in range(columns) if not (x % 2 and y % 2)]
    kinds: dict[str, list[Point]] = {"border node": [], "border edge": [], "inner edge": []}
    kinds["inner node"] = []
    for x, y in positions:
        place = "border" if _is_border((x, y), columns, rows) else "inner"
        kinds[f"{place} {'edge' if (x + y) % 2 else 'node'}"].append((x, y))
    present = [kind for kind, points in kinds.items() if points]
    start = rng.choice(kinds[rng.choice(present)])
    end = start
    while end == start:
        end = rng.choice(kinds[rng.choice(present)])
    if inner:
        middle = rng.choice(kinds["inner edge"])
        if rng.random() < 0.5:
            start = middle if middle != end else start
        else:
            end = middle if middle != start else end
    grid[start[1]][start[0]], grid[end[1]][end[0]] = "S", "E"
    density = rng.choice((0.05, 0.1, 0.2))
    for x, y in positions:
        if (x, y) in (start, end):
            continue
        roll = rng.random()
        if roll < density / 2:
            grid[y][x] = "."
        elif roll < density and (x + y) % 2:
            grid[y][x] = "G"
    colors = COLORS[: rng.choice((1, 2, 2, 3))]
    shapes_left = 3
    fill = rng.choice((0.15, 0.3, 0.5))
    for y in range(1, rows, 2):
        for x in range(1, columns, 2):
            if rng.random() >= fill:
                continue
            kind = rng.choice("ooo**TTPPY")  # region rules (squares, stars) prune the most
            if kind == "T":
                kind = rng.choice("ABCD")
            color = rng.choice(colors)
            if kind in "PY":
                if not shapes_left:
                    continue
                shapes_left -= 1
                shape = rng.choice([k for k, n in SIZES.items() if n <= width * height])
                grid[y][x] = f"{kind}-{color}-{shape}"
            else:
                grid[y][x] = f"{kind}-{color}"
    used = sorted({v.split("-")[2] for row in grid for v in row if v[:1] in "PY"})
    return {
        "id": name,
        "difficulty_level": 1,
        "difficulty_score": 0.5,
        "grid_size": {"width": width, "height": height},
        "puzzle_array": grid,
        "polyshapes": json.dumps({k: SHAPES[k] for k in used}),
        "solutions": [{"index": 0, "path": [{"x": start[0], "y": start[1]}], "pathLength": 1}],
    }


def features(record: dict[str, Any]) -> set[str]:
    """Which of `FEATURES` a record shows."""
    grid = record["puzzle_array"]
    rows, columns = len(grid), len(grid[0])
    found = set()
    names = {".": "dot", "G": "gap", "o": "square", "*": "star", "P": "polyshape", "Y": "ylop"}
    for y, row in enumerate(grid):
        for x, value in enumerate(row):
            letter = value[:1]
            if letter in names:
                found.add(names[letter])
            elif letter in "ABCD" and len(value) > 1:
                found.add("triangle")
            elif value in "SE":
                inner = not _is_border((x, y), columns, rows)
                if inner and (x + y) % 2:
                    found.add(f"inner mid-edge {value}")
                if value == "E" and inner:
                    found.add("E off the border")
    if rows == 3 or columns == 3:
        found.add("one cell wide")
    return found


def oracle_paths(record: dict[str, Any]) -> set[Path]:
    """Every simple S-to-E path that `rule_oracle` finds rule-free (brute force)."""
    return valid_paths(Board(record))


@dataclass
class Report:
    """What a fuzz run found: counts, paths, per-feature counts and every disagreement."""

    puzzles: int = 0
    solvable: int = 0
    paths: int = 0
    seen: Counter[str] = field(default_factory=Counter)
    # "oracle" and each engine
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    mismatches: list[str] = field(default_factory=list)


def run(
    seed: int, count: int, engines: tuple[str, ...], max_nodes: int = 16, inner: bool = False
) -> Report:
    """Search `count` random puzzles (seeded) with each engine and compare with the oracle
    (`inner`: each with S or E a mid-edge inside the grid).

    Puzzles without a valid path are redrawn twice (a search that finds nothing tests little):
    about two in three of those kept have one."""
    rng = random.Random(f"inspect-sparc-fuzz:{seed}:{inner}")
    report = Report()
    for number in range(count):
        for _ in range(3):
            record = random_record(rng, max_nodes, f"fuzz-{seed}-{number}", inner)
            began = time.perf_counter()
            expected = oracle_paths(record)
            report.seconds["oracle"] += time.perf_counter() - began
            if expected:
                break
        puzzle = parse_puzzle(record)
        report.puzzles += 1
        report.solvable += bool(expected)
        report.paths += len(expected)
        report.seen.update(features(record))
        lists = {}
        for engine in engines:
            began = time.perf_counter()
            lists[engine] = solve(puzzle, engine=engine)
            report.seconds[engine] += time.perf_counter() - began
        for engine, found in lists.items():
            if len(found) != len(set(found)) or set(found) != expected:
                missing, extra = len(expected - set(found)), len(set(found) - expected)
                report.mismatches.append(
                    f"{record['id']} ({engine}: {missing} missing, {extra} extra, "
                    f"{len(found) - len(set(found))} repeated): {json.dumps(record)}"
                )
        if len(set(map(tuple, lists.values()))) > 1:
            report.mismatches.append(f"{record['id']} (the engines' orders differ)")
    return report
