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
    def paired(self) -> pd.DataFrame:
        """The paired comparisons (also read by the protocol deltas)."""
        from inspect_sparc.report.paired import paired_table

        return paired_table(self.runs, self.samples)

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
        page: list[list[str]] | None = None,
        transpose: bool = False,
        shown_as: pd.DataFrame | None = None,
    ) -> None:
        """Write `table` as CSV and LaTeX under `tables/` and show it in `section`: whole,
        or as the `page` column groups (each beside the first column), or `transpose`d, so
        that no table is wider than the page."""
        if table is None or table.empty:
            return
        self.tables[name] = table
        # the log path (what tables group by) stays in the CSV; page and LaTeX show the label
        shown = table.drop(columns=["log", "named"], errors="ignore")
        tex = tex_columns or [c for c in shown.columns]
        T.write_table(table, name, self.out / "tables", caption, tex_columns=tex)
        if shown_as is not None:  # the page shows another shape of the same numbers
            shown = shown_as
        parts = page or [list(shown.columns)]
        for i, columns in enumerate(parts):
            first = [] if columns[0] == shown.columns[0] else [shown.columns[0]]
            if published_col and published_col not in columns:
                columns = [*columns, published_col]
            kept = [c for c in shown.columns if c in {*first, *columns} or _folded_into(c, columns)]
            label = caption if len(parts) == 1 else f"{caption} ({i + 1} of {len(parts)})"
            entry = table_entry(shown[kept], name, label, published_col, transpose)
            section.tables.append(entry)

    def add_figure(self, section: Section, fig: Any, name: str, caption: str) -> None:
        """Write `fig` as PNG and PDF under `figures/` and show it in `section`."""
        if fig is None:
            return
        paths = F.save(fig, name, self.out / "figures")
        self.figures[name] = paths["png"]
        section.figures.append(figure_entry(name, paths["png"], caption))


def _folded_into(column: str, columns: list[str]) -> bool:
    """True for an interval or n column of one of `columns` (it is shown in that cell)."""
    from inspect_sparc.report.page import INTERVAL_OF

    for shown in columns:
        stem = INTERVAL_OF.get(shown, f"{shown}_ci95")
        if column in (f"{stem}_low", f"{stem}_high", f"n_{shown}"):
            return True
    return False


#: The results table on the page, in two parts (the CSV has every column).
RESULTS_PAGE = [
    ["run", "protocol", "n", "solved", "accuracy", "level_1", "level_2", "level_3"]
    + ["level_4", "level_5", "status"],
    ["run", "task", "version", "epochs", "reducer", "interval", "mean_steps"]
    + ["mean_path_length", "invalid_path_rate", "output_tokens_per_sample"]
    + ["reasoning_tokens_per_sample", "time_s", "notes"],
]
#: The broken-rules table on the page: path rules, then the rules of the symbols.
BREAKS_PAGE = [
    ["run", "n", "start", "end", "disconnected", "revisit", "off_grid", "gap"],
    ["run", "n", "rule_cell", "dot", "square", "star", "triangle", "polyshape"],
]

#: The paired table on the page: the counts, then the difference and the test.
PAIRED_PAGE = [
    ["run_a", "run_b", "scope", "n_a", "n_b", "n_shared", "both", "only_a", "only_b", "neither"],
    ["run_a", "run_b", "accuracy_a", "accuracy_b", "difference", "mcnemar_p", "interval"],
]

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
        "are numbered (#k), epochs are shown (xN): nothing is merged; a failed run is marked "
        "[error] or [cancelled] and numbered apart. Accuracy is the log's metric; n and the "
        "solved count come from the samples (checked: n x accuracy = solved). The 95% "
        "interval is Wilson's score interval over puzzles, and where a puzzle's epochs disagree "
        "a bootstrap over"
        "puzzles of the per-puzzle means (the interval column says which). Published rows "
        "get Wilson intervals from their own n. With several epoch reducers the reducer "
        "column names the one whose metrics are shown (mean where present)."
    )
    results = ctx.results
    caption = "Each run among the published models of its protocol (95% intervals)"
    ctx.add_figure(s, F.ranked_chart(results, ctx.pub_sparc), "ranked", caption)
    paper = [c for c in T.PAPER_COLUMNS if c in results]
    parts = [[c for c in part if c in results] for part in RESULTS_PAGE]
    ctx.add_table(s, results, "results", "Results per run", tex_columns=paper, page=parts)
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
    levels = T.level_table(ctx.runs, ctx.samples)
    if levels.empty:
        return None
    s = Section(
        "levels",
        "Difficulty curves",
        "Accuracy by level (the logs' level_1..5) with 95% intervals and the number of "
        "puzzles per level, one panel per protocol; published rows grey, named at the right "
        "(the human row, dashed, is from the SPaRC study, not the 500-puzzle split).",
    )
    fig = F.difficulty_curves(levels, ctx.pub_sparc)
    ctx.add_figure(s, fig, "difficulty_curves", "Accuracy by difficulty level")
    caption = "Accuracy (%) by level, 95% interval and n"
    ctx.add_table(s, levels, "levels", caption, shown_as=wide_levels(levels))
    return s


