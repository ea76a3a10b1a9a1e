"""Accuracy by rule type: per SPaRC run, accuracy over the puzzles that contain each rule kind,
with the number of puzzles and the 95% interval (each sample's epochs averaged first)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.puzzles import RULE_COLUMNS
from inspect_sparc.report.read.runs import SPARC_TASKS
from inspect_sparc.report.statistics.rates import ci_fields
from inspect_sparc.report.table_values import sample_means

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def rule_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) over the puzzles that contain each rule kind, per SPaRC run (as the
    Spatial-Gym rule tables), with the number of puzzles behind each cell."""
    import pandas as pd

    sparc = samples[samples[C.TASK].isin(SPARC_TASKS)] if not samples.empty else samples
    if sparc.empty:
        return pd.DataFrame()
    flags = [f"has_{k}" for k in RULE_COLUMNS]
    per_sample = sample_means(sparc, [C.PROTOCOL, C.MODEL, *flags], [K.CORRECT])
    rows = []
    for _, group in per_sample.groupby(C.LOG, sort=False):
        scored = group.dropna(subset=[K.CORRECT])
        if scored.empty:  # an errored run: no sample scored, nothing to show per rule
            continue
        row: dict[str, Any] = {
            C.RUN: group[C.RUN].iloc[0],
            C.PROTOCOL: group[C.PROTOCOL].iloc[0],
            C.MODEL: group[C.MODEL].iloc[0],
        }
        for kind in RULE_COLUMNS:
            having = scored[scored[f"has_{kind}"] == True]  # noqa: E712 - pandas mask
            row[kind] = 100 * having[K.CORRECT].mean() if len(having) else None
            row.update(ci_fields(having[K.CORRECT], kind))
        rows.append(row)
    return pd.DataFrame(rows)
