"""The fresh-puzzle gap on the page: per model and protocol, the gap test - fresh per level and
overall with its interval, as a figure and a table, and what a gap does and does not show (the
numbers are `analysis.fresh`'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.fresh import fresh_gap_table, subset_sides
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.columns import LEVEL, formatted
from inspect_sparc.report.render.figures import (
    PROTOCOL_TITLES,
    error_extents,
    new_figure,
    series_styles,
    short_label,
    styled,
)
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


#: What a gap does and does not show, as the page says it.
MEANING = (
    "A model that scores higher on the public test puzzles than on fresh puzzles of the same "
    "levels may have seen the test puzzles (or their solutions) in training: that is what a "
    "gap whose interval excludes 0 is consistent with. It does not prove it: the generator "
    "matches the split level by level, yet its puzzles may still be easier or harder in ways "
    "the levels do not capture (rule mix, grid size, solution length), and a gap inside its "
    "interval is no evidence either way. No gap does not show that a model never saw the "
    "test split."
)


@styled
def fresh_gap_figure(gaps: pd.DataFrame) -> Figure | None:
    """Per model and protocol: the gap (test split minus fresh puzzles, points) per level and
    overall, with its 95% interval; 0 drawn as a line.

    Args:
        gaps: the fresh-gap table (`analysis.fresh.fresh_gap_table`).

    Returns:
        the figure, or None where there is nothing to draw.
    """
    if gaps.empty:
        return None
    groups = list(gaps.groupby([C.MODEL, C.PROTOCOL], sort=False))
    fig = new_figure(7.5, 2.8 * len(groups))
    axes = fig.subplots(len(groups), 1, squeeze=False).ravel()
    for ax, ((model, protocol), group) in zip(axes, groups, strict=True):
        group = group.reset_index(drop=True)
        err = error_extents(group, "gap", "gap_ci95_low", "gap_ci95_high")
        ticks = [str(lv) if isinstance(lv, int) else "all\n(re-weighted)" for lv in group[C.LEVEL]]
        colour, marker, _ = next(series_styles())
        ax.errorbar(
            range(len(group)),
            group["gap"],
            yerr=err,
            marker=marker,
            color=colour,
            capsize=3,
            linestyle="none",
        )
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xticks(range(len(group)), ticks)
        ax.set_xlabel("difficulty level")
        ax.set_ylabel("test - fresh (points)")
        title = short_label(f"{model} | {PROTOCOL_TITLES.get(protocol, protocol)}", 70)
        on = group["on_puzzles"].iloc[0] if "on_puzzles" in group else None
        if isinstance(on, str) and on:  # a shipped subset: the gap is on its puzzles
            title += f"\non {on}, not split estimates"
        ax.set_title(title)
        ax.grid(axis="y", color="0.92")
    return fig


def subset_text(on: list[str]) -> str:
    """What the page adds where a test side ran a shipped subset (`-T puzzles=informative:N`).

    Args:
        on: what each such run was compared on (`analysis.fresh.subset_sides`).

    Returns:
        the sentences.
    """
    return (
        f" A test side on a shipped subset is compared on its own puzzles ({'; '.join(on)}): "
        "its test accuracy, the fresh set's re-weighting and every gap are computed on these "
        "puzzles, not estimated for the 500-puzzle split (the results table's accuracy of the "
        "same run is the split estimate, so the two differ)."
    )


def fresh_section(ctx: Context) -> Section | None:
    """The fresh-puzzle gap: test split against generated puzzles of the same levels.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
    gaps = fresh_gap_table(ctx.runs, ctx.samples)
    if gaps.empty:
        return None
    s = Section(
        "fresh",
        "Fresh-puzzle gap",
        "Per model and protocol with a run on the benchmark's test puzzles (recognised by "
        "content: every grid is one of the 500 test-split grids; the largest such run, named "
        "in test_side) and runs on generated puzzles (source=generated:SEED; seeds pool, and a "
        "puzzle met in several runs counts once, its runs as epochs), each log's epochs reduced "
        "as it reduced them: accuracy on each per level, and the gap test - fresh with the p "
        "of an exact test and the 95% interval that inverts it, so the two never disagree "
        "(gap_test names it). Per level (a few fresh puzzles against about 100): the exact "
        "unconditional test (Barnard's, pooled score) and the differences it keeps. Overall, "
        "the fresh set is re-weighted to the test split's level mix, and gap_p is the exact "
        "conditional test of a common odds ratio of 1 over levels, its interval the common "
        "odds ratio's exact interval expressed as the re-weighted gap it implies. Per-puzzle "
        "means (epochs averaged) get the gap alone: no interval keeps its coverage with so "
        "few fresh puzzles, and gap_test says so. " + MEANING,
    )
    on = subset_sides(gaps)
    caption = "Test split minus fresh puzzles, per level and overall (95% intervals)"
    table_caption = "Fresh-puzzle gap (points)"
    if on:
        s.text += subset_text(on)
        caption += f"; on {'; '.join(on)}, not split estimates"
        table_caption += f"; test accuracy and gap on {'; '.join(on)}, not split estimates"
    ctx.add_figure(s, fresh_gap_figure(gaps), "fresh_gap", caption)
    columns = (LEVEL, formatted("gap_p", "p"))
    ctx.add_table(s, gaps, "fresh_gap", table_caption, columns=columns)
    return s


SPEC = Spec("fresh", fresh_section, ("samples",))
