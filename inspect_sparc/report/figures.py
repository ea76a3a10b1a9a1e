"""The report's figures (matplotlib, as the SPaRC authors draw theirs), from the tables only.

Readable in greyscale: every series has its own marker and line style, bars have hatches,
heat maps print their numbers. Published rows are drawn grey and dotted, "(published)" in the
legend. Figures are built with `matplotlib.figure.Figure` (no pyplot state, no GUI backend).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import cycle
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.frame import BREAK_RULES, RULE_KINDS
from inspect_sparc.report.tables import ENDING_COLUMNS, LEVELS, PROTOCOLS

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
LINESTYLES = ("-", "--", "-.", ":")
HATCHES = ("", "///", "...", "xxx", "\\\\\\", "ooo", "---", "+++")
GREYS = ("0.0", "0.35", "0.6", "0.8", "0.95")
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
    return label if len(label) <= width else label[: width - 1] + "…"


def plot_runs(ax: Any, frame: pd.DataFrame, column: str) -> None:
    """One black line per log (`column` against level), told apart by marker and line style."""
    styles = zip(cycle(MARKERS), cycle(LINESTYLES), strict=False)
    for (_, group), (marker, line) in zip(frame.groupby("log", sort=False), styles, strict=False):
        ax.plot(
            group["level"],
            group[column],
            marker=marker,
            linestyle=line,
            color="black",
            label=_short(group["run"].iloc[0]),
        )


@styled
def difficulty_curves(levels: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy by level, one line per run, one panel per protocol; published rows grey."""
    if levels.empty:
        return None
    protocols = [p for p in PROTOCOLS if p in set(levels["protocol"])]
    fig = new_figure(8.5, 3.6 * len(protocols))
    axes = fig.subplots(len(protocols), 1, squeeze=False).ravel()
    for ax, protocol in zip(axes, protocols, strict=True):
        plot_runs(ax, levels[levels["protocol"] == protocol], "accuracy")
        if published is not None and not published.empty:
            rows = published[published["protocol"] == protocol]
            if protocol == "gym":
                rows = published[
                    published["protocol"].isin(["gym", "baseline_astar", "baseline_random"])
                ]
            for (_, row), marker in zip(rows.iterrows(), cycle(MARKERS), strict=False):
                values = [row.get(f"level_{lv}") for lv in LEVELS]
                if all(v == v and v is not None for v in values):
                    ax.plot(
                        LEVELS,
                        values,
                        marker=marker,
                        markersize=3,
                        linestyle=":",
                        color="0.55",
                        linewidth=0.8,
                        label=_short(f"{row['model']} (published)"),
                    )
        ax.set_title(PROTOCOL_TITLES.get(protocol, protocol))
        ax.set_xticks(LEVELS)
        ax.set_xlim(0.7, 5.3)
        ax.set_xlabel("difficulty level")
        ax.grid(axis="y", color="0.9")
        ax.set_ylabel("accuracy (%)")
        ax.set_ylim(-2, 102)
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False, fontsize=6.5)
    return fig


@styled
def heatmap(
    table: pd.DataFrame, columns: Sequence[str], title: str, label: str, row_label: str = "run"
) -> Figure | None:
    """Rows x columns of percentages as a grey heat map with the numbers printed."""
    if table.empty:
        return None
    data = table[list(columns)].astype(float)
    fig = new_figure(1.0 + 0.75 * len(columns) + 2.6, 0.9 + 0.32 * len(table))
    ax = fig.add_subplot()
    image = ax.imshow(data.to_numpy(), cmap="Greys", vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(columns)), list(columns), rotation=30, ha="right")
    ax.set_yticks(range(len(table)), [_short(str(r)) for r in table[row_label]])
    for (i, j), value in _cells(data):
        text = "–" if value != value else f"{value:.0f}"
        ax.text(
            j,
            i,
            text,
            ha="center",
            va="center",
            fontsize=7,
            color="white" if value == value and value > 55 else "black",
        )
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label=label, shrink=0.8)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return fig


def _cells(data: pd.DataFrame):
    for i, row in enumerate(data.to_numpy()):
        for j, value in enumerate(row):
            yield (i, j), float(value)


