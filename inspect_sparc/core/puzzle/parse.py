"""A SPaRC puzzle parsed once from a published record: grid, endpoints, symbols, shapes, solutions.

Coordinates are `(x, y)` into `puzzle_array[y][x]`, a (2h+1) x (2w+1) grid where even/even
positions are nodes, positions with one odd coordinate are edges and odd/odd positions are cells.
Pure logic: no Inspect imports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter, sub
from typing import Any

Point = tuple[int, int]
Path = tuple[Point, ...]

#: Published record fields the package reads (others, like `text_visualization`, are ignored).
REQUIRED_FIELDS = (
    "id",
    "difficulty_level",
    "difficulty_score",
    "grid_size",
    "puzzle_array",
    "polyshapes",
    "solutions",
)

#: Cell symbol kinds by their letter in `kind-color[-shape]`.
SYMBOL_KINDS = {
    "o": "square",
    "*": "star",
    "A": "triangle",
    "B": "triangle",
    "C": "triangle",
    "D": "triangle",
    "P": "polyshape",
    "Y": "ylop",
}
TRIANGLE_COUNTS = {"A": 1, "B": 2, "C": 3, "D": 4}
#: The colour letters, in the order of the prompts' colour codes (also the order the generator
#: draws colours in, which its seeds' puzzles depend on).
COLORS: tuple[str, ...] = ("R", "B", "G", "Y", "W", "O", "P", "K")
#: What a node or edge position may hold; rule cells (odd x and y) hold `N` or a rule symbol.
PATH_VALUES = frozenset({"+", ".", "G", "S", "E"})
LEVELS = (1, 2, 3, 4, 5)


def parse_levels(level: object) -> tuple[int, ...] | None:
    """Normalise the `level` task argument: None, 1-5, a list, or `-T level=1,2` (strings).

    Args:
        level: None (all levels), one level as an int or digits, a sequence of them, or
            comma-separated text; anything else is a ValueError.

    Returns:
        The distinct levels in increasing order, or None for all levels."""
    if level is None:
        return None
    items: Iterable[object]
    if isinstance(level, str):
        items = [part for part in level.split(",") if part.strip()]
    elif isinstance(level, Sequence):
        items = level
    else:
        items = [level]
    levels: list[int] = []
    for item in items:
        value: object = item.strip() if isinstance(item, str) else item
        if isinstance(value, str) and value.isdecimal() and value.isascii():
            value = int(value)
        if isinstance(value, bool) or value not in LEVELS:
            raise ValueError(
                "level must be one of 1, 2, 3, 4, 5, a list of them (-T level=1,2) or None "
                f"for all levels; got {level!r}"
            )
        levels.append(int(value))
    if not levels:
        raise ValueError(f"level must name at least one of 1, 2, 3, 4, 5; got {level!r}")
    return tuple(sorted(set(levels)))


class RecordError(ValueError):
    """A dataset record that does not follow the published SPaRC schema."""


@dataclass(frozen=True)
class Symbol:
    """A rule symbol in a cell: square, star, triangle, polyshape or ylop (negative polyshape)."""

    kind: str
    color: str
    triangle_count: int = 0
    shape_id: str | None = None


@dataclass(frozen=True)
class Puzzle:
    """One puzzle, parsed and checked; `grid` is the record's `puzzle_array` as tuples."""

    id: str
    level: int
    difficulty_score: float
    width: int
    height: int
    grid: tuple[tuple[str, ...], ...]
    start: Point
    end: Point
    dots: frozenset[Point]
    gaps: frozenset[Point]
    symbols: Mapping[Point, Symbol]
    polyshapes: Mapping[str, tuple[tuple[int, ...], ...]]
    solutions: tuple[Path, ...]
    record: Mapping[str, Any] = field(repr=False, compare=False, hash=False)

    @property
    def columns(self) -> int:
        """Number of grid positions per row (2w+1).

        Returns:
            The grid's width in positions."""
        return 2 * self.width + 1

    @property
    def rows(self) -> int:
        """Number of grid rows (2h+1).

        Returns:
            The grid's height in positions."""
        return 2 * self.height + 1

    def in_grid(self, point: Point) -> bool:
        """True if `point` lies inside the grid.

        Args:
            point: an `(x, y)` position, possibly off the grid or negative.

        Returns:
            True when 0 <= x < columns and 0 <= y < rows."""
        x, y = point
        return 0 <= x < self.columns and 0 <= y < self.rows

    @staticmethod
    def is_cell(point: Point) -> bool:
        """True for odd/odd positions (rule cells, never on a path).

        Args:
            point: an `(x, y)` position.

        Returns:
            True when both coordinates are odd."""
        return point[0] % 2 == 1 and point[1] % 2 == 1


def _fail(record_id: object, message: str) -> RecordError:
    return RecordError(f"SPaRC record {record_id!r}: {message}")


