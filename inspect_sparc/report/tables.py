"""The report's tables, from the run frame (the logs' own metrics) and the sample frame.

Rates are percentages with the logs' values times 100, never recomputed where a log has the
metric; what no metric covers (rule types, path length, tokens by level) is counted from the
samples, each sample's epochs averaged first (Inspect's default `mean` reduction).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.report import keys as K
from inspect_sparc.report.frame import BREAK_RULES, RULE_KINDS, SPARC_TASKS, complete_mask
from inspect_sparc.report.published import (
    ALGOPUZZLEVQA_SETUP,
    published,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

LEVELS = (1, 2, 3, 4, 5)
#: Protocols in the order the papers present them.
PROTOCOLS = ("single_shot", "gym", "gym_traceback", "visual", "gym_visual", "agent")
#: (name, minuend protocol, subtrahend protocol): the deltas the report shows per model.
DELTAS = (
    ("gym - single shot", "gym", "single_shot"),
    ("traceback - no traceback", "gym_traceback", "gym"),
    ("image - text (single shot)", "visual", "single_shot"),
    ("image - text (gym)", "gym_visual", "gym"),
)
#: The columns of the gym endings table (and figure), in the order they stack.
ENDING_COLUMNS = ("solved", "reached E off the solutions", "dead end", "step limit", "cut")


def pct(value: Any) -> float | None:
    """A 0-1 rate as a percentage (None stays None)."""
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else 100 * number


def sample_means(samples: pd.DataFrame, keys: list[str], values: list[str]) -> pd.DataFrame:
    """Each sample's values averaged over its epochs (Inspect's `mean` reducer), per run (per
    log: runs are never merged, whatever their labels). A value no sample has (no sample of
    an errored run was scored) is missing, never an error."""
    samples = samples.assign(**{v: float("nan") for v in values if v not in samples})
    return samples.groupby(["log", "run", "id", *keys], dropna=False)[values].mean().reset_index()


def run_n(run: Any) -> int | None:
    """Samples in a run, each counted once whatever its epochs (Inspect's completed_samples
    counts sample-epochs)."""
    per = run.get("samples") or None
    epochs = int(run.get("epochs") or 1)
    return int(per) // epochs if _known(per) else None


def results_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per run: n, solved count, accuracy (the log's) and its 95% interval (Wilson, or the
    bootstrap over puzzles where epochs disagree; counts from the samples), levels 1-5, mean path
    length or steps, invalid paths, mean output and reasoning tokens, time, status."""
    import pandas as pd

    from inspect_sparc.report.intervals import ci_fields, puzzle_values

    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = dict(tuple(outcomes.groupby("log", sort=False))) if len(outcomes) else {}
    path_means = _path_lengths(samples)
    rows = []
    for _, run in runs.iterrows():
        acc = run.get(K.ACCURACY)
        per = run.get("samples") or None
        steps = run.get(K.MEAN_STEPS)
        group = by_log.get(run["log"])
        values = group[K.CORRECT] if group is not None and _known(acc) else []
        ci = ci_fields(values, int(run["epochs"] or 1))
        row = {
            "run": run["run"],
            "task": run["task"],
            "version": run["task_version"],
            "protocol": run["protocol"],
            "model": run["model"],
            "n": run_n(run),
            "solved": float(values.sum()) if len(values) else None,
            "epochs": run["epochs"],
            "reducer": _reducer_text(run),
            "accuracy": pct(acc),
            "ci95_low": ci["ci95_low"],
            "ci95_high": ci["ci95_high"],
            "interval": ci["interval"],
            **{f"level_{lv}": pct(run.get(K.level_key(lv))) for lv in LEVELS},
            "mean_steps": steps if _known(steps) else None,
            "mean_path_length": None if _known(steps) else path_means.get(run["log"]),
            "invalid_path_rate": pct(run.get(K.INVALID_PATH_RATE)),
            "output_tokens_per_sample": _per(run.get("output_tokens"), per),
            "reasoning_tokens_per_sample": _per(run.get("reasoning_tokens"), per),
            "time_s": run.get("time_s"),
            "status": run["status"],
            "notes": run.get("notes") or "",
        }
        rows.append(row)
    return pd.DataFrame(rows)


