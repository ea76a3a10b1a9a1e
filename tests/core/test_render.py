"""Text drawing of puzzles, paths and violation marks."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import yaml

from inspect_sparc.core.picture.text import KIND_WORDS, LATTICE_WORDS, MARK, legend, render
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.records import COLOR_NAMES

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sparc"
PUZZLES = [
    parse_puzzle(json.loads(line)) for line in (FIXTURES / "puzzles.jsonl").read_text().splitlines()
]


def _grid_lines(text: str, rows: int) -> list[str]:
    """The drawn grid rows (after the x header)."""
    return text.splitlines()[1 : 1 + rows]


def test_first_puzzle_drawing() -> None:
    puzzle = PUZZLES[0]
    text = render(puzzle, puzzle.solutions[0])
    lines = _grid_lines(text, puzzle.rows)
    assert len(lines) == puzzle.rows
    assert lines[4].split()[-1] == "S"
    assert lines[2].split()[-1] == "E"
    assert "oR" in lines[5]
    assert "PR" in lines[3]
    assert "G" in lines[1]
    assert "@" in lines[0]
    assert "1648=.#../.##./.##./...." in text
    legend_line, cells_line = text.splitlines()[-2:]
    assert legend_line.startswith("legend: S start, E end, # path, @ dot on path")
    assert cells_line == "cells = kind + colour: o square, P polyshape; R red"


def test_six_by_six_is_compact() -> None:
    puzzle = next(p for p in PUZZLES if p.width == 6 and p.height == 6)
    text = render(puzzle, puzzle.solutions[0])
    lines = text.splitlines()
    assert len(lines) <= puzzle.rows + 4  # x header, rows, shapes, legend, cell codes
    assert max(len(line) for line in lines[:-3]) <= 60


def test_without_path_shows_no_path_marks() -> None:
    puzzle = PUZZLES[1]
    lines = _grid_lines(render(puzzle), puzzle.rows)
    assert not any("#" in line for line in lines)
    assert "# path" not in render(puzzle)


def test_marks_flag_violations_and_ignore_off_grid() -> None:
    puzzle = next(p for p in PUZZLES if p.dots)
    marks = (sorted(puzzle.dots)[0], (-1, 0))
    text = render(puzzle, [puzzle.start, (-5, 3), (99, 99)], marks)
    dot_x, dot_y = sorted(puzzle.dots)[0]
    row = _grid_lines(text, puzzle.rows)[dot_y]
    prefix = len(str(puzzle.rows - 1)) + 1
    token = row[prefix + 3 * dot_x : prefix + 3 * dot_x + 3]
    assert token == ".! "
    assert "! marked (numbered list above)" in text


def _codes(text: str, puzzle) -> dict[tuple[int, int], str]:
    """The code drawn at every grid position, read back from the drawing."""
    prefix = len(str(puzzle.rows - 1)) + 1
    return {
        (x, y): row[prefix + 3 * x : prefix + 3 * x + 3].strip()
        for y, row in enumerate(_grid_lines(text, puzzle.rows))
        for x in range(puzzle.columns)
    }


def test_every_fixture_draws_its_solution_exactly_where_it_runs() -> None:
    for puzzle in PUZZLES:
        path = puzzle.solutions[0]
        codes = _codes(render(puzzle, path), puzzle)
        assert len(codes) == puzzle.rows * puzzle.columns
        for point, code in codes.items():
            value = puzzle.grid[point[1]][point[0]]
            if point in (puzzle.start, puzzle.end):
                assert code == value, (puzzle.id, point)
            elif point in path:
                assert code == ("@" if value == "." else "#"), (puzzle.id, point, code)
            else:
                assert code not in ("#", "@"), (puzzle.id, point, code)


def test_the_legend_names_every_code_the_drawing_shows() -> None:
    """Each lattice code, cell kind letter and colour letter drawn is explained below the grid."""
    for puzzle in PUZZLES:
        for path, marks in ((None, ()), (puzzle.solutions[0], [puzzle.start, (1, 1)])):
            text = render(puzzle, path, marks)
            grid = _grid_lines(text, puzzle.rows)
            legend = "\n".join(text.splitlines()[1 + puzzle.rows :])
            for y, line in enumerate(grid):
                tokens = [line[len(str(puzzle.rows - 1)) + 1 :][i : i + 3] for i in range(0, 99, 3)]
                for x, token in enumerate(t.strip() for t in tokens[: puzzle.columns]):
                    code = token.rstrip(MARK)
                    if token.endswith(MARK):
                        assert f"{MARK} marked" in legend
                    if not code:
                        continue
                    if x % 2 and y % 2:
                        assert f"{code[0]} {KIND_WORDS[code[0]]}" in legend, (code, legend)
                        assert f"{code[1]} {COLOR_NAMES[code[1]]}" in legend, (code, legend)
                    else:
                        assert code in LATTICE_WORDS and f"{code} " in legend, (code, legend)


# --- Read back against the dataset's own YAML description (`text_visualization`) ---------------
#
# The drawing is built from `puzzle_array`; every published record also describes the same puzzle
# in YAML (start, end, and each dot, gap and cell symbol with its kind and colour in words). Reading
# a drawing back and comparing with the YAML checks the drawing and its legend against a source the
# renderer never reads.

#: The colour words of the YAML and the letters of `puzzle_array` (the dataset's convention).
YAML_COLOUR_LETTER = {
    "red": "R",
    "blue": "B",
    "green": "G",
    "yellow": "Y",
    "white": "W",
    "orange": "O",
    "purple": "P",
    "black": "K",
}


def _yaml_kind(props: dict[str, Any]) -> tuple[str, str]:
    """The kind letter of a YAML cell symbol and the words its legend entry must contain."""
    kind = props["type"]
    if kind == "triangle":
        count = props["count"]
        return "ABCD"[count - 1], f"triangle ({count} edge"
    return {"square": ("o", "square"), "star": ("*", "star"), "poly": ("P", "polyshape"),
            "ylop": ("Y", "negative polyshape")}[kind]  # fmt: skip


def _expected_codes(record: dict[str, Any], path) -> dict[tuple[int, int], str]:
    """What each position must show, from the YAML: symbols first, then the bare lattice."""
    described = yaml.safe_load(record["text_visualization"])["puzzle"]
    width, height = described["dimensions"]["width"], described["dimensions"]["height"]
    on_path = set(path or ())
    expected = {}
    for y in range(2 * height + 1):
        for x in range(2 * width + 1):
            if x % 2 and y % 2:
                expected[(x, y)] = ""  # an empty cell
            elif (x, y) in on_path:
                expected[(x, y)] = "#"
            elif x % 2 == 0 and y % 2 == 0:
                expected[(x, y)] = "+"
            else:
                expected[(x, y)] = "-" if y % 2 == 0 else "|"
    for cell in described["cells"]:
        point = (cell["position"]["x"], cell["position"]["y"])
        props = cell["properties"]
        if "dot" in props:
            expected[point] = "@" if point in on_path else "."
        elif "gap" in props:
            expected[point] = "G"
        else:
            expected[point] = _yaml_kind(props)[0] + YAML_COLOUR_LETTER[props["color"]]
    for key, code in (("start", "S"), ("end", "E")):
        expected[(described[key]["x"], described[key]["y"])] = code
    return expected


def _legend_entries(text: str) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The legend read back: lattice code -> words (`- | edges` explains both `-` and `|`),
    kind letter -> words, colour letter -> word.

    Each code may be explained once only (a second explanation fails the read-back).
    """
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("legend: "))
    lattice: dict[str, str] = {}
    for entry in lines[at][len("legend: ") :].split(", "):
        tokens = entry.split(" ")
        codes = list(itertools.takewhile(lambda token: len(token) == 1, tokens))
        assert codes and len(codes) < len(tokens), entry
        for code in codes:
            assert code not in lattice, (code, lines[at])
            lattice[code] = " ".join(tokens[len(codes) :])
    kinds: dict[str, str] = {}
    colours: dict[str, str] = {}
    if at + 1 < len(lines):
        prefix = "cells = kind + colour: "
        assert lines[at + 1].startswith(prefix), lines[at + 1]
        kind_part, colour_part = lines[at + 1][len(prefix) :].split("; ")
        for part, into in ((kind_part, kinds), (colour_part, colours)):
            for entry in part.split(", "):
                letter, _, words = entry.partition(" ")
                assert len(letter) == 1 and letter not in into, (entry, lines[at + 1])
                into[letter] = words
    return lattice, kinds, colours


