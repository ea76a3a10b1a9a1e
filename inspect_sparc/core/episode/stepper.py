"""The SPaRC step-by-step environment (the Spatial-Gym protocol), as `SPaRC_Gym` 0.2.7 runs it.

The agent starts on S and moves one grid position per step: `0=RIGHT (+x)`, `1=UP (-y)`,
`2=LEFT (-x)`, `3=DOWN (+y)`. A move is legal when it stays in the grid, lands on no gap and no
rule cell, and on no position already on the path; with traceback, stepping back onto the
previous position is legal too and pops the last point. An illegal (or unreadable) action moves
nothing and still counts as a step. The episode ends on E (`reached_end`), when no action is
legal (`dead_end`) or after `max_steps` steps (`step_limit`); it is solved iff the path then
equals a stored solution. Pure logic: no Inspect imports.

`Stepper` is the game the `sparc_gym` and `sparc_agent` protocols and `train/` all play; it is
not a Gymnasium `Env` (that is `inspect_sparc.train.env.SparcEnv`, which wraps it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from inspect_sparc.core.puzzle.parse import Path, Point, Puzzle

#: Action number -> (dx, dy), in the reference's order.
ACTIONS: tuple[Point, ...] = ((1, 0), (0, -1), (-1, 0), (0, 1))
ACTION_NAMES: tuple[str, ...] = ("RIGHT", "UP", "LEFT", "DOWN")
#: One letter per action for compact move lists (`RRDD L? UU`).
ACTION_LETTERS: tuple[str, ...] = ("R", "U", "L", "D")
#: The letter recorded for a reply no action could be read from.
UNPARSEABLE_LETTER = "?"
DEFAULT_MAX_STEPS = 100

#: Why an episode ended (None while it runs).
REACHED_END = "reached_end"
DEAD_END = "dead_end"
STEP_LIMIT = "step_limit"


def check_max_steps(max_steps: object) -> int:
    """`max_steps` itself when it is a positive integer, else a ValueError that says so.

    Args:
        max_steps: the task argument: an int, or its decimal digits as text (a bool is refused).

    Returns:
        The number of steps."""
    if isinstance(max_steps, str) and max_steps.strip().isdecimal():
        max_steps = int(max_steps)
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive integer; got {max_steps!r}")
    return max_steps


def blocked_positions(puzzle: Puzzle) -> frozenset[Point]:
    """Positions no path may occupy: gaps and every rule cell (odd x and y).

    Args:
        puzzle: the puzzle.

    Returns:
        The blocked `(x, y)` grid positions."""
    cells = {(x, y) for x in range(1, puzzle.columns, 2) for y in range(1, puzzle.rows, 2)}
    return frozenset(cells | puzzle.gaps)


def open_neighbours(puzzle: Puzzle) -> dict[Point, tuple[tuple[int, Point], ...]]:
    """For every open position, its `(action, neighbour)` pairs that are in the grid and open.
    (`Puzzle.in_grid` inlined with the grid's size read once: every baseline and episode
    builds this table, and the report builds it for each puzzle and setting.)

    Args:
        puzzle: the puzzle.

    Returns:
        Each open `(x, y)` position mapped to its moves in action order (an empty tuple
        for a position with no open neighbour)."""
    blocked = blocked_positions(puzzle)
    columns, rows = puzzle.columns, puzzle.rows
    table: dict[Point, tuple[tuple[int, Point], ...]] = {}
    for y in range(rows):
        for x in range(columns):
            if (x, y) in blocked:
                continue
            moves = []
            for action, (dx, dy) in enumerate(ACTIONS):
                nxt = (x + dx, y + dy)
                if 0 <= nxt[0] < columns and 0 <= nxt[1] < rows and nxt not in blocked:
                    moves.append((action, nxt))
            table[(x, y)] = tuple(moves)
    return table


@dataclass(frozen=True)
class StepResult:
    """What one step did: the action taken (None: unreadable), whether it moved, how it ended."""

    action: int | None
    legal: bool
    backtrack: bool
    position: Point
    ended: str | None


class Stepper:
    """One episode on one puzzle: path, visited positions and the reference's text grid."""

    def __init__(
        self, puzzle: Puzzle, traceback: bool = False, max_steps: int = DEFAULT_MAX_STEPS
    ) -> None:
        self.puzzle = puzzle
        self.traceback = traceback
        self.max_steps = check_max_steps(max_steps)
        self._moves = open_neighbours(puzzle)
        self.path: list[Point] = [puzzle.start]
        self.visited: set[Point] = {puzzle.start}
        #: The text grid the model sees: `puzzle_array` with `V` visited and `L` the agent. As in
        #: the reference, S stays `S` until the first move, and a position left by stepping back
        #: is redrawn `+` (a dot there disappears from the text).
        self.grid: list[list[str]] = [list(row) for row in puzzle.grid]
        self.steps = 0
        self.illegal = 0
        self.unparseable = 0
        self.backtracks = 0
        self.ended: str | None = None
        self.history: list[StepResult] = []
        self._legal = self._compute_legal()

    @property
    def position(self) -> Point:
        """Where the agent stands.

        Returns:
            The last `(x, y)` position of the path."""
        return self.path[-1]

    @property
    def done(self) -> bool:
        """True once the episode has ended.

        Returns:
            True once `ended` says why it ended (reached_end, dead_end or step_limit)."""
        return self.ended is not None

    def legal_actions(self) -> list[int]:
        """The legal actions now, in action order (as the reference lists them).

        Returns:
            Action numbers (0 right, 1 up, 2 left, 3 down); empty when no move is legal."""
        return list(self._legal)

    def _compute_legal(self) -> tuple[int, ...]:
        here = self.path[-1]
        back = self.path[-2] if self.traceback and len(self.path) >= 2 else None
        return tuple(
            action
            for action, nxt in self._moves.get(here, ())
            if nxt not in self.visited or nxt == back
        )

    def step(self, action: int | None) -> StepResult:
        """Take one step; `None` (an unreadable reply) and illegal actions move nothing.

        Args:
            action: the action number (0 right, 1 up, 2 left, 3 down), or None for a reply no
                action could be read from; either way it counts as a step.

        Returns:
            What the step did, also appended to `history`.

        Raises:
            RuntimeError: the episode has already ended."""
        if self.done:
            raise RuntimeError("the episode has ended; start a new Stepper")
        self.steps += 1
        legal = action is not None and action in self._legal
        backtrack = False
        if action is None:
            self.unparseable += 1
        elif not legal:
            self.illegal += 1
        else:
            dx, dy = ACTIONS[action]
            here = self.path[-1]
            nxt = (here[0] + dx, here[1] + dy)
            if nxt in self.visited:  # stepping back onto the previous position
                backtrack = True
                self.backtracks += 1
                self.path.pop()
                self.visited.discard(here)
                self.grid[here[1]][here[0]] = "+"
            else:
                self.grid[here[1]][here[0]] = "V"
                self.path.append(nxt)
                self.visited.add(nxt)
            self.grid[nxt[1]][nxt[0]] = "L"
        self._legal = self._compute_legal()
        if self.path[-1] == self.puzzle.end:
            self.ended = REACHED_END
        elif not self._legal:
            self.ended = DEAD_END
        elif self.steps >= self.max_steps:
            self.ended = STEP_LIMIT
        result = StepResult(action, legal, backtrack, self.path[-1], self.ended)
        self.history.append(result)
        return result

    def run(self, actions: Iterable[int | None]) -> Stepper:
        """Take `actions` in order until they run out or the episode ends; returns self.

        Args:
            actions: action numbers, None for unreadable replies; those after the end are left.

        Returns:
            This environment, so a replay reads as one expression."""
        for action in actions:
            if self.done:
                break
            self.step(action)
        return self

    @property
    def final_path(self) -> Path:
        """The path drawn so far.

        Returns:
            The positions from S to where the agent stands."""
        return tuple(self.path)

    @property
    def solved(self) -> bool:
        """True when the episode reached E on a stored solution.

        Returns:
            True when it ended on E with the path equal to one of the puzzle's solutions;
            False while it runs."""
        return self.ended == REACHED_END and self.final_path in self.puzzle.solutions

    def grid_text(self) -> str:
        """The grid as the reference prints it: one Python list repr per row.

        Returns:
            The rows, newline-separated."""
        return "\n".join(str(row) for row in self.grid)

    def position_text(self) -> str:
        """The agent's position as the reference prints it (a numpy int array: `[4 10]`).

        Returns:
            The position as `[x y]`."""
        return numpy_vector_text(self.path[-1])


