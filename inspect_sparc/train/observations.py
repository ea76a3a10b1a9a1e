"""What the Gymnasium environment shows the agent: a numeric array (default), the Spatial-Gym text
form, or a picture. Every observation has one shape for every puzzle of a run (the grid padded
to the largest one), as Gymnasium's checks and vector environments need.

The array is `int32` (Spatial-Gym-like codes; `one_hot_vector` turns it into 0/1 floats),
shaped `(CHANNELS, size, size)`, indexed `[channel, y, x]` like the records'
`puzzle_array[y][x]` (`size` = 2 * cells + 1 positions; 13 for SPaRC's 6x6 grids). Positions
past the puzzle's grid are 0 in every channel. docs/training.md lists the channels. numpy and
the renderer are imported where they are used. Pure logic: no Inspect imports.
"""

from __future__ import annotations

import json
import string
from typing import TYPE_CHECKING

from inspect_sparc.core.puzzle.parse import Path, Puzzle

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

#: Channel names, in order; each is 0/1 unless `CHANNEL_HIGH` says otherwise.
CHANNELS: tuple[str, ...] = (
    "grid",  # 1 on every position of the puzzle's grid (0 in the padding)
    "blocked",  # 1 where no path may go: gaps and rule cells (Spatial-Gym's `gaps` layer)
    "gap",  # 1 on gaps (`G`)
    "dot",  # 1 on dots (`.`)
    "start",  # 1 on S
    "end",  # 1 on E
    "visited",  # 1 on every point of the path drawn so far (the agent's position included)
    "agent",  # 1 where the agent stands
    "symbol",  # rule cell symbol: see SYMBOL_CODES
    "color",  # its colour: see COLOR_CODES (Spatial-Gym's numbers)
    "count",  # a triangle's number of edges to touch (1-4)
    "shape",  # a polyshape's or ylop's 4x4 matrix as bits: bit 4*row + col
)
CHANNEL = {name: index for index, name in enumerate(CHANNELS)}
SYMBOL_CODES = {"square": 1, "star": 2, "triangle": 3, "polyshape": 4, "ylop": 5}
COLOR_CODES = {"R": 1, "B": 2, "Y": 3, "G": 4, "K": 5, "P": 6, "O": 7, "W": 8}
SHAPE_SIDE = 4
CHANNEL_HIGH = {"symbol": 5, "color": 8, "count": 4, "shape": 2 ** (SHAPE_SIDE**2) - 1}
#: Characters of the text form: a JSON list of rows of the grid's entries.
TEXT_CHARSET = string.ascii_letters + string.digits + '[]",+-.*'
#: Longest grid entry the text form allows for (`"P-R-123456",`), to size its space.
TEXT_ENTRY = 16
#: Pixels per grid cell of the reference renderer's `original` plot, and its border.
PICTURE_CELL = 140
PICTURE_BORDER = 140


def array_high() -> npt.NDArray[np.int32]:
    """The upper bound of every entry of the array (for its `Box` space), channel by channel.

    Returns:
        The bounds, as an int array of the observation's channels."""
    import numpy as np

    return np.array([CHANNEL_HIGH.get(name, 1) for name in CHANNELS], dtype=np.int32)


#: One-hot widths of the coded channels in the vector form (values 1..width; 0 is all zeros).
ONE_HOT = {"symbol": len(SYMBOL_CODES), "color": len(COLOR_CODES), "count": 4}
#: Channels already 0/1, copied as they are into the vector form.
BINARY_CHANNELS = tuple(name for name in CHANNELS if name not in CHANNEL_HIGH)


def vector_length(size: int) -> int:
    """Length of the vector form for a grid `size` positions a side: 0/1 planes of the binary
    channels, one plane per value of each coded channel, one per shape bit.

    Args:
        size: positions a side of the (padded) grid.

    Returns:
        The vector's length."""
    planes = len(BINARY_CHANNELS) + sum(ONE_HOT.values()) + SHAPE_SIDE**2
    return planes * size * size


def one_hot_vector(array: npt.NDArray[np.int32]) -> npt.NDArray[np.float32]:
    """The array observation as a flat float32 vector of 0s and 1s (what RL networks and SB3's
    checker expect): binary channels as they are, coded channels one-hot, shapes as bits.

    Args:
        array: the array observation.

    Returns:
        The float32 vector of `vector_length` entries."""
    import numpy as np

    planes = [array[[CHANNEL[name] for name in BINARY_CHANNELS]]]
    for name, width in ONE_HOT.items():
        values = np.arange(1, width + 1, dtype=np.int32)[:, None, None]
        planes.append(array[CHANNEL[name]][None] == values)
    bits = np.arange(SHAPE_SIDE**2, dtype=np.int32)[:, None, None]
    planes.append((array[CHANNEL["shape"]][None] >> bits) & 1)
    return np.concatenate([p.astype(np.float32) for p in planes]).reshape(-1)


