"""Protocol deltas on the page: per model, the difference between runs of two protocols with the
paired interval, beside the published models' deltas (the numbers are `analysis.deltas`'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.deltas import (
    chart_rows,
    delta_table,
    deltas_shown,
    published_deltas,
)
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.figures import dot_chart
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


def delta_bars(deltas: pd.DataFrame, published: pd.DataFrame | None = None) -> Figure | None:
    """Protocol deltas in accuracy points per model, with the paired 95% interval where the
    two runs share puzzles; the published deltas (papers and rebuttal rows) muted.

    Args:
        deltas: the deltas as shown (`analysis.deltas.deltas_shown`).
        published: the published models' deltas, or None.

    Returns:
        the figure, or None without deltas.
    """
    if deltas.empty:
        return None
    rows = chart_rows(deltas, published)
    return dot_chart(rows, "value", "Protocol deltas", "accuracy difference (points)", None)


#: The deltas table on the page in two parts, so that it fits 1280 px (the CSV has it whole):
#: the difference and its interval, then the runs and the settings they share.
DELTAS_FIRST = [C.MODEL, "delta", "n", "points", "ci95_low", "ci95_high", "accuracy_a"]
DELTAS_FIRST += ["accuracy_b"]


# Repeated code kept: every section builder shares this docstring and empty-table guard (`Spec`).
def deltas_section(ctx: Context) -> Section | None:
    """Protocol deltas per model, between runs on the same puzzles.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
    deltas = delta_table(ctx.runs)
    if deltas.empty:
        return None
    s = Section(
        "deltas",
        "Protocol deltas",
        "Per model with runs of both protocols on the same puzzles: paired only when "
        "prompt, source, split, subset, levels and the number of puzzles match (and "
        "max_steps, between two gym protocols); the latest run of each protocol is taken.",
    )
    deltas = deltas_shown(deltas, ctx.paired, ctx.runs, ctx.samples)
    published = published_deltas(ctx.runs) if ctx.published else None
    fig = delta_bars(deltas, published)
    ctx.add_figure(s, fig, "protocol_deltas", "Protocol deltas (paired 95% intervals)")
    first = [c for c in DELTAS_FIRST if c in deltas]
    page = [first, [C.MODEL, "delta", *[c for c in deltas if c not in first]]]
    ctx.add_table(s, deltas, "protocol_deltas", "Accuracy differences in points", page=page)
    return s


SPEC = Spec("deltas", deltas_section)
