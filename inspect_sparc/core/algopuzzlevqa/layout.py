"""Reading a folder in the authors' repository layout (pure: no inspect_ai).

The layout of `declare-lab/LLM-PuzzleTest`, folder `AlgoPuzzleVQA/data`: `<puzzle>.json` holds one
JSON record per line (`image`, `question`, `options`, `answer`, `solution`), and `image` is a path
relative to the folder, `images/<puzzle>/<puzzle>_NNNN.jpg`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES

IMAGE_NAME = re.compile(r"(?:^|/)images/(?P<puzzle>[a-z_]+)/(?P<id>(?P=puzzle)_\d+)\.jpg$")
"""The relative image path of a record; its file name (less `.jpg`) is the sample id."""


IMAGE_SIGNATURES: dict[bytes, str] = {
    b"\xff\xd8\xff": "image/jpeg",
    b"\x89PNG\r\n\x1a\n": "image/png",
}
"""Leading bytes of the image formats in the data (some `.jpg` files are PNG images)."""


def image_mime_type(data: bytes) -> str | None:
    """The MIME type of image bytes, judged by their leading bytes (None: not JPEG or PNG).

    Args:
        data: the image's bytes.

    Returns:
        `image/png`, `image/jpeg` or None."""
    for signature, mime_type in IMAGE_SIGNATURES.items():
        if data.startswith(signature):
            return mime_type
    return None


@dataclass(frozen=True)
class Record:
    """One AlgoPuzzleVQA instance as published by the authors."""

    id: str
    puzzle: str
    image: str
    image_path: Path
    image_mime_type: str
    question: str
    options: list[str]
    answer: str


def data_folder(path: Path) -> Path | None:
    """The folder holding `<puzzle>.json` files at or below `path` (a repository-layout guess).

    Args:
        path: a folder given as a source.

    Returns:
        The data folder, or None when there is none."""
    for candidate in (path, path / "data", path / "AlgoPuzzleVQA" / "data"):
        if any((candidate / f"{name}.json").is_file() for name in PUZZLES):
            return candidate
    return None


def missing_puzzles(folder: Path, puzzles: list[str]) -> list[str]:
    """The puzzles among `puzzles` whose `<puzzle>.json` is not in `folder`.

    Args:
        folder: the data folder.
        puzzles: the puzzle names wanted.

    Returns:
        The missing ones, in the order of `puzzles`."""
    return [name for name in puzzles if not (folder / f"{name}.json").is_file()]


def parse_record(puzzle: str, raw: dict[str, Any], folder: Path, where: str) -> Record:
    """Check one raw record of `<puzzle>.json` and turn it into a Record.

    Args:
        puzzle: the puzzle name.
        raw: the record as read from the JSON file.
        folder: the data folder (images are found from it).
        where: the file and index, for error messages.

    Returns:
        The checked record."""
    for key, kind in (("image", str), ("question", str), ("options", list), ("answer", str)):
        if not isinstance(raw.get(key), kind):
            raise ValueError(f"{where}: field {key!r} is missing or not a {kind.__name__}.")
    image = raw["image"]
    match = IMAGE_NAME.search(image)
    if match is None or match["puzzle"] != puzzle:
        raise ValueError(f"{where}: image {image!r} is not images/{puzzle}/{puzzle}_NNNN.jpg.")
    options = [str(option) for option in raw["options"]]
    if not 2 <= len(options) <= 4:
        raise ValueError(f"{where}: expected 2 to 4 options, got {len(options)}.")
    if raw["answer"] not in options:
        raise ValueError(f"{where}: answer {raw['answer']!r} is not one of {options}.")
    image_path = (folder / image).resolve()
    if not image_path.is_file():
        raise ValueError(f"{where}: image file {image_path} is missing.")
    with image_path.open("rb") as file:
        mime_type = image_mime_type(file.read(16))
    if mime_type is None:
        raise ValueError(f"{where}: {image_path} is neither a JPEG nor a PNG image.")
    return Record(
        id=match["id"],
        puzzle=puzzle,
        image=image,
        image_path=image_path,
        image_mime_type=mime_type,
        question=raw["question"],
        options=options,
        answer=raw["answer"],
    )


def read_puzzle(folder: Path, puzzle: str) -> list[Record]:
    """The records of `<folder>/<puzzle>.json`, sorted by id.

    Args:
        folder: the data folder.
        puzzle: the puzzle name.

    Returns:
        The records."""
    path = folder / f"{puzzle}.json"
    records: list[Record] = []
    with path.open(encoding="utf-8") as file:
        for number, line in enumerate(file, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{where}: not a JSON record ({error}).") from error
            if not isinstance(raw, dict):
                raise ValueError(f"{where}: not a JSON object.")
            records.append(parse_record(puzzle, raw, folder, where))
    duplicates = sorted(i for i, n in Counter(r.id for r in records).items() if n > 1)
    if duplicates:
        raise ValueError(f"{path}: duplicate instances {', '.join(duplicates)}.")
    return sorted(records, key=lambda record: int(record.id.rsplit("_", 1)[1]))


def read_folder(folder: Path, puzzles: list[str]) -> dict[str, list[Record]]:
    """The records of each puzzle in `puzzles`, read from a repository-layout `folder`.

    Args:
        folder: the data folder.
        puzzles: the puzzle names wanted.

    Returns:
        Puzzle name -> its records."""
    missing = missing_puzzles(folder, puzzles)
    if missing:
        raise ValueError(
            f"{folder} lacks {', '.join(f'{name}.json' for name in missing)}; "
            "pass puzzle=... to choose among the puzzles it has."
        )
    return {name: read_puzzle(folder, name) for name in puzzles}
