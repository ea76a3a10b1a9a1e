"""`inspect_sparc/SPaRC-v0`: the SPaRC step-by-step protocol as a Gymnasium environment.

Dynamics, termination, truncation and rewards are Spatial-Gym's (`SPaRC_Gym` 0.2.7, and
`spatial-gym` 0.1.5): one grid position per step (`0=RIGHT 1=UP 2=LEFT 3=DOWN`), an illegal move
moves nothing; `terminated` on E, `truncated` after `max_steps` steps or with no legal move
left; +1 / -1 at the end (the path is / is not a stored solution), +0.01 / -0.01 for a move that
keeps the path on / takes it off a solution's prefix, 0 for an illegal move. `info` carries
`legal_actions` and `agent_location` under Spatial-Gym's names, and `action_mask` (also
`action_masks()`, sb3-contrib's convention). The moves are `core.stepper.Stepper`, the engine of the
`sparc_gym` task. Unlike Spatial-Gym, every `reset` starts from a clean grid and every
observation is a fresh object. Options beyond parity: `dead_end="terminated"` (a dead end is a
real end, for value-bootstrapping learners), `observation="vector"` (a flat one-hot float32
vector in [0, 1] for RL networks). `puzzles=` is checked against the test split's grids unless
it names the test split or `allow_test=True`. Pure logic: no Inspect imports.
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from inspect_sparc.core.episode.stepper import (
    ACTIONS,
    DEAD_END,
    DEFAULT_MAX_STEPS,
    REACHED_END,
    Stepper,
    check_max_steps,
)
from inspect_sparc.core.generate.leakage import check_no_test_grids
from inspect_sparc.core.puzzle.parse import Point, Puzzle, parse_puzzle
from inspect_sparc.core.puzzle.rules import Board, board_for
from inspect_sparc.train import observations as obs
from inspect_sparc.train.puzzles import PuzzleSource, is_test_source, load_puzzles
from inspect_sparc.train.rewards import path_reward, puzzle_rules

#: What `observation=` may be (the step-by-step task's text/image kinds are another setting).
OBSERVATION_FORMATS = ("array", "vector", "text", "rgb")
REWARDS = ("solution", "rules")
#: What a dead end (no legal move left) reports: Spatial-Gym's `truncated`, or `terminated`.
DEAD_ENDS = ("truncated", "terminated")
#: Cells a side of the largest SPaRC grid (the test split's and the generator's): the default
#: size observations are padded to.
GRID_CELLS = 6
#: Puzzles whose parsed form and tables an environment keeps (about 10 KB each).
ENTRY_CACHE = 4096
#: Spatial-Gym's step rewards.
ON_SOLUTION, OFF_SOLUTION = 0.01, -0.01


def largest_side(records: list[dict[str, Any]]) -> int:
    """The most cells a side of any record's grid (0 where a record gives none: it fails later,
    when parsed, with the parser's error).

    Args:
        records: SPaRC records.

    Returns:
        The largest grid side, in cells."""
    sides = [0]
    for record in records:
        size = record.get("grid_size")
        if isinstance(size, Mapping):
            sides += [v for v in size.values() if isinstance(v, int) and not isinstance(v, bool)]
    return max(sides)


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    """A ValueError naming the argument and its choices when `value` is not one of them."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}; got {value!r}")


def as_action(action: Any) -> int | None:
    """An action as an int (Python or numpy integers, 0-d arrays); None for anything else,
    which moves nothing, like an illegal action.

    Args:
        action: the action the agent took.

    Returns:
        The action's number, or None."""
    try:
        return operator.index(action)
    except TypeError:
        return None


@dataclass(frozen=True)
class Entry:
    """What an episode needs of one puzzle, built once per puzzle and environment."""

    puzzle: Puzzle
    board: Board
    rules: tuple[str, ...]
    prefixes: frozenset[tuple[Point, ...]]
    array: Any  # the static observation array (None unless observation="array")


