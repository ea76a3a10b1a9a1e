"""Difficulty curves: accuracy by level with intervals and n, one panel per protocol, the
published rows muted and named at their right end."""

from __future__ import annotations

from itertools import cycle
from typing import TYPE_CHECKING

from inspect_sparc.contract.protocols import PROTOCOLS
from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.report.analysis.levels import (
    by_logs,
    curve_order,
    estimated,
    level_table,
    panel_order,
    wide_levels,
)
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.columns import LEVEL
from inspect_sparc.report.render.figures import (
    MARKERS,
    MUTED,
    PROTOCOL_TITLES,
    distinct_labels,
    dodge_step,
    new_figure,
    plot_runs,
    short_label,
    styled,
)
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def direct_labels(
    ax: Axes, items: list[tuple[float, str]], x: float, gap: float, clear: float = 0.0
) -> None:
    """Labels beside their series' last values at `x`, `clear` further right (past your runs'
    shifted points), pushed apart by at least `gap`.

    Args:
        ax: the panel.
        items: (the series' last value, its label) per series.
        x: where the series end (the last level).
        gap: the least vertical distance between two labels (points of accuracy).
        clear: how far right of `x` the labels start (levels).
    """
    placed: list[float] = []
    for y, text in sorted(items):
        y_at = max([y, *(p + gap for p in placed[-1:])])
        placed.append(y_at)
        ax.annotate(
            text,
            (x, y),
            xytext=(x + clear + 0.12, y_at),
            fontsize=6,
            color="0.35",
            va="center",
            arrowprops={"arrowstyle": "-", "color": "0.75", "linewidth": 0.5},
            annotation_clip=False,
        )


def plot_published(ax: Axes, rows: pd.DataFrame, clear: float = 0.0) -> None:
    """Published level curves, muted grey and thin, each named at its right end, `clear`
    right of it (a row whose model is not named by its leaderboard row), none in the legend.

    Args:
        ax: the panel.
        rows: the published rows of the panel's protocol (`level_1..5`).
        clear: how far right of the last level their names start.
    """
    items = []
    for (_, row), marker in zip(rows.iterrows(), cycle(MARKERS), strict=False):
        values = [row.get(f"level_{lv}") for lv in LEVELS]
        if not all(v == v and v is not None for v in values):
            continue
        human = str(row[C.MODEL]).startswith("Human")
        ax.plot(
            LEVELS,
            values,
            marker=marker,
            markersize=2.5,
            linewidth=0.8 if human else 0.6,
            linestyle="--" if human else ":",
            color="0.3" if human else MUTED,
            zorder=1,
        )
        name = str(row[C.MODEL])
        if row.get("named", True) is False:  # "leaderboard row 2, model not named"
            name = name.split(",")[0] + " (not named)"
        items.append((float(values[-1]), short_label(name, 34)))
    direct_labels(ax, items, LEVELS[-1], gap=3.4, clear=clear)


def ranked_panel(levels: pd.DataFrame) -> pd.DataFrame:
    """One panel's rows, runs most accurate first over the levels shown (`panel_order`: the
    order of the legend; the ranked chart's too, unless a reducer other than the mean makes the
    log's accuracy differ), each `run` without the words every run of the panel shares
    (`distinct_labels`: the panel's title names the protocol).

    Args:
        levels: the long level table's rows of one protocol.

    Returns:
        those rows reordered, their `run` labels shortened.
    """
    ranked = by_logs(levels, panel_order(levels))
    names = list(dict.fromkeys(ranked[C.RUN]))
    short = dict(zip(names, distinct_labels(names), strict=True))
    return ranked.assign(run=ranked[C.RUN].map(short))


@styled
def difficulty_curves(levels: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy by level with 95% error bars, your runs in colour (most accurate first in the
    legend), one panel per protocol; published rows muted and labelled at their right end.

    Args:
        levels: the long level table (`analysis.levels.level_table`).
        published: the published SPaRC rows, or None.

    Returns:
        the figure, or None where there is nothing to draw.
    """
    if levels.empty:
        return None
    protocols = [p for p in PROTOCOLS if p in set(levels[C.PROTOCOL])]
    fig = new_figure(9.5, 3.8 * len(protocols))
    axes = fig.subplots(len(protocols), 1, squeeze=False).ravel()
    for ax, protocol in zip(axes, protocols, strict=True):
        panel = ranked_panel(levels[levels[C.PROTOCOL] == protocol])
        plot_runs(ax, panel, "accuracy")
        half = dodge_step(panel[C.LOG].nunique()) * (panel[C.LOG].nunique() - 1) / 2
        if published is not None and not published.empty:
            plot_published(ax, published[published[C.PROTOCOL] == protocol], clear=half)
        ax.set_title(PROTOCOL_TITLES.get(protocol, protocol))
        ax.set_xticks(LEVELS)
        ax.set_xlim(min(0.7, 0.9 - half), 6.9 + half)  # room on the right for published names
        ax.spines["bottom"].set_bounds(1, 5)
        ax.set_xlabel("difficulty level")
        ax.grid(axis="y", color="0.92")
        ax.set_ylabel("accuracy (%), 95% interval")
        ax.set_ylim(-2, 102)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=6.5)
    return fig


#: What the page adds where a run ran a shipped subset (`-T puzzles=informative:N`).
SUBSET_TEXT = (
    " A run on a shipped subset of the test split shows, at each level, the design-based "
    "(stratified Horvitz-Thompson) estimate for that level of the whole 500-puzzle split, with "
    "its interval (Wilson at the effective n); its n is the subset's puzzles of the level, "
    "not the split's."
)


def levels_section(ctx: Context) -> Section | None:
    """Difficulty curves: accuracy by level, one panel per protocol.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
    levels = level_table(ctx.runs, ctx.samples)
    if levels.empty:
        return None
    s = Section(
        "levels",
        "Difficulty curves",
        "Accuracy by level (the logs' level_1..5) with 95% intervals and the number of "
        "puzzles per level, one panel per protocol; published rows grey, named at the right "
        "(the human row, dashed, is from the SPaRC study, not the 500-puzzle split).",
    )
    subset_rows = estimated(levels)
    if subset_rows.any():
        s.text += SUBSET_TEXT
    # a subset run's curve is named an estimate in the legend
    named = levels[C.RUN].where(~subset_rows, levels[C.RUN] + " (split estimate)")
    fig = difficulty_curves(levels.assign(**{C.RUN: named}), ctx.pub_sparc)
    ctx.add_figure(s, fig, "difficulty_curves", "Accuracy by difficulty level")
    caption = "Accuracy (%) by level, 95% interval and n"
    shown = wide_levels(curve_order(levels, list(PROTOCOLS)))
    ctx.add_table(s, levels, "levels", caption, shown_as=shown, columns=(LEVEL,))
    return s


SPEC = Spec("levels", levels_section)
