"""Reward functions for training on SPaRC (the TRL `GRPOTrainer` reward-function convention).

`sparc_reward` is the `sparc` scorer's verdict as a number: the same extraction after `####`
(`core.answer.extract_path`) and the same exact match (`core.analysis.is_solved`). `rule_reward`
adds partial credit from the rule engine (`core.rules.check`); it is for training only, never a
benchmark number (docs/training.md gives the formula and why). A reward function receives the
completions and every dataset column as keyword arguments: `puzzle` is that column (one record,
or its JSON text, per completion); the other columns are accepted and ignored.

Puzzles are parsed once and kept (with their rule tables) in a small cache, so that scoring the
many completions of one prompt does not parse its puzzle again. Pure logic: no Inspect imports.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from inspect_sparc.core.puzzle.answer import extract_path
from inspect_sparc.core.puzzle.parse import Path, Puzzle, parse_puzzle
from inspect_sparc.core.puzzle.rules import LINE_RULES, STRUCTURAL_RULES, Board, board_for, check
from inspect_sparc.core.puzzle.verdict import is_solved

#: Parsed puzzles kept per process (a GRPO batch holds a few prompts; a dataset a few thousand).
CACHE_SIZE = 4096
#: `rule_reward` tiers (docs/training.md): a line from S to E earns at least `LINE_FLOOR`, a
#: path that is no line at most `PATH_CEILING`, so the order solved > line > path > nothing
#: never depends on how many rules broke.
LINE_FLOOR = 0.5
LINE_SPAN = 0.4
PATH_CEILING = 0.25
#: Faults of a line that the rule engine counts besides the puzzle's own rules: the structural
#: rules a path can break and still be a line (a gap crossed, a step off the grid).
LINE_FAULTS = tuple(rule for rule in STRUCTURAL_RULES if rule not in LINE_RULES)
#: Rule name -> the symbol kinds that make a puzzle have that rule.
RULE_SYMBOLS = {
    "square": {"square"},
    "star": {"star"},
    "triangle": {"triangle"},
    "polyshape": {"polyshape", "ylop"},
}

_cache: OrderedDict[Any, tuple[Any, Puzzle, Board, tuple[str, ...]]] = OrderedDict()


def puzzle_rules(puzzle: Puzzle) -> tuple[str, ...]:
    """The rules a line can break on this puzzle: its symbols' rules, dots, gaps, the grid.

    Args:
        puzzle: the parsed puzzle.

    Returns:
        The line faults, then the rules of its symbols, dots and gaps."""
    kinds = {symbol.kind for symbol in puzzle.symbols.values()}
    rules = [rule for rule, needs in RULE_SYMBOLS.items() if kinds & needs]
    if puzzle.dots:
        rules.append("dot")
    return (*LINE_FAULTS, *rules)


def cached_puzzle(record: Mapping[str, Any] | str) -> tuple[Puzzle, Board, tuple[str, ...]]:
    """The parsed puzzle, its rule tables and rules for a record or its JSON text, parsed once.

    JSON text is its own key; a record is found by its id and then compared whole, so two
    different records that share an id are never confused.

    Args:
        record: a SPaRC record, or its JSON text.

    Returns:
        The puzzle, its rule tables and the rules a line can break on it."""
    key = record if isinstance(record, str) else ("id", str(record.get("id")))
    entry = _cache.get(key)
    if entry is not None and (isinstance(record, str) or entry[0] is record or entry[0] == record):
        _cache.move_to_end(key)
        return entry[1:]
    parsed = json.loads(record) if isinstance(record, str) else record
    puzzle = parse_puzzle(parsed)
    entry = (record, puzzle, board_for(puzzle), puzzle_rules(puzzle))
    _cache[key] = entry
    if len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return entry[1:]


def completion_text(completion: Any) -> str:
    """The answer text of a completion: a string, or the last message of a conversation (TRL
    passes `[{"role": "assistant", "content": ...}]`), content parts joined; else "".

    Args:
        completion: a completion as the trainer passes it.

    Returns:
        The answer text."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        content = completion.get("content")
    elif isinstance(completion, Sequence) and completion:
        return completion_text(completion[-1])
    else:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = [p.get("text") if isinstance(p, Mapping) else p for p in content]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def puzzle_column(puzzle: Any, count: int) -> Sequence[Any]:
    """The `puzzle` argument as one entry per completion (one record is shared by all).

    Args:
        puzzle: the `puzzle` column, or one record (or JSON text) for all.
        count: how many completions.

    Returns:
        One record (or JSON text) per completion."""
    if isinstance(puzzle, str | Mapping):
        return [puzzle] * count
    if not isinstance(puzzle, Sequence) or len(puzzle) != count:
        size = len(puzzle) if isinstance(puzzle, Sequence) else type(puzzle).__name__
        raise ValueError(f"puzzle must give one record per completion ({count}); got {size}")
    return puzzle