#: The results table's columns set in LaTeX (the CSV has them all).
PAPER_COLUMNS = [
    "model",
    "protocol",
    "n",
    "accuracy",
    *[f"level_{lv}" for lv in LEVELS],
    "mean_steps",
    "mean_path_length",
]


def _reducer_text(run: Any) -> str | None:
    """The epochs reducer(s), and which one's metrics the table shows when there are several."""
    reducer = run.get("epochs_reducer")
    shown = run.get("metrics_reducer")
    if reducer and "," in str(reducer) and isinstance(shown, str):
        return f"{reducer} (metrics: {shown})"
    return reducer


def _known(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and value != value)


def _per(total: Any, count: Any) -> float | None:
    return float(total) / float(count) if _known(total) and _known(count) and count else None


def _path_lengths(samples: pd.DataFrame | None) -> dict[str, float]:
    """Mean points in the extracted path, over answers with a path (the papers' "Avg. Path
    Length"), per single-shot log: each sample's epochs averaged first, then the samples."""
    if samples is None or samples.empty or "path_length" not in samples:
        return {}
    shot = samples[samples["protocol"].isin(["single_shot", "visual"])]
    shot = shot[shot["path_length"].fillna(0) > 0]
    if shot.empty:
        return {}
    per_sample = sample_means(shot, [], ["path_length"])
    return per_sample.groupby("log")["path_length"].mean().to_dict()


def rule_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) over the puzzles that contain each rule kind, per SPaRC run (as the
    Spatial-Gym rule tables), with the number of puzzles behind each cell."""
    import pandas as pd

    sparc = samples[samples["task"].isin(SPARC_TASKS)] if not samples.empty else samples
    if sparc.empty:
        return pd.DataFrame()
    from inspect_sparc.report.intervals import ci_fields

    flags = [f"has_{k}" for k in RULE_KINDS]
    per_sample = sample_means(sparc, ["protocol", "model", *flags], [K.CORRECT])
    epochs_of = sparc.groupby("log")["epoch"].max().to_dict()
    rows = []
    for _, group in per_sample.groupby("log", sort=False):
        scored = group.dropna(subset=[K.CORRECT])
        if scored.empty:  # an errored run: no sample scored, nothing to show per rule
            continue
        row: dict[str, Any] = {
            "run": group["run"].iloc[0],
            "protocol": group["protocol"].iloc[0],
            "model": group["model"].iloc[0],
        }
        epochs = int(epochs_of.get(group["log"].iloc[0], 1))
        for kind in RULE_KINDS:
            having = scored[scored[f"has_{kind}"] == True]  # noqa: E712 - pandas mask
            row[kind] = 100 * having[K.CORRECT].mean() if len(having) else None
            row.update(ci_fields(having[K.CORRECT], epochs, kind))
        rows.append(row)
    return pd.DataFrame(rows)


def level_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Accuracy (%) by level, long form (run, protocol, model, level, accuracy: the log's
    `level_k`), with n puzzles and the 95% interval from the samples of that level."""
    import pandas as pd

    from inspect_sparc.report.intervals import ci_fields, puzzle_values

    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = dict(tuple(outcomes.groupby("log", sort=False))) if len(outcomes) else {}
    rows = []
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        group = by_log.get(run["log"])
        for lv in LEVELS:
            value = pct(run.get(K.level_key(lv)))
            if value is None:
                continue
            at = group.loc[group["level"] == lv, K.CORRECT] if group is not None else []
            rows.append(
                {
                    "log": run["log"],
                    "run": run["run"],
                    "protocol": run["protocol"],
                    "model": run["model"],
                    "baseline": run["baseline"],
                    "level": lv,
                    "accuracy": value,
                    **ci_fields(at, int(run["epochs"] or 1)),
                }
            )
    return pd.DataFrame(rows)


