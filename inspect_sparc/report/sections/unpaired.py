"""The unpaired comparisons on the page: runs that share no puzzle, and runs against the
published rows (shortened on the page where long; the numbers are `analysis.unpaired`'s)."""

from __future__ import annotations

from inspect_sparc.report.analysis.unpaired import page_rows, page_view, unshared_table
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.render.page import Section


def unpaired_section(ctx: Context) -> Section | None:
    """Runs on different puzzles, and runs against the published rows.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
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