def _parse_symbol(record_id: object, text: str, point: Point) -> Symbol:
    parts = text.split("-")
    letter = parts[0]
    if letter not in SYMBOL_KINDS or len(parts) < 2 or parts[1] not in COLORS:
        raise _fail(record_id, f"unknown cell symbol {text!r} at {point}")
    kind = SYMBOL_KINDS[letter]
    if kind in ("polyshape", "ylop"):
        if len(parts) != 3:
            raise _fail(record_id, f"polyshape symbol {text!r} at {point} has no shape id")
        return Symbol(kind, parts[1], shape_id=parts[2])
    if len(parts) != 2:
        raise _fail(record_id, f"unexpected cell symbol {text!r} at {point}")
    return Symbol(kind, parts[1], triangle_count=TRIANGLE_COUNTS.get(letter, 0))


def parse_polyshapes(record_id: object, raw: object) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Parse the record's `polyshapes` (a JSON string, or already a dict) into 0/1 matrices.

    Args:
        record_id: the record's id, named in the `RecordError` a malformed value raises.
        raw: the `polyshapes` field: JSON text or a dict of shape id to rows; None or "" for
            no shapes.

    Returns:
        Each shape id (as text) mapped to its rows of 0s and 1s (truthy entries become 1)."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as error:
            raise _fail(record_id, f"polyshapes is not valid JSON ({error})") from None
    if not isinstance(raw, dict):
        raise _fail(record_id, "polyshapes must map shape ids to 0/1 matrices")
    shapes: dict[str, tuple[tuple[int, ...], ...]] = {}
    for shape_id, matrix in raw.items():
        if not isinstance(matrix, list) or not all(isinstance(row, list) for row in matrix):
            raise _fail(record_id, f"polyshape {shape_id} is not a matrix")
        shapes[str(shape_id)] = tuple(tuple(1 if v else 0 for v in row) for row in matrix)
    return shapes


POINT_TEXT = re.compile(r"\((-?\d+),\s*(-?\d+)\)")
#: One letter per unit step: the compact form of a stored solution (see `path_to_moves`).
MOVES = {"R": (1, 0), "L": (-1, 0), "D": (0, 1), "U": (0, -1)}
STEP_LETTERS = {step: letter for letter, step in MOVES.items()}


def path_to_moves(path: Path, start: Point) -> str | None:
    """A path from `start` in unit steps as letters (`RRDL...`); None for any other path.

    Args:
        path: `(x, y)` positions.
        start: where the path must begin (the puzzle's S).

    Returns:
        One letter of `MOVES` per step (empty for the path of S alone), or None when the
        path is empty, does not begin at `start` or has a step that is not a unit step."""
    if not path or path[0] != start:
        return None
    xs, ys = zip(*path, strict=True)
    steps = zip(map(sub, xs[1:], xs), map(sub, ys[1:], ys), strict=False)
    letters = list(map(STEP_LETTERS.get, steps))  # C-level loops: this runs per solution
    return None if None in letters else "".join(letters)  # type: ignore[arg-type]


def moves_to_path(moves: str, start: Point) -> Path:
    """The path that `path_to_moves` encoded.

    Args:
        moves: letters of `MOVES` (`R L D U`), one per unit step; KeyError for others.
        start: the first position.

    Returns:
        The positions from `start`, one more than the letters."""
    points = [start]
    for letter in moves:
        dx, dy = MOVES[letter]
        points.append((points[-1][0] + dx, points[-1][1] + dy))
    return tuple(points)


_XY = itemgetter("x", "y")


