"""Logs -> page, figures and tables: read headers, stream samples, draw, write, summarise."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.frame import LogEntry, read_headers, runs_frame, samples_frame

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

Progress = Callable[[str, int, int], None]


@dataclass
class Report:
    """What `build_report` wrote and read: paths, the frames, and one summary line per log."""

    out_dir: Path
    index: Path | None
    runs: pd.DataFrame
    samples: pd.DataFrame
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Path] = field(default_factory=dict)
    summary: list[dict[str, Any]] = field(default_factory=list)


def summary_lines(
    entries: list[LogEntry], problems: list[str], runs: pd.DataFrame, samples: pd.DataFrame
) -> list[dict[str, Any]]:
    """One line per path without logs and per log: what it is, or why it was left out."""
    lines = []
    for problem in problems:
        path, _, text = problem.partition(": ")
        lines.append({"path": path, "text": text, "problem": True})
    by_log = {row["log"]: row for row in runs.to_dict("records")} if len(runs) else {}
    counts = samples.groupby("log").size().to_dict() if len(samples) else {}
    for entry in entries:
        if entry.problem:
            lines.append({"path": entry.path, "text": entry.problem, "problem": True})
            continue
        run = by_log.get(entry.path)
        if run is None:
            continue
        held = counts.get(entry.path, run.get("samples"))
        acc = run.get("accuracy")
        text = f"{run['run']} ({run['task']} {run['task_version']}), {held} samples"
        if acc is not None and acc == acc:
            text += f", accuracy {100 * acc:.1f}%"
        if run.get("notes"):
            text += f"; {run['notes']}"
        lines.append({"path": entry.path, "text": text, "problem": not run["complete"]})
    return lines


def build_report(
    logs: str | Path | Iterable[str | Path],
    out_dir: str | Path = "sparc-report",
    *,
    published: bool = True,
    rescore: bool = False,
    progress: Progress | None = None,
) -> Report:
    """Read every log of our tasks under `logs` and write `index.html`, `figures/` and
    `tables/` to `out_dir`. Never raises on a bad log: it becomes a summary line."""
    from inspect_sparc.report import figures as F
    from inspect_sparc.report import tables as T
    from inspect_sparc.report.page import Section, figure_entry, render_page, table_entry
    from inspect_sparc.report.published import published as shipped

    out = Path(out_dir)
    entries, problems = read_headers(
        logs, progress=(lambda i, n: progress("headers", i, n)) if progress else None
    )
    if rescore:
        from inspect_sparc.report.rescore import rescore_logs

        foreign = [e for e in entries if not e.ours]
        rescored, lines = rescore_logs(entries, out / "rescored")
        entries, _ = read_headers(rescored)
        entries += foreign
        problems += lines
    runs = runs_frame(entries) if any(e.ours for e in entries) else runs_frame([])
    samples = samples_frame(
        entries,
        runs=runs,
        progress=(lambda i, n: progress("samples", i, n)) if progress else None,
        problems=problems,
    )
    if len(runs) and len(samples):
        _fill_incomplete_counts(runs, samples)
    report = Report(out, None, runs, samples)
    report.summary = summary_lines(entries, problems, runs, samples)
    sections: list[Section] = []
    if runs.empty:
        out.mkdir(parents=True, exist_ok=True)
        report.index = out / "index.html"
        report.index.write_text(
            render_page([], report.summary, n_logs=len(entries), show_published=published),
            encoding="utf-8",
        )
        return report

    fig_dir, tab_dir = out / "figures", out / "tables"
    tables = report.tables

    def add_table(
        section: Section,
        table: pd.DataFrame,
        name: str,
        caption: str,
        tex_columns: list[str] | None = None,
        published_col: str = "",
    ) -> None:
        if table is None or table.empty:
            return
        tables[name] = table
        # the log path (what tables group by) stays in the CSV; page and LaTeX show the label
        shown = table.drop(columns="log", errors="ignore")
        T.write_table(shown[tex_columns] if tex_columns else shown, name, tab_dir, caption)
        if tex_columns or "log" in table:  # the CSV keeps every column
            table.to_csv(tab_dir / f"{name}.csv", index=False)
        section.tables.append(table_entry(shown, name, caption, published_col))

    def add_figure(section: Section, fig: Any, name: str, caption: str) -> None:
        if fig is None:
            return
        paths = F.save(fig, name, fig_dir)
        report.figures[name] = paths["png"]
        section.figures.append(figure_entry(name, paths["png"], caption))

    pub_sparc = T.published_results(runs) if published else None

    results = T.results_table(runs, samples)
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
    add_table(
        s,
        results,
        "results",
        "Results per run",
        tex_columns=[c for c in T.PAPER_COLUMNS if c in results],
    )
    if pub_sparc is not None and not pub_sparc.empty:
        add_table(
            s,
            pub_sparc.assign(published=True),
            "published_sparc",
            "Published SPaRC results for the protocols above (matched by protocol and prompt)",
            published_col="published",
        )
    sections.append(s)

    levels = T.level_table(runs)
    if not levels.empty:
        s = Section(
            "levels",
            "Difficulty curves",
            "Accuracy by level (the logs' level_1..5), one panel per protocol.",
        )
        add_figure(
            s,
            F.difficulty_curves(levels, pub_sparc),
            "difficulty_curves",
            "Accuracy by difficulty level",
        )
        sections.append(s)

    rules = T.rule_table(samples)
    if not rules.empty:
        s = Section(
            "rules",
            "Accuracy by rule type",
            "Solve rate over the puzzles that contain each rule (as the Spatial-Gym "
            "rule tables); n_<rule> is the number of puzzles behind each cell.",
        )
        pub_rules = None
        if published:
            pub_rules = shipped("sparc_by_rule")
            pub_rules = pub_rules[pub_rules["protocol"].isin(set(rules["protocol"]))]
        add_figure(
            s,
            F.rule_heatmap(rules, pub_rules),
            "rule_accuracy",
            "Accuracy on puzzles containing each rule",
        )
        add_table(s, rules, "rule_accuracy", "Accuracy (%) by rule type")
        sections.append(s)

    deltas = T.delta_table(runs)
    if not deltas.empty:
        s = Section(
            "deltas",
            "Protocol deltas",
            "Per model with runs of both protocols on the same puzzles: paired only when "
            "prompt, source, split, subset, levels and the number of puzzles match (and "
            "max_steps, between two gym protocols); the latest run of each protocol is taken.",
        )
        add_figure(s, F.delta_bars(deltas), "protocol_deltas", "Protocol deltas")
        add_table(s, deltas, "protocol_deltas", "Accuracy differences in points")
        sections.append(s)

    endings = T.endings_table(runs)
    if not endings.empty:
        s = Section(
            "endings",
            "How gym and agent episodes ended",
            "From the logs' ending rates (the agent is scored by the gym scorer).",
        )
        add_figure(s, F.endings_bars(endings), "gym_endings", "How gym and agent episodes ended")
        add_table(s, endings, "gym_endings", "Episodes (%) by ending")
        sections.append(s)

    breaks = T.breaks_table(runs)
    if not breaks.empty:
        s = Section(
            "breaks",
            "Why answers failed",
            "Share of answers breaking each rule (the logs' breaks_* metrics).",
        )
        add_figure(s, F.breaks_heatmap(breaks), "rule_breaks", "Rules broken")
        add_table(s, breaks, "rule_breaks", "Answers (%) breaking each rule")
        sections.append(s)

    tokens = T.tokens_by_level(samples)
    if not tokens.empty:
        s = Section("tokens", "Tokens")
        add_figure(
            s,
            F.tokens_figure(tokens, results),
            "tokens",
            "Output tokens by level; accuracy against tokens",
        )
        add_table(s, tokens, "tokens_by_level", "Mean tokens per sample by level")
        sections.append(s)

    visual = T.visual_table(runs)
    if not visual.empty:
        s = Section("visual", "Visual")
        pub_visual = None
        if published:
            pub_visual = shipped("sparc_visual")
            pub_visual = pub_visual[pub_visual["protocol"] == "visual"]
        add_figure(s, F.visual_bars(visual, pub_visual), "visual", "Accuracy by plot type")
        add_table(s, visual, "visual", "Image runs by plot type")
        sections.append(s)

    baselines = T.baselines_table(runs, samples)
    if not baselines.empty:
        s = Section(
            "baselines",
            "Baselines",
            "Reference marks for the puzzles in these logs: baseline runs, each gym log's "
            "exact chance level, and the A* baseline and exact chance (a uniformly random "
            "legal walk of at most 100 steps solving) computed on each run's own puzzles.",
        )
        add_table(s, baselines, "baselines", "Baselines on the logged puzzles")
        sections.append(s)

    by_puzzle, by_category = T.algopuzzlevqa_table(runs)
    if not by_puzzle.empty:
        s = Section("algopuzzlevqa", "AlgoPuzzleVQA")
        pub_algo = shipped("algopuzzlevqa") if published else None
        if pub_algo is not None:
            pub_algo = pub_algo[pub_algo["setup"] != "average"]
        add_figure(
            s,
            F.algopuzzlevqa_bars(by_puzzle, pub_algo),
            "algopuzzlevqa_puzzles",
            "Accuracy per puzzle",
        )
        add_table(s, by_puzzle, "algopuzzlevqa_puzzles", "Accuracy (%) per puzzle")
        add_table(s, by_category, "algopuzzlevqa_categories", "Accuracy (%) per category")
        if published:
            add_table(
                s,
                shipped("algopuzzlevqa_by_category").assign(published=True),
                "published_algopuzzlevqa_categories",
                "Published: AlgoPuzzleVQA Table 3 (accuracy per category)",
                published_col="published",
            )
        sections.append(s)

    out.mkdir(parents=True, exist_ok=True)
    report.index = out / "index.html"
    report.index.write_text(
        render_page(
            sections,
            report.summary,
            n_logs=len(entries),
            show_published=published,
            rescored=rescore,
        ),
        encoding="utf-8",
    )
    return report


def _fill_incomplete_counts(runs: pd.DataFrame, samples: pd.DataFrame) -> None:
    """A cancelled run's header may have no results: count what its samples hold."""
    counts = samples.groupby("log").size()
    missing = runs["samples"].isna()
    if missing.any():
        runs["samples"] = runs["samples"].astype(object)
        runs.loc[missing, "samples"] = runs.loc[missing, "log"].map(counts).astype(object)