def test_every_fixture_draws_what_its_yaml_describes(sparc_records) -> None:
    """Position by position, with and without the solution traced: the YAML's start, end, dots,
    gaps and cell symbols (kind and colour), the traced path, and nodes `+`, horizontal edges `-`
    and vertical edges `|` everywhere else."""
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        for path in (None, puzzle.solutions[0]):
            drawn = _codes(render(puzzle, path), puzzle)
            assert drawn == _expected_codes(record, path), record["id"]


def test_the_legend_explains_exactly_the_codes_drawn_in_the_yaml_words(sparc_records) -> None:
    """Every code drawn is explained once and nothing else is: lattice codes, each cell kind in
    the YAML's words (triangles with their edge count) and each colour by the YAML's colour word."""
    meaning = {".": "dot", "@": "dot", "G": "gap", "-": "edge", "|": "edge", "S": "start",
               "E": "end", "#": "path", "+": "node"}  # fmt: skip
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        cells = yaml.safe_load(record["text_visualization"])["puzzle"]["cells"]
        symbols = [c["properties"] for c in cells if "type" in c["properties"]]
        for path in (None, puzzle.solutions[0]):
            text = render(puzzle, path)
            drawn = _codes(text, puzzle)
            lattice, kinds, colours = _legend_entries(text)
            shown = {code for (x, y), code in drawn.items() if not (x % 2 and y % 2)}
            assert set(lattice) == shown, (record["id"], lattice, shown)
            for code, words in lattice.items():
                assert meaning[code] in words, (code, words)
            assert kinds == {_yaml_kind(p)[0]: kinds.get(_yaml_kind(p)[0]) for p in symbols}
            for props in symbols:
                assert _yaml_kind(props)[1] in kinds[_yaml_kind(props)[0]], (props, kinds)
            assert colours == {YAML_COLOUR_LETTER[p["color"]]: p["color"] for p in symbols}


