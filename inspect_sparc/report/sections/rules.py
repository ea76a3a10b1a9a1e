"""Accuracy by rule type: the solve rate over the puzzles containing each rule kind, as the
Spatial-Gym rule tables, beside their published rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.rules import published_of, rule_table, with_published_rows
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.read.puzzles import RULE_COLUMNS
from inspect_sparc.report.render.figures import heatmap, most_accurate_first
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


def rule_heatmap(
    rules: pd.DataFrame, published: pd.DataFrame | None, runs: pd.DataFrame | None = None
) -> Figure | None:
    """Accuracy over the puzzles containing each rule: runs (with intervals; most accurate
    first where `runs` gives their accuracy), then the published rows.

    Args:
        rules: the rule table (`analysis.rules.rule_table`).
        published: the published per-rule rows of the same protocols, or None.
        runs: the runs frame, to order the runs by accuracy (None: the table's order).

    Returns:
        the figure, or None without rows.
    """
    if rules.empty:
        return None
    ordered = rules if runs is None else most_accurate_first(rules, runs)
    table = with_published_rows(ordered, published)
    return heatmap(table, RULE_COLUMNS, "Accuracy on puzzles containing each rule", "accuracy (%)")


def rules_section(ctx: Context) -> Section | None:
    """Accuracy over the puzzles containing each rule kind, with the Spatial-Gym rule tables.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
    rules = rule_table(ctx.samples)
    if rules.empty:
        return None
    s = Section(
        "rules",
        "Accuracy by rule type",
        "Solve rate over the puzzles that contain each rule (as the Spatial-Gym "
        "rule tables); n_<rule> is the number of puzzles behind each cell.",
    )
    pub_rules = published_of(ctx.shipped("sparc_by_rule"), rules)
    fig = rule_heatmap(rules, pub_rules, ctx.runs)
    ctx.add_figure(s, fig, "rule_accuracy", "Accuracy on puzzles containing each rule")
    ctx.add_table(s, rules, "rule_accuracy", "Accuracy (%) by rule type")
    return s


SPEC = Spec("rules", rules_section, ("samples",))
