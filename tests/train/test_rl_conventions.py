"""What RL libraries expect of the environment: action masks, an observation networks take as
is, the dead-end convention, a leak guard, and errors in the environment's own terms. The
checks that import torch (SB3's checker, MaskablePPO) are in test_heavy_stacks.py (slow)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from inspect_sparc.core.episode.stepper import DEAD_END, Stepper
from inspect_sparc.core.generate.leakage import LeakageError
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.train import ENV_ID
from inspect_sparc.train.env import SparcEnv
from inspect_sparc.train.observations import BINARY_CHANNELS, ONE_HOT


def test_action_masks_are_the_legal_moves_at_every_step(sparc_records):
    env = SparcEnv(puzzles=sparc_records[:5], allow_test=True)
    rng = random.Random(3)
    _, info = env.reset(seed=3)
    for _ in range(60):
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (4,)
        assert np.flatnonzero(mask).tolist() == sorted(info["legal_actions"])
        assert np.array_equal(info["action_mask"], mask)
        _, _, terminated, truncated, info = env.step(rng.randrange(4))
        if terminated or truncated:
            assert not env.action_masks().any()  # nothing may follow the end
            _, info = env.reset()


def dead_end_walk(record: dict[str, Any]) -> list[int]:
    """Legal moves that end in a dead end, by the core engine (random walks, fixed seed)."""
    puzzle = parse_puzzle(record)
    rng = random.Random(0)
    for _ in range(500):
        game, actions = Stepper(puzzle), []
        while not game.done:
            actions.append(rng.choice(game.legal_actions()))
            game.step(actions[-1])
        if game.ended == DEAD_END:
            return actions
    pytest.fail("no dead end found")


@pytest.mark.parametrize(
    ("dead_end", "expected"), [("truncated", (False, True)), ("terminated", (True, False))]
)
def test_a_dead_end_is_truncated_by_default_and_terminated_on_request(
    sparc_records, dead_end, expected
):
    record = next(r for r in sparc_records if r["grid_size"]["width"] >= 3)
    env = SparcEnv(dead_end=dead_end)
    env.reset(options={"puzzle": record})
    for action in dead_end_walk(record):
        _, reward, terminated, truncated, _ = env.step(action)
    assert (terminated, truncated) == expected and reward == -1.0
    env = SparcEnv(dead_end=dead_end, max_steps=2)  # the step limit stays a truncation
    env.reset(options={"puzzle": record})
    env.step(4)  # unreadable action: no move
    assert env.step(4)[2:4] == (False, True)


def test_the_vector_observation_is_one_hot_floats_that_check_env_accepts(sparc_records):
    shaped = (
        r for r in sparc_records if any(v[:2] == "P-" for row in r["puzzle_array"] for v in row)
    )
    record = next(shaped)
    env = gymnasium.make(ENV_ID, puzzles=[record], observation="vector", allow_test=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    vector, _ = env.reset(seed=0)
    assert vector.dtype == np.float32 and vector.ndim == 1
    assert set(np.unique(vector)) <= {0.0, 1.0} and env.observation_space.contains(vector)
    planes = vector.reshape(-1, 13, 13)
    grid = record["puzzle_array"]
    symbols = sum(1 for row in grid for v in row if "-" in v)
    # one plane per symbol kind: each rule cell is 1 in exactly one of them
    first = len(BINARY_CHANNELS)
    kinds = planes[first : first + ONE_HOT["symbol"]]
    assert kinds.sum() == symbols and kinds.sum(axis=0).max() == 1


def test_the_environment_refuses_test_grids_unless_told(sparc_records, tmp_path):
    import json

    with pytest.raises(LeakageError, match=sparc_records[0]["id"]):
        SparcEnv(puzzles=sparc_records[:3])
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps(sparc_records[1]) + "\n", encoding="utf-8")
    with pytest.raises(LeakageError, match="allow_test=True"):
        gymnasium.make(ENV_ID, puzzles=str(path))
    assert len(SparcEnv(puzzles=str(path), allow_test=True).records) == 1
    assert SparcEnv(puzzles="sample").records  # named as the test split: on purpose


def test_the_environment_refuses_recoloured_and_end_swapped_test_puzzles(sparc_records):
    """The same puzzle with its colours permuted, or S and E swapped (written cell by cell)."""
    record = next(r for r in sparc_records if any("-" in v for v in r["puzzle_array"][1]))
    colours = ("R", "B", "G", "Y", "W", "O", "P", "K")

    def recolour(value: str) -> str:
        kind, dash, rest = value.partition("-")
        if not dash:
            return {"S": "E", "E": "S"}.get(value, value) if swap else value
        colour, _, tail = rest.partition("-")
        shifted = colours[(colours.index(colour) + 1) % len(colours)] if not swap else colour
        return f"{kind}-{shifted}" + (f"-{tail}" if tail else "")

    for swap in (False, True):
        grid = [[recolour(v) for v in row] for row in record["puzzle_array"]]
        assert grid != record["puzzle_array"]
        variant = dict(record, id=f"variant-{swap}", puzzle_array=grid)
        with pytest.raises(LeakageError, match=f"variant-{swap}"):
            SparcEnv(puzzles=[variant])


@pytest.mark.parametrize("puzzles", ["nope", "generated:x"])
def test_errors_name_the_environments_own_argument(puzzles):
    with pytest.raises(ValueError, match="puzzles") as error:
        SparcEnv(puzzles=puzzles)
    assert "-T" not in str(error.value) and "source" not in str(error.value)
    with pytest.raises(ValueError, match="dead_end must be one of truncated, terminated"):
        SparcEnv(dead_end="stop")
