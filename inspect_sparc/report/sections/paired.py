"""The paired comparisons on the page: the table of every pair of runs on shared puzzles, the
same per level, the power table, and the matrix of every pair within a protocol, with the text
that says what the test can and cannot show (the numbers are `analysis.paired`'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.report.analysis.paired import (
    level_pairs,
    mdd_points,
    pair_matrices,
    pair_rank,
    paired_outcome,
    power_table,
    ranked_pairs,
    tested_pairs,
    tests_used,
)
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.columns import LEVEL, PAIR_COUNTS, declared, formatted, spec_of
from inspect_sparc.report.render.figures import (
    PROTOCOL_TITLES,
    cell_text,
    distinct_labels,
    fit_labels,
    new_figure,
    short_label,
    styled,
)
from inspect_sparc.report.render.page import FOLD_ROWS, Section
from inspect_sparc.report.statistics.score_intervals import MIN_SHARED

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


#: Runs in one protocol from which the pairs are drawn as a matrix (fewer: the table says it).
MATRIX_FROM = 4


#: The colour scale's half-range steps, in points of accuracy: at least one step, so that
#: differences of a point or two stay pale (a range of -1..1 read as a fraction).
COLOUR_STEP = 5.0


def colour_range(matrix: Any) -> float:
    """The half-range of the matrix's diverging colour scale, in points of accuracy: its largest
    absolute difference rounded up to a multiple of `COLOUR_STEP` (at least one step).

    Args:
        matrix: the differences (points; NaN where no pair).

    Returns:
        the half-range, in points.
    """
    import math

    import numpy as np

    largest = float(np.nanmax(np.abs(matrix))) if np.isfinite(matrix).any() else 0.0
    return max(COLOUR_STEP, COLOUR_STEP * math.ceil(largest / COLOUR_STEP))


def signed_points(value: float, _position: object = None) -> str:
    """A colour-bar tick: a signed whole number of points, "0" unsigned.

    Args:
        value: the tick's value (points).
        _position: the tick's position (matplotlib's formatter passes it; unused).

    Returns:
        `+5`, `-10` or `0`.
    """
    return f"{value:+.0f}" if round(value) else "0"


@styled
def paired_matrix(paired: pd.DataFrame) -> Figure | None:
    """Per protocol with at least `MATRIX_FROM` runs: the paired difference (row - column,
    points) of every pair, a diverging colour-blind-safe map; `*` marks Holm-adjusted p < 0.05.

    Args:
        paired: the paired table (`analysis.paired.paired_table`).

    Returns:
        the figure, or None where no protocol has enough runs.
    """
    import numpy as np
    from matplotlib.ticker import FuncFormatter

    if paired.empty:
        return None
    groups = pair_matrices(paired, MATRIX_FROM)
    if not groups:
        return None
    size = max(len(g.runs) for g in groups)
    fig = new_figure(2.5 + 0.5 * size, (1.5 + 0.42 * size) * len(groups))
    axes = np.atleast_1d(fig.subplots(len(groups), 1, squeeze=False).ravel())
    for ax, group in zip(axes, groups, strict=True):
        top = colour_range(group.difference)
        image = ax.imshow(group.difference, cmap="PuOr", vmin=-top, vmax=top)
        for (i, j), value in np.ndenumerate(group.difference):
            if value == value:
                text = signed_points(value) + ("*" if group.marked[i, j] else "")
                cell_text(ax, i, j, text, abs(value) > 0.6 * top, 7)
        labels = [short_label(r, 36) for r in distinct_labels(group.runs)]
        ax.set_xticks(range(len(group.runs)), labels, rotation=35, ha="right", fontsize=7.5)
        ax.set_yticks(range(len(group.runs)), labels, fontsize=7.5)
        title = PROTOCOL_TITLES.get(group.protocol, group.protocol)
        ax.set_title(f"{title}: row minus column (points)")
        bar = fig.colorbar(image, ax=ax, shrink=0.8, format=FuncFormatter(signed_points))
        bar.set_label("row minus column (points of accuracy)")
    return fig


#: The paired tables' columns that are not rates: the level, the counts and the p-values.
PAIRED_COLUMNS = (
    LEVEL,
    *PAIR_COUNTS,
    *(formatted(c, "p") for c in ("p", "p_holm", "p_holm_in_pair")),
)
PAIRED_SPECS = declared(PAIRED_COLUMNS)

#: The page's column of the four counts of a pair's shared puzzles.
SOLVED_BY = "both / only_a / only_b / neither"

#: A run's label in a pair's row, at most (the start and the end that tell runs apart).
PAIR_LABEL = 40

#: Columns of one pair's row on the page (the CSV has every column): who, on how many
#: puzzles, the counts, the difference with its interval, Holm's p and the reading.
PAIR_ROW = ["run_a", "run_b", "scope", "n_shared", "dropped_errors", SOLVED_BY, "accuracy_a"]
PAIR_ROW += ["accuracy_b", "difference", "diff_ci95_low", "diff_ci95_high", "diff_simultaneous"]
PAIR_ROW += ["p_holm", "mdd_80", "reading"]


def pair_page(table: pd.DataFrame, rank: dict[str, int]) -> pd.DataFrame:
    """The page's shape of the pairs (or pairs by level): one row per pair in the matrix's
    order, runs named by what tells them apart (`fit_labels`), the four counts in one cell, the
    simultaneous interval as text, the test's name only where the pairs' tests differ (the
    section's lead names a single one).

    Args:
        table: the paired table or the per-level one.
        rank: each run's place (`analysis.paired.pair_rank`).

    Returns:
        the page's frame (`table` itself where it is empty or has no pairs).
    """
    from inspect_sparc.report.render.page import cell_text, interval_text

    if table.empty or "run_a" not in table:
        return table
    page = ranked_pairs(table, rank).reset_index(drop=True)
    runs = list(dict.fromkeys([*page["run_a"], *page["run_b"]]))
    short = dict(zip(runs, fit_labels(distinct_labels(runs), PAIR_LABEL), strict=True))
    page["run_a"], page["run_b"] = page["run_a"].map(short), page["run_b"].map(short)
    counts = ["both", "only_a", "only_b", "neither"]
    if all(c in page for c in counts):
        whole = [spec_of(c, PAIRED_SPECS).whole for c in counts]
        page[SOLVED_BY] = [
            " / ".join(cell_text(v, w) for v, w in zip(row, whole, strict=True))
            for row in page[counts].astype(float).to_numpy()
        ]
    low, high = "diff_simultaneous_low", "diff_simultaneous_high"
    if low in page and high in page:
        page["diff_simultaneous"] = [
            f"({interval_text(lo, hi, 'diff_simultaneous')})" if lo == lo and hi == hi else None
            for lo, hi in zip(page[low].astype(float), page[high].astype(float), strict=True)
        ]
    if "dropped_errors" in page and not page["dropped_errors"].fillna(0).any():
        page = page.drop(columns="dropped_errors")
    kept = [c for c in PAIR_ROW if c in page]
    if C.LEVEL in page:
        kept.insert(2, C.LEVEL)
        kept += [c for c in ("p", "p_holm_in_pair") if c in page]
    if len(tests_used(page)) > 1:
        kept.append("test")
    return page[kept]


def one_test(table: pd.DataFrame) -> str:
    """`; every pair by ...` where every tested pair of `table` used one test (the table then
    has no test column on the page), else nothing.

    Args:
        table: the paired table.

    Returns:
        the words, or "".
    """
    tests = tests_used(table)
    return f"; every pair tested by {tests[0]}" if len(tests) == 1 else ""


def power_text() -> str:
    """What the paired test can see on the 500-puzzle split, by share of discordant puzzles
    (exact power; none where no difference reaches 80%).

    Returns:
        the sentence.
    """

    def mdd(n: int, d: float) -> str:
        found = mdd_points(n, d)
        return "none reaches 80% power" if found is None else f"{found:.1f}"

    at_500 = ", ".join(
        f"{mdd(500, d)} points at {100 * d:.0f}% discordant puzzles" for d in (0.05, 0.15, 0.30)
    )
    at_89 = ", ".join(f"{mdd(89, d)} at {100 * d:.0f}%" for d in (0.05, 0.15, 0.30))
    return (
        f"On the 500-puzzle test split the smallest difference found with 80% power (exact, "
        f"of the test used here) is {at_500}; on level 5 alone (89 puzzles) {at_89}."
    )


def family_text(paired: pd.DataFrame) -> str:
    """The family the Holm adjustment is over, and the chance of a false mark without it.

    Args:
        paired: the paired table.

    Returns:
        the sentence.
    """
    tested = tested_pairs(paired)
    if tested < 2:
        return "p_holm equals p (one test)."
    chance = 1 - 0.95**tested
    return (
        f"p_holm is Holm's adjustment over the family of all {tested} tested pairs (without "
        f"it, P(at least one false mark) would be about {chance:.2f}); the matrix marks use it."
    )


def outcome_text(paired: pd.DataFrame, levels: pd.DataFrame) -> str:
    """How many tested pairs (and per-level comparisons, Holm within their pair) differ: the
    page's short account of tables that many runs make too long to read row by row.

    Args:
        paired: the paired table.
        levels: the per-level table (`analysis.paired.level_pairs`).

    Returns:
        the sentence, or nothing where no pair has an adjusted p.
    """
    found = paired_outcome(paired, levels)
    if found is None:
        return ""
    text = f"{found.differ} of {found.tested} tested pairs differ (Holm p < 0.05)"
    if found.levels_tested is not None:
        text += (
            f"; per level, {found.levels_differ} of {found.levels_tested} comparisons (Holm "
            "within their pair)"
        )
    return text + ". "


def paired_section(ctx: Context) -> Section | None:
    """Paired comparisons of runs on the same puzzles (within and across protocols): what
    differs first, the method folded below it.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where no two runs share a puzzle.
    """
    paired = ctx.paired
    if paired.empty:
        return None
    levels = level_pairs(ctx.runs, ctx.samples, paired)
    s = Section(
        "paired",
        "Paired comparisons",
        outcome_text(paired, levels)
        + "Runs that share puzzles, compared puzzle by puzzle, within a protocol (same task, "
        "source, split, subset) and per model across protocols: one row per pair, in the "
        "matrix's order (most accurate first), its reading on the row"
        + one_test(paired)
        + ". Errored, cancelled and baseline runs are left out."
        + (
            f" Tables of more than {FOLD_ROWS} rows are folded: click to open them."
            if max(len(paired), len(levels)) > FOLD_ROWS
            else ""
        ),
        method="both / only_a / only_b / neither count the shared puzzles each run solved; "
        "dropped_errors (shown where not 0) counts puzzles both ran but one lost to an error. "
        "Each run's per-puzzle values are reduced over epochs as its log reduced them (the "
        "value its row shows). The difference a - b (points) has the 95% interval that "
        "inverts the test beside it, so the two never disagree: for 0/1 outcomes Tango's score "
        "interval and the McNemar score test (asymptotic, no continuity correction), for "
        "per-puzzle means over epochs the paired t test and its interval. "
        f"Pairs with fewer than {MIN_SHARED} shared puzzles are counted, not tested. "
        + family_text(paired)
        + " diff_simultaneous is the interval at 1 - 0.05/m over the m tested pairs "
        "(Bonferroni): the intervals hold together, and one that excludes 0 is a pair Holm "
        "marks; `reading` names the test behind each claim. mdd_80 is the smallest difference "
        "(points) the test detects with 80% exact power at the pair's n and discordance (at "
        "most the discordance; `power` in the CSV says where no difference reaches it): a pair "
        "without a significant difference shows only that a difference smaller than mdd_80 "
        "cannot be excluded. "
        + power_text()
        + " Each tested pair is compared per level too, Holm-adjusted within the pair. The CSV "
        "holds every column (n_a, n_b, p, the simultaneous interval's ends, power).",
    )
    caption = "Paired differences, row minus column (* Holm-adjusted p < 0.05)"
    ctx.add_figure(s, paired_matrix(paired), "paired_matrix", caption)
    rank = pair_rank(paired)
    caption = "Paired comparisons on shared puzzles"
    shown = pair_page(paired, rank)
    ctx.add_table(s, paired, "paired", caption, shown_as=shown, columns=PAIRED_COLUMNS)
    caption = "Paired comparisons per level (Holm within each pair, over its levels)"
    shown = pair_page(levels, rank)
    ctx.add_table(s, levels, "paired_levels", caption, shown_as=shown, columns=PAIRED_COLUMNS)
    caption = "Power: smallest paired difference (points) found with 80% power, by discordance"
    ctx.add_table(s, power_table(), "paired_power", caption)
    return s


SPEC = Spec("paired", paired_section, ("samples",))
