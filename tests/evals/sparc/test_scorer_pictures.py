"""Failed answers are shown as pictures in the score explanation: the path and the broken rules."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from picture_helpers import (
    answer,
    close,
    geometry,
    picture_of,
    pixels,
    region_failures,
    rule_blind_line,
)
from PIL import Image
from sparc.validation import analyze_path

from inspect_sparc.core.picture.image import MARK_COLOR, PATH_COLOR, answer_image
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.rules import check
from inspect_sparc.evals.sparc.scorer import PICTURED_RULES, first_illegal_step, score_answer


@pytest.fixture(scope="module")
def region_cases(sparc_records) -> list[tuple[dict[str, Any], tuple[Any, ...]]]:
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


def mutations(solution: tuple[Any, ...]) -> dict[str, tuple[list[Any], tuple[Any, ...], str]]:
    """Paths that are no line, each made from a solution: (path, expected first illegal step,
    words the explanation gives it). The steps are known by construction."""
    s = list(solution)
    return {
        "jump": (s[:2] + s[4:], (s[1], s[4]), "a jump"),
        "short": (s[:-2], (None, s[-3]), "stops at"),
        "start": (s[1:], (None, s[1]), "starts at"),
        "revisit": (s[:3] + [s[1]] + s[3:], (s[2], s[1]), "returns to"),
    }


def test_the_first_illegal_step_is_where_a_path_stops_being_a_line(sparc_records):
    """Each mutated path is no line by the reference's own check (`analyze_path`), and the step
    named is the one the mutation made."""
    for record in sparc_records[::5]:
        puzzle = parse_puzzle(record)
        assert first_illegal_step(puzzle, puzzle.solutions[0]) is None
        for path, step, words in mutations(puzzle.solutions[0]).values():
            reference = analyze_path([{"x": x, "y": y} for x, y in path], record)
            assert not reference["fully_valid_path"]
            found = first_illegal_step(puzzle, path)
            assert found is not None and found[0] == step and words in found[1], found


def test_a_path_that_is_no_line_is_pictured_with_its_first_illegal_step(sparc_records):
    """Not the text grid: the path and, in magenta, the step where it went wrong."""
    for record in sparc_records[::9]:
        puzzle = parse_puzzle(record)
        where = geometry(record)
        for name, (path, step, words) in mutations(puzzle.solutions[0]).items():
            explanation = score_answer(puzzle, answer(path)).explanation
            picture = picture_of(explanation)
            assert picture is not None and "legend:" not in explanation, name
            assert (
                "First illegal step, in magenta in the picture: " in explanation
                and words in explanation
            )
            if name == "jump":  # the jump's midpoint: magenta, and not without the step
                (ax, ay), (bx, by) = (where.middle_positions[y][x] for x, y in step)
                middle = ((ax + bx) // 2, (ay + by) // 2)
                assert close(picture.getpixel(middle), MARK_COLOR), record["id"]
                _, data = answer_image(puzzle, path, ())
                plain = Image.open(io.BytesIO(data)).convert("RGB")
                assert not close(plain.getpixel(middle), MARK_COLOR)


def test_a_failure_without_a_picture_keeps_the_text_grid(sparc_records):
    """A line that breaks only line-drawing rules a grid shows (a gap, a dot) keeps the grid."""
    found = 0
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        line = rule_blind_line(record)
        broken = set(check(puzzle, line).broken_rules)
        if broken and not broken & PICTURED_RULES and tuple(line) not in puzzle.solutions:
            explanation = score_answer(puzzle, answer(line)).explanation
            assert picture_of(explanation) is None and "legend:" in explanation
            found += 1
    assert found


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
    assert not any(close(p, MARK_COLOR, 8) for p in pixels(plain))


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
    """Every failed answer carries one: they must stay well under a kilobyte (drawn at full
    size, these averaged 937 B and reached 1,780 B; drawn at half size and enlarged, 612 B)."""
    sizes = []
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        sizes.append(len(answer_image(puzzle, rule_blind_line(record), [puzzle.start])[1]))
    assert sum(sizes) / len(sizes) < 700 and max(sizes) < 1400


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
    assert re.search(r"\(data:image/webp[;a-z=0]*;base64,", webp)
    assert re.search(r"\(data:image/png[;a-z=0]*;base64,", png)
    assert pixels(picture_of(png)) == pixels(picture_of(webp))  # both lossless


def test_a_gym_episode_that_reaches_e_breaking_region_rules_is_pictured(region_cases):
    from inspect_sparc.core.episode.stepper import Stepper, path_actions
    from inspect_sparc.evals.sparc.episode_scorer import score_episode

    record, line = region_cases[0]
    puzzle = parse_puzzle(record)
    env = Stepper(puzzle).run(path_actions(line))
    explanation = score_episode(env).explanation
    picture = picture_of(explanation)
    assert picture is not None and "legend:" not in explanation
    where = geometry(record)
    for x, y in line[1:]:
        assert close(picture.getpixel(where.middle_positions[y][x]), PATH_COLOR), (x, y)
    stuck = Stepper(puzzle, max_steps=1).run(path_actions(line)[:1])  # step limit: text grid
    assert picture_of(score_episode(stuck).explanation) is None


def test_no_sample_summary_holds_a_picture(sparc_records):
    """Inspect keeps the start of an explanation in its sample's summary, which the log stores
    twice more: the words before the picture fit there, the picture never does, however small
    (its data URI is lengthened past the summary's width by a run of zeros)."""
    from inspect_ai.log import EvalSample

    padded = 0
    for record, line in region_failures(sparc_records):
        score = score_answer(parse_puzzle(record), answer(line))
        assert score.explanation is not None
        sample = EvalSample(id=1, epoch=1, input="?", target="", scores={"sparc_scorer": score})
        summary = sample.summary()
        assert summary.scores is not None
        kept = summary.scores["sparc_scorer"].explanation or ""
        assert kept.startswith("**Not solved**") and "data:" not in kept, kept[-200:]
        padded += ";padding=0" in score.explanation
        assert picture_of(score.explanation) is not None  # the padded URI still decodes
    assert padded >= 3  # small pictures, whose URIs alone would have fitted
