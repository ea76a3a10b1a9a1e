"""How step-by-step episodes end and how they are played: per gym or agent run, the share of
episodes by ending and the behaviour rates (steps, illegal and unparseable moves, backtracking,
tool use), each with its interval."""

from __future__ import annotations

from collections.abc import Iterable
from math import isclose
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import protocols as P
from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.reducer import reducer_of
from inspect_sparc.report.read.runs import run_steps
from inspect_sparc.report.statistics.rates import (
    ci_fields,
    puzzle_values,
    reduced_values,
)
from inspect_sparc.report.statistics.score_intervals import (
    clustered_ratio,
    mean_interval,
    median_interval,
)
from inspect_sparc.report.table_values import known, pct, per_log

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


#: The columns of the gym endings table (and figure), in the order they stack.
ENDING_COLUMNS = ("solved", "reached E off the solutions", "dead end", "step limit", "cut")


#: Each ending column: the log's metric, and the per-sample value key(s) behind its count
#: ("reached E off the solutions" is reached_end minus correct).
ENDING_SOURCES = {
    "solved": (K.ACCURACY, (K.CORRECT,)),
    "reached E off the solutions": (K.REACHED_END_RATE, (K.REACHED_END, K.CORRECT)),
    "dead end": (K.DEAD_END_RATE, (K.DEAD_END,)),
    "step limit": (K.STEP_LIMIT_RATE, (K.STEP_LIMIT,)),
    "cut": (K.CUT_RATE, (K.CUT,)),
}


def endings_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """How gym and agent episodes ended (% of episodes), from the logs' ending rates (the
    agent is scored by the gym scorer), each with its 95% interval from the samples.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per gym or agent run: `n` and each ending's share of episodes (percent) with its
        interval columns; empty without such runs.
    """
    import pandas as pd

    keys = [K.CORRECT, K.REACHED_END, K.DEAD_END, K.STEP_LIMIT, K.CUT]
    outcomes = puzzle_values(samples, keys)
    by_log = per_log(outcomes)
    gym = runs[runs[C.TASK].isin(P.EPISODE_TASKS)]
    rows = []
    for _, run in gym.iterrows():
        if not known(run.get(K.REACHED_END_RATE)):
            continue
        solved = pct(run[K.ACCURACY])
        group = by_log.get(run[C.LOG])
        row: dict[str, Any] = {C.RUN: run[C.RUN], C.PROTOCOL: run[C.PROTOCOL]}
        row["n"] = len(group.dropna(subset=[K.CORRECT])) if group is not None else None
        for column, (metric, values) in ENDING_SOURCES.items():
            value = pct(run.get(metric))
            if column.startswith("reached"):  # reached E, less the solved episodes
                value = value - solved if value is not None and solved is not None else None
            row[column] = value
            if group is not None:
                per = group[values[0]] - (group[values[1]] if len(values) > 1 else 0)
                ci = ci_fields(per, column)
                row[f"{column}_ci95_low"] = ci[f"{column}_ci95_low"]
                row[f"{column}_ci95_high"] = ci[f"{column}_ci95_high"]
        rows.append(row)
    return pd.DataFrame(rows)


#: Backtracking ratio: steps taken / path edges, over episodes that reached E with edges and
#: fewer steps than the limit (the Spatial-Gym analysis: "steps < 100, path_edges > 0").
def behaviour_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """How gym and agent runs acted: the logs' mean steps, illegal-action and unparseable-move
    rates, tool calls per episode, no-tool-call and malformed-call rates (agent), and the median
    backtracking ratio (Spatial-Gym Fig. 5) over the episodes that reached E.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per gym or agent run with the rates (percent), tool calls per episode, the
        backtracking ratio and `n_reached_end`, each with its interval where the samples give one;
        empty without such runs.
    """
    import pandas as pd

    gym = runs[runs[C.TASK].isin(P.EPISODE_TASKS)]
    ratios = _backtracking(samples, gym)
    rows = []
    for _, run in gym.iterrows():
        ratio, valid, ratio_ci = ratios.get(run[C.LOG], (None, 0, None))
        rows.append(
            {
                **step_intervals(samples, run),
                C.RUN: run[C.RUN],
                C.PROTOCOL: run[C.PROTOCOL],
                "mean_steps": run.get(K.MEAN_STEPS),
                "illegal_action_rate": pct(run.get(K.ILLEGAL_ACTION_RATE)),
                "unparseable_rate": pct(run.get(K.UNPARSEABLE_RATE)),
                "tool_calls_per_episode": run.get(K.TOOL_CALLS_PER_EPISODE),
                "no_tool_call_rate": pct(run.get(K.NO_TOOL_CALL_RATE)),
                "malformed_tool_call_rate": pct(run.get(K.MALFORMED_TOOL_CALL_RATE)),
                "backtracking_ratio": ratio,
                "backtracking_ratio_ci95_low": ratio_ci.low if ratio_ci else None,
                "backtracking_ratio_ci95_high": ratio_ci.high if ratio_ci else None,
                "backtracking_ratio_interval": ratio_ci.method if ratio_ci else None,
                "n_reached_end": valid,
            }
        )
    table = pd.DataFrame(rows)
    return table.dropna(axis=1, how="all") if len(table) else table


