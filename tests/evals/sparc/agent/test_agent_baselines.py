"""`sparc_agent`'s no-model agents and the docs' own-agent example, offline, through the tools.

The oracles are the reference's: `sparc-puzzle`'s A* ablation (its moves, whether it reached E,
its verdict) and the bare `SPaRC_Gym` (which moves are legal); and `sparc_gym`'s own baselines,
whose episodes the agents must repeat exactly.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import eval_runs
import pytest
from agent_scripts import NAMES, Player, walk_solution
from eval_runs import score_of
from gym_reference import reference_astar, reference_env
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
from inspect_ai.solver import SolverSpec

from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
from inspect_sparc.evals.sparc.gym.tasks import sparc_gym

DOCS = Path(__file__).parents[4] / "docs" / "agent.md"
#: All 500 puzzles of the published test split (a path is a `source`).
TEST_SPLIT = Path(__file__).parents[3] / "fixtures" / "sparc" / "test_split.jsonl.gz"


def run(task, tmp_path: Path, solver, model="mockllm/model", **kwargs):
    return eval_runs.run(task, model, tmp_path, solver=solver, **kwargs)


def directions_called(sample) -> list[str]:
    """The `direction` of every tool call the agent made, in order (each turn: one call)."""
    turns = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert all(len(m.tool_calls or []) == 1 for m in turns)
    calls = [m.tool_calls[0] for m in turns if m.tool_calls]
    assert {c.function for c in calls} == {"move"}
    return [c.arguments["direction"] for c in calls]


def no_model_call(log) -> bool:
    """Nothing called the model: no usage recorded and no model event in any sample."""
    events = [e for s in log.samples for e in s.events if e.event == "model"]
    return not log.stats.model_usage and not events


def test_astar_agent_plays_the_reference_astar_through_move_calls(tmp_path, sparc_by_id):
    log = run(sparc_agent(source="sample"), tmp_path, SolverSpec("inspect_sparc/agent_astar"))
    assert no_model_call(log) and len(log.samples) == 25
    for sample in log.samples:
        expected = reference_astar(sparc_by_id[sample.id])
        moves = directions_called(sample)
        assert moves == [NAMES[a] for a in expected["actions"]], sample.id
        replies = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
        assert len(replies) == len(moves) and all(m.error is None for m in replies)
        score = score_of(sample)
        assert score.value["reached_end"] == int(expected["reached_end"]) == 1, sample.id
        assert score.value["correct"] == int(expected["solved"]), sample.id
        path = [[int(x), int(y)] for x, y in re.findall(r"\((\d+),(\d+)\)", score.answer)]
        assert path == [list(p) for p in expected["extracted_path"]], sample.id
        assert score.value["tool_calls"] == score.value["steps"] == len(moves)


def test_random_agent_moves_are_legal_in_the_reference_gym(tmp_path, sparc_by_id):
    log = run(
        sparc_agent(source="sample"), tmp_path, SolverSpec("inspect_sparc/agent_random"), limit=8
    )
    assert no_model_call(log)
    for sample in log.samples:
        record = sparc_by_id[sample.id]
        env = reference_env(record)
        _, info = env.reset(options={"puzzle_id": record["id"]})
        for direction in directions_called(sample):
            action = NAMES.index(direction)
            assert action in info["legal_actions"], (sample.id, direction)
            _, _, terminated, truncated, info = env.step(action)
        assert terminated or truncated
        value = score_of(sample).value
        assert value["illegal"] == value["unparseable"] == 0 and value["cut"] == 0


def test_the_agents_walk_the_gym_baselines_episodes(tmp_path):
    """Seeded as `gym_astar` / `gym_random`: the same sample and epoch, the same path."""
    options = {"limit": 4, "epochs": 2}
    for name in ("astar", "random"):
        agent_log = run(
            sparc_agent(source="sample"),
            tmp_path,
            SolverSpec(f"inspect_sparc/agent_{name}"),
            **options,
        )
        gym_log = run(
            sparc_gym(source="sample"), tmp_path, SolverSpec(f"inspect_sparc/gym_{name}"), **options
        )
        gym = {(s.id, s.epoch): score_of(s) for s in gym_log.samples}
        for sample in agent_log.samples:
            expected, score = gym[(sample.id, sample.epoch)], score_of(sample)
            assert score.answer == expected.answer and score.explanation == expected.explanation
            assert score.metadata["moves"] == expected.metadata["moves"]
    walks = {(s.id, s.epoch): score_of(s).answer for s in agent_log.samples}
    assert any(walks[(i, 1)] != walks[(i, 2)] for i, _ in walks)  # epochs differ


def test_the_quick_start_line_runs_offline_through_the_cli(tmp_path):
    command = [
        sys.executable, "-m", "inspect_ai", "eval", "inspect_sparc/sparc_agent",
        "-T", "source=sample", "--solver", "inspect_sparc/agent_astar",
        "--model", "mockllm/model", "--limit", "3", "--log-dir", str(tmp_path),
        "--display", "none",
    ]  # fmt: skip
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path / "no-tiktoken")}
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    [path] = tmp_path.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success" and log.eval.solver == "inspect_sparc/agent_astar"
    assert no_model_call(log) and not (tmp_path / "no-tiktoken").exists()
    assert all(score_of(s).value["reached_end"] == 1 for s in log.samples)


def docs_agent_example() -> str:
    """The `@agent` code block of docs/agent.md's "Your own agent" section."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Your own agent", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    [code] = [block for block in blocks if "@agent" in block]
    return textwrap.dedent(code)  # the block is indented in a list


def test_the_docs_own_agent_example_plays_offline_through_solver_spec(tmp_path):
    source = docs_agent_example()
    [name] = re.findall(r"^def (\w+)\(", source, flags=re.MULTILINE)
    agents = tmp_path / "my_agents.py"
    agents.write_text(source, encoding="utf-8")
    player = Player(walk_solution)
    log = run(
        sparc_agent(source="sample"), tmp_path, SolverSpec(f"{agents}@{name}"),
        model=player.model(), limit=3,
    )  # fmt: skip
    assert log.eval.solver.endswith(name)
    for sample in log.samples:
        value = score_of(sample).value
        assert value["correct"] == 1 and value["tool_calls"] == value["steps"] == value["turns"]
        assert player.calls[(sample.id, 1)] == value["steps"]  # no model call after the end


@pytest.mark.slow
def test_astar_agent_solves_the_reference_32_of_500_through_the_tools(tmp_path, sparc_test_split):
    task = sparc_agent(source=str(TEST_SPLIT))
    log = run(task, tmp_path, SolverSpec("inspect_sparc/agent_astar"), max_connections=50)
    assert no_model_call(log) and len(log.samples) == 500
    solved = sorted(s.id for s in log.samples if score_of(s).value["correct"] == 1)
    expected = sorted(r["id"] for r in sparc_test_split if reference_astar(r)["solved"])
    assert solved == expected and len(solved) == 32  # the Spatial-Gym paper's A*: 6.4%
