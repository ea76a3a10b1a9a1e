"""The `sparc_gym` scorer: the step-by-step episode's score (`evals/sparc/episode_scorer.py`)."""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from inspect_sparc.evals.sparc.episode_scorer import episode_metrics, score_recorded_episode


@scorer(metrics=episode_metrics())
def gym_scorer() -> Scorer:
    """Replay the episode's recorded moves and score the final path against the solutions.

    Returns:
        A scorer that replays the moves recorded in the sample's store (`gym_moves`) and scores
        the final path as `sparc` scores an answer; an episode cut short by a limit is scored on
        the path so far. Its metrics: accuracy, how episodes ended, steps, chance level and
        rule-break rates (`episode_metrics`)."""

    async def score(state: TaskState, target: Target) -> Score:
        return await score_recorded_episode(state)

    return score
