"""What the page is shown of a sample, and how what the page sends becomes a model-like answer.

One judge per kind of task: `PathJudge` (`sparc`, `sparc_hard`: a whole path, answered as a
model's text after `####`), `GymJudge` (`sparc_gym`: one move at a time through the package's
own `Stepper`, so a move the gym refuses is refused and counted as the gym counts it) and
`ChoiceJudge` (`algopuzzlevqa`: one option). A judge's `view` holds only what a model is shown
(the prompt text, the puzzle drawn, the options); the solutions and the gold option stay here,
server-side. Feedback is computed with the task's own scoring functions (`score_answer`,
`score_episode`, `read_answer`), never showing a solution.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_sparc.core.algopuzzlevqa.answer import read_answer
from inspect_sparc.core.algopuzzlevqa.prompts import option_letters
from inspect_sparc.core.episode.settings import EpisodeSettings
from inspect_sparc.core.episode.stepper import Stepper
from inspect_sparc.core.human_input import (
    HumanInputError,
    read_action,
    read_choice,
    read_count,
    read_field,
    read_path,
)
from inspect_sparc.core.picture.image import ANSWER_CELL, answer_image, board_record, data_uri
from inspect_sparc.core.puzzle.parse import Puzzle
from inspect_sparc.core.puzzle.rules import format_point

#: The answer text of a participant who gave up (no coordinates and no option letter in it,
#: so every scorer reads no answer).
GAVE_UP_TEXT = "(gave up)"
#: A Markdown image in a score explanation: the answer picture, sent to the page on its own.
_IMAGE = re.compile(r"!\[[^\]]*\]\((data:[^)]+)\)")


def feedback(solved: bool, explanation: str) -> dict[str, Any]:
    """The page's feedback from a score: solved or not, the explanation's words, its picture.

    Args:
        solved: whether the answer solved the puzzle.
        explanation: the score's explanation (Markdown), perhaps holding the answer picture as a
            Markdown image with a data URI.

    Returns:
        `{"solved", "text", "picture"}`: the verdict, the explanation without its image, and the
        picture's data URI (None when the explanation has none)."""
    found = _IMAGE.search(explanation)
    text = _IMAGE.sub("", explanation).strip()
    return {"solved": solved, "text": text, "picture": found.group(1) if found else None}


def board_view(puzzle: Puzzle, cell: int = ANSWER_CELL) -> dict[str, Any]:
    """The puzzle drawn as the answer pictures are (`core.picture.answer_image`, no path) and
    the pixel centre of every grid position the path may take, for the page to draw on.

    Args:
        puzzle: the puzzle to draw.
        cell: the side of one grid cell in pixels (the answer pictures' by default).

    Returns:
        What the page draws the board from: the puzzle's id and level, the image as a data URI with
        its size in pixels, the spacing between neighbouring positions, `points` (`[x, y, px, py]`:
        each position the path may take and its pixel centre), the start and end positions and the
        grid's columns and rows."""
    from sparc_visualization.objects.board import get_board_from_data
    from sparc_visualization.plots.original_plot import OriginalPlot

    mime, data = answer_image(puzzle, None)
    board = get_board_from_data(board_record(puzzle))
    plot = OriginalPlot(
        board, size=(board.width, board.height), cell_size=cell, pad_pixels=cell // 2
    )
    plot.render()
    points = []
    for y in range(puzzle.rows):
        for x in range(puzzle.columns):
            if not Puzzle.is_cell((x, y)):
                px, py = plot.middle_positions[y][x]
                points.append([x, y, round(float(px), 1), round(float(py), 1)])
    width, height = plot._img.size
    spacing = abs(float(plot.middle_positions[0][1][0]) - float(plot.middle_positions[0][0][0]))
    return {
        "puzzle_id": puzzle.id,
        "level": puzzle.level,
        "image": data_uri(data, mime),
        "image_size": [width, height],
        "spacing": round(spacing, 1),
        "points": points,
        "start": list(puzzle.start),
        "end": list(puzzle.end),
        "columns": puzzle.columns,
        "rows": puzzle.rows,
    }


class PathJudge:
    """`sparc` and `sparc_hard`: the page sends a whole path, answered as a model's text."""

    kind = "path"

    def __init__(self, puzzle: Puzzle, text: str) -> None:
        self.puzzle = puzzle
        self.view = {"kind": self.kind, "text": text, **board_view(puzzle)}

    def reset(self) -> None:
        """Nothing to forget when the puzzle goes to another participant."""

    def submit(self, body: Mapping[str, Any]) -> tuple[str, dict[str, Any], int, int]:
        """(answer text, feedback, moves, undos) for a submitted `path` with its counts.

        Args:
            body: the page's request: `path` (a list of `[x, y]` pairs inside the grid) and
                the counts `moves` and `undos` (absent is 0); a bad field raises
                HumanInputError.

        Returns:
            The answer text (`####` then the points), the page's feedback (the `sparc` scorer's
            verdict, explanation and picture), and the counts of moves and undos."""
        from inspect_sparc.evals.sparc.scorer import score_answer

        path = read_path(body.get("path"), self.puzzle.columns, self.puzzle.rows)
        moves, undos = (read_field(body, name, read_count) for name in ("moves", "undos"))
        text = answer_text(path)
        score = score_answer(self.puzzle, text)
        solved = bool(score.value["correct"]) if isinstance(score.value, dict) else False
        return text, feedback(solved, score.explanation or ""), moves, undos

    def give_up(self) -> str:
        """The answer text of a participant who gave up.

        Returns:
            `GAVE_UP_TEXT`, which holds no coordinates, so the scorer reads no answer."""
        return GAVE_UP_TEXT


