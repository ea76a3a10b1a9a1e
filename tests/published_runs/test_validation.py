"""Leave-one-run-out on the published runs: the subset intervals cover the held-out runs'
full-split accuracy at least 90% of the time, and beat a random subset's error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inspect_sparc.published_runs.validation import leave_one_run_out, summarise

ROOT = Path(__file__).resolve().parents[2]


def by_method(rows: list[dict[str, object]]) -> dict[tuple[object, object], dict[str, object]]:
    return {(r["method"], r["size"]): r for r in rows}


def test_design_based_leave_one_run_out_covers_and_beats_random():
    rows = by_method(summarise(leave_one_run_out(draws=3, methods=("design-based", "random"))))
    for size in (50, 100, 200):
        design, plain = rows["design-based", size], rows["random", size]
        assert design["trials"] == 56 * 3
        assert float(design["coverage"]) >= 0.90
        assert float(design["mae_points"]) < float(plain["mae_points"])


@pytest.mark.slow
def test_model_based_leave_one_run_out_covers_and_beats_random():
    rows = by_method(summarise(leave_one_run_out(sizes=(50, 100), draws=2)))
    for size in (50, 100):
        model, plain = rows["model-based", size], rows["random", size]
        assert float(model["coverage"]) >= 0.90
        assert float(model["mae_points"]) < float(plain["mae_points"])


def test_the_benchmark_script_explains_itself():
    script = ROOT / "benchmarks" / "published_subset_loro.py"
    out = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True)
    assert (
        out.returncode == 0
        and "--draws" in out.stdout
        and "leave-one-run-out" in out.stdout.lower()
    )
