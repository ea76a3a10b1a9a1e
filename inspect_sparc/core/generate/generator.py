"""Generate fresh SPaRC puzzles in the published schema, calibrated per level to the test split.

How one puzzle is made (all choices from a `random.Random` seeded by `(seed, index, level)` only,
so the bytes do not depend on the machine, the worker count or the shard):

1. draw a *profile* of the target level: one published puzzle's grid size, S and E, and how many
   squares, stars, triangles (by number), polyshapes, ylops, dots and gaps it holds; mirror S and
   E at random. Only these counts are reused: everything placed below is new;
2. draw a random S-E line near the profile's shortest solution length, and place symbols that this
   line satisfies: dots and gaps on and off it, triangles counting its edges (1, 2 or 4), squares
   coloured by region, polyshapes tiling a region exactly (only the 78 published shapes), ylops
   cancelling an extra shape, stars paired within their region;
3. drop a draft whose grid is a test-split grid in any of its 8 orientations (`core.grid_hashes`,
   the shipped hashes only, so the set does not depend on the machine's caches);
4. find every rule-valid path with the exhaustive search; keep the puzzle when it has 1 to
   `max_solutions` of them (and at most about twice as many as the profile's puzzle) and the
   fitted difficulty model puts it within one level of the target; otherwise draw again.
   difficulty_score is the model's prediction, moved into the target level's band when it falls
   in a neighbouring one, so level = floor(score) + 1.

Over 500 lines on purpose: it is the one recipe above, whose steps share one seeded
`random.Random` and its placement helpers; split, the draw order that fixes the bytes would be
spread over modules. Pure logic: no Inspect imports; the worker processes are
`runtime.processes`, the progress bar `runtime.progress`.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path as FilePath
from typing import Any

from inspect_sparc.core.generate.grid_hashes import grid_hash, shipped_test_hashes
from inspect_sparc.core.puzzle.parse import COLORS, LEVELS, Point, parse_puzzle
from inspect_sparc.core.puzzle.records import (
    build_record,
    features,
    predict_score,
)
from inspect_sparc.core.puzzle.rules import check, shape_offsets
from inspect_sparc.core.search import solve
from inspect_sparc.runtime.processes import ordered_map

# Re-exported: callers that guard their own pools import it from here.
from inspect_sparc.runtime.processes import pool_blocker as pool_blocker

CALIBRATION_FILE = FilePath(__file__).parents[2] / "data" / "generator_calibration.json"
#: The published test split's puzzles per level (86/118/121/86/89 of 500).
LEVEL_COUNTS = {1: 86, 2: 118, 3: 121, 4: 86, 5: 89}
MAX_SOLUTIONS = 48
#: Bumped whenever the same seed would give different puzzles (names cached generated sets).
#: 3: drafts with a test-split grid (any orientation) are skipped.
#: 4: also those that are a test grid with its colours renamed or S and E swapped.
GENERATOR_VERSION = 4
#: Drafts per puzzle before giving up (never reached: 1.1-1.9 drafts per puzzle at levels 1-4,
#: 3.5 at level 5, at most 9, over 60 puzzles of seed 7).
MAX_ATTEMPTS = 2000
#: A draft may have at most FACTOR x (the profile's solution count) + SLACK valid paths: fresh
#: drafts are less constrained than published puzzles and would otherwise have more solutions.
SOLUTION_FACTOR = 2
SOLUTION_SLACK = 2
#: Drafts tried with one drawn profile before another is drawn.
PROFILE_TRIES = 8
TRIANGLE_LETTERS = {1: "A", 2: "B", 4: "D"}
#: Points (at least; a quarter of the target on long lines) the random line aims above the
#: profile's shortest solution: the search often finds shorter solutions than the drawn line.
LINE_SLACK = 4
#: How far inside its level's [level - 1, level) band a moved score lands.
BAND_MARGIN = 0.01


class GenerateError(ValueError):
    """Bad arguments to the generator."""


@lru_cache(maxsize=1)
def calibration() -> dict[str, Any]:
    """The shipped calibration: profiles, shapes, difficulty model (benchmarks/fit_generator).

    Returns:
        `data/generator_calibration.json` as read (cached): its `source`, `difficulty_model`,
        `shapes` (published polyshapes by id), `profile_keys` and `profiles` (one row of
        counts per test-split puzzle)."""
    data: dict[str, Any] = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=1)
def _profiles() -> dict[int, list[dict[str, Any]]]:
    data = calibration()
    keys = data["profile_keys"]
    by_level: dict[int, list[dict[str, Any]]] = {level: [] for level in LEVELS}
    for row in data["profiles"]:
        entry = dict(zip(keys, row, strict=True))
        by_level[entry["level"]].append(entry)
    return by_level


@lru_cache(maxsize=1)
def _shapes() -> tuple[tuple[str, frozenset[Point], int], ...]:
    """Published shapes as (id, cell offsets from the top-left cell, size), by id."""
    return tuple(
        (shape_id, frozenset(shape_offsets(matrix)), len(shape_offsets(matrix)))
        for shape_id, matrix in calibration()["shapes"].items()
    )


def level_schedule(n: int, level: int | None = None) -> list[int]:
    """Target levels of puzzles 0..n-1: `level`, or the published mix interleaved so that every
    prefix is as close as possible to it (n = 500 gives exactly 86/118/121/86/89).

    Args:
        n: the number of puzzles.
        level: one level (1-5) for every puzzle, or None for the published mix.

    Returns:
        n levels, the one of puzzle i at index i."""
    if level is not None:
        return [level] * n
    total = sum(LEVEL_COUNTS.values())
    made = dict.fromkeys(LEVELS, 0)
    schedule = []
    for k in range(1, n + 1):
        chosen = max(LEVELS, key=lambda lv: (k * LEVEL_COUNTS[lv] / total - made[lv], -lv))
        made[chosen] += 1
        schedule.append(chosen)
    return schedule


# --- the line ---------------------------------------------------------------------------------


def _random_line(
    rng: random.Random, width: int, height: int, start: Point, end: Point, target: int
) -> list[Point] | None:
    """A random self-avoiding line of unit steps over nodes and edges from S to E (either may be
    an edge position on the border) whose point count is close to `target`: randomised
    depth-first search, the closest of a bounded budget."""
    best: list[Point] | None = None
    aim = target + max(LINE_SLACK, target // 4)
    budget = 8000
    stack: list[Point] = [start]
    visited = {start}
    choices: list[list[Point]] = [_shuffled_neighbours(rng, start, width, height)]
    while choices and budget > 0:
        budget -= 1
        if not choices[-1]:
            choices.pop()
            visited.discard(stack.pop())
            continue
        point = choices[-1].pop()
        if point in visited:
            continue
        if point == end:
            # aim a little above the target: the search may find shorter solutions
            if best is None or abs(len(stack) + 1 - aim) < abs(len(best) - aim):
                best = [*stack, point]
                if abs(len(best) - aim) <= 2:
                    break
            continue
        stack.append(point)
        visited.add(point)
        choices.append(_shuffled_neighbours(rng, point, width, height))
    return best


def _shuffled_neighbours(rng: random.Random, point: Point, width: int, height: int) -> list[Point]:
    """Unit-step neighbours of a node or edge inside the grid, never a rule cell, shuffled."""
    x, y = point
    around = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
    found = [
        (a, b)
        for a, b in around
        if 0 <= a <= 2 * width and 0 <= b <= 2 * height and not (a % 2 and b % 2)
    ]
    rng.shuffle(found)
    return found


# --- symbols ----------------------------------------------------------------------------------


# A flood fill like rules.regions, but over all cells of a bare grid; regions starts from symbols.
def _regions(width: int, height: int, on_line: set[Point]) -> list[list[Point]]:
    """Cells split by the line into regions (cells joined across edges the line does not use)."""
    seen: set[Point] = set()
    found = []
    for cy in range(1, 2 * height, 2):
        for cx in range(1, 2 * width, 2):
            if (cx, cy) in seen:
                continue
            seen.add((cx, cy))
            stack, cells = [(cx, cy)], []
            while stack:
                x, y = stack.pop()
                cells.append((x, y))
                for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
                    nxt = (x + dx, y + dy)
                    wall = (x + dx // 2, y + dy // 2)
                    if (
                        0 < nxt[0] < 2 * width
                        and 0 < nxt[1] < 2 * height
                        and nxt not in seen
                        and wall not in on_line
                    ):
                        seen.add(nxt)
                        stack.append(nxt)
            found.append(sorted(cells, key=lambda p: (p[1], p[0])))
    return found


def _tile(
    rng: random.Random, cells: list[Point], pieces: int
) -> list[tuple[str, frozenset[Point]]] | None:
    """Split a region (cells in grid positions) into exactly `pieces` published shapes."""
    unit = {((x - 1) // 2, (y - 1) // 2) for x, y in cells}
    shapes = list(_shapes())
    tries = [0]

    def cover(left: set[Point], count: int) -> list[tuple[str, frozenset[Point]]] | None:
        if not left:
            return [] if count == 0 else None
        if count == 0 or len(left) > 5 * count or tries[0] > 3000:
            return None
        tries[0] += 1
        ax, ay = min(left, key=lambda c: (c[1], c[0]))
        rng.shuffle(shapes)
        for shape_id, offsets, _size in shapes:
            placed = {(ax + dx, ay + dy) for dx, dy in offsets}
            if placed <= left:
                rest = cover(left - placed, count - 1)
                if rest is not None:
                    return [(shape_id, frozenset(placed)), *rest]
        return None

    return cover(unit, pieces)


@dataclass
class _Draft:
    """A puzzle under construction: the grid, its shapes, its line and its free rule cells."""

    grid: list[list[str]]
    shapes: dict[str, list[list[int]]]
    line: list[Point]
    free: set[Point]
    regions: list[list[Point]]

    def region_colors(self, region: list[Point]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for x, y in region:
            value = self.grid[y][x]
            if value != "N":
                counts[value.split("-")[1]] = counts.get(value.split("-")[1], 0) + 1
        return counts

    def put(self, point: Point, value: str) -> None:
        self.grid[point[1]][point[0]] = value
        self.free.discard(point)


def _draft(rng: random.Random, profile: dict[str, Any]) -> _Draft | None:
    """Grid, line and symbols from one profile (None when this line cannot hold them)."""
    width, height = profile["width"], profile["height"]
    columns, rows = 2 * width + 1, 2 * height + 1
    flip_x, flip_y = rng.random() < 0.5, rng.random() < 0.5

    def mirror(point: Sequence[int]) -> Point:
        x, y = point
        return (columns - 1 - x if flip_x else x, rows - 1 - y if flip_y else y)

    start, end = mirror(profile["start"]), mirror(profile["end"])
    line = _random_line(rng, width, height, start, end, profile["shortest"])
    if line is None:
        return None
    grid = [["N" if x % 2 and y % 2 else "+" for x in range(columns)] for y in range(rows)]
    grid[start[1]][start[0]], grid[end[1]][end[0]] = "S", "E"
    on_line = set(line)
    cells = [(x, y) for y in range(1, rows, 2) for x in range(1, columns, 2)]
    draft = _Draft(grid, {}, line, set(cells), _regions(width, height, on_line))
    # dots on the line (never on S or E), gaps on edges off it
    inner = line[1:-1]
    for point in rng.sample(inner, min(profile["dot"], len(inner))):
        grid[point[1]][point[0]] = "."
    edges = [
        (x, y)
        for y in range(rows)
        for x in range(columns)
        if (x + y) % 2 == 1 and (x, y) not in on_line
    ]
    for point in rng.sample(edges, min(profile["gap"], len(edges))):
        grid[point[1]][point[0]] = "G"
    if not _place_shapes(rng, draft, profile["polyshape"], profile["ylop"]):
        return None
    _place_triangles(rng, draft, on_line, profile)
    _place_squares(rng, draft, profile["square"])
    _place_stars(rng, draft, profile["star"])
    return draft


def _place_shapes(rng: random.Random, draft: _Draft, count: int, ylops: int) -> bool:
    """Polyshapes tiling whole regions exactly; each ylop comes with a positive copy of its shape
    in the same region (they cancel), counted among the profile's polyshapes where it has them."""
    budget = max(count - ylops, 0)
    regions = list(draft.regions)
    rng.shuffle(regions)
    for region in regions:
        if budget <= 0:
            break
        free = [c for c in region if c in draft.free]
        sizes = list(range(1, min(budget, len(free)) + 1))
        rng.shuffle(sizes)
        for pieces in sizes:
            tiling = _tile(rng, region, pieces)
            if tiling is None:
                continue
            for (shape_id, _), cell in zip(tiling, rng.sample(free, pieces), strict=True):
                draft.put(cell, f"P-{rng.choice(COLORS)}-{shape_id}")
                draft.shapes[shape_id] = calibration()["shapes"][shape_id]
            budget -= pieces
            break
    if budget > 0:
        return False
    for _ in range(ylops):
        spots = [r for r in draft.regions if sum(c in draft.free for c in r) >= 2]
        if not spots:
            return False
        region = rng.choice(spots)
        fitting = [s for s, cells, size in _shapes() if size <= 3 and _fits(cells, draft)]
        shape_id = rng.choice(fitting)
        pair = rng.sample([c for c in region if c in draft.free], 2)
        draft.put(pair[0], f"P-{rng.choice(COLORS)}-{shape_id}")
        draft.put(pair[1], f"Y-{rng.choice(COLORS)}-{shape_id}")
        draft.shapes[shape_id] = calibration()["shapes"][shape_id]
    return True


