"""Validation of the subset estimates against the targets of the cheap-run mode: the shipped
subsets themselves (the one draw users run, with the shipped fit), leave-one-family-out (every
run of one model family held out, strata, subsets and 2PL fit rebuilt from the other
families, `--draws` subsets each), simulated models stronger than every published run (the
simulation is `validation.simulated_trials`), a run solving every puzzle or none, and the
trade-off between published-like and strong models as the share of informative:100 given to
the puzzles no published run solved varies (`--shares`). Prints one Markdown table per part:
MAE, mean bias, coverage and width (points) per estimator, with as many random puzzles beside.

    python benchmarks/published_subset_validation.py [--draws 10] [--simulated 400]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np


def table(rows: list[dict[str, object]]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| estimator | puzzles | trials | MAE | mean bias | 95% coverage | mean width |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['method']} | {r['size']} | {r['trials']} | {r['mae_points']:.2f} | "  # type: ignore[str-format]
            f"{r['bias_points']:+.2f} | {100 * float(r['coverage']):.1f}% | "  # type: ignore[arg-type]
            f"{r['width_points']:.1f} |"
        )
    return "\n".join(lines)


def edges() -> str:
    """Each estimator's interval for a run solving every puzzle of informative:100, and none."""
    from inspect_sparc.published_runs.estimators import design_based, model_assisted, model_based
    from inspect_sparc.published_runs.shipped import load_item_model, load_subset

    subset, model = load_subset("informative:100"), load_item_model()
    lines = ["| run | estimator | estimate | 95% interval |", "|---|---|---:|---|"]
    for name, value in (("all solved", 1.0), ("none solved", 0.0)):
        values = np.full(subset.chosen.size, value)
        for found in (
            design_based(subset, values),
            model_assisted(model, subset, values),
            model_based(model, subset, values),
        ):
            lines.append(
                f"| {name} | {found.method} | {100 * found.value:.1f} | "
                f"{100 * found.low:.1f}-{100 * found.high:.1f} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from inspect_sparc.published_runs.validation import (
        bias_table,
        leave_one_family_out,
        shipped_subset_trials,
        simulated_trials,
    )

    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--draws", type=int, default=10, help="subsets per held-out family")
    parser.add_argument("--simulated", type=int, default=400, help="runs per simulated accuracy")
    parser.add_argument(
        "--shares",
        default="",
        help="shares of informative:100 for unsolved puzzles: the trade-off table (0.3,0.5)",
    )
    args = parser.parse_args(argv)
    start = time.monotonic()

    def progress(line: str) -> None:
        print(f"[{time.monotonic() - start:5.0f}s] held out {line}", file=sys.stderr)

    print("## The shipped subsets (shipped fit, every complete published run)\n")
    print(table(bias_table(shipped_subset_trials())))
    print("\n## Simulated strong models on the shipped informative:100\n")
    simulated = simulated_trials(runs=args.simulated)
    for target in sorted({t.run_id for t in simulated}):
        print(f"\n{target}\n")
        print(table(bias_table([t for t in simulated if t.run_id == target])))
    print("\n## A run solving every puzzle of informative:100, or none\n")
    print(edges())
    print(f"\n## Leave one family out (100 puzzles, {args.draws} draws per family)\n")
    print(table(bias_table(leave_one_family_out(draws=args.draws, progress=progress))))
    if args.shares:
        shares = [float(x) for x in args.shares.split(",")]
        print("\n## Trade-off: share of informative:100 for puzzles no published run solved\n")
        print(trade_off(shares, args.draws, args.simulated, progress))
    return 0


def trade_off(
    shares: list[float], draws: int, simulated: int, progress: Callable[[str], None]
) -> str:
    """Per share of the subset given to the puzzles no published run solved: the
    model-assisted estimate's leave-one-family-out MAE, bias and coverage (published-like
    models) and, on simulated strong models, its worst ratio of MAE to 100 random puzzles'
    and its lowest coverage over the simulated accuracies."""
    from inspect_sparc.published_runs.irt import fit_2pl
    from inspect_sparc.published_runs.shipped import SEED, frozen_verdicts
    from inspect_sparc.published_runs.subsets import balanced_subset
    from inspect_sparc.published_runs.validation import (
        bias_table,
        leave_one_family_out,
        simulated_trials,
    )
    from inspect_sparc.published_runs.verdicts import load_verdicts

    verdicts = load_verdicts()
    solved = frozen_verdicts(verdicts)
    model = fit_2pl(solved)
    lines = [
        "| unsolved share | LOFO MAE | LOFO bias | LOFO coverage | strong: worst MAE / random"
        " | strong: lowest coverage |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for share in shares:
        lofo = leave_one_family_out(draws=draws, unsolved_share=share, progress=progress)
        row = next(r for r in bias_table(lofo) if r["method"] == "model-assisted")
        subset = balanced_subset(100, verdicts.levels, solved, model, SEED + 100, "", share)
        sim = simulated_trials(runs=simulated, subset=subset, methods=("model-assisted",))
        ratios, covers = [], []
        for target in {t.run_id for t in sim}:
            rows = {r["method"]: r for r in bias_table([t for t in sim if t.run_id == target])}
            mine, plain = rows["model-assisted"], rows["random"]
            ratios.append(float(mine["mae_points"]) / float(plain["mae_points"]))  # type: ignore[arg-type]
            covers.append(float(mine["coverage"]))  # type: ignore[arg-type]
        lines.append(
            f"| {share:.2f} | {row['mae_points']:.2f} | {row['bias_points']:+.2f} | "  # type: ignore[str-format]
            f"{100 * float(row['coverage']):.1f}% | {max(ratios):.2f} | "  # type: ignore[arg-type]
            f"{100 * min(covers):.1f}% |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
