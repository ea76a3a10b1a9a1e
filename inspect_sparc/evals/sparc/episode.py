"""What the step-by-step protocols share at run time: the episode, its moves record, its picture.

`sparc_gym`'s solvers and `sparc_agent`'s `move` tool play the same `core.stepper.Stepper`, record
each step in the sample's store under one key (`gym_moves`, one letter per step) and draw the
same picture of the path so far; the scorer replays that record. The protocol packages import
these from here, never from each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspect_ai.model import ContentImage
from inspect_ai.util import Store

from inspect_sparc.core.episode.settings import EpisodeSettings
from inspect_sparc.core.episode.stepper import Stepper, StepResult, replay_moves, step_letter
from inspect_sparc.core.picture.image import board_record, data_uri, puzzle_png
from inspect_sparc.core.puzzle.parse import parse_puzzle

#: Store key of the episode's moves, one letter per step (see `core.stepper.step_letter`).
MOVES_KEY = "gym_moves"


def new_episode(record: Mapping[str, Any], settings: EpisodeSettings, store: Store) -> Stepper:
    """A fresh environment for a puzzle record, with the moves record in `store` cleared.

    Args:
        record: the sample's compact puzzle record (metadata `puzzle`).
        settings: the episode's settings (traceback allowed, steps per episode).
        store: the sample's store, where the moves record is reset to empty.

    Returns:
        The environment at S, no step taken."""
    store.set(MOVES_KEY, "")
    return Stepper(parse_puzzle(record), settings.traceback, settings.max_steps)


def replay_episode(record: Mapping[str, Any], settings: EpisodeSettings, store: Store) -> Stepper:
    """The episode so far: the puzzle record replayed through the moves recorded in `store`.

    Args:
        record: the sample's compact puzzle record (metadata `puzzle`).
        settings: the episode's settings (traceback allowed, steps per episode).
        store: the sample's store, holding the moves so far under `MOVES_KEY` (none: a fresh
            episode).

    Returns:
        The environment after those moves (replay stops once the episode has ended)."""
    moves = store.get(MOVES_KEY, "")
    return replay_moves(parse_puzzle(record), moves, settings.traceback, settings.max_steps)


def record_step(store: Store, result: StepResult) -> None:
    """Append one step's letter to the moves record in the sample's store (which the scorer
    replays; the gym solvers and `sparc_agent`'s move tool both record their steps here).

    Args:
        store: the sample's store.
        result: the step just taken; its letter is `R U L D` for a move, lowercase for an illegal
            try, `?` for an unreadable reply."""
    store.set(MOVES_KEY, store.get(MOVES_KEY, "") + step_letter(result))


def step_picture(env: Stepper, plot: str = "original") -> ContentImage:
    """The puzzle image with the path so far (the reference's `--gym --visual` observation). As
    the reference, the path drawn is every position after every step (an illegal try repeats
    one, a step back returns to one).

    Args:
        env: the episode so far.
        plot: the renderer's plot type (`original`, `path_cell_annotated`, ...).

    Returns:
        The PNG as an image content, a data URI."""
    drawn = [env.puzzle.start, *(result.position for result in env.history)]
    path = [{"x": x, "y": y} for x, y in drawn]
    png = puzzle_png(board_record(env.puzzle), plot, path=path)
    return ContentImage(image=data_uri(png))