def _fits(cells: frozenset[Point], draft: _Draft) -> bool:
    """True if a shape (cell offsets) fits somewhere in the grid (its bounding box does)."""
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    width, height = len(draft.grid[0]) // 2, len(draft.grid) // 2
    return max(xs) - min(xs) < width and max(ys) - min(ys) < height


def _place_triangles(
    rng: random.Random, draft: _Draft, on_line: set[Point], profile: dict[str, Any]
) -> None:
    """Triangles showing how many of their cell's edges the line uses (1, 2 or 4)."""
    for number in (4, 2, 1):
        for _ in range(profile[f"triangle{number}"]):
            fits = [c for c in sorted(draft.free) if _touched(c, on_line) == number]
            if not fits:
                fits = [c for c in sorted(draft.free) if _touched(c, on_line) in (1, 2, 4)]
            if not fits:
                return
            cell = rng.choice(fits)
            letter = TRIANGLE_LETTERS[_touched(cell, on_line)]
            draft.put(cell, f"{letter}-{rng.choice(COLORS)}")


def _touched(cell: Point, on_line: set[Point]) -> int:
    x, y = cell
    return sum(p in on_line for p in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))


def _place_squares(rng: random.Random, draft: _Draft, count: int) -> None:
    """Squares coloured by region (distinct colours for distinct regions while they last)."""
    palette = list(COLORS)
    rng.shuffle(palette)
    color_of = {}
    for index, region in enumerate(draft.regions):
        for cell in region:
            color_of[cell] = palette[index % len(palette)]
    free = sorted(draft.free)
    for cell in rng.sample(free, min(count, len(free))):
        draft.put(cell, f"o-{color_of[cell]}")


