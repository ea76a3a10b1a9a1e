"""Registry names of the package's tasks and baseline solvers, and the task arguments the report
copies as settings: what the report recognises a run by.

Each name is checked against the registered object (`tests/test_contract.py`), so renaming a
task, a solver or a task argument breaks a test, not the report.
"""

from __future__ import annotations

#: The tasks, by registry name without the package prefix (`inspect_sparc.TASK_MODULES` maps
#: each to its module).
SPARC = "sparc"
SPARC_HARD = "sparc_hard"
SPARC_GYM = "sparc_gym"
SPARC_VISUAL = "sparc_visual"
SPARC_AGENT = "sparc_agent"
ALGOPUZZLEVQA = "algopuzzlevqa"
TASK_NAMES = (SPARC, SPARC_HARD, SPARC_GYM, SPARC_VISUAL, SPARC_AGENT, ALGOPUZZLEVQA)
#: The step-by-step tasks (an episode per puzzle: endings, steps).
EPISODE_TASKS = (SPARC_GYM, SPARC_AGENT)

#: Solvers that answer without a model (the report shows their runs as baselines).
SEARCH_SOLVER = "search_solver"
GYM_ASTAR = "gym_astar"
GYM_RANDOM = "gym_random"
AGENT_ASTAR = "agent_astar"
AGENT_RANDOM = "agent_random"
BASELINE_SOLVER_NAMES = (SEARCH_SOLVER, GYM_ASTAR, GYM_RANDOM, AGENT_ASTAR, AGENT_RANDOM)

#: Task arguments (or task metadata) copied into every row of the report as settings.
SETTINGS = (
    "prompt",
    "traceback",
    "observation",
    "plot",
    "max_steps",
    "source",
    "split",
    "subset",
    "extraction",
    "prevent_direct_answer",
    "max_image_size",
)
#: Task arguments that choose the puzzles -> the report's column for them (a sample's own
#: `level` and `puzzle` columns are the sample's): AlgoPuzzleVQA's `puzzle` (puzzle types) and
#: SPaRC's `puzzles` (a shipped subset, e.g. informative:100) share the `puzzles` column.
FILTERS = {"level": "levels", "puzzle": "puzzles", "puzzles": "puzzles"}
