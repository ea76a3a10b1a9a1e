"""Helpers for the answer-picture tests: decode the picture of an explanation, where the reference
renderer puts each position, and the rule-blind A* lines that break region rules."""

from __future__ import annotations

import base64
import io
import re
from typing import Any, cast

from PIL import Image
from sparc.process_puzzle import _astar_find_path
from sparc_visualization.objects.board import get_board_from_data
from sparc_visualization.plots.original_plot import OriginalPlot

from inspect_sparc.core.picture.image import ANSWER_CELL
from inspect_sparc.core.puzzle.parse import Point, parse_puzzle
from inspect_sparc.evals.sparc.scorer import PICTURED_RULES, score_answer

PICTURE = re.compile(r"!\[[^\]]*\]\(data:image/(?:png|webp);base64,([A-Za-z0-9+/=]+)\)")


def picture_of(explanation: str) -> Image.Image | None:
    """The decoded picture in an explanation, or None."""
    found = PICTURE.findall(explanation)
    assert len(found) <= 1
    return Image.open(io.BytesIO(base64.b64decode(found[0]))).convert("RGB") if found else None


def geometry(record: dict[str, Any]) -> OriginalPlot:
    """Where the reference renderer puts each grid position at the picture's scale (the oracle
    for pixel positions; it is never rendered here)."""
    board = get_board_from_data(record)
    return OriginalPlot(
        board, size=(board.width, board.height), cell_size=ANSWER_CELL, pad_pixels=ANSWER_CELL // 2
    )


def close(pixel, color, tolerance=24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, color, strict=True))


def wrong_path(puzzle):
    """The first solution with its last two points cut: a line that never reaches E."""
    return puzzle.solutions[0][:-2]


def rule_blind_line(record: dict[str, Any]) -> tuple[Point, ...]:
    """The reference's own A* line from S to E (sparc-puzzle's ablation): a valid line that
    ignores every puzzle rule, so it usually breaks region rules."""
    return tuple(map(tuple, _astar_find_path(record)))


def answer(path) -> str:
    return "My reasoning...\n#### " + ", ".join(f"({x},{y})" for x, y in path)


def region_failures(
    records: list[dict[str, Any]],
) -> list[tuple[dict[str, Any], tuple[Point, ...]]]:
    """(record, A* line) for every puzzle whose A* line breaks a rule a picture shows."""
    found = []
    for record in records:
        line = rule_blind_line(record)
        score = score_answer(parse_puzzle(record), answer(line))
        assert score.metadata is not None
        broken = set(score.metadata["rule_violations"])
        if not cast("dict[str, Any]", score.value)["invalid_path"] and broken & PICTURED_RULES:
            found.append((record, line))
    return found


def pixels(image: Image.Image) -> list[Any]:
    """The image's pixels, row by row (Pillow 12's `get_flattened_data`; `getdata` before it,
    which Pillow 14 removes)."""
    flattened = getattr(image, "get_flattened_data", None)
    return list(flattened() if flattened else image.getdata())