def _place_stars(rng: random.Random, draft: _Draft, count: int) -> None:
    """Stars with exactly one other symbol of their colour in their region."""
    while count > 0:
        options = []
        for index, region in enumerate(draft.regions):
            free = [c for c in region if c in draft.free]
            colors = draft.region_colors(region)
            options += [(index, color, 1) for color in COLORS if colors.get(color) == 1 and free]
            if count >= 2 and len(free) >= 2:
                options += [(index, color, 2) for color in COLORS if color not in colors]
        if not options:
            return
        index, color, stars = rng.choice(options)
        free = [c for c in draft.regions[index] if c in draft.free]
        for cell in rng.sample(free, stars):
            draft.put(cell, f"*-{color}")
        count -= stars


# --- one puzzle -------------------------------------------------------------------------------


def generate_one(
    seed: int, index: int, level: int, max_solutions: int = MAX_SOLUTIONS
) -> dict[str, Any]:
    """Puzzle `index` of the set for `seed` at `level`: depends on these arguments only.

    Args:
        seed: the set's seed (a whole number >= 0).
        index: the puzzle's place in the set, from 0.
        level: the target level (1-5).
        max_solutions: the most rule-valid paths a kept puzzle may have (fewer where the
            profile's puzzle has few).

    Returns:
        The puzzle as a published-schema record (`id`, `difficulty_level`, `difficulty_score`,
        `grid_size`, `puzzle_array`, `polyshapes`, `solutions`, ...), every solution listed."""
    rng = random.Random(f"inspect-sparc:{seed}:{index}:{level}")
    model = calibration()["difficulty_model"]
    profiles = _profiles()[level]
    for attempt in range(MAX_ATTEMPTS):
        if attempt % PROFILE_TRIES == 0:  # keep a profile for several drafts: a redraw after
            profile = rng.choice(profiles)  # each failure would favour easy-to-build profiles
        draft = _draft(rng, profile)
        if draft is None:
            continue
        record = build_record(draft.grid, draft.shapes, [tuple(draft.line)], level, 0.0)
        if abs(_level_of(predict_score(model, features(record))) - level) > 1:
            continue  # cheap pre-check: the features barely depend on the solutions
        if grid_hash(record) in shipped_test_hashes():
            continue  # a test-split grid (or a rotation or mirror of one): never emitted
        puzzle = parse_puzzle(record)
        if not check(puzzle, draft.line).valid:  # pragma: no cover - construction invariant
            raise AssertionError(f"generated line breaks its own puzzle: {record['id']}")
        most = min(max_solutions, SOLUTION_FACTOR * profile["solutions"] + SOLUTION_SLACK)
        solutions = solve(puzzle, limit=most + 1)
        if not 1 <= len(solutions) <= most:
            continue
        record = build_record(draft.grid, draft.shapes, solutions, level, 0.0, f"{seed}:{index}")
        score = predict_score(model, features(record))
        if abs(_level_of(score) - level) > 1:
            continue
        record["difficulty_score"] = _within_level(score, level)
        return record
    raise RuntimeError(  # pragma: no cover - a few drafts are needed per puzzle
        f"no level-{level} puzzle after {MAX_ATTEMPTS} draws (seed {seed}, index {index})"
    )


