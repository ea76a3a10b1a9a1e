"""The report's sections as data: `SECTIONS` lists (name, builder, what it needs), and
`build_report` walks it in order. Adding a table is one `Spec` entry and one builder here.

A builder takes the `Context` (the frames, the shipped published rows and the writers) and
returns its `Section`, or None when the logs hold nothing it shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.report import figures as F
from inspect_sparc.report import tables as T
from inspect_sparc.report.page import Section, figure_entry, table_entry

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
        """The results table (also read by the tokens figure)."""
        return T.results_table(self.runs, self.samples)

    @cached_property
    def pub_sparc(self) -> pd.DataFrame | None:
        """The published SPaRC rows for the protocols present (None with `--no-published`)."""
        return T.published_results(self.runs) if self.published else None

    def shipped(self, name: str) -> pd.DataFrame | None:
        """A shipped published table, or None with `--no-published`."""
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
    ) -> None:
        """Write `table` as CSV and LaTeX under `tables/` and show it in `section`."""
        if table is None or table.empty:
            return
        tab_dir = self.out / "tables"
        self.tables[name] = table
        # the log path (what tables group by) stays in the CSV; page and LaTeX show the label
        shown = table.drop(columns="log", errors="ignore")
        T.write_table(shown[tex_columns] if tex_columns else shown, name, tab_dir, caption)
        if tex_columns or "log" in table:  # the CSV keeps every column
            table.to_csv(tab_dir / f"{name}.csv", index=False)
        section.tables.append(table_entry(shown, name, caption, published_col))

    def add_figure(self, section: Section, fig: Any, name: str, caption: str) -> None:
        """Write `fig` as PNG and PDF under `figures/` and show it in `section`."""
        if fig is None:
            return
        paths = F.save(fig, name, self.out / "figures")
        self.figures[name] = paths["png"]
        section.figures.append(figure_entry(name, paths["png"], caption))


Builder = Callable[[Context], "Section | None"]


@dataclass(frozen=True)
class Spec:
    """One section: its name, the function that builds it, and the frames it needs (the
    section is skipped when one of them is empty)."""

    name: str
    builder: Builder
    needs: tuple[str, ...] = ("runs",)


def results_section(ctx: Context) -> Section:
    """Results per run, and the published rows of the same protocols."""
    s = Section("results", "Results per run")
    s.text = (
        "One row per log (model x task x settings); every table and figure keeps logs "
        "apart, whatever their labels. Settings that differ between runs of one model and "
        "task (source, split, subset, levels ...) are named in the label, repeated labels "
        "are numbered (#k), epochs are shown (xN): nothing is merged. The 95% interval is "
        "accuracy ± 1.96 x the log's stderr, clipped to 0-100. With several epoch reducers "
        "the reducer column names the one whose metrics are shown (mean where present, the "
        "reducer the tables counted from samples use)."
    )
    results = ctx.results
    paper = [c for c in T.PAPER_COLUMNS if c in results]
    ctx.add_table(s, results, "results", "Results per run", tex_columns=paper)
    pub = ctx.pub_sparc
    if pub is not None and not pub.empty:
        ctx.add_table(
            s,
            pub.assign(published=True),
            "published_sparc",
            "Published SPaRC results for the protocols above (matched by protocol and prompt)",
            published_col="published",
        )
    return s


def levels_section(ctx: Context) -> Section | None:
    """Difficulty curves: accuracy by level, one panel per protocol."""
    levels = T.level_table(ctx.runs)
    if levels.empty:
        return None
    s = Section(
        "levels",
        "Difficulty curves",
        "Accuracy by level (the logs' level_1..5), one panel per protocol.",
    )
    fig = F.difficulty_curves(levels, ctx.pub_sparc)
    ctx.add_figure(s, fig, "difficulty_curves", "Accuracy by difficulty level")
    return s


def rules_section(ctx: Context) -> Section | None:
    """Accuracy over the puzzles containing each rule kind, with the Spatial-Gym rule tables."""
    rules = T.rule_table(ctx.samples)
    if rules.empty:
        return None
    s = Section(
        "rules",
        "Accuracy by rule type",
        "Solve rate over the puzzles that contain each rule (as the Spatial-Gym "
        "rule tables); n_<rule> is the number of puzzles behind each cell.",
    )
    pub_rules = ctx.shipped("sparc_by_rule")
    if pub_rules is not None:
        pub_rules = pub_rules[pub_rules["protocol"].isin(set(rules["protocol"]))]
    fig = F.rule_heatmap(rules, pub_rules)
    ctx.add_figure(s, fig, "rule_accuracy", "Accuracy on puzzles containing each rule")
    ctx.add_table(s, rules, "rule_accuracy", "Accuracy (%) by rule type")
    return s


def deltas_section(ctx: Context) -> Section | None:
    """Protocol deltas per model, between runs on the same puzzles."""
    deltas = T.delta_table(ctx.runs)
    if deltas.empty:
        return None
    s = Section(
        "deltas",
        "Protocol deltas",
        "Per model with runs of both protocols on the same puzzles: paired only when "
        "prompt, source, split, subset, levels and the number of puzzles match (and "
        "max_steps, between two gym protocols); the latest run of each protocol is taken.",
    )
    ctx.add_figure(s, F.delta_bars(deltas), "protocol_deltas", "Protocol deltas")
    ctx.add_table(s, deltas, "protocol_deltas", "Accuracy differences in points")
    return s


def endings_section(ctx: Context) -> Section | None:
    """How gym and agent episodes ended."""
    endings = T.endings_table(ctx.runs)
    if endings.empty:
        return None
    s = Section(
        "endings",
        "How gym and agent episodes ended",
        "From the logs' ending rates (the agent is scored by the gym scorer).",
    )
    title = "How gym and agent episodes ended"
    ctx.add_figure(s, F.endings_bars(endings), "gym_endings", title)
    ctx.add_table(s, endings, "gym_endings", "Episodes (%) by ending")
    return s


def breaks_section(ctx: Context) -> Section | None:
    """Share of answers breaking each rule."""
    breaks = T.breaks_table(ctx.runs)
    if breaks.empty:
        return None
    s = Section(
        "breaks",
        "Why answers failed",
        "Share of answers breaking each rule (the logs' breaks_* metrics).",
    )
    ctx.add_figure(s, F.breaks_heatmap(breaks), "rule_breaks", "Rules broken")
    ctx.add_table(s, breaks, "rule_breaks", "Answers (%) breaking each rule")
    return s


def tokens_section(ctx: Context) -> Section | None:
    """Output tokens by level, and accuracy against tokens."""
    tokens = T.tokens_by_level(ctx.samples)
    if tokens.empty:
        return None
    s = Section("tokens", "Tokens")
    caption = "Output tokens by level; accuracy against tokens"
    ctx.add_figure(s, F.tokens_figure(tokens, ctx.results), "tokens", caption)
    ctx.add_table(s, tokens, "tokens_by_level", "Mean tokens per sample by level")
    return s


def visual_section(ctx: Context) -> Section | None:
    """Image runs by plot type, with the published visual runs."""
    visual = T.visual_table(ctx.runs)
    if visual.empty:
        return None
    s = Section("visual", "Visual")
    pub_visual = ctx.shipped("sparc_visual")
    if pub_visual is not None:
        pub_visual = pub_visual[pub_visual["protocol"] == "visual"]
    ctx.add_figure(s, F.visual_bars(visual, pub_visual), "visual", "Accuracy by plot type")
    ctx.add_table(s, visual, "visual", "Image runs by plot type")
    return s


def baselines_section(ctx: Context) -> Section | None:
    """Baseline runs, chance levels and A* on each run's own puzzles."""
    baselines = T.baselines_table(ctx.runs, ctx.samples)
    if baselines.empty:
        return None
    s = Section(
        "baselines",
        "Baselines",
        "Reference marks for the puzzles in these logs: baseline runs, each gym log's "
        "exact chance level, and the A* baseline and exact chance (a uniformly random "
        "legal walk of at most 100 steps solving) computed on each run's own puzzles.",
    )
    ctx.add_table(s, baselines, "baselines", "Baselines on the logged puzzles")
    return s


