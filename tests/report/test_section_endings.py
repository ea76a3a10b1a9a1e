"""Endings and behaviour of gym and agent runs: endings, step and tool metrics, the
backtracking ratio."""

from __future__ import annotations

import pandas as pd
import pytest
from report_rows import baseline_run

from inspect_sparc.report.sections.endings import behaviour_table, endings_table


def test_agent_runs_have_endings():
    runs = pd.DataFrame(
        [
            baseline_run(
                task="sparc_agent",
                protocol="agent",
                run="m | agent",
                baseline=False,
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
    agent = baseline_run(
        task="sparc_agent",
        protocol="agent",
        run="m | agent",
        baseline=False,
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
