"""The report's heat maps: rows x columns of percentages in grey, each cell printing its rate
and, where known, its 95% interval (accuracy by rule type, rules broken)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.figures import _short, new_figure, styled
from inspect_sparc.report.frame import BREAK_RULES, RULE_KINDS

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


def _cell_text(value: float, low: Any, high: Any) -> str:
    """A heat-map cell: the rate, and its interval below when known."""
    if value != value:
        return "–"
    if low is None or high is None or low != low or high != high:
        return f"{value:.0f}"
    return f"{value:.0f}\n({low:.0f}–{high:.0f})"


@styled
def heatmap(
    table: pd.DataFrame, columns: Sequence[str], title: str, label: str, row_label: str = "run"
) -> Figure | None:
    """Rows x columns of percentages as a grey heat map, each cell printing its rate and,
    where the table has `<column>_ci95_low/high`, its 95% interval."""
    if table.empty:
        return None
    data = table[list(columns)].astype(float)
    fig = new_figure(1.0 + 0.85 * len(columns) + 2.6, 0.9 + 0.42 * len(table))
    ax = fig.add_subplot()
    image = ax.imshow(data.to_numpy(), cmap="Greys", vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(columns)), list(columns), rotation=30, ha="right")
    ax.set_yticks(range(len(table)), [_short(str(r)) for r in table[row_label]])
    for i, (_, row) in enumerate(table.iterrows()):
        for j, column in enumerate(columns):
            value = float(row[column]) if row[column] is not None else float("nan")
            text = _cell_text(value, row.get(f"{column}_ci95_low"), row.get(f"{column}_ci95_high"))
            dark = value == value and value > 55
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=5.5,
                color="white" if dark else "black",
            )
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label=label, shrink=0.8)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return fig


def rule_heatmap(rules: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy over the puzzles containing each rule: runs (with intervals), then the
    published rows."""
    import pandas as pd

    if rules.empty:
        return None
    table = rules
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
    """Share of answers breaking each rule, per run (with intervals)."""
    if breaks.empty:
        return None
    return heatmap(breaks, BREAK_RULES, "Why answers failed: rules broken", "answers (%)")
