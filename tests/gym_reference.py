"""Run the reference step-by-step code (`sparc-puzzle` 0.7.0 + `SPaRC_Gym` 0.2.7) on local records.

`SPaRC_Gym` loads a hub dataset in its constructor: `local_gym_records` swaps its loader for the
given records. Its record processing reads a variable left over from the previous cell, so a
record whose first cell is a gap crashes when it is processed first: a primer record (first cell
with a `type`) always goes first. The reference loops are run unchanged, with a fake OpenAI client
that answers scripted replies and records every conversation it was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pandas as pd
import yaml
from sparc import process_puzzle as reference

#: The module (the package re-exports the class under the same name).
gym_module: Any = importlib.import_module("SPaRC_Gym.SPaRC_Gym")


def _first_cell_has_type(record: dict[str, Any]) -> bool:
    cells = yaml.safe_load(record["text_visualization"])["puzzle"]["cells"]
    return bool(cells) and "type" in cells[0].get("properties", {})


_PUZZLES = Path(__file__).parent / "fixtures" / "sparc" / "puzzles.jsonl"
PRIMER = next(
    record
    for record in map(json.loads, _PUZZLES.read_text(encoding="utf-8").splitlines())
    if _first_cell_has_type(record)
)


@contextlib.contextmanager
def local_gym_records(records: Sequence[dict[str, Any]]) -> Iterator[None]:
    """Make every `SPaRC_Gym` built inside read `records` (after the primer) instead of the hub."""
    frame = pd.DataFrame([PRIMER, *[r for r in records if r["id"] != PRIMER["id"]]])
    original = gym_module.load_dataset
    gym_module.load_dataset = lambda *args, **kwargs: SimpleNamespace(to_pandas=lambda: frame)
    try:
        yield
    finally:
        gym_module.load_dataset = original


class ScriptedClient:
    """A stand-in for `AsyncOpenAI`: answers `replies` in order, records each request."""

    def __init__(self, replies: Sequence[str]) -> None:
        self.replies = list(replies)
        self.requests: list[list[dict[str, Any]]] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    async def _create(self, *, messages: list[dict[str, Any]], **_: Any) -> Any:
        self.requests.append(messages)
        content = self.replies[len(self.requests) - 1]
        message = SimpleNamespace(content=content, reasoning_content=None, reasoning=None)
        return SimpleNamespace(choices=[SimpleNamespace(message=message)])


def reference_episode(
    record: dict[str, Any],
    replies: Sequence[str],
    traceback: bool = False,
    prompt_name: str | None = None,
) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    """The reference `process_puzzle_step_by_step` result and the requests it sent."""
    client = ScriptedClient(replies)
    with local_gym_records([record]):
        result = asyncio.run(
            reference.process_puzzle_step_by_step(
                client, record, "scripted", 0.0, 0, traceback, prompt_name
            )
        )
    return result, client.requests


def reference_astar(record: dict[str, Any], seed: int = 0) -> dict[str, Any]:
    """The reference A* ablation's result on one record (its fallback seeded)."""
    random.seed(seed)
    with local_gym_records([record]):
        return asyncio.run(reference.process_puzzle_step_by_step_astar(record, 0))


def reference_random(record: dict[str, Any], seed: int, traceback: bool = False) -> dict[str, Any]:
    """The reference random ablation's result on one record, `random` seeded."""
    random.seed(seed)
    with local_gym_records([record]):
        return asyncio.run(reference.process_puzzle_step_by_step_random(record, 0, traceback))


def reference_env(record: dict[str, Any], traceback: bool = False, max_steps: int = 100) -> Any:
    """A bare `SPaRC_Gym` on one record, reset to it (for stepping it directly)."""
    with local_gym_records([record]):
        env = gym_module.SPaRC_Gym(observation="SPaRC", traceback=traceback, max_steps=max_steps)
    env.reset(options={"puzzle_id": record["id"]})
    return env
