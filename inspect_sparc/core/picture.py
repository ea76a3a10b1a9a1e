"""SPaRC puzzles as pictures: the authors' renderer made reproducible, and answers drawn for people.

`puzzle_png` is `sparc_visualization.plot.get_puzzle_image` (0.2.2, the renderer behind the
published visual numbers) with one change: its font lookup (`arial.ttf`, then DejaVu Sans Mono,
then Pillow's default, depending on the machine) is pinned to the DejaVu Sans Mono 2.37 shipped
in `inspect_sparc/fonts/`, so a puzzle and plot give the same bytes on every machine, equal to
the reference's output on a standard Linux box. `answer_image` draws an answer's path on
the puzzle, S and E labelled, the positions where rules broke ringed and numbered, small enough
to keep in every score explanation. Pure logic: no Inspect. PIL and the renderer are imported
where they are used.
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

#: Pixels per grid cell of an answer picture (the reference uses 100): 64 makes every symbol
#: readable at `inspect view`'s normal width (a 3x3 puzzle is 358 px square, a 6x6 one 627 px)
#: in about 1-2 KB of lossless WebP. Inspect stores an explanation three times (sample scores,
#: score event, reductions), so the picture must stay small.
ANSWER_CELL = 64
#: The answer's path, the rings around positions where a rule broke and their number badges.
PATH_COLOR = (255, 255, 255)
MARK_COLOR = (255, 0, 160)
#: S and E badges: dark text on a light badge, readable over both board colours.
BADGE_TEXT = (0, 0, 0)
BADGE_FILL = (255, 255, 255)
#: Ring labels longer than this are cut (a position named by many broken rules).
MAX_LABEL = 7


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
    marks: Iterable[Point] | Mapping[Point, str] = (),
    cell: int = ANSWER_CELL,
) -> tuple[str, bytes]:
    """(MIME type, bytes) of a picture of `path` (white) on the puzzle, `marks` ringed (magenta).

    `marks` may map each position to a label (the numbers of the broken rules listed beside the
    picture), drawn in a badge by its ring; S and E are labelled. The puzzle is the reference's
    `original` plot at `cell` pixels per grid cell instead of 100. Points off the grid are
    skipped (a wrong answer may leave it); the path is drawn as runs of unit steps, so a jump
    shows as a break in the line, and no further than twice the number of grid positions (a
    hostile answer may hold 100,000 points). Lossless WebP (about 0.7 times the size of the same
    picture as an optimised palette PNG), or that PNG where Pillow lacks WebP.
    """
    from PIL import features

    image = answer_drawing(puzzle, path, marks, cell)
    buffer = io.BytesIO()
    if features.check("webp"):
        image.save(buffer, format="WEBP", lossless=True, quality=50, method=1)
        return "image/webp", buffer.getvalue()
    image.quantize(colors=32, dither=0).save(buffer, format="PNG", optimize=True)
    return "image/png", buffer.getvalue()


def answer_drawing(
    puzzle: Puzzle,
    path: Sequence[Point] | None,
    marks: Iterable[Point] | Mapping[Point, str] = (),
    cell: int = ANSWER_CELL,
) -> Any:
    """The RGB PIL image behind `answer_image` (S, E, path, numbered rings)."""
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
    labels = {p: t for p, t in _labels(marks).items() if puzzle.in_grid(p)}
    plot._draw.fontmode = "1"  # crisp text in few colours: a small lossless palette
    radius = max(3, int(plot.path_size))
    stroke = max(2, cell // 12)
    font = pinned_font(max(10, cell * 11 // 32))
    for x, y in sorted(labels):
        cx, cy = plot.middle_positions[y][x]
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        plot._draw.ellipse(box, outline=MARK_COLOR, width=stroke)
    for (x, y), label in sorted(labels.items()):
        if label:
            cx, cy = plot.middle_positions[y][x]
            corner = (cx + radius * 0.7, cy - radius * 0.7)
            _badge(plot, corner, label, font, MARK_COLOR, PATH_COLOR, "c")
    if inside and any(labels.values()):
        _retrace(plot, inside)  # a number badge may reach a lane: the path stays whole on top
    # S on the start disc; E on the end's stub, which points out of the grid
    sx, sy = plot.middle_positions[puzzle.start[1]][puzzle.start[0]]
    _badge(plot, (sx, sy), "S", font, BADGE_FILL, BADGE_TEXT, "c")
    ex, ey = plot.middle_positions[puzzle.end[1]][puzzle.end[0]]
    dx, dy = _outward(puzzle, puzzle.end)
    reach = radius + cell // 4
    _badge(plot, (ex + dx * reach, ey + dy * reach), "E", font, BADGE_FILL, BADGE_TEXT, "c")
    return plot._img


def _labels(marks: Iterable[Point] | Mapping[Point, str]) -> dict[Point, str]:
    """Ringed positions and their labels ("" where `marks` gives none), cut to `MAX_LABEL`."""
    if isinstance(marks, Mapping):
        items = marks.items()
    else:
        items = ((point, "") for point in marks)
    labels: dict[Point, str] = {}
    for point, label in items:
        try:
            key = (int(point[0]), int(point[1]))
        except (TypeError, ValueError, IndexError):
            continue
        text = str(label)
        labels[key] = text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "+"
    return labels


def _outward(puzzle: Puzzle, point: Point) -> tuple[int, int]:
    """The direction from a border position out of the grid (the way the end's stub points).

    In a corner, top and bottom come first, as in the reference renderer's end stub.
    """
    x, y = point
    if y == 0:
        return (0, -1)
    if y == puzzle.rows - 1:
        return (0, 1)
    if x == 0:
        return (-1, 0)
    if x == puzzle.columns - 1:
        return (1, 0)
    return (0, 0)


def _badge(
    plot: Any, corner: tuple[float, float], text: str, font: Any, fill: Any, ink: Any, anchor: str
) -> None:
    """A rounded badge with `text` at `corner`, kept inside the picture (`anchor`: "c" centres
    it there, "rb" puts its right bottom corner there, "lb" its left bottom corner)."""
    left, top, right, bottom = plot._draw.textbbox((0, 0), text, font=font)
    pad = max(2, (bottom - top) // 4)
    width, height = right - left + 2 * pad, bottom - top + 2 * pad
    x, y = corner
    if anchor == "c":
        x0, y0 = x - width / 2, y - height / 2
    else:
        x0 = x - width if anchor[0] == "r" else x
        y0 = y - height
    image_width, image_height = plot._img.size
    x0 = min(max(0, x0), image_width - width)
    y0 = min(max(0, y0), image_height - height)
    plot._draw.rounded_rectangle(
        (x0, y0, x0 + width, y0 + height), radius=pad, fill=fill, outline=(0, 0, 0), width=1
    )
    plot._draw.text((x0 + pad - left, y0 + pad - top), text, font=font, fill=ink)


def _retrace(plot: Any, points: Sequence[Point]) -> None:
    """Draw the path's line again (unit steps only, as the overlay draws it) over the badges."""
    width = max(1, int(plot.path_size) // 4)
    for a, b in zip(points, points[1:], strict=False):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1:
            start = plot.middle_positions[a[1]][a[0]]
            end = plot.middle_positions[b[1]][b[0]]
            plot._draw.line([start, end], fill=PATH_COLOR, width=width)


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
