"""Rebuild the shipped subsets and 2PL fit (inspect_sparc/published_runs/data/subsets.csv,
irt_items.csv, irt_model.json) from the shipped verdicts, with the fixed seed.

    python benchmarks/build_published_subsets.py [--out DIR]

A changed output means the subsets changed: bump SUBSETS_VERSION and the task versions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from inspect_sparc.published_runs.shipped import build

DATA = Path(__file__).resolve().parents[1] / "inspect_sparc" / "published_runs" / "data"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA, help=f"folder to write (default {DATA})")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    print("fitting the 2PL model and drawing the subsets ...", file=sys.stderr)
    build(args.out)
    print(f"wrote subsets.csv, irt_items.csv, irt_model.json to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
