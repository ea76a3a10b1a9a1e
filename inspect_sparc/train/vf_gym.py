"""The SPaRC step-by-step protocol as a verifiers (0.4, `verifiers.v1`) multi-turn environment.

`SparcGymEnv` plays a `SparcTaskset` task on the gym (`core.stepper.Stepper`, the `sparc_gym` task's
engine): the opening turn is the puzzle's prompt followed by the grid, and each reply is read as
one move by the gym's own parser (`Final: RIGHT`, or a trailing move word or number); the
environment answers with the grid it sees (Spatial-Gym's text, `L` the agent, `V` visited)
until the episode ends on E, in a dead end or at `max_steps`. The episode's reward is the gym's
final reward alone (+1 the path is a stored solution, -1 not: `gym_reward`, weight 1), scored
with the trace when the interaction closes, so verifiers logs it; the taskset's `sparc_reward`
and `rule_reward` of the last reply are recorded beside it at weight 0 (a config can reweight
them: `--env.taskset.task.rewards.sparc_reward.weight 1`). verifiers loads
it by the id `VF_ENV_ID` through the top-level package `inspect_sparc_vf_gym`, which re-exports
it (docs/training.md). Needs the `train-verifiers` extra; no Inspect imports.
"""

from __future__ import annotations

import json
from typing import Any

import verifiers.v1 as vf

from inspect_sparc.core.episode.stepper import ACTION_NAMES, DEFAULT_MAX_STEPS, Stepper, read_action
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.train.vf import SparcData, SparcTask

#: The id verifiers resolves to `SparcGymEnv` (the plugin package `inspect_sparc_vf_gym`).
VF_ENV_ID = "inspect-sparc-vf-gym"
#: Added to the puzzle's prompt: this episode is played one move at a time.
STEP_RULES = (
    "Do not answer with the whole path. Play it one move per turn instead: end each answer with "
    "exactly one move as `Final: RIGHT` (or UP, LEFT, DOWN); you see the grid after each move."
)


def turn_text(game: Stepper) -> str:
    """What the model sees each turn: the grid (Spatial-Gym's text), its place, its moves.

    Args:
        game: the episode's stepper.

    Returns:
        The turn's message text."""
    legal = ", ".join(ACTION_NAMES[action] for action in game.legal_actions())
    return (
        f"Grid (L = you, V = visited):\n{game.grid_text()}\n"
        f"You are at {game.position_text()}. Legal moves: {legal}.\n"
        "End your answer with one move: Final: RIGHT, UP, LEFT or DOWN."
    )


def gym_reward(game: Stepper) -> float:
    """The gym's final reward: +1 when the path is a stored solution, else -1.

    Args:
        game: the finished episode's stepper.

    Returns:
        +1.0 or -1.0."""
    return 1.0 if game.solved else -1.0


#: Where the environment leaves the game's result on the trace for `SparcGymTask` to score.
GYM_RESULT = "gym_reward"


class SparcGymTask(SparcTask):
    """A `SparcTask` played on the gym: its reward is the game's +1 / -1 (weight 1); the
    taskset's rewards of the last reply (a move, rarely a path) are kept at weight 0, so a reply
    holding `#### <solution>` neither lifts a won game to 2 nor a lost one to 0."""

    @vf.reward(weight=1.0)
    async def gym_reward(self, task: SparcData, trace: vf.Trace) -> float:
        """+1 when the walked path is a stored solution, -1 otherwise (the gym's final reward).

        Args:
            task: the task's data (the puzzle record).
            trace: the rollout, holding the game's result.

        Returns:
            +1.0 or -1.0."""
        if GYM_RESULT not in trace.info:
            raise ValueError("no game result on the trace: SparcGymEnv.run records it")
        return float(trace.info[GYM_RESULT])

    # Redeclared to weigh SparcTask.sparc_reward 0 here: verifiers reads weights from the decorator.
    @vf.reward(weight=0.0)
    async def sparc_reward(self, task: SparcData, trace: vf.Trace) -> float:
        """The taskset's verdict on the last reply, recorded at weight 0.

        Args:
            task: the task's data (the puzzle record).
            trace: the rollout, whose last reply is read.

        Returns:
            1.0 or 0.0."""
        verdict: float = await SparcTask.sparc_reward(self, task, trace)
        return verdict


class SparcGymEnvConfig(vf.EnvConfig):
    """The step-by-step environment: the player's seat and the gym's step limit."""

    player: vf.AgentConfig = vf.AgentConfig()
    max_steps: int = DEFAULT_MAX_STEPS
    traceback: bool = False


class SparcGymEnv(vf.Env[SparcGymEnvConfig]):
    """One move per turn on the gym (core.stepper.Stepper, the `sparc_gym` task's engine)."""

    async def run(self, task: Any, agents: Any) -> None:
        """Play the episode; the game's result goes on the trace before the interaction
        closes, where verifiers scores the trace (`SparcGymTask.gym_reward`) and logs it.

        Args:
            task: the task to play.
            agents: the agents verifiers hands the environment."""
        puzzle = parse_puzzle(json.loads(task.data.puzzle))
        game = Stepper(puzzle, self.config.traceback, self.config.max_steps)
        prompt = f"{task.data.prompt}\n\n{STEP_RULES}\n\n{turn_text(game)}"
        opening = SparcGymTask(task.data.model_copy(update={"prompt": prompt}), task.config)
        async with agents.player.interaction(opening) as interaction:
            segment = await interaction.turn()
            while not segment.terminated:
                game.step(read_action(segment.last_reply))
                if game.done:
                    break
                segment = await interaction.turn(turn_text(game))
            info = interaction.trace.info
            info[GYM_RESULT] = gym_reward(game)
            info["gym_ended"] = game.ended
            info["gym_steps"] = game.steps


__all__ = ["SparcGymEnv"]  # verifiers takes the one Env subclass exported here
