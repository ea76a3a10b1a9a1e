"""The names of the score-value keys, score metadata keys and metrics of every task, defined once.

Scorers write these keys into the dict `Score.value`, metrics read them and log under the metric
names, and the report (`inspect_sparc.report`) finds its columns by the same names. Renaming one
here renames it everywhere; a value key or metric name that changes breaks comparison with
earlier logs, so any change here is an interface change of the task version (`docs/
development.md`). Pure: no Inspect import, so the report can read it without loading Inspect.
"""

from __future__ import annotations

from inspect_sparc.core.algopuzzlevqa.ontology import CATEGORIES

# The episode endings, re-exported: the report reads every name of the scores from here.
from inspect_sparc.core.episode.stepper import DEAD_END as DEAD_END
from inspect_sparc.core.episode.stepper import REACHED_END as REACHED_END
from inspect_sparc.core.episode.stepper import STEP_LIMIT as STEP_LIMIT
from inspect_sparc.core.puzzle.rules import RULES

# Score value keys: every SPaRC protocol.
#: 1 when the path is a stored solution (every task's headline key, AlgoPuzzleVQA's too).
CORRECT = "correct"
#: 1 when the answer is not a valid line from S to E (the paper's "invalid path"; single shot).
INVALID_PATH = "invalid_path"
#: Rule -> `breaks_<rule>`: 1 when the answer broke that rule (the metric has the same name).
BREAK_KEYS: dict[str, str] = {rule: f"breaks_{rule}" for rule in RULES}

# Score value keys: step-by-step episodes (`sparc_gym`, `sparc_agent`).
#: How an episode ended: one key each, 1 for the ending it had (`CUT`: stopped by a message,
#: token or time limit before any of the others).
CUT = "cut"
STEPS = "steps"
ILLEGAL = "illegal"
UNPARSEABLE = "unparseable"
BACKTRACKS = "backtracks"
#: The probability that random legal moves solve the puzzle (no traceback only; also a metric).
CHANCE = "chance"

# Score value keys: `sparc_agent`.
TOOL_CALLS = "tool_calls"
TURNS = "turns"
NO_TOOL_TURNS = "no_tool_turns"
#: Tool calls Inspect rejected before `move` ran (broken JSON, bad arguments, unknown tool).
MALFORMED_TOOL_CALLS = "malformed_tool_calls"

# Score value keys: `algopuzzlevqa` (besides `CORRECT`).
#: 1 when the option was read from the follow-up reply (the authors' second turn).
FOLLOW_UP = "follow_up"

# The SPaRC tasks' epochs reducer (`evals/reducer.py`): Inspect's mean, registered in this
# package's namespace, so a log names it `inspect_sparc/mean`.
EPOCHS_REDUCER = "inspect_sparc/mean"

# Metric names.
ACCURACY = "accuracy"
STDERR = "stderr"
#: A run on a shipped subset (`-T puzzles=informative:N`): its headline `accuracy` is the
#: estimate of the whole test split's accuracy, with these interval ends, and the subset's own
#: plain mean is `subset_accuracy` (the metrics `split_accuracy` and `split_accuracy_by_level`).
ACCURACY_CI95_LOW = "accuracy_ci95_low"
ACCURACY_CI95_HIGH = "accuracy_ci95_high"
SUBSET_ACCURACY = "subset_accuracy"
INVALID_PATH_RATE = "invalid_path_rate"
#: Accuracy per level: `level_1` ... `level_5`.
LEVEL_METRIC = "level_{group}"
#: Metric name -> value key of every rule-break rate (the same name on both sides).
BREAK_METRICS: dict[str, str] = {key: key for key in BREAK_KEYS.values()}
REACHED_END_RATE = "reached_end_rate"
DEAD_END_RATE = "dead_end_rate"
STEP_LIMIT_RATE = "step_limit_rate"
CUT_RATE = "cut_rate"
# Alike in shape only to protocols.PUBLISHED_PER_PUZZLE (names, then a dict of them): other data.
#: Episode endings as rates: metric name -> value key.
ENDING_METRICS: dict[str, str] = {
    REACHED_END_RATE: REACHED_END,
    DEAD_END_RATE: DEAD_END,
    STEP_LIMIT_RATE: STEP_LIMIT,
    CUT_RATE: CUT,
}
MEAN_STEPS = "mean_steps"
ILLEGAL_ACTION_RATE = "illegal_action_rate"
UNPARSEABLE_RATE = "unparseable_rate"
#: Shares of all steps taken: metric name -> (value key counted, value key of steps).
STEP_SHARES: dict[str, tuple[str, str]] = {
    ILLEGAL_ACTION_RATE: (ILLEGAL, STEPS),
    UNPARSEABLE_RATE: (UNPARSEABLE, STEPS),
}
TOOL_CALLS_PER_EPISODE = "tool_calls_per_episode"
NO_TOOL_CALL_RATE = "no_tool_call_rate"
MALFORMED_TOOL_CALLS_PER_EPISODE = "malformed_tool_calls_per_episode"
MALFORMED_TOOL_CALL_RATE = "malformed_tool_call_rate"


#: `breaks_<rule>`: share of answers breaking a rule (also the per-sample value keys).
BREAKS_PREFIX = next(key.removesuffix(rule) for rule, key in BREAK_KEYS.items())
#: AlgoPuzzleVQA: `<puzzle>` per puzzle, `<family>_<category>` per ontology category.
CATEGORY_PREFIXES = tuple(sorted({name.split("_", 1)[0] + "_" for name in CATEGORIES}))

# Per-sample score metadata (`Score.metadata`: the episode scorers' explanation, not values).
#: How an episode ended (one of the ending keys, or `CUT`).
ENDED = "ended"
#: Points in the answered path.
PATH_LENGTH = "path_length"


def level_metric(level: int) -> str:
    """The accuracy metric of one level: `level_3`.

    Args:
        level: the difficulty level, 1-5.

    Returns:
        The metric name."""
    return LEVEL_METRIC.format(group=level)


def breaks_key(rule: str) -> str:
    """The metric (and value key) of one broken rule: `breaks_gap`.

    Args:
        rule: the rule or fault name (`gap`, `revisit`, ...).

    Returns:
        The metric and value key."""
    return BREAK_KEYS.get(rule, f"{BREAKS_PREFIX}{rule}")
