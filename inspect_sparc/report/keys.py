"""Metric and score-value key names the report reads from logs: the scorers' own names.

Every name the scorers write is defined once in `inspect_sparc.core.names` (pure, no Inspect
import); this module gives the report the ones it reads, plus the prefixes it matches columns
by, so a scorer that renames a key renames the report's column with it. The report's own table
columns are its own names, not these.
"""

from __future__ import annotations

from inspect_sparc.core.names import (  # noqa: F401 - re-exported for the report's modules
    ACCURACY,
    BREAK_KEYS,
    CHANCE,
    CORRECT,
    CUT,
    CUT_RATE,
    DEAD_END,
    DEAD_END_RATE,
    EPOCHS_REDUCER,
    ILLEGAL,
    ILLEGAL_ACTION_RATE,
    INVALID_PATH,
    INVALID_PATH_RATE,
    MALFORMED_TOOL_CALL_RATE,
    MALFORMED_TOOL_CALLS,
    MEAN_STEPS,
    NO_TOOL_CALL_RATE,
    NO_TOOL_TURNS,
    REACHED_END,
    REACHED_END_RATE,
    STDERR,
    STEP_LIMIT,
    STEP_LIMIT_RATE,
    STEPS,
    TOOL_CALLS,
    TOOL_CALLS_PER_EPISODE,
    TURNS,
    UNPARSEABLE,
    UNPARSEABLE_RATE,
    level_metric,
)
from inspect_sparc.core.ontology import CATEGORIES

#: `breaks_<rule>`: share of answers breaking a rule (also the per-sample value keys).
BREAKS_PREFIX = next(key.removesuffix(rule) for rule, key in BREAK_KEYS.items())
#: AlgoPuzzleVQA: `<puzzle>` per puzzle, `<family>_<category>` per ontology category.
CATEGORY_PREFIXES = tuple(sorted({name.split("_", 1)[0] + "_" for name in CATEGORIES}))

# -- per-sample score metadata (`Score.metadata`; the scorers' explanation data, not values) --
ENDED = "ended"
#: The sample frame's column that holds `ENDED`.
ENDED_COLUMN = "ended"
PATH_LENGTH = "path_length"


def breaks_key(rule: str) -> str:
    """The metric (and value key) of one broken rule: `breaks_gap`."""
    return BREAK_KEYS.get(rule, f"{BREAKS_PREFIX}{rule}")
