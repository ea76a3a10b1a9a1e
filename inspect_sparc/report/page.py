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

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


@dataclass
class Section:
    """One part of the page: a title, a line of text, figures and tables."""

    id: str
    title: str
    text: str = ""
    figures: list[dict[str, str]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)


def figure_entry(name: str, png: Path, caption: str) -> dict[str, str]:
    """A figure for the template: its PNG inlined (the page needs no other file)."""
    data = base64.b64encode(Path(png).read_bytes()).decode("ascii")
    return {"name": name, "data": data, "alt": caption, "caption": caption}


def table_entry(table: pd.DataFrame, name: str, caption: str, published_col: str = "") -> dict:
    """A table for the template: cells as text (numbers to one decimal), rows marked published."""
    columns = [c for c in table.columns if c != published_col]
    rows = []
    for _, row in table.iterrows():
        rows.append(
            {
                "published": bool(row.get(published_col)) if published_col else False,
                "cells": [cell_text(row[c], count=c in COUNT_COLUMNS) for c in columns],
            }
        )
    return {"name": name, "caption": caption, "columns": columns, "rows": rows}


#: Columns of counts: shown as whole numbers (pandas stores them as floats beside missing values).
COUNT_COLUMNS = frozenset({"n", "epochs"})


def cell_text(value: Any, count: bool = False) -> str:
    """A table cell: counts as integers, other floats to one decimal, missing values as a dash."""
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.0f}" if count and value.is_integer() else f"{value:.1f}"
    return str(value)


def render_page(
    sections: list[Section],
    summary: list[dict[str, Any]],
    *,
    n_logs: int,
    show_published: bool,
    rescored: bool = False,
    title: str = "SPaRC / AlgoPuzzleVQA report",
) -> str:
    """The page's HTML text."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    from inspect_sparc import __version__

    env = Environment(
        loader=PackageLoader("inspect_sparc.report", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True, default_for_string=True),
    )
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