def shape_bits(matrix: tuple[tuple[int, ...], ...]) -> int:
    """A polyshape's 0/1 matrix as an integer: bit `4 * row + col` set for each filled cell.

    Args:
        matrix: the shape's 4x4 0/1 rows.

    Returns:
        The shape as bits."""
    if len(matrix) > SHAPE_SIDE or any(len(row) > SHAPE_SIDE for row in matrix):
        raise ValueError(f"polyshape matrices larger than {SHAPE_SIDE}x{SHAPE_SIDE} do not fit")
    return sum(
        1 << (SHAPE_SIDE * y + x) for y, row in enumerate(matrix) for x, v in enumerate(row) if v
    )


def static_array(puzzle: Puzzle, size: int) -> npt.NDArray[np.int32]:
    """The array of a puzzle before any move: everything but `visited` and `agent`.

    Args:
        puzzle: the parsed puzzle.
        size: positions a side of the (padded) array.

    Returns:
        The array observation with no path."""
    import numpy as np

    if puzzle.columns > size or puzzle.rows > size:
        raise ValueError(
            f"puzzle {puzzle.id} ({puzzle.width}x{puzzle.height} cells) is larger than the "
            f"environment's observation ({(size - 1) // 2} cells a side): pass grid_size"
        )
    obs = np.zeros((len(CHANNELS), size, size), dtype=np.int32)
    obs[CHANNEL["grid"], : puzzle.rows, : puzzle.columns] = 1
    obs[CHANNEL["blocked"], 1 : puzzle.rows : 2, 1 : puzzle.columns : 2] = 1
    for name, points in (("gap", puzzle.gaps), ("dot", puzzle.dots)):
        for x, y in points:
            obs[CHANNEL[name], y, x] = 1
    for x, y in puzzle.gaps:
        obs[CHANNEL["blocked"], y, x] = 1
    obs[CHANNEL["start"], puzzle.start[1], puzzle.start[0]] = 1
    obs[CHANNEL["end"], puzzle.end[1], puzzle.end[0]] = 1
    for (x, y), symbol in puzzle.symbols.items():
        obs[CHANNEL["symbol"], y, x] = SYMBOL_CODES[symbol.kind]
        obs[CHANNEL["color"], y, x] = COLOR_CODES[symbol.color]
        obs[CHANNEL["count"], y, x] = symbol.triangle_count
        if symbol.shape_id is not None:
            obs[CHANNEL["shape"], y, x] = shape_bits(puzzle.polyshapes[symbol.shape_id])
    return obs


def text_max_length(size: int) -> int:
    """The longest text observation of a grid `size` positions a side.

    Args:
        size: positions a side of the grid.

    Returns:
        The most characters a text observation can have."""
    return size * size * TEXT_ENTRY + 2 * size + 2


def text_observation(grid: list[list[str]]) -> str:
    """Spatial-Gym's `observation="SPaRC"` form: the grid (`L` agent, `V` visited) as JSON.

    Args:
        grid: the text grid, row by row, with the agent and visited marks.

    Returns:
        The grid as JSON text."""
    return json.dumps(grid, separators=(",", ":"))


def picture_shape(cells: int) -> tuple[int, int, int]:
    """(height, width, 3) of a picture padded to a grid of `cells` cells a side.

    Args:
        cells: cells a side of the padded grid.

    Returns:
        The picture's array shape."""
    side = PICTURE_CELL * cells + PICTURE_BORDER
    return (side, side, 3)


def picture(
    puzzle: Puzzle, path: Path, shape: tuple[int, ...] | None = None
) -> npt.NDArray[np.uint8]:
    """The package's renderer (the visual protocol's `original` plot) with the path drawn, as an
    RGB uint8 array; padded with black to `shape` when given.

    Args:
        puzzle: the parsed puzzle.
        path: the positions walked so far.
        shape: the array shape to pad to, or None for the picture's own.

    Returns:
        The picture as an RGB uint8 array."""
    import numpy as np

    from inspect_sparc.core.picture.image import board_record, puzzle_image

    points = [{"x": x, "y": y} for x, y in path]
    drawn = puzzle_image(board_record(puzzle), "original", points).convert("RGB")
    image = np.asarray(drawn, dtype=np.uint8)
    if shape is None:
        return image
    canvas = np.zeros(shape, dtype=np.uint8)
    canvas[: image.shape[0], : image.shape[1]] = image
    return canvas
