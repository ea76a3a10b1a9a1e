"""python -m inspect_sparc.audit: does exhaustive search reproduce each stored solution set?

`python -m inspect_sparc.audit [--source SOURCE] [--split test] [--subset all] [--level 1,2]
[--limit N]` prints one row per puzzle and a summary, with a progress bar on stderr while it
runs when that is a terminal; it exits 0 when every puzzle matches, 1 on any mismatch (or
unreadable record) and 2 when the records cannot be loaded. The command line only: the audit
itself is `inspect_sparc.core.search.solution_audit`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from inspect_sparc.core.puzzle.parse import parse_levels
from inspect_sparc.core.search.solution_audit import (
    format_table,
    levels_of,
    run_audit,
    select,
    summary,
    warm_up,
)
from inspect_sparc.runtime.progress import progress_bar

__all__ = ["level_argument", "main"]


def level_argument(values: Sequence[str]) -> tuple[int, ...] | None:
    """Levels from repeated and/or comma-separated `--level` values (None: all levels).

    Args:
        values: the `--level` values as given.

    Returns:
        The levels as `parse_levels` reads them, or None for all."""
    parts = [part for value in values for part in value.split(",") if part.strip()]
    return parse_levels(parts) if values else None


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1.

    Args:
        text: the argument as given.

    Returns:
        Its value (argparse's error when it is not a whole number >= 1)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """Command-line options.

    Returns:
        The audit's argument parser."""
    parser = argparse.ArgumentParser(
        prog="python -m inspect_sparc.audit",
        description="Check that exhaustive search reproduces every stored SPaRC solution set.",
    )
    parser.add_argument(
        "--source",
        default="modelscope",
        help="modelscope, huggingface, sample, or a .json/.jsonl/.parquet/.gz file of records",
    )
    parser.add_argument("--split", default="test")
    parser.add_argument("--subset", default="all")
    parser.add_argument(
        "--level",
        action="append",
        default=[],
        help="difficulty level(s), e.g. 1 or 1,2 (repeatable)",
    )
    parser.add_argument("--limit", type=positive_int, default=None, help="audit at most N puzzles")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the audit; return the exit code (0 all match, 1 mismatch, 2 records unavailable).

    Args:
        argv: the command-line arguments (None: `sys.argv[1:]`).

    Returns:
        The exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        levels = level_argument(args.level)
    except ValueError as error:
        parser.error(str(error))
    from inspect_sparc.core.sources import SourceError, load_records

    try:
        records = load_records(source=args.source, split=args.split, subset=args.subset)
    except (SourceError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    chosen = select(records, levels, args.limit)
    if not chosen:
        print(f"error: no puzzles of level {list(levels or [])} in {args.source}", file=sys.stderr)
        return 1
    try:
        engine = warm_up(chosen)
    except (ValueError, RuntimeError) as error:  # INSPECT_SPARC_SEARCH unknown, or no numba
        print(f"error: {error}", file=sys.stderr)
        return 2
    # cleared at the end (the table and summary follow); drawn only when stderr is a terminal
    with progress_bar(len(chosen), "auditing", kinds=levels_of(chosen), transient=True) as bar:
        rows = run_audit(chosen, progress=bar)
    print(format_table(rows))
    print(summary(rows, engine))
    return 0 if all(row.ok for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
