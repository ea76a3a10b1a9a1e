"""Results per run on the page: the results table (`analysis.results`), the ranked chart of each
run among the published models of its protocol, the epochs' variance split and the published
rows of the same protocols."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.contract.protocols import PROTOCOLS
from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.report.analysis.results import (
    chart_rows,
    epochs_variance,
    most_accurate_first,
    subset_runs,
)
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.columns import formatted
from inspect_sparc.report.render.figures import (
    PROTOCOL_TITLES,
    interval_rows,
    new_figure,
    short_label,
    styled,
)
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


#: The results table's columns set in LaTeX (the CSV has them all).
PAPER_COLUMNS = [
    C.MODEL,
    C.PROTOCOL,
    "n",
    "accuracy",
    *[f"level_{lv}" for lv in LEVELS],
    "mean_steps",
    "mean_path_length",
]


@styled
def ranked_chart(results: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Per protocol, every run and published row ranked by accuracy with its 95% interval:
    where each of your runs (colour, bold) sits among the published models (grey).

    Args:
        results: the results table (`analysis.results.results_table`), one row per run.
        published: the published SPaRC rows of the protocols present, or None.

    Returns:
        the figure, or None where no successful run has an accuracy.
    """
    table = chart_rows(results, published)
    mine = table[table["mine"]]
    protocols = [p for p in PROTOCOLS if p in set(mine[C.PROTOCOL])]
    if not protocols:
        return None
    sizes = [max(2, int((table[C.PROTOCOL] == p).sum())) for p in protocols]
    fig = new_figure(8.0, 0.9 * len(protocols) + 0.2 * sum(sizes))
    axes = fig.subplots(len(protocols), 1, squeeze=False, height_ratios=sizes).ravel()
    for ax, protocol in zip(axes, protocols, strict=True):
        rows = table[table[C.PROTOCOL] == protocol].sort_values("accuracy", ascending=False)
        _ranked_panel(ax, rows.reset_index(drop=True))
        ax.set_title(PROTOCOL_TITLES.get(protocol, protocol), loc="left")
        ax.set_xlabel("accuracy (%), 95% interval")
        ax.set_ylabel("run (yours bold)")
    return fig


def _ranked_panel(ax: Axes, rows: pd.DataFrame) -> None:
    """One protocol's ranked rows: yours in colour with markers, published grey."""
    mine = list(rows["mine"])
    interval_rows(ax, rows, "accuracy", mine, markersizes=(5, 3), elinewidths=(1.0, 0.6))
    ax.set_yticks(range(len(rows)), [short_label(str(t), 80) for t in rows["label"]], fontsize=6.5)
    for tick, mine in zip(ax.get_yticklabels(), rows["mine"], strict=True):
        tick.set_fontweight("bold" if mine else "normal")
        tick.set_color("black" if mine else "0.4")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(-2, 102)
    ax.grid(axis="x", color="0.92")


#: The results table on the page, in parts (the CSV has every column): first how good each
#: run is and how it compares with the published figure of its model, then the levels.
RESULTS_PAGE = [
    [C.RUN, C.PROTOCOL, "n", "solved", "accuracy", "estimated_from", "vs_published"]
    + ["published_model", "status"],
    [C.RUN, "level_1", "level_2", "level_3", "level_4", "level_5", "mean_steps"]
    + ["mean_path_length", "invalid_path_rate"],
    [C.RUN, C.TASK, "version", "epochs", "reducer", "interval", "errored", "errors_as_failures"]
    + ["tokens_per_solved"],
    [C.RUN, "output_tokens_per_sample", "reasoning_tokens_per_sample", "time_s", "notes"],
]


#: The results table's columns that are not rates: counts and the solved sum.
RESULTS_COLUMNS = (
    formatted("epochs", "count"),
    formatted("errored", "count"),
    formatted("solved", "whole_when_integral"),
)


#: The results table's count columns where a run ran a shipped subset: its n and solved are
#: the subset's, beside an accuracy that is the split's estimate.
SUBSET_COLUMNS = (
    formatted("n", "count", "n (puzzles run)"),
    formatted("solved", "whole_when_integral", "solved (of puzzles run)"),
)


