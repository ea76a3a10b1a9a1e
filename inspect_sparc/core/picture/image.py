"""SPaRC puzzles as pictures: the authors' renderer made reproducible, and answers drawn for people.

`puzzle_png` is `sparc_visualization.plot.get_puzzle_image` (0.2.2, the renderer behind the
published visual numbers) with one change: its font lookup (`arial.ttf`, then DejaVu Sans Mono,
then Pillow's default, depending on the machine) is pinned to the DejaVu Sans Mono 2.37 shipped
in `inspect_sparc/fonts/`, so a puzzle and plot give the same bytes on every machine, equal to
the reference's output on a standard Linux box. `answer_image` draws an answer's path on
the puzzle, the cells' coordinates in the margins, S and E labelled, the positions where rules
broke boxed and numbered, small enough to keep in every score explanation. Pure logic: no
Inspect. PIL and the renderer are imported where they are used.
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
from typing import TYPE_CHECKING, Any

from inspect_sparc.core.puzzle.parse import Point, Puzzle
from inspect_sparc.core.suggest import did_you_mean

if TYPE_CHECKING:  # PIL is imported where it is used
    from PIL import Image, ImageFont

#: A pixel box: left, top, right, bottom.
Box = tuple[float, float, float, float]
#: A path's first illegal step: the position it left (None: the path starts wrong) and the one
#: it reached.
Step = tuple[Point | None, Point]

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
FONT_PATH = Path(__file__).resolve().parents[2] / "fonts" / "DejaVuSansMono.ttf"
FONT_NAME = "DejaVu Sans Mono 2.37"

#: Reference renderer modules that look a font up by name (the others draw shapes only, or call
#: Pillow's built-in font, which ships inside Pillow and so is the same everywhere).
_FONT_USERS = ("text_plot", "path_cell_annotation_plot")
#: The font swap patches module globals: one render at a time.
_RENDER_LOCK = threading.Lock()


def check_plot_type(plot: str) -> str:
    """`plot` if the renderer offers it, else a ValueError listing every plot type and naming
    the one probably meant (as every other argument check does).

    Args:
        plot: A plot type as the user wrote it, for `get_puzzle_image`'s `plot_type`.

    Returns:
        `plot` unchanged, one of `PLOT_TYPES`.

    Raises:
        ValueError: `plot` is not one of `PLOT_TYPES`.
    """
    if plot not in PLOT_TYPES:
        hint = did_you_mean(plot, PLOT_TYPES)
        raise ValueError(f"plot must be one of {', '.join(PLOT_TYPES)}; got {plot!r}{hint}")
    return plot


@lru_cache(maxsize=16)
def pinned_font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans Mono at `size` points (a PIL FreeTypeFont).

    Args:
        size: Pillow's `truetype` size: points at Pillow's 72 dpi, so the em square's height
            in pixels.

    Returns:
        The font, the same object for every call with the same size (the last 16 sizes are
        cached).
    """
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT_PATH), size=size)


def _load_pinned_font(size: int, preferred_path: str | None = None) -> Any:
    """Stands in for `sparc_visualization.fonts.load_plot_font`: always the shipped font."""
    return pinned_font(size)


