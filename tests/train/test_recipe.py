"""The documented MaskablePPO recipe runs, and its printed statistics are right: for each held-out
level the Wilson intervals and the exact McNemar p-value recomputed with statsmodels from the
counts it prints, and its learning curve is drawn. Slow; skipped without the `train-sb3` extra,
scipy, matplotlib or statsmodels."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from commands import run_python

pytestmark = pytest.mark.slow
pytest.importorskip("sb3_contrib")
pytest.importorskip("scipy")
pytest.importorskip("matplotlib")
proportion = pytest.importorskip("statsmodels.stats.proportion")
contingency = pytest.importorskip("statsmodels.stats.contingency_tables")

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "training.md"


def test_the_recipe_prints_solve_rates_with_wilson_intervals_and_a_paired_test(tmp_path):
    block = re.search(r"<!-- tested: recipe -->\n```bash\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert block, "docs/training.md has no recipe line marked for this test"
    words = shlex.split(block.group(1).strip())
    assert words[0] == "python"
    curve = tmp_path / "curve.png"
    small = ["--train", "40", "--held-out", "30", "--timesteps", "2048", "--evaluations", "2"]
    done = run_python([*words[1:], *small, "--plot", str(curve)], tmp_path, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert re.search(r"^seeds: PPO and random legal moves \d+", out, re.M)
    rates = re.findall(r"(\d+)/(\d+) solved = ([\d.]+) \(95% Wilson ([\d.]+)-([\d.]+)\)", out)
    assert len(rates) == 6  # two policies on each of the held-out levels 1, 2 and 3
    for k, n, rate, low, high in rates:
        expected = proportion.proportion_confint(int(k), int(n), alpha=0.05, method="wilson")
        assert int(n) == 30 and float(rate) == pytest.approx(int(k) / int(n), abs=5e-4)
        assert (float(low), float(high)) == pytest.approx(expected, abs=5e-4)
    alone = re.findall(r"PPO alone solves (\d+), random alone (\d+), two-sided p = ([\d.e-]+)", out)
    assert len(alone) == 3
    for (first, second, p), (ppo, chance) in zip(
        alone, zip(rates[::2], rates[1::2], strict=True), strict=True
    ):
        table = [[0, int(first)], [int(second), 0]]  # only the discordant cells enter the test
        expected_p = (
            contingency.mcnemar(table, exact=True).pvalue if table[0][1] + table[1][0] else 1.0
        )
        assert float(p) == pytest.approx(expected_p, rel=1e-3)
        assert int(ppo[0]) - int(chance[0]) == int(first) - int(second)  # discordant pairs
    assert re.search(r"total \d+ s wall, \d+ s CPU", out)
    assert curve.read_bytes().startswith(b"\x89PNG")
