"""Protocol deltas pair only runs on the same puzzles."""

from __future__ import annotations

import pandas as pd
import pytest

from inspect_sparc.report.analysis.deltas import delta_table


def test_deltas_pair_only_runs_on_the_same_puzzles():
    base = {"model": "m", "baseline": False, "prompt": "paper", "split": "test"}
    base |= {"subset": "all", "levels": None, "samples": 4, "epochs": 1, "source": "sample"}
    shot = dict(base, task="sparc", protocol="single_shot", max_steps=None)
    gym = dict(base, task="sparc_gym", protocol="gym", max_steps=100)
    runs = pd.DataFrame(
        [
            dict(shot, accuracy=0.1, run="a", started_at="0"),
            dict(gym, accuracy=0.3, run="c", started_at="1"),
            # later, but on other puzzles: another source, or more of them
            dict(gym, accuracy=0.5, run="b", started_at="2", source="other.jsonl"),
            dict(gym, accuracy=0.9, run="d", started_at="3", samples=8),
        ]
    )
    [row] = delta_table(runs).to_dict("records")
    assert (row["run_a"], row["run_b"], row["source"], row["n"]) == ("c", "a", "sample", 4)
    assert row["points"] == pytest.approx(20.0)
