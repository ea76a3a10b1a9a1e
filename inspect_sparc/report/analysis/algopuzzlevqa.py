"""AlgoPuzzleVQA per run: accuracy per puzzle type and per ontology category, intervals clustered
by puzzle type."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import protocols as P
from inspect_sparc.contract import scores as K
from inspect_sparc.report.published import ALGOPUZZLEVQA_SETUP, published
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.statistics.rates import ci_fields, puzzle_values
from inspect_sparc.report.table_values import known, pct, per_log

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def algopuzzlevqa_table(
    runs: pd.DataFrame, samples: pd.DataFrame | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Accuracy (%) per puzzle and per ontology category, per AlgoPuzzleVQA run (the log's
    `<puzzle>` and `<group>_<category>` metrics), each with n and its 95% interval from the
    samples (a sample counts towards every category its puzzle has; a category's and the
    average's interval is clustered by puzzle type, `stats.clustered_rate`: for new puzzle
    types; beside it the average's stratified interval, for new instances of these types).

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        (per puzzle, per category): one row per AlgoPuzzleVQA run each, a column per puzzle (or
        category) in percent with its `n_` and interval columns; two empty frames without such runs.
    """
    import pandas as pd

    algo = runs[runs[C.TASK] == P.ALGOPUZZLEVQA]
    puzzles = sorted(set(published("algopuzzlevqa")["puzzle"]) - {"average"})
    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = per_log(outcomes)
    by_puzzle, by_category = [], []
    for _, run in algo.iterrows():
        row = {C.RUN: run[C.RUN], "setup": ALGOPUZZLEVQA_SETUP.get(run.get("prompt"), "")}
        group = by_log.get(run[C.LOG])
        cells: dict[str, Any] = {}
        for name in puzzles:
            cells[name] = pct(run.get(name))
            if group is not None:
                cells.update(ci_fields(group.loc[group[C.PUZZLE] == name, K.CORRECT], name))
        cells["average"] = pct(run[K.ACCURACY])
        if group is not None:  # clustered by type: 100 instances per type
            cells.update(ci_fields(group[K.CORRECT], "average", group[C.PUZZLE]))
            cells.update(new_instances(group))
        by_puzzle.append({**row, **cells})
        groups: dict[str, Any] = {}
        for k, v in run.items():
            if isinstance(k, str) and k.startswith(K.CATEGORY_PREFIXES) and known(v):
                groups[k] = pct(v)
                if group is not None:
                    lists = group[C.CATEGORIES].fillna("").str.split(",")
                    having = lists.map(lambda c, k=k: k in c)
                    kept = group.loc[having]
                    groups.update(ci_fields(kept[K.CORRECT], k, kept[C.PUZZLE]))
        by_category.append({**row, **groups})
    return pd.DataFrame(by_puzzle), pd.DataFrame(by_category)


def new_instances(group: pd.DataFrame) -> dict[str, Any]:
    """The average's 95% interval (%) for new instances of the same puzzle types (stratified
    by type, `stats.stratified_rate`), where the clustered one answers new puzzle types.

    Args:
        group: one run's samples (`correct` and the puzzle type of each).

    Returns:
        `average_new_instances_ci95_low/high` in percent (empty values where the samples give none).
    """
    from inspect_sparc.report.statistics.score_intervals import stratified_rate

    kept = group.dropna(subset=[K.CORRECT])
    if kept.empty:
        return {}
    interval = stratified_rate(kept[K.CORRECT].astype(float), kept[C.PUZZLE])
    return {
        "average_new_instances_ci95_low": 100 * interval.low,
        "average_new_instances_ci95_high": 100 * interval.high,
    }


def puzzle_columns(by_puzzle: pd.DataFrame) -> list[str]:
    """The puzzle columns of the per-puzzle table (not the run, setup, average, n or interval
    columns), in its order.

    Args:
        by_puzzle: the per-puzzle table (`algopuzzlevqa_table`'s first frame).

    Returns:
        the puzzle names.
    """
    return [
        c
        for c in by_puzzle.columns
        if c not in (C.RUN, "setup", "average") and not c.startswith("n_") and "_ci95_" not in c
    ]


def published_puzzles(published: pd.DataFrame | None) -> pd.DataFrame | None:
    """The paper's per-puzzle rows without its averages (None stays None).

    Args:
        published: the shipped `algopuzzlevqa` table, or None (`--no-published`).

    Returns:
        its rows whose setup is not `average`, or None.
    """
    if published is None:
        return None
    return published[published["setup"] != "average"]
