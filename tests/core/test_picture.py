"""Puzzle images: the reference renderer's pixels under the pinned font, and the same bytes on
every machine and in every process."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest
import sparc_visualization.fonts as reference_fonts
from PIL import Image, ImageFont
from sparc_visualization.plot import get_puzzle_image

from inspect_sparc.core.picture.image import (
    FONT_PATH,
    PLOT_TYPES,
    board_record,
    check_plot_type,
    puzzle_png,
    renderer_info,
)
from inspect_sparc.core.puzzle.parse import parse_puzzle

#: The reference modules whose font lookup the pinned font replaces.
FONT_USERS = (
    "sparc_visualization.plots.text_plot",
    "sparc_visualization.plots.path_cell_annotation_plot",
)


@pytest.fixture
def reference_on_pinned_font(monkeypatch):
    """Make the reference renderer load the shipped font file through its own lookup."""
    original = reference_fonts.load_plot_font

    def lookup(size, preferred_path=None):
        return original(size, preferred_path=str(FONT_PATH))

    for module in FONT_USERS:
        monkeypatch.setattr(f"{module}.load_plot_font", lookup)


def reference_pixels(
    record: dict[str, Any], plot: str, path=None
) -> tuple[str, tuple[int, int], bytes]:
    """Mode, size and raw pixels of the reference renderer's PNG (decoded from its base64)."""
    encoded = get_puzzle_image(dict(record), plot_type=plot, base_64_image=True, path=path)
    return pixels(base64.b64decode(encoded))


def pixels(png: bytes) -> tuple[str, tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(png))
    return image.mode, image.size, image.tobytes()


def covering(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A few records that together hold every symbol kind, plus the largest grid."""
    chosen: list[dict[str, Any]] = []
    seen: set[str] = set()
    kinds = lambda r: {v.split("-")[0] for row in r["puzzle_array"] for v in row}  # noqa: E731
    for record in sorted(records, key=lambda r: -len(kinds(r))):
        if kinds(record) - seen:
            chosen.append(record)
            seen |= kinds(record)
    largest = max(records, key=lambda r: r["grid_size"]["width"] * r["grid_size"]["height"])
    return chosen + ([largest] if largest not in chosen else [])


def mismatches(records: list[dict[str, Any]], plots=PLOT_TYPES) -> list[tuple[str, str]]:
    return [
        (record["id"], plot)
        for record in records
        for plot in plots
        if pixels(puzzle_png(record, plot)) != reference_pixels(record, plot)
    ]


def test_every_plot_type_equals_the_reference_pixels(sparc_records, reference_on_pinned_font):
    records = covering(sparc_records)
    assert 3 <= len(records) <= 8
    assert mismatches(records) == []


def test_a_path_overlay_equals_the_reference_pixels(sparc_records, reference_on_pinned_font):
    record = sparc_records[40]
    path = [{"x": p["x"], "y": p["y"]} for p in record["solutions"][0]["path"][:9]]
    for plot in ("original", "path_cell_annotated"):
        ours = pixels(puzzle_png(record, plot, path=path))
        assert ours == reference_pixels(record, plot, path=path)
        assert ours != pixels(puzzle_png(record, plot))  # the overlay is really drawn


def test_the_image_rebuilt_from_a_parsed_puzzle_is_the_same(sparc_records):
    """Samples keep a compact record; the image drawn from it equals the full record's."""
    for record in covering(sparc_records):
        rebuilt = board_record(parse_puzzle(record))
        assert puzzle_png(rebuilt, "text") == puzzle_png(record, "text")


def test_images_do_not_depend_on_the_fonts_a_machine_has(sparc_records, monkeypatch):
    """On a bare machine the reference falls back to Pillow's font; ours does not move."""
    record = sparc_records[40]
    before = {plot: puzzle_png(record, plot) for plot in ("text", "path_cell_annotated")}
    real_truetype = ImageFont.truetype

    def bare_machine(font=None, *args, **kwargs):
        if isinstance(font, str | os.PathLike) and str(font) != str(FONT_PATH):
            raise OSError(f"cannot open resource {font}")
        return real_truetype(font, *args, **kwargs)

    monkeypatch.setattr(ImageFont, "truetype", bare_machine)
    for plot, png in before.items():
        assert puzzle_png(record, plot) == png
        assert reference_pixels(record, plot) != pixels(png)  # the reference image did move


DETERMINISM = """
import hashlib, json, sys
from inspect_sparc.core.picture.image import puzzle_png
records = json.loads(sys.stdin.read())
print(json.dumps([hashlib.sha256(puzzle_png(r, p)).hexdigest() for r in records
                  for p in ("original", "text", "path_cell_annotated", "rotated")]))
"""


def test_the_same_bytes_in_another_process(sparc_records):
    records = sparc_records[40:42]
    here = [
        hashlib.sha256(puzzle_png(r, p)).hexdigest()
        for r in records
        for p in ("original", "text", "path_cell_annotated", "rotated")
    ]
    result = subprocess.run(
        [sys.executable, "-c", DETERMINISM],
        input=json.dumps(records),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout) == here


def test_an_unknown_plot_type_lists_them_all():
    with pytest.raises(ValueError) as error:
        check_plot_type("orignal")
    assert all(plot in str(error.value) for plot in PLOT_TYPES)


def test_the_plot_types_are_the_renderers(sparc_records):
    """Our list is exactly what the renderer accepts (its dispatcher is the oracle)."""
    from sparc_visualization.objects.board import get_board_from_data
    from sparc_visualization.plots.plot import get_plot_class

    board = get_board_from_data(sparc_records[0])
    for plot in PLOT_TYPES:
        get_plot_class(plot, board, size=(board.width, board.height))
    with pytest.raises(ValueError):
        get_plot_class("orignal", board, size=(board.width, board.height))
    source = (
        __import__("inspect").getsource(get_plot_class).count("elif plot_type ==")
        + 1  # the first branch is an `if`
    )
    assert source == len(PLOT_TYPES)


def test_renderer_info_names_versions_and_the_font():
    info = renderer_info()
    assert info["renderer"] == "sparc-visualization 0.2.2"
    assert "DejaVu Sans Mono 2.37" in info["font"]
    assert hashlib.sha256(FONT_PATH.read_bytes()).hexdigest().startswith(info["font"][-17:-1])


@pytest.mark.slow
def test_every_plot_type_equals_the_reference_on_all_shipped_puzzles(
    sparc_records, reference_on_pinned_font
):
    assert mismatches(sparc_records) == []


@pytest.mark.slow
def test_every_plot_type_equals_the_reference_on_the_500_test_puzzles(
    sparc_test_split, reference_on_pinned_font
):
    assert mismatches(sparc_test_split) == []
