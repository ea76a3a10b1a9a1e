"""AlgoPuzzleVQA records as Inspect samples: the authors' prompt text, then the image."""

from __future__ import annotations

import base64
from collections.abc import Iterable
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText

from inspect_sparc.core.algopuzzlevqa.images import (
    DEFAULT_MAX_IMAGE_SIZE,
    check_max_image_size,
    resized_copies,
)
from inspect_sparc.core.algopuzzlevqa.layout import Record, read_folder
from inspect_sparc.core.algopuzzlevqa.ontology import puzzle_categories
from inspect_sparc.core.algopuzzlevqa.prompts import (
    build_prompt,
    check_prompt_style,
    option_letters,
)
from inspect_sparc.core.algopuzzlevqa.puzzles import select_puzzles
from inspect_sparc.core.algopuzzlevqa.sources import cache_root, resolve_source
from inspect_sparc.core.ordering import round_robin


def image_reference(record: Record) -> str:
    """The image as Inspect should read it: the file path, or a data URI for a PNG named `.jpg`.

    Inspect inlines file images into requests and logs with a MIME type guessed from the
    extension; the PNG images of some puzzles (named `.jpg` by the authors) are inlined here with
    their true type, which providers that check media types require.

    Args:
        record: the instance; its `image_mime_type` is read from the file's leading bytes.

    Returns:
        The image file's path as a string for a JPEG, else a `data:<type>;base64,...` URI.
    """
    if record.image_mime_type == "image/jpeg":
        return str(record.image_path)
    data = base64.b64encode(record.image_path.read_bytes()).decode("ascii")
    return f"data:{record.image_mime_type};base64,{data}"


def record_to_sample(
    record: Record,
    prompt: str = "describe",
    prevent_direct_answer: bool = False,
    image: str | None = None,
) -> Sample:
    """One sample: a user message with the prompt text, then the image (the OpenAI/Gemini order).

    `image` is what to send (a resized PNG's path); None sends the original file.

    Args:
        record: the instance.
        prompt: the prompt style, `describe` (the paper's eCoT) or `cot`.
        prevent_direct_answer: whether to append " Do not directly give the final answer." to the
            question, as the authors' Gemini runs did.
        image: the path of the image to send (a resized PNG), or None to send the original file.

    Returns:
        The sample: id the image name (`clock_0023`), target the gold option's text, metadata the
        puzzle, its ontology categories, the options, the gold option and its letter, the image's
        relative path and the prompt style.
    """
    letters = option_letters(len(record.options))
    text = build_prompt(record.question, record.options, prompt, prevent_direct_answer)
    return Sample(
        id=record.id,
        input=[
            ChatMessageUser(
                content=[
                    ContentText(text=text),
                    ContentImage(image=image or image_reference(record)),
                ]
            )
        ],
        target=record.answer,
        metadata={
            "puzzle": record.puzzle,
            "categories": puzzle_categories(record.puzzle),
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
    prevent_direct_answer: bool = False,
    max_image_size: int = DEFAULT_MAX_IMAGE_SIZE,
) -> MemoryDataset:
    """The samples of the chosen puzzles, round-robin over puzzles, each puzzle by instance.

    Args:
        puzzle: one puzzle name, several (a list or a comma-separated string), or None for all 18.
        prompt: the prompt style, `describe` (the paper's eCoT) or `cot`.
        source: `github` (the authors' files at a pinned commit, downloaded once and cached),
            `sample` (36 bundled instances) or the path of a folder in the authors' layout.
        prevent_direct_answer: whether to append " Do not directly give the final answer." to
            each question.
        max_image_size: the longest image side in pixels (images larger are shrunk to it and
            sent as cached PNGs); 0 sends the original files.

    Returns:
        The dataset, named `algopuzzlevqa`, its location the data folder read."""
    puzzles = select_puzzles(puzzle)
    check_prompt_style(prompt)
    max_image_size = check_max_image_size(max_image_size)
    folder = resolve_source(source, puzzles)
    records = round_robin(read_folder(folder, puzzles).values())  # puzzles interleaved
    sent: dict[Path, Path] = {}
    if max_image_size:
        sent = resized_copies((r.image_path for r in records), cache_root(), max_image_size)
    return MemoryDataset(
        [
            record_to_sample(
                record,
                prompt,
                prevent_direct_answer,
                str(sent[record.image_path]) if sent else None,
            )
            for record in records
        ],
        name="algopuzzlevqa",
        location=str(folder),
    )
