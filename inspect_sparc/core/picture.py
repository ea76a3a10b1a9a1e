"""SPaRC puzzles as pictures: the authors' renderer made reproducible, and answers drawn for people.

`puzzle_png` is `sparc_visualization.plot.get_puzzle_image` (0.2.2, the renderer behind the
published visual numbers) with one change: its font lookup (`arial.ttf`, then DejaVu Sans Mono,
then Pillow's default, depending on the machine) is pinned to the DejaVu Sans Mono 2.37 shipped
in `inspect_sparc/fonts/`, so a puzzle and plot give the same bytes on every machine, equal to
the reference's output on a standard Linux box. `answer_image` draws an answer's path on
the puzzle with the positions where rules broke ringed, small enough to keep in every score
explanation. Pure logic: no Inspect. PIL and the renderer are imported where they are used.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from inspect_sparc.core.puzzle import Point, Puzzle

#: Every plot type of sparc-visualization 0.2.2 (`get_puzzle_image`'s `plot_type`).
PLOT_TYPES: tuple[str, ...] = (
    "original",
    "start_end_marked",
    "coordinate_grid",
    "coordinate_grid_and_start_end_marked",
    "path_cell_annotated",
    "text",
    "low_contrast",
    "low_contrast_and_path_cell_annotated",
    "low_resolution",
    "low_resolution_and_path_cell_annotated",
    "rotated",
    "rotated_and_path_cell_annotated",
    "black_frame",
    "black_frame_and_path_cell_annotated",
)

#: The font every text-bearing plot uses: DejaVu Sans Mono 2.37 (Debian fonts-dejavu-core 2.37).
FONT_PATH = Path(__file__).resolve().parent.parent / "fonts" / "DejaVuSansMono.ttf"
FONT_NAME = "DejaVu Sans Mono 2.37"

#: Reference renderer modules that look a font up by name (the others draw shapes only, or call
#: Pillow's built-in font, which ships inside Pillow and so is the same everywhere).
_FONT_USERS = ("text_plot", "path_cell_annotation_plot")
#: The font swap patches module globals: one render at a time.
_RENDER_LOCK = threading.Lock()


def check_plot_type(plot: str) -> str:
    """`plot` if the renderer offers it, else a ValueError listing every plot type."""
    if plot not in PLOT_TYPES:
        raise ValueError(f"plot must be one of {', '.join(PLOT_TYPES)}; got {plot!r}")
    return plot


@lru_cache(maxsize=16)
def pinned_font(size: int) -> Any:
    """The shipped DejaVu Sans Mono at `size` points (a PIL FreeTypeFont)."""
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT_PATH), size=size)


def _load_pinned_font(size: int, preferred_path: str | None = None) -> Any:
    """Stands in for `sparc_visualization.fonts.load_plot_font`: always the shipped font."""
    return pinned_font(size)


def puzzle_image(record: Mapping[str, Any], plot: str = "original", path: Any = None) -> Any:
    """The reference renderer's PIL image of a record, its font pinned to the shipped file.

    `path` (points or `{"x", "y"}` dicts) is drawn over the puzzle as the reference does.
    """
    check_plot_type(plot)
    from importlib import import_module

    from sparc_visualization.plot import get_puzzle_image

    modules = [import_module(f"sparc_visualization.plots.{name}") for name in _FONT_USERS]
    with _RENDER_LOCK:
        saved = [module.load_plot_font for module in modules]
        for module in modules:
            module.load_plot_font = _load_pinned_font
        try:
            return get_puzzle_image(dict(record), plot_type=plot, path=path)
        finally:
            for module, original in zip(modules, saved, strict=True):
                module.load_plot_font = original


def encode_png(image: Any) -> bytes:
    """PNG bytes exactly as the reference encodes its images (zlib level 1, no optimize pass)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1, optimize=False)
    return buffer.getvalue()


def puzzle_png(record: Mapping[str, Any], plot: str = "original", path: Any = None) -> bytes:
    """The PNG a model is shown for a record and plot (and, step by step, the path so far)."""
    return encode_png(puzzle_image(record, plot, path))


def data_uri(data: bytes, mime: str = "image/png") -> str:
    """A `data:<mime>;base64,...` URI, the form the reference sends and Inspect stores."""
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


@lru_cache(maxsize=1)
def renderer_info() -> dict[str, str]:
    """What made the images, for the log: renderer and Pillow versions, the font and its hash."""
    digest = hashlib.sha256(FONT_PATH.read_bytes()).hexdigest()
    return {
        "renderer": f"sparc-visualization {metadata.version('sparc-visualization')}",
        "pillow": metadata.version("pillow"),
        "font": f"{FONT_NAME} (sha256 {digest[:16]})",
    }


