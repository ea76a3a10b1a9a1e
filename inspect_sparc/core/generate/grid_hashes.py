"""The test split's grids as canonical hashes: what the generator avoids and the guard checks.

A grid's hash is blind to every change that leaves the same puzzle: the grid (`puzzle_array`,
each polyshape or ylop written as its shape's filled cells rather than its id) is written in all
eight orientations (4 rotations, each mirrored; the shapes turn with the grid), each with S and E
as they are and swapped, and in each of those 16 writings the colours are renamed in order of
first appearance (the first colour read row by row is `0`, the next new one `1` ...); the
smallest SHA-256 (first 16 hex digits) is kept. So a test puzzle rotated, flipped or transposed,
with its shapes renumbered, its colours permuted or S and E swapped has the test puzzle's hash.
The 500 hashes of the published test split ship in `data/test_grid_hashes.txt` (rebuilt by
`python -m inspect_sparc.core.generate.leakage`). Pure logic, and it imports only the puzzle
parser, so the generator can use it without reaching the sources.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from inspect_sparc.core.puzzle.parse import parse_polyshapes

HASH_FILE = Path(__file__).parents[2] / "data" / "test_grid_hashes.txt"
#: Hex digits kept of each SHA-256 (64 bits: no collision among millions of grids).
HASH_DIGITS = 16
#: S and E trade places in the swapped writing (a path read backwards solves the same puzzle).
SWAPPED_ENDS = {"S": "E", "E": "S"}

T = TypeVar("T")
Matrix = Sequence[Sequence[T]]


def _turn(matrix: Matrix[T]) -> list[list[T]]:
    """The matrix turned a quarter (rows become columns, read bottom-up)."""
    return [list(row) for row in zip(*matrix[::-1], strict=True)]


def _mirror(matrix: Matrix[T]) -> list[list[T]]:
    """The matrix mirrored left to right."""
    return [list(row)[::-1] for row in matrix]


def _orientations() -> list[Callable[[Matrix[Any]], list[list[Any]]]]:
    """The eight symmetries of a rectangle's grid: 0-3 quarter turns, then mirrored or not."""

    def make(turns: int, mirrored: bool) -> Callable[[Matrix[Any]], list[list[Any]]]:
        def apply(matrix: Matrix[Any]) -> list[list[Any]]:
            out = [list(row) for row in matrix]
            for _ in range(turns):
                out = _turn(out)
            return _mirror(out) if mirrored else out

        return apply

    return [make(turns, mirrored) for turns in range(4) for mirrored in (False, True)]


ORIENTATIONS = _orientations()


def _shape_text(matrix: Matrix[int]) -> str:
    """A shape's filled cells, trimmed to their bounding box, as rows of 0/1 (`110/011`)."""
    rows = [list(row) for row in matrix if any(row)]
    keep = [c for c in range(max((len(r) for r in rows), default=0)) if any(r[c] for r in rows)]
    return "/".join("".join(str(r[c]) for c in keep) for r in rows)


def _canonical_text(cells: Matrix[str], swap_ends: bool) -> str:
    """The cells as compact JSON, S and E swapped or not, colours renamed `0`, `1` ... in order
    of first appearance (a cell's colour is the letter after its first `-`: `o-R`, `P-R-...`)."""
    colours: dict[str, str] = {}
    rows = []
    for row in cells:
        out = []
        for value in row:
            value = SWAPPED_ENDS.get(value, value) if swap_ends else value
            kind, dash, rest = value.partition("-")
            if dash:
                colour, dash, tail = rest.partition("-")
                value = f"{kind}-{colours.setdefault(colour, str(len(colours)))}{dash}{tail}"
            out.append(value)
        rows.append(out)
    return json.dumps(rows, separators=(",", ":"))


def _oriented_hashes(
    grid: Matrix[str],
    shape_cells: Mapping[str, tuple[str, str, str]],
    shapes: Mapping[str, Matrix[int]],
    orient: Callable[..., Any],
) -> list[str]:
    """The hashes of one orientation, S and E as they are and swapped: each shape cell
    (`P-R-12`) written with its turned shape, the colours in order of first appearance."""
    turned = {key: _shape_text(orient(matrix)) for key, matrix in shapes.items()}
    names = {
        value: f"{kind}-{color}-{turned[key]}" if key in turned else value
        for value, (kind, color, key) in shape_cells.items()
    }
    cells = [[names.get(value, value) for value in row] for row in orient(grid)]
    texts = (_canonical_text(cells, swap_ends) for swap_ends in (False, True))
    return [hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_DIGITS] for text in texts]


def _shape_cells(grid: Matrix[str]) -> dict[str, tuple[str, str, str]]:
    """The grid's polyshape and ylop entries (`P-R-12`) as (kind, colour, shape id)."""
    found: dict[str, tuple[str, str, str]] = {}
    for row in grid:
        for value in row:
            if value[:2] in ("P-", "Y-") and value.count("-") == 2:
                kind, color, key = value.split("-")
                found[value] = (kind, color, key)
    return found


def grid_hash(record: Mapping[str, Any]) -> str:
    """The canonical hash of a record's grid: the same for all eight orientations, any
    permutation of its colours and S and E swapped (the module docstring says how).

    Args:
        record: a SPaRC record.

    Returns:
        The hash (the smallest over the orientations)."""
    shapes = parse_polyshapes(record.get("id"), record.get("polyshapes"))
    grid = record["puzzle_array"]
    cells = _shape_cells(grid)
    return min(h for orient in ORIENTATIONS for h in _oriented_hashes(grid, cells, shapes, orient))


@lru_cache(maxsize=1)
def shipped_test_hashes() -> frozenset[str]:
    """The shipped hashes of the 500 test-split grids (fixed: what the generator avoids).

    Returns:
        The hashes."""
    lines = HASH_FILE.read_text(encoding="utf-8").split()
    return frozenset(line for line in lines if line)


def write_hashes(records: Sequence[Mapping[str, Any]], path: Path = HASH_FILE) -> int:
    """Write the sorted grid hashes of `records` (the test split), one a line; returns how many.

    Args:
        records: the test split's records.
        path: the file to write (the shipped list by default).

    Returns:
        How many hashes were written."""
    hashes = sorted({grid_hash(record) for record in records})
    path.write_text("".join(h + "\n" for h in hashes), encoding="utf-8")
    return len(hashes)
