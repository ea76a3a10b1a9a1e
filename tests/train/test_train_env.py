"""The Gymnasium environment against Spatial-Gym (`SPaRC_Gym` 0.2.7, the test-only oracle).

Every step of a solution walk, a blind walk full of illegal moves and (with traceback) a walk
that steps back must give the reference's reward, `terminated`, `truncated`, `legal_actions`,
`agent_location` and text observation. A fresh reference environment runs each episode, as
Spatial-Gym keeps the previous episode's marks (tested below: that is what we fix).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gym_reference import reference_env
from gymnasium.utils.env_checker import check_env

import inspect_sparc.train  # noqa: F401 - registers the environment
from inspect_sparc.core.episode.stepper import Stepper, path_actions
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.train import ENV_ID
from inspect_sparc.train.env import SparcEnv
from inspect_sparc.train.observations import CHANNEL

#: Puzzles run in the default suite; the slow test runs every fixture puzzle.
QUICK = 8


def walks(record: dict[str, Any], seed: int, traceback: bool) -> list[list[int]]:
    """A stored solution, a blind walk (many illegal actions) and, with traceback, a solution
    walk that takes a detour and steps back wherever it can."""
    puzzle = parse_puzzle(record)
    rng = random.Random(seed)
    result = [path_actions(puzzle.solutions[-1]), [rng.randrange(4) for _ in range(120)]]
    if traceback:
        env, detour = Stepper(puzzle, True), []
        for action in path_actions(puzzle.solutions[0]):
            others = [a for a in env.legal_actions() if a != action]
            if others and len(env.path) > 1 and not env.done:
                detour += [others[0], (others[0] + 2) % 4]
                env.run([others[0], (others[0] + 2) % 4])
            detour.append(action)
            env.run([action])
        result.append(detour)
    return result


def assert_same_steps(record: dict[str, Any], actions: list[int], traceback: bool) -> int:
    """Step both environments through `actions`; returns the number of steps compared."""
    reference = reference_env(record, traceback=traceback, max_steps=100)
    ours = SparcEnv(traceback=traceback, max_steps=100, observation="text")
    observation, info = ours.reset(options={"puzzle": record})
    assert observation == reference._get_obs()
    assert info["legal_actions"] == reference._get_info()["legal_actions"]
    steps = 0
    for action in actions:
        expected = reference.step(action)
        got = ours.step(action)
        steps += 1
        assert got[0] == expected[0]  # the text grid
        assert got[1:4] == expected[1:4]  # reward, terminated, truncated
        assert got[4]["legal_actions"] == expected[4]["legal_actions"]
        assert np.array_equal(got[4]["agent_location"], expected[4]["agent_location"])
        if got[2] or got[3]:
            break
    return steps


def run_parity(records: list[dict[str, Any]]) -> set[tuple[bool, float]]:
    outcomes: set[tuple[bool, float]] = set()
    for index, record in enumerate(records):
        for traceback in (False, True):
            for walk in walks(record, index, traceback):
                assert_same_steps(record, walk, traceback)
                env = SparcEnv(traceback=traceback)
                env.reset(options={"puzzle": record})
                for action in walk:
                    _, reward, terminated, truncated, _ = env.step(action)
                    if terminated or truncated:
                        outcomes.add((terminated, reward))
                        break
    return outcomes


def test_steps_equal_spatial_gym_on_quick_fixtures(sparc_records):
    outcomes = run_parity(sparc_records[:QUICK])
    assert (True, 1.0) in outcomes and (False, -1.0) in outcomes


@pytest.mark.slow
def test_steps_equal_spatial_gym_on_every_fixture(sparc_records):
    outcomes = run_parity(sparc_records)
    assert {(True, 1.0), (False, -1.0), (True, -1.0)} <= outcomes


def test_reset_starts_clean_where_spatial_gym_keeps_marks(sparc_records):
    record = sparc_records[0]
    first_move = path_actions(parse_puzzle(record).solutions[0])[:3]
    reference = reference_env(record)
    fresh_legal = reference._get_info()["legal_actions"]
    for action in first_move:
        reference.step(action)
    _, info = reference.reset(options={"puzzle_id": record["id"]})
    assert info["legal_actions"] != fresh_legal  # Spatial-Gym: the old path still blocks moves
    env = SparcEnv(puzzles=[record], allow_test=True)
    _, info = env.reset(seed=0)
    for action in first_move:
        env.step(action)
    _, again = env.reset(seed=0)
    assert again["legal_actions"] == info["legal_actions"] == fresh_legal


def test_observations_are_fresh_arrays_in_the_documented_encoding(sparc_records):
    record = sparc_records[0]
    puzzle = parse_puzzle(record)
    env = SparcEnv(puzzles=[record], allow_test=True)
    first, _ = env.reset(seed=0)
    kept = first.copy()
    action = path_actions(puzzle.solutions[0])[0]
    second, *_ = env.step(action)
    assert np.array_equal(first, kept)  # stepping never changes an observation already given
    (sx, sy), (nx, ny) = puzzle.solutions[0][:2]
    assert second[CHANNEL["agent"], ny, nx] == 1 and second[CHANNEL["agent"], sy, sx] == 0
    assert second[CHANNEL["visited"], sy, sx] == second[CHANNEL["visited"], ny, nx] == 1
    grid = np.array(record["puzzle_array"])
    assert np.array_equal(second[CHANNEL["gap"], : puzzle.rows, : puzzle.columns], grid == "G")
    assert np.array_equal(second[CHANNEL["dot"], : puzzle.rows, : puzzle.columns], grid == ".")
    assert second[CHANNEL["grid"]].sum() == puzzle.rows * puzzle.columns
    assert env.observation_space.contains(second)


@pytest.mark.parametrize("observation", ["array", "vector", "text", "rgb"])
def test_check_env_passes_for_every_observation_mode(sparc_records, observation):
    env = gymnasium.make(
        ENV_ID,
        puzzles=sparc_records[:5],
        observation=observation,
        render_mode="rgb_array",
        allow_test=True,
    )
    check_env(env.unwrapped)
    frame = env.unwrapped.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3


def test_make_vec_steps_several_puzzles_at_once(sparc_records):
    envs = gymnasium.make_vec(ENV_ID, num_envs=3, puzzles=sparc_records, allow_test=True)
    observations, infos = envs.reset(seed=1)
    assert observations.shape[0] == 3 and len(infos["legal_actions"]) == 3
    for _ in range(40):
        observations, rewards, *_ = envs.step(envs.action_space.sample())
        assert envs.single_observation_space.contains(observations[0])
    envs.close()


def test_seeded_reset_draws_the_same_puzzles(sparc_records):
    draws = []
    for _ in range(2):
        env = SparcEnv(puzzles=sparc_records, allow_test=True)
        draws.append([env.reset(seed=7)[1]["puzzle_id"]] + [env.reset()[1]["puzzle_id"]])
    assert draws[0] == draws[1]


def test_rules_reward_ends_an_episode_with_the_rule_reward(sparc_records):
    record = sparc_records[2]
    solution = parse_puzzle(record).solutions[0]
    env = SparcEnv(reward="rules")
    env.reset(options={"puzzle": record})
    for action in path_actions(solution):
        _, reward, terminated, *_ = env.step(action)
    assert terminated and reward == 1.0
    env.reset(options={"puzzle": record})
    rewards = [env.step(0)[1] for _ in range(3)]
    assert all(0.0 <= r <= 1.0 or r in (0.01, -0.01) for r in rewards)


def test_spatial_gym_fails_check_env_where_ours_passes(sparc_records):
    from gym_reference import gym_module, local_gym_records

    with local_gym_records(sparc_records[:3]):
        reference = gym_module.SPaRC_Gym(observation="new", max_steps=100)
    with pytest.raises(AssertionError, match="share an object"):
        check_env(reference)
    check_env(gymnasium.make(ENV_ID, puzzles=sparc_records[:3], allow_test=True).unwrapped)


def test_options_choose_a_puzzle_by_record_or_by_spatial_gym_id(sparc_records, tmp_path):
    import json

    source = tmp_path / "puzzles.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in sparc_records[:4]), encoding="utf-8")
    env = SparcEnv(puzzles=source, allow_test=True)
    _, info = env.reset(options={"puzzle_id": sparc_records[2]["id"]})
    assert info["puzzle_id"] == sparc_records[2]["id"]
    _, info = env.reset(options={"puzzle": sparc_records[9]})
    assert info["puzzle_id"] == sparc_records[9]["id"]
    with pytest.raises(ValueError, match="no puzzle with id"):
        env.reset(options={"puzzle_id": "nope"})
    small = SparcEnv(grid_cells=2)
    big = next(r for r in sparc_records if r["grid_size"]["width"] > 2)
    with pytest.raises(ValueError, match="does not fit"):
        small.reset(options={"puzzle": big})
