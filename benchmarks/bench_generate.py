"""Generation speed: puzzles per second per level, and the wall time of a whole 500-puzzle set.

Per level: `--per-level` puzzles in one process (best of `--repeat` runs, since the machine may
be shared), with the share of the time spent in the exhaustive search and the draws per puzzle.
Then the full 500-puzzle mix with `--workers` processes (target: at most 5 minutes on 2 cores).

Run: python benchmarks/bench_generate.py [--per-level 20] [--repeat 2] [--workers 2] [--skip-full]
The search engine is the one `solve` picks (set INSPECT_SPARC_SEARCH=python or compiled to
choose); the first line says which.
"""

from __future__ import annotations

import argparse
import time

import inspect_sparc.core.generate.generator as generator
from inspect_sparc.core import search as search_engines
from inspect_sparc.core.puzzle.parse import LEVELS


class _Counting:
    """Wraps the search to count calls and time spent in it."""

    def __init__(self) -> None:
        self.calls, self.seconds, self.original = 0, 0.0, generator.solve

    def __call__(self, puzzle, limit=None):
        began = time.perf_counter()
        try:
            return self.original(puzzle, limit)
        finally:
            self.calls += 1
            self.seconds += time.perf_counter() - began


def per_level(count: int, repeat: int, seed: int) -> None:
    """Puzzles per second per level, one process."""
    print(f"| level | puzzles/s (best of {repeat}) | s/puzzle | searches/puzzle | search share |")
    print("|---|---|---|---|---|")
    for level in LEVELS:
        best, searches, search_share = 0.0, 0.0, 0.0
        for _ in range(repeat):
            counting = _Counting()
            generator.solve = counting
            try:
                began = time.perf_counter()
                for index in range(count):
                    generator.generate_one(seed, index, level)
                elapsed = time.perf_counter() - began
            finally:
                generator.solve = counting.original
            if count / elapsed > best:
                best = count / elapsed
                searches, search_share = counting.calls / count, counting.seconds / elapsed
        print(f"| {level} | {best:.1f} | {1 / best:.2f} | {searches:.1f} | {search_share:.0%} |")


def full(n: int, seed: int, workers: int) -> None:
    """Wall time of the whole mixed set."""
    began = time.perf_counter()
    generator.generate_puzzles(n, seed, workers=workers)
    elapsed = time.perf_counter() - began
    print(
        f"\n{n} puzzles (published level mix, seed {seed}) with {workers} worker(s): "
        f"{elapsed:.1f} s ({n / elapsed:.2f} puzzles/s; target 500 in <= 300 s on 2 cores)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--skip-full", action="store_true")
    args = parser.parse_args()
    compiled = search_engines.use_compiled()
    print(f"search engine: {'compiled (numba)' if compiled else 'python'}\n")
    per_level(args.per_level, args.repeat, args.seed)
    if not args.skip_full:
        full(args.n, args.seed, args.workers)
    return 0


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