def wide_levels(levels: pd.DataFrame) -> pd.DataFrame:
    """The long level table as one row per run (`level_k` with its interval and n)."""
    import pandas as pd

    rows = []
    for _, group in levels.groupby("log", sort=False):
        row = {"run": group["run"].iloc[0], "protocol": group["protocol"].iloc[0]}
        for _, at in group.iterrows():
            key = f"level_{int(at['level'])}"
            row[key], row[f"n_{key}"] = at["accuracy"], at["n"]
            row[f"{key}_ci95_low"], row[f"{key}_ci95_high"] = at["ci95_low"], at["ci95_high"]
        rows.append(row)
    return pd.DataFrame(rows)


def paired_section(ctx: Context) -> Section | None:
    """Paired comparisons of runs on the same puzzles (within and across protocols)."""
    from inspect_sparc.report.comparison_figures import paired_matrix

    paired = ctx.paired
    if paired.empty:
        return None
    s = Section(
        "paired",
        "Paired comparisons",
        "Runs that share puzzles, compared puzzle by puzzle: within a protocol (same task, "
        "source, split, subset) and per model across protocols. both / only_a / only_b / "
        "neither count the shared puzzles each run solved; the difference a - b (points) has "
        "a paired 95% interval (a bootstrap over the shared puzzles, pairs kept together) and "
        "mcnemar_p is the exact McNemar test (a binomial test on the discordant puzzles). "
        "n_a, n_b and n_shared say how many puzzles each scored and share. Errored, "
        "cancelled and baseline runs are left out.",
    )
    caption = "Paired differences, row minus column (* McNemar p < 0.05)"
    ctx.add_figure(s, paired_matrix(paired), "paired_matrix", caption)
    parts = [[c for c in part if c in paired] for part in PAIRED_PAGE]
    ctx.add_table(s, paired, "paired", "Paired comparisons on shared puzzles", page=parts)
    return s


def fresh_section(ctx: Context) -> Section | None:
    """The fresh-puzzle gap: test split against generated puzzles of the same levels."""
    from inspect_sparc.report.comparison_figures import fresh_gap_figure
    from inspect_sparc.report.fresh import MEANING, fresh_gap_table

    gaps = fresh_gap_table(ctx.runs, ctx.samples)
    if gaps.empty:
        return None
    s = Section(
        "fresh",
        "Fresh-puzzle gap",
        "Per model and protocol with runs on the test split and on generated puzzles "
        "(source=generated:SEED; several seeds pool): accuracy on each per level, and the "
        "gap test - fresh with a 95% interval (a bootstrap over puzzles within each level of "
        "each set); overall, the fresh set is re-weighted to the test split's level mix. "
        + MEANING,
    )
    caption = "Test split minus fresh puzzles, per level and overall (95% intervals)"
    ctx.add_figure(s, fresh_gap_figure(gaps), "fresh_gap", caption)
    ctx.add_table(s, gaps, "fresh_gap", "Fresh-puzzle gap (points)")
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
    deltas = with_paired_interval(deltas, ctx.paired)
    published = T.published_deltas(ctx.runs) if ctx.published else None
    fig = F.delta_bars(deltas, published)
    ctx.add_figure(s, fig, "protocol_deltas", "Protocol deltas (paired 95% intervals)")
    ctx.add_table(s, deltas, "protocol_deltas", "Accuracy differences in points")
    return s