class SparcEnv(gym.Env):
    """SPaRC puzzles one step at a time, with Spatial-Gym's rewards (see the module docstring)."""

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(
        self,
        puzzles: PuzzleSource | None = None,
        traceback: bool = False,
        max_steps: int = DEFAULT_MAX_STEPS,
        observation: Literal["array", "vector", "text", "rgb"] = "array",
        render_mode: str | None = None,
        reward: Literal["solution", "rules"] = "solution",
        grid_cells: int = GRID_CELLS,
        dead_end: Literal["truncated", "terminated"] = "truncated",
        allow_test: bool = False,
    ) -> None:
        _check_choice("observation", observation, OBSERVATION_FORMATS)
        _check_choice("reward", reward, REWARDS)
        _check_choice("dead_end", dead_end, DEAD_ENDS)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, rgb_array or ansi; got {render_mode!r}")
        self.records = load_puzzles(puzzles, "puzzles") if puzzles is not None else []
        if self.records and not allow_test and not is_test_source(puzzles):
            check_no_test_grids(self.records)
        self.traceback, self.max_steps = bool(traceback), check_max_steps(max_steps)
        self.observation, self.reward_kind, self.render_mode = observation, reward, render_mode
        self.dead_end = dead_end
        self.cells = max(int(grid_cells), largest_side(self.records))
        self.size = 2 * self.cells + 1
        self.action_space = spaces.Discrete(len(ACTIONS))
        self.observation_space = self._space()
        self._entries: OrderedDict[int, Entry] = OrderedDict()
        self._ids: dict[str, int] | None = None
        self._entry: Entry | None = None
        self._game: Stepper | None = None
        self._array: Any = None

    def _space(self) -> spaces.Space[Any]:
        if self.observation == "text":
            return spaces.Text(obs.text_max_length(self.size), charset=obs.TEXT_CHARSET)
        if self.observation == "rgb":
            return spaces.Box(0, 255, obs.picture_shape(self.cells), dtype=np.uint8)
        if self.observation == "vector":
            return spaces.Box(0.0, 1.0, (obs.vector_length(self.size),), dtype=np.float32)
        shape = (len(obs.CHANNELS), self.size, self.size)
        high = np.broadcast_to(obs.array_high()[:, None, None], shape).copy()
        return spaces.Box(0, high, dtype=np.int32)

    def _make_entry(self, record: Mapping[str, Any]) -> Entry:
        puzzle = parse_puzzle(record)
        if puzzle.width > self.cells or puzzle.height > self.cells:
            raise ValueError(
                f"puzzle {puzzle.id} ({puzzle.width}x{puzzle.height} cells) does not fit the "
                f"observations ({self.cells} cells a side): pass grid_cells="
            )
        uses_array = self.observation in ("array", "vector")
        prefixes = frozenset(s[:n] for s in puzzle.solutions for n in range(1, len(s) + 1))
        array = obs.static_array(puzzle, self.size) if uses_array else None
        return Entry(puzzle, board_for(puzzle), puzzle_rules(puzzle), prefixes, array)

    def _choose(self, options: Mapping[str, Any] | None) -> Entry:
        """The puzzle of `options` ("puzzle": a record, "puzzle_id": an id of `puzzles`), else a
        draw from `puzzles` with the environment's seeded generator."""
        options = options or {}
        if options.get("puzzle") is not None:
            return self._make_entry(load_puzzles(options["puzzle"])[0])
        if not self.records:
            raise ValueError("no puzzles: pass puzzles=... or reset(options={'puzzle': record})")
        if options.get("puzzle_id") is not None:
            index = self._index_of(str(options["puzzle_id"]))
        else:
            index = int(self.np_random.integers(len(self.records)))
        return self._entry_at(index)

    def _index_of(self, puzzle_id: str) -> int:
        """The index in `puzzles` of the first record with this id."""
        if self._ids is None:
            self._ids = {}
            for index, record in enumerate(self.records):
                self._ids.setdefault(str(record.get("id")), index)
        if puzzle_id not in self._ids:
            raise ValueError(f"no puzzle with id {puzzle_id!r} in puzzles")
        return self._ids[puzzle_id]

    def _entry_at(self, index: int) -> Entry:
        """The entry of `puzzles[index]`, built on first use and kept (`ENTRY_CACHE` of them)."""
        entry = self._entries.get(index)
        if entry is None:
            entry = self._entries[index] = self._make_entry(self.records[index])
            if len(self._entries) > ENTRY_CACHE:
                self._entries.popitem(last=False)
        self._entries.move_to_end(index)
        return entry

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode on a clean grid: the puzzle of `options`, or a seeded draw.

        Args:
            seed: seeds the environment's draws (Gymnasium's rule).
            options: `{"puzzle": record}` or `{"puzzle_id": id}` to play that puzzle; None for a
            seeded draw.

        Returns:
            The first observation and the info dict."""
        super().reset(seed=seed)
        self._entry = self._choose(options)
        self._game = Stepper(self._entry.puzzle, self.traceback, self.max_steps)
        if self._entry.array is not None:
            self._array = self._entry.array.copy()
            x, y = self._entry.puzzle.start
            self._array[obs.CHANNEL["visited"], y, x] = self._array[obs.CHANNEL["agent"], y, x] = 1
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One move (Spatial-Gym's dynamics and rewards); an illegal action moves nothing.

        Args:
            action: 0 right, 1 up, 2 left, 3 down.

        Returns:
            Observation, reward, terminated, truncated and info, as Gymnasium's `step`."""
        game, entry = self._game, self._entry
        if game is None or entry is None:
            raise RuntimeError("call reset() before step()")
        if game.done:
            raise RuntimeError("the episode has ended: call reset() to start another")
        before = game.position
        result = game.step(as_action(action))
        if self._array is not None and result.legal:
            self._move_array(before, result.position, result.backtrack)
        terminated = result.ended == REACHED_END or (
            result.ended == DEAD_END and self.dead_end == "terminated"
        )
        truncated = result.ended is not None and not terminated
        if result.ended is not None:
            reward = self._final_reward(game)
        elif result.position == before:
            reward = 0.0
        else:
            reward = ON_SOLUTION if game.final_path in entry.prefixes else OFF_SOLUTION
        return self._observe(), reward, terminated, truncated, self._info()

    def _final_reward(self, game: Stepper) -> float:
        entry = self._entry
        assert entry is not None
        if self.reward_kind == "rules":
            return path_reward(entry.puzzle, game.final_path, entry.board, entry.rules)
        return 1.0 if game.final_path in entry.puzzle.solutions else -1.0

    def _move_array(self, before: Point, after: Point, backtrack: bool) -> None:
        visited, agent = obs.CHANNEL["visited"], obs.CHANNEL["agent"]
        self._array[agent, before[1], before[0]] = 0
        if backtrack:
            self._array[visited, before[1], before[0]] = 0
        self._array[visited, after[1], after[0]] = self._array[agent, after[1], after[0]] = 1

    def _observe(self) -> Any:
        game = self._game
        assert game is not None and self._entry is not None
        if self.observation == "text":
            return obs.text_observation(game.grid)
        if self.observation == "rgb":
            return obs.picture(self._entry.puzzle, game.final_path, obs.picture_shape(self.cells))
        if self.observation == "vector":
            return obs.one_hot_vector(self._array)
        return self._array.copy()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which of the 4 actions are legal now, as a bool array (sb3-contrib's `MaskablePPO`
        reads it); all False before `reset` and after the episode's end.

        Returns:
            A bool array of 4 entries."""
        mask = np.zeros(len(ACTIONS), dtype=bool)
        if self._game is not None and not self._game.done:
            mask[self._game.legal_actions()] = True
        return mask

    def _info(self) -> dict[str, Any]:
        game, entry = self._game, self._entry
        assert game is not None and entry is not None
        return {
            "legal_actions": game.legal_actions(),
            "action_mask": self.action_masks(),
            "agent_location": np.array(game.position, dtype=np.int32),
            "current_step": game.steps,
            "path": game.final_path,
            "puzzle_id": entry.puzzle.id,
            "difficulty": entry.puzzle.level,
            "solution_count": len(entry.puzzle.solutions),
            "grid_x_size": entry.puzzle.columns,
            "grid_y_size": entry.puzzle.rows,
            "solved": game.solved,
        }

    def render(self) -> npt.NDArray[np.uint8] | str | None:
        """`rgb_array`: the puzzle with the path drawn (the package's renderer); `ansi`: the
        text grid; None without a render mode.

        Returns:
            An RGB uint8 array, a text, or None, by render mode."""
        if self._game is None or self._entry is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self._game.grid_text()
        return obs.picture(self._entry.puzzle, self._game.final_path)