def _level_of(score: float) -> int:
    return math.floor(score) + 1


def _within_level(score: float, level: int) -> float:
    """The model's score, moved into [level - 1, level) when it lies in a neighbouring level
    (the profile's published level wins; the model is off by one level for 26% of the
    published puzzles too, and by more for 0.2%)."""
    return min(max(score, level - 1 + BAND_MARGIN), level - BAND_MARGIN)


# --- many puzzles -----------------------------------------------------------------------------


def parse_shard(shard: str | tuple[int, int] | None) -> tuple[int, int]:
    """`"i/n"` (1-based part i of n) as (i, n); None is the whole job (1, 1).

    Args:
        shard: `"i/n"` text, an `(i, n)` pair, or None for the whole job.

    Returns:
        The part and the number of parts.

    Raises:
        GenerateError: text not of the form i/n, or not 1 <= i <= n."""
    if shard is None:
        return (1, 1)
    if isinstance(shard, tuple):
        part, parts = shard
    else:
        text = str(shard).strip()
        pieces = text.split("/")
        if len(pieces) != 2 or not all(p.strip().isdecimal() for p in pieces):
            raise GenerateError(f"shard must look like i/n (for example 3/64); got {shard!r}")
        part, parts = int(pieces[0]), int(pieces[1])
    if parts < 1 or not 1 <= part <= parts:
        raise GenerateError(f"shard i/n needs 1 <= i <= n; got {part}/{parts}")
    return (part, parts)