def answer_text(path: Sequence[tuple[int, int]]) -> str:
    """A path as a model would answer it: `####` then the points (`core.answer` reads it).

    Args:
        path: the positions `(x, y)` in order, from S to the last one drawn.

    Returns:
        `####` and a newline, then the points as `(x, y)` joined by commas."""
    return "####\n" + ", ".join(format_point(point) for point in path)


class GymJudge:
    """`sparc_gym`: each move goes through the package's `Stepper`, as the gym counts it."""

    kind = "gym"

    def __init__(self, puzzle: Puzzle, settings: EpisodeSettings, text: str) -> None:
        self.puzzle = puzzle
        self.settings = settings
        self.env = self._new_env()
        self.view = {
            "kind": self.kind,
            "text": text,
            "traceback": settings.traceback,
            "max_steps": settings.max_steps,
            **board_view(puzzle),
        }

    def _new_env(self) -> Stepper:
        return Stepper(self.puzzle, self.settings.traceback, self.settings.max_steps)

    def reset(self) -> None:
        """A fresh episode for the next participant (the last one's moves are dropped)."""
        self.env = self._new_env()

    def move(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Take one step; what it did (never the path: the page keeps its own).

        Args:
            body: the page's request: `action`, 0 right, 1 up, 2 left or 3 down (anything else
                raises HumanInputError; a move after the episode ended raises it with status 409).

        Returns:
            Whether the move was legal and a step back, the position after it, whether the episode
            ended, the steps and illegal steps so far, and, once it ended, the page's feedback (the
            `sparc_gym` scorer's verdict, explanation and picture)."""
        if self.env.done:
            raise HumanInputError("this episode has ended", status=409)
        result = self.env.step(read_action(body.get("action")))
        reply: dict[str, Any] = {
            "legal": result.legal,
            "backtrack": result.backtrack,
            "position": list(result.position),
            "ended": result.ended,
            "steps": self.env.steps,
            "illegal": self.env.illegal,
        }
        if result.ended:
            from inspect_sparc.evals.sparc.episode_scorer import score_episode

            score = score_episode(self.env)
            reply["feedback"] = feedback(self.env.solved, score.explanation or "")
        return reply

    def give_up(self) -> Stepper:
        """The episode as it stands (scored as cut short).

        Returns:
            The judge's `Stepper` with the moves so far, which the solver records and the
            scorer scores."""
        return self.env


class ChoiceJudge:
    """`algopuzzlevqa`: the page sends one option, answered as `(X)`."""

    kind = "choice"

    def __init__(
        self, puzzle_id: str, text: str, image: str, options: list[str], gold: str
    ) -> None:
        self.options = options
        self._gold = gold
        self.view = {
            "kind": self.kind,
            "puzzle_id": puzzle_id,
            "text": text,
            "image": image,
            "options": list(options),
            "letters": option_letters(len(options)),
        }

    def reset(self) -> None:
        """Nothing to forget when the question goes to another participant."""

    def submit(self, body: Mapping[str, Any]) -> tuple[str, dict[str, Any], int, int]:
        """(answer text, feedback, moves, undos) for a chosen option.

        Args:
            body: the page's request: `choice`, the index of the option chosen (0 for the first; out
                of range raises HumanInputError).

        Returns:
            The answer text (`(A)` for the first option), the page's feedback (correct or not, no
            picture), one move and no undos."""
        choice = read_choice(body.get("choice"), len(self.options))
        text = f"({option_letters(len(self.options))[choice]})"
        reading = read_answer(text, self.options, "paper")
        solved = reading.option is not None and reading.option == self._gold
        words = "Correct." if solved else "Not correct."
        return text, {"solved": solved, "text": words, "picture": None}, 1, 0

    def give_up(self) -> str:
        """The answer text of a participant who gave up.

        Returns:
            `GAVE_UP_TEXT`, which holds no option letter, so the scorer reads no answer."""
        return GAVE_UP_TEXT


def image_uri(image: str) -> str:
    """An Inspect image reference (a data URI or a file path) as a data URI for the page.

    Args:
        image: a data URI, returned as it is, or the path of a PNG (by its `.png` suffix) or
            JPEG file.

    Returns:
        The image as a `data:` URI."""
    if image.startswith("data:"):
        return image
    path = Path(image)
    mime = "image/png" if path.suffix.lower() == ".png" else "image/jpeg"
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")
