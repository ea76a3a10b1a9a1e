"""What a section is built from and writes to: the `Context` every section builder reads (the
frames, the shipped published rows, the analysis tables two sections share) and its two writers, and
the `Spec` that registers a section in `contents.SECTIONS`.

A builder takes the `Context` and returns its `Section`, or None when the logs hold nothing it
shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.columns import Column, Specs, declared, spec_of
from inspect_sparc.report.render.figures import save
from inspect_sparc.report.render.page import Section, figure_entry, table_entry
from inspect_sparc.report.render.table_files import write_table

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


@dataclass
class Context:
    """What every builder may read (frames, settings) and the two writers it uses."""

    runs: pd.DataFrame
    samples: pd.DataFrame
    published: bool
    out: Path
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Path] = field(default_factory=dict)

    @cached_property
    def results(self) -> pd.DataFrame:
        """The results table (`analysis.results`) with each run against the published
        accuracy of its own model (`vs_published`), made once: the results and the tokens
        sections read it.

        Returns:
            one row per run (`analysis.results.results_table` and `vs_published`).
        """
        from inspect_sparc.report.analysis.results import results_table, vs_published

        return vs_published(results_table(self.runs, self.samples), self.against_published)

    @cached_property
    def against_published(self) -> pd.DataFrame:
        """Each run on test puzzles against every published row of its protocol
        (`analysis.unpaired`), made once: the results table's `vs_published` and the unpaired
        section read it (empty without samples or with `--no-published`).

        Returns:
            one row per run and published row (`analysis.unpaired.published_table`).
        """
        import pandas as pd

        from inspect_sparc.report.analysis.unpaired import published_table

        if self.samples.empty:
            return pd.DataFrame()
        return published_table(self.runs, self.samples, self.pub_sparc)

    @cached_property
    def paired(self) -> pd.DataFrame:
        """The paired comparisons (`analysis.paired`), made once: the paired and the protocol
        deltas sections read them.

        Returns:
            one row per pair of runs sharing puzzles (`analysis.paired.paired_table`).
        """
        from inspect_sparc.report.analysis.paired import paired_table

        return paired_table(self.runs, self.samples)

    @cached_property
    def pub_sparc(self) -> pd.DataFrame | None:
        """The published SPaRC rows for the protocols present (None with `--no-published`).

        Returns:
            the published rows, or None.
        """
        from inspect_sparc.report.published import published_results

        return published_results(self.runs) if self.published else None

    def shipped(self, name: str) -> pd.DataFrame | None:
        """A shipped published table, or None with `--no-published`.

        Args:
            name: the table's name under the shipped published results (`sparc_visual`, ...).

        Returns:
            the table, or None.
        """
        from inspect_sparc.report.published import published

        return published(name) if self.published else None

    def add_table(
        self,
        section: Section,
        table: pd.DataFrame | None,
        name: str,
        caption: str,
        tex_columns: list[str] | None = None,
        published_col: str = "",
        page: list[list[str]] | None = None,
        transpose: bool = False,
        shown_as: pd.DataFrame | None = None,
        columns: Sequence[Column] = (),
    ) -> None:
        """Write `table` as CSV and LaTeX under `tables/` and show it in `section`: whole,
        or as the `page` column groups (each beside the first column), or `transpose`d, so
        that no table is wider than the page; every number formatted and every header
        labelled by its column's spec.

        Args:
            section: the section the table is shown in.
            table: the table as computed (None or empty: nothing is written or shown).
            name: its file name under `tables/` (without suffix); also the key in `tables`.
            caption: the line above it on the page and its LaTeX caption.
            tex_columns: the columns the LaTeX table sets (None: every column shown).
            published_col: a boolean column marking published rows ("" for none).
            page: the page's column groups, one table each (None: one table of every column).
            transpose: one page column per row (for few rows of many columns).
            shown_as: another shape of the same numbers for the page (None: `table`).
            columns: the columns whose label, format or interval differs from their default
                (`render.columns.column_spec`).
        """
        if table is None or table.empty:
            return
        self.tables[name] = table
        specs = declared(columns)
        # the log path (what tables group by) stays in the CSV; page and LaTeX show the label
        shown = table.drop(columns=[C.LOG, "named"], errors="ignore")
        tex = tex_columns or [c for c in shown.columns]
        write_table(table, name, self.out / "tables", caption, tex_columns=tex, specs=specs)
        if shown_as is not None:  # the page shows another shape of the same numbers
            shown = shown_as
        parts = page or [list(shown.columns)]
        for i, part in enumerate(parts):
            first = [] if part[0] == shown.columns[0] else [shown.columns[0]]
            if published_col and published_col not in part:
                part = [*part, published_col]
            kept = [
                c for c in shown.columns if c in {*first, *part} or _folded_into(c, part, specs)
            ]
            label = caption if len(parts) == 1 else f"{caption} ({i + 1} of {len(parts)})"
            entry = table_entry(shown[kept], name, label, published_col, transpose, specs)
            section.tables.append(entry)

    def add_published_table(
        self, section: Section, table: pd.DataFrame | None, name: str, caption: str
    ) -> None:
        """Show shipped published rows as a table of their own, every row marked published
        (muted on the page), as `add_table` writes and shows any table.

        Args:
            section: the section the table is shown in.
            table: the published rows (None or empty: nothing is written or shown).
            name: its file name under `tables/` (without suffix); also the key in `tables`.
            caption: the line above it on the page and its LaTeX caption.
        """
        if table is None or table.empty:
            return
        marked = table.assign(published=True)
        self.add_table(section, marked, name, caption, published_col="published")

    def add_figure(self, section: Section, fig: Any, name: str, caption: str) -> None:
        """Write `fig` as PNG and PDF under `figures/` and show it in `section`.

        Args:
            section: the section the figure is shown in.
            fig: a matplotlib figure, or None (nothing is written).
            name: its file name under `figures/` (without suffix); also the key in `figures`.
            caption: its caption and alt text on the page.
        """
        if fig is None:
            return
        paths = save(fig, name, self.out / "figures")
        self.figures[name] = paths["png"]
        section.figures.append(figure_entry(name, paths["png"], caption))


def _folded_into(column: str, columns: list[str], specs: Specs) -> bool:
    """True for an interval or n column of one of `columns` (it is shown in that cell)."""
    for shown in columns:
        stem = spec_of(shown, specs).interval
        if column in (f"{stem}_low", f"{stem}_high", f"n_{shown}"):
            return True
    return False


#: A section builder: the context in, its section out (None: nothing to show).
Builder = Callable[[Context], "Section | None"]


@dataclass(frozen=True)
class Spec:
    """One section: its name, the function that builds it, and the frames it needs (the
    section is skipped when one of them is empty)."""

    name: str
    builder: Builder
    needs: tuple[str, ...] = ("runs",)