def rule_heatmap(rules: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy over the puzzles containing each rule: runs, then published rows."""
    import pandas as pd

    if rules.empty:
        return None
    table = rules[["run", *RULE_KINDS]]
    if published is not None and not published.empty:
        marked = published.assign(
            run=[
                f"{m} | {p} (published)"
                for m, p in zip(published["model"], published["protocol"], strict=True)
            ]
        )
        table = pd.concat([table, marked[["run", *RULE_KINDS]]], ignore_index=True)
    return heatmap(table, RULE_KINDS, "Accuracy on puzzles containing each rule", "accuracy (%)")


def breaks_heatmap(breaks: pd.DataFrame) -> Figure | None:
    """Share of answers breaking each rule, per run."""
    if breaks.empty:
        return None
    return heatmap(breaks, BREAK_RULES, "Why answers failed: rules broken", "answers (%)")


@styled
def barh(
    table: pd.DataFrame,
    value: str,
    label_col: str,
    title: str,
    xlabel: str,
    reference: pd.DataFrame | None = None,
) -> Figure | None:
    """Horizontal bars of `value` per row, hatched; `reference` rows grey, marked published."""
    import pandas as pd

    if table.empty:
        return None
    rows = table.assign(published=False)
    if reference is not None and not reference.empty:
        rows = pd.concat([rows, reference.assign(published=True)], ignore_index=True)
    fig = new_figure(6.5, 0.8 + 0.3 * len(rows))
    ax = fig.add_subplot()
    y = range(len(rows))
    colors = ["0.75" if p else "0.25" for p in rows["published"]]
    hatches = ["///" if p else "" for p in rows["published"]]
    bars = ax.barh(
        list(y), rows[value].astype(float), color=colors, edgecolor="black", linewidth=0.5
    )
    for bar, hatch in zip(bars, hatches, strict=True):
        bar.set_hatch(hatch)
    labels = [
        f"{_short(str(name))}{' (published)' if p else ''}"
        for name, p in zip(rows[label_col], rows["published"], strict=True)
    ]
    ax.set_yticks(list(y), labels)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    for i, v in enumerate(rows[value].astype(float)):
        if v == v:
            ax.text(v, i, f" {v:.1f}", va="center", fontsize=7)
    return fig


def delta_bars(deltas: pd.DataFrame) -> Figure | None:
    """Protocol deltas in accuracy points, per model."""
    if deltas.empty:
        return None
    table = deltas.assign(
        label=[f"{m}: {d}" for m, d in zip(deltas["model"], deltas["delta"], strict=True)]
    )
    return barh(table, "points", "label", "Protocol deltas", "accuracy difference (points)")


@styled
def endings_bars(endings: pd.DataFrame) -> Figure | None:
    """How gym and agent episodes ended: stacked, hatched bars per run."""
    if endings.empty:
        return None
    fig = new_figure(6.5, 1.0 + 0.35 * len(endings))
    ax = fig.add_subplot()
    left = [0.0] * len(endings)
    for ending, grey, hatch in zip(ENDING_COLUMNS, GREYS, HATCHES, strict=False):
        values = endings[ending].fillna(0).astype(float).tolist()
        ax.barh(
            range(len(endings)),
            values,
            left=left,
            color=grey,
            hatch=hatch,
            edgecolor="black",
            linewidth=0.5,
            label=ending,
        )
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_yticks(range(len(endings)), [_short(r) for r in endings["run"]])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("episodes (%)")
    ax.set_title("How gym and agent episodes ended")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncols=5, frameon=False)
    return fig


@styled
def tokens_figure(tokens: pd.DataFrame, results: pd.DataFrame) -> Figure | None:
    """Left: mean output tokens by level per run; right: accuracy against output tokens."""
    if tokens.empty:
        return None
    fig = new_figure(9, 5.2)
    left, right = fig.subplots(1, 2)
    plot_runs(left, tokens, "output_tokens")
    left.set_xticks(LEVELS)
    left.set_xlabel("difficulty level")
    left.set_ylabel("output tokens per sample")
    left.set_title("Tokens by level")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    known = results.dropna(subset=["output_tokens_per_sample", "accuracy"])
    for (_, row), marker in zip(known.iterrows(), cycle(MARKERS), strict=False):
        right.scatter(
            row["output_tokens_per_sample"],
            row["accuracy"],
            marker=marker,
            color="black",
            label=_short(row["run"]),
        )
    right.set_xlabel("output tokens per sample")
    right.set_ylabel("accuracy (%)")
    right.set_title("Accuracy against tokens")
    right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    return fig


def visual_bars(visual: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy by plot type (and prompt): image runs, then the published visual runs."""
    if visual.empty:
        return None
    table = visual.assign(
        label=[f"{r} [{p}]" for r, p in zip(visual["run"], visual["plot"], strict=True)]
    )
    reference = None
    if published is not None and not published.empty:
        reference = published.assign(
            label=[
                f"{m} [{p}]"
                for m, p in zip(published["model"], published["plot_type"], strict=True)
            ]
        )
    return barh(
        table, "accuracy", "label", "Visual: accuracy by plot type", "accuracy (%)", reference
    )


@styled
def algopuzzlevqa_bars(by_puzzle: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy per puzzle: one marker series per run, the published columns grey."""
    if by_puzzle.empty:
        return None
    puzzles = [c for c in by_puzzle.columns if c not in ("run", "setup", "average")]
    fig = new_figure(7.5, 0.6 + 0.28 * len(puzzles))
    ax = fig.add_subplot()
    for (_, row), marker in zip(by_puzzle.iterrows(), cycle(MARKERS), strict=False):
        ax.scatter(
            [row[p] for p in puzzles],
            range(len(puzzles)),
            marker=marker,
            color="black",
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
                edgecolors="0.55",
                s=18,
                label=f"{model} {setup} (published)",
            )
    ax.set_yticks(range(len(puzzles)), puzzles)
    ax.invert_yaxis()
    ax.set_xlim(-2, 102)
    ax.set_xlabel("accuracy (%)")
    ax.set_title("AlgoPuzzleVQA: accuracy per puzzle")
    ax.grid(axis="x", color="0.9")
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