def step_letter(result: StepResult) -> str:
    """One step as a letter: `R U L D` for a move, lowercase for an illegal try, `?` unreadable.

    Args:
        result: the step.

    Returns:
        One character."""
    if result.action is None:
        return UNPARSEABLE_LETTER
    letter = ACTION_LETTERS[result.action]
    return letter if result.legal else letter.lower()


def moves_text(history: Sequence[StepResult], group: int = 5) -> str:
    """The steps compactly, in groups of `group` (`RRDDL ?UUr` ...).

    Args:
        history: the steps in order (`Stepper.history`).
        group: letters per space-separated group.

    Returns:
        The letters (see `step_letter`); empty for no steps."""
    letters = "".join(map(step_letter, history))
    return " ".join(letters[i : i + group] for i in range(0, len(letters), group))


def numpy_vector_text(values: Sequence[int]) -> str:
    """`str(np.array(values))` for small non-negative ints, without numpy: `[ 4 10]`.

    Args:
        values: the integers, at least one.

    Returns:
        The values right-aligned to the widest, space-separated, in brackets."""
    texts = [str(v) for v in values]
    width = max(map(len, texts))
    return "[" + " ".join(t.rjust(width) for t in texts) + "]"


def path_actions(path: Sequence[Point]) -> list[int]:
    """The actions that walk `path` (unit steps only; ValueError on any other step).

    Args:
        path: `(x, y)` positions, each next to the one before.

    Returns:
        One action number per step, one fewer than the positions (empty for 0 or 1)."""
    actions = []
    for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
        try:
            actions.append(ACTIONS.index((x1 - x0, y1 - y0)))
        except ValueError:
            raise ValueError(f"non-adjacent step in path: {(x0, y0)} -> {(x1, y1)}") from None
    return actions