def test_legend_merges_the_two_edge_codes_only_when_both_are_drawn() -> None:
    """One compact entry for `-` and `|` together; a drawing with one kind names only that one."""
    assert _legend_entries(legend(["+", "-", "|"], [], False))[0] == {
        "+": "node",
        "-": "edges",
        "|": "edges",
    }
    assert legend(["+", "-", "|"], [], False).count("edge") == 1
    for only in ("-", "|"):
        lattice = _legend_entries(legend(["+", only], [], False))[0]
        assert set(lattice) == {"+", only} and "edge" in lattice[only]


def test_shapes_line_matches_the_records_polyshapes(sparc_records) -> None:
    """The shapes line lists exactly the shapes the YAML's cells use, each as the 4x4 matrix of
    the record's `polyshapes` JSON, rows top to bottom (`#` filled)."""
    seen_several = False
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        cells = yaml.safe_load(record["text_visualization"])["puzzle"]["cells"]
        used = {str(c["properties"]["polyshape"]) for c in cells if "polyshape" in c["properties"]}
        lines = [
            line
            for line in render(puzzle, puzzle.solutions[0]).splitlines()
            if line.startswith("shapes (rows top to bottom): ")
        ]
        if not used:
            assert lines == []
            continue
        (line,) = lines
        listed = line.removeprefix("shapes (rows top to bottom): ").split(", ")
        shapes = dict(entry.split("=") for entry in listed)
        assert set(shapes) == used, record["id"]
        matrices = json.loads(record["polyshapes"])
        for shape_id, rows in shapes.items():
            expected = ["".join(".#"[v] for v in row) for row in matrices[shape_id]]
            assert rows.split("/") == expected, (record["id"], shape_id)
        seen_several |= len(used) > 1
        assert "shapes (rows" not in render(puzzle, puzzle.solutions[0], shapes=False)
    assert seen_several  # the fixtures include puzzles with several shapes in use


def test_coordinates_label_the_columns_and_rows(sparc_records) -> None:
    """Each x label starts above its column's tokens, as codes do, and each row starts with its
    y, right-aligned (the 6x6 puzzles have two-digit ys)."""
    widths = set()
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        lines = render(puzzle).splitlines()
        width = len(str(puzzle.rows - 1))
        widths.add(width)
        prefix = width + 1
        header = lines[0]
        assert header[:prefix].strip() == ""
        for x in range(puzzle.columns):
            label = header[prefix + 3 * x : prefix + 3 * x + 3]  # starts where the token does
            assert label.rstrip() == str(x), (header, x)
        assert header == header.rstrip()
        for y, line in enumerate(lines[1 : 1 + puzzle.rows]):
            assert line[:prefix] == str(y).rjust(width) + " ", (line, y)
    assert widths == {1, 2}


def test_marks_that_cannot_be_drawn_change_nothing(sparc_records) -> None:
    """Off-grid points, and entries that are not two whole numbers, neither flag a position nor
    add the `!` legend entry: the drawing is the one without marks."""
    for record in sparc_records[:12]:
        puzzle = parse_puzzle(record)
        path = puzzle.solutions[0]
        c, r = puzzle.columns, puzzle.rows
        junk: list[Any] = [(-1, 0), (0, -1), (c, 0), (0, r), (c, r), (99, 99), (1, 2, 3), (0.0, 0),
                (0, 0.0), (1.5, 0), (0, 1.5), ("0", 0), (0, "0"), "ab", (0,)]  # fmt: skip
        assert render(puzzle, path, junk) == render(puzzle, path), record["id"]
        junk_lists: list[Any] = [list(p) for p in junk if isinstance(p, tuple)]
        assert render(puzzle, path, junk_lists) == render(puzzle, path)


def test_points_given_as_json_lists_draw_like_tuples(sparc_records) -> None:
    """A path and marks read from JSON (`[x, y]` lists, stray dicts among them) draw as tuples."""
    for record in sparc_records[:12]:
        puzzle = parse_puzzle(record)
        path = puzzle.solutions[0]
        marks = [path[1], path[-2]]
        expected = render(puzzle, path, marks)
        assert MARK in expected
        as_json: list[Any] = [list(p) for p in path] + [{"x": 0, "y": 0}]
        marks_json: list[Any] = [list(p) for p in marks] + [{"x": 1}]
        assert render(puzzle, as_json, marks_json) == expected
