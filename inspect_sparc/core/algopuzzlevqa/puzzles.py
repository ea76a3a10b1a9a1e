"""The 18 AlgoPuzzleVQA puzzles and the `puzzle` task parameter."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

from inspect_sparc.core.suggest import did_you_mean

PuzzleName = Literal[
    "board_tile",
    "calendar",
    "chain_link",
    "checker_move",
    "clock",
    "colour_hue",
    "map",
    "maze",
    "move_box",
    "n_queens",
    "number_slide",
    "rotting_kiwi",
    "rubiks_cube",
    "think_dot",
    "tower_of_hanoi",
    "water_jugs",
    "wheel_of_fortune",
    "wood_slide",
]
"""A puzzle name, as a type for the `puzzle` task parameter."""

PUZZLES: tuple[str, ...] = get_args(PuzzleName)
"""Puzzle names in the paper's (alphabetical) order; also the sample order of a round."""


def meant(unknown: list[str]) -> str:
    """The "did you mean" hint for the first unknown puzzle name (empty when none is close).

    Args:
        unknown: the unknown names, as given.

    Returns:
        The hint."""
    return did_you_mean(unknown[0], PUZZLES) if unknown else ""


def select_puzzles(puzzle: str | Iterable[str] | None) -> list[str]:
    """The puzzles named by `puzzle` (None: all; a name, a comma-separated string or a list).

    Args:
        puzzle: the puzzle argument as given.

    Returns:
        The puzzle names, checked (an unknown one raises ValueError with a hint)."""
    if puzzle is None:
        return list(PUZZLES)
    items = [puzzle] if isinstance(puzzle, str) else puzzle
    items = list(items) if isinstance(items, Iterable) else [items]
    if all(isinstance(item, str) for item in items):
        names = [name for item in items for name in item.split(",")]
    else:
        raise ValueError(
            f"puzzle must be a name or a list of names, got {puzzle!r}. "
            f"Valid puzzles: {', '.join(PUZZLES)}."
        )
    wanted = {name.strip() for name in names if name.strip()}
    unknown = sorted(wanted - set(PUZZLES))
    if unknown or not wanted:
        shown = ", ".join(unknown) if unknown else "(none)"
        raise ValueError(
            f"Unknown AlgoPuzzleVQA puzzle: {shown}{meant(unknown)}. "
            f"Valid puzzles: {', '.join(PUZZLES)}."
        )
    return [name for name in PUZZLES if name in wanted]
