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
    Spatial-Gym rule tables), with the number of puzzles behind each cell.

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        one row per scored SPaRC run: each rule's accuracy (percent) with `n_<rule>` and its
        interval columns; empty without such runs.
    """
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


def published_of(published: pd.DataFrame | None, rules: pd.DataFrame) -> pd.DataFrame | None:
    """The shipped per-rule rows of the protocols the runs used (None stays None).

    Args:
        published: the shipped `sparc_by_rule` table, or None (`--no-published`).
        rules: the rule table (`rule_table`).

    Returns:
        the published rows of `rules`' protocols, or None.
    """
    if published is None:
        return None
    return published[published[C.PROTOCOL].isin(set(rules[C.PROTOCOL]))]


def with_published_rows(rules: pd.DataFrame, published: pd.DataFrame | None) -> pd.DataFrame:
    """The heat map's rows: the runs, then each published row named `model | protocol
    (published)`.

    Args:
        rules: the runs' rows of the rule table, in the order to show.
        published: the published per-rule rows (`published_of`), or None.

    Returns:
        the rows, with `run` and each rule's accuracy (and the runs' intervals).
    """
    import pandas as pd

    if published is None or published.empty:
        return rules
    marked = published.assign(
        run=[
            f"{m} | {p} (published)"
            for m, p in zip(published[C.MODEL], published[C.PROTOCOL], strict=True)
        ]
    )
    return pd.concat([rules, marked[[C.RUN, *RULE_COLUMNS]]], ignore_index=True)