# --- Pictures of answers, for people reading a log -------------------------------------------

#: Pixels per grid cell of an answer picture: the reference uses 100; 24 keeps every symbol
#: legible in about 0.55 KB of WebP, which matters: Inspect stores an explanation three times
#: (sample scores, score event, reductions) and the text-mode log must stay near upstream's.
ANSWER_CELL = 24
#: The answer's path and the rings around positions where a rule broke.
PATH_COLOR = (255, 255, 255)
MARK_COLOR = (255, 0, 160)


def board_record(puzzle: Puzzle) -> dict[str, Any]:
    """The fields the reference renderer reads, rebuilt from a parsed puzzle (any record form)."""
    return {
        "id": puzzle.id,
        "difficulty_level": puzzle.level,
        "difficulty_score": puzzle.difficulty_score,
        "grid_size": {"width": puzzle.width, "height": puzzle.height},
        "puzzle_array": [list(row) for row in puzzle.grid],
        "polyshapes": json.dumps({k: [list(r) for r in v] for k, v in puzzle.polyshapes.items()}),
        "solution_count": len(puzzle.solutions),
        "solutions": [],
    }


def answer_image(
    puzzle: Puzzle,
    path: Sequence[Point] | None,
    marks: Iterable[Point] = (),
    cell: int = ANSWER_CELL,
) -> tuple[str, bytes]:
    """(MIME type, bytes) of a picture of `path` (white) on the puzzle, `marks` ringed (magenta).

    The puzzle is the reference's `original` plot at `cell` pixels per grid cell instead of 100.
    Points off the grid are skipped (a wrong answer may leave it); the path is drawn as runs of
    unit steps, so a jump shows as a break in the line, and no further than twice the number of
    grid positions (a hostile answer may hold 100,000 points). Lossless WebP (0.7 times the size
    of the same picture as a palette PNG, ~10 ms), or a palette PNG where Pillow lacks WebP.
    """
    from PIL import features

    image = _answer_drawing(puzzle, path, marks, cell)
    buffer = io.BytesIO()
    if features.check("webp"):
        image.save(buffer, format="WEBP", lossless=True, quality=50, method=1)
        return "image/webp", buffer.getvalue()
    image.quantize(colors=16, dither=0).save(buffer, format="PNG", optimize=True)
    return "image/png", buffer.getvalue()


def _answer_drawing(
    puzzle: Puzzle, path: Sequence[Point] | None, marks: Iterable[Point], cell: int
) -> Any:
    """The RGB drawing behind `answer_image`."""
    from sparc_visualization.objects.board import get_board_from_data
    from sparc_visualization.plots.original_plot import OriginalPlot

    board = get_board_from_data(board_record(puzzle))
    size = (board.width, board.height)
    plot = OriginalPlot(board, size=size, cell_size=cell, pad_pixels=cell // 2)
    plot.render()
    # a line longer than twice the grid positions only revisits them: draw no more of it
    drawn = (path or ())[: 2 * puzzle.rows * puzzle.columns]
    inside = [tuple(p) for p in drawn if puzzle.in_grid(p)]
    if inside:
        _draw_runs(plot, inside)
    radius = max(3, int(plot.path_size))
    stroke = max(2, cell // 12)
    for x, y in sorted({tuple(p) for p in marks if puzzle.in_grid(p)}):
        cx, cy = plot.middle_positions[y][x]
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        plot._draw.ellipse(box, outline=MARK_COLOR, width=stroke)
    return plot._img


def _draw_runs(plot: Any, points: Sequence[Point]) -> None:
    """Draw the path through the reference overlay, one run of unit steps at a time."""
    run = [points[0]]
    for point in points[1:]:
        if abs(point[0] - run[-1][0]) + abs(point[1] - run[-1][1]) == 1:
            run.append(point)
        else:
            _draw_run(plot, run)
            run = [point]
    _draw_run(plot, run)


def _draw_run(plot: Any, run: Sequence[Point]) -> None:
    """One run: the reference overlay (start disc and segments), or a dot for a lone point."""
    if len(run) > 1:
        plot.overlay_path(list(run), path_color=PATH_COLOR)
        return
    cx, cy = plot.middle_positions[run[0][1]][run[0][0]]
    r = max(2, int(plot.path_size) // 3)
    plot._draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PATH_COLOR)
