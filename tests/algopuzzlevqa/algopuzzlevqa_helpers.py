"""Helpers for the AlgoPuzzleVQA tests: the shipped 36 real instances, the shared mock output."""

from __future__ import annotations

import base64
import json
from pathlib import Path

# One mock-output helper for the whole suite (tests/mock_outputs.py; tests/ is on sys.path
# through its conftest), re-exported for the AlgoPuzzleVQA tests.
from mock_outputs import mock_output

__all__ = [
    "FIXTURE_DATA",
    "FIXTURE_ROOT",
    "fixture_records",
    "image_bytes",
    "last_user_text",
    "mock_output",
]

FIXTURE_ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "algopuzzlevqa"
FIXTURE_DATA = FIXTURE_ROOT / "data"


def fixture_records() -> list[dict]:
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


def last_user_text(messages: list) -> str:
    """The text of the last user message of a model input."""
    for message in reversed(messages):
        if message.role == "user":
            return message.text
    return ""
