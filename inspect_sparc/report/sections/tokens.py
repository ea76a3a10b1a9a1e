"""Tokens on the page: mean output (and reasoning) tokens per sample by level (`analysis.tokens`),
and accuracy against output tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.report.analysis.tokens import CI_COLUMNS, tokens_by_level
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.columns import LEVEL
from inspect_sparc.report.render.figures import (
    error_extents,
    most_accurate_first,
    new_figure,
    plot_runs,
    series_styles,
    short_label,
    styled,
)
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


@styled
def tokens_figure(tokens: pd.DataFrame, results: pd.DataFrame) -> Figure | None:
    """Left: mean output tokens by level per run; right: accuracy (95% interval) against
    output tokens. Both axes start at 0.

    Args:
        tokens: the tokens-by-level table (`analysis.tokens.tokens_by_level`), runs in legend order.
        results: the results table (accuracy and output tokens per sample).

    Returns:
        the figure, or None without tokens.
    """
    if tokens.empty:
        return None
    runs = len(set(tokens[C.RUN]) | set(results[C.RUN]))
    fig = new_figure(9, 4.0 + 0.17 * -(-runs // legend_columns(runs)))  # legend rows
    left, right = fig.subplots(1, 2)
    bars = dict(zip(CI_COLUMNS, ["ci95_low", "ci95_high"], strict=True))
    plot_runs(left, tokens.rename(columns=bars), "output_tokens")
    left.set_xticks(LEVELS)
    left.set_xlabel("difficulty level")
    left.set_ylabel("output tokens per sample, 95% interval")
    left.set_ylim(bottom=0)
    left.set_title("Tokens by level")
    known = results.dropna(subset=["output_tokens_per_sample", "accuracy"]).reset_index(drop=True)
    # each run keeps the colour and marker it has on the left; runs only on the right follow
    order = list(dict.fromkeys([*tokens.drop_duplicates(C.LOG)[C.RUN], *known[C.RUN]]))
    styles = dict(zip(order, series_styles(), strict=False))
    for i, row in known.iterrows():
        colour, marker, _ = styles[row[C.RUN]]
        err = error_extents(known.loc[[i]], "accuracy", "ci95_low", "ci95_high")
        x = "output_tokens_per_sample"
        right.errorbar(
            [row[x]],
            [row["accuracy"]],
            yerr=err,
            xerr=error_extents(known.loc[[i]], x, f"{x}_ci95_low", f"{x}_ci95_high"),
            marker=marker,
            color=colour,
            capsize=2,
            linestyle="none",
            label=short_label(row[C.RUN]),
        )
    right.set_xlabel("output tokens per sample")
    right.set_ylabel("accuracy (%), 95% interval")
    right.set_xlim(left=0)
    right.set_ylim(-2, 102)
    right.set_title("Accuracy against tokens")
    shared_legend(fig, [left, right])
    return fig


def legend_columns(entries: int) -> int:
    """Columns of a legend of `entries` runs: one up to 6, then up to 3 (6 rows or fewer).

    Args:
        entries: the runs in the legend.

    Returns:
        the number of columns (1 to 3).
    """
    return min(3, max(1, (entries + 5) // 6))


def shared_legend(fig: Figure, axes: list[Any]) -> None:
    """One legend below the panels, each run once (a run keeps its style in both panels), in
    columns so that many runs do not make it taller than the panels.

    Args:
        fig: the figure.
        axes: its panels, whose labelled series the legend lists.
    """
    entries: dict[str, Any] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            entries.setdefault(label, handle)
    if entries:
        fig.legend(
            list(entries.values()),
            list(entries),
            loc="outside lower center",
            ncols=legend_columns(len(entries)),
            frameon=False,
            fontsize=7,
        )


def tokens_section(ctx: Context) -> Section | None:
    """Output tokens by level, and accuracy against tokens.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where no sample logged tokens.
    """
    tokens = tokens_by_level(ctx.samples)
    if tokens.empty:
        return None
    # runs most accurate first, in the figure's legend and on the page's table alike (the
    # CSV keeps the logs' order)
    ranked = most_accurate_first(tokens, ctx.results)
    s = Section("tokens", "Tokens")
    caption = "Output tokens by level; accuracy against tokens"
    ctx.add_figure(s, tokens_figure(ranked, ctx.results), "tokens", caption)
    shown = ranked.drop(columns=[C.LOG], errors="ignore")
    caption = "Mean tokens per sample by level"
    ctx.add_table(s, tokens, "tokens_by_level", caption, shown_as=shown, columns=(LEVEL,))
    return s


SPEC = Spec("tokens", tokens_section, ("samples",))
