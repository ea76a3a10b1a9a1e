"""Time exhaustive search per puzzle (and the rule checker's throughput) on a whole split.

Usage:
    python benchmarks/bench_search.py [RECORDS_FILE] [--repeat N] [--save OUT.json]
                                      [--against BEFORE.json] [--all]
                                      [--engine auto|python|compiled]

RECORDS_FILE defaults to the shipped 500-puzzle test split (.jsonl, .jsonl.gz, .json or
.parquet). Each puzzle is searched N times (default 1) and its best wall-clock and CPU time kept;
CPU time is what to compare on a shared machine. `--save` writes the per-puzzle figures as JSON,
`--against` prints ratios to such a file (per level, total and the slowest puzzles), `--all`
lists every puzzle, `--engine` picks the search engine (default: as `solve` would). The
compiled engine's one-off start (numba compiling, or loading its on-disk cache) is timed apart,
before the per-puzzle runs. Every search is also compared with the stored solution set. Prints
figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from command_line import arguments, run_main

from inspect_sparc.core import search as search_engines
from inspect_sparc.core.puzzle.parse import Puzzle, parse_puzzle
from inspect_sparc.core.puzzle.rules import check
from inspect_sparc.core.search import solve

DEFAULT_FILE = (
    Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "sparc" / "test_split.jsonl.gz"
)
#: How many slowest puzzles to list.
SHOW_SLOWEST = 10
#: Minimum time spent measuring checker throughput.
CHECK_SECONDS = 2.0


def load(path: Path) -> list[Puzzle]:
    """Parse every record of a records file (.gz JSON lines read here, others by the package)."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            records = [json.loads(line) for line in lines if line.strip()]
    else:
        from inspect_sparc.core.sources import read_records_file

        records = read_records_file(path)
    return [parse_puzzle(record) for record in records]


def time_search(puzzles: list[Puzzle], repeat: int, engine: str | None) -> list[dict[str, Any]]:
    """Per puzzle: best wall and CPU seconds over `repeat` runs, solutions found, exactness."""
    rows = [
        {"id": p.id, "level": p.level, "size": f"{p.width}x{p.height}", "wall": 1e9, "cpu": 1e9}
        for p in puzzles
    ]
    for run in range(repeat):
        for number, (puzzle, row) in enumerate(zip(puzzles, rows, strict=True), start=1):
            wall, cpu = time.perf_counter(), time.process_time()
            found = solve(puzzle, engine=engine)
            row["cpu"] = min(row["cpu"], time.process_time() - cpu)
            row["wall"] = min(row["wall"], time.perf_counter() - wall)
            row["found"] = len(found)
            row["exact"] = len(found) == len(set(found)) and set(found) == set(puzzle.solutions)
            if len(puzzles) > 20 and number % 100 == 0:
                print(f"  run {run + 1}/{repeat}: {number}/{len(puzzles)}", file=sys.stderr)
    return rows


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


def ratio(before: float, after: float) -> str:
    """`before / after` as a speed-up factor."""
    return f"{before / after:6.1f}x" if after > 0 else "   inf"


def report(rows: list[dict[str, Any]], before: dict[str, dict[str, Any]], every: bool) -> None:
    """Totals, per-level figures, slowest puzzles; ratios where a `before` run is given."""
    compared = [row for row in rows if row["id"] in before]
    wall = sum(row["wall"] for row in rows)
    cpu = sum(row["cpu"] for row in rows)
    exact = sum(row["exact"] for row in rows)
    print(
        f"search total: {wall:.2f} s wall, {cpu:.2f} s CPU ({1000 * cpu / len(rows):.1f} ms mean)"
    )
    if compared:
        old = sum(before[row["id"]]["cpu"] for row in compared)
        new = sum(row["cpu"] for row in compared)
        print(f"  vs before: {old:.2f} s -> {new:.2f} s CPU ({ratio(old, new).strip()} faster)")
    print(f"stored sets reproduced: {exact}/{len(rows)}")
    wrong = [row["id"] for row in rows if not row["exact"]]
    if wrong:
        print("MISMATCH: " + ", ".join(wrong))
    print(
        "by level (count, total CPU s, max CPU s"
        + (", before total, ratio):" if compared else "):")
    )
    for level in sorted({row["level"] for row in rows}, key=lambda lv: (lv is None, lv)):
        group = [row for row in rows if row["level"] == level]
        line = (
            f"  level {level}  {len(group):4d}  {sum(r['cpu'] for r in group):8.2f}"
            f"  {max(r['cpu'] for r in group):7.3f}"
        )
        olds = [before[r["id"]]["cpu"] for r in group if r["id"] in before]
        if olds:
            line += f"  {sum(olds):8.2f}  {ratio(sum(olds), sum(r['cpu'] for r in group))}"
        print(line)
    over = [row for row in rows if row["cpu"] > 1.0]
    print(f"puzzles over 1 s CPU: {len(over)}")
    shown = len(rows) if every else SHOW_SLOWEST
    print("every puzzle, slowest first:" if every else f"slowest {SHOW_SLOWEST} (CPU s):")
    for row in sorted(rows, key=lambda r: -r["cpu"])[:shown]:
        line = (
            f"  {row['id']}  level {row['level']}  {row['size']:>4}  {row['found']:3d} solutions"
            f"  {row['cpu']:7.3f}"
        )
        if row["id"] in before:
            old = before[row["id"]]["cpu"]
            line += f"  (before {old:7.3f}, {ratio(old, row['cpu']).strip()})"
        print(line)


def main(path: Path, repeat: int, save: str | None, against: str | None, every: bool,
         engine: str | None) -> None:  # fmt: skip
    """Time the search, print the report (and save it when asked)."""
    puzzles = load(path)
    load_average = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(puzzles)} puzzles from {path}; best of {repeat}; load {load_average:.1f}")
    compiled = search_engines.use_compiled(engine)
    began = time.perf_counter()
    solve(puzzles[0], engine=engine)
    print(
        f"engine: {'compiled (numba)' if compiled else 'python'}; first search "
        f"(compiling or loading the compiled engine): {time.perf_counter() - began:.2f} s"
    )
    rows = time_search(puzzles, repeat, engine)
    before: dict[str, dict[str, Any]] = {}
    if against:
        before = {row["id"]: row for row in json.loads(Path(against).read_text(encoding="utf-8"))}
    report(rows, before, every)
    if save:
        Path(save).write_text(json.dumps(rows, indent=0), encoding="utf-8")
        print(f"per-puzzle figures written to {save}")
    valid_rate, broken_rate = checks_per_second(puzzles)
    print(f"check(): {valid_rate:,.0f} valid paths/s, {broken_rate:,.0f} broken paths/s")


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("records", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--repeat", type=int, default=1, help="searches per puzzle (best kept)")
    parser.add_argument("--save", help="write the per-puzzle figures to this JSON file")
    parser.add_argument("--against", help="print ratios to such a file")
    parser.add_argument("--all", action="store_true", help="list every puzzle")
    parser.add_argument("--engine", choices=("auto", "python", "compiled"))


if __name__ == "__main__":
    options = arguments(__doc__, _options)
    run_main(main, options.records, options.repeat, options.save, options.against, options.all,
        options.engine)  # fmt: skip
