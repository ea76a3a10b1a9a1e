"""Where the training interfaces get puzzles: records, a file, a split of the benchmark, or the
generator. One function, so the environment and the prompt datasets read sources alike.
Pure logic: no Inspect imports.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from typing import Any

from inspect_sparc.core.sources import BUNDLED, HUBS, SPLITS, load_records
from inspect_sparc.runtime.downloads import SourceError

#: The hub that publishes both splits (`source="test"` / `"train"`); its cache is read first.
SPLIT_HUB = "huggingface"
#: Sources that are the benchmark's test split (a hub's default split, the bundled sample).
TEST_SOURCES = ("test", BUNDLED, *HUBS)

PuzzleSource = str | os.PathLike[str] | Mapping[str, Any] | Iterable[Mapping[str, Any] | str]


def is_test_source(source: object) -> bool:
    """Whether `source` names the benchmark's test split (`"test"`, `"sample"`, a hub).

    Args:
        source: the source as given.

    Returns:
        True for the test split's names."""
    return isinstance(source, str) and source in TEST_SOURCES


def load_puzzles(source: PuzzleSource, argument: str = "source") -> list[dict[str, Any]]:
    """Records from a list of records (or their JSON text), one record, a file path, `"test"` or
    `"train"` (the benchmark's split, from the hub cache when it is there), `"sample"` or
    `"generated:SEED"` (the cached 500-puzzle generated set), as `load_records` reads them.
    Errors name `argument` (the caller's parameter), not the Inspect task's `-T source=`.

    Args:
        source: the records, or where they come from.
        argument: the caller's parameter name, for errors.

    Returns:
        The records, in order."""
    if isinstance(source, Mapping):
        return [dict(source)]
    try:
        if isinstance(source, os.PathLike):
            return load_records(os.fspath(source))
        if isinstance(source, str):
            return load_records(SPLIT_HUB, source) if source in SPLITS else load_records(source)
    except (ValueError, SourceError) as error:
        if source == "train":  # never suggest a test-split source for training
            raise type(error)(_train_split_missing(str(error), argument)) from None
        raise type(error)(_in_terms_of(str(error), argument)) from None
    if not isinstance(source, Iterable):
        raise ValueError(f"{argument} must be records, a path or a source name; got {source!r}")
    records = [json.loads(r) if isinstance(r, str) else r for r in source]
    bad = next((r for r in records if not isinstance(r, Mapping)), None)
    if bad is not None:
        raise ValueError(f"every puzzle must be a SPaRC record (a dict); got {type(bad).__name__}")
    return [dict(r) for r in records]


def _in_terms_of(message: str, argument: str) -> str:
    """A sources error reworded for a Python caller whose parameter is `argument`."""
    message = message.replace("-T source=", f"{argument}=")
    for text in ("source must be", "source generated:SEED"):
        message = message.replace(text, text.replace("source", argument, 1))
    return message


def _train_split_missing(message: str, argument: str) -> str:
    """Why the train split could not be read, with ways out that are training data only (the
    sources error suggests the other hub, the sample and a test file: all the test split)."""
    reason = message.split(" Ways out:")[0].rstrip(".")
    return (
        f"{argument}='train': the SPaRC train split could not be read ({reason}). Ways out: "
        "run once with network access so the hub cache is filled (later runs work offline), "
        f"pass a local file of train-split records ({argument}=path/to/sparc_train.jsonl, "
        f".json or .parquet), or use fresh generated puzzles ({argument}='generated:SEED')."
    )
