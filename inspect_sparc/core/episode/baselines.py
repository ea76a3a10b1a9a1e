"""Baselines for the step-by-step protocol: the reference's A* ablation, random walks, chance.

`astar_path` is `sparc.process_puzzle._astar_find_path` (shortest S-to-E path over open
positions, rules ignored, same heap and tie-breaking); `chance_of_solving` is the exact
probability that a walk choosing uniformly among the legal moves draws a stored solution, the
level a model must beat. Pure logic: no Inspect imports.
"""

from __future__ import annotations

import hashlib
import heapq
import random
from collections.abc import Callable

from inspect_sparc.core.episode.stepper import (
    ACTIONS,
    DEFAULT_MAX_STEPS,
    Stepper,
    blocked_positions,
    open_neighbours,
    path_actions,
)
from inspect_sparc.core.puzzle.parse import Path, Point, Puzzle

#: A policy picks the next action from the environment (None: a step that moves nothing).
Policy = Callable[[Stepper], "int | None"]


def astar_path(puzzle: Puzzle) -> Path | None:
    """The reference A* ablation's planned path: shortest S to E ignoring rules, or None.

    Args:
        puzzle: the puzzle; the search moves between open positions (no gap, no rule cell).

    Returns:
        The positions from S to E inclusive, or None when no open path joins them."""
    blocked = blocked_positions(puzzle)
    start, end = puzzle.start, puzzle.end

    def heuristic(pos: Point) -> int:
        return abs(pos[0] - end[0]) + abs(pos[1] - end[1])

    open_set: list[tuple[int, int, Point]] = [(heuristic(start), 0, start)]
    came_from: dict[Point, Point] = {}
    g_score: dict[Point, int] = {start: 0}
    while open_set:
        _f, g, current = heapq.heappop(open_set)
        if current == end:
            path = [current]
            while current in came_from:
                current = came_from[current]
                path.append(current)
            return tuple(reversed(path))
        for dx, dy in ACTIONS:
            neighbour = (current[0] + dx, current[1] + dy)
            if not puzzle.in_grid(neighbour) or neighbour in blocked:
                continue
            new_g = g + 1
            if neighbour not in g_score or new_g < g_score[neighbour]:
                g_score[neighbour] = new_g
                came_from[neighbour] = current
                heapq.heappush(open_set, (new_g + heuristic(neighbour), new_g, neighbour))
    return None


def astar_policy(puzzle: Puzzle, rng: random.Random) -> Policy:
    """The reference A* ablation: follow the plan while its next move is legal, else a random
    legal move (the reference falls back to `random.choice` when the plan is blocked or spent).

    Args:
        puzzle: the puzzle the plan (`astar_path`) is made for.
        rng: the generator that draws the fallback moves.

    Returns:
        A policy that gives the plan's action for the environment's step number when it is
        legal there, else a random legal one."""
    path = astar_path(puzzle)
    planned = path_actions(path) if path is not None else []

    def policy(env: Stepper) -> int | None:
        legal = env.legal_actions()
        step = env.steps
        if step < len(planned) and planned[step] in legal:
            return planned[step]
        return rng.choice(legal)

    return policy


def random_policy(rng: random.Random) -> Policy:
    """The reference random ablation: a uniformly random legal move every step.

    Args:
        rng: the generator that draws the moves.

    Returns:
        A policy choosing uniformly among the environment's legal actions."""

    def policy(env: Stepper) -> int | None:
        return rng.choice(env.legal_actions())

    return policy


def run_policy(
    puzzle: Puzzle,
    policy: Policy,
    traceback: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> Stepper:
    """Play one episode with `policy`; returns the finished environment.

    Args:
        puzzle: the puzzle played.
        policy: picks each step's action from the environment (None: a step that moves
            nothing).
        traceback: whether stepping back onto the previous position is allowed.
        max_steps: steps in the episode at most, illegal and unreadable ones included.

    Returns:
        The finished environment (path, counts, history and why it ended)."""
    env = Stepper(puzzle, traceback, max_steps)
    while not env.done:
        env.step(policy(env))
    return env


def astar_solves(puzzle: Puzzle, max_steps: int = DEFAULT_MAX_STEPS) -> bool:
    """True when the A* episode ends on a stored solution (the plan is always legal to follow,
    so no random fallback is involved whenever a path exists).

    Args:
        puzzle: the puzzle played.
        max_steps: steps in the episode at most.

    Returns:
        True when the episode reached E on one of the puzzle's stored solutions."""
    env = run_policy(puzzle, astar_policy(puzzle, random.Random(0)), max_steps=max_steps)
    return env.solved


def episode_rng(sample_id: object, epoch: int, salt: str = "") -> random.Random:
    """A random generator seeded from the sample id and epoch (stable across runs and hosts).

    Args:
        sample_id: the sample's id (its `str()` enters the seed).
        epoch: the epoch number, so each epoch of a sample draws differently.
        salt: a name for what the generator is for (e.g. "astar", "random"), so two uses on
            the same sample and epoch draw independently; empty for none.

    Returns:
        A `random.Random` seeded from the SHA-256 of salt, sample id and epoch."""
    digest = hashlib.sha256(f"{salt}:{sample_id}:{epoch}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def random_walk(
    puzzle: Puzzle,
    rng: random.Random,
    traceback: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> Stepper:
    """One uniformly random legal walk (the reference's random ablation).

    Args:
        puzzle: the puzzle played.
        rng: the generator that draws the moves.
        traceback: whether stepping back onto the previous position is allowed.
        max_steps: steps in the walk at most.

    Returns:
        The finished environment."""
    return run_policy(puzzle, random_policy(rng), traceback, max_steps)


def chance_of_solving(
    puzzle: Puzzle, max_steps: int = DEFAULT_MAX_STEPS, traceback: bool = False
) -> float:
    """Exact probability that a uniformly random legal walk ends on a stored solution.

    Without traceback a walk draws a given path only by taking its moves in order, each with
    probability 1/|legal moves| there, so the chance is the sum over the distinct stored solutions
    of at most `max_steps` moves of those products. With traceback the walk may wander and come
    back, and the exact sum runs over exponentially many walks: not computed (ValueError).

    Args:
        puzzle: the puzzle and its stored solutions.
        max_steps: steps in the walk at most; longer solutions count zero.
        traceback: must be False (True raises ValueError).

    Returns:
        The probability, between 0 and 1."""
    if traceback:
        raise ValueError(
            "the exact chance with traceback sums over exponentially many walks; "
            "estimate it with random walks instead"
        )
    moves = open_neighbours(puzzle)
    total = 0.0
    for solution in set(puzzle.solutions):
        if len(solution) - 1 > max_steps or not solution or solution[0] != puzzle.start:
            continue
        visited: set[Point] = set()
        probability = 1.0
        for here, nxt in zip(solution, solution[1:], strict=False):
            visited.add(here)
            options = [p for _, p in moves.get(here, ()) if p not in visited]
            if nxt not in options:  # not a walk the environment allows
                probability = 0.0
                break
            probability /= len(options)
        if solution[-1] != puzzle.end or len(set(solution)) != len(solution):
            probability = 0.0
        total += probability
    return total