_FINAL_DIGIT = re.compile(r"Final:\s*([0-3])\b", re.IGNORECASE)
_FINAL_WORD = re.compile(r"Final:\s*(right|up|left|down)\b", re.IGNORECASE)
_TRAILING_DIGIT = re.compile(r"\b([0-3])\s*$")
_TRAILING_WORD = re.compile(r"\b(right|up|left|down)\s*$", re.IGNORECASE)
_WORD_ACTIONS = {"right": 0, "up": 1, "left": 2, "down": 3}


def parse_action(reply: str) -> int | None:
    """The action in a reply, read as `sparc.process_puzzle._parse_action` reads it; None where
    the reference raises (it then restarts the episode; here the step moves nothing).

    Args:
        reply: the reply text (`Final: 2`, `Final: left`, or a trailing digit or word).

    Returns:
        The action number (0-3), or None when none is found."""
    if match := _FINAL_DIGIT.search(reply):
        return int(match.group(1))
    if match := _FINAL_WORD.search(reply):
        return _WORD_ACTIONS[match.group(1).lower()]
    if match := _TRAILING_DIGIT.search(reply):
        return int(match.group(1))
    if match := _TRAILING_WORD.search(reply):
        return _WORD_ACTIONS[match.group(1).lower()]
    return None


def read_action(content: str) -> int | None:
    """The action in a model's reply text: the part after the last `</think>`, as the reference.

    Args:
        content: the model's whole reply.

    Returns:
        The action number (0-3), or None when none can be read."""
    return parse_action(content.strip().split("</think>")[-1].strip())


def replay_moves(
    puzzle: Puzzle, moves: str, traceback: bool = False, max_steps: int = DEFAULT_MAX_STEPS
) -> Stepper:
    """The episode that `moves` (step letters, spaces ignored) records, replayed from the start.

    Args:
        puzzle: the puzzle played.
        moves: step letters as `moves_text` writes them (`R U L D`, lowercase for illegal
            tries, `?` unreadable); letters after the episode ends are ignored.
        traceback: whether stepping back onto the previous position is allowed.
        max_steps: steps in the episode at most.

    Returns:
        The environment after the moves."""
    env = Stepper(puzzle, traceback, max_steps)
    for letter in moves.replace(" ", ""):
        if env.done:
            break
        env.step(None if letter == UNPARSEABLE_LETTER else ACTION_LETTERS.index(letter.upper()))
    return env
