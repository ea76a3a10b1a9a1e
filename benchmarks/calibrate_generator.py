"""Side-by-side per-level tables: a generated set against the published test split.

Prints, per level, generated vs published: puzzles, median cell area, mean rule cells (symbols,
dots and gaps), share of puzzles holding each rule kind, solution count (median / mean / unique),
median shortest solution `pathLength`, start/end placement (S or E on a corner, on an edge
position, median S-E distance), and the model-free baselines (A* rate, mean chance of a random
walk) when `inspect_sparc.core.episode.baselines` is present. Then the issue's targets, pass or
FAIL.

Run: python benchmarks/calibrate_generator.py [--n 500] [--seed 7] [--workers 2]
     python benchmarks/calibrate_generator.py --file fresh.jsonl      (an existing set)
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from inspect_sparc.core.generate.generator import generate_puzzles
from inspect_sparc.core.puzzle.parse import LEVELS, parse_puzzle
from inspect_sparc.core.puzzle.records import rule_counts

ROOT = Path(__file__).resolve().parent.parent
SPLIT = ROOT / "tests" / "fixtures" / "sparc" / "test_split.jsonl.gz"
KINDS = ("square", "star", "triangle", "polyshape", "ylop")


def published() -> list[dict]:
    """The 500 published test puzzles."""
    with gzip.open(SPLIT, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _baselines() -> tuple[Callable | None, Callable | None]:
    try:
        from inspect_sparc.core.episode import baselines
    except ImportError:
        return None, None
    return baselines.astar_solves, baselines.chance_of_solving


def describe(records: Sequence[dict], with_baselines: bool = True) -> dict[int, dict[str, float]]:
    """Per-level figures of a set of records (see the module docstring)."""
    astar, chance = _baselines() if with_baselines else (None, None)
    table: dict[int, dict[str, float]] = {}
    for level in LEVELS:
        chosen = [r for r in records if r["difficulty_level"] == level]
        if not chosen:
            continue
        puzzles = [parse_puzzle(r) for r in chosen]
        counts = [rule_counts(r["puzzle_array"]) for r in chosen]
        solutions = [r["solution_count"] for r in chosen]

        def corner(p, q) -> bool:
            return q[0] in (0, p.columns - 1) and q[1] in (0, p.rows - 1)

        def share(values: Sequence[bool]) -> float:
            return sum(values) / len(values)

        row = {
            "n": len(chosen),
            "area": statistics.median(p.width * p.height for p in puzzles),
            "rule_cells": statistics.mean(
                sum(c[k] for k in (*KINDS, "dot", "gap")) for c in counts
            ),
            **{f"has_{k}": share([c[k] > 0 for c in counts]) for k in KINDS},
            "sol_median": statistics.median(solutions),
            "sol_mean": statistics.mean(solutions),
            "unique": share([s == 1 for s in solutions]),
            "shortest": statistics.median(
                min(len(s["path"]) for s in r["solutions"]) for r in chosen
            ),
            "s_corner": share([corner(p, p.start) for p in puzzles]),
            "e_corner": share([corner(p, p.end) for p in puzzles]),
            "on_edge": share([(p.start[0] + p.start[1]) % 2 == 1 for p in puzzles]),
            "distance": statistics.median(
                abs(p.start[0] - p.end[0]) + abs(p.start[1] - p.end[1]) for p in puzzles
            ),
        }
        if astar is not None and chance is not None:
            row["astar"] = share([bool(astar(p)) for p in puzzles])
            row["chance"] = statistics.mean(float(chance(p)) for p in puzzles)
        table[level] = row
    return table


COLUMNS = (
    ("n", "puzzles", "{:.0f}"),
    ("area", "cell area (median)", "{:.1f}"),
    ("rule_cells", "rule cells (mean)", "{:.1f}"),
    ("has_square", "has square", "{:.2f}"),
    ("has_star", "has star", "{:.2f}"),
    ("has_triangle", "has triangle", "{:.2f}"),
    ("has_polyshape", "has polyshape", "{:.2f}"),
    ("has_ylop", "has ylop", "{:.2f}"),
    ("sol_median", "solutions (median)", "{:.1f}"),
    ("sol_mean", "solutions (mean)", "{:.1f}"),
    ("unique", "unique solution", "{:.2f}"),
    ("shortest", "shortest pathLength (median)", "{:.0f}"),
    ("s_corner", "S on a corner", "{:.2f}"),
    ("e_corner", "E on a corner", "{:.2f}"),
    ("on_edge", "S on an edge position", "{:.2f}"),
    ("distance", "S-E distance (median)", "{:.0f}"),
    ("astar", "A* solves", "{:.3f}"),
    ("chance", "chance (mean)", "{:.3f}"),
)


def print_tables(generated: dict, reference: dict) -> None:
    """One markdown table: a row per figure, `generated / published` per level."""
    print("| figure | " + " | ".join(f"level {lv}" for lv in LEVELS) + " |")
    print("|---|" + "---|" * len(LEVELS))
    for key, name, fmt in COLUMNS:
        if not any(key in generated.get(lv, {}) for lv in LEVELS):
            continue
        cells = []
        for level in LEVELS:
            g, p = generated.get(level, {}), reference.get(level, {})
            left = fmt.format(g[key]) if key in g else "-"
            right = fmt.format(p[key]) if key in p else "-"
            cells.append(f"{left} / {right}")
        print(f"| {name} | " + " | ".join(cells) + " |")


def overall_astar(records: Sequence[dict]) -> float | None:
    """Share of puzzles the A* baseline solves, over the whole set."""
    astar, _ = _baselines()
    if astar is None:
        return None
    return sum(bool(astar(parse_puzzle(r))) for r in records) / len(records)


def overall_chance(records: Sequence[dict]) -> float | None:
    """Mean chance that a uniformly random legal walk solves a puzzle, over the whole set."""
    _, chance = _baselines()
    if chance is None:
        return None
    return statistics.mean(float(chance(parse_puzzle(r))) for r in records)


def targets(generated: dict, reference: dict) -> list[tuple[str, bool]]:
    """The issue's per-level targets: area 0.7-1.4x, kind shares within 0.1, rule cells 25%."""
    results = []
    for level in LEVELS:
        g, p = generated.get(level), reference.get(level)
        if not g or not p:
            continue
        ratio = g["area"] / p["area"]
        results.append((f"level {level} area ratio {ratio:.2f} in 0.7-1.4", 0.7 <= ratio <= 1.4))
        for kind in ("square", "star", "triangle", "polyshape"):
            gap = g[f"has_{kind}"] - p[f"has_{kind}"]
            results.append((f"level {level} {kind} share {gap:+.2f} within 0.1", abs(gap) <= 0.1))
        change = g["rule_cells"] / p["rule_cells"] - 1
        results.append((f"level {level} rule cells {change:+.0%} within 25%", abs(change) <= 0.25))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--file", type=Path, help="read a generated set instead of generating")
    args = parser.parse_args()
    if args.file:
        records = [json.loads(line) for line in args.file.read_text().splitlines() if line]
        print(f"generated set: {args.file} ({len(records)} puzzles)")
    else:
        began = time.perf_counter()
        records = generate_puzzles(args.n, args.seed, workers=args.workers)
        print(
            f"generated {len(records)} puzzles (seed {args.seed}, {args.workers} workers) in "
            f"{time.perf_counter() - began:.1f} s"
        )
    reference_records = published()
    generated, reference = describe(records), describe(reference_records)
    print("\nEach cell: generated / published.\n")
    print_tables(generated, reference)
    ours, theirs = overall_astar(records), overall_astar(reference_records)
    print()
    if ours is None or theirs is None:
        print("A* and chance: inspect_sparc.core.episode.baselines is not available on this branch")
        failures = 0
    else:
        ok = abs(ours - theirs) <= 0.02
        print(f"A* overall: generated {ours:.3f}, published {theirs:.3f} (target within 0.02)")
        chances = overall_chance(records), overall_chance(reference_records)
        print(f"chance overall: generated {chances[0]:.3f}, published {chances[1]:.3f}")
        failures = 0 if ok else 1
    for text, ok in targets(generated, reference):
        failures += not ok
        if not ok:
            print("FAIL", text)
    checked = len(targets(generated, reference))
    print(f"targets: {checked - failures} of {checked} per-level checks pass")
    return 0


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