def _integral(value: object) -> int | None:
    """An int, or a float with an integral value (parquet may give 2.0), as int; else None."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def _parse_path(record_id: object, raw: object, what: str, start: Point) -> Path:
    """A stored path: the published `{"x", "y"}` points, or compact text (moves or `(x,y), ...`)."""
    if isinstance(raw, str):
        if raw and set(raw) <= MOVES.keys():
            return moves_to_path(raw, start)
        points = tuple((int(x), int(y)) for x, y in POINT_TEXT.findall(raw))
        if not points:
            raise _fail(record_id, f"{what} is text with no moves or (x,y) points: {raw[:40]!r}")
        return points
    if not isinstance(raw, list) or not raw:
        raise _fail(record_id, f"{what} is not a non-empty list of points")
    try:
        points = tuple(map(_XY, raw))
    except (TypeError, KeyError):
        raise _fail(record_id, f"{what} has a point without x and y") from None
    if set(map(type, chain.from_iterable(points))) <= {int}:
        return points  # the usual case, checked without a Python loop
    converted = tuple((_integral(x), _integral(y)) for x, y in points)
    if any(x is None or y is None for x, y in converted):
        raise _fail(record_id, f"{what} has a point without integer x and y")
    return converted  # type: ignore[return-value]


def parse_puzzle(record: Mapping[str, Any]) -> Puzzle:
    """Parse and check one published record; raise `RecordError` naming the record and field.

    Args:
        record: a record in the published schema (`REQUIRED_FIELDS`; solutions may also be
            compact move text or `(x,y), ...` text).

    Returns:
        The parsed puzzle, keeping `record` itself."""
    if not isinstance(record, Mapping):
        raise RecordError(f"SPaRC record must be a JSON object, got {type(record).__name__}")
    record_id = record.get("id", "<no id>")
    missing = [name for name in REQUIRED_FIELDS if name not in record]
    if missing:
        raise _fail(record_id, f"missing field(s) {', '.join(missing)}")
    if isinstance(record_id, bool) or not isinstance(record_id, str | int) or record_id == "":
        raise _fail(record_id, "id must be a non-empty string or an integer")
    width, height = _grid_size(record_id, record["grid_size"])
    grid = _grid(record_id, record["puzzle_array"], width, height)
    start, end, dots, gaps, symbols = _read_grid(record_id, grid)
    polyshapes = parse_polyshapes(record_id, record["polyshapes"])
    for point, symbol in symbols.items():
        if symbol.shape_id is not None and symbol.shape_id not in polyshapes:
            raise _fail(record_id, f"shape {symbol.shape_id} at {point} is not in polyshapes")
    solutions = _solutions(record_id, record["solutions"], start)
    level = _integral(record["difficulty_level"])
    if level not in LEVELS:
        given = record["difficulty_level"]
        raise _fail(record_id, f"difficulty_level must be one of 1-5, got {given!r}")
    score = record["difficulty_score"]
    if isinstance(score, bool) or not isinstance(score, int | float):
        raise _fail(record_id, f"difficulty_score must be a number, got {score!r}")
    return Puzzle(
        id=str(record_id),
        level=level,
        difficulty_score=float(score),
        width=width,
        height=height,
        grid=grid,
        start=start,
        end=end,
        dots=frozenset(dots),
        gaps=frozenset(gaps),
        symbols=symbols,
        polyshapes=polyshapes,
        solutions=solutions,
        record=record,
    )


def _grid_size(record_id: Any, size: Any) -> tuple[int, int]:
    """`grid_size` as (width, height) in cells."""
    try:
        return int(size["width"]), int(size["height"])
    except (TypeError, KeyError, ValueError):
        raise _fail(record_id, "grid_size needs integer width and height") from None


def _grid(record_id: Any, array: Any, width: int, height: int) -> tuple[tuple[str, ...], ...]:
    """`puzzle_array` as rows of strings, checked to be (2h+1) x (2w+1)."""
    if (
        not isinstance(array, list)
        or len(array) != 2 * height + 1
        or any(not isinstance(row, list) or len(row) != 2 * width + 1 for row in array)
    ):
        raise _fail(
            record_id,
            f"puzzle_array must be {2 * height + 1} rows of {2 * width + 1} entries "
            f"for a {width}x{height} grid",
        )
    return tuple(tuple(str(v) for v in row) for row in array)


def _read_grid(
    record_id: Any, grid: tuple[tuple[str, ...], ...]
) -> tuple[Point, Point, set[Point], set[Point], dict[Point, Symbol]]:
    """(start, end, dots, gaps, symbols) of a grid; each value must suit its position's kind,
    and there must be exactly one S and one E."""
    starts: list[Point] = []
    ends: list[Point] = []
    dots: set[Point] = set()
    gaps: set[Point] = set()
    symbols: dict[Point, Symbol] = {}
    for y, row in enumerate(grid):
        for x, value in enumerate(row):
            point = (x, y)
            if (x % 2 == 1 and y % 2 == 1) != (value not in PATH_VALUES):
                where = "a rule cell (odd x and y)" if x % 2 and y % 2 else "a node or edge"
                raise _fail(record_id, f"{value!r} at {point} cannot stand on {where}")
            if value == "S":
                starts.append(point)
            elif value == "E":
                ends.append(point)
            elif value == ".":
                dots.add(point)
            elif value == "G":
                gaps.add(point)
            elif value not in ("+", "N"):
                symbols[point] = _parse_symbol(record_id, value, point)
    if len(starts) != 1 or len(ends) != 1:
        raise _fail(
            record_id,
            f"puzzle_array needs exactly one start 'S' and one end 'E' "
            f"(found {len(starts)} and {len(ends)})",
        )
    return starts[0], ends[0], dots, gaps, symbols


def _solutions(record_id: Any, raw_solutions: Any, start: Point) -> tuple[Path, ...]:
    """`solutions` as paths (entries may be `{"path": [...]}` or the path itself)."""
    if not isinstance(raw_solutions, list) or not raw_solutions:
        raise _fail(record_id, "solutions must be a non-empty list")
    return tuple(
        _parse_path(
            record_id, s.get("path") if isinstance(s, Mapping) else s, f"solution {i}", start
        )
        for i, s in enumerate(raw_solutions)
    )
