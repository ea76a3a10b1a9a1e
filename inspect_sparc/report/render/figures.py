"""The report's drawing: style, palette and the figure kinds several sections share (series by
level, dot charts, heat maps), with matplotlib as the SPaRC authors draw theirs.

Your runs are drawn in colour from the Okabe-Ito palette (safe for colour-blind readers), each
with its own marker, so greyscale still tells them apart; published rows are muted grey and
labelled directly (rows whose model is not named are drawn but left unlabelled). Every rate
has its 95% interval as an error bar. A series with fewer than three levels, or a flat one, is
drawn as points, never as a line (two points are not a trend). Figures are built with
`matplotlib.figure.Figure` (no pyplot state, no GUI backend).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import cycle
from typing import TYPE_CHECKING, Any, TypeVar, cast

from inspect_sparc.report.read import columns as C

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

Draw = TypeVar("Draw", bound=Callable[..., Any])

#: Okabe & Ito's colour-blind-safe palette (black last), and one marker per series.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
LINESTYLES = ("-", "--", "-.", ":")
#: Published rows: muted, thin, small.
MUTED = "0.62"


PROTOCOL_TITLES = {
    "single_shot": "single shot",
    "gym": "gym",
    "gym_traceback": "gym with traceback",
    "visual": "visual (image input)",
    "gym_visual": "gym with images",
    "agent": "agent",
}


STYLE: dict[RcKeyType, Any] = {
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 7,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "text.parse_math": False,  # a `$` in a model name is text, never mathtext
    "pdf.fonttype": 42,  # TrueType in the PDF: editable text, as journals ask
}


def new_figure(width: float, height: float) -> Figure:
    """A figure drawn with the report's style (no pyplot, so nothing global changes).

    Args:
        width: inches.
        height: inches.

    Returns:
        an empty figure with constrained layout.
    """
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def styled(draw: Draw) -> Draw:
    """Run a drawing function under the report's rc style.

    Args:
        draw: a function that draws and returns a figure.

    Returns:
        the same function, drawing under the style.
    """
    from functools import wraps

    import matplotlib

    @wraps(draw)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with matplotlib.rc_context(STYLE):
            return draw(*args, **kwargs)

    return cast(Draw, wrapper)


def short_label(label: str, width: int = 48) -> str:
    """`label` cut to `width` in the middle, so the end that tells runs apart (`#2`, `x2
    epochs`, `[error]`) stays.

    Args:
        label: a run's label.
        width: the most characters kept.

    Returns:
        the label, cut with `…` where longer than `width`.
    """
    if len(label) <= width:
        return label
    tail = min(16, width // 3)
    return label[: width - tail - 1] + "…" + label[-tail:]


def distinct_labels(labels: Sequence[str]) -> list[str]:
    """Labels without the words every one of them shares at the start and at the end (a
    provider prefix, `| single_shot`), so what tells runs apart is what is read; a label
    left empty keeps its whole text.

    Args:
        labels: the labels of the runs shown together.

    Returns:
        one label per input, in its order.
    """
    import re

    if len(labels) < 2:
        return list(labels)
    words = [re.split(r"(?<=[/ |:])", label) for label in labels]
    head = 0
    while all(len(w) > head + 1 for w in words) and len({w[head] for w in words}) == 1:
        head += 1
    tail = 0
    while all(len(w) > head + tail + 1 for w in words) and len({w[-1 - tail] for w in words}) == 1:
        tail += 1
    kept = ["".join(w[head : len(w) - tail]).strip(" |") for w in words]
    return [k or label for k, label in zip(kept, labels, strict=True)]


def fit_labels(labels: list[str], width: int) -> list[str]:
    """`labels` at most `width` characters, still distinct where they were: a long label keeps
    as much of its start as lets every label differ, then `…` and its end (the part runs
    share, mostly in the middle, is what goes); the end alone where nothing else works.

    Args:
        labels: distinct labels.
        width: the most characters each may have.

    Returns:
        one label per input, in its order.
    """
    if all(len(label) <= width for label in labels):
        return list(labels)

    def cut(label: str, head: int) -> str:
        if len(label) <= width:
            return label
        tail = width - 1 - head
        return label[:head] + "…" + (label[-tail:] if tail else "")

    wanted = len(set(labels))
    for head in range(width - 1, -1, -1):
        fitted = [cut(label, head) for label in labels]
        if len(set(fitted)) == wanted:
            return fitted
    return fitted


def most_accurate_first(rows: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """`rows` (one per run, by its `run` label) ordered as the ranked chart and the terminal
    summary are: the run's accuracy, highest first (ties and unknown accuracy keep their order,
    unknown last). Long frames (several rows per run) keep each run's rows together.

    Args:
        rows: a table with a `run` column.
        runs: the runs frame (each run's `accuracy`).

    Returns:
        the rows reordered, with a fresh index (`rows` itself where there is nothing to rank by).
    """
    from inspect_sparc.contract.scores import ACCURACY

    if ACCURACY not in runs or C.RUN not in rows:  # nothing to rank by: the order as it is
        return rows
    accuracy = dict(zip(runs[C.RUN], runs[ACCURACY].astype(float), strict=True))
    key = rows[C.RUN].map(lambda run: accuracy.get(run, float("nan"))).astype(float)
    order = key.reset_index(drop=True).sort_values(
        ascending=False, kind="stable", na_position="last"
    )
    return rows.iloc[order.index].reset_index(drop=True)


def series_styles() -> Iterator[tuple[str, str, str]]:
    """(colour, marker, line style) for each user series in turn.

    Returns:
        an endless iterator of (colour, marker, line style).
    """
    return zip(cycle(PALETTE), cycle(MARKERS), cycle(LINESTYLES), strict=False)


def error_extents(
    frame: pd.DataFrame, value: str, low: str, high: str
) -> npt.NDArray[np.float64] | None:
    """Error bar extents (below, above) from interval columns, or None without them.

    Args:
        frame: the rows drawn.
        value: the column of the points.
        low: the column of the intervals' low ends.
        high: the column of their high ends.

    Returns:
        a 2 x rows array of distances below and above (never negative; NaN where an end is unknown),
        or None where `frame` lacks `low` or `high`.
    """
    import numpy as np

    if low not in frame or high not in frame:
        return None
    v = frame[value].astype(float).to_numpy()
    lo = frame[low].astype(float).to_numpy()
    hi = frame[high].astype(float).to_numpy()
    return np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)])


def interval_rows(
    ax: Axes,
    rows: pd.DataFrame,
    value: str,
    own: Sequence[bool] | None = None,
    bounds: tuple[str, str] = ("ci95_low", "ci95_high"),
    markersizes: tuple[float, float] | None = None,
    elinewidths: tuple[float, float] | None = None,
) -> None:
    """The entries of a ranked or dot chart, row i at height i: `value` as a point with its
    95% interval as a horizontal bar, your rows in the series' colours and markers in turn,
    published rows muted grey, so that every such chart draws its entries alike.

    Args:
        ax: the panel.
        rows: the entries in the order drawn, holding `value` and the interval's columns.
        value: the column drawn (its x).
        own: per row, whether it is yours (None: every row is).
        bounds: the columns of the intervals' low and high ends (no bars where they are absent).
        markersizes: the points' sizes, (yours, published) (None: matplotlib's default).
        elinewidths: the bars' widths, (yours, published) (None: matplotlib's default).
    """
    styles = series_styles()
    for i, mine in enumerate([True] * len(rows) if own is None else own):
        colour, marker, _ = next(styles) if mine else (MUTED, "o", "")
        pick = 0 if mine else 1
        ax.errorbar(
            [rows[value].iloc[i]],
            [i],
            xerr=error_extents(rows.iloc[[i]], value, *bounds),
            marker=marker,
            color=colour,
            capsize=2,
            linestyle="none",
            markersize=markersizes[pick] if markersizes else None,
            elinewidth=elinewidths[pick] if elinewidths else None,
        )


def is_trend(values: Sequence[float]) -> bool:
    """Three or more known points that are not all equal: worth a line.

    Args:
        values: a series' values, NaN where unknown.

    Returns:
        whether to draw a line through them.
    """
    known = [v for v in values if v == v and v is not None]
    return len(known) >= 3 and len(set(known)) > 1


#: How far the runs' series of one panel spread along x at most (levels are 1 apart), so that
#: 16 runs' error bars stand apart instead of on one another.
DODGE_SPAN = 0.6


def dodge_step(series: int) -> float:
    """The shift along x between consecutive series of a panel (0.08 for a few runs, less for
    many, the whole spread at most `DODGE_SPAN`).

    Args:
        series: the series in the panel.

    Returns:
        the shift in levels.
    """
    return min(0.08, DODGE_SPAN / max(series, 1))


def plot_runs(ax: Axes, frame: pd.DataFrame, column: str, errors: bool = True) -> None:
    """One coloured series per log (`column` against level), in the frame's order, with 95%
    error bars where the frame has `ci95_low`/`ci95_high`, each series shifted along x
    (`dodge_step`) so that the bars of several runs never sit on one another; a line only for
    a trend (`is_trend`).

    Args:
        ax: the panel.
        frame: one row per log and level (`log`, `run`, `level`, `column`, its interval).
        column: the value drawn.
        errors: draw the error bars.
    """
    series = frame[C.LOG].nunique() if len(frame) else 0
    step = dodge_step(series) if errors else 0.0
    for i, ((_, group), (colour, marker, line)) in enumerate(
        zip(frame.groupby(C.LOG, sort=False), series_styles(), strict=False)
    ):
        err = error_extents(group, column, "ci95_low", "ci95_high") if errors else None
        trend = is_trend(group[column].astype(float).tolist())
        ax.errorbar(
            group[C.LEVEL].astype(float) + step * (i - (series - 1) / 2),
            group[column].astype(float),
            yerr=err,
            marker=marker,
            markersize=6 if series <= 6 else 4.5,
            linestyle=line if trend else "none",
            linewidth=1.5 if series <= 6 else 1.0,
            color=colour,
            capsize=2.5 if series <= 6 else 1.5,
            elinewidth=0.8,
            label=short_label(group[C.RUN].iloc[0]),
        )


@styled
def dot_chart(
    rows: pd.DataFrame,
    value: str,
    title: str,
    xlabel: str,
    xlim: tuple[float, float] | None = (-2, 102),
    label_width: int = 60,
) -> Figure | None:
    """One row per entry (`label`), `value` with its 95% interval (`ci95_low/high`); rows with
    `published` True muted grey, the rest in colour.

    Args:
        rows: one row per entry (`label`, `value`, `ci95_low/high`, `published`).
        value: the column drawn.
        title: the chart's title.
        xlabel: the x axis' label.
        xlim: the x axis' range, or None for matplotlib's.
        label_width: the most characters of a label.

    Returns:
        the figure, or None without rows.
    """
    if rows.empty:
        return None
    rows = rows.reset_index(drop=True)
    if "published" not in rows:
        rows = rows.assign(published=False)
    fig = new_figure(7.5, 0.9 + 0.28 * len(rows))
    ax = fig.add_subplot()
    own = [not published for published in rows["published"]]
    interval_rows(ax, rows, value, own, markersizes=(5, 3))
    labels = [short_label(str(t), label_width) for t in rows["label"]]
    ax.set_yticks(range(len(rows)), labels, fontsize=6.5)
    for tick, pub in zip(ax.get_yticklabels(), rows["published"], strict=True):
        tick.set_color("0.4" if pub else "black")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    if xlim:
        ax.set_xlim(*xlim)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.grid(axis="x", color="0.92")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return fig


def heatmap_cell(value: float, low: Any, high: Any) -> str:
    """A heat-map cell: the rate, and its interval below when known.

    Args:
        value: the rate (percent).
        low: its interval's low end, or None/NaN.
        high: its high end, or None/NaN.

    Returns:
        the rate to a whole number, with its interval on a second line where known; a dash for NaN.
    """
    if value != value:
        return "–"
    if low is None or high is None or low != low or high != high:
        return f"{value:.0f}"
    return f"{value:.0f}\n({low:.0f}–{high:.0f})"


def cell_text(ax: Axes, i: int, j: int, text: str, dark: bool, fontsize: float) -> None:
    """A matrix cell's text, centred on the cell, white on a dark cell and black on a pale one.

    Args:
        ax: the panel holding the matrix.
        i: the cell's row.
        j: the cell's column.
        text: what the cell prints.
        dark: whether the cell's colour is dark.
        fontsize: the text's size (points).
    """
    ax.text(
        j,
        i,
        text,
        ha="center",
        va="center",
        fontsize=fontsize,
        color="white" if dark else "black",
    )


#: Inches all the cells of a heat map row take at most (the labels and colour bar aside).
HEATMAP_CELLS_WIDTH = 8.4


@styled
def heatmap(
    table: pd.DataFrame, columns: Sequence[str], title: str, label: str, row_label: str = "run"
) -> Figure | None:
    """Rows x columns of percentages as a grey heat map, each cell printing its rate and,
    where the table has `<column>_ci95_low/high`, its 95% interval.

    Args:
        table: one row per run.
        columns: the columns shown, in order.
        title: the figure's title.
        label: the colour bar's label.
        row_label: the column naming each row.

    Returns:
        the figure, or None without rows.
    """
    if table.empty:
        return None
    data = table[list(columns)].astype(float)
    # cells narrower with many columns: the page shows the figure at most ~1250 px wide, so a
    # wider one would shrink its cell text below legible (13 columns: 7 px at 1.1 in a cell)
    cell = min(1.1, HEATMAP_CELLS_WIDTH / len(columns))
    fig = new_figure(1.0 + cell * len(columns) + 2.6, 0.9 + 0.55 * len(table))
    ax = fig.add_subplot()
    image = ax.imshow(data.to_numpy(), cmap="Greys", vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(columns)), list(columns), rotation=30, ha="right")
    # labels kept distinct when cut (two runs must never read alike: `stand-in-qwen…4b`)
    ax.set_yticks(range(len(table)), fit_labels([str(r) for r in table[row_label]], 48))
    for i, (_, row) in enumerate(table.iterrows()):
        for j, column in enumerate(columns):
            value = float(row[column]) if row[column] is not None else float("nan")
            text = heatmap_cell(
                value, row.get(f"{column}_ci95_low"), row.get(f"{column}_ci95_high")
            )
            cell_text(ax, i, j, text, value == value and value > 55, 8)
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label=label, shrink=0.8)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return fig


def save(fig: Figure, name: str, out_dir: Any) -> dict[str, Any]:
    """Write `fig` as PNG (150 dpi, for the page) and PDF (vector, for papers), under the
    report's style: the PDF's font type is read when saving, not when drawing.

    Args:
        fig: the figure.
        name: the files' name (without suffix).
        out_dir: the folder written to (made if missing).

    Returns:
        `png` and `pdf` -> the paths written.
    """
    from pathlib import Path

    import matplotlib

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    png, pdf = out / f"{name}.png", out / f"{name}.pdf"
    with matplotlib.rc_context(STYLE):
        fig.savefig(png, dpi=150)
        fig.savefig(pdf)
    return {"png": png, "pdf": pdf}
