"""Why answers failed: the share of answers breaking each rule, per SPaRC run, with
intervals, as a table and a heat map."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.drawing import heatmap, most_accurate_first
from inspect_sparc.report.intervals import ci_fields, puzzle_values
from inspect_sparc.report.page import Section
from inspect_sparc.report.read.runs import SPARC_TASKS
from inspect_sparc.report.read.samples import BREAK_RULES
from inspect_sparc.report.tabulate import pct, per_log

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


def breaks_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of answers (%) breaking each rule, per SPaRC run, from the logs' `breaks_*`,
    each with its 95% interval from the samples' `breaks_*` values."""
    import pandas as pd

    keys = [K.breaks_key(rule) for rule in BREAK_RULES]
    outcomes = puzzle_values(samples, keys)
    by_log = per_log(outcomes)
    rows = []
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        values = {rule: pct(run.get(K.breaks_key(rule))) for rule in BREAK_RULES}
        if all(v is None for v in values.values()):
            continue
        row: dict[str, Any] = {"run": run["run"], "protocol": run["protocol"], **values}
        group = by_log.get(run["log"])
        if group is not None:
            for rule in BREAK_RULES:
                ci = ci_fields(group[K.breaks_key(rule)], rule)
                row["n"] = ci.pop(f"n_{rule}")
                row.update(ci)
        rows.append(row)
    return pd.DataFrame(rows)


def breaks_heatmap(breaks: pd.DataFrame, runs: pd.DataFrame | None = None) -> Figure | None:
    """Share of answers breaking each rule, per run (with intervals; most accurate first where
    `runs` gives their accuracy)."""
    if breaks.empty:
        return None
    rows = breaks if runs is None else most_accurate_first(breaks, runs)
    return heatmap(rows, BREAK_RULES, "Why answers failed: rules broken", "answers (%)")


#: The broken-rules table on the page: path rules, then the rules of the symbols.
BREAKS_PAGE = [
    ["run", "n", "start", "end", "disconnected", "revisit", "off_grid", "gap"],
    ["run", "n", "rule_cell", "dot", "square", "star", "triangle", "polyshape"],
]


def breaks_section(ctx: Context) -> Section | None:
    """Share of answers breaking each rule."""
    breaks = breaks_table(ctx.runs, ctx.samples)
    if breaks.empty:
        return None
    s = Section(
        "breaks",
        "Why answers failed",
        "Share of answers breaking each rule (the logs' breaks_* metrics), with 95% "
        "intervals from the samples.",
    )
    ctx.add_figure(s, breaks_heatmap(breaks, ctx.runs), "rule_breaks", "Rules broken")
    parts = [[c for c in part if c in breaks] for part in BREAKS_PAGE]
    ctx.add_table(s, breaks, "rule_breaks", "Answers (%) breaking each rule", page=parts)
    return s


SPEC = Spec("breaks", breaks_section)
