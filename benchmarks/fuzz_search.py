"""Differential fuzz of the search: random small grids, both engines, the rule oracle.

Usage:
    python benchmarks/fuzz_search.py [--seed N] [--count N] [--max-nodes N] [--inner]
                                     [--engine python|compiled|both]

Draws `count` seeded random puzzles (tests/search_fuzz.py: every rule kind, S or E a mid-edge
inside the grid, E off the border, grids one cell wide; `--inner`: every puzzle with S or E a
mid-edge inside the grid) of at most `max-nodes` lattice nodes (default 16; the oracle's brute
force grows fast beyond 25), enumerates each with tests/rule_oracle.py and with the engines
(default both when numba is installed), and prints the figures: puzzles, paths, what the grids
held, seconds per engine and for the oracle, and every puzzle where an engine differs from the
oracle or the engines' orders differ (as a JSON record to paste into a test). Exit status 1 on
any mismatch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from search_fuzz import FEATURES, run

from inspect_sparc.core.search import available


def main(argv: list[str]) -> int:
    """Parse arguments, run the fuzz, print the figures; 1 when anything disagreed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--max-nodes", type=int, default=16)
    parser.add_argument("--inner", action="store_true", help="S or E mid-edge inside the grid")
    parser.add_argument("--engine", choices=("python", "compiled", "both"), default="both")
    args = parser.parse_args(argv)
    if args.engine == "both":
        engines = ("python", "compiled") if available() else ("python",)
    else:
        engines = (args.engine,)
    began = time.perf_counter()
    report = run(args.seed, args.count, engines, args.max_nodes, args.inner)
    wall = time.perf_counter() - began
    print(
        f"{report.puzzles} puzzles (seed {args.seed}, at most {args.max_nodes} nodes"
        f"{', inner mid-edge S or E' if args.inner else ''}), {report.solvable} with a valid "
        f"path, {report.paths} valid paths in all; {wall:.1f} s"
    )
    print("held: " + ", ".join(f"{name} {report.seen[name]}" for name in FEATURES))
    print(
        "seconds: "
        + ", ".join(f"{name} {seconds:.2f}" for name, seconds in report.seconds.items())
        + ("" if "compiled" not in engines else " (compiled: includes loading numba's cache)")
    )
    print(f"mismatches: {len(report.mismatches)}")
    for line in report.mismatches:
        print("  " + line)
    return 1 if report.mismatches else 0


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main, sys.argv[1:])
