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

from inspect_sparc.core.picture.image import ANSWER_CELL, ANSWER_PIXEL
from inspect_sparc.core.puzzle.parse import Point, parse_puzzle
from inspect_sparc.evals.sparc.scorer import PICTURED_RULES, score_answer

PICTURE = re.compile(
    r"!\[[^\]]*\]\(data:image/(?:png|webp)(?:;padding=0+)?;base64,([A-Za-z0-9+/=]+)\)"
)


def picture_of(explanation: str) -> Image.Image | None:
    """The decoded picture in an explanation, or None."""
    found = PICTURE.findall(explanation)
    assert len(found) <= 1
    return Image.open(io.BytesIO(base64.b64decode(found[0]))).convert("RGB") if found else None


class Shown:
    """The reference renderer's plot at the scale an answer picture is drawn (`ANSWER_CELL /
    ANSWER_PIXEL` pixels a cell), its positions, path width and (once rendered) pixels
    enlarged `ANSWER_PIXEL` times, as the picture is shown."""

    def __init__(self, plot: OriginalPlot) -> None:
        self.plot = plot
        k = ANSWER_PIXEL
        self.middle_positions = [[(x * k, y * k) for x, y in row] for row in plot.middle_positions]
        self.path_size = plot.path_size * k
        self.x_image_size, self.y_image_size = plot.x_image_size * k, plot.y_image_size * k
        self._img: Image.Image | None = None

    def render(self) -> None:
        self.plot.render()
        drawn = self.plot._img
        size = (drawn.width * ANSWER_PIXEL, drawn.height * ANSWER_PIXEL)
        self._img = drawn.resize(size, Image.Resampling.NEAREST)


def geometry(record: dict[str, Any]) -> Any:
    """Where the reference renderer puts each grid position at the picture's scale (the oracle
    for pixel positions; `render()` draws the bare puzzle as the picture shows it)."""
    board = get_board_from_data(record)
    drawn = ANSWER_CELL // ANSWER_PIXEL
    size = (board.width, board.height)
    return Shown(OriginalPlot(board, size=size, cell_size=drawn, pad_pixels=drawn // 2))


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
