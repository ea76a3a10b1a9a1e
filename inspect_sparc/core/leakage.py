"""Never train on the benchmark by accident: the test split's grids, as hashes, checked at build.

A grid's hash is symmetry-blind: the grid (`puzzle_array`, each polyshape or ylop written as its
shape's filled cells rather than its id) is hashed in all eight orientations (4 rotations, each
mirrored; the shapes turn with the grid) and the smallest SHA-256 (first 16 hex digits) is kept.
So a test puzzle rotated, flipped or transposed, or with its shapes renumbered, has the test
puzzle's hash. The 500 hashes of the published test split ship in `data/test_grid_hashes.txt`;
when the split is in the local hub cache its grids are checked as well (nothing is downloaded for
this). Rebuild the shipped list from a file of the test split with

    python -m inspect_sparc.core.leakage path/to/test_split.jsonl

What it cannot catch: a test grid changed in any cell (a symbol added, moved or recoloured, S or
E moved), embedded in a larger grid, or a different grid with the same solutions.
Pure logic: no Inspect imports.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from inspect_sparc.core.puzzle import parse_polyshapes

HASH_FILE = Path(__file__).parents[1] / "data" / "test_grid_hashes.txt"
#: Hex digits kept of each SHA-256 (64 bits: no collision among millions of grids).
HASH_DIGITS = 16

T = TypeVar("T")
Matrix = Sequence[Sequence[T]]


class LeakageError(ValueError):
    """A training set holds a puzzle whose grid is a test-split puzzle's grid (or a symmetry)."""


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


def _oriented_hash(
    grid: Matrix[str],
    shape_cells: Mapping[str, tuple[str, str, str]],
    shapes: Mapping[str, Matrix[int]],
    orient: Callable[..., Any],
) -> str:
    """The hash of one orientation: each shape cell (`P-R-12`) written with its turned shape."""
    turned = {key: _shape_text(orient(matrix)) for key, matrix in shapes.items()}
    names = {
        value: f"{kind}-{color}-{turned[key]}" if key in turned else value
        for value, (kind, color, key) in shape_cells.items()
    }
    cells = [[names.get(value, value) for value in row] for row in orient(grid)]
    text = json.dumps(cells, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_DIGITS]


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
    """The symmetry-blind hash of a record's grid: the same for all eight orientations."""
    shapes = parse_polyshapes(record.get("id"), record.get("polyshapes"))
    grid = record["puzzle_array"]
    cells = _shape_cells(grid)
    return min(_oriented_hash(grid, cells, shapes, orient) for orient in ORIENTATIONS)


@lru_cache(maxsize=1)
def shipped_test_hashes() -> frozenset[str]:
    """The shipped hashes of the 500 test-split grids (fixed: what the generator avoids)."""
    lines = HASH_FILE.read_text(encoding="utf-8").split()
    return frozenset(line for line in lines if line)


@lru_cache(maxsize=1)
def cached_test_hashes() -> frozenset[str]:
    """Hashes of the test split's grids in the local hub caches; empty when neither holds it
    (the caches are read as they are: nothing is downloaded)."""
    from inspect_sparc.core.sources import HUB_BY_NAME, SourceError, cached_hub_records

    hashes: set[str] = set()
    for hub in HUB_BY_NAME.values():
        try:
            records = cached_hub_records(hub, "test") or []
        except (SourceError, OSError, ValueError):
            continue
        hashes.update(map(grid_hash, records))
    return frozenset(hashes)


def benchmark_grid_hashes() -> frozenset[str]:
    """Every known test-split grid hash: the shipped list and the cached split's grids."""
    return shipped_test_hashes() | cached_test_hashes()


def is_test_grid(record: Mapping[str, Any]) -> bool:
    """Whether a record's grid is a known test-split grid in any of its eight orientations."""
    return grid_hash(record) in benchmark_grid_hashes()


def check_no_test_grids(
    records: Iterable[Mapping[str, Any]], test_hashes: Iterable[str] | None = None
) -> None:
    """Raise `LeakageError` naming every record whose grid is a test-split grid (any symmetry)."""
    known = frozenset(test_hashes) if test_hashes is not None else benchmark_grid_hashes()
    leaked = [str(record.get("id")) for record in records if grid_hash(record) in known]
    if leaked:
        shown = ", ".join(leaked[:5]) + (f" and {len(leaked) - 5} more" if len(leaked) > 5 else "")
        raise LeakageError(
            f"{len(leaked)} puzzle(s) have the grid of a SPaRC test-split puzzle, or a rotation "
            f"or mirror image of it ({shown}): a model trained on them is evaluated on puzzles "
            "it has seen. Drop them, or build from the test split on purpose with "
            "allow_test=True."
        )


def write_hashes(records: Sequence[Mapping[str, Any]], path: Path = HASH_FILE) -> int:
    """Write the sorted grid hashes of `records` (the test split), one a line; returns how many."""
    hashes = sorted({grid_hash(record) for record in records})
    path.write_text("".join(h + "\n" for h in hashes), encoding="utf-8")
    return len(hashes)


def main(argv: Sequence[str] | None = None) -> None:
    """Rebuild the shipped hash list from a file (or source) of the test split."""
    from inspect_sparc.core.sources import load_records

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("source", help="the test split: a .jsonl/.json/.parquet file or a hub")
    parser.add_argument("--out", type=Path, default=HASH_FILE, help="where to write the list")
    args = parser.parse_args(argv)
    count = write_hashes(load_records(args.source, "test"), args.out)
    print(f"wrote {count} test-grid hashes to {args.out}")


if __name__ == "__main__":
    main()
