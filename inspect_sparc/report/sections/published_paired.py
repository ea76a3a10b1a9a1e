"""The runs on test puzzles paired with the published runs puzzle by puzzle, and a subset run's
estimate of its full-split accuracy, on the page (the numbers are `analysis.published_paired`'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.published_paired import (
    differing,
    page_rows,
    published_paired,
    subset_estimates,
)
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.render.columns import LEVEL, formatted
from inspect_sparc.report.render.page import FOLD_ROWS, Section
from inspect_sparc.report.statistics.score_intervals import MIN_SHARED

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The tables' columns that are not rates: the level, the counts and the p-values.
COLUMNS = (
    LEVEL,
    *(formatted(c, "count") for c in ("both", "only_run", "only_published", "neither")),
)
COLUMNS += tuple(formatted(c, "p") for c in ("p", "p_holm", "p_holm_in_pair"))

#: The overall table on the page: the counts, then the difference, the test and the reading.
OVERALL_PAGE = [
    ["run", "published", "n_shared", "both", "only_run", "only_published", "neither", "test"]
    + ["note"],
    ["run", "published", "accuracy_run", "accuracy_published", "difference", "p", "p_holm"]
    + ["mdd_80", "reading"],
]


def outcome_text(overall: pd.DataFrame) -> str:
    """How many of the tested pairs differ, and which way (the short account of a long table).

    Args:
        overall: the paired-with-published table.

    Returns:
        the sentence, or nothing where the table has no adjusted p.
    """
    found = differing(overall)
    if found is None:
        return ""
    tested, differ, higher = found
    return (
        f"{differ} of {tested} tested pairs differ (Holm p < 0.05 over each run's "
        f"published runs): the run higher in {higher}, the published run in "
        f"{differ - higher}. "
    )


def subset_text(estimates: pd.DataFrame) -> str:
    """What the subset table shows (nothing without a subset run).

    Args:
        estimates: the subset estimates (`analysis.published_paired.subset_estimates`).

    Returns:
        the sentences, or "".
    """
    if estimates.empty:
        return ""
    return (
        " A run on a shipped subset of the test split (-T puzzles=informative:N) estimates "
        "its accuracy on all 500 puzzles three ways, side by side: model-assisted (each "
        "puzzle's 2PL chance at the run's ability, corrected by the design-weighted mean of "
        "the subset's residuals; its interval is the residuals' design variance, valid "
        "whatever the model), design-based (stratified Horvitz-Thompson over the subset's "
        "strata, Wilson at the effective n) and model-based (the 2PL alone; it extrapolates "
        "for a model far above the published runs). Read the model-assisted row first. "
        "Its rows against the published runs are weighted to the whole split: the "
        "stratified Horvitz-Thompson estimate of the split's mean paired difference (run "
        "verdict minus published verdict, over the subset's strata, with the finite "
        "population correction), its normal interval and p from the design variance; both "
        "accuracies are the split's (the published run's is known on every puzzle), and the "
        "counts are the subset's shared puzzles. A run reproducing a published run's "
        "verdicts reads 0.0 (0.0, 0.0) against it."
    )


def published_paired_section(ctx: Context) -> Section | None:
    """Runs on test puzzles against each published run of their protocol, on the same puzzles.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where no run pairs with a published run and none ran a subset.
    """
    import pandas as pd

    # `--no-published`: no published run, only the subset's estimates
    with_published = ctx.published
    overall, levels = (
        published_paired(ctx.runs, ctx.samples) if with_published else (pd.DataFrame(),) * 2
    )
    estimates = subset_estimates(ctx.runs, ctx.samples)
    if overall.empty and estimates.empty:
        return None
    longest = max(len(overall), len(levels))
    s = Section(
        "published_paired",
        "Paired against the published runs",
        "Each run on test puzzles against every published run of its protocol and prompt "
        "whose per-puzzle verdicts the SPaRC authors published, on the puzzle ids both ran: "
        "both / only_run / only_published / neither count the shared puzzles each solved. A "
        "run on part of the split is compared on the shared puzzles only, and its note says "
        "so. Each run's per-puzzle values are reduced over epochs as its log reduced them. The "
        "difference run - published (points) has the interval of the test beside it, as in the "
        "paired comparisons: Tango's score interval and the McNemar score test for 0/1 "
        "outcomes, the paired t for per-puzzle means. p_holm is Holm's adjustment over the "
        "run's published runs (per level: over the pair's levels); mdd_80 is the smallest "
        "difference found with 80% exact power. "
        f"Fewer than {MIN_SHARED} shared puzzles: counted, not tested. "
        + outcome_text(overall)
        + "Protocols without published per-puzzle verdicts (visual, agent) are compared "
        "unpaired, with the published totals."
        + subset_text(estimates)
        + (
            f" Tables of more than {FOLD_ROWS} rows are folded: click to open them."
            if longest > FOLD_ROWS
            else ""
        ),
    )
    caption = "Paired against the published runs: run - published (points) on shared puzzles"
    shown, which = page_rows(overall)
    if shown is not None:
        caption += f"; the page shows {which} (all {len(overall)} rows in the CSV)"
    parts = [[c for c in part if c in overall] for part in OVERALL_PAGE]
    ctx.add_table(
        s, overall, "published_paired", caption, page=parts, shown_as=shown, columns=COLUMNS
    )
    caption = "Paired against the published runs per level (Holm within each pair)"
    narrow = levels.drop(columns=["power"], errors="ignore")
    ctx.add_table(s, levels, "published_paired_levels", caption, shown_as=narrow, columns=COLUMNS)
    caption = "Full-split accuracy estimated from a subset run (%), both estimators"
    ctx.add_table(s, estimates, "subset_estimate", caption)
    return s


SPEC = Spec("published_paired", published_paired_section, ("samples",))