#: Settings two runs must share to be compared in a delta (max_steps too between two gym runs).
DELTA_MATCH = ("prompt", "source", "split", "subset", "levels")
GYM_PROTOCOLS = frozenset({"gym", "gym_traceback", "gym_visual"})


def delta_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per model with runs of both protocols on the same puzzles: accuracy difference in
    points. Runs are paired only when prompt, source, split, subset, levels and the number of
    puzzles match (and max_steps, between two gym protocols); of several such runs the latest
    of each protocol is taken, named in the row."""
    import pandas as pd

    sparc = runs[runs["task"].isin(SPARC_TASKS) & ~runs["baseline"].astype(bool)]
    sparc = sparc[(sparc["task"] != "sparc_hard") & complete_mask(sparc)]
    keys = [k for k in DELTA_MATCH if k in sparc]
    sparc = sparc.assign(**{k: sparc[k].astype(str) for k in keys})
    # the same number of puzzles too (`--limit`): the same selection then gives the same ones
    sparc = sparc.assign(n=[run_n(run) for _, run in sparc.iterrows()])
    keys.append("n")
    rows = []
    for match, group in sparc.groupby(["model", *keys], dropna=False, sort=False):
        model = match[0]
        group = group.sort_values("started_at")
        for name, plus, minus in DELTAS:
            a_runs, b_runs = group[group["protocol"] == plus], group[group["protocol"] == minus]
            if a_runs.empty or b_runs.empty:
                continue
            a = a_runs.iloc[-1]
            if plus in GYM_PROTOCOLS and minus in GYM_PROTOCOLS:
                b_runs = b_runs[b_runs["max_steps"].astype(str) == str(a["max_steps"])]
                if b_runs.empty:
                    continue
            b = b_runs.iloc[-1]
            rows.append(
                {
                    "model": model,
                    **{k: a[k] for k in keys},
                    "delta": name,
                    "points": pct(a[K.ACCURACY]) - pct(b[K.ACCURACY]),
                    "accuracy_a": pct(a[K.ACCURACY]),
                    "accuracy_b": pct(b[K.ACCURACY]),
                    "run_a": a["run"],
                    "run_b": b["run"],
                }
            )
    return pd.DataFrame(rows)


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
    agent is scored by the gym scorer), each with its 95% interval from the samples."""
    import pandas as pd

    from inspect_sparc.report.intervals import ci_fields, puzzle_values

    keys = [K.CORRECT, K.REACHED_END, K.DEAD_END, K.STEP_LIMIT, K.CUT]
    outcomes = puzzle_values(samples, keys)
    by_log = dict(tuple(outcomes.groupby("log", sort=False))) if len(outcomes) else {}
    gym = runs[runs["task"].isin(["sparc_gym", "sparc_agent"])]
    rows = []
    for _, run in gym.iterrows():
        if not _known(run.get(K.REACHED_END_RATE)):
            continue
        solved = pct(run[K.ACCURACY])
        group = by_log.get(run["log"])
        row: dict[str, Any] = {"run": run["run"], "protocol": run["protocol"]}
        row["n"] = len(group.dropna(subset=[K.CORRECT])) if group is not None else None
        for column, (metric, values) in ENDING_SOURCES.items():
            value = pct(run.get(metric))
            row[column] = value - solved if column.startswith("reached") else value
            if group is not None:
                per = group[values[0]] - (group[values[1]] if len(values) > 1 else 0)
                ci = ci_fields(per, int(run["epochs"] or 1), column)
                row[f"{column}_ci95_low"] = ci[f"{column}_ci95_low"]
                row[f"{column}_ci95_high"] = ci[f"{column}_ci95_high"]
        rows.append(row)
    return pd.DataFrame(rows)


