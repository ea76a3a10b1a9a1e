"""Baselines against the reference: A* plans and verdicts, chance level against brute force."""

from __future__ import annotations

import math
import random
from typing import Any, cast

import pytest
from gym_reference import reference_astar, reference_random
from sparc.process_puzzle import _astar_find_path

from inspect_sparc.core.episode.baselines import (
    astar_path,
    astar_solves,
    chance_of_solving,
    episode_rng,
    random_walk,
)
from inspect_sparc.core.puzzle.parse import parse_puzzle


def brute_force_chance(record: dict[str, Any], max_steps: int) -> float:
    """Probability that a uniform legal walk solves, by enumerating every walk on the raw grid."""
    grid = record["puzzle_array"]
    rows, columns = len(grid), len(grid[0])
    start = next((x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == "S")
    end = next((x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == "E")
    solutions = {tuple((p["x"], p["y"]) for p in s["path"]) for s in record["solutions"]}

    def legal(path: list[Any]) -> list[Any]:
        x, y = path[-1]
        out = []
        for dx, dy in ((1, 0), (0, -1), (-1, 0), (0, 1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < columns and 0 <= ny < rows and not (nx % 2 and ny % 2):
                if grid[ny][nx] != "G" and (nx, ny) not in path:
                    out.append((nx, ny))
        return out

    def walk(path: list[Any], probability: float) -> float:
        if path[-1] == end:
            return probability if tuple(path) in solutions else 0.0
        options = legal(path)
        if not options or len(path) - 1 >= max_steps:
            return 0.0
        return sum(walk([*path, p], probability / len(options)) for p in options)

    return walk([start], 1.0)


def small(record: dict[str, Any]) -> bool:
    return cast(bool, record["grid_size"]["width"] * record["grid_size"]["height"] <= 9)


def test_astar_plan_is_the_reference_plan(sparc_records):
    for record in sparc_records:
        expected = _astar_find_path(record)
        assert astar_path(parse_puzzle(record)) == tuple(expected), record["id"]


def test_astar_verdicts_match_the_reference_on_the_fixtures(sparc_records):
    for record in sparc_records[:20]:
        assert astar_solves(parse_puzzle(record)) == reference_astar(record)["solved"]


def test_chance_equals_brute_force_enumeration_of_walks(sparc_records):
    checked = 0
    for record in filter(small, sparc_records):
        puzzle = parse_puzzle(record)
        for max_steps in (100, 8):
            expected = brute_force_chance(record, max_steps)
            assert chance_of_solving(puzzle, max_steps) == pytest.approx(expected, abs=1e-12)
        checked += 1
    assert checked >= 5


def test_chance_is_a_probability_and_never_zero_for_shipped_puzzles(sparc_records):
    for record in sparc_records:
        chance = chance_of_solving(parse_puzzle(record))
        assert 0 < chance <= 1, record["id"]


def test_chance_with_traceback_is_refused(sparc_records):
    with pytest.raises(ValueError, match="traceback"):
        chance_of_solving(parse_puzzle(sparc_records[0]), traceback=True)


def test_random_walks_are_reproducible_and_legal(sparc_records):
    puzzle = parse_puzzle(sparc_records[0])
    first = random_walk(puzzle, episode_rng("a", 1)).final_path
    assert random_walk(puzzle, episode_rng("a", 1)).final_path == first
    walks = {random_walk(puzzle, episode_rng("a", epoch)).final_path for epoch in range(20)}
    assert len(walks) > 1
    for epoch in range(20):
        env = random_walk(puzzle, episode_rng("b", epoch), traceback=True)
        assert env.illegal == 0 and env.done


@pytest.mark.slow
def test_astar_solves_the_reference_32_of_500(sparc_test_split):
    reference_ids = [r["id"] for r in sparc_test_split if reference_astar(r)["solved"]]
    ours = [r["id"] for r in sparc_test_split if astar_solves(parse_puzzle(r))]
    assert ours == reference_ids
    assert len(ours) == 32  # the Spatial-Gym paper's A* baseline: 6.4%
    for record in sparc_test_split:
        assert astar_path(parse_puzzle(record)) == tuple(_astar_find_path(record))


@pytest.mark.slow
def test_mean_chance_matches_the_reference_random_walk(sparc_test_split):
    chances = [chance_of_solving(parse_puzzle(r)) for r in sparc_test_split]
    mean = sum(chances) / len(chances)
    assert 0.029 < mean < 0.031  # about 3.0%, as the issue states
    # The reference random ablation, 4 seeded runs over the 500 puzzles: its solve rate is a
    # sum of independent Bernoullis with these probabilities; it must lie within 4 sigma.
    runs = 4
    solved = sum(
        reference_random(r, seed=1000 * run + i)["solved"]
        for run in range(runs)
        for i, r in enumerate(sparc_test_split)
    )
    sigma = math.sqrt(runs * sum(c * (1 - c) for c in chances))
    assert abs(solved - runs * sum(chances)) < 4 * sigma
    random.seed()


def test_an_episode_that_reaches_e_off_the_solutions_names_the_broken_rules(sparc_records):
    from inspect_sparc.core.episode.stepper import Stepper, path_actions
    from inspect_sparc.core.puzzle.rules import check
    from inspect_sparc.evals.sparc.episode_scorer import score_episode

    checked = 0
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        if astar_solves(puzzle):
            continue
        line = astar_path(puzzle)
        assert line is not None
        env = Stepper(puzzle).run(path_actions(line))
        score = score_episode(env)
        assert isinstance(score.value, dict) and score.metadata is not None
        assert score.explanation is not None
        broken = check(puzzle, env.final_path).broken_rules
        assert broken and score.metadata["rule_violations"] == list(broken)
        assert (
            all(score.value[f"breaks_{rule}"] == 1 for rule in broken)
            and score.value["correct"] == 0
        )
        assert score.value["reached_end"] == 1 and "!" in score.explanation
        checked += 1
    assert checked > 40