def subset_caption(runs: list[tuple[str, str]]) -> str:
    """What the results table's caption adds where runs ran a shipped subset: their n and
    solved are the subset's counts, named with its size, not the split's.

    Args:
        runs: (run label, `100 puzzles (informative:100)`) per subset run
            (`analysis.results.subset_runs`).

    Returns:
        the words ("" without subset runs).
    """
    if not runs:
        return ""
    named = "; ".join(f"{run}: {source}" for run, source in runs)
    return (
        f"; n and solved count the puzzles each run ran, for a subset run its subset's ({named}),"
        " not the 500-puzzle split's, while its accuracy is the split estimate"
    )


#: What the page says where a run ran a shipped subset (`-T puzzles=informative:N`).
SUBSET_TEXT = (
    " A run on a shipped subset of the test split (estimated_from names it) shows, as its "
    "accuracy, levels, rank, chart point and vs published, estimates for the whole 500-puzzle "
    "split: the model-assisted estimate with its design-based interval, each level's "
    "design-based (stratified Horvitz-Thompson) estimate, and vs published with the MOVER "
    "interval of the estimate and the published total. Its own rate is only in the interval "
    "column's words and in subset_accuracy (CSV): on these N puzzles."
)


def results_section(ctx: Context) -> Section:
    """Results per run, and the published rows of the same protocols.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section (every report has one).
    """
    s = Section("results", "Results per run", tables_first=True)
    s.text = (
        "One row per log (model x task x settings), most accurate first, each with n and its "
        "95% interval, and "
        "vs published: the run's accuracy minus the published accuracy of the same model, "
        "protocol and prompt where the papers have one (points, Newcombe's 95% interval, as in "
        "the unpaired comparisons below); the chart ranks your runs among the published "
        "models of their protocol."
    )
    s.method = (
        "Every table and figure keeps logs "
        "apart, whatever their labels. Settings that differ between runs of one model and "
        "task (source, split, subset, levels ...) are named in the label, repeated labels "
        "are numbered (#k), epochs are shown (xN): nothing is merged; a failed run is marked "
        "[error] or [cancelled] and numbered apart. Accuracy is the log's metric; n and the "
        "solved count come from the samples (checked: n x accuracy = solved). The 95% "
        "interval is Wilson's score interval over puzzles, on the mean of per-puzzle means "
        "where a puzzle's epochs disagree (n = puzzles: the puzzle is the unit), and always of "
        "the value shown: a score reduced by max (or min, median) has the interval of the "
        "reduced per-puzzle values (the interval column says which). errored counts puzzles "
        "whose every attempt errored: they are left out of n and accuracy, and "
        "errors_as_failures counts them as failures. tokens_per_solved is output tokens per "
        "solved puzzle, with a bootstrap interval over puzzles (a ratio: tokens and outcome "
        "resampled together; no upper bound where a resample solves nothing). "
        "invalid_path_rate has Wilson's interval over puzzles, the tokens per sample a t "
        "interval over per-puzzle means (none where every puzzle used the same). Published rows "
        "get Wilson intervals from their own n. With several epoch reducers the reducer "
        "column names the one whose metrics are shown (mean where present)."
    )
    results = ctx.results
    if "estimated_from" in results:
        s.text += SUBSET_TEXT
    caption = "Each run among the published models of its protocol (95% intervals)"
    ctx.add_figure(s, ranked_chart(results, ctx.pub_sparc), "ranked", caption)
    paper = [c for c in PAPER_COLUMNS if c in results]
    parts = [[c for c in part if c in results] for part in RESULTS_PAGE]
    shown = most_accurate_first(results)
    subsets = subset_runs(results)
    ctx.add_table(
        s,
        results,
        "results",
        "Results per run" + subset_caption(subsets),
        tex_columns=paper,
        page=parts,
        shown_as=shown,
        columns=RESULTS_COLUMNS + (SUBSET_COLUMNS if subsets else ()),
    )
    caption = (
        "With epochs: the accuracy's standard error (points) split into between- and "
        "within-puzzle parts (Miller 2024); more puzzles shrink both, more epochs only the "
        "within part, so narrows_most says more puzzles (under a reducer other than the mean, "
        "more epochs also change what is estimated)"
    )
    variance = epochs_variance(ctx.runs, ctx.samples)
    ctx.add_table(s, variance, "epochs_variance", caption, columns=(formatted("epochs", "count"),))
    ctx.add_published_table(
        s,
        ctx.pub_sparc,
        "published_sparc",
        "Published SPaRC results for the protocols above (matched by protocol and prompt)",
    )
    return s


SPEC = Spec("results", results_section)
