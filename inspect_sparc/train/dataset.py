"""Prompt datasets for training: the `sparc` task's prompts on fresh (or given) puzzles.

`prompt_dataset` returns a Hugging Face `datasets.Dataset` with the columns a GRPO trainer needs:
`prompt` (the system and user messages, byte-identical to the `sparc` task's input for the same
puzzle; with `prompt_format="standard"` one text, the two joined by a blank line), `puzzle`
(the record as JSON text, what the reward functions read), `id`, `level` and
`difficulty_score`. Every set but one built from the test split on purpose is checked against
the test split's grids (`leakage`). The same as a file, for any framework:

    python -m inspect_sparc.train.dataset --source generated:7 --n 1000 --level 1,2 --out t.parquet

Pure logic: no Inspect imports; `datasets` is imported where a dataset is built.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.core.generate.generator import generate_puzzles
from inspect_sparc.core.generate.grid_hashes import grid_hash
from inspect_sparc.core.generate.leakage import check_no_test_grids
from inspect_sparc.core.prompts.single_shot import SYSTEM_PROMPT, check_prompt_kind, user_prompt
from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.core.sources import GENERATED, GENERATED_SET_SIZE
from inspect_sparc.train.puzzles import PuzzleSource, is_test_source, load_puzzles

if TYPE_CHECKING:  # pragma: no cover
    from datasets import Dataset

Level = int | Sequence[int] | Mapping[int, float] | None
#: TRL's two dataset formats: messages (chat models) or one plain-text prompt.
PROMPT_FORMATS = ("conversational", "standard")


def check_level(level: object) -> int:
    """`level` itself when it is one of 1-5, else a ValueError that says so.

    Args:
        level: the level as given.

    Returns:
        The level."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"levels must be 1, 2, 3, 4 or 5; got {level!r}")
    return level


