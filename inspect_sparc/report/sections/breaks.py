"""Why answers failed: the share of answers breaking each rule, per SPaRC run, with
intervals, as a table and a heat map."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.breaks import breaks_table
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.samples import BREAK_RULES
from inspect_sparc.report.render.figures import heatmap, most_accurate_first
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


def breaks_heatmap(breaks: pd.DataFrame, runs: pd.DataFrame | None = None) -> Figure | None:
    """Share of answers breaking each rule, per run (with intervals; most accurate first where
    `runs` gives their accuracy).

    Args:
        breaks: the broken-rules table (`analysis.breaks.breaks_table`).
        runs: the runs frame, to order the runs by accuracy (None: the table's order).

    Returns:
        the figure, or None where there is nothing to draw.
    """
    if breaks.empty:
        return None
    rows = breaks if runs is None else most_accurate_first(breaks, runs)
    return heatmap(rows, BREAK_RULES, "Why answers failed: rules broken", "answers (%)")


#: The broken-rules table on the page: path rules, then the rules of the symbols.
BREAKS_PAGE = [
    [C.RUN, "n", "start", "end", "disconnected", "revisit", "off_grid", "gap"],
    [C.RUN, "n", "rule_cell", "dot", "square", "star", "triangle", "polyshape"],
]


def breaks_section(ctx: Context) -> Section | None:
    """Share of answers breaking each rule.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
    breaks = breaks_table(ctx.runs, ctx.samples)
    if breaks.empty:
        return None
    s = Section(
        "breaks",
        "Why answers failed",
        "Share of answers breaking each rule (the logs' breaks_* metrics), with 95% "
        "intervals from the samples.",
    )
    ctx.add_figure(s, breaks_heatmap(breaks, ctx.runs), "rule_breaks", "Rules broken")
    parts = [[c for c in part if c in breaks] for part in BREAKS_PAGE]
    ctx.add_table(s, breaks, "rule_breaks", "Answers (%) breaking each rule", page=parts)
    return s


SPEC = Spec("breaks", breaks_section)
