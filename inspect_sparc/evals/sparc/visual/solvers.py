"""The visual solver: the puzzle's rendered image put before the prompt text, as the reference."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_sparc.core.picture.image import board_record, check_plot_type, data_uri, puzzle_png
from inspect_sparc.core.puzzle.parse import parse_puzzle


def render_sample_png(metadata: Mapping[str, Any], plot: str) -> bytes:
    """The PNG of a sample's puzzle (its metadata record), as the reference renders it.

    Args:
        metadata: the sample's metadata, holding its compact puzzle record under `puzzle`.
        plot: the renderer's plot type (`original`, `path_cell_annotated`, ...).

    Returns:
        The PNG's bytes."""
    return puzzle_png(board_record(parse_puzzle(metadata["puzzle"])), plot)


@solver
def prepend_puzzle_image(plot: str = "original") -> Solver:
    """Put the puzzle's image first in the user message, before its text (as the reference).

    Rendering waits until the sample runs (in a worker thread): a 500-puzzle run starts at once
    and holds one image per running sample, not 500.

    Args:
        plot: the renderer's plot type (`original`, `path_cell_annotated`, ...); an unknown one is
            a ValueError naming the one probably meant.

    Returns:
        A solver that renders the sample's puzzle and puts it as a data URI before the text of the
        first user message (once: a message already holding an image is left as it is). Any
        solver of `sparc_visual` must start with it, or the model sees no image.
    """
    check_plot_type(plot)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        png = await anyio.to_thread.run_sync(render_sample_png, state.metadata, plot)
        image = ContentImage(image=data_uri(png))
        for index, message in enumerate(state.messages):
            if isinstance(message, ChatMessageUser):
                content = message.content
                parts = [ContentText(text=content)] if isinstance(content, str) else content
                if not any(isinstance(part, ContentImage) for part in parts):
                    update = {"content": [image, *parts]}
                    state.messages[index] = message.model_copy(update=update)
                break
        return state

    return solve
