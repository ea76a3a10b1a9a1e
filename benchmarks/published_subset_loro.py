"""Leave-one-run-out check of the subset estimates on the published SPaRC runs: for each
published run that ran all 500 test puzzles, estimate its full-split accuracy from 50, 100 and
200 puzzles (design-based, model-based, and a plain random sample for comparison) with the
strata, subset and 2PL fit rebuilt from the other runs; print MAE, coverage and width.

    python benchmarks/published_subset_loro.py [--draws 10] [--sizes 50 100 200] [--out DIR]
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path

from inspect_sparc.published_runs.validation import leave_one_run_out, markdown_table, summarise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--draws", type=int, default=10, help="subsets drawn per run and size")
    parser.add_argument("--out", type=Path, help="output folder (default: a new temporary one)")
    args = parser.parse_args(argv)
    start = time.monotonic()

    def progress(line: str) -> None:
        print(f"[{time.monotonic() - start:5.0f}s] held out {line}", file=sys.stderr)

    trials = leave_one_run_out(args.sizes, args.draws, progress=progress)
    rows = summarise(trials)
    table = markdown_table(rows)
    print(table)
    args.out = args.out or Path(tempfile.mkdtemp(prefix="published-subset-loro-"))
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "published_subset_loro_trials.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["run_id", "size", "draw", "method", "truth", "estimate", "low", "high"])
        for t in trials:
            e = t.estimate
            writer.writerow([t.run_id, t.size, t.draw, t.method, t.truth, e.value, e.low, e.high])
    (args.out / "published_subset_loro.md").write_text(table + "\n", encoding="utf-8")
    print(f"wrote {args.out / 'published_subset_loro.md'} and the trials CSV", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
