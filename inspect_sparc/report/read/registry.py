"""Registry names of the package's baseline solvers and the task arguments the report copies as
settings: what the report recognises a run by, besides its task (`contract.protocols`).

The report alone reads these (the tasks never import them); each name is checked against the
registered object (`tests/test_contract.py`), so renaming a solver or a task argument breaks a
test, not the report.
"""

from __future__ import annotations

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
