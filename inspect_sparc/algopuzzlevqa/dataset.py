"""AlgoPuzzleVQA records as Inspect samples: the image plus the paper's prompt text."""

from __future__ import annotations

import base64
from collections.abc import Iterable

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText

from inspect_sparc.algopuzzlevqa.layout import Record, read_folder, round_robin
from inspect_sparc.algopuzzlevqa.prompts import build_prompt, check_prompt_style, option_letters
from inspect_sparc.algopuzzlevqa.puzzles import select_puzzles
from inspect_sparc.algopuzzlevqa.sources import resolve_source


def image_reference(record: Record) -> str:
    """The image as Inspect should read it: the file path, or a data URI for a PNG named `.jpg`.

    Inspect inlines file images into requests and logs with a MIME type guessed from the
    extension; the PNG images of some puzzles (named `.jpg` by the authors) are inlined here with
    their true type, which providers that check media types require.
    """
    if record.image_mime_type == "image/jpeg":
        return str(record.image_path)
    data = base64.b64encode(record.image_path.read_bytes()).decode("ascii")
    return f"data:{record.image_mime_type};base64,{data}"


def record_to_sample(record: Record, prompt: str = "describe") -> Sample:
    """One sample: a user message with the image, then the question, options and cue."""
    letters = option_letters(len(record.options))
    return Sample(
        id=record.id,
        input=[
            ChatMessageUser(
                content=[
                    ContentImage(image=image_reference(record)),
                    ContentText(text=build_prompt(record.question, record.options, prompt)),
                ]
            )
        ],
        target=record.answer,
        metadata={
            "puzzle": record.puzzle,
            "options": record.options,
            "answer": record.answer,
            "answer_letter": letters[record.options.index(record.answer)],
            "image": record.image,
            "prompt": prompt,
        },
    )


def algopuzzlevqa_dataset(
    puzzle: str | Iterable[str] | None = None,
    prompt: str = "describe",
    source: str = "github",
) -> MemoryDataset:
    """The samples of the chosen puzzles, round-robin over puzzles, each puzzle by instance."""
    puzzles = select_puzzles(puzzle)
    check_prompt_style(prompt)
    folder = resolve_source(source, puzzles)
    records = round_robin(read_folder(folder, puzzles))
    return MemoryDataset(
        [record_to_sample(record, prompt) for record in records],
        name="algopuzzlevqa",
        location=str(folder),
    )
