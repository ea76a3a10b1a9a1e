"""The verifiers environment, offline: loaded by id as verifiers loads tasksets, tasks built
from the prompt dataset, hand-made traces scored, and the multi-turn gym episode played by a
scripted player. Slow, and skipped without the `train-verifiers` extra."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from inspect_sparc.core.episode.stepper import ACTION_NAMES, path_actions
from inspect_sparc.core.generate.generator import generate_puzzles
from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.train import rule_reward, sparc_reward

pytestmark = pytest.mark.slow
vf = pytest.importorskip("verifiers.v1")


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("vf") / "fresh.jsonl"
    records = generate_puzzles(2, 4, 1) + generate_puzzles(1, 4, 2)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def taskset(puzzle_file: str):
    from verifiers.v1.utils.loaders import load_taskset, taskset_config_type

    import inspect_sparc.train.vf as sparc_vf

    config = taskset_config_type("inspect-sparc-vf")(id="inspect-sparc-vf", source=puzzle_file)
    loaded = load_taskset(config)  # by id, as `vf eval` and prime-rl load it
    assert isinstance(loaded, sparc_vf.SparcTaskset)
    return loaded


LOAD_BY_ID = """
import inspect_sparc
from verifiers.v1.utils.loaders import environment_class, taskset_class, taskset_config_type

print(inspect_sparc.__file__)
for taskset_id in ("inspect-sparc-vf", "someone/inspect-sparc-vf@1"):
    for found in (taskset_class(taskset_id), taskset_config_type(taskset_id)):
        print(taskset_id, found.__module__, found.__qualname__)
found = environment_class("inspect-sparc-vf", "inspect-sparc-vf-gym")
print("env", found.__module__, found.__qualname__)
found = environment_class("inspect-sparc-vf")
print("default env", found.__module__, found.__qualname__)
"""


def test_a_fresh_process_loads_the_taskset_and_environment_by_id(tmp_path):
    """As `vf eval --taskset.id inspect-sparc-vf` does: no import of ours beforehand, started
    outside the checkout, so the plugin packages are found where the install put them."""
    result = subprocess.run(
        [sys.executable, "-c", LOAD_BY_ID],
        cwd=tmp_path,
        env={**os.environ, "PYTHONSAFEPATH": "1"},  # the working folder is not on sys.path
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    package, *lines = result.stdout.splitlines()
    assert Path(package).resolve().parents[1] != tmp_path.resolve()
    assert lines == [
        "inspect-sparc-vf inspect_sparc.train.vf SparcTaskset",
        "inspect-sparc-vf inspect_sparc.train.vf SparcTasksetConfig",
        "someone/inspect-sparc-vf@1 inspect_sparc.train.vf SparcTaskset",
        "someone/inspect-sparc-vf@1 inspect_sparc.train.vf SparcTasksetConfig",
        "env inspect_sparc.train.vf_gym SparcGymEnv",
        # the taskset alone brings no environment of its own: verifiers' single-agent one
        "default env verifiers.v1.envs.single_agent.env SingleAgentEnv",
    ]


def test_the_tasksets_default_harness_runs_no_code():
    """verifiers runs a taskset's own harness by default, else `bash`, which executes code."""
    from verifiers.v1.utils.loaders import default_harness_id, harness_class

    assert default_harness_id("inspect-sparc-vf") == "inspect-sparc-vf"
    assert harness_class("inspect-sparc-vf").EXECUTES_CODE is False
    assert harness_class("bash").EXECUTES_CODE is True  # the one to name when asked for


def scored(task, reply: str):
    from verifiers.v1.trace import AgentInfo, Trace, TraceTask

    trace = Trace(
        task=TraceTask(type=type(task).__name__, data=task.data),
        agent=AgentInfo(config=vf.AgentConfig()),
        root_reply=reply,
    )
    asyncio.run(task.score(trace))
    return trace


def test_tasks_are_the_prompt_dataset_rows(puzzle_file):
    from inspect_sparc.core.prompts.single_shot import SYSTEM_PROMPT, user_prompt

    tasks = list(taskset(puzzle_file))
    records = [json.loads(line) for line in open(puzzle_file, encoding="utf-8")]
    assert [t.data.id for t in tasks] == [r["id"] for r in records]
    for task, record in zip(tasks, records, strict=True):
        assert task.data.system_prompt == SYSTEM_PROMPT
        assert task.data.prompt == user_prompt(record, "paper")


def test_hand_made_traces_score_as_the_reward_functions(puzzle_file):
    task = next(iter(taskset(puzzle_file)))
    puzzle = parse_puzzle(json.loads(task.data.puzzle))
    solution = format_path(puzzle.solutions[0])
    wrong = format_path(puzzle.solutions[0][:-1])
    for reply in (f"#### {solution}", f"#### {wrong}", "I give up.", ""):
        trace = scored(task, reply)
        expected = sparc_reward([reply], task.data.puzzle)[0]
        shaped = rule_reward([reply], task.data.puzzle)[0]
        assert trace.rewards["sparc_reward"].score == expected
        assert trace.rewards["rule_reward"].score == shaped
        assert trace.rewards["rule_reward"].weight == 0.0
        assert trace.reward == expected  # the benchmark's verdict alone counts
    assert scored(task, f"#### {solution}").reward == 1.0
    assert scored(task, "").reward == 0.0


