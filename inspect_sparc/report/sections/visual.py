"""Visual: image runs by plot type and prompt, beside the published visual runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.visual import chart_rows, published_visual, visual_table
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.render.figures import dot_chart
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


def visual_bars(visual: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy by plot type (and prompt), 95% intervals: image runs, then the published
    visual runs (muted).

    Args:
        visual: the visual table (`analysis.visual.visual_table`).
        published: the published visual rows, or None.

    Returns:
        the figure, or None without image runs.
    """
    if visual.empty:
        return None
    rows, model = chart_rows(visual, published)
    title = "Visual: accuracy by plot type"
    if model:  # the published runs are all of one model: say it once, in the title
        title = f"Visual: accuracy by plot type\n(published: {model})"
    return dot_chart(rows, "accuracy", title, "accuracy (%)", label_width=72)


def visual_section(ctx: Context) -> Section | None:
    """Image runs by plot type, with the published visual runs.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None without image runs.
    """
    visual = visual_table(ctx.runs, ctx.samples)
    if visual.empty:
        return None
    s = Section("visual", "Visual")
    pub_visual = published_visual(ctx.shipped("sparc_visual"))
    ctx.add_figure(s, visual_bars(visual, pub_visual), "visual", "Accuracy by plot type")
    ctx.add_table(s, visual, "visual", "Image runs by plot type")
    return s


SPEC = Spec("visual", visual_section)