def path_reward(puzzle: Puzzle, path: Path | None, board: Board, rules: Sequence[str]) -> float:
    """`rule_reward` of an extracted path (None: no coordinates found); see docs/training.md.

    Args:
        puzzle: the parsed puzzle.
        path: the extracted path, or None.
        board: the puzzle's rule tables.
        rules: the rules a line can break on it.

    Returns:
        The reward in [0, 1]."""
    if is_solved(puzzle, path):
        return 1.0
    if not path:
        return 0.0
    broken = set(check(puzzle, path, board).broken_rules)
    line_faults = broken.intersection(LINE_RULES)
    if line_faults:
        return PATH_CEILING * (1 - len(line_faults) / len(LINE_RULES))
    return LINE_FLOOR + LINE_SPAN * (1 - len(broken.intersection(rules)) / len(rules))


def score_completions(
    completions: Sequence[Any],
    puzzle: Any,
    score: Callable[[Puzzle, Path | None, Board, tuple[str, ...]], float],
) -> list[float]:
    """Every reward function's loop: each completion's path extracted (as the `sparc` scorer
    extracts it) and scored with its puzzle, parsed once per puzzle (`cached_puzzle`).

    Args:
        completions: the model's answers (texts or conversations).
        puzzle: the records (or JSON texts), one per completion or one for all.
        score: the reward of one answer from its puzzle, its extracted path (None: no
            coordinates found), the puzzle's rule tables and the rules a line can break on it.

    Returns:
        One reward per completion, in their order."""
    rewards = []
    records = puzzle_column(puzzle, len(completions))
    for completion, record in zip(completions, records, strict=True):
        parsed, board, rules = cached_puzzle(record)
        path = extract_path(completion_text(completion), parsed.end)
        rewards.append(score(parsed, path, board, rules))
    return rewards


def _solved(puzzle: Puzzle, path: Path | None, board: Board, rules: Sequence[str]) -> float:
    """1.0 when `path` is a stored solution of `puzzle` (the `sparc` scorer's verdict), else 0.0."""
    return 1.0 if is_solved(puzzle, path) else 0.0


def sparc_reward(completions: Sequence[Any], puzzle: Any, **kwargs: Any) -> list[float]:
    """1.0 for each completion that solves its puzzle as the `sparc` scorer decides, else 0.0.

    Args:
        completions: the model's answers (texts or conversations).
        puzzle: the records (or JSON texts), one per completion or one for all.
        **kwargs: the trainer's other dataset columns, ignored.

    Returns:
        One reward per completion."""
    return score_completions(completions, puzzle, _solved)


# TRL calls every reward function alike: signature and Args repeat; the loop is score_completions.
def rule_reward(completions: Sequence[Any], puzzle: Any, **kwargs: Any) -> list[float]:
    """A shaped reward in [0, 1] per completion: 1.0 exactly when solved, partial credit from
    the rule engine otherwise (training only, never a benchmark number).

    Args:
        completions: the model's answers (texts or conversations).
        puzzle: the records (or JSON texts), one per completion or one for all.
        **kwargs: the trainer's other dataset columns, ignored.

    Returns:
        One reward per completion."""
    return score_completions(completions, puzzle, path_reward)
