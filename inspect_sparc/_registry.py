"""What Inspect's entry point imports: this package's tasks, solvers, scorers and offline model."""

# ruff: noqa: F401
from inspect_sparc.evals.algopuzzlevqa.scorer import algopuzzlevqa_scorer
from inspect_sparc.evals.algopuzzlevqa.solvers import algopuzzlevqa_solver
from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
from inspect_sparc.evals.errors import plain_inspect_errors
from inspect_sparc.evals.human.solver import human
from inspect_sparc.evals.reducer import mean_reducer
from inspect_sparc.evals.replay import replay_model
from inspect_sparc.evals.sparc.agent import (
    agent_scorer,
    move,
    sparc_agent,
    sparc_react,
    start_episode,
)
from inspect_sparc.evals.sparc.agent.baselines import agent_astar, agent_random
from inspect_sparc.evals.sparc.gym.scorer import gym_scorer
from inspect_sparc.evals.sparc.gym.solvers import gym_agent, gym_astar, gym_random
from inspect_sparc.evals.sparc.gym.tasks import sparc_gym
from inspect_sparc.evals.sparc.scorer import sparc_scorer
from inspect_sparc.evals.sparc.single_shot.solvers import search_solver
from inspect_sparc.evals.sparc.single_shot.tasks import sparc, sparc_hard
from inspect_sparc.evals.sparc.visual.solvers import prepend_puzzle_image
from inspect_sparc.evals.sparc.visual.tasks import sparc_visual

# Inspect loads this entry point before it looks up a model provider or a solver: from here on,
# its errors for a name nothing registered show as one line in a run of this package's tasks.
plain_inspect_errors()