def puzzle_image(
    record: Mapping[str, Any], plot: str = "original", path: Any = None
) -> Image.Image:
    """The reference renderer's PIL image of a record, its font pinned to the shipped file.

    `path` (points or `{"x", "y"}` dicts) is drawn over the puzzle as the reference does.

    Args:
        record: A SPaRC record with the fields the renderer reads (`grid_size`,
            `puzzle_array`, `polyshapes`, ...; `board_record` rebuilds them from a parsed
            puzzle). It is copied, never changed.
        plot: The plot type, one of `PLOT_TYPES`.
        path: The path to draw, `(x, y)` grid positions or `{"x": x, "y": y}` dicts; None
            draws the bare puzzle.

    Returns:
        The RGB picture: an `original` plot of w by h cells is 140 * (w + 1) by
        140 * (h + 1) pixels; other plot types add margins, shrink or rotate it.

    Raises:
        ValueError: `plot` is not one of `PLOT_TYPES`.
    """
    check_plot_type(plot)
    from importlib import import_module

    from sparc_visualization.plot import get_puzzle_image

    # untyped modules: their `load_plot_font` is swapped for the pinned font while drawing
    modules: list[Any] = [import_module(f"sparc_visualization.plots.{n}") for n in _FONT_USERS]
    with _RENDER_LOCK:
        saved = [module.load_plot_font for module in modules]
        for module in modules:
            module.load_plot_font = _load_pinned_font
        try:
            image: Image.Image = get_puzzle_image(dict(record), plot_type=plot, path=path)
            return image
        finally:
            for module, original in zip(modules, saved, strict=True):
                module.load_plot_font = original


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes exactly as the reference encodes its images (zlib level 1, no optimize pass).

    Args:
        image: The picture to encode, as `puzzle_image` returns it.

    Returns:
        The PNG file's bytes.
    """
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1, optimize=False)
    return buffer.getvalue()


def puzzle_png(record: Mapping[str, Any], plot: str = "original", path: Any = None) -> bytes:
    """The PNG a model is shown for a record and plot (and, step by step, the path so far).

    Args:
        record: A SPaRC record, as for `puzzle_image`.
        plot: The plot type, one of `PLOT_TYPES`.
        path: The path drawn over the puzzle, as for `puzzle_image`; None draws none.

    Returns:
        The PNG file's bytes, the same on every machine.
    """
    return encode_png(puzzle_image(record, plot, path))


def data_uri(data: bytes, mime: str = "image/png") -> str:
    """A `data:<mime>;base64,...` URI, the form the reference sends and Inspect stores.

    Args:
        data: The file's bytes (a PNG, say).
        mime: Its MIME type, written into the URI as given.

    Returns:
        The URI, `data` in standard base64.
    """
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


@lru_cache(maxsize=1)
def renderer_info() -> dict[str, str]:
    """What made the images, for the log: renderer and Pillow versions, the font and its hash.

    Returns:
        `renderer` (name and installed version), `pillow` (installed version) and `font`
        (`FONT_NAME` and the first 16 hex digits of the font file's SHA-256), read once.
    """
    digest = hashlib.sha256(FONT_PATH.read_bytes()).hexdigest()
    return {
        "renderer": f"sparc-visualization {metadata.version('sparc-visualization')}",
        "pillow": metadata.version("pillow"),
        "font": f"{FONT_NAME} (sha256 {digest[:16]})",
    }


# --- Pictures of answers, for people reading a log -------------------------------------------

#: Pixels per grid cell of an answer picture as shown (the reference uses 100): 64 makes every
#: symbol readable at `inspect view`'s normal width (a 3x3 puzzle is 358 px square, a 6x6 one
#: 627 px). Every explanation's picture is stored in the log, so it must stay small.
ANSWER_CELL = 64
#: Each pixel of an answer drawing is shown as a square of this many pixels a side: the picture
#: is drawn at `ANSWER_CELL / ANSWER_PIXEL` pixels a cell and enlarged without smoothing. Its
#: shapes are flat and its text crisp, so it reads as one drawn at full size, and a lossless
#: encoder pays for the drawing's detail rather than its pixels: about 0.65 times the bytes
#: (870 B against 1,340 B a picture, docs/benchmarks.md).
ANSWER_PIXEL = 2
#: The answer's path, the boxes around positions where a rule broke and their number badges.
PATH_COLOR = (255, 255, 255)
MARK_COLOR = (255, 0, 160)
#: S and E badges: dark text on a light badge, readable over both board colours.
BADGE_TEXT = (0, 0, 0)
BADGE_FILL = (255, 255, 255)
#: Coordinate labels in the margins: light, quieter than the white path and badges.
LABEL_COLOR = (196, 214, 208)
#: Label every second coordinate, the cells' odd ones (1: every coordinate, lanes too; about 14%
#: more bytes a picture, docs/benchmarks.md).
LABEL_EVERY = 2
#: Ring labels longer than this are cut (a position named by many broken rules).
MAX_LABEL = 7


def board_record(puzzle: Puzzle) -> dict[str, Any]:
    """The fields the reference renderer reads, rebuilt from a parsed puzzle (any record form).

    Args:
        puzzle: The parsed puzzle.

    Returns:
        A record in the dataset's form for `puzzle_image` and the renderer's board: its id,
        level and difficulty score, `grid_size` in cells, `puzzle_array`, the polyshapes as a
        JSON string and the number of solutions (their list left empty: the renderer draws
        none).
    """
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
    step: Step | None = None,
) -> tuple[str, bytes]:
    """(MIME type, bytes) of a picture of `path` (white) on the puzzle, `marks` boxed (magenta).

    `marks` may map each position to a label (the numbers of the broken rules listed beside the
    picture), drawn in a badge by its box; S and E are labelled. The puzzle is the reference's
    `original` plot at `cell` pixels per grid cell instead of 100. Points off the grid are
    skipped (a wrong answer may leave it); the path is drawn as runs of unit steps, so a jump
    shows as a break in the line, and no further than twice the number of grid positions (a
    hostile answer may hold 100,000 points). `step`, a path's first illegal step (from, to), is
    drawn in magenta over it (`_draw_step`). Lossless WebP (about 0.6 times the size of the same
    picture as an optimised palette PNG, in a third of the time), or that PNG where Pillow lacks
    WebP.

    Args:
        puzzle: The puzzle drawn.
        path: The answer's `(x, y)` grid positions (None or empty: the bare puzzle).
        marks: Positions to box, or positions -> labels (the numbers of the broken rules;
            "" boxes a position without a label).
        cell: Pixels a grid cell as shown.
        step: The path's first illegal step (from, to; from None where the path starts
            wrong), drawn in magenta; None for none.

    Returns:
        (MIME type, bytes): `image/webp`, or `image/png` where Pillow lacks WebP.
    """
    return encode_answer(answer_drawing(puzzle, path, marks, cell, step))


def encode_answer(image: Image.Image) -> tuple[str, bytes]:
    """(MIME type, bytes) of an answer drawing (`answer_drawing`): lossless WebP, or an
    optimised palette PNG where Pillow lacks WebP. Pillow's encoders run without the GIL.

    Args:
        image: The RGB drawing `answer_drawing` returns.

    Returns:
        (`image/webp`, the WebP file's bytes), or (`image/png`, a 32-colour PNG's bytes).
    """
    from PIL import Image, features

    buffer = io.BytesIO()
    if features.check("webp"):
        # method 1 at middle effort: 2.5% smaller files than method 3 at least effort, 0.9 ms
        # slower (no other setting under 500 ms is smaller: docs/benchmarks.md)
        image.save(buffer, format="WEBP", lossless=True, quality=50, method=1)
        return "image/webp", buffer.getvalue()
    image.quantize(colors=32, dither=Image.Dither.NONE).save(buffer, format="PNG", optimize=True)
    return "image/png", buffer.getvalue()


def answer_drawing(
    puzzle: Puzzle,
    path: Sequence[Point] | None,
    marks: Iterable[Point] | Mapping[Point, str] = (),
    cell: int = ANSWER_CELL,
    step: Step | None = None,
) -> Image.Image:
    """The RGB PIL image behind `answer_image`: the puzzle, the x coordinate of each cell column
    above the grid and the y of each cell row left of it, the path, numbered boxes, the first
    illegal step, S and E; drawn at `cell / ANSWER_PIXEL` pixels a grid cell, each pixel then
    enlarged to an `ANSWER_PIXEL`-sided square.

    Args:
        puzzle: The puzzle drawn, as the reference renderer draws it.
        path: The answer's points (None or empty: the bare puzzle).
        marks: Boxed positions, or positions -> labels (the numbers of the broken rules).
        cell: Pixels a grid cell as shown (drawn at half that with `ANSWER_PIXEL` 2).
        step: The path's first illegal step (from, to), drawn in magenta; None for none.

    Returns:
        The RGB PIL image, `ANSWER_PIXEL` times the drawing's size.
    """
    from PIL import Image

    drawing = _answer_drawing(puzzle, path, marks, cell // ANSWER_PIXEL, step)
    size = (drawing.width * ANSWER_PIXEL, drawing.height * ANSWER_PIXEL)
    return drawing.resize(size, Image.Resampling.NEAREST)


def _answer_drawing(
    puzzle: Puzzle,
    path: Sequence[Point] | None,
    marks: Iterable[Point] | Mapping[Point, str],
    cell: int,
    step: Step | None,
) -> Image.Image:
    """`answer_drawing` at `cell` pixels a grid cell, before it is enlarged."""
    from sparc_visualization.objects.board import get_board_from_data
    from sparc_visualization.plots.original_plot import OriginalPlot

    board = get_board_from_data(board_record(puzzle))
    size = (board.width, board.height)
    plot = OriginalPlot(board, size=size, cell_size=cell, pad_pixels=cell // 2)
    plot.render()
    radius = max(3, int(plot.path_size))
    badge_size = max(10, cell * 11 // 32)
    # E on the end's stub, which points out of the grid; the coordinates keep clear of it
    ex, ey = plot.middle_positions[puzzle.end[1]][puzzle.end[0]]
    dx, dy = _outward(puzzle, puzzle.end)
    reach = radius + cell // 4
    e_box = _badge_box(plot, (ex + dx * reach, ey + dy * reach), "E", badge_size, outlined=True)
    for text, box in coordinate_spots(plot, puzzle, label_size(cell), e_box):
        _ink(plot, (box[0], box[1]), text, label_size(cell), LABEL_COLOR)
    # a line longer than twice the grid positions only revisits them: draw no more of it
    drawn = (path or ())[: 2 * puzzle.rows * puzzle.columns]
    inside = [(p[0], p[1]) for p in drawn if puzzle.in_grid(p)]
    if inside:
        _draw_runs(plot, inside)
    labels = {p: t for p, t in _labels(marks).items() if puzzle.in_grid(p)}
    stroke = max(2, cell // 12)
    for x, y in sorted(labels):
        cx, cy = plot.middle_positions[y][x]
        # a square ring: straight edges cost a lossless encoder far fewer bytes than a circle's
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        plot._draw.rectangle(box, outline=MARK_COLOR, width=stroke)
    for (x, y), label in sorted(labels.items()):
        if label:
            cx, cy = plot.middle_positions[y][x]
            box = _badge_box(plot, (cx + radius, cy - radius), label, badge_size)  # on the corner
            _badge(plot, box, label, badge_size, MARK_COLOR, PATH_COLOR, outline=None)
    if inside and any(labels.values()):
        _retrace(plot, inside)  # a number badge may reach a lane: the path stays whole on top
    if step is not None:
        _draw_step(plot, puzzle, step, radius, stroke)
    sx, sy = plot.middle_positions[puzzle.start[1]][puzzle.start[0]]
    s_box = _badge_box(plot, (sx, sy), "S", badge_size, outlined=True)
    for text, box in (("S", s_box), ("E", e_box)):
        _badge(plot, box, text, badge_size, BADGE_FILL, BADGE_TEXT, outline=BADGE_TEXT)
    image: Image.Image = plot._img
    return image


def label_size(cell: int = ANSWER_CELL // ANSWER_PIXEL) -> int:
    """Font size of the coordinate labels at `cell` pixels a grid cell as drawn (8 px at 32 px a
    cell, shown at 16: a two-digit label fits a lane's width, and the labels fit the margin
    beside the grid).

    Args:
        cell: Pixels a grid cell as drawn (before `ANSWER_PIXEL` enlarges it).

    Returns:
        The font size in pixels as drawn.
    """
    return max(8, cell * 3 // 16)


def coordinate_spots(plot: Any, puzzle: Puzzle, size: int, avoid: Box) -> list[tuple[str, Box]]:
    """The label box of each cell column's x above the grid and each cell row's y left of it
    (right-aligned), centred on its column or row, clear of the S disc.

    Cells (odd coordinates) hold the symbols a picture is drawn for; a lane's coordinate is the
    even number between two labels (`LABEL_EVERY`). A label the E badge (`avoid`) would touch
    (E on the top or left edge at a labelled coordinate) goes to the opposite margin, below or
    right of the grid.

    Args:
        plot: The reference's rendered `OriginalPlot` of the puzzle: its cell centres
            (`middle_positions`), margin (`pad_pixels`) and image size place the labels.
        puzzle: The puzzle drawn; its columns and rows say which coordinates are labelled.
        size: The labels' font size in pixels as drawn (`label_size`).
        avoid: The E badge's box in pixels (left, top, right, bottom).

    Returns:
        (label, box in pixels) for each labelled coordinate: the columns' x left to right,
        then the rows' y top to bottom.
    """
    image_width, image_height = plot._img.size
    edge = plot.pad_pixels * 9 // 16  # the labels' side nearer the grid
    spots = []
    first = 1 if LABEL_EVERY == 2 else 0
    for n in range(first, puzzle.columns, LABEL_EVERY):
        width, height = text_mask(str(n), size).size
        x0 = round(plot.middle_positions[0][n][0] - width / 2)
        box = (x0, edge - height, x0 + width, edge)
        if _overlap(box, avoid):
            box = (x0, image_height - edge, x0 + width, image_height - edge + height)
        spots.append((str(n), box))
    for n in range(first, puzzle.rows, LABEL_EVERY):
        width, height = text_mask(str(n), size).size
        y0 = round(plot.middle_positions[n][0][1] - height / 2)
        box = (edge - width, y0, edge, y0 + height)
        if _overlap(box, avoid):
            box = (image_width - edge, y0, image_width - edge + width, y0 + height)
        spots.append((str(n), box))
    return spots


def _overlap(a: Box, b: Box, margin: int = 2) -> bool:
    """True when boxes `a` and `b` come closer than `margin` pixels."""
    apart_x = a[2] + margin <= b[0] or b[2] + margin <= a[0]
    return not (apart_x or a[3] + margin <= b[1] or b[3] + margin <= a[1])


@lru_cache(maxsize=512)
def text_mask(text: str, size: int) -> Image.Image:
    """The ink of `text` in the pinned font at `size`, cropped to it: a 1-bit PIL mask, crisp
    (no antialiasing: few colours, a small lossless picture), cached (the same few labels recur
    in every picture).

    Args:
        text: The text, a coordinate or a badge's label ("S", "1,3").
        size: The font size in pixels (`pinned_font`).

    Returns:
        A mode "1" image the size of the ink's bounding box, 1 where the text is inked (1 by 1
        pixel, blank, for text without ink). Shared by every caller: paste it, never change it.
    """
    from PIL import Image, ImageDraw

    font = pinned_font(size)
    # whole pixels without a stroke (typed float, for stroked text)
    left, top, right, bottom = (int(edge) for edge in font.getbbox(text, mode="1"))
    mask = Image.new("1", (max(1, right - left), max(1, bottom - top)))
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((-left, -top), text, font=font, fill=1)
    return mask.crop(mask.getbbox() or (0, 0, 1, 1))


def _ink(plot: Any, corner: tuple[float, float], text: str, size: int, color: Any) -> None:
    """Paint `text` in `color` with the top left of its ink at `corner`."""
    plot._img.paste(color, (round(corner[0]), round(corner[1])), text_mask(text, size))


def _badge_box(
    plot: Any, centre: tuple[float, float], text: str, size: int, outlined: bool = False
) -> Box:
    """The box of a badge holding `text` centred at `centre`, moved inside the picture; an
    `outlined` badge is a pixel wider on each side, so its outline keeps clear of the text."""
    width, height = text_mask(text, size).size
    pad = max(2, height // 4) + outlined
    width, height = width + 2 * pad, height + 2 * pad
    image_width, image_height = plot._img.size
    x0 = min(max(0, round(centre[0] - width / 2)), image_width - width)
    y0 = min(max(0, round(centre[1] - height / 2)), image_height - height)
    return (x0, y0, x0 + width, y0 + height)


def _badge(
    plot: Any, box: Box, text: str, size: int, fill: Any, ink: Any, outline: Any = None
) -> None:
    """A square-cornered badge filling `box` (from `_badge_box`), `text` centred in it."""
    plot._draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=fill, outline=outline)
    width, height = text_mask(text, size).size
    corner = ((box[0] + box[2] - width) / 2, (box[1] + box[3] - height) / 2)
    _ink(plot, corner, text, size, ink)


def _labels(marks: Iterable[Point] | Mapping[Point, str]) -> dict[Point, str]:
    """Ringed positions and their labels ("" where `marks` gives none), cut to `MAX_LABEL`."""
    items: Iterable[tuple[Point, str]]
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


def _draw_step(plot: Any, puzzle: Puzzle, step: Step, radius: int, stroke: int) -> None:
    """A path's first illegal step in magenta: a line from where it was to where it went (a jump,
    a return, a rule cell) and a ring there; where either end is off the grid, the ring alone
    on the end that is on it."""
    before, after = step
    ends = [point for point in (before, after) if point is not None and puzzle.in_grid(point)]
    if len(ends) == 2 and ends[0] != ends[1]:
        a, b = (plot.middle_positions[y][x] for x, y in ends)
        plot._draw.line([a, b], fill=MARK_COLOR, width=max(stroke, int(plot.path_size) // 3))
    if ends:
        x, y = ends[-1]
        cx, cy = plot.middle_positions[y][x]
        ring = radius + stroke
        box = (cx - ring, cy - ring, cx + ring, cy + ring)
        plot._draw.ellipse(box, outline=MARK_COLOR, width=stroke)


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
