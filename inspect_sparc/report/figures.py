"""The report's figures (matplotlib, as the SPaRC authors draw theirs), from the tables only.

Your runs are drawn in colour from the Okabe-Ito palette (safe for colour-blind readers), each
with its own marker, so greyscale still tells them apart; published rows are muted grey and
labelled directly (rows whose model is not named are drawn but left unlabelled). Every rate
has its 95% interval as an error bar. A series with fewer than three levels, or a flat one, is
drawn as points, never as a line (two points are not a trend). Figures are built with
`matplotlib.figure.Figure` (no pyplot state, no GUI backend).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import cycle
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.tables import ENDING_COLUMNS, LEVELS, PROTOCOLS

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

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
STYLE = {
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
    """A figure drawn with the report's style (no pyplot, so nothing global changes)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def styled(draw: Any) -> Any:
    """Run a drawing function under the report's rc style."""
    import matplotlib

    def wrapper(*args: Any, **kwargs: Any) -> Figure | None:
        with matplotlib.rc_context(STYLE):
            return draw(*args, **kwargs)

    wrapper.__name__ = draw.__name__
    wrapper.__doc__ = draw.__doc__
    return wrapper


def _short(label: str, width: int = 48) -> str:
    """`label` cut to `width` in the middle, so the end that tells runs apart (`#2`, `x2
    epochs`, `[error]`) stays."""
    if len(label) <= width:
        return label
    tail = min(16, width // 3)
    return label[: width - tail - 1] + "…" + label[-tail:]


def series_styles() -> Any:
    """(colour, marker, line style) for each user series in turn."""
    return zip(cycle(PALETTE), cycle(MARKERS), cycle(LINESTYLES), strict=False)


def _errors(frame: pd.DataFrame, value: str, low: str, high: str) -> Any:
    """Error bar extents (below, above) from interval columns, or None without them."""
    import numpy as np

    if low not in frame or high not in frame:
        return None
    v = frame[value].astype(float).to_numpy()
    lo = frame[low].astype(float).to_numpy()
    hi = frame[high].astype(float).to_numpy()
    return np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)])


def is_trend(values: Sequence[float]) -> bool:
    """Three or more known points that are not all equal: worth a line."""
    known = [v for v in values if v == v and v is not None]
    return len(known) >= 3 and len(set(known)) > 1


def plot_runs(ax: Axes, frame: pd.DataFrame, column: str, errors: bool = True) -> None:
    """One coloured series per log (`column` against level), with 95% error bars where the
    frame has `ci95_low`/`ci95_high`; a line only for a trend (`is_trend`)."""
    for (_, group), (colour, marker, line) in zip(
        frame.groupby("log", sort=False), series_styles(), strict=False
    ):
        err = _errors(group, column, "ci95_low", "ci95_high") if errors else None
        trend = is_trend(group[column].astype(float).tolist())
        ax.errorbar(
            group["level"],
            group[column].astype(float),
            yerr=err,
            marker=marker,
            linestyle=line if trend else "none",
            color=colour,
            capsize=2.5,
            elinewidth=0.8,
            label=_short(group["run"].iloc[0]),
        )


def direct_labels(ax: Axes, items: list[tuple[float, str]], x: float, gap: float) -> None:
    """Labels at `x` beside their series' last values, pushed apart by at least `gap`."""
    placed: list[float] = []
    for y, text in sorted(items):
        y_at = max([y, *(p + gap for p in placed[-1:])])
        placed.append(y_at)
        ax.annotate(
            text,
            (x, y),
            xytext=(x + 0.12, y_at),
            fontsize=6,
            color="0.35",
            va="center",
            arrowprops={"arrowstyle": "-", "color": "0.75", "linewidth": 0.5},
            annotation_clip=False,
        )


def plot_published(ax: Axes, rows: pd.DataFrame) -> None:
    """Published level curves, muted grey and thin, each named at its right end (rows whose
    model is not named are drawn unlabelled, and none enters the legend)."""
    items = []
    for (_, row), marker in zip(rows.iterrows(), cycle(MARKERS), strict=False):
        values = [row.get(f"level_{lv}") for lv in LEVELS]
        if not all(v == v and v is not None for v in values):
            continue
        human = str(row["model"]).startswith("Human")
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
        if row.get("named", True) is not False:
            items.append((float(values[-1]), _short(str(row["model"]), 34)))
    direct_labels(ax, items, LEVELS[-1], gap=3.4)


