"""Figures of the comparisons: the paired difference matrix, the fresh-puzzle gap and the
backtracking ratio (drawn with the report's style and palette, see `figures`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.figures import (
    PROTOCOL_TITLES,
    _errors,
    _short,
    dot_chart,
    new_figure,
    series_styles,
    styled,
)
from inspect_sparc.report.paired import WITHIN

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

#: Runs in one protocol from which the pairs are drawn as a matrix (fewer: the table says it).
MATRIX_FROM = 4


@styled
def paired_matrix(paired: pd.DataFrame) -> Figure | None:
    """Per protocol with at least `MATRIX_FROM` runs: the paired difference (row - column,
    points) of every pair, a diverging colour-blind-safe map; `*` marks McNemar p < 0.05."""
    import numpy as np

    if paired.empty:
        return None
    within = paired[paired["scope"] == WITHIN]
    groups = []
    for protocol, group in within.groupby("protocol_a", sort=False):
        runs = list(dict.fromkeys([*group["run_a"], *group["run_b"]]))
        if len(runs) >= MATRIX_FROM:
            groups.append((protocol, runs, group))
    if not groups:
        return None
    size = max(len(r) for _, r, _ in groups)
    fig = new_figure(2.5 + 0.5 * size, (1.5 + 0.42 * size) * len(groups))
    axes = np.atleast_1d(fig.subplots(len(groups), 1, squeeze=False).ravel())
    for ax, (protocol, runs, group) in zip(axes, groups, strict=True):
        at = {r: i for i, r in enumerate(runs)}
        matrix = np.full((len(runs), len(runs)), np.nan)
        stars = np.zeros_like(matrix, dtype=bool)
        for _, row in group.iterrows():
            i, j = at[row["run_a"]], at[row["run_b"]]
            matrix[i, j], matrix[j, i] = row["difference"], -row["difference"]
            p = row.get("mcnemar_p")
            stars[i, j] = stars[j, i] = p is not None and p == p and p < 0.05
        top = max(1.0, float(np.nanmax(np.abs(matrix))))
        image = ax.imshow(matrix, cmap="PuOr", vmin=-top, vmax=top)
        for (i, j), value in np.ndenumerate(matrix):
            if value == value:
                text = (f"{value:+.0f}" if round(value) else "0") + ("*" if stars[i, j] else "")
                dark = abs(value) > 0.6 * top
                ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize=6,
                    color="white" if dark else "black",
                )
        labels = [_short(r, 36) for r in runs]
        ax.set_xticks(range(len(runs)), labels, rotation=35, ha="right", fontsize=6)
        ax.set_yticks(range(len(runs)), labels, fontsize=6)
        ax.set_title(f"{PROTOCOL_TITLES.get(protocol, protocol)}: row minus column (points)")
        fig.colorbar(image, ax=ax, shrink=0.8, label="difference (points)")
    return fig


@styled
def fresh_gap_figure(gaps: pd.DataFrame) -> Figure | None:
    """Per model and protocol: the gap (test split minus fresh puzzles, points) per level and
    overall, with its 95% interval; 0 drawn as a line."""
    if gaps.empty:
        return None
    groups = list(gaps.groupby(["model", "protocol"], sort=False))
    fig = new_figure(7.5, 2.8 * len(groups))
    axes = fig.subplots(len(groups), 1, squeeze=False).ravel()
    for ax, ((model, protocol), group) in zip(axes, groups, strict=True):
        group = group.reset_index(drop=True)
        err = _errors(group, "gap", "gap_ci95_low", "gap_ci95_high")
        ticks = [str(lv) if isinstance(lv, int) else "all\n(re-weighted)" for lv in group["level"]]
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
        ax.set_title(_short(f"{model} | {PROTOCOL_TITLES.get(protocol, protocol)}", 70))
        ax.grid(axis="y", color="0.92")
    return fig


def backtracking_figure(behaviour: pd.DataFrame) -> Figure | None:
    """Median backtracking ratio (steps / path edges over episodes that reached E) per run."""
    if behaviour.empty or "backtracking_ratio" not in behaviour:
        return None
    rows = behaviour.dropna(subset=["backtracking_ratio"])
    if rows.empty:
        return None
    rows = rows.assign(
        label=[f"{r} (n={n})" for r, n in zip(rows["run"], rows["n_reached_end"], strict=True)]
    )
    top = max(2.0, float(rows["backtracking_ratio"].max()) * 1.1)
    return dot_chart(
        rows,
        "backtracking_ratio",
        "Backtracking ratio (Spatial-Gym Fig. 5)",
        "median steps taken / path edges (1 = no backtracking)",
        (0, top),
    )
