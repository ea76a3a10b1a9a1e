"""Failed answers are shown as pictures in the score explanation: the path and the broken rules."""

from __future__ import annotations

import base64
import io
import re

import pytest
from PIL import Image
from sparc.process_puzzle import _astar_find_path
from sparc_visualization.objects.board import get_board_from_data
from sparc_visualization.plots.original_plot import OriginalPlot

from inspect_sparc.core.picture import ANSWER_CELL, MARK_COLOR, PATH_COLOR, answer_image
from inspect_sparc.core.puzzle import parse_puzzle
from inspect_sparc.core.rules import check
from inspect_sparc.evals.sparc.scorer import PICTURED_RULES, score_answer

PICTURE = re.compile(r"!\[[^\]]*\]\(data:image/(?:png|webp);base64,([A-Za-z0-9+/=]+)\)")


def picture_of(explanation: str) -> Image.Image | None:
    """The decoded picture in an explanation, or None."""
    found = PICTURE.findall(explanation)
    assert len(found) <= 1
    return Image.open(io.BytesIO(base64.b64decode(found[0]))).convert("RGB") if found else None


def geometry(record: dict) -> OriginalPlot:
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


def rule_blind_line(record: dict) -> tuple:
    """The reference's own A* line from S to E (sparc-puzzle's ablation): a valid line that
    ignores every puzzle rule, so it usually breaks region rules."""
    return tuple(map(tuple, _astar_find_path(record)))


def answer(path) -> str:
    return "My reasoning...\n#### " + ", ".join(f"({x},{y})" for x, y in path)


def region_failures(records: list[dict]) -> list[tuple[dict, tuple]]:
    """(record, A* line) for every puzzle whose A* line breaks a rule a picture shows."""
    found = []
    for record in records:
        line = rule_blind_line(record)
        score = score_answer(parse_puzzle(record), answer(line))
        broken = set(score.metadata["rule_violations"])
        if not score.value["invalid_path"] and broken & PICTURED_RULES:
            found.append((record, line))
    return found


@pytest.fixture(scope="module")
def region_cases(sparc_records) -> list[tuple[dict, tuple]]:
    return region_failures(sparc_records[::3])


def test_the_picture_of_a_line_that_breaks_region_rules_shows_its_path(region_cases):
    assert len(region_cases) >= 8
    for record, path in region_cases:
        puzzle = parse_puzzle(record)
        explanation = score_answer(puzzle, answer(path)).explanation
        picture = picture_of(explanation)
        assert picture is not None and "legend:" not in explanation  # the picture, no text grid
        where = geometry(record)
        assert picture.size == (where.x_image_size, where.y_image_size)
        for x, y in path[1:]:  # the start disc is drawn larger; every later point is on the line
            assert close(picture.getpixel(where.middle_positions[y][x]), PATH_COLOR), (x, y)
        # nodes the answer never visits stay off the path colour
        free = [
            (x, y)
            for y in range(0, puzzle.rows, 2)
            for x in range(0, puzzle.columns, 2)
            if (x, y) not in set(path) and record["puzzle_array"][y][x] == "+"
        ]
        assert free
        for x, y in free:
            assert not close(picture.getpixel(where.middle_positions[y][x]), PATH_COLOR), (x, y)


def test_other_failures_keep_the_text_grid(sparc_records):
    """A path that is no line (here: stops short of E) names its faults; no picture."""
    for record in sparc_records[::9]:
        puzzle = parse_puzzle(record)
        explanation = score_answer(puzzle, answer(wrong_path(puzzle))).explanation
        assert picture_of(explanation) is None
        assert "legend:" in explanation and "```" in explanation


def test_broken_rules_are_ringed_where_they_broke(region_cases):
    record, line = region_cases[-1]
    puzzle = parse_puzzle(record)
    verdict = check(puzzle, line)
    assert verdict.marked_positions
    _, data = answer_image(puzzle, line, verdict.marked_positions)
    picture = Image.open(io.BytesIO(data)).convert("RGB")
    where = geometry(record)
    radius = int(where.path_size)
    for x, y in verdict.marked_positions:
        cx, cy = where.middle_positions[y][x]
        ring = [picture.getpixel((cx + dx, cy)) for dx in range(-radius - 2, radius + 3)]
        assert any(close(p, MARK_COLOR) for p in ring), (x, y)
    _, unmarked = answer_image(puzzle, line, ())
    plain = Image.open(io.BytesIO(unmarked)).convert("RGB")
    assert not any(close(p, MARK_COLOR, 8) for p in plain.getdata())


def test_no_picture_for_a_solved_or_empty_answer(sparc_records):
    puzzle = parse_puzzle(sparc_records[3])
    assert picture_of(score_answer(puzzle, answer(puzzle.solutions[0])).explanation) is None
    assert picture_of(score_answer(puzzle, "I cannot solve this.").explanation) is None


def test_hostile_paths_still_give_a_picture(sparc_records):
    puzzle = parse_puzzle(sparc_records[10])
    far = [(-5, 2), (0, 0), (400, 400), (1, 1), (2, 2), (2, 3), (2, 2)] + [(0, 0)] * 100_000
    _, data = answer_image(puzzle, far, [(400, 400), (1, 1), (-1, 0)])
    where = geometry(sparc_records[10])
    assert Image.open(io.BytesIO(data)).size == (where.x_image_size, where.y_image_size)


def test_pictures_are_small(sparc_records):
    """Every failed answer carries one: they must stay around a kilobyte."""
    sizes = []
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        sizes.append(len(answer_image(puzzle, rule_blind_line(record), [puzzle.start])[1]))
    assert sum(sizes) / len(sizes) < 1000 and max(sizes) < 2000


def test_without_webp_the_picture_is_a_png(region_cases, monkeypatch):
    from PIL import features

    if not features.check("webp"):
        pytest.skip("this Pillow has no WebP: every picture is already a PNG")

    record, line = region_cases[0]
    puzzle = parse_puzzle(record)
    webp = score_answer(puzzle, answer(line)).explanation
    real = features.check
    monkeypatch.setattr(features, "check", lambda name: False if name == "webp" else real(name))
    png = score_answer(puzzle, answer(line)).explanation
    assert "data:image/webp;base64," in webp and "data:image/png;base64," in png
    assert list(picture_of(png).getdata()) == list(picture_of(webp).getdata())  # both lossless


def test_a_gym_episode_that_reaches_e_breaking_region_rules_is_pictured(region_cases):
    from inspect_sparc.core.gym import GymEnv, path_actions
    from inspect_sparc.evals.sparc.episode_scorer import score_episode

    record, line = region_cases[0]
    puzzle = parse_puzzle(record)
    env = GymEnv(puzzle).run(path_actions(line))
    explanation = score_episode(env).explanation
    picture = picture_of(explanation)
    assert picture is not None and "legend:" not in explanation
    where = geometry(record)
    for x, y in line[1:]:
        assert close(picture.getpixel(where.middle_positions[y][x]), PATH_COLOR), (x, y)
    stuck = GymEnv(puzzle, max_steps=1).run(path_actions(line)[:1])  # step limit: text grid
    assert picture_of(score_episode(stuck).explanation) is None
