"""A baseline solver run in another protocol's task stops on its first sample, saying where it
belongs, instead of scoring 0% on every puzzle."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

import pytest
from inspect_ai import Task, eval
from inspect_ai.solver import SolverSpec

from inspect_sparc import sparc, sparc_agent, sparc_gym

BASELINES = {  # solver -> the task it belongs to
    "search_solver": "sparc",
    "gym_astar": "sparc_gym",
    "gym_random": "sparc_gym",
    "agent_astar": "sparc_agent",
    "agent_random": "sparc_agent",
}
TASKS: dict[str, Callable[..., Task]] = {
    "sparc": sparc,
    "sparc_gym": sparc_gym,
    "sparc_agent": sparc_agent,
}


def run(task_name: str, solver: str, log_dir) -> object:
    spec = SolverSpec(solver=f"inspect_sparc/{solver}", args={}, args_passed={})
    [log] = eval(
        TASKS[task_name](source="sample"),
        solver=spec,
        model="mockllm/model",
        limit=2,
        log_dir=str(log_dir),
        display="none",
    )
    return log


@pytest.mark.parametrize(
    ("solver", "task_name"),
    [(s, t) for s, home in BASELINES.items() for t in TASKS if t != home],
)
def test_a_baseline_in_another_task_stops_naming_its_own(tmp_path, solver, task_name):
    log = run(task_name, solver, tmp_path)
    assert log.status == "error"
    home = BASELINES[solver]
    assert f"{solver} is a solver for {home}" in log.error.message
    assert f"inspect eval inspect_sparc/{home} --solver inspect_sparc/{solver}" in (
        log.error.message
    )
    assert all(sample.error is not None and not sample.scores for sample in log.samples)


@pytest.mark.parametrize(("solver", "task_name"), list(BASELINES.items()))
def test_a_baseline_in_its_own_task_runs(tmp_path, solver, task_name):
    log = run(task_name, solver, tmp_path)
    assert log.status == "success", log.error
    assert len(log.samples) == 2


def test_the_cli_shows_the_message(tmp_path):
    command = [sys.executable, "-m", "inspect_ai", "eval", "inspect_sparc/sparc"]
    command += ["-T", "source=sample", "--solver", "inspect_sparc/gym_astar", "--limit", "1"]
    command += ["--model", "mockllm/model", "--display", "plain", "--log-dir", str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=os.environ)
    output = " ".join((result.stdout + result.stderr).split())
    assert "WrongTaskError: gym_astar is a solver for sparc_gym" in output