def level_counts(n: int, level: Level) -> dict[int | None, int]:
    """How many puzzles of each level, in curriculum order: all `n` of one level (None: the
    published mix), `n` split evenly over a list, or split by weight (largest remainders).

    Args:
        n: the number of puzzles in all.
        level: one level, None (the published mix), a list (a curriculum) or weights by level.

    Returns:
        Level (None: the mix) -> how many puzzles, in curriculum order."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive whole number of puzzles; got {n!r}")
    if level is None:
        return {None: n}
    if isinstance(level, Mapping):
        weights = {check_level(lv): float(w) for lv, w in level.items()}
        if not weights or any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
            raise ValueError(f"level weights must be >= 0 with a positive sum; got {level!r}")
    elif isinstance(level, Sequence) and not isinstance(level, str):
        weights = {check_level(lv): 1.0 for lv in level}
        if not weights:
            raise ValueError("level needs at least one of 1-5")
    else:
        return {check_level(level): n}
    total = sum(weights.values())
    exact = {lv: n * w / total for lv, w in weights.items()}
    counts = {lv: int(share) for lv, share in exact.items()}
    by_remainder = sorted(exact, key=lambda lv: counts[lv] - exact[lv])
    for lv in by_remainder[: n - sum(counts.values())]:
        counts[lv] += 1
    return {lv: count for lv, count in counts.items() if count}


def generated_records(
    seed_text: str,
    counts: Mapping[int | None, int],
    workers: int,
    excluded: frozenset[str] = frozenset(),
) -> list[dict[str, Any]]:
    """Fresh puzzles of `generated:SEED`, level by level in the order of `counts`; a puzzle
    whose grid hash is in `excluded` is skipped and the set drawn further (a held-out set).

    Args:
        seed_text: the SEED of `generated:SEED`, as written.
        counts: level (None: the published mix) -> how many puzzles, in order.
        workers: generator processes.
        excluded: grid hashes no puzzle may have.

    Returns:
        The records, level by level."""
    seed = seed_text.strip()
    if not (seed.isdecimal() and seed.isascii()):
        raise ValueError(f"source generated:SEED needs a whole number >= 0; got {seed_text!r}")
    records: list[dict[str, Any]] = []
    for lv, count in counts.items():
        drawn = count
        while True:
            batch = generate_puzzles(drawn, int(seed), lv, workers=workers)
            kept = [r for r in batch if grid_hash(r) not in excluded]
            if len(kept) >= count:
                break
            drawn += 2 * (count - len(kept)) + 4  # a few more than were dropped
        records += kept[:count]
    return records


def excluded_grids(exclude: PuzzleSource | None) -> frozenset[str]:
    """The grid hashes of the puzzles a held-out set must not share a grid with: records, their
    JSON text (a prompt dataset's `puzzle` column), or a file of records or of prompt rows.

    Args:
        exclude: the held-out puzzles (records, JSON texts or a file), or None.

    Returns:
        Their symmetry-blind grid hashes (empty for None)."""
    if exclude is None:
        return frozenset()
    records = load_puzzles(exclude, "exclude")
    return frozenset(
        grid_hash(json.loads(r["puzzle"]) if "puzzle_array" not in r and "puzzle" in r else r)
        for r in records
    )


def chosen_records(
    records: list[dict[str, Any]], counts: Mapping[int | None, int]
) -> list[dict[str, Any]]:
    """The first records of each level of `counts` (all levels for None), in its order.

    Args:
        records: the records to choose from, in order.
        counts: level (None: any level) -> how many to keep, in order.

    Returns:
        The chosen records, level by level."""
    chosen: list[dict[str, Any]] = []
    for lv, count in counts.items():
        pool = [r for r in records if lv is None or r.get("difficulty_level") == lv]
        if len(pool) < count:
            raise ValueError(f"the source has {len(pool)} puzzles of level {lv}; {count} asked")
        chosen += pool[:count]
    return chosen


def all_of_levels(records: list[dict[str, Any]], level: Level) -> list[dict[str, Any]]:
    """Every record of `level` (one, or a list: kept in the list's order); weights need `n`.

    Args:
        records: the records to choose from, in order.
        level: one level, or a list of levels.

    Returns:
        The records of those levels, level by level."""
    if isinstance(level, Mapping):
        raise ValueError("level weights need n, the number of puzzles to draw")
    levels = [level] if isinstance(level, int) else list(level or ())
    order = [check_level(lv) for lv in levels]
    return [r for lv in order for r in records if r.get("difficulty_level") == lv]


def prompt_row(
    record: Mapping[str, Any], prompt: str, prompt_format: str = "conversational"
) -> dict[str, Any]:
    """One dataset row: the `sparc` task's messages for the record (or, `standard`, their text
    joined by a blank line), the record, id, level.

    Args:
        record: a SPaRC record.
        prompt: the prompt wording, `paper` or `corrected`.
        prompt_format: `conversational` (messages) or `standard` (one text).

    Returns:
        The row: `prompt`, `puzzle` (the record as JSON text), `id`, `level`,
        `difficulty_score`."""
    user = user_prompt(record, prompt)
    messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]
    return {
        "prompt": messages if prompt_format == "conversational" else f"{SYSTEM_PROMPT}\n\n{user}",
        "puzzle": json.dumps(record, ensure_ascii=False),
        "id": str(record["id"]),
        "level": int(record["difficulty_level"]),
        "difficulty_score": float(record["difficulty_score"]),
    }


def prompt_records(
    source: PuzzleSource,
    n: int | None,
    level: Level,
    allow_test: bool,
    workers: int,
    exclude: PuzzleSource | None = None,
) -> list[dict[str, Any]]:
    """The records of a prompt dataset, leakage-checked (see `prompt_dataset`).

    Args:
        source: where the puzzles come from (as `prompt_dataset`'s).
        n: how many (None: all, or 500 of a generated set).
        level: one level, a list, weights, or None for all.
        allow_test: allow the test split (no leakage check).
        workers: generator processes.
        exclude: held-out puzzles no record may share a grid with.

    Returns:
        The chosen records, in order."""
    excluded = excluded_grids(exclude)
    if is_test_source(source) and not allow_test:
        raise ValueError(
            f"source={source!r} is the SPaRC test split, the benchmark itself: pass "
            "allow_test=True (--allow-test) to build a training set from it on purpose."
        )
    if isinstance(source, str) and source.startswith(GENERATED):
        counts = level_counts(n or GENERATED_SET_SIZE, level)
        records = generated_records(source[len(GENERATED) :], counts, workers, excluded)
    else:
        records = [r for r in load_puzzles(source) if grid_hash(r) not in excluded]
        if n is None and level is not None:
            records = all_of_levels(records, level)
        elif n is not None:
            records = chosen_records(records, level_counts(n, level))
    if allow_test:
        warnings.warn(
            f"building a training set with the test-split check off (source {source!r}): a "
            "model trained on SPaRC test puzzles must not be evaluated on SPaRC",
            UserWarning,
            stacklevel=3,
        )
    else:
        check_no_test_grids(records)
    return records


def prompt_dataset(
    source: PuzzleSource = "generated:0",
    n: int | None = None,
    level: Level = None,
    prompt: str = "paper",
    *,
    allow_test: bool = False,
    workers: int = 1,
    prompt_format: str = "conversational",
    exclude: PuzzleSource | None = None,
) -> Dataset:
    """A `datasets.Dataset` of SPaRC prompts for training (columns: see the module docstring).

    `source`: `generated:SEED` (fresh puzzles, `n` of them, default 500), a file or list of
    records, or `"train"`; every puzzle is checked against the test split's grids. The test
    split itself (`"test"`, `"sample"`, a hub) needs `allow_test=True`, which skips the check
    and warns. `level`: one level, a list (a curriculum: `n` split evenly, kept in that order)
    or weights `{1: 0.7, 2: 0.3}`. `prompt_format`: `conversational` (messages) or `standard`
    (one text, for models without a chat template). `exclude`: puzzles (records, a prompt
    dataset's `puzzle` column, a file) no row may share a grid with, in any orientation,
    colouring or S/E order: a held-out set for a training set (generated sets draw further).

    Args:
        source: `generated:SEED`, a file, a list of records, `"train"`, or with `allow_test` the
            test split.
        n: how many puzzles (None: all, 500 of a generated set).
        level: one level, a list (a curriculum) or weights by level; None for all.
        prompt: the prompt wording, `paper` or `corrected`.
        allow_test: allow the test split, with a warning and no leakage check.
        workers: generator processes.
        prompt_format: `conversational` or `standard`.
        exclude: puzzles no row may share a grid with.

    Returns:
        The `datasets.Dataset` of prompt rows."""
    from datasets import Dataset

    check_prompt_kind(prompt)
    if prompt_format not in PROMPT_FORMATS:
        raise ValueError(
            f"prompt_format must be one of {', '.join(PROMPT_FORMATS)}; got {prompt_format!r}"
        )
    records = prompt_records(source, n, level, allow_test, workers, exclude)
    return Dataset.from_list([prompt_row(record, prompt, prompt_format) for record in records])


def parse_level_argument(text: str | None) -> Level:
    """`--level`: `3`, `1,2` (a curriculum) or `1:0.7,2:0.3` (weights); empty for the mix.

    Args:
        text: the `--level` value, or None.

    Returns:
        The level argument `prompt_dataset` takes (None for the mix)."""
    if not text:
        return None
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        if all(":" in part for part in parts):
            return {int(p.split(":")[0]): float(p.split(":")[1]) for p in parts}
        levels = [int(part) for part in parts]
    except ValueError:
        raise ValueError(f"--level must be like 3, 1,2 or 1:0.7,2:0.3; got {text!r}") from None
    return levels[0] if len(levels) == 1 else levels


def main(argv: Sequence[str] | None = None) -> None:
    """Write a prompt dataset as parquet (`.parquet`) or JSON lines (`.jsonl`).

    Args:
        argv: the command-line arguments (None: `sys.argv[1:]`)."""
    parser = argparse.ArgumentParser(description="Write a SPaRC prompt dataset for training.")
    parser.add_argument("--source", default="generated:0", help="generated:SEED, a file, train")
    parser.add_argument("--n", type=int, default=None, help="number of puzzles (generated: 500)")
    parser.add_argument("--level", default=None, help="3, 1,2 (curriculum) or 1:0.7,2:0.3")
    parser.add_argument("--prompt", default="paper", choices=("paper", "corrected"))
    parser.add_argument("--format", default="conversational", choices=PROMPT_FORMATS)
    parser.add_argument("--workers", type=int, default=1, help="generator processes")
    parser.add_argument("--allow-test", action="store_true", help="build from the test split")
    parser.add_argument(
        "--exclude", default=None, help="a file (records or prompt rows): share no grid with it"
    )
    parser.add_argument("--out", type=Path, required=True, help="a .parquet or .jsonl file")
    args = parser.parse_args(argv)
    if args.out.suffix not in (".parquet", ".jsonl"):
        parser.error("--out must end in .parquet or .jsonl")
    dataset = prompt_dataset(
        args.source,
        args.n,
        parse_level_argument(args.level),
        args.prompt,
        allow_test=args.allow_test,
        workers=args.workers,
        prompt_format=args.format,
        exclude=args.exclude,
    )
    if args.out.suffix == ".parquet":
        dataset.to_parquet(str(args.out))
    else:
        dataset.to_json(str(args.out), lines=True, force_ascii=False)
    print(f"wrote {len(dataset)} prompts to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
