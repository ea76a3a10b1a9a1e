"""Shared rows of runs and samples for the report's section tests (imported by name)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from inspect_sparc.report.read.puzzles import RULE_COLUMNS
from inspect_sparc.report.read.registry import SETTINGS


def run_rows(**differ) -> pd.DataFrame:
    """Two runs of one model and task, alike except in `differ` (column -> two values)."""
    base = {
        "model": "search (exact)",
        "task": "sparc",
        "protocol": "single_shot",
        "baseline": True,
        "epochs": 1,
        "started_at": "2026-01-01",
        "levels": None,
        "puzzles": None,
        **dict.fromkeys(SETTINGS),
        "source": "sample",
        "split": "test",
        "subset": "all",
    }
    rows = []
    for i in range(2):
        row = dict(base, log=f"/logs/{i}.eval")
        row.update({key: values[i] for key, values in differ.items()})
        rows.append(row)
    return pd.DataFrame(rows)


def sample_rows(run_label: str = "same label") -> pd.DataFrame:
    """Two logs of 4 puzzles each that share one label: every puzzle has a dot, log 0 solved
    all, log 1 none."""
    rows = []
    for log in range(2):
        for i in range(4):
            rows.append(
                {
                    "log": f"/logs/{log}.eval",
                    "run": run_label,
                    "task": "sparc",
                    "protocol": "single_shot",
                    "model": "m",
                    "baseline": False,
                    "id": f"p{i}",
                    "epoch": 1,
                    "level": 1,
                    "correct": 1.0 - log,
                    "path_length": 10 + 10 * log,
                    "output_tokens": 100 * (log + 1),
                    "reasoning_tokens": None,
                    **{f"has_{k}": k == "dot" for k in RULE_COLUMNS},
                }
            )
    return pd.DataFrame(rows)


def baseline_run(**values) -> dict[str, Any]:
    return {
        "log": "/logs/r.eval",
        "run": "random baseline | gym x3 epochs",
        "task": "sparc_gym",
        "protocol": "gym",
        "model": "random baseline",
        "baseline": True,
        "samples": 12,  # Inspect's completed_samples: 4 puzzles x 3 epochs
        "epochs": 3,
        "accuracy": 0.25,
        "task_version": "1-B",
        "status": "success",
        **values,
    }
