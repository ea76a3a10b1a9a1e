"""Rule breaks per run: the share of answers breaking each rule (the log's `breaks_<rule>`), with
n and the 95% interval over puzzles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.runs import SPARC_TASKS
from inspect_sparc.report.read.samples import BREAK_RULES
from inspect_sparc.report.statistics.rates import ci_fields, puzzle_values
from inspect_sparc.report.table_values import pct, per_log

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def breaks_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of answers (%) breaking each rule, per SPaRC run, from the logs' `breaks_*`,
    each with its 95% interval from the samples' `breaks_*` values.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per SPaRC run: `n` and each rule's share of answers breaking it (percent) with its
        interval columns; empty without such runs.
    """
    import pandas as pd

    keys = [K.breaks_key(rule) for rule in BREAK_RULES]
    outcomes = puzzle_values(samples, keys)
    by_log = per_log(outcomes)
    rows = []
    for _, run in runs[runs[C.TASK].isin(SPARC_TASKS)].iterrows():
        values = {rule: pct(run.get(K.breaks_key(rule))) for rule in BREAK_RULES}
        if all(v is None for v in values.values()):
            continue
        row: dict[str, Any] = {C.RUN: run[C.RUN], C.PROTOCOL: run[C.PROTOCOL], **values}
        group = by_log.get(run[C.LOG])
        if group is not None:
            for rule in BREAK_RULES:
                ci = ci_fields(group[K.breaks_key(rule)], rule)
                row["n"] = ci.pop(f"n_{rule}")
                row.update(ci)
        rows.append(row)
    return pd.DataFrame(rows)