#: The pooled rates of the behaviour table: the per-sample value keys summed as events, and
#: as trials (the scorers' own definitions: per step, per turn, per tool call sent).
POOLED_RATES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "illegal_action_rate": ((K.ILLEGAL,), (K.STEPS,)),
    "unparseable_rate": ((K.UNPARSEABLE,), (K.STEPS,)),
    "no_tool_call_rate": ((K.NO_TOOL_TURNS,), (K.TURNS,)),
    "malformed_tool_call_rate": ((K.MALFORMED_TOOL_CALLS,), (K.MALFORMED_TOOL_CALLS, K.TOOL_CALLS)),
}


def step_intervals(samples: pd.DataFrame | None, run: Any) -> dict[str, Any]:
    """95% intervals clustered by puzzle, each of the value the log shows (each value key
    reduced over a puzzle's epochs as the log reduced it; none where the samples give another
    value): the pooled rates (`POOLED_RATES`, `stats.clustered_ratio`) and tool calls per
    episode (t interval over puzzles).

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.
        run: the run's row of the runs frame.

    Returns:
        interval columns (`<name>_ci95_low/high`, percent for rates) by name; empty where the run
        has no samples.
    """
    if samples is None or samples.empty:
        return {}
    reducer = reducer_of(run)

    def per_puzzle(keys: Iterable[str]) -> pd.DataFrame | None:
        import pandas as pd

        values = {key: reduced_values(samples, run[C.LOG], reducer, key) for key in keys}
        if any(v is None or v.dropna().empty for v in values.values()):
            return None
        return pd.DataFrame(values).dropna()

    out: dict[str, Any] = {}
    for column, (events, trials) in POOLED_RATES.items():
        frame = per_puzzle(dict.fromkeys([*events, *trials]))
        shown = pct(run.get(column))
        if frame is None or shown is None:
            continue
        top, bottom = frame[list(events)].sum(axis=1), frame[list(trials)].sum(axis=1)
        if bottom.sum() <= 0 or not isclose(100 * top.sum() / bottom.sum(), shown, abs_tol=1e-6):
            continue  # the samples give another value than the log's: no interval
        interval = clustered_ratio(top.to_numpy(), bottom.to_numpy())
        out[f"{column}_ci95_low"] = 100 * interval.low
        out[f"{column}_ci95_high"] = 100 * interval.high
    calls = per_puzzle([K.TOOL_CALLS])
    shown = run.get(K.TOOL_CALLS_PER_EPISODE)
    if calls is not None and known(shown) and isclose(calls[K.TOOL_CALLS].mean(), shown):
        interval = mean_interval(calls[K.TOOL_CALLS].to_numpy(), lowest=0.0)
        out["tool_calls_per_episode_ci95_low"] = interval.low
        out["tool_calls_per_episode_ci95_high"] = interval.high
    return out


def _backtracking(samples: pd.DataFrame | None, gym: pd.DataFrame) -> dict[str, tuple[Any, ...]]:
    """Per log: the median over puzzles (each puzzle's epochs averaged first) of steps / path
    edges over the episodes that reached E, with path edges > 0 and steps below the run's
    limit (so it conditions on reaching E); how many puzzles had one; and its order-statistic
    interval over puzzles (or why none)."""
    if samples is None or samples.empty or K.STEPS not in samples:
        return {}
    out: dict[str, tuple[Any, ...]] = {}
    limits = {run[C.LOG]: run_steps(run)[0] for _, run in gym.iterrows()}
    episodes = samples[samples[C.LOG].isin(limits)]
    for log, group in episodes.groupby(C.LOG, sort=False):
        edges = group[C.PATH_LENGTH].astype(float) - 1
        steps = group[K.STEPS].astype(float)
        reached = group[C.ENDED] == K.REACHED_END
        valid = reached & (edges > 0) & (steps < limits[log])
        per_puzzle = (steps[valid] / edges[valid]).groupby(group.loc[valid, C.ID]).mean()
        ratio = float(per_puzzle.median()) if len(per_puzzle) else None
        out[log] = (ratio, len(per_puzzle), median_interval(per_puzzle.to_numpy()))
    return out