@dataclass
class ScriptedSegment:
    last_reply: str = ""
    terminated: bool = False


@dataclass
class ScriptedInteraction:
    """A player answering from a script (what a model would send), recording the turns."""

    replies: list[str]
    seen: list[str] = field(default_factory=list)
    trace: object = None
    last: str = ""

    async def turn(self, message: str | None = None) -> ScriptedSegment:
        self.seen.append(message or "")
        if not self.replies:
            return ScriptedSegment(self.last, terminated=True)
        self.last = self.replies.pop(0)
        return ScriptedSegment(self.last)


class ScriptedPlayer:
    """Opens the interaction as verifiers does: the task it is handed is scored on the trace
    when the interaction closes (verifiers' `Rollout.close`)."""

    def __init__(self, replies: list[str]) -> None:
        self.interaction_ = ScriptedInteraction(list(replies))

    @contextlib.asynccontextmanager
    async def interaction(self, task):
        from verifiers.v1.trace import AgentInfo, Trace, TraceTask

        self.interaction_.seen.append(task.data.prompt)
        self.interaction_.trace = trace = Trace(
            task=TraceTask(type=type(task).__name__, data=task.data),
            agent=AgentInfo(config=vf.AgentConfig()),
        )
        yield self.interaction_
        trace.root_reply = self.interaction_.last
        await task.score(trace)


def play(puzzle_file: str, replies: list[str]):
    """One gym episode with a scripted player; the scored trace and the turns it saw."""
    from verifiers.v1.utils.loaders import environment_class

    env_class = environment_class("inspect-sparc-vf", "inspect-sparc-vf-gym")
    task = next(iter(taskset(puzzle_file)))
    player = ScriptedPlayer(replies)
    env = object.__new__(env_class)  # run() needs only its config: no harness is started
    env.config = env_class.__orig_bases__[0].__args__[0](
        taskset={"id": "inspect-sparc-vf", "source": puzzle_file}, max_steps=20
    )
    asyncio.run(env.run(task, type("Agents", (), {"player": player})()))
    return player.interaction_.trace, player.interaction_.seen


def solution_moves(puzzle_file: str) -> tuple[list[str], str]:
    """The first task's solution as move names, and the solution as a `#### path` line."""
    task = next(iter(taskset(puzzle_file)))
    puzzle = parse_puzzle(json.loads(task.data.puzzle))
    moves = [ACTION_NAMES[a] for a in path_actions(puzzle.solutions[0])]
    return moves, f"#### {format_path(puzzle.solutions[0])}"


@pytest.mark.parametrize("solve", [True, False])
def test_the_gym_environment_plays_one_move_per_turn(puzzle_file, solve):
    moves, _ = solution_moves(puzzle_file)
    replies = [f"Going {m.lower()} now.\nFinal: {m}" for m in moves] if solve else ["no idea"] * 200
    trace, seen = play(puzzle_file, replies)
    assert trace.rewards["gym_reward"].score == (1.0 if solve else -1.0)
    assert trace.reward == (1.0 if solve else -1.0)  # what verifiers logs and trains on
    assert trace.info["gym_ended"] == ("reached_end" if solve else "step_limit")
    assert "one move per turn" in seen[0] and "Legal moves" in seen[0]  # the opening prompt
    assert all("Legal moves" in message for message in seen[2:])  # then one grid per move


@pytest.mark.parametrize("solve", [True, False])
def test_a_reply_holding_the_solution_path_does_not_change_the_episode_reward(puzzle_file, solve):
    """The reward is the gym's +1 / -1: a last reply with `#### <solution>` (which
    `sparc_reward` scores 1) neither makes a won game 2 nor a lost one 0."""
    moves, path = solution_moves(puzzle_file)
    played = moves if solve else [moves[0], ACTION_NAMES[(ACTION_NAMES.index(moves[0]) + 2) % 4]]
    replies = [f"Final: {m}" for m in played[:-1]] + [f"{path}\nFinal: {played[-1]}"]
    replies += [] if solve else [path] * 30  # then only the path, no move: the game is lost
    trace, _ = play(puzzle_file, replies)
    assert trace.rewards["sparc_reward"].score == 1.0 and trace.rewards["sparc_reward"].weight == 0
    assert trace.rewards["gym_reward"].score == (1.0 if solve else -1.0)
    assert trace.reward == (1.0 if solve else -1.0)


def test_the_verifiers_example_of_the_docs_runs(tmp_path, monkeypatch, capsys):
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "training.md"
    block = re.search(
        r"<!-- tested: verifiers -->\n```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S
    )
    assert block, "docs/training.md has no verifiers example marked for this test"
    monkeypatch.setenv("INSPECT_SPARC_CACHE_DIR", str(tmp_path))
    exec(compile(block.group(1), str(doc), "exec"), {"__name__": "docs_example"})
    out = capsys.readouterr().out
    assert out.startswith("4 ") and out.endswith("\nSparcGymEnv\n")
