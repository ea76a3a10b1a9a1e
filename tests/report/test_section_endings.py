"""Endings and behaviour of gym and agent runs: endings, step and tool metrics, the
backtracking ratio."""

from __future__ import annotations

from typing import Any, cast

import pandas as pd
import pytest
from report_rows import baseline_run

from inspect_sparc.report.analysis.endings import behaviour_table, endings_table


def agent_run(**metrics) -> dict[str, Any]:
    """The row of a model's `sparc_agent` run with these metrics (and settings)."""
    return cast(
        "dict[str, Any]",
        baseline_run(
            task="sparc_agent", protocol="agent", run="m | agent", baseline=False, **metrics
        ),
    )


def test_agent_runs_have_endings():
    runs = pd.DataFrame(
        [
            agent_run(
                reached_end_rate=0.5,
                dead_end_rate=0.25,
                step_limit_rate=0.25,
                cut_rate=0.0,
            )
        ]
    )
    [row] = endings_table(runs).to_dict("records")
    assert row["protocol"] == "agent" and row["dead end"] == 25.0


def test_behaviour_shows_the_step_and_tool_metrics_and_the_backtracking_ratio():
    # repeated code kept: a run's metrics by keyword, alike in shape only to search layout counts
    agent = agent_run(
        max_steps=10,
        illegal_action_rate=0.25,
        unparseable_rate=0.5,
        tool_calls_per_episode=7.0,
        no_tool_call_rate=0.1,
        mean_steps=6.0,
    )
    runs = pd.DataFrame([dict(agent, log="a.eval")])
    # (steps, path points, ending): ratios 6/3 and 4/4 count; a step-limit episode, one that
    # hit the limit exactly and a zero-edge path do not
    episodes = [
        (6, 4, "reached_end"),
        (4, 5, "reached_end"),
        (9, 3, "step_limit"),
        (10, 4, "reached_end"),
        (0, 1, "reached_end"),
    ]
    samples = pd.DataFrame(
        [
            {"log": "a.eval", "id": str(i), "steps": s, "path_length": p, "ended": e}
            for i, (s, p, e) in enumerate(episodes)
        ]
    )
    [row] = behaviour_table(runs, samples).to_dict("records")
    assert row["illegal_action_rate"] == 25.0 and row["unparseable_rate"] == 50.0
    assert row["tool_calls_per_episode"] == 7.0 and row["no_tool_call_rate"] == 10.0
    assert row["n_reached_end"] == 2
    assert row["backtracking_ratio"] == pytest.approx((6 / 3 + 4 / 4) / 2)  # median of two
    assert "too few" in row["backtracking_ratio_interval"]  # no zero-width interval of two


def clustered_wilson(per_puzzle: list[tuple[float, float]], epochs: int = 1) -> tuple[Any, ...]:
    """The oracle of a pooled rate's interval (%): each trial of every epoch a 0/1 outcome with
    its puzzle as cluster, statsmodels' cluster-robust OLS variance; Wilson at n = p(1 - p) /
    variance, at most the trials per epoch (a design effect of at least 1); with no event,
    n = Kish's effective number of puzzles."""
    import numpy as np

    sm = pytest.importorskip("statsmodels.api")
    proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint
    y = np.concatenate([[1.0] * int(e) + [0.0] * int(n - e) for e, n in per_puzzle])
    groups = np.concatenate([[i] * int(n) for i, (_, n) in enumerate(per_puzzle)])
    p = y.mean()
    if 0 < p < 1:
        fit = sm.OLS(y, np.ones(y.size)).fit(cov_type="cluster", cov_kwds={"groups": groups})
        n = min(y.size / epochs, p * (1 - p) / float(fit.bse[0]) ** 2)
    else:
        sizes = np.array([m for _, m in per_puzzle], dtype=float)
        n = sizes.sum() ** 2 / (sizes**2).sum()
    low, high = proportion_confint(p * n, n, method="wilson")
    return 100 * low, 100 * high


