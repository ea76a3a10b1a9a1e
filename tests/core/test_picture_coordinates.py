"""Answer pictures carry the coordinates the explanation speaks in: above each cell column its x,
left of each cell row its y, in the margins (no symbol covered), in every task's pictures.

Positions come from the reference renderer's own geometry (`sparc_visualization`), and each
label is read back by matching its pixels against the shipped font's rendering of every number
(so a label that shows the wrong number, or sits over the wrong column, fails); a picture
drawn small and enlarged shows each pixel of that rendering as a square."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

import pytest
from picture_helpers import (  # as test_scorer_pictures.py: both read answer pictures
    answer,
    close,
    geometry,
    picture_of,
    pixels,
    region_failures,
    rule_blind_line,
)

from inspect_sparc.core.picture.image import (
    ANSWER_CELL,
    ANSWER_PIXEL,
    FONT_PATH,
    LABEL_COLOR,
    answer_drawing,
)
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.rules import check
from inspect_sparc.evals.sparc.scorer import mark_labels, score_answer

#: The reference renderer's background colour (`OriginalPlot`'s default): the margins' colour.
BACKGROUND = (28, 55, 51)
MARGIN = ANSWER_CELL // 2


@cache
def glyphs() -> dict[frozenset[tuple[int, int]], list[tuple[int, int]]]:
    """The shipped font's crisp rendering of every number a grid can have, at every plausible
    size, as drawn and enlarged `ANSWER_PIXEL` times: its ink pixels (relative to their top
    left) -> the (number, size as shown) pairs drawing it."""
    from PIL import Image, ImageDraw, ImageFont

    found: dict[frozenset[tuple[int, int]], list[tuple[int, int]]] = {}
    for size in range(8, 21):
        font = ImageFont.truetype(str(FONT_PATH), size=size)
        for number in range(0, 14):
            mask = Image.new("1", (4 * size, 2 * size))
            draw = ImageDraw.Draw(mask)
            draw.fontmode = "1"
            draw.text((size, 0), str(number), font=font, fill=1)
            ink = [
                (x, y)
                for x in range(mask.width)
                for y in range(mask.height)
                if mask.getpixel((x, y))
            ]
            x0, y0 = min(x for x, _ in ink), min(y for _, y in ink)
            for k in sorted({1, ANSWER_PIXEL}):
                shown = frozenset(
                    (k * (x - x0) + i, k * (y - y0) + j)
                    for x, y in ink
                    for i in range(k)
                    for j in range(k)
                )
                found.setdefault(shown, []).append((number, size * k))
    return found


def read_label(picture, window) -> tuple[int, int, tuple[int, int, int, int]] | None:
    """(number, font size, ink box) of the coordinate label inside `window` (x0, y0, x1, y1):
    its label-coloured pixels must be exactly one number of the shipped font; None if none."""
    x0, y0, x1, y1 = (max(0, int(v)) for v in window)
    crop = picture.crop((x0, y0, min(x1, picture.width), min(y1, picture.height)))
    ink = [
        (x0 + i % crop.width, y0 + i // crop.width)
        for i, pixel in enumerate(pixels(crop))
        if close(pixel, LABEL_COLOR, tolerance=4)
    ]
    if not ink:
        return None
    left, top = min(x for x, _ in ink), min(y for _, y in ink)
    box = (left, top, max(x for x, _ in ink) + 1, max(y for _, y in ink) + 1)
    pairs = glyphs().get(frozenset((x - left, y - top) for x, y in ink), [])
    numbers = {number for number, _ in pairs}
    assert len(numbers) == 1, (window, box, pairs)  # the ink is one whole number, nothing else
    return numbers.pop(), max(size for _, size in pairs), box


def check_label(
    picture, name: str, number: int, centre: float, axis: int, windows, moved: bool
) -> int:
    """Assert the label `number` is in the first of `windows` (x0, y0, x1, y1), or in the
    second instead when `moved` (the E badge covers the first), not in both, centred on
    `centre` along `axis` (0: x, 1: y); `name` (the puzzle's id) goes in the failure message.
    Returns 1 when it moved, else 0."""
    usual, opposite = (read_label(picture, window) for window in windows)
    found = opposite if moved else usual
    assert found is not None and (usual if moved else opposite) is None, (name, number)
    read, size, box = found
    assert read == number and size >= 12, (name, number, read, size)
    assert abs((box[axis] + box[axis + 2]) / 2 - centre) <= 1, (name, number, box, centre)
    return int(moved)


def check_coordinates(record: dict[str, Any], picture) -> int:
    """Assert every cell column's x above the grid and every cell row's y left of it, read from
    the picture at the reference geometry; a label the E badge would cover sits in the opposite
    margin instead. Returns how many labels moved there."""
    puzzle = parse_puzzle(record)
    where = geometry(record)
    width, height = picture.size
    moved = 0
    for x in range(1, puzzle.columns, 2):
        cx = where.middle_positions[0][x][0]
        windows = ((cx - 20, 0, cx + 21, MARGIN), (cx - 20, height - MARGIN, cx + 21, height))
        moved += check_label(picture, puzzle.id, x, cx, 0, windows, puzzle.end == (x, 0))
    for y in range(1, puzzle.rows, 2):
        cy = where.middle_positions[y][0][1]
        windows = ((0, cy - 20, MARGIN, cy + 21), (width - MARGIN, cy - 20, width, cy + 21))
        moved += check_label(picture, puzzle.id, y, cy, 1, windows, puzzle.end == (0, y))
    return moved


def test_every_cell_column_and_row_is_labelled_with_its_coordinate(sparc_records):
    """On every shipped puzzle (grids from 2x2 to 6x6), with and without a path."""
    moved = 0
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        moved += check_coordinates(record, answer_drawing(puzzle, None))
        check_coordinates(record, answer_drawing(puzzle, rule_blind_line(record)))
    assert moved >= 4  # the fixtures hold ends on the top and left edges at odd coordinates


def test_labels_cover_nothing_the_puzzle_draws(sparc_records):
    """Each label pixel replaces plain margin background of the reference's own drawing, with a
    pixel of background around it: no symbol, lane, disc or stub is covered or touched."""
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        reference = geometry(record)
        reference.render()
        picture = answer_drawing(puzzle, None)
        width, height = picture.size
        drawn, under = pixels(picture), pixels(reference._img)
        ink = [i for i, pixel in enumerate(drawn) if pixel == LABEL_COLOR]
        assert ink, record["id"]
        for i in ink:
            x, y = i % width, i // width
            around = [
                min(max(y + dy, 0), height - 1) * width + min(max(x + dx, 0), width - 1)
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
            ]
            assert all(under[j] == BACKGROUND for j in around), (record["id"], (x, y))


def test_rings_and_number_badges_leave_the_labels_whole(sparc_records):
    """Where rules broke (rings and numbers, some of them on the grid's edge), every label
    still reads in full."""
    cases = region_failures(sparc_records)
    assert len(cases) >= 8
    for record, line in cases:
        puzzle = parse_puzzle(record)
        labels = mark_labels(check(puzzle, line).violations)
        check_coordinates(record, answer_drawing(puzzle, line, labels))


def test_the_tasks_pictures_carry_the_coordinates(sparc_records):
    """The picture in a `sparc` (and `sparc_visual`: the same scorer) explanation, and in a
    `sparc_gym` episode's (the `sparc_agent` scorer wraps it), is labelled."""
    from inspect_sparc.core.episode.stepper import Stepper, path_actions
    from inspect_sparc.evals.sparc.episode_scorer import score_episode

    record, line = region_failures(sparc_records[::4])[0]
    puzzle = parse_puzzle(record)
    single = picture_of(cast(str, score_answer(puzzle, answer(line)).explanation))
    episode = picture_of(
        cast(str, score_episode(Stepper(puzzle).run(path_actions(line))).explanation)
    )
    for picture in (single, episode):
        assert picture is not None
        check_coordinates(record, picture)


@pytest.mark.parametrize("number", [0, 1, 7, 11, 12])
def test_the_reader_tells_numbers_apart(number):
    """The oracle itself: at the labels' size, a number's glyph reads as that number only."""
    [pairs] = [pairs for pairs in glyphs().values() if (number, 12) in pairs]
    assert {n for n, _ in pairs} == {number}
