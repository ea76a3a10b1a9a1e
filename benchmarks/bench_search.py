"""Time exhaustive search per puzzle and the rule checker's throughput.

Usage: `python benchmarks/bench_search.py [RECORDS_FILE] [--all]` (default: the shipped test
fixtures; pass a full split as .jsonl/.json/.parquet to time all of it; `--all` lists every
puzzle, not only the slowest). Prints figures, asserts nothing.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from inspect_sparc.core.puzzle import Puzzle, parse_puzzle
from inspect_sparc.core.rules import check
from inspect_sparc.core.search import solve

DEFAULT_FILE = (
    Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "sparc" / "puzzles.jsonl"
)
#: How many slowest puzzles to list.
SHOW_SLOWEST = 10
#: Minimum time spent measuring checker throughput.
CHECK_SECONDS = 2.0


def load(path: Path) -> list[Puzzle]:
    """Parse every record of a records file (via the package's file reader when available)."""
    try:
        from inspect_sparc.sparc.sources import read_records_file

        records = read_records_file(path)
    except ImportError:
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [parse_puzzle(record) for record in records]


def time_search(puzzles: list[Puzzle]) -> list[tuple[float, Puzzle, int, bool]]:
    """(seconds, puzzle, solutions found, matches stored set) for every puzzle."""
    results = []
    for number, puzzle in enumerate(puzzles, start=1):
        began = time.perf_counter()
        found = solve(puzzle)
        seconds = time.perf_counter() - began
        results.append((seconds, puzzle, len(found), set(found) == set(puzzle.solutions)))
        if len(puzzles) > 20 and number % 50 == 0:
            print(f"  searched {number}/{len(puzzles)}", file=sys.stderr, flush=True)
    return results


def checks_per_second(puzzles: list[Puzzle]) -> tuple[float, float]:
    """Throughput of `check` on stored solutions and on broken answers (reversed solutions)."""
    valid = [(p, s) for p in puzzles for s in p.solutions]
    broken = [(p, s[::-1]) for p, s in valid]
    rates = []
    for pairs in (valid, broken):
        count, began = 0, time.perf_counter()
        while time.perf_counter() - began < CHECK_SECONDS / 2:
            for puzzle, path in pairs:
                check(puzzle, path)
            count += len(pairs)
        rates.append(count / (time.perf_counter() - began))
    return rates[0], rates[1]


def main(argv: list[str]) -> None:
    """Print per-puzzle search times, totals by grid size, and checker throughput."""
    every = "--all" in argv
    files = [arg for arg in argv if arg != "--all"]
    path = Path(files[0]) if files else DEFAULT_FILE
    puzzles = load(path)
    print(f"{len(puzzles)} puzzles from {path}")
    results = time_search(puzzles)
    total = sum(seconds for seconds, *_ in results)
    mismatches = [p.id for _, p, _, same in results if not same]
    print(f"search total: {total:.2f} s, mean {1000 * total / len(results):.1f} ms per puzzle")
    print(f"stored sets reproduced: {len(results) - len(mismatches)}/{len(results)}")
    if mismatches:
        print("mismatch: " + ", ".join(mismatches))
    by_size: dict[str, list[float]] = {}
    for seconds, puzzle, _, _ in results:
        by_size.setdefault(f"{puzzle.width}x{puzzle.height}", []).append(seconds)
    print("by grid size (count, total s, max s):")
    for size, times in sorted(by_size.items(), key=lambda item: -sum(item[1])):
        print(f"  {size:>5}  {len(times):4d}  {sum(times):8.2f}  {max(times):7.2f}")
    shown = len(results) if every else SHOW_SLOWEST
    print("every puzzle, slowest first:" if every else f"slowest {SHOW_SLOWEST}:")
    for seconds, puzzle, found, _ in sorted(results, key=lambda r: -r[0])[:shown]:
        size = f"{puzzle.width}x{puzzle.height}"
        print(
            f"  {puzzle.id}  level {puzzle.level}  {size}  {found:3d} solutions  {seconds:7.3f} s"
        )
    valid_rate, broken_rate = checks_per_second(puzzles)
    print(f"check(): {valid_rate:,.0f} valid paths/s, {broken_rate:,.0f} broken paths/s")


if __name__ == "__main__":
    main(sys.argv[1:])
