"""python -m inspect_sparc.generate: fresh SPaRC puzzles, calibrated to the published test split.

    python -m inspect_sparc.generate --n 500 --seed 7 --out fresh.jsonl
    python -m inspect_sparc.generate --n 100 --level 5 --seed 7 --out hard.jsonl
    python -m inspect_sparc.generate --n 100000 --seed 7 --shard 3/64 --out part3.jsonl

The same arguments give the same bytes on any machine with any `--workers`; the `--shard` parts
1/n..n/n, concatenated in order, equal the unsharded output. Use the file with
`inspect eval inspect_sparc/sparc -T source=fresh.jsonl`. The set `-T source=generated:SEED`
runs (`--n 500`, every level, unsharded) is also cached where that source reads it, so an eval
of it does not build it again. The command line only: the generator
itself is `inspect_sparc.core.generate.generator`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from inspect_sparc.core.generate.generator import (
    MAX_SOLUTIONS,
    GenerateError,
    check_arguments,
    dumps,
    iter_puzzles,
    level_schedule,
    parse_shard,
    shard_range,
)
from inspect_sparc.runtime.progress import progress_bar


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m inspect_sparc.generate",
        description="Generate fresh SPaRC puzzles (published schema, every valid solution "
        "stored, levels calibrated to the published test split).",
    )
    parser.add_argument("--n", type=int, default=500, help="puzzles in the whole set (500)")
    parser.add_argument("--seed", type=int, required=True, help="seed (a whole number >= 0)")
    parser.add_argument(
        "--level",
        type=int,
        help="only this level (1-5); default: the published mix 86/118/121/86/89 per 500",
    )
    parser.add_argument("--shard", help="write only part i of n of the set, e.g. 3/64")
    parser.add_argument("--workers", type=int, default=1, help="processes (1)")
    parser.add_argument(
        "--max-solutions",
        type=int,
        default=MAX_SOLUTIONS,
        help=f"keep puzzles with 1 to this many valid paths ({MAX_SOLUTIONS}, as published)",
    )
    parser.add_argument("--out", type=Path, help="output .jsonl file (default: stdout)")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar (drawn only when stderr is a terminal) and no summary line",
    )
    return parser


def check_cli(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[int, int]:
    """The shard asked for, once every argument is checked (argparse's usage error otherwise).

    Args:
        parser: the command's parser (its `error` exits with the usage line).
        args: the parsed arguments.

    Returns:
        The shard as (index, count), (1, 1) for the whole set."""
    try:
        check_arguments(args.n, args.seed, args.level, args.max_solutions)
        shard = parse_shard(args.shard)
        if args.workers < 1:
            raise GenerateError(f"workers must be a whole number >= 1; got {args.workers}")
        if args.out is not None and args.out.is_dir():
            raise GenerateError(f"--out must be a file, not a directory: {args.out}")
        if args.out is not None and not args.out.parent.exists():
            raise GenerateError(f"--out folder does not exist: {args.out.parent}")
    except GenerateError as error:
        parser.error(str(error))
    return shard


def write_records(
    records: Iterable[dict[str, Any]], out: TextIO, progress: Callable[[int], None]
) -> list[str]:
    """One JSON line per record, in order, the progress bar updated after each; returns the
    lines written.

    Args:
        records: the generated records, in order.
        out: where the lines go (a file or stdout).
        progress: called with the count written so far.

    Returns:
        The JSON lines written, each with its line end."""
    lines = []
    for done, record in enumerate(records, start=1):
        lines.append(dumps(record) + "\n")
        out.write(lines[-1])
        progress(done)
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the generator CLI; returns the exit status (2 for bad arguments).

    Args:
        argv: the command-line arguments (None: `sys.argv[1:]`).

    Returns:
        The exit status: 0 done, 2 bad arguments."""
    parser = _parser()
    args = parser.parse_args(argv)
    shard = check_cli(parser, args)
    indices = shard_range(args.n, shard)
    total = len(indices)
    levels = level_schedule(args.n, args.level)
    puzzles = iter_puzzles(
        args.n,
        args.seed,
        args.level,
        shard=shard,
        workers=args.workers,
        max_solutions=args.max_solutions,
    )
    shown = False if args.quiet else None  # None: drawn when stderr is a terminal
    kinds = [levels[i] for i in indices]  # the estimate of time left is per level
    cache = cache_target(args)
    with progress_bar(total, "generating", shown, kinds=kinds) as progress:
        if args.out is None:
            lines = write_records(puzzles, sys.stdout, progress)
            sys.stdout.flush()
        else:
            partial = args.out.with_name(args.out.name + ".partial")
            with partial.open("w", encoding="utf-8", newline="\n") as out:
                lines = write_records(puzzles, out, progress)
            os.replace(partial, args.out)  # a finished file or none: never a truncated one
    if cache is not None:
        fill_cache(cache, lines, args.quiet)
    if args.out is not None and not args.quiet:
        print(f"wrote {total} puzzles to {args.out}", file=sys.stderr)
    return 0


def cache_target(args: argparse.Namespace) -> Path | None:
    """Where `-T source=generated:SEED` reads this set, when the arguments make exactly that set
    (the default size, every level, the published solution cap, unsharded) and it is not cached
    yet; None otherwise.

    Args:
        args: the parsed command-line arguments.

    Returns:
        The cache file to fill, or None."""
    from inspect_sparc.core.sources import GENERATED_SET_SIZE, generated_cache_file

    exact = (args.n, args.level, args.shard, args.max_solutions)
    if exact != (GENERATED_SET_SIZE, None, None, MAX_SOLUTIONS):
        return None
    path = generated_cache_file(args.seed, args.n)
    return None if path.is_file() else path


def fill_cache(path: Path, lines: list[str], quiet: bool) -> None:
    """Write the set's lines where `source=generated:SEED` reads them (whole or not at all).

    Args:
        path: the cache file (`cache_target`'s).
        lines: the set's JSON lines, in order.
        quiet: say nothing on stderr."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + f".{os.getpid()}.partial")
        partial.write_text("".join(lines), encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:  # an unwritable cache costs a rebuild at eval time, not this run
        print(f"could not cache the set in {path}: {error}", file=sys.stderr)
        return
    if not quiet:
        print(f"cached for -T source=generated:SEED in {path}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