#: Backtracking ratio: steps taken / path edges, over episodes that reached E with edges and
#: fewer steps than the limit (the Spatial-Gym analysis: "steps < 100, path_edges > 0").
def behaviour_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """How gym and agent runs acted: the logs' mean steps, illegal-action and unparseable-move
    rates, tool calls per episode, no-tool-call and malformed-call rates (agent), and the median
    backtracking ratio (Spatial-Gym Fig. 5) over the episodes that reached E."""
    import pandas as pd

    gym = runs[runs["task"].isin(["sparc_gym", "sparc_agent"])]
    ratios = _backtracking(samples, gym)
    rows = []
    for _, run in gym.iterrows():
        ratio, valid = ratios.get(run["log"], (None, 0))
        rows.append(
            {
                "run": run["run"],
                "protocol": run["protocol"],
                "mean_steps": run.get(K.MEAN_STEPS),
                "illegal_action_rate": pct(run.get(K.ILLEGAL_ACTION_RATE)),
                "unparseable_rate": pct(run.get(K.UNPARSEABLE_RATE)),
                "tool_calls_per_episode": run.get(K.TOOL_CALLS_PER_EPISODE),
                "no_tool_call_rate": pct(run.get(K.NO_TOOL_CALL_RATE)),
                "malformed_tool_call_rate": pct(run.get(K.MALFORMED_TOOL_CALL_RATE)),
                "backtracking_ratio": ratio,
                "n_reached_end": valid,
            }
        )
    table = pd.DataFrame(rows)
    return table.dropna(axis=1, how="all") if len(table) else table


def _backtracking(samples: pd.DataFrame | None, gym: pd.DataFrame) -> dict[str, tuple]:
    """Per log: the median of steps / path edges over episodes that reached E, with path
    edges > 0 and steps below the run's limit; and how many such episodes there were."""
    from inspect_sparc.report.frame import run_steps

    if samples is None or samples.empty or K.STEPS not in samples:
        return {}
    out: dict[str, tuple] = {}
    limits = {run["log"]: run_steps(run)[0] for _, run in gym.iterrows()}
    episodes = samples[samples["log"].isin(limits)]
    for log, group in episodes.groupby("log", sort=False):
        edges = group["path_length"].astype(float) - 1
        steps = group[K.STEPS].astype(float)
        reached = group[K.ENDED_COLUMN] == K.REACHED_END
        valid = reached & (edges > 0) & (steps < limits[log])
        ratio = (steps[valid] / edges[valid]).median() if valid.any() else None
        out[log] = (ratio, int(valid.sum()))
    return out


def breaks_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of answers (%) breaking each rule, per SPaRC run, from the logs' `breaks_*`,
    each with its 95% interval from the samples' `breaks_*` values."""
    import pandas as pd

    from inspect_sparc.report.intervals import ci_fields, puzzle_values

    keys = [K.breaks_key(rule) for rule in BREAK_RULES]
    outcomes = puzzle_values(samples, keys)
    by_log = dict(tuple(outcomes.groupby("log", sort=False))) if len(outcomes) else {}
    rows = []
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        values = {rule: pct(run.get(K.breaks_key(rule))) for rule in BREAK_RULES}
        if all(v is None for v in values.values()):
            continue
        row: dict[str, Any] = {"run": run["run"], "protocol": run["protocol"], **values}
        group = by_log.get(run["log"])
        if group is not None:
            for rule in BREAK_RULES:
                ci = ci_fields(group[K.breaks_key(rule)], int(run["epochs"] or 1), rule)
                row["n"] = ci.pop(f"n_{rule}")
                row.update(ci)
        rows.append(row)
    return pd.DataFrame(rows)


def tokens_by_level(samples: pd.DataFrame) -> pd.DataFrame:
    """Mean output (and reasoning) tokens per sample by level, per model run with tokens."""
    import pandas as pd

    sparc = samples[samples["task"].isin(SPARC_TASKS)] if not samples.empty else samples
    if sparc.empty or sparc["output_tokens"].isna().all():
        return pd.DataFrame()
    sparc = sparc[sparc["output_tokens"].notna()]
    cols = ["output_tokens", "reasoning_tokens", K.CORRECT]
    sparc = sparc.assign(**{c: float("nan") for c in cols if c not in sparc})
    table = sparc.groupby(["log", "run", "protocol", "level"])[cols].mean().reset_index()
    table[K.CORRECT] = 100 * table[K.CORRECT]
    return table.rename(columns={K.CORRECT: "accuracy"})


