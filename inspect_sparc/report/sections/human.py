"""Humans in the report: each human run beside the paper's published human figures, one row per
participant where a run had several, and time per puzzle by level (`analysis.human`). The human
runs' paired comparisons with model runs are in the paired section, as any run's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.human import (
    human_runs,
    human_table,
    participant_table,
    seconds_by_level,
)
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.figures import new_figure, styled
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


@styled
def seconds_figure(times: pd.DataFrame) -> Figure | None:
    """Seconds to answer by level, one box per level and run (each answer a dot).

    Args:
        times: one row per human answer (`analysis.human.seconds_by_level`).

    Returns:
        the figure, or None without answers.
    """
    if times.empty:
        return None
    fig = new_figure(6.0, 3.2)
    ax = fig.add_subplot()
    runs = list(dict.fromkeys(times[C.RUN]))
    width = 0.8 / len(runs)
    for i, run in enumerate(runs):
        mine = times[times[C.RUN] == run]
        levels = sorted(mine[C.LEVEL].unique())
        data = [mine[mine[C.LEVEL] == level]["answer_seconds"].to_numpy() for level in levels]
        where = [float(level) - 0.4 + width * (i + 0.5) for level in levels]
        ax.boxplot(data, positions=where, widths=width * 0.8, showfliers=False)
        for x, values in zip(where, data, strict=True):
            ax.plot([x] * len(values), values, ".", alpha=0.6, label=None)
    ax.set_xticks([1, 2, 3, 4, 5])
    ax.set_xlabel("level")
    ax.set_ylabel("seconds to answer")
    ax.set_title("Time per puzzle by level (human runs)")
    return fig


def human_section(ctx: Context) -> Section | None:
    """Human runs, the published human figures, participants, time by level.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where no log is a human run.
    """
    from inspect_sparc.report.published import published

    table = human_table(ctx.samples, published("sparc") if ctx.published else None)
    if human_runs(table) == 0:
        return None
    s = Section(
        "human",
        "Humans",
        "Runs answered by people on the human page (`--solver inspect_sparc/human`, a new "
        "protocol: the papers' human studies used their own interfaces), with the Wilson 95% "
        "interval of each accuracy, and below them the SPaRC paper's human figures, labelled "
        "published and unpaired: no per-puzzle human data was published, so they cannot be "
        "paired. A human run pairs with model runs on the puzzles both answered in the paired "
        "comparisons above, like any run. gave_up counts explicit give-ups; median_seconds is "
        "the median time from a puzzle shown to its answer.",
    )
    ctx.add_table(s, table, "human", "Human runs and the published human figures")
    people = participant_table(ctx.samples)
    if not people.empty:
        ctx.add_table(s, people, "human_participants", "Human runs, one row per participant")
    ctx.add_figure(
        s,
        seconds_figure(seconds_by_level(ctx.samples)),
        "human_seconds",
        "Seconds to answer each puzzle, by level",
    )
    return s


SPEC = Spec("human", human_section, ("samples",))
