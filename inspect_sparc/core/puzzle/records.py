"""Build SPaRC records in the published schema from a grid and its solutions.

The field order, the `polyshapes` JSON string, the solution entries and the `text_visualization`
YAML follow the published records byte for byte (a test rebuilds all 500 published YAML texts).
Ids are stable content hashes. Also: the features the difficulty model reads. Pure logic.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_sparc.core.puzzle.parse import SYMBOL_KINDS, TRIANGLE_COUNTS, Path, Point

#: Colour letters of `puzzle_array` and their names in `text_visualization`.
COLOR_NAMES = {
    "R": "red",
    "B": "blue",
    "G": "green",
    "Y": "yellow",
    "W": "white",
    "O": "orange",
    "P": "purple",
    "K": "black",
}
#: Kind names as `text_visualization` writes them.
_YAML_KINDS = {"square": "square", "star": "star", "triangle": "triangle"}
#: Rule kinds counted by the difficulty features and the calibration tables.
RULE_KINDS = ("square", "star", "triangle", "polyshape", "ylop", "dot", "gap")


def text_visualization(
    grid: Sequence[Sequence[str]], width: int, height: int, start: Point, end: Point
) -> str:
    """The published YAML description of a grid (cells listed by x, then y).

    Args:
        grid: the `puzzle_array`, rows of position values, (2h+1) x (2w+1).
        width: the puzzle's width in cells (w).
        height: the puzzle's height in cells (h).
        start: S's `(x, y)` position.
        end: E's `(x, y)` position.

    Returns:
        The YAML text, ending with a newline; positions with nothing to say are left out."""
    lines = [
        "puzzle:",
        "  dimensions:",
        f"    width: {width}",
        f"    height: {height}",
        "  start:",
        f"    x: {start[0]}",
        f"    y: {start[1]}",
        "  end:",
        f"    x: {end[0]}",
        f"    y: {end[1]}",
        "  cells:",
    ]
    for x in range(len(grid[0])):
        for y in range(len(grid)):
            properties = _yaml_properties(grid[y][x])
            if properties:
                lines += [
                    "    - position:",
                    f"        x: {x}",
                    f"        y: {y}",
                    "      properties:",
                ]
                lines += [f"        {line}" for line in properties]
    return "\n".join(lines) + "\n"


def _yaml_properties(value: str) -> list[str]:
    if value == ".":
        return ["dot: 1"]
    if value == "G":
        return ["gap: 1"]
    if value in ("+", "N", "S", "E"):
        return []
    parts = value.split("-")
    kind = SYMBOL_KINDS[parts[0]]
    color = f'color: "{COLOR_NAMES[parts[1]]}"'
    if kind in ("polyshape", "ylop"):
        name = "poly" if kind == "polyshape" else "ylop"
        return [f'type: "{name}"', f"polyshape: {parts[2]}", color]
    if kind == "triangle":
        return ['type: "triangle"', f"count: {TRIANGLE_COUNTS[parts[0]]}", color]
    return [f'type: "{_YAML_KINDS[kind]}"', color]


def content_id(grid: Sequence[Sequence[str]], polyshapes: Mapping[str, Any], draw: str = "") -> str:
    """A stable 16-hex-digit id: the SHA-256 of the grid, its shapes and `draw` (where the
    generator drew it, `seed:index`), so two draws of the same small puzzle stay two samples.

    Args:
        grid: the `puzzle_array`.
        polyshapes: the shapes by id, as the record stores them (0/1 rows).
        draw: where the generator drew the puzzle (`seed:index`); empty for none.

    Returns:
        The first 16 hex digits of the hash."""
    text = json.dumps([grid, polyshapes, draw], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def build_record(
    grid: Sequence[Sequence[str]],
    polyshapes: Mapping[str, Sequence[Sequence[int]]],
    solutions: Sequence[Path],
    level: int,
    score: float,
    draw: str = "",
) -> dict[str, Any]:
    """A record with every published field, in the published order; solutions sorted canonically
    (shortest first, then by coordinates) so the bytes do not depend on the search order.
    `draw` (`seed:index`) goes into the id only, keeping ids unique within a generated set.

    Args:
        grid: the `puzzle_array`, holding one `S` and one `E`.
        polyshapes: the shapes the grid's polyshape and ylop symbols name, by id (0/1 rows).
        solutions: the rule-valid paths, in any order.
        level: the difficulty level (1-5).
        score: the difficulty score.
        draw: where the generator drew the puzzle (`seed:index`); empty for none.

    Returns:
        The record as a dict in the published key order, `polyshapes` as compact JSON text."""
    rows, columns = len(grid), len(grid[0])
    width, height = (columns - 1) // 2, (rows - 1) // 2
    start = next((x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == "S")
    end = next((x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == "E")
    shapes = {key: [list(row) for row in polyshapes[key]] for key in sorted(polyshapes)}
    ordered = sorted(solutions, key=lambda path: (len(path), path))
    array = [list(row) for row in grid]
    return {
        "id": content_id(array, shapes, draw),
        "difficulty_level": level,
        "difficulty_score": score,
        "grid_size": {"height": height, "width": width},
        "polyshapes": json.dumps(shapes, separators=(",", ":")),
        "puzzle_array": array,
        "solution_count": len(ordered),
        "solutions": [
            {
                "index": index,
                "path": [{"x": x, "y": y} for x, y in path],
                "pathLength": len(path),
            }
            for index, path in enumerate(ordered)
        ],
        "text_visualization": text_visualization(array, width, height, start, end),
    }


def rule_counts(grid: Sequence[Sequence[str]]) -> dict[str, int]:
    """How many positions hold each rule kind (`RULE_KINDS`), plus triangles by number.

    Args:
        grid: the `puzzle_array`.

    Returns:
        A count for every kind in `RULE_KINDS` and for `triangle1`, `triangle2` and
        `triangle4`, zero where absent.

    Raises:
        KeyError: a symbol letter not in `SYMBOL_KINDS`, or a triangle of 3 (`C`: no
            `triangle3` count; the generator draws only 1, 2 and 4)."""
    counts = dict.fromkeys(RULE_KINDS, 0) | {"triangle1": 0, "triangle2": 0, "triangle4": 0}
    for row in grid:
        for value in row:
            if value == ".":
                counts["dot"] += 1
            elif value == "G":
                counts["gap"] += 1
            elif "-" in value:
                kind = SYMBOL_KINDS[value[0]]
                counts[kind] += 1
                if kind == "triangle":
                    counts[f"triangle{TRIANGLE_COUNTS[value[0]]}"] += 1
    return counts


#: Names of the difficulty model's inputs, in the order of its coefficients.
FEATURES = (
    "area",
    "squares",
    "stars",
    "triangles",
    "polyshapes",
    "ylops",
    "dots",
    "gaps",
    "kinds",
    "mean_path",
    "min_path",
    "log_solutions",
)


def features(record: Mapping[str, Any]) -> list[float]:
    """The difficulty model's inputs for one record (see `FEATURES`).

    Args:
        record: a published-schema record with at least one solution.

    Returns:
        One value per name in `FEATURES`, in that order."""
    size = record["grid_size"]
    counts = rule_counts(record["puzzle_array"])
    lengths = [len(s["path"]) for s in record["solutions"]]
    return [
        float(size["width"] * size["height"]),
        counts["square"],
        counts["star"],
        counts["triangle"],
        counts["polyshape"],
        counts["ylop"],
        counts["dot"],
        counts["gap"],
        sum(1 for kind in RULE_KINDS if counts[kind]),
        sum(lengths) / len(lengths),
        min(lengths),
        math.log(len(lengths)),
    ]


def predict_score(model: Mapping[str, Any], values: Sequence[float]) -> float:
    """The fitted linear model's difficulty score for one feature vector.

    Args:
        model: the calibration's `difficulty_model`: its `intercept` and `coefficients` by
            feature name.
        values: the features, as `features` gives them.

    Returns:
        The score (level = floor(score) + 1 for the published puzzles the model fits)."""
    total = float(model["intercept"])
    for name, value in zip(FEATURES, values, strict=True):
        total += float(model["coefficients"][name]) * value
    return total