def visual_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Accuracy (%) of image runs by plot type and prompt, from the logs, with n and the 95%
    interval from the samples."""
    import pandas as pd

    from inspect_sparc.report.intervals import ci_fields, puzzle_values

    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = dict(tuple(outcomes.groupby("log", sort=False))) if len(outcomes) else {}
    rows = []
    for _, run in runs[runs["protocol"].isin(["visual", "gym_visual"])].iterrows():
        group = by_log.get(run["log"])
        values = group[K.CORRECT] if group is not None and _known(run[K.ACCURACY]) else []
        rows.append(
            {
                "run": run["run"],
                "protocol": run["protocol"],
                "model": run["model"],
                "plot": run["plot"],
                "prompt": run["prompt"],
                "accuracy": pct(run[K.ACCURACY]),
                **ci_fields(values, int(run["epochs"] or 1)),
            }
        )
    return pd.DataFrame(rows)


def algopuzzlevqa_table(
    runs: pd.DataFrame, samples: pd.DataFrame | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Accuracy (%) per puzzle and per ontology category, per AlgoPuzzleVQA run (the log's
    `<puzzle>` and `<group>_<category>` metrics), each with n and its 95% interval from the
    samples (a sample counts towards every category its puzzle has)."""
    import pandas as pd

    from inspect_sparc.report.intervals import ci_fields, puzzle_values

    algo = runs[runs["task"] == "algopuzzlevqa"]
    puzzles = sorted(set(published("algopuzzlevqa")["puzzle"]) - {"average"})
    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = dict(tuple(outcomes.groupby("log", sort=False))) if len(outcomes) else {}
    by_puzzle, by_category = [], []
    for _, run in algo.iterrows():
        row = {"run": run["run"], "setup": ALGOPUZZLEVQA_SETUP.get(run.get("prompt"), "")}
        group, epochs = by_log.get(run["log"]), int(run["epochs"] or 1)
        cells: dict[str, Any] = {}
        for name in puzzles:
            cells[name] = pct(run.get(name))
            if group is not None:
                cells.update(ci_fields(group.loc[group["puzzle"] == name, K.CORRECT], epochs, name))
        cells["average"] = pct(run[K.ACCURACY])
        by_puzzle.append({**row, **cells})
        groups: dict[str, Any] = {}
        for k, v in run.items():
            if isinstance(k, str) and k.startswith(K.CATEGORY_PREFIXES) and _known(v):
                groups[k] = pct(v)
                if group is not None:
                    lists = group["categories"].fillna("").str.split(",")
                    having = lists.map(lambda c, k=k: k in c)
                    groups.update(ci_fields(group.loc[having, K.CORRECT], epochs, k))
        by_category.append({**row, **groups})
    return pd.DataFrame(by_puzzle), pd.DataFrame(by_category)


# Moved to their own modules (this one had grown past 500 lines); re-exported so that
# `tables.<name>` keeps working.
from inspect_sparc.report.baselines import baselines_table, computed_baselines  # noqa: E402
from inspect_sparc.report.published_tables import (  # noqa: E402
    HUMAN_LABEL,
    human_row,
    published_deltas,
    published_results,
)
from inspect_sparc.report.writing import (  # noqa: E402
    COUNT_COLUMNS,
    P_COLUMNS,
    csv_frame,
    is_count,
    write_table,
)

__all__ = [
    "COUNT_COLUMNS",
    "HUMAN_LABEL",
    "P_COLUMNS",
    "baselines_table",
    "computed_baselines",
    "csv_frame",
    "human_row",
    "is_count",
    "published_deltas",
    "published_results",
    "write_table",
]
