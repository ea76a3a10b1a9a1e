"""Baselines per level: the search solver's, the A* baseline's and the exact chance of a random
legal walk, computed on each run's puzzles at that run's own max_steps and traceback."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.runs import SPARC_TASKS, complete_mask, run_steps
from inspect_sparc.report.table_values import known, pct, run_n

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def baselines_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Reference marks for the puzzles in the logs: the baseline runs' accuracy, each gym log's
    exact chance level (its `chance` metric), and, per run's puzzles, the A* baseline and the
    exact chance at the run's own max_steps and traceback (overall and by level). Only
    complete runs count: an errored or cancelled run donates no row.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per baseline run, gym log's chance and run's computed marks (accuracy in percent,
        overall and by level); empty where there is none.
    """
    import pandas as pd

    complete = runs[complete_mask(runs)]
    rows = computed_baselines(complete, samples)
    for _, run in complete[complete[C.TASK].isin(SPARC_TASKS)].iterrows():
        base = {C.PROTOCOL: run[C.PROTOCOL], "n": run_n(run), "from": run[C.RUN]}
        if run["baseline"]:
            rows.append({"reference": run[C.MODEL], **base, "accuracy": pct(run[K.ACCURACY])})
            rows[-1]["computed"] = False
        if known(run.get(K.CHANCE)) and not run["baseline"]:
            reference = f"chance (random legal walk, exact), {_steps_text(run)}: the log's"
            rows.append({"reference": reference, **base, "accuracy": pct(run[K.CHANCE])})
            rows[-1]["computed"] = True
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    # the same reference computed on the same puzzles for several runs is shown once; the
    # baseline runs themselves are runs, never merged
    # (accuracy rounded: the same puzzles summed in another order differ in the last bits)
    table = table.assign(_same=table["accuracy"].astype(float).round(9))
    computed = table[table["computed"]].drop_duplicates(
        subset=["reference", C.PROTOCOL, "n", "_same"]
    )
    kept = table[~table["computed"]]
    table = pd.concat([computed, kept]).sort_index().drop(columns=["computed", "_same"])
    levels = [f"level_{lv}" for lv in LEVELS if f"level_{lv}" in table]
    order = ["reference", C.PROTOCOL, "n", "accuracy", *levels, "from"]
    return table[order].reset_index(drop=True)


def _steps_text(run: Any) -> str:
    """`max_steps=10, traceback` as the baselines were computed for a run."""
    steps, traceback = run_steps(run)
    return f"max_steps={steps}" + (", traceback" if traceback else "")


def computed_baselines(runs: pd.DataFrame, samples: pd.DataFrame | None) -> list[dict[str, Any]]:
    """Per model run's puzzles: the A* baseline and the exact chance at its own settings.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per complete model run: its puzzles' A* baseline and exact chance (percent, overall
        and by level); empty without samples.
    """
    rows: list[dict[str, Any]] = []
    if samples is None or samples.empty or "astar_solves" not in samples:
        return rows
    wanted = set(runs.loc[~runs["baseline"].astype(bool), C.LOG])
    sparc = samples[samples[C.TASK].isin(SPARC_TASKS) & samples[C.LOG].isin(wanted)]
    puzzles = sparc.drop_duplicates([C.LOG, C.ID])
    for _, group in puzzles.groupby(C.LOG, sort=False):
        first = group.iloc[0]
        steps = _steps_text(first)
        for name, column in (
            ("A* baseline", "astar_solves"),
            ("chance (random legal walk, exact)", "chance_exact"),
        ):
            known = group.dropna(subset=[column])
            if known.empty:
                continue
            by_level = known.groupby(C.LEVEL)[column].mean()
            rows.append(
                {
                    "reference": f"{name}, {steps}, on these puzzles",
                    C.PROTOCOL: first[C.PROTOCOL],
                    "n": len(known),
                    "accuracy": 100 * known[column].mean(),
                    **{f"level_{int(lv)}": 100 * v for lv, v in by_level.items()},
                    "from": first[C.RUN],
                    "computed": True,
                }
            )
    return rows
