"""The two benchmark commands docs/training.md cites as the source of its speed figures run, at
small sizes (the options the script offers for a quick check), and print the lines the docs
quote: each reward function's rate beside the scorer's path and their ratio, and each
observation's steps per second beside Spatial-Gym's with the ratio, every episode of the same
length in both. Slow: Spatial-Gym and the environment in a fresh process, about 15 s each."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

import pytest
from commands import run_python

#: Found, not imported: Spatial-Gym's import takes a second, which collection would pay.
NEEDED = [name for name in ("SPaRC_Gym", "pandas") if importlib.util.find_spec(name) is None]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bool(NEEDED), reason=f"the benchmark needs {NEEDED} (the dev extra)"),
]

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "training.md"
SMALL = ["--repeats", "2", "--puzzles", "20", "--rounds", "1"]
REWARD_LINE = r"  {} +\d+ completions/s \( *\d+/s with dicts\); scorer path +\d+/s: \d+\.\dx"
ENV_LINE = (
    r"  observation {} +\(Spatial-Gym '{}' *\): +\d+ steps/s, Spatial-Gym +\d+ steps/s "
    r"\(\d+ steps, 0 episodes of another length\): \d+\.\dx"
)


def cited_commands() -> list[str]:
    """The `python benchmarks/bench_train.py ...` commands the docs' prose names."""
    text = DOC.read_text(encoding="utf-8")
    return sorted(set(re.findall(r"`(python benchmarks/bench_train\.py[^`]*)`", text)))


def test_the_docs_cite_both_commands():
    assert cited_commands() == [
        "python benchmarks/bench_train.py",
        "python benchmarks/bench_train.py --env-only",
    ]


@pytest.mark.parametrize("command", cited_commands())
def test_the_cited_benchmark_prints_the_quoted_figures(command, tmp_path):
    words = shlex.split(command)
    done = run_python([*words[1:], *SMALL], tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    rewards = [
        line
        for name in ("sparc_reward", "rule_reward")
        for line in lines
        if re.fullmatch(REWARD_LINE.format(name), line)
    ]
    assert len(rewards) == (0 if "--env-only" in words else 2), done.stdout
    table = re.findall(r'^\| `(\w+)` \(`"(\w+)"`\) \|', DOC.read_text("utf-8"), re.M)
    assert table == [("array", "new"), ("vector", "new"), ("text", "SPaRC")]  # the docs' rows
    for ours, theirs in table:
        assert any(re.fullmatch(ENV_LINE.format(ours, theirs), line) for line in lines), done.stdout
    assert "environment: 20 episodes" in done.stdout
