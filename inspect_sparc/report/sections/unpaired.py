"""The unpaired comparisons on the page: runs that share no puzzle, and runs against the
published rows (shortened on the page where long; the numbers are `analysis.unpaired`'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.unpaired import unshared_table
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The page shows every row of the published comparison up to this many (the CSV has all).
PAGE_ROWS = 40


def page_rows(against: pd.DataFrame) -> tuple[pd.DataFrame | None, str]:
    """What the page shows of a long published comparison (None: all of it): for each run, the
    rows of its own model where it has any, else the two published rows nearest in accuracy."""
    if len(against) <= PAGE_ROWS:
        return None, ""
    gap = (against["accuracy_published"] - against["accuracy"]).abs()
    ranked = against.assign(_gap=gap).sort_values("_gap", kind="stable")
    kept = [
        rows[rows["same_model"]] if rows["same_model"].any() else rows.head(2)
        for _, rows in ranked.groupby(C.RUN, sort=False)
    ]
    import pandas as pd

    shown = pd.concat(kept).drop(columns="_gap").sort_index()
    return shown, "each run's own model's rows, or else the two nearest in accuracy"


def page_view(shown: pd.DataFrame | None, against: pd.DataFrame) -> pd.DataFrame | None:
    """The published comparison as the page shows it: without the long source citations
    (the CSV and the published table have them), and `same_model` only where one matches."""
    if against.empty:
        return None
    view = against if shown is None else shown
    drop = ["source"] + ([] if against["same_model"].any() else ["same_model"])
    return view.drop(columns=drop, errors="ignore")


def unpaired_section(ctx: Context) -> Section | None:
    """Runs on different puzzles, and runs against the published rows."""
    unshared = unshared_table(ctx.runs, ctx.samples)
    against = ctx.against_published
    if unshared.empty and against.empty:
        return None
    s = Section(
        "unpaired",
        "Unpaired comparisons",
        "Differences that cannot be paired puzzle by puzzle, each with Newcombe's hybrid score "
        "95% interval of two independent proportions (a - b, points): runs of one task and "
        "protocol that share no puzzle (a model's test run against its run on fresh puzzles is "
        "the fresh-puzzle gap's), and each run whose puzzles are all test puzzles against the "
        "published rows of its protocol from their own n. The published runs saw the same "
        "puzzles, but without their per-puzzle outcomes the pair cannot be paired, and the "
        "independent interval is the wider, cautious one. No p-value: a test beside the "
        "interval could disagree with it; `reading` says whether the interval excludes 0.",
    )
    caption = "Runs that share no puzzle: a - b (points), Newcombe 95% interval"
    ctx.add_table(s, unshared, "unshared", caption)
    caption = "Runs against the published rows: run - published (points), Newcombe 95% interval"
    shown, which = page_rows(against)
    if shown is not None:
        caption += f"; the page shows {which} (all {len(against)} rows in the CSV)"
    ctx.add_table(s, against, "against_published", caption, shown_as=page_view(shown, against))
    return s


SPEC = Spec("unpaired", unpaired_section, ("samples",))
