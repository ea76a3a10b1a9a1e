"""The reward split into parts, as the SPaRC authors' GRPO recipe splits it: one TRL reward
function per part, each 0.0 or 1.0, summed with `REWARD_WEIGHTS` (docs/training.md).

- `format_reward`: the answer gives `(x, y)` coordinates after its last `####` (the extraction
  the `sparc` scorer runs finds a path);
- `line_reward`: that path is a line from S to E (the reference's `fully_valid_path`: starts on
  S, ends on E, connected, no point twice, no rule cell);
- one function per rule (`gap_reward`, `dot_reward`, `square_reward`, `star_reward`,
  `triangle_reward`, `polyshape_reward`): the path is a line and breaks no rule of that kind
  (`core.rules.check`; `gap` also counts a step off the grid). A rule the puzzle does not hold
  cannot be broken, so every line earns it;
- `sparc_reward` (the benchmark's verdict): the path is a stored solution.

New here (the authors' parts are the reference's `analyze_path` fields, zeroed on a solved answer,
with weights under which a valid unsolved line outscores a solution); the weights below keep
every solved answer above every unsolved one. Pure logic: no Inspect imports.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from inspect_sparc.core.puzzle.parse import Path, Puzzle
from inspect_sparc.core.puzzle.rules import LINE_RULES, Board, check
from inspect_sparc.train.rewards import score_completions, sparc_reward

#: The rules with a reward of their own, and the rule-engine names each one stands for.
RULE_PARTS: dict[str, tuple[str, ...]] = {
    "gap": ("gap", "off_grid"),
    "dot": ("dot",),
    "square": ("square",),
    "star": ("star",),
    "triangle": ("triangle",),
    "polyshape": ("polyshape",),
}

RewardFunction = Callable[..., list[float]]


def _verdicts(
    completions: Sequence[Any], puzzle: Any, decide: Callable[[bool, set[str]], bool]
) -> list[float]:
    """1.0 where `decide(has_path, broken_rules)` holds for a completion's extracted path."""

    def verdict(parsed: Puzzle, path: Path | None, board: Board, rules: Sequence[str]) -> float:
        broken = set(check(parsed, path, board).broken_rules) if path else set()
        return 1.0 if decide(bool(path), broken) else 0.0

    return score_completions(completions, puzzle, verdict)


def format_reward(completions: Sequence[Any], puzzle: Any, **kwargs: Any) -> list[float]:
    """1.0 for each answer with `(x, y)` coordinates after its last `####`, else 0.0.

    Args:
        completions: the model's answers (texts or conversations).
        puzzle: the records (or JSON texts), one per completion or one for all.
        **kwargs: the trainer's other dataset columns, ignored.

    Returns:
        One reward per completion."""
    return _verdicts(completions, puzzle, lambda has_path, _: has_path)


def _is_line(has_path: bool, broken: set[str]) -> bool:
    """A path that is a line from S to E (no structural fault of `LINE_RULES`)."""
    return has_path and not broken.intersection(LINE_RULES)


# TRL's reward signature and Args, as format_reward's and sparc_reward's; the loop is _verdicts.
def line_reward(completions: Sequence[Any], puzzle: Any, **kwargs: Any) -> list[float]:
    """1.0 for each answer whose path is a line from S to E (solved or not), else 0.0.

    Args:
        completions: the model's answers (texts or conversations).
        puzzle: the records (or JSON texts), one per completion or one for all.
        **kwargs: the trainer's other dataset columns, ignored.

    Returns:
        One reward per completion."""
    return _verdicts(completions, puzzle, _is_line)


def rule_part(rule: str) -> RewardFunction:
    """The reward function of one rule of `RULE_PARTS`, named `<rule>_reward` (TRL logs it as
    `rewards/<rule>_reward/mean`): 1.0 for a line that breaks no rule of that kind.

    Args:
        rule: one of `RULE_PARTS`.

    Returns:
        The reward function (TRL's signature)."""
    names = set(RULE_PARTS[rule])

    def reward(completions: Sequence[Any], puzzle: Any, **kwargs: Any) -> list[float]:
        return _verdicts(completions, puzzle, lambda p, b: _is_line(p, b) and not b & names)

    reward.__name__ = reward.__qualname__ = f"{rule}_reward"
    reward.__doc__ = f"1.0 for each answer whose path is a line breaking no {rule} rule."
    return reward


gap_reward, dot_reward, square_reward, star_reward, triangle_reward, polyshape_reward = (
    rule_part(rule) for rule in RULE_PARTS
)

#: The parts in order, and their weights (GRPOConfig's `reward_weights`): solved 1.0, a line
#: 0.25, each rule 0.05, the format 0.1; an unsolved answer earns at most 0.65, a solved one 1.65.
REWARD_PARTS: tuple[RewardFunction, ...] = (
    sparc_reward,
    line_reward,
    gap_reward,
    dot_reward,
    square_reward,
    star_reward,
    triangle_reward,
    polyshape_reward,
    format_reward,
)
REWARD_WEIGHTS: tuple[float, ...] = (1.0, 0.25, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.1)
