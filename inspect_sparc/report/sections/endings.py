"""How gym and agent episodes ended (solved, reached E elsewhere, dead end, step limit, cut),
and how the runs acted: illegal and unparseable moves, tool calls, the backtracking ratio."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.endings import (
    ENDING_COLUMNS,
    behaviour_table,
    endings_table,
)
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.columns import formatted
from inspect_sparc.report.render.figures import (
    dot_chart,
    interval_rows,
    new_figure,
    short_label,
    styled,
)
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


# Repeated code kept: every figure builder shares this docstring and empty-table guard.
@styled
def endings_bars(endings: pd.DataFrame) -> Figure | None:
    """How gym and agent episodes ended: one panel per ending, each run's share of episodes
    with its 95% interval (no legend to cover an axis).

    Args:
        endings: the endings table (`analysis.endings.endings_table`).

    Returns:
        the figure, or None where there is nothing to draw.
    """
    if endings.empty:
        return None
    fig = new_figure(10, 1.2 + 0.3 * len(endings))
    axes = fig.subplots(1, len(ENDING_COLUMNS), sharey=True)
    labels = [short_label(r, 40) for r in endings[C.RUN]]
    for ax, ending in zip(axes, ENDING_COLUMNS, strict=True):
        interval_rows(ax, endings, ending, bounds=(f"{ending}_ci95_low", f"{ending}_ci95_high"))
        ax.set_title(ending, fontsize=8)
        ax.set_xlim(-3, 103)
        ax.grid(axis="x", color="0.92")
    axes[0].set_yticks(range(len(endings)), labels, fontsize=6.5)
    axes[0].set_ylim(len(endings) - 0.5, -0.5)
    fig.supxlabel("episodes (%), 95% interval", fontsize=8)
    return fig


def backtracking_figure(behaviour: pd.DataFrame) -> Figure | None:
    """Median backtracking ratio (steps / path edges over episodes that reached E) per run.

    Args:
        behaviour: the behaviour table (`analysis.endings.behaviour_table`).

    Returns:
        the figure, or None where no run has a backtracking ratio.
    """
    if behaviour.empty or "backtracking_ratio" not in behaviour:
        return None
    rows = behaviour.dropna(subset=["backtracking_ratio"])
    if rows.empty:
        return None
    rows = rows.assign(
        label=[f"{r} (n={n})" for r, n in zip(rows[C.RUN], rows["n_reached_end"], strict=True)]
    )
    top = max(2.0, float(rows["backtracking_ratio"].max()) * 1.1)
    return dot_chart(
        rows,
        "backtracking_ratio",
        "Backtracking ratio (Spatial-Gym Fig. 5)",
        "median steps taken / path edges (1 = no backtracking)",
        (0, top),
    )


def endings_section(ctx: Context) -> Section | None:
    """How gym and agent episodes ended.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
    endings = endings_table(ctx.runs, ctx.samples)
    if endings.empty:
        return None
    s = Section(
        "endings",
        "How gym and agent episodes ended",
        "From the logs' ending rates (the agent is scored by the gym scorer), with 95% "
        "intervals; then how the runs acted: the logs' illegal-action and unparseable-move "
        "rates (per step), tool calls per episode and the share of agent turns without a tool "
        "call, and the backtracking ratio of Spatial-Gym's Figure 5 (the median of steps "
        "taken / path edges over the episodes that reached E with path edges > 0 and fewer "
        "steps than the limit, each puzzle's epochs averaged first, so the median is over "
        "puzzles; 1 means no step was undone; it conditions on reaching E, so it says nothing "
        "of the episodes that did not). Every rate and count has a 95% interval clustered by "
        "puzzle: the pooled rates (per step, per turn, per call sent) Wilson's interval at "
        "the trials' n divided by the design effect of the puzzle as cluster (with no event "
        "the worst case, every puzzle's trials alike), tool calls a t "
        "interval over per-puzzle means (none where every puzzle made the same number), the "
        "backtracking median the order statistics a binomial brackets (none where they are "
        "tied, and the row says why).",
    )
    title = "How gym and agent episodes ended"
    ctx.add_figure(s, endings_bars(endings), "gym_endings", title)
    ctx.add_table(s, endings, "gym_endings", "Episodes (%) by ending, 95% intervals")
    behaviour = behaviour_table(ctx.runs, ctx.samples)
    fig = backtracking_figure(behaviour)
    ctx.add_figure(s, fig, "backtracking_ratio", "Backtracking ratio per run")
    ratios = (
        formatted("backtracking_ratio", "ratio"),
        formatted("tool_calls_per_episode", "ratio"),
    )
    ctx.add_table(s, behaviour, "gym_behaviour", "How gym and agent runs acted", columns=ratios)
    return s


SPEC = Spec("endings", endings_section)
