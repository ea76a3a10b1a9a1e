"""What a table column is, for every writer of tables (CSV, LaTeX, the page): its name, the
label a reader sees, how its numbers are formatted and which interval columns belong in its
cell. One `Column` per column; `column_spec` gives the default of a name where a table
declares none, so the naming conventions the tables follow are read in this one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: How a column's numbers are written: `count` whole numbers; `rate` a rate or mean to 0.1;
#: `ratio` to 0.01 in CSV; `p` a p-value (`stats.format_p`); `whole_when_integral` a sum of
#: per-puzzle values (whole where it is, else 2 decimals).
Format = Literal["count", "rate", "ratio", "p", "whole_when_integral"]

#: Columns of counts (written as whole numbers; so is every `n_...` column).
COUNT_COLUMNS = frozenset(
    {"n", "epochs", "both", "only_a", "only_b", "neither", "n_a", "n_b"}
    | {"n_shared", "n_test", "n_fresh", "n_reached_end", "level", "dropped_errors", "errored"}
    | {"only_run", "only_published"}
)
#: Columns of p-values (3 significant digits in CSV, 2 on the page and in LaTeX).
P_COLUMNS = frozenset({"p", "p_holm", "gap_p", "p_holm_in_pair"})
#: Ratios and means kept to 2 decimals in CSV.
RATIO_COLUMNS = frozenset({"backtracking_ratio", "tool_calls_per_episode"})
#: Sums of per-puzzle values: a whole count where each puzzle counts 0 or 1 (one epoch, or a
#: max or mode reducer), a sum of epoch means otherwise (11.67, kept to 2 decimals, not 12).
WHOLE_WHEN_INTEGRAL = frozenset({"solved"})
#: A rate column's interval columns when they are not `<column>_ci95_low/high`.
INTERVAL_OF = {"accuracy": "ci95", "difference": "diff_ci95", "gap": "gap_ci95"}
#: Intervals of differences (column stems: `<stem>_low`, `<stem>_high`): where one excludes 0,
#: its ends keep the digits that show it (never an end of 0.0 beside a p below 0.05).
DIFFERENCE_INTERVALS = ("diff_ci95", "diff_simultaneous", "gap_ci95", "vs_published_ci95")


@dataclass(frozen=True)
class Column:
    """One column of a table: `name` in the frame and the CSV, `label` as a reader sees it,
    `format` of its numbers, and `interval`, the stem of the `<stem>_low/_high` columns shown
    in its cell on the page."""

    name: str
    label: str
    format: Format
    interval: str

    @property
    def whole(self) -> bool:
        """True where the page prints a whole value without decimals (counts, solved)."""
        return self.format in ("count", "whole_when_integral")


def column_spec(name: str) -> Column:
    """The default `Column` of `name` (the tables' naming conventions: `n_...` a count, `p` a
    p-value, `<name>_ci95_low/high` its interval).

    Args:
        name: the column's name in the frame.

    Returns:
        its `Column`, labelled by its name.
    """
    fmt: Format = "rate"
    if name in COUNT_COLUMNS or name.startswith("n_"):
        fmt = "count"
    elif name in P_COLUMNS:
        fmt = "p"
    elif name in RATIO_COLUMNS:
        fmt = "ratio"
    elif name in WHOLE_WHEN_INTEGRAL:
        fmt = "whole_when_integral"
    return Column(name, name, fmt, INTERVAL_OF.get(name, f"{name}_ci95"))
