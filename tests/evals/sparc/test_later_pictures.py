"""Answer pictures encoded after scoring, in the worker thread (`LaterPictures`, `in_worker`):
the Inspect scorers' explanations must be byte for byte those of `score_answer` drawn inline."""

from __future__ import annotations

import asyncio
import threading
from unittest import mock

import pytest
from picture_helpers import answer, region_failures

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc import scorer
from inspect_sparc.evals.sparc.scorer import LaterPictures, score_answer
from inspect_sparc.evals.worker import in_worker


def later(puzzle, text: str):
    """`score_answer` as the Inspect scorer runs it: drawn now, encoded in the worker."""
    pictures = LaterPictures()
    return asyncio.run(pictures.finish(score_answer(puzzle, text, pictures.picture)))


def test_later_pictures_give_the_inline_explanations(sparc_records, sparc_answers):
    by_id = {r["id"]: r for r in sparc_records}
    cases = [(by_id[a["puzzle_id"]], a["response"]) for a in sparc_answers]
    cases += [(record, answer(line)) for record, line in region_failures(sparc_records)[:12]]
    pictured = 0
    for record, text in cases:
        puzzle = parse_puzzle(record)
        inline, deferred = score_answer(puzzle, text), later(puzzle, text)
        assert deferred.model_dump() == inline.model_dump(), record["id"]
        assert "\0" not in (deferred.explanation or "")
        pictured += "data:image/" in (deferred.explanation or "")
    assert pictured >= 12


def test_a_picture_that_cannot_be_encoded_is_said_so_and_the_score_stands(sparc_records):
    record, line = region_failures(sparc_records)[0]
    puzzle = parse_puzzle(record)
    with mock.patch.object(scorer, "encode_answer", side_effect=OSError("no encoder")):
        deferred = later(puzzle, answer(line))
    inline = score_answer(puzzle, answer(line))
    assert deferred.value == inline.value and deferred.metadata == inline.metadata
    assert "data:image/" not in deferred.explanation
    assert "The answer picture could not be encoded." in deferred.explanation
    assert inline.explanation is not None
    assert deferred.explanation.startswith(inline.explanation.split("![")[0])


def test_work_runs_in_one_worker_thread_off_the_event_loop():
    async def run() -> set[str]:
        names = await asyncio.gather(
            *[in_worker(lambda: threading.current_thread().name) for _ in range(20)]
        )
        return set(names)

    [name] = asyncio.run(run())
    assert name != threading.current_thread().name and name.startswith("inspect_sparc")


def test_work_runs_under_trio_too():
    trio = pytest.importorskip("trio")

    async def run() -> str:
        return await in_worker(lambda: threading.current_thread().name)

    assert trio.run(run) != threading.current_thread().name
