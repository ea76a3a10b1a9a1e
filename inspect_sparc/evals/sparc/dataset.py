"""SPaRC records -> Inspect Samples: prompts, targets, metadata, level filter, round-robin order,
and the samples of a task's `PuzzleSelection`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser

from inspect_sparc.core.ordering import round_robin
from inspect_sparc.core.prompts.single_shot import SYSTEM_PROMPT, check_prompt_kind, user_prompt
from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import (
    REQUIRED_FIELDS,
    Puzzle,
    RecordError,
    parse_puzzle,
    path_to_moves,
)
from inspect_sparc.core.sources import GENERATED, load_records

if TYPE_CHECKING:
    from inspect_sparc.evals.selection import PuzzleSelection


def compact_record(record: Mapping[str, Any], puzzle: Puzzle) -> dict[str, Any]:
    """The fields the scorer needs, each solution as its moves from S (`RRDL...`).

    Moves are a seventh of the published point lists, which matters: Inspect stores sample
    metadata twice per sample. A solution that is not unit steps from S keeps `(x,y), ...` text.

    Args:
        record: the published record (already checked by `parse_puzzle`).
        puzzle: the record parsed, whose solutions are turned into moves.

    Returns:
        The record's `REQUIRED_FIELDS`, `solutions` as move strings (`R`, `U`, `L`, `D` per step
        from S).
    """
    compact = {name: record[name] for name in REQUIRED_FIELDS}
    compact["solutions"] = [
        path_to_moves(path, puzzle.start) or format_path(path) for path in puzzle.solutions
    ]
    return compact


def record_to_sample(record: Mapping[str, Any], prompt: str = "paper") -> Sample:
    """One checked puzzle record as a Sample: system + user prompt, first solution as target.

    Args:
        record: a published SPaRC record; one outside the schema raises RecordError.
        prompt: the prompt wording, `paper` (the paper's, behind all published numbers) or
            `corrected` (the authors' later rule wording).

    Returns:
        The sample: id the puzzle id, input the system and user prompts, target the first stored
        solution as `(x, y)` text, metadata the level, difficulty score, number of solutions and
        the compact record the scorer reads (`puzzle`)."""
    puzzle = parse_puzzle(record)
    return Sample(
        id=puzzle.id,
        input=[
            ChatMessageSystem(content=SYSTEM_PROMPT),
            ChatMessageUser(content=user_prompt(record, prompt)),
        ],
        target=format_path(puzzle.solutions[0]),
        metadata={
            "level": puzzle.level,
            "difficulty_score": puzzle.difficulty_score,
            "solution_count": len(puzzle.solutions),
            "puzzle": compact_record(record, puzzle),
        },
    )


def round_robin_by_level(samples: Sequence[Sample]) -> list[Sample]:
    """Interleave levels 1..5 (dataset order within a level) so `--limit 10` gives 2 per level.

    Args:
        samples: samples whose metadata holds `level`.

    Returns:
        The same samples: the first of each level present (lowest level first), then the second
        of each, and so on."""
    by_level: dict[int, list[Sample]] = {}
    for sample in samples:
        by_level.setdefault((sample.metadata or {})["level"], []).append(sample)
    return round_robin(by_level[level] for level in sorted(by_level))


def sparc_dataset(
    source: str = "modelscope",
    split: str = "test",
    subset: str = "all",
    levels: Sequence[int] | None = None,
    prompt: str = "paper",
) -> MemoryDataset:
    """The Samples of one config and split, filtered to `levels`, in round-robin level order.

    Every argument is checked before any record is loaded, so a typo never waits on a hub.

    Args:
        source: `modelscope`, `huggingface`, `sample`, `generated:SEED` or a records file's path.
        split: `test` (the benchmark) or `train`.
        subset: the dataset config: `all` (the benchmark) or a per-rule one (`dots`, `stars`, ...).
        levels: the difficulty levels (1-5) to keep; None keeps every level.
        prompt: the prompt wording, `paper` or `corrected`.

    Returns:
        The dataset, named after the config, split (or seed) and levels (see `samples_dataset`).
    """
    check_prompt_kind(prompt)
    records = load_records(source, split, subset)
    samples = [record_to_sample(record, prompt) for record in records]
    return samples_dataset(samples, source, split, subset, levels)


def samples_dataset(
    samples: Sequence[Sample],
    source: str,
    split: str,
    subset: str,
    levels: Sequence[int] | None,
    prefix: str = "sparc",
) -> MemoryDataset:
    """Check ids are unique, keep `levels`, order round-robin by level and name the dataset.

    Args:
        samples: the samples of every record of the source, in dataset order; a repeated id
            raises RecordError.
        source: the source they came from (the dataset's location, and its seed in the name).
        split: the split they came from, for the name.
        subset: the dataset config they came from, for the name.
        levels: the levels to keep (none left raises ValueError); None keeps every level.
        prefix: the dataset name's start (`sparc`, `sparc_visual`).

    Returns:
        The dataset, named e.g. `sparc_test`, `sparc_stars_test_level12` or
        `sparc_generated_seed7`."""
    counts = Counter(sample.id for sample in samples)
    duplicates = [sample_id for sample_id, count in counts.items() if count > 1]
    if duplicates:
        raise RecordError(f"{source}: duplicate puzzle id(s) {', '.join(map(str, duplicates[:5]))}")
    if levels is not None:
        samples = [s for s in samples if (s.metadata or {})["level"] in levels]
        if not samples:
            raise ValueError(f"{source} ({subset}/{split}) has no puzzles of level {list(levels)}")
    name = prefix + ("" if subset == "all" else f"_{subset}") + f"_{split}"
    if source.startswith(GENERATED):  # fresh puzzles are not the test split: say which seed
        name = f"{prefix}_generated_seed{source[len(GENERATED) :].strip()}"
    if levels is not None:
        name += "_level" + "".join(map(str, levels))
    return MemoryDataset(round_robin_by_level(samples), name=name, location=source)


def select_puzzles(dataset: MemoryDataset, puzzles: str) -> MemoryDataset:
    """`dataset` itself for "all"; else only the subset's puzzles (round-robin by level), each
    sample's metadata holding its Horvitz-Thompson weight as `subset_weight`. All the subset's
    puzzles must be there (no level filter, a source of the whole test split).

    Args:
        dataset: the samples of the whole test split (config `all`, every level).
        puzzles: "all", or a shipped subset's name (`informative:100`).

    Returns:
        `dataset` itself, or a new dataset of the subset's samples named with the subset's name
        appended (`sparc_test_informative100`); ValueError when some of its puzzles are missing."""
    from inspect_sparc.published_runs.shipped import subset_puzzles

    if puzzles == "all":
        return dataset
    weights = subset_puzzles(puzzles)
    kept = [sample for sample in dataset if sample.id in weights]
    if len(kept) < len(weights):
        raise ValueError(
            f"puzzles={puzzles}: the dataset has {len(kept)} of its {len(weights)} puzzles "
            "(it needs the whole test split: no level filter, a source of all 500 puzzles)"
        )
    for sample in kept:
        sample.metadata = {**(sample.metadata or {}), "subset_weight": weights[str(sample.id)]}
    name = f"{dataset.name}_{puzzles.replace(':', '')}"
    return MemoryDataset(round_robin_by_level(kept), name=name, location=dataset.location)


def selected_dataset(
    selection: PuzzleSelection,
    to_sample: Callable[[Mapping[str, Any]], Sample],
    prefix: str = "sparc",
) -> MemoryDataset:
    """The samples of a task's selection: `to_sample` of each record of its source, its levels
    kept, round-robin by level, then its shipped subset's puzzles with their weights.

    Args:
        selection: The task's puzzles (`evals/selection.py`).
        to_sample: A record as the task's Sample.
        prefix: The dataset name's start (`sparc`, `sparc_visual`).

    Returns:
        The dataset, named after the config, split (or seed), levels and subset.
    """
    samples = [to_sample(record) for record in selection.records()]
    dataset = samples_dataset(
        samples, selection.source, selection.split, selection.subset, selection.levels, prefix
    )
    return select_puzzles(dataset, selection.puzzles)