@styled
def difficulty_curves(levels: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy by level with 95% error bars, your runs in colour, one panel per protocol;
    published rows muted and labelled at their right end."""
    if levels.empty:
        return None
    protocols = [p for p in PROTOCOLS if p in set(levels["protocol"])]
    fig = new_figure(9.5, 3.8 * len(protocols))
    axes = fig.subplots(len(protocols), 1, squeeze=False).ravel()
    for ax, protocol in zip(axes, protocols, strict=True):
        plot_runs(ax, levels[levels["protocol"] == protocol], "accuracy")
        if published is not None and not published.empty:
            plot_published(ax, published[published["protocol"] == protocol])
        ax.set_title(PROTOCOL_TITLES.get(protocol, protocol))
        ax.set_xticks(LEVELS)
        ax.set_xlim(0.7, 6.9)  # room on the right for the published rows' names
        ax.spines["bottom"].set_bounds(1, 5)
        ax.set_xlabel("difficulty level")
        ax.grid(axis="y", color="0.92")
        ax.set_ylabel("accuracy (%), 95% interval")
        ax.set_ylim(-2, 102)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=6.5)
    return fig


@styled
def ranked_chart(results: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Per protocol, every run and published row ranked by accuracy with its 95% interval:
    where each of your runs (colour, bold) sits among the published models (grey)."""
    import pandas as pd

    mine = results.dropna(subset=["accuracy"]).assign(mine=True, label=results["run"])
    mine = mine[mine["status"] == "success"] if "status" in mine else mine
    parts = [mine[["protocol", "label", "accuracy", "ci95_low", "ci95_high", "mine"]]]
    if published is not None and not published.empty:
        pub = published.dropna(subset=["accuracy"])
        settings = pub["setting"] if "setting" in pub else [None] * len(pub)
        pub = pub.assign(
            mine=False,
            label=[
                f"{m}{f' [{p}]' if isinstance(p, str) and p else ''} (published)"
                for m, p in zip(pub["model"], settings, strict=True)
            ],
        )
        parts.append(pub[["protocol", "label", "accuracy", "ci95_low", "ci95_high", "mine"]])
    table = pd.concat(parts, ignore_index=True)
    protocols = [p for p in PROTOCOLS if p in set(mine["protocol"])]
    if not protocols:
        return None
    sizes = [max(2, int((table["protocol"] == p).sum())) for p in protocols]
    fig = new_figure(8.0, 0.9 * len(protocols) + 0.2 * sum(sizes))
    axes = fig.subplots(len(protocols), 1, squeeze=False, height_ratios=sizes).ravel()
    for ax, protocol in zip(axes, protocols, strict=True):
        rows = table[table["protocol"] == protocol].sort_values("accuracy", ascending=False)
        _ranked_panel(ax, rows.reset_index(drop=True))
        ax.set_title(PROTOCOL_TITLES.get(protocol, protocol), loc="left")
    axes[-1].set_xlabel("accuracy (%), 95% interval")
    return fig


def _ranked_panel(ax: Axes, rows: pd.DataFrame) -> None:
    """One protocol's ranked rows: yours in colour with markers, published grey."""
    styles = series_styles()
    for i, row in rows.iterrows():
        err = _errors(rows.loc[[i]], "accuracy", "ci95_low", "ci95_high")
        colour, marker, _ = next(styles) if row["mine"] else (MUTED, "o", "")
        ax.errorbar(
            [row["accuracy"]],
            [i],
            xerr=err,
            marker=marker,
            color=colour,
            capsize=2,
            markersize=5 if row["mine"] else 3,
            elinewidth=1.0 if row["mine"] else 0.6,
            linestyle="none",
        )
    ax.set_yticks(range(len(rows)), [_short(str(t), 80) for t in rows["label"]], fontsize=6.5)
    for tick, mine in zip(ax.get_yticklabels(), rows["mine"], strict=True):
        tick.set_fontweight("bold" if mine else "normal")
        tick.set_color("black" if mine else "0.4")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(-2, 102)
    ax.grid(axis="x", color="0.92")


@styled
def dot_chart(
    rows: pd.DataFrame,
    value: str,
    title: str,
    xlabel: str,
    xlim: tuple | None = (-2, 102),
    label_width: int = 60,
) -> Figure | None:
    """One row per entry (`label`), `value` with its 95% interval (`ci95_low/high`); rows with
    `published` True muted grey, the rest in colour."""
    if rows.empty:
        return None
    rows = rows.reset_index(drop=True)
    if "published" not in rows:
        rows = rows.assign(published=False)
    fig = new_figure(7.5, 0.9 + 0.28 * len(rows))
    ax = fig.add_subplot()
    styles = series_styles()
    for i, row in rows.iterrows():
        colour, marker, _ = (MUTED, "o", "") if row["published"] else next(styles)
        err = _errors(rows.loc[[i]], value, "ci95_low", "ci95_high")
        ax.errorbar(
            [row[value]],
            [i],
            xerr=err,
            marker=marker,
            color=colour,
            capsize=2,
            linestyle="none",
            markersize=3 if row["published"] else 5,
        )
    labels = [_short(str(t), label_width) for t in rows["label"]]
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


def delta_bars(deltas: pd.DataFrame, published: pd.DataFrame | None = None) -> Figure | None:
    """Protocol deltas in accuracy points per model, with the paired 95% interval where the
    two runs share puzzles; the published deltas (papers and rebuttal rows) muted."""
    import pandas as pd

    if deltas.empty:
        return None
    rows = deltas.assign(
        label=[f"{m}: {d}" for m, d in zip(deltas["model"], deltas["delta"], strict=True)],
        published=False,
    )
    if published is not None and not published.empty:
        rows = pd.concat([rows, published.assign(published=True)], ignore_index=True)
    rows = rows.rename(columns={"points": "value"})
    return dot_chart(rows, "value", "Protocol deltas", "accuracy difference (points)", None)


@styled
def endings_bars(endings: pd.DataFrame) -> Figure | None:
    """How gym and agent episodes ended: one panel per ending, each run's share of episodes
    with its 95% interval (no legend to cover an axis)."""
    if endings.empty:
        return None
    fig = new_figure(10, 1.2 + 0.3 * len(endings))
    axes = fig.subplots(1, len(ENDING_COLUMNS), sharey=True)
    labels = [_short(r, 40) for r in endings["run"]]
    for ax, ending in zip(axes, ENDING_COLUMNS, strict=True):
        for i, ((_, row), (colour, marker, _)) in enumerate(
            zip(endings.iterrows(), series_styles(), strict=False)
        ):
            frame = endings.loc[[row.name]].rename(
                columns={f"{ending}_ci95_low": "ci95_low", f"{ending}_ci95_high": "ci95_high"}
            )
            err = _errors(frame, ending, "ci95_low", "ci95_high")
            ax.errorbar(
                [row[ending]],
                [i],
                xerr=err,
                marker=marker,
                color=colour,
                capsize=2,
                linestyle="none",
            )
        ax.set_title(ending, fontsize=8)
        ax.set_xlim(-3, 103)
        ax.grid(axis="x", color="0.92")
    axes[0].set_yticks(range(len(endings)), labels, fontsize=6.5)
    axes[0].set_ylim(len(endings) - 0.5, -0.5)
    fig.supxlabel("episodes (%), 95% interval", fontsize=8)
    return fig


@styled
def tokens_figure(tokens: pd.DataFrame, results: pd.DataFrame) -> Figure | None:
    """Left: mean output tokens by level per run; right: accuracy (95% interval) against
    output tokens. Both axes start at 0."""
    if tokens.empty:
        return None
    fig = new_figure(9, 5.2)
    left, right = fig.subplots(1, 2)
    plot_runs(left, tokens, "output_tokens", errors=False)
    left.set_xticks(LEVELS)
    left.set_xlabel("difficulty level")
    left.set_ylabel("output tokens per sample")
    left.set_ylim(bottom=0)
    left.set_title("Tokens by level")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    known = results.dropna(subset=["output_tokens_per_sample", "accuracy"]).reset_index(drop=True)
    # each run keeps the colour and marker it has on the left; runs only on the right follow
    order = list(dict.fromkeys([*tokens.drop_duplicates("log")["run"], *known["run"]]))
    styles = dict(zip(order, series_styles(), strict=False))
    for i, row in known.iterrows():
        colour, marker, _ = styles[row["run"]]
        err = _errors(known.loc[[i]], "accuracy", "ci95_low", "ci95_high")
        right.errorbar(
            [row["output_tokens_per_sample"]],
            [row["accuracy"]],
            yerr=err,
            marker=marker,
            color=colour,
            capsize=2,
            linestyle="none",
            label=_short(row["run"]),
        )
    right.set_xlabel("output tokens per sample")
    right.set_ylabel("accuracy (%), 95% interval")
    right.set_xlim(left=0)
    right.set_ylim(-2, 102)
    right.set_title("Accuracy against tokens")
    right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    return fig


def visual_bars(visual: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy by plot type (and prompt), 95% intervals: image runs, then the published
    visual runs (muted)."""
    import pandas as pd

    if visual.empty:
        return None
    title = "Visual: accuracy by plot type"
    rows = visual.assign(
        label=[f"{r} [{p}]" for r, p in zip(visual["run"], visual["plot"], strict=True)],
        published=False,
    )
    if published is not None and not published.empty:
        from inspect_sparc.report.published import with_wilson

        pub = with_wilson(published).assign(published=True)
        models = set(pub["model"])
        one_model = len(models) == 1
        pub["label"] = published_visual_labels(pub, with_model=not one_model)
        rows = pd.concat([rows, pub], ignore_index=True)
        if one_model:  # the published runs are all of one model: say it once, in the title
            title = f"Visual: accuracy by plot type\n(published: {models.pop()})"
    return dot_chart(rows, "accuracy", title, "accuracy (%)", label_width=72)


def published_visual_labels(pub: pd.DataFrame, with_model: bool = True) -> list[str]:
    """`model [plot, prompt, ...] (published)` (without the model when the title names it): the
    published setting that tells the runs apart (`published.visual_settings`)."""
    from inspect_sparc.report.published import visual_settings

    settings = pub["setting"] if "setting" in pub else visual_settings(pub)
    return [
        f"{m + ' ' if with_model else ''}[{setting}] (published)"
        for m, setting in zip(pub["model"], settings, strict=True)
    ]


@styled
def algopuzzlevqa_bars(by_puzzle: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy per puzzle: one coloured series per run with 95% intervals, the published
    columns as muted open markers."""
    import numpy as np

    if by_puzzle.empty:
        return None
    puzzles = [
        c
        for c in by_puzzle.columns
        if c not in ("run", "setup", "average") and not c.startswith("n_") and "_ci95_" not in c
    ]
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
            label=_short(f"{row['run']} (avg {row['average']:.1f})"),
        )
    if published is not None and not published.empty:
        for ((model, setup), group), marker in zip(
            published.groupby(["model", "setup"]), cycle(MARKERS[3:]), strict=False
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


def save(fig: Figure, name: str, out_dir: Any) -> dict[str, Any]:
    """Write `fig` as PNG (150 dpi, for the page) and PDF (vector, for papers)."""
    from pathlib import Path

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    png, pdf = out / f"{name}.png", out / f"{name}.pdf"
    fig.savefig(png, dpi=150)
    fig.savefig(pdf)
    return {"png": png, "pdf": pdf}


# The heat maps live in `heatmaps` (this module had grown past 500 lines); re-exported here.
from inspect_sparc.report.heatmaps import breaks_heatmap as breaks_heatmap  # noqa: E402
from inspect_sparc.report.heatmaps import heatmap as heatmap  # noqa: E402
from inspect_sparc.report.heatmaps import rule_heatmap as rule_heatmap  # noqa: E402
