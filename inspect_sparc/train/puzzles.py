"""Where the training interfaces get puzzles: records, a file, a split of the benchmark, or the
generator. One function, so the environment and the prompt datasets read sources alike.
Pure logic: no Inspect imports.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from typing import Any

from inspect_sparc.core.sources import SPLITS, load_records

#: The hub that publishes both splits (`source="test"` / `"train"`); its cache is read first.
SPLIT_HUB = "huggingface"

PuzzleSource = str | os.PathLike[str] | Mapping[str, Any] | Iterable[Mapping[str, Any] | str]


def load_puzzles(source: PuzzleSource) -> list[dict[str, Any]]:
    """Records from a list of records (or their JSON text), one record, a file path, `"test"` or
    `"train"` (the benchmark's split, from the hub cache when it is there), `"sample"` or
    `"generated:SEED"` (the cached 500-puzzle generated set), as `load_records` reads them."""
    if isinstance(source, Mapping):
        return [dict(source)]
    if isinstance(source, os.PathLike):
        return load_records(os.fspath(source))
    if isinstance(source, str):
        return load_records(SPLIT_HUB, source) if source in SPLITS else load_records(source)
    if not isinstance(source, Iterable):
        raise ValueError(f"puzzles must be records, a path or a source name; got {source!r}")
    records = [json.loads(r) if isinstance(r, str) else r for r in source]
    bad = next((r for r in records if not isinstance(r, Mapping)), None)
    if bad is not None:
        raise ValueError(f"every puzzle must be a SPaRC record (a dict); got {type(bad).__name__}")
    return [dict(r) for r in records]