def with_paired_interval(deltas: pd.DataFrame, paired: pd.DataFrame) -> pd.DataFrame:
    """Deltas with the paired 95% interval of the two runs (from the paired table, its sign
    turned when the pair was formed the other way round)."""
    lows, highs = [], []
    index = {}
    if not paired.empty:
        for _, row in paired.iterrows():
            low, high = row["diff_ci95_low"], row["diff_ci95_high"]
            index[(row["run_a"], row["run_b"])] = (low, high)
            index[(row["run_b"], row["run_a"])] = (-high, -low)
    for a, b in zip(deltas["run_a"], deltas["run_b"], strict=True):
        low, high = index.get((a, b), (None, None))
        lows.append(low)
        highs.append(high)
    return deltas.assign(ci95_low=lows, ci95_high=highs)


def endings_section(ctx: Context) -> Section | None:
    """How gym and agent episodes ended."""
    from inspect_sparc.report.comparison_figures import backtracking_figure

    endings = T.endings_table(ctx.runs, ctx.samples)
    if endings.empty:
        return None
    s = Section(
        "endings",
        "How gym and agent episodes ended",
        "From the logs' ending rates (the agent is scored by the gym scorer), with 95% "
        "intervals; then how the runs acted: the logs' illegal-action and unparseable-move "
        "rates (per step), tool calls per episode and the share of agent turns without a tool "
        "call, and the backtracking ratio of Spatial-Gym's Figure 5 (the median of steps "
        "taken / path edges over the episodes that reached E with path edges > 0 and fewer "
        "steps than the limit; 1 means no step was undone).",
    )
    title = "How gym and agent episodes ended"
    ctx.add_figure(s, F.endings_bars(endings), "gym_endings", title)
    ctx.add_table(s, endings, "gym_endings", "Episodes (%) by ending, 95% intervals")
    behaviour = T.behaviour_table(ctx.runs, ctx.samples)
    fig = backtracking_figure(behaviour)
    ctx.add_figure(s, fig, "backtracking_ratio", "Backtracking ratio per run")
    ctx.add_table(s, behaviour, "gym_behaviour", "How gym and agent runs acted")
    return s


def breaks_section(ctx: Context) -> Section | None:
    """Share of answers breaking each rule."""
    breaks = T.breaks_table(ctx.runs, ctx.samples)
    if breaks.empty:
        return None
    s = Section(
        "breaks",
        "Why answers failed",
        "Share of answers breaking each rule (the logs' breaks_* metrics), with 95% "
        "intervals from the samples.",
    )
    ctx.add_figure(s, F.breaks_heatmap(breaks), "rule_breaks", "Rules broken")
    parts = [[c for c in part if c in breaks] for part in BREAKS_PAGE]
    ctx.add_table(s, breaks, "rule_breaks", "Answers (%) breaking each rule", page=parts)
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
    visual = T.visual_table(ctx.runs, ctx.samples)
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
        "legal walk solving) computed on each run's own puzzles at its own max_steps and "
        "traceback (the gym's default limit for runs without steps; no exact chance with "
        "traceback). Errored and cancelled runs donate no row.",
    )
    ctx.add_table(s, baselines, "baselines", "Baselines on the logged puzzles")
    return s


def algopuzzlevqa_section(ctx: Context) -> Section | None:
    """AlgoPuzzleVQA per puzzle and per category, with the paper's Tables 2 and 3."""
    by_puzzle, by_category = T.algopuzzlevqa_table(ctx.runs, ctx.samples)
    if by_puzzle.empty:
        return None
    s = Section("algopuzzlevqa", "AlgoPuzzleVQA")
    pub_algo = ctx.shipped("algopuzzlevqa")
    if pub_algo is not None:
        pub_algo = pub_algo[pub_algo["setup"] != "average"]
    fig = F.algopuzzlevqa_bars(by_puzzle, pub_algo)
    ctx.add_figure(s, fig, "algopuzzlevqa_puzzles", "Accuracy per puzzle")
    caption = "Accuracy (%) per puzzle, one column per run"
    ctx.add_table(s, by_puzzle, "algopuzzlevqa_puzzles", caption, transpose=True)
    caption = "Accuracy (%) per category, one column per run"
    ctx.add_table(s, by_category, "algopuzzlevqa_categories", caption, transpose=True)
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
    Spec("paired", paired_section, ("samples",)),
    Spec("fresh", fresh_section, ("samples",)),
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
