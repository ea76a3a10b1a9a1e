"""What a table column is, for every writer of tables (CSV, LaTeX, the page): its name, the
label a reader sees, how its numbers are formatted and which interval columns belong in its
cell. One `Column` per column; `column_spec` gives the default of a name where a table
declares none, so the naming conventions the tables follow are read in this one place."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

#: How a column's numbers are written: `count` whole numbers; `rate` a rate or mean to 0.1;
#: `ratio` to 0.01 in CSV; `p` a p-value (`stats.format_p`); `whole_when_integral` a sum of
#: per-puzzle values (whole where it is, else 2 decimals).
Format = Literal["count", "rate", "ratio", "p", "whole_when_integral"]

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

    def labelled(self, label: str) -> Column:
        """This column under another label (name, format and interval kept).

        Args:
            label: what the page's header says.

        Returns:
            the relabelled column.
        """
        return replace(self, label=label)

    @property
    def whole(self) -> bool:
        """True where the page prints a whole value without decimals (counts, solved).

        Returns:
            whether the format is `count` or `whole_when_integral`.
        """
        return self.format in ("count", "whole_when_integral")


def column_spec(name: str) -> Column:
    """The default `Column` of `name`, where its table declares none: the tables' two naming
    conventions, `n` and `n_...` a count of puzzles and `<name>_ci95_low/high` its interval;
    any other column a rate. A count, p-value, ratio or sum under another name is declared by
    the section that shows it (`formatted`).

    Args:
        name: the column's name in the frame.

    Returns:
        its `Column`, labelled by its name.
    """
    fmt: Format = "count" if name == "n" or name.startswith("n_") else "rate"
    return Column(name, name, fmt, INTERVAL_OF.get(name, f"{name}_ci95"))


#: A table's declared columns by name (a column not declared takes `column_spec`'s default).
Specs = Mapping[str, Column]


def spec_of(name: str, specs: Specs | None = None) -> Column:
    """The column `name` as its table declares it, else its default (`column_spec`).

    Args:
        name: the column's name in the frame.
        specs: the table's declared columns by name, or None (every column its default).

    Returns:
        its `Column`.
    """
    found = specs.get(name) if specs else None
    return found if found is not None else column_spec(name)


def declared(columns: Iterable[Column]) -> dict[str, Column]:
    """Columns by name, as `spec_of` reads them.

    Args:
        columns: a table's declared columns.

    Returns:
        name -> `Column`.
    """
    return {c.name: c for c in columns}


def formatted(name: str, fmt: Format, label: str = "") -> Column:
    """The column `name` with its numbers written as `fmt`: `count` for whole counts (puzzles,
    epochs, levels); `p` for p-values (3 significant digits in CSV, 2 on the page and in LaTeX,
    more where rounding would carry one across 0.05); `ratio` for ratios or means kept to 2
    decimals in CSV; `whole_when_integral` for sums of per-puzzle values (a whole count where
    each puzzle counts 0 or 1 - one epoch, or a max or mode reducer -, else a sum of epoch
    means: 11.67, kept to 2 decimals, not 12).

    Args:
        name: the column's name in the frame.
        fmt: how its numbers are written (`Format`).
        label: what the page's header says ("" for the name).

    Returns:
        its `Column`, with the interval of its default (`column_spec`).
    """
    return replace(column_spec(name), label=label or name, format=fmt)


#: The level column of a table by level.
LEVEL = formatted("level", "count")
#: A pair's four counts of shared puzzles (`both`, `only_a`, `only_b`, `neither`) and the
#: puzzles dropped to an error.
PAIR_COUNTS = tuple(
    formatted(c, "count") for c in ("both", "only_a", "only_b", "neither", "dropped_errors")
)
