"""The self-contained HTML page: Jinja2 with autoescape on, figures embedded as base64 PNG.

Everything taken from a log (model names, answers, ids) reaches the page only through the
template's autoescaping, so a model named `<script>` is shown as text.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.render.columns import DIFFERENCE_INTERVALS, Specs, spec_of

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from markupsafe import Markup


@dataclass
class Section:
    """One part of the page: a title, a line of text (what it shows, headline first), the
    method behind it (folded on the page), figures and tables."""

    id: str
    title: str
    text: str = ""
    method: str = ""
    figures: list[dict[str, str]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    #: The first table above the figures (the results: the numbers come first on the page).
    tables_first: bool = False


def figure_entry(name: str, png: Path, caption: str) -> dict[str, str]:
    """A figure for the template: its PNG inlined (the page needs no other file).

    Args:
        name: the figure's file name (without suffix).
        png: its PNG file.
        caption: its caption and alt text.

    Returns:
        the template's figure: name, base64 data, alt and caption.
    """
    data = base64.b64encode(Path(png).read_bytes()).decode("ascii")
    return {"name": name, "data": data, "alt": caption, "caption": caption}


def table_entry(
    table: pd.DataFrame,
    name: str,
    caption: str,
    published_col: str = "",
    transpose: bool = False,
    specs: Specs | None = None,
) -> dict[str, Any]:
    """A table for the template: cells as text, each formatted by its column's spec (rates to
    one decimal, each with its 95% interval and n in the same cell where the table has them),
    headers by their labels, rows marked published; `folded` when it has more than
    `FOLD_ROWS` rows.

    Args:
        table: the rows the page shows.
        name: the table's file name under `tables/` (without suffix).
        caption: the line above the table.
        published_col: a boolean column marking published rows ("" for none); not shown.
        transpose: one column per row of `table` (for tables with many columns and few rows).
        specs: the table's declared columns by name (None: every column its default).

    Returns:
        the template's table: name, caption, columns, labels, rows of cell texts, which
        columns are numeric, and whether it is folded.
    """
    merged = interval_cells(table, specs)
    if transpose:
        merged = transposed(merged)
    columns = [c for c in merged if c != published_col and c not in merged.attrs["folded"]]
    shown = [spec_of(c, None if transpose else specs) for c in columns]
    rows = []
    for _, row in merged.iterrows():
        rows.append(
            {
                "published": bool(row.get(published_col)) if published_col else False,
                "cells": [cell_text(row[c.name], c.whole, c.format == "p") for c in shown],
            }
        )
    numeric = [merged[c].dtype.kind in "fiu" for c in columns]
    return {
        "name": name,
        "caption": caption,
        "columns": columns,
        "labels": [c.label for c in shown],
        "rows": rows,
        "numeric": numeric,
        "folded": len(rows) > FOLD_ROWS,
    }


#: Tables with more rows than this are shown folded (a closed `<details>` that says how many
#: rows it holds): 16 runs make 120 pairs and 600 per-level rows, which would bury the page.
FOLD_ROWS = 40


def transposed(merged: pd.DataFrame) -> pd.DataFrame:
    """`merged` turned: its first column's values become the columns, its columns the rows.

    Args:
        merged: a table as `interval_cells` makes it.

    Returns:
        the turned table, every cell as text.
    """
    kept = [c for c in merged.columns if c not in merged.attrs["folded"]]
    first = kept[0]
    turned = merged[kept].astype(object).set_index(first).T
    turned.columns = [str(c) for c in turned.columns]
    turned = turned.map(lambda v: cell_text(v))
    out = turned.reset_index(names=first)
    out.attrs["folded"] = set()
    return out


def interval_cells(table: pd.DataFrame, specs: Specs | None = None) -> pd.DataFrame:
    """A copy where each rate with interval columns (its spec's `interval`) reads
    `12.3 (8.1-17.9)` (and `n=86` where its own `n_<column>` exists).

    Args:
        table: the rows the page shows.
        specs: the table's declared columns by name (None: every column its default).

    Returns:
        the copy; the interval and n columns folded into a cell are listed in its
        `attrs["folded"]`.
    """
    out = table.copy()
    folded: set[str] = set()
    for column in table.columns:
        stem = spec_of(column, specs).interval
        low, high, n = f"{stem}_low", f"{stem}_high", f"n_{column}"
        if low not in table or high not in table or table[column].dtype.kind not in "fi":
            continue
        texts = []
        for value, lo, hi, count in zip(
            table[column], table[low], table[high], table.get(n, [None] * len(table)), strict=True
        ):
            text = cell_text(value)
            if _number(lo) and _number(hi) and _number(value):
                text += f" ({interval_text(lo, hi, stem)})"
            if _number(count):
                text += f" n={count:.0f}"
            texts.append(text)
        out[column] = texts
        folded |= {low, high} | ({n} if n in table else set())
    out.attrs["folded"] = folded
    return out


def interval_text(low: float, high: float, stem: str) -> str:
    """An interval as a cell prints it, `8.1–17.9` or `-1.6 to 42.0`; a difference's interval
    that excludes 0 with the digits that keep its ends off 0 (`stats.format_interval`).

    Args:
        low: the low end.
        high: the high end.
        stem: the interval's column stem (`ci95`, `diff_ci95`, ...).

    Returns:
        the text, without parentheses.
    """
    from inspect_sparc.report.statistics.score_intervals import format_interval

    if stem in DIFFERENCE_INTERVALS:
        text = format_interval(low, high, scale=1.0)
        return text.replace(" to ", "–") if low >= 0 else text
    return f"{low:.1f}–{high:.1f}" if low >= 0 else f"{low:.1f} to {high:.1f}"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value


#: Text cells longer than this are cut on the page (the CSV keeps them whole).
CELL_CHARS = 160


def cell_text(value: Any, count: bool = False, p: bool = False) -> str:
    """A table cell: counts as integers, p-values to 2 significant digits (more where rounding
    would carry one across 0.05: `stats.format_p`), other numbers to
    one decimal (a small nonzero one as `<0.1`, so a column reads in one format), missing
    values as a dash, long text cut at `CELL_CHARS`.

    Args:
        value: the cell's value.
        count: print a whole number without decimals.
        p: print a float as a p-value.

    Returns:
        the cell's text.
    """
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and p:
        from inspect_sparc.report.statistics.score_intervals import format_p

        return format_p(value)
    if isinstance(value, float):
        if count and value.is_integer():
            return f"{value:.0f}"
        if 0 < abs(value) < 0.05:
            return "<0.1" if value > 0 else ">-0.1"
        return f"{value:.1f}"
    text = str(value)
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


#: An interval as cells print it, `(8.1–17.9)` or `(-1.6 to 42.0)`: one unit on the page.
INTERVAL_TEXT = r"\((?:-?[\d.<>]+–-?[\d.<>]+|-?[\d.]+ to -?[\d.]+)\)"


def breakable(text: str) -> Markup:
    """`text` escaped, with a line-break opportunity after each `/ _ | , ;` so a narrow
    column breaks a label where it reads (`inspect_sparc/` `mean`), never inside a word, and
    each interval kept on one line (`12.3` above `(8.1–17.9)`, never `(8.1–` above `17.9)`).

    Args:
        text: a cell's text.

    Returns:
        safe markup (`markupsafe.Markup`).
    """
    import re

    from markupsafe import Markup, escape

    def words(part: str) -> Markup:
        return Markup("<wbr>").join(escape(p) for p in re.split(r"(?<=[/_|,;])", part))

    pieces = re.split(f"({INTERVAL_TEXT})", str(text))
    return Markup("").join(
        Markup('<span class="interval">{}</span>').format(piece) if i % 2 else words(piece)
        for i, piece in enumerate(pieces)
    )


def render_page(
    sections: list[Section],
    summary: list[dict[str, Any]],
    *,
    n_logs: int,
    show_published: bool,
    rescored: bool = False,
    title: str = "SPaRC / AlgoPuzzleVQA report",
) -> str:
    """The page's HTML text.

    Args:
        sections: the sections, in page order.
        summary: one line per log or path (`build.summary_lines`).
        n_logs: the logs read.
        show_published: whether published results are shown (the page says so where not).
        rescored: whether the logs were rescored (`--rescore`).
        title: the page's title.

    Returns:
        the page's HTML text.
    """
    from jinja2 import Environment, PackageLoader, select_autoescape

    from inspect_sparc import __version__

    env = Environment(
        loader=PackageLoader("inspect_sparc.report.render", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True, default_for_string=True),
    )
    env.filters["breakable"] = breakable
    template = env.get_template("index.html.j2")
    return template.render(
        title=title,
        version=__version__,
        created=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        n_logs=n_logs,
        show_published=show_published,
        rescored=rescored,
        summary=summary,
        sections=sections,
    )
