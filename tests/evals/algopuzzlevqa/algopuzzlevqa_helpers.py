"""Helpers for the AlgoPuzzleVQA tests: the shipped 36 real instances, the shared mock output."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

# One mock-output helper for the whole suite (tests/mock_outputs.py; tests/ is on sys.path
# through its conftest), re-exported for the AlgoPuzzleVQA tests.
from mock_outputs import mock_output

if TYPE_CHECKING:
    from inspect_ai.model import ChatMessage

__all__ = [
    "FIXTURE_DATA",
    "FIXTURE_ROOT",
    "fixture_records",
    "image_bytes",
    "last_user_text",
    "mock_output",
]

FIXTURE_ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "algopuzzlevqa"
FIXTURE_DATA = FIXTURE_ROOT / "data"


def fixture_records() -> list[dict[str, Any]]:
    """Every raw record of the shipped sample, with its puzzle name added under `_puzzle`."""
    records = []
    for path in sorted(FIXTURE_DATA.glob("*.json")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                records.append({**json.loads(line), "_puzzle": path.stem})
    return records


def image_bytes(reference: str) -> bytes:
    """The bytes behind a sample's image reference (a file path or a base64 data URI)."""
    if reference.startswith("data:"):
        return base64.b64decode(reference.split(",", 1)[1])
    return Path(reference).read_bytes()


def last_user_text(messages: Sequence[ChatMessage]) -> str:
    """The text of the last user message of a model input."""
    for message in reversed(messages):
        if message.role == "user":
            return message.text
    return ""


REFERENCE = FIXTURE_ROOT / "reference"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of a JSON-lines file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def reference_protocol() -> dict[str, dict[str, Any]]:
    """The authors' code's prompts, follow-up and sent image per shipped instance, by id."""
    return {row["id"]: row for row in read_jsonl(REFERENCE / "reference_protocol.jsonl")}


def reference_readings() -> list[dict[str, Any]]:
    """The authors' `get_answer` on 307 crafted replies x (two, four) options."""
    return read_jsonl(REFERENCE / "reference_answer_reading.jsonl")


def pixels_sha256(data: bytes) -> tuple[tuple[int, int], str, str]:
    """(size, format, SHA-256 of the decoded RGB pixels) of encoded image bytes."""
    import hashlib
    import io

    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        size, kind = image.size, image.format
        digest = hashlib.sha256(image.convert("RGB").tobytes()).hexdigest()
    return size, kind, digest
