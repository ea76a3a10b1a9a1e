"""AlgoPuzzleVQA: accuracy per puzzle and per ontology category, beside the paper's Tables 2
and 3."""

from __future__ import annotations

from itertools import cycle
from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.algopuzzlevqa import (
    algopuzzlevqa_table,
    published_puzzles,
    puzzle_columns,
)
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.figures import (
    MARKERS,
    MUTED,
    new_figure,
    series_styles,
    short_label,
    styled,
)
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


@styled
def algopuzzlevqa_bars(by_puzzle: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy per puzzle: one coloured series per run with 95% intervals, the published
    columns as muted open markers.

    Args:
        by_puzzle: the per-puzzle table (`analysis.algopuzzlevqa.algopuzzlevqa_table`'s first
            frame).
        published: the paper's per-puzzle rows without averages, or None.

    Returns:
        the figure, or None where there is nothing to draw.
    """
    import numpy as np

    if by_puzzle.empty:
        return None
    puzzles = puzzle_columns(by_puzzle)
    fig = new_figure(7.5, 0.6 + 0.3 * len(puzzles))
    ax = fig.add_subplot()
    for (_, row), (colour, marker, _) in zip(by_puzzle.iterrows(), series_styles(), strict=False):
        values = np.array([row[p] for p in puzzles], dtype=float)
        lows = np.array([row.get(f"{p}_ci95_low", np.nan) for p in puzzles], dtype=float)
        highs = np.array([row.get(f"{p}_ci95_high", np.nan) for p in puzzles], dtype=float)
        err = np.vstack([np.nan_to_num(values - lows), np.nan_to_num(highs - values)])
        ax.errorbar(
            values,
            range(len(puzzles)),
            xerr=np.clip(err, 0, None),
            marker=marker,
            color=colour,
            capsize=2,
            linestyle="none",
            zorder=3,
            label=short_label(f"{row['run']} (avg {row['average']:.1f})"),
        )
    if published is not None and not published.empty:
        for ((model, setup), group), marker in zip(
            published.groupby([C.MODEL, "setup"]), cycle(MARKERS[3:]), strict=False
        ):
            values = group.set_index("puzzle")["accuracy"]
            ax.scatter(
                [values.get(p) for p in puzzles],
                range(len(puzzles)),
                marker=marker,
                facecolors="none",
                edgecolors=MUTED,
                s=16,
                label=f"{model} {setup} (published)",
            )
    ax.set_yticks(range(len(puzzles)), puzzles)
    ax.invert_yaxis()
    ax.set_xlim(-2, 102)
    ax.set_xlabel("accuracy (%), 95% interval")
    ax.set_title("AlgoPuzzleVQA: accuracy per puzzle")
    ax.grid(axis="x", color="0.92")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    return fig


# Repeated code kept: every section builder shares this docstring and empty-table guard (`Spec`).
def algopuzzlevqa_section(ctx: Context) -> Section | None:
    """AlgoPuzzleVQA per puzzle and per category, with the paper's Tables 2 and 3.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
    by_puzzle, by_category = algopuzzlevqa_table(ctx.runs, ctx.samples)
    if by_puzzle.empty:
        return None
    s = Section("algopuzzlevqa", "AlgoPuzzleVQA")
    s.text = (
        "The average's 95% interval is clustered by puzzle type: it answers how a new puzzle "
        "type would fare. average_new_instances_ci95_low/high beside it are stratified by "
        "type: they answer new instances of these 18 types."
    )
    pub_algo = published_puzzles(ctx.shipped("algopuzzlevqa"))
    fig = algopuzzlevqa_bars(by_puzzle, pub_algo)
    ctx.add_figure(s, fig, "algopuzzlevqa_puzzles", "Accuracy per puzzle")
    caption = "Accuracy (%) per puzzle, one column per run"
    ctx.add_table(s, by_puzzle, "algopuzzlevqa_puzzles", caption, transpose=True)
    caption = "Accuracy (%) per category, one column per run"
    ctx.add_table(s, by_category, "algopuzzlevqa_categories", caption, transpose=True)
    ctx.add_published_table(
        s,
        ctx.shipped("algopuzzlevqa_by_category"),
        "published_algopuzzlevqa_categories",
        "Published: AlgoPuzzleVQA Table 3 (accuracy per category)",
    )
    return s


SPEC = Spec("algopuzzlevqa", algopuzzlevqa_section)