def algopuzzlevqa_section(ctx: Context) -> Section | None:
    """AlgoPuzzleVQA per puzzle and per category, with the paper's Tables 2 and 3."""
    by_puzzle, by_category = T.algopuzzlevqa_table(ctx.runs)
    if by_puzzle.empty:
        return None
    s = Section("algopuzzlevqa", "AlgoPuzzleVQA")
    pub_algo = ctx.shipped("algopuzzlevqa")
    if pub_algo is not None:
        pub_algo = pub_algo[pub_algo["setup"] != "average"]
    fig = F.algopuzzlevqa_bars(by_puzzle, pub_algo)
    ctx.add_figure(s, fig, "algopuzzlevqa_puzzles", "Accuracy per puzzle")
    ctx.add_table(s, by_puzzle, "algopuzzlevqa_puzzles", "Accuracy (%) per puzzle")
    ctx.add_table(s, by_category, "algopuzzlevqa_categories", "Accuracy (%) per category")
    pub_categories = ctx.shipped("algopuzzlevqa_by_category")
    if pub_categories is not None:
        ctx.add_table(
            s,
            pub_categories.assign(published=True),
            "published_algopuzzlevqa_categories",
            "Published: AlgoPuzzleVQA Table 3 (accuracy per category)",
            published_col="published",
        )
    return s


#: The page's sections, in order: (name, builder, the frames it needs).
SECTIONS: tuple[Spec, ...] = (
    Spec("results", results_section),
    Spec("levels", levels_section),
    Spec("rules", rules_section, ("samples",)),
    Spec("deltas", deltas_section),
    Spec("endings", endings_section),
    Spec("breaks", breaks_section),
    Spec("tokens", tokens_section, ("samples",)),
    Spec("visual", visual_section),
    Spec("baselines", baselines_section),
    Spec("algopuzzlevqa", algopuzzlevqa_section),
)


def build_sections(ctx: Context, specs: tuple[Spec, ...] = SECTIONS) -> list[Section]:
    """Walk `specs` in order: each builder whose frames are not empty, each section it made."""
    sections = []
    for spec in specs:
        if any(getattr(ctx, need).empty for need in spec.needs):
            continue
        section = spec.builder(ctx)
        if section is not None:
            sections.append(section)
    return sections
