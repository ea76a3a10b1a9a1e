"""Every `Score.value` key of the 60 shipped real answers, against expectations not from the scorer.

`correct` and `invalid_path` come from the reference verdicts stored with each answer
(`sparc-puzzle`'s `validate_solution` and `analyze_path`); the rule keys come from the
independent oracle (`tests/rule_oracle.py`) applied to the path the reference extracted, with
the README's counting rule: the faults that make a path no line (start, end, disconnected,
revisit, rule_cell) count on every answer, the others (gap, off_grid, puzzle rules) only on
lines the reference calls valid.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, cast

import pytest
from rule_oracle import LINE_FAULTS, PLACEMENT_FAULTS, PUZZLE_RULES, Board, Point, broken_rules
from sparc.validation import analyze_path, validate_solution

from inspect_sparc.core.picture.text import render
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.rules import check
from inspect_sparc.evals.sparc.scorer import PLAIN_FAULTS, score_answer

FIXTURES = Path(__file__).parents[2] / "fixtures" / "sparc"
RECORDS = {
    record["id"]: record
    for record in map(json.loads, (FIXTURES / "puzzles.jsonl").read_text().splitlines())
}
ANSWERS = [json.loads(line) for line in (FIXTURES / "answers.jsonl").read_text().splitlines()]
RULE_KEYS = LINE_FAULTS + PLACEMENT_FAULTS + PUZZLE_RULES


def expected_value(answer: dict[str, Any]) -> dict[str, int]:
    """The score value the README promises, from the reference verdicts and the oracle."""
    reference = answer["reference"]
    line = reference["analysis"]["fully_valid_path"]
    assert reference["invalid_path"] == (not line)
    path = tuple(tuple(point) for point in reference["extracted_path"] or ())
    broken = broken_rules(Board(RECORDS[answer["puzzle_id"]]), path)
    value = {"correct": int(reference["solved"]), "invalid_path": int(not line)}
    value.update(
        {f"breaks_{key}": int(key in broken and (line or key in LINE_FAULTS)) for key in RULE_KEYS}
    )
    return value


@pytest.mark.parametrize("index", range(len(ANSWERS)))
def test_every_score_value_of_the_real_answers(index: int) -> None:
    answer = ANSWERS[index]
    score = score_answer(parse_puzzle(RECORDS[answer["puzzle_id"]]), answer["response"])
    assert score.value == expected_value(answer)


def test_the_real_answers_exercise_every_key() -> None:
    values = [expected_value(answer) for answer in ANSWERS]
    totals = {key: sum(v[key] for v in values) for key in values[0]}
    # every key is 1 on some answer, except off_grid: no line among them leaves the grid (the
    # detour test below covers it)
    assert {key for key, total in totals.items() if total == 0} <= {"breaks_off_grid"}
    # invalid answers that cross a gap: gap is broken, but not counted (it is no line)
    crossing = [
        answer
        for answer, value in zip(ANSWERS, values, strict=True)
        if value["invalid_path"]
        and "gap" in broken_rules(Board(RECORDS[answer["puzzle_id"]]), _path(answer))
    ]
    assert len(crossing) >= 10
    assert all(expected_value(answer)["breaks_gap"] == 0 for answer in crossing)


def _path(answer: dict[str, Any]) -> tuple[Point, ...]:
    return tuple(tuple(point) for point in answer["reference"]["extracted_path"] or ())


def _detour(record: dict[str, Any]) -> tuple[Point, ...] | None:
    """The first solution with a step along the right border replaced by a loop off the grid.

    (Answers cannot write negative coordinates, so the loop goes right, past the last column.)
    """
    solution = tuple((p["x"], p["y"]) for p in record["solutions"][0]["path"])
    border = 2 * record["grid_size"]["width"]
    for i, (a, b) in enumerate(zip(solution, solution[1:], strict=False)):
        if a[0] == b[0] == border:
            return solution[: i + 1] + ((border + 1, a[1]), (border + 1, b[1])) + solution[i + 1 :]
    return None


DETOURS = [(record, path) for record in RECORDS.values() if (path := _detour(record))]


@pytest.mark.parametrize(("record", "path"), DETOURS, ids=[r["id"] for r, _ in DETOURS])
def test_a_line_through_off_grid_points_counts_off_grid(
    record: dict[str, Any], path: tuple[Point, ...]
) -> None:
    # The reference calls such a detour a valid line, so off_grid and every puzzle rule count.
    points = [{"x": x, "y": y} for x, y in path]
    analysis = analyze_path(points, record)
    assert analysis["fully_valid_path"]
    answer = {
        "puzzle_id": record["id"],
        "reference": {
            "solved": validate_solution(points, record),
            "invalid_path": False,
            "analysis": analysis,
            "extracted_path": [list(p) for p in path],
        },
    }
    text = "#### " + ", ".join(f"({x}, {y})" for x, y in path)
    score = score_answer(parse_puzzle(record), text)
    assert isinstance(score.value, dict)
    assert score.value == expected_value(answer)
    assert score.value["breaks_off_grid"] == 1 and score.value["invalid_path"] == 0


def test_metadata_and_explanation_of_the_real_answers() -> None:
    for answer in ANSWERS:
        record = RECORDS[answer["puzzle_id"]]
        score = score_answer(parse_puzzle(record), answer["response"])
        assert score.explanation is not None
        reference = answer["reference"]
        broken = sorted(broken_rules(Board(record), _path(answer)))
        assert score.metadata == {
            "analysis": reference["analysis"],
            "rule_violations": broken,
            "unlisted_valid": False,
        }
        assert score.answer == ", ".join(f"({x},{y})" for x, y in _path(answer))
        first = score.explanation.splitlines()[0]
        if reference["extracted_path"] is None:
            assert first.startswith("No `(x, y)` coordinates found after the last `####`")
            continue
        # the path found is the score's answer, and the explanation opens with the verdict
        second = first
        if reference["solved"]:
            stored = len(record["solutions"])
            assert second == f"**Solved**: the path is one of the {stored} stored solutions."
            assert "```" not in score.explanation
            continue
        if reference["analysis"]["fully_valid_path"]:
            assert second == "**Not solved**: a line from S to E, but it breaks the puzzle's rules:"
        else:
            failed = [k for k, ok in reference["analysis"].items() if not ok]
            failed.remove("fully_valid_path")
            # the fault in plain words (the reference's names for it are in `analysis`)
            plain = "; ".join(PLAIN_FAULTS[k] for k in failed if k in PLAIN_FAULTS)
            assert second == f"**Not solved**: not a valid line from S to E: {plain}:"
        listed = [line for line in score.explanation.splitlines() if re.match(r"\d+\. `", line)]
        assert [int(line.split(".")[0]) for line in listed] == list(range(1, len(listed) + 1))
        assert sorted({line.split("`")[1] for line in listed}) == broken
        # A line breaking a region rule (square, star, triangle, polyshape) is shown as a
        # picture; any other failure of a line as the text grid with the path drawn, the broken
        # positions marked, and the shapes listed if they broke.
        region_rules = {"square", "star", "triangle", "polyshape"}
        # A path that is no line at all is pictured too, its first illegal step named and drawn.
        no_line = not reference["analysis"]["fully_valid_path"]
        if no_line:
            assert "\n\nFirst illegal step, in magenta in the picture: " in score.explanation
        if no_line or region_rules & set(broken):
            # the picture ends the explanation; no apostrophe in the alt text: Inspect's
            # viewer shows one as &apos;
            last = score.explanation.split("\n\n")[-1]
            assert re.fullmatch(r"!\[The answer path on the puzzle\]\(data:image/[^)\s]+\)", last)
            continue
        puzzle = parse_puzzle(record)
        marks = check(puzzle, _path(answer)).marked_positions
        drawing = render(puzzle, _path(answer), marks, shapes="polyshape" in broken)
        assert score.explanation.endswith("\n\n```\n" + drawing + "\n```")
        assert ("shapes (rows top to bottom)" in drawing) == ("polyshape" in broken)


def test_a_rule_valid_path_left_out_of_the_stored_set_is_unlisted_valid() -> None:
    record = next(r for r in RECORDS.values() if len(r["solutions"]) > 1)
    withheld = record["solutions"][0]["path"]
    trimmed = dict(record, solutions=record["solutions"][1:])
    text = "#### " + ", ".join(f"({p['x']}, {p['y']})" for p in withheld)
    score = score_answer(parse_puzzle(trimmed), text)
    assert isinstance(score.value, dict) and score.metadata is not None
    assert score.explanation is not None
    assert score.value["correct"] == 0 and not any(score.value[f"breaks_{k}"] for k in RULE_KEYS)
    assert score.metadata["unlisted_valid"] is True
    assert score.explanation.splitlines()[0].startswith(
        "**Not solved**, although the path satisfies every rule: it is not among the stored "
        "solutions (`unlisted_valid`, worth reporting to the dataset authors)."
    )
    assert (
        cast("dict[str, Any]", score_answer(parse_puzzle(record), text).metadata)["unlisted_valid"]
        is False
    )


def test_the_answer_stops_at_the_end_and_long_paths_are_cut_in_score_answer() -> None:
    record = next(iter(RECORDS.values()))
    puzzle = parse_puzzle(record)
    solution = puzzle.solutions[0]
    text = ", ".join(f"({x}, {y})" for x, y in solution)
    score = score_answer(puzzle, "#### " + text + ", (0, 0), (1, 1)")
    assert isinstance(score.value, dict)
    assert score.value["correct"] == 1
    assert score.answer == ", ".join(f"({x},{y})" for x, y in solution)
    for count, shown in ((200, 200), (201, 200), (450, 200)):
        far = [(100 + i, 100) for i in range(count)]
        answer = score_answer(puzzle, ", ".join(f"({x}, {y})" for x, y in far)).answer
        assert answer is not None
        assert answer.startswith("(100,100), (101,100)")
        assert answer.count("(") == shown + (count > shown)
        more = count - shown
        assert answer.endswith(f", ... ({more} more points)" if more else f"({99 + count},100)")


def test_sparc_metrics_on_the_real_answers() -> None:
    from inspect_ai.scorer import MetricProtocol, SampleScore

    from inspect_sparc.evals.sparc.scorer import sparc_metrics

    scores, expected = [], []
    for answer in ANSWERS:
        record = RECORDS[answer["puzzle_id"]]
        level = record["difficulty_level"]
        score = score_answer(parse_puzzle(record), answer["response"])
        scores.append(SampleScore(score=score, sample_metadata={"level": level}))
        expected.append((level, expected_value(answer)))
    accuracy, stderr, invalid, by_level, breaks = (
        cast("dict[str, float]", cast(MetricProtocol, m)(scores)) for m in sparc_metrics()
    )

    def mean(values: list[int]) -> float:
        return sum(values) / len(values)

    assert accuracy == {"accuracy": pytest.approx(mean([v["correct"] for _, v in expected]))}
    assert stderr["stderr"] > 0
    levels = sorted({level for level, _ in expected})
    assert by_level == {
        f"level_{n}": pytest.approx(mean([v["correct"] for lv, v in expected if lv == n]))
        for n in levels
    }
    assert invalid == {
        "invalid_path_rate": pytest.approx(mean([v["invalid_path"] for _, v in expected]))
    }
    assert breaks == {
        f"breaks_{key}": pytest.approx(mean([v[f"breaks_{key}"] for _, v in expected]))
        for key in RULE_KEYS
    }


@pytest.mark.parametrize("answer", ["I cannot solve this.", "", "#### no coordinates here"])
def test_an_answer_without_a_path_is_explained_as_empty_not_as_a_bad_line(answer) -> None:
    """The reference marks every path check failed for an empty answer; the words must not
    claim the (absent) path jumps, revisits or crosses a rule cell."""
    puzzle = parse_puzzle(next(iter(RECORDS.values())))
    score = score_answer(puzzle, answer)
    assert isinstance(score.value, dict) and score.explanation is not None
    assert score.value["correct"] == 0 and score.value["invalid_path"] == 1
    verdict = score.explanation.splitlines()[1]
    assert "it is empty" in verdict
    for fault in PLAIN_FAULTS.values():
        assert fault not in verdict
