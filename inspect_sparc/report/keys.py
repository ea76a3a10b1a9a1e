"""Metric and score-value key names the report reads from logs, gathered in one place.

They mirror the names the scorers write (`evals/`: the SPaRC, gym and agent scorers and
their metrics); when a scorer renames a key, this module is the one place the report follows.
The report's own table columns are its own names, not these.
"""

from __future__ import annotations

# -- metrics (a log's `results.scores[*].metrics`) --------------------------------------------
ACCURACY = "accuracy"
STDERR = "stderr"
#: `level_1` .. `level_5`: accuracy per difficulty level.
LEVEL_PREFIX = "level_"
MEAN_STEPS = "mean_steps"
INVALID_PATH_RATE = "invalid_path_rate"
#: `breaks_<rule>`: share of answers breaking a rule (also the per-sample value keys).
BREAKS_PREFIX = "breaks_"
REACHED_END_RATE = "reached_end_rate"
DEAD_END_RATE = "dead_end_rate"
STEP_LIMIT_RATE = "step_limit_rate"
CUT_RATE = "cut_rate"
#: The gym's exact chance that a uniformly random legal walk solves (no traceback only).
CHANCE = "chance"
ILLEGAL_ACTION_RATE = "illegal_action_rate"
UNPARSEABLE_RATE = "unparseable_rate"
TOOL_CALLS_PER_EPISODE = "tool_calls_per_episode"
NO_TOOL_CALL_RATE = "no_tool_call_rate"
#: AlgoPuzzleVQA: `<puzzle>` per puzzle, `<group>_<category>` per ontology category.
CATEGORY_PREFIXES = ("visual_", "algorithmic_")

# -- per-sample score values (`Score.value`) ----------------------------------------------------
CORRECT = "correct"
STEPS = "steps"
REACHED_END = "reached_end"
DEAD_END = "dead_end"
STEP_LIMIT = "step_limit"
CUT = "cut"
ILLEGAL = "illegal"
UNPARSEABLE = "unparseable"
TOOL_CALLS = "tool_calls"

# -- per-sample score metadata (`Score.metadata`) -------------------------------------------
ENDED = "ended"
#: The sample frame's column that holds `ENDED`.
ENDED_COLUMN = "ended"
PATH_LENGTH = "path_length"


def level_key(level: int) -> str:
    """The metric of one difficulty level: `level_3`."""
    return f"{LEVEL_PREFIX}{level}"


def breaks_key(rule: str) -> str:
    """The metric (and value key) of one broken rule: `breaks_gap`."""
    return f"{BREAKS_PREFIX}{rule}"
