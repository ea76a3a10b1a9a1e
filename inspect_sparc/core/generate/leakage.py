"""Never train on the benchmark by accident: the test split's grids, checked at build.

Grids are compared by their canonical hashes (`core.grid_hashes`): a test puzzle rotated, flipped
or transposed, with its shapes renumbered, its colours permuted or S and E swapped, is caught.
The shipped list of the 500 test-split hashes is read; when the split is in the local hub
cache its grids are checked as well (nothing is downloaded for this). Rebuild the shipped list
from a file of the test split with

    python -m inspect_sparc.core.generate.leakage path/to/test_split.jsonl

What it cannot catch: a test grid changed in any cell (a symbol added, moved or given another
symbol's colour, S or E moved), embedded in a larger grid, or a different grid with the same
solutions.
Pure logic: no Inspect imports.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from inspect_sparc.core.generate.grid_hashes import (
    HASH_FILE,
    grid_hash,
    shipped_test_hashes,
    write_hashes,
)


class LeakageError(ValueError):
    """A training set holds a puzzle whose grid is a test-split puzzle's grid (or an isomorph)."""


@lru_cache(maxsize=1)
def cached_test_hashes() -> frozenset[str]:
    """Hashes of the test split's grids in the local hub caches; empty when neither holds it
    (the caches are read as they are: nothing is downloaded).

    Returns:
        The hashes."""
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
    """Every known test-split grid hash: the shipped list and the cached split's grids.

    Returns:
        The hashes."""
    return shipped_test_hashes() | cached_test_hashes()


def is_test_grid(record: Mapping[str, Any]) -> bool:
    """Whether a record's grid is a known test-split grid (any orientation, colours, S/E).

    Args:
        record: a SPaRC record.

    Returns:
        True for a test-split grid."""
    return grid_hash(record) in benchmark_grid_hashes()


def check_no_test_grids(
    records: Iterable[Mapping[str, Any]], test_hashes: Iterable[str] | None = None
) -> None:
    """Raise `LeakageError` naming every record whose grid is a test-split grid (any symmetry,
    colour permutation or S/E swap).

    Args:
        records: the records to check.
        test_hashes: the test grids' hashes (None: `benchmark_grid_hashes()`)."""
    known = frozenset(test_hashes) if test_hashes is not None else benchmark_grid_hashes()
    leaked = [str(record.get("id")) for record in records if grid_hash(record) in known]
    if leaked:
        shown = ", ".join(leaked[:5]) + (f" and {len(leaked) - 5} more" if len(leaked) > 5 else "")
        raise LeakageError(
            f"{len(leaked)} puzzle(s) have the grid of a SPaRC test-split puzzle, or a rotation, "
            f"mirror image, recolouring or S/E swap of it ({shown}): a model trained on them is "
            "evaluated on puzzles it has seen. Drop them, or build from the test split on "
            "purpose with allow_test=True."
        )


def main(argv: Sequence[str] | None = None) -> None:
    """Rebuild the shipped hash list from a file (or source) of the test split.

    Args:
        argv: the command-line arguments (None: `sys.argv[1:]`)."""
    from inspect_sparc.core.sources import load_records

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("source", help="the test split: a .jsonl/.json/.parquet file or a hub")
    parser.add_argument("--out", type=Path, default=HASH_FILE, help="where to write the list")
    args = parser.parse_args(argv)
    count = write_hashes(load_records(args.source, "test"), args.out)
    print(f"wrote {count} test-grid hashes to {args.out}")


if __name__ == "__main__":
    main()