def shard_range(n: int, shard: tuple[int, int]) -> range:
    """Indices of part i of n: contiguous, so the parts in order concatenate to the whole set.

    Args:
        n: the number of puzzles in the whole set.
        shard: the 1-based part and the number of parts, as `parse_shard` gives them.

    Returns:
        The puzzle indices of that part (some parts are empty when there are more parts
        than puzzles)."""
    part, parts = shard
    return range(n * (part - 1) // parts, n * part // parts)


def check_arguments(n: object, seed: object, level: object, max_solutions: object) -> None:
    """Clear errors for bad generator arguments: a GenerateError naming the first bad one.

    Args:
        n: the number of puzzles (a positive int).
        seed: the seed (an int >= 0).
        level: one level 1-5, or None for the published mix.
        max_solutions: the most solutions a puzzle may have (an int, 1-10000)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise GenerateError(f"n must be a positive whole number of puzzles; got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GenerateError(f"seed must be a whole number >= 0; got {seed!r}")
    if level is not None and (isinstance(level, bool) or level not in LEVELS):
        raise GenerateError(f"level must be one of 1, 2, 3, 4, 5 or None (the mix); got {level!r}")
    if (
        isinstance(max_solutions, bool)
        or not isinstance(max_solutions, int)
        or not 1 <= max_solutions <= 10_000
    ):
        raise GenerateError(f"max_solutions must be 1-10000; got {max_solutions!r}")


def _job(args: tuple[int, int, int, int]) -> dict[str, Any]:
    return generate_one(*args)


def iter_puzzles(
    n: int,
    seed: int,
    level: int | None = None,
    *,
    shard: str | tuple[int, int] | None = None,
    workers: int = 1,
    max_solutions: int = MAX_SOLUTIONS,
) -> Iterator[dict[str, Any]]:
    """Yield the puzzles of `shard` (default: all n) in index order, made by `workers` processes
    (in this process, saying why in one line on stderr, where a pool cannot run:
    `runtime.processes.pool_blocker`).

    Args:
        n: the number of puzzles in the whole set.
        seed: the set's seed (an int >= 0); the same seed gives the same puzzles.
        level: one level 1-5 for every puzzle, or None for the published mix of levels.
        shard: `"i/n"` or `(i, n)` for part i of n only; None for the whole set.
        workers: the number of processes (1: in this process).
        max_solutions: the most rule-valid paths a kept puzzle may have (1-10000).

    Yields:
        Published-schema records, one per puzzle of the shard, in index order."""
    check_arguments(n, seed, level, max_solutions)
    part = parse_shard(shard)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise GenerateError(f"workers must be a whole number >= 1; got {workers!r}")
    schedule = level_schedule(n, level)
    jobs = [(seed, i, schedule[i], max_solutions) for i in shard_range(n, part)]
    if workers > 1 and len(jobs) > 2:
        # The first puzzle here: its search compiles the numba kernel once (saying so once) into
        # the disk cache, which the workers then load, instead of each compiling it (and saying so).
        yield _job(jobs[0])
        jobs = jobs[1:]
    yield from ordered_map(_job, jobs, workers, "Generating puzzles")


# Parameters and docs as iter_puzzles', whose records it collects: both public, both documented.
def generate_puzzles(
    n: int,
    seed: int,
    level: int | None = None,
    *,
    shard: str | tuple[int, int] | None = None,
    workers: int = 1,
    max_solutions: int = MAX_SOLUTIONS,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """`n` fresh puzzles for `seed` (all levels in the published mix, or one `level`), as
    published-schema records; `shard="i/n"` gives part i only. `progress(done)` after each.

    Args:
        n: the number of puzzles in the whole set.
        seed: the set's seed (an int >= 0); the same seed gives the same puzzles.
        level: one level 1-5 for every puzzle, or None for the published mix of levels.
        shard: `"i/n"` or `(i, n)` for part i of n only; None for the whole set.
        workers: the number of processes (1: in this process).
        max_solutions: the most rule-valid paths a kept puzzle may have (1-10000).
        progress: called with the number of records made so far after each one; None for
            no calls.

    Returns:
        The records of the shard, in index order."""
    records = []
    for record in iter_puzzles(
        n, seed, level, shard=shard, workers=workers, max_solutions=max_solutions
    ):
        records.append(record)
        if progress is not None:
            progress(len(records))
    return records


def dumps(record: dict[str, Any]) -> str:
    """One record as its JSON line (the published key order, default separators).

    Args:
        record: a published-schema record.

    Returns:
        The JSON text, non-ASCII kept as is, without a newline."""
    return json.dumps(record, ensure_ascii=False)
