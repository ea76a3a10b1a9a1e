"""Tables to files: CSV rounded to what each number means, and booktabs LaTeX with text
escaped once (as the papers set their tables)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspect_sparc.report.render.columns import DIFFERENCE_INTERVALS, Specs, spec_of

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def whole_when_integral(value: object) -> object:
    """`value` as an int when it is a whole number, else rounded to 2 decimals.

    Args:
        value: a cell's value.

    Returns:
        the int, the rounded float, or `value` itself where it is no float or NaN.
    """
    if isinstance(value, float) and value == value:
        return int(value) if value.is_integer() else round(value, 2)
    return value


def csv_frame(table: pd.DataFrame, specs: Specs | None = None) -> pd.DataFrame:
    """`table` rounded to what its numbers mean, by each column's spec: rates to 0.1, p-values
    to 3 significant digits (never rounded across 0.05), ratios to 0.01, counts exact, a
    difference's interval that excludes 0 with the digits that show it (the in-memory tables
    keep every digit).

    Args:
        table: the table as computed.
        specs: the table's declared columns by name (None: every column its default).

    Returns:
        the rounded copy.
    """
    from inspect_sparc.report.statistics.score_intervals import format_p

    out = table.copy()
    ends = interval_ends(table)
    for column in out.select_dtypes("number").columns:
        if out[column].dtype == bool:
            continue
        fmt = spec_of(column, specs).format
        if column in ends:
            out[column] = ends[column].astype(float)
        elif fmt == "count":
            out[column] = out[column].round().astype("Int64")
        elif fmt == "whole_when_integral":
            out[column] = out[column].astype(float).map(whole_when_integral).astype(object)
        elif fmt == "p":
            out[column] = out[column].map(
                lambda v: float(format_p(v, 3)) if v == v and v > 0 else v
            )
        else:
            out[column] = out[column].round(2 if fmt == "ratio" else 1)
    return out


def interval_ends(table: pd.DataFrame) -> dict[str, pd.Series]:
    """Per end column of a difference's interval: its ends as text, to 0.1 or, where the
    interval excludes 0, to the digits that keep both ends off 0 (`stats.format_interval`).

    Args:
        table: the table as computed.

    Returns:
        end column -> its ends as text (None where unknown), for each difference interval the table
        has.
    """
    import pandas as pd

    from inspect_sparc.report.statistics.score_intervals import format_interval

    ends: dict[str, pd.Series] = {}
    for stem in DIFFERENCE_INTERVALS:
        low, high = f"{stem}_low", f"{stem}_high"
        if low not in table or high not in table:
            continue
        texts = [
            format_interval(lo, hi, scale=1.0).split(" to ") if lo == lo and hi == hi else ["", ""]
            for lo, hi in zip(table[low].astype(float), table[high].astype(float), strict=True)
        ]
        ends[low] = pd.Series([t[0] or None for t in texts], index=table.index, dtype=object)
        ends[high] = pd.Series([t[1] or None for t in texts], index=table.index, dtype=object)
    return ends


def write_table(
    table: pd.DataFrame,
    name: str,
    out_dir: Path,
    caption: str = "",
    tex_columns: list[str] | None = None,
    specs: Specs | None = None,
) -> list[Path]:
    """Write `table` as CSV (rounded: `csv_frame`) and as a booktabs LaTeX table (as the
    papers set them), each number formatted by its column's spec.

    Args:
        table: the table as computed.
        name: the files' name (`<name>.csv`, `<name>.tex`).
        out_dir: the folder written to (made if missing).
        caption: the LaTeX table's caption ("" for none).
        tex_columns: the columns the LaTeX table sets (None: all).
        specs: the table's declared columns by name (None: every column its default).

    Returns:
        the paths written, CSV first.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    csv = out_dir / f"{name}.csv"
    csv_frame(table, specs).to_csv(csv, index=False)
    if tex_columns:
        table = table[tex_columns]
    written = [csv]
    tex = out_dir / f"{name}.tex"
    numeric = table.select_dtypes("number").columns
    # text cells escaped by pandas in one pass (`\\ & % $ # _ { } ~ ^`), then the rates
    # formatted (numbers need no escaping); column names (`mean_steps`, `n_dot`) escaped too
    from inspect_sparc.report.statistics.score_intervals import format_p

    fmts = {c: spec_of(c, specs).format for c in table.columns}
    texts = {c: table[c].map(lambda v: format_p(v) or None) for c in numeric if fmts[c] == "p"}
    texts |= {c: v for c, v in interval_ends(table).items() if c in table}
    table = table.assign(**texts)  # p-values and differences' ends as the page prints them
    numeric = table.select_dtypes("number").columns
    styler = table.style.hide(axis="index").format(na_rep="--", escape="latex")
    rates = [c for c in numeric if fmts[c] not in ("count", "whole_when_integral")]
    counts = [c for c in numeric if fmts[c] == "count"]
    wholes = [c for c in numeric if fmts[c] == "whole_when_integral"]
    if rates:
        styler = styler.format("{:.1f}", subset=rates, na_rep="--")
    if counts:
        styler = styler.format("{:.0f}", subset=counts, na_rep="--")
    if wholes:
        styler = styler.format(
            lambda v: str(whole_when_integral(float(v))), subset=wholes, na_rep="--"
        )
    styler = styler.format_index(escape="latex", axis=1)
    text = styler.to_latex(
        hrules=True,
        caption=_latex_escape(caption) if caption else None,
        label=f"tab:{name}",
    )
    tex.write_text(text, encoding="utf-8")
    written.append(tex)
    return written


#: LaTeX's special characters and what stands for each in text.
LATEX_SPECIAL = {
    "\\": r"\textbackslash ",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde ",
    "^": r"\textasciicircum ",
}


def _latex_escape(text: str) -> str:
    """Text with LaTeX's special characters escaped in one pass (a replacement is never
    escaped again), as pandas' `escape="latex"` escapes the cells."""
    import re

    return re.sub(r"[\\&%$#_{}~^]", lambda m: LATEX_SPECIAL[m.group()], text)
