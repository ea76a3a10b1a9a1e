"""The documented MaskablePPO recipe runs, and its printed statistics are right: the Wilson
intervals and the exact McNemar p-value recomputed with statsmodels from the per-puzzle outcomes
it prints. Slow; skipped without the `train-sb3` extra, scipy or statsmodels."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
pytest.importorskip("sb3_contrib")
pytest.importorskip("scipy")
proportion = pytest.importorskip("statsmodels.stats.proportion")
contingency = pytest.importorskip("statsmodels.stats.contingency_tables")

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "training.md"


def test_the_recipe_prints_solve_rates_with_wilson_intervals_and_a_paired_test(tmp_path):
    block = re.search(r"<!-- tested: recipe -->\n```bash\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert block, "docs/training.md has no recipe line marked for this test"
    words = shlex.split(block.group(1).strip())
    assert words[0] == "python"
    small = ["--train", "20", "--held-out", "30", "--timesteps", "256"]
    done = subprocess.run(
        [sys.executable, *words[1:], *small],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "INSPECT_SPARC_CACHE_DIR": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    rates = re.findall(r"(\d+)/(\d+) solved = ([\d.]+) \(95% Wilson ([\d.]+)-([\d.]+)\)", out)
    assert len(rates) == 2
    for k, n, rate, low, high in rates:
        expected = proportion.proportion_confint(int(k), int(n), alpha=0.05, method="wilson")
        assert int(n) == 30 and float(rate) == pytest.approx(int(k) / int(n), abs=5e-4)
        assert (float(low), float(high)) == pytest.approx(expected, abs=5e-4)
    alone = re.search(r"PPO alone solves (\d+), random alone (\d+), two-sided p = ([\d.e-]+)", out)
    assert alone
    first, second, p = int(alone[1]), int(alone[2]), float(alone[3])
    table = [[0, first], [second, 0]]  # only the discordant cells enter the exact test
    expected_p = contingency.mcnemar(table, exact=True).pvalue if first + second else 1.0
    assert p == pytest.approx(expected_p, rel=0.05)
    solved = [int(k) for k, *_ in rates]
    assert solved[0] - solved[1] == first - second  # the discordant pairs make the difference