def test_illegal_move_rate_interval_is_clustered_by_puzzle(report_logs, report):
    from inspect_ai.log import read_eval_log

    _, logs, _ = report_logs
    gym = next(
        log
        for log in logs
        if log.eval.task.endswith("sparc_gym") and log.eval.model == "mockllm/model"
    )
    values = [s.scores["gym_scorer"].value for s in read_eval_log(gym.location).samples]
    per_puzzle = [(v["illegal"], v["steps"]) for v in values]
    runs = report.runs.set_index("log")["run"]
    table = report.tables["gym_behaviour"]
    [row] = table[table["run"] == runs[gym.location]].to_dict("records")
    assert row["illegal_action_rate"] == pytest.approx(
        100 * sum(e for e, _ in per_puzzle) / sum(n for _, n in per_puzzle)
    )
    low, high = clustered_wilson(per_puzzle)
    assert (row["illegal_action_rate_ci95_low"], row["illegal_action_rate_ci95_high"]) == (
        pytest.approx((low, high))
    )
    assert row["unparseable_rate"] == 0 and row["unparseable_rate_ci95_high"] > 0


def test_agent_tool_rates_have_intervals_of_the_mean_reduced_values_shown():
    # (puzzle, turns, turns without a tool call, tool calls, malformed calls), two epochs each
    episodes = [
        ("p1", 10, 3, 7, 2),
        ("p1", 6, 0, 6, 0),
        ("p2", 4, 0, 4, 3),
        ("p2", 4, 1, 3, 1),
        ("p3", 12, 3, 9, 0),
        ("p3", 10, 2, 8, 0),
        ("p4", 8, 0, 4, 0),
        ("p4", 6, 0, 6, 1),
    ]
    samples = pd.DataFrame(
        [
            {"log": "a.eval", "id": p, "turns": t, "no_tool_turns": q}
            | {"tool_calls": c, "malformed_tool_calls": m}
            for p, t, q, c, m in episodes
        ]
    )
    silent = {"p1": (3, 16), "p2": (1, 8), "p3": (5, 22), "p4": (0, 14)}  # over both epochs
    sent = {"p1": (2, 15), "p2": (4, 11), "p3": (0, 17), "p4": (1, 11)}  # malformed of all sent
    # Inspect's mean reducer averages each value over a puzzle's epochs before the metric
    agent = agent_run(
        epochs=2,
        no_tool_call_rate=(9 / 2) / (60 / 2),
        malformed_tool_call_rate=(7 / 2) / (54 / 2),
        tool_calls_per_episode=47 / 8,
    )
    [row] = behaviour_table(pd.DataFrame([dict(agent, log="a.eval")]), samples).to_dict("records")
    interval = (row["no_tool_call_rate_ci95_low"], row["no_tool_call_rate_ci95_high"])
    assert interval == pytest.approx(clustered_wilson(list(silent.values()), epochs=2))
    interval = (row["malformed_tool_call_rate_ci95_low"], row["malformed_tool_call_rate_ci95_high"])
    assert interval == pytest.approx(clustered_wilson(list(sent.values()), epochs=2))
    from scipy.stats import sem, t

    calls = [13 / 2, 7 / 2, 17 / 2, 10 / 2]  # per puzzle, its epochs averaged
    low, high = t.interval(0.95, 3, loc=sum(calls) / 4, scale=sem(calls))
    assert row["tool_calls_per_episode_ci95_low"] == pytest.approx(max(0.0, low))
    assert row["tool_calls_per_episode_ci95_high"] == pytest.approx(high)


def test_a_rate_the_samples_do_not_give_gets_no_interval():
    samples = pd.DataFrame(
        [{"log": "a.eval", "id": f"p{i}", "turns": 10, "no_tool_turns": i} for i in range(4)]
    )
    agent = agent_run(
        no_tool_call_rate=0.5,  # the samples give 6 / 40: some other number
    )
    [row] = behaviour_table(pd.DataFrame([dict(agent, log="a.eval")]), samples).to_dict("records")
    assert row["no_tool_call_rate"] == 50.0 and "no_tool_call_rate_ci95_low" not in row
