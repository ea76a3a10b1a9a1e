"""SPaRC as a verifiers (0.4, `verifiers.v1`) taskset and environment, for LLM-RL trainers.

- `SparcTaskset`: the `sparc` task's single-shot prompts (`prompt_dataset`'s rows) as tasks,
  each scored by `sparc_reward` (weight 1: the benchmark's verdict) and `rule_reward` (weight 0:
  logged beside it, the shaped signal; give it weight 1 in a config to train on it).
- `SparcChatHarness`: the default program that answers for the model, a tool-less chat loop
  (verifiers' `null` harness): the model sees the `sparc` task's prompts and replies, as in the
  evaluation. Without it verifiers would default to its `bash` harness, an agent loop that runs
  code, in which a model can write a search instead of reasoning: another protocol, only on
  request (`--env.agent.harness.id bash`).
- the step-by-step protocol as a multi-turn environment is `inspect_sparc.train.vf_gym`.

verifiers loads it by the id `TASKSET_ID` through the top-level package `inspect_sparc_vf`, which
re-exports it (docs/training.md says how). Needs the `train-verifiers` extra; no Inspect imports.
"""

from __future__ import annotations

from collections.abc import Iterator

import verifiers.v1 as vf
from verifiers.v1.harnesses.null import NullHarness

from inspect_sparc.train.dataset import prompt_records, prompt_row
from inspect_sparc.train.rewards import rule_reward, sparc_reward

#: The id verifiers resolves to `SparcTaskset` (the plugin package `inspect_sparc_vf`).
TASKSET_ID = "inspect-sparc-vf"


class SparcChatHarness(NullHarness):
    """The taskset's default harness: the model chats, with no tools and no code to run
    (verifiers' `null` harness, under the taskset's id so that verifiers picks it)."""


class SparcTasksetConfig(vf.TasksetConfig):
    """Which puzzles (`prompt_dataset`'s arguments) and which prompt kind."""

    source: str = "generated:0"
    n: int | None = None
    level: int | list[int] | None = None
    prompt: str = "paper"
    allow_test: bool = False


class SparcData(vf.TaskData):
    """One puzzle's task: the `sparc` task's prompts and the record as JSON text."""

    puzzle: str
    level: int


class SparcTask(vf.Task[SparcData, vf.State, vf.TaskConfig]):
    """A single-shot SPaRC answer, scored by the reward functions the training API exports."""

    @vf.reward(weight=1.0)
    async def sparc_reward(self, task: SparcData, trace: vf.Trace) -> float:
        """1.0 when the reply solves the puzzle as the `sparc` scorer decides.

        Args:
            task: the task's data (the puzzle record).
            trace: the rollout, whose last reply is read.

        Returns:
            1.0 or 0.0."""
        return sparc_reward([trace.last_reply], task.puzzle)[0]

    # Each verifiers reward is its own decorated method on (task, trace); the sums: train.rewards.
    @vf.reward(weight=0.0)
    async def rule_reward(self, task: SparcData, trace: vf.Trace) -> float:
        """The shaped reward in [0, 1] (training only; logged at weight 0).

        Args:
            task: the task's data (the puzzle record).
            trace: the rollout, whose last reply is read.

        Returns:
            The reward in [0, 1]."""
        return rule_reward([trace.last_reply], task.puzzle)[0]


class SparcTaskset(vf.Taskset[SparcTask, SparcTasksetConfig]):
    """The prompt dataset's puzzles as single-shot tasks (checked against the test split)."""

    def load(self) -> Iterator[SparcTask]:
        """The tasks of the configured prompt dataset, one per puzzle, in the dataset's order.

        Yields:
            One `SparcTask` per puzzle."""
        config = self.config
        records = prompt_records(config.source, config.n, config.level, config.allow_test, 1)
        for record in records:
            row = prompt_row(record, config.prompt)
            system, user = (message["content"] for message in row["prompt"])
            data = SparcData(
                id=row["id"],
                name=f"sparc-{row['id']}",
                prompt=user,
                system_prompt=system,
                puzzle=row["puzzle"],
                level=row["level"],
            )
            yield SparcTask(data, config.task)


__all__ = ["SparcChatHarness", "SparcTask", "SparcTaskset"]
