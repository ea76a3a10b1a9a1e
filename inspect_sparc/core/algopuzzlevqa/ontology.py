"""AlgoPuzzleVQA's ontology: the visual and algorithmic features each puzzle needs (pure data).

Transcribed from the authors' table (`img/ontology.png` in declare-lab/LLM-PuzzleTest at the
pinned commit; the paper's ontology, arXiv 2403.03864). The paper's Table 1 reports accuracy per
category: the mean over all instances of the puzzles that have it. A puzzle has several.
"""

from __future__ import annotations

VISUAL: tuple[str, ...] = ("colour", "position", "shape_size", "text")
"""Visual features, in the paper's order."""

ALGORITHMIC: tuple[str, ...] = (
    "arithmetic",
    "boolean_logic",
    "combinatorics",
    "graphs",
    "optimization",
    "search",
    "sets",
)
"""Algorithmic features, in the paper's order."""

CATEGORIES: tuple[str, ...] = tuple(f"visual_{name}" for name in VISUAL) + tuple(
    f"algorithmic_{name}" for name in ALGORITHMIC
)
"""The 11 category names, family first (`visual_colour` ... `algorithmic_sets`): metric names."""

_TABLE = """
board_tile       1 1 0 0  1 1 0 0 0 0 0
calendar         0 1 0 1  1 0 0 0 0 0 0
chain_link       0 1 1 0  1 0 0 0 1 0 1
checker_move     1 1 0 0  1 1 0 0 0 1 0
clock            0 1 1 1  1 0 0 0 0 0 0
colour_hue       1 1 0 0  1 0 0 0 1 0 0
map              1 1 1 1  1 1 1 1 0 1 0
maze             1 1 0 0  1 0 0 1 1 1 0
move_box         1 1 0 0  1 0 0 1 1 1 0
n_queens         0 1 0 0  1 1 0 0 0 1 0
number_slide     0 1 0 1  1 0 1 0 1 1 1
rotting_kiwi     0 1 0 0  1 1 0 1 1 1 0
rubiks_cube      1 1 0 0  1 0 0 1 0 0 0
think_dot        1 1 1 0  1 1 0 0 0 0 1
tower_of_hanoi   0 1 1 0  1 1 0 0 1 1 0
water_jugs       0 1 1 1  1 1 0 0 1 1 0
wheel_of_fortune 0 1 1 1  1 0 0 0 0 0 0
wood_slide       0 1 1 0  1 0 0 0 1 1 0
"""
"""The authors' table: puzzle, then 1/0 per category in the order of CATEGORIES."""


def _parse(table: str) -> dict[str, tuple[str, ...]]:
    """Puzzle -> its category names, read from the 0/1 table."""
    ontology: dict[str, tuple[str, ...]] = {}
    for line in table.strip().splitlines():
        puzzle, *flags = line.split()
        ontology[puzzle] = tuple(
            c for c, flag in zip(CATEGORIES, flags, strict=True) if flag == "1"
        )
    return ontology


ONTOLOGY: dict[str, tuple[str, ...]] = _parse(_TABLE)
"""Puzzle name -> the categories it has (metric names, in CATEGORIES order)."""


def puzzle_categories(puzzle: str) -> list[str]:
    """The categories of `puzzle` (an unknown puzzle has none).

    Args:
        puzzle: the puzzle name.

    Returns:
        Its category names, in `CATEGORIES` order."""
    return list(ONTOLOGY.get(puzzle, ()))
