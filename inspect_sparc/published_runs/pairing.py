"""A run's verdicts paired with each published run on the puzzles both ran: the shared n, both
solved counts and the discordant counts, overall and per level (the inputs of an exact paired
interval and McNemar test, which the caller computes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from inspect_sparc.contract.protocols import protocol_of, published_counterpart
from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.published_runs.verdicts import PublishedRun, Verdicts, load_verdicts

#: Our `prompt` settings -> the published `prompt` they reproduce (runs.csv's column).
PROMPT_MATCH = {"paper": "default", "default": "default", "no-reason": "no-reason"}


def published_protocol(task: str, traceback: bool = False, observation: str = "text") -> str | None:
    """The published protocol (runs.csv) a run of our `task` pairs with: `sparc`/`sparc_hard`
    single_shot; `sparc_gym` gym, gym_traceback or (image observation) gym_visual; None for the
    tasks no published per-puzzle run matches (`sparc_visual`, `sparc_agent`). The table is
    `contract.protocols`, the one the report reads a run's protocol from.

    Args:
        task: our task's name (`sparc`, `sparc_gym`, ...).
        traceback: the gym's traceback setting.
        observation: the gym's observation (`text` or `image`).

    Returns:
        runs.csv's protocol name, or None where no published run matches."""
    settings = {"traceback": traceback, "observation": observation}
    return published_counterpart(protocol_of(task, settings))


@dataclass(frozen=True)
class PairedCounts:
    """One run against one published run on their shared puzzles of one level (None: all).

    With 0/1 verdicts every count is a whole number; with a run's per-puzzle mean over epochs
    (a value in [0, 1]) `run_solved` and `only_run`/`only_published` are expected counts
    (sum of x, sum of x(1-y), sum of (1-x)y)."""

    published: PublishedRun
    level: int | None
    n: int
    run_solved: float
    published_solved: int
    only_run: float
    only_published: float
    whole_split: bool

    @property
    def difference(self) -> float:
        """Run accuracy minus published accuracy on the shared puzzles (NaN when none).

        Returns:
            The difference as a fraction (NaN when no puzzle is shared)."""
        return (self.only_run - self.only_published) / self.n if self.n else float("nan")


def matching_runs(
    protocol: str, prompt: str | None = "default", verdicts: Verdicts | None = None
) -> list[PublishedRun]:
    """The published runs of `protocol` (runs.csv's names: `single_shot`, `gym`, ...) and
    `prompt` (runs.csv's `default`/`no-reason`, or ours: `paper`; None: any prompt).

    Args:
        protocol: runs.csv's protocol name.
        prompt: runs.csv's prompt or ours (None: any).
        verdicts: the published verdicts (None: the shipped ones).

    Returns:
        The matching runs, in runs.csv order."""
    verdicts = verdicts or load_verdicts()
    wanted = None if prompt is None else PROMPT_MATCH.get(prompt, prompt)
    return [
        run
        for run in verdicts.runs
        if run.protocol == protocol and (wanted is None or run.prompt == wanted)
    ]


@dataclass(frozen=True)
class SharedPuzzles:
    """The puzzles a run and one published run both ran, in the split's order: their ids and
    levels, the run's values (0/1 or a mean in [0, 1]) and the published 0/1 verdicts."""

    ids: tuple[str, ...]
    levels: np.ndarray
    run: np.ndarray
    published: np.ndarray
    whole_split: bool


def shared_puzzles_with(
    run_verdicts: Mapping[str, float], published: PublishedRun, verdicts: Verdicts | None = None
) -> SharedPuzzles:
    """`run_verdicts` (puzzle id -> 0/1 or a value in [0, 1]; ids outside the test split are
    ignored) and one published run on the puzzles both ran (`whole_split`: the run has every
    test puzzle).

    Args:
        run_verdicts: puzzle id -> the run's verdict (0/1, or a mean over epochs in [0, 1]).
        published: the published run to pair with.
        verdicts: the published verdicts (None: the shipped ones).

    Returns:
        The shared puzzles with both runs' values.

    Raises:
        ValueError: a verdict lies outside [0, 1]."""
    verdicts = verdicts or load_verdicts()
    theirs = verdicts.row(published.run_id)
    index = {pid: i for i, pid in enumerate(verdicts.puzzle_ids)}
    at = np.array(sorted(index[p] for p in run_verdicts if p in index), dtype=int)
    ids = [verdicts.puzzle_ids[i] for i in at]
    ours = np.array([float(run_verdicts[p]) for p in ids], dtype=float)
    if np.any((ours < 0) | (ours > 1)):
        raise ValueError("a run's verdicts must lie in [0, 1]")
    whole = at.size == len(verdicts.puzzle_ids)
    shared = ~np.isnan(theirs[at])
    at, ours = at[shared], ours[shared]
    return SharedPuzzles(
        tuple(verdicts.puzzle_ids[i] for i in at), verdicts.levels[at], ours, theirs[at], whole
    )


def pair_with(
    run_verdicts: Mapping[str, float], published: PublishedRun, verdicts: Verdicts | None = None
) -> list[PairedCounts]:
    """`run_verdicts` (puzzle id -> 0/1 or a value in [0, 1]; ids outside the test split are
    ignored) against one published run: the overall row, then one row per level.

    Args:
        run_verdicts: puzzle id -> the run's verdict (0/1, or a mean over epochs in [0, 1]).
        published: the published run to pair with.
        verdicts: the published verdicts (None: the shipped ones).

    Returns:
        Six rows: all levels (level None), then levels 1 to 5."""
    shared = shared_puzzles_with(run_verdicts, published, verdicts)
    rows = []
    for level in (None, *LEVELS):
        keep = np.ones(shared.run.size, bool) if level is None else shared.levels == level
        x, y = shared.run[keep], shared.published[keep]
        rows.append(
            PairedCounts(
                published=published,
                level=level,
                n=int(keep.sum()),
                run_solved=float(x.sum()),
                published_solved=int(y.sum()),
                only_run=float((x * (1 - y)).sum()),
                only_published=float(((1 - x) * y).sum()),
                whole_split=shared.whole_split,
            )
        )
    return rows


def paired_against_published(
    run_verdicts: Mapping[str, float],
    protocol: str,
    prompt: str | None = "default",
    verdicts: Verdicts | None = None,
) -> list[PairedCounts]:
    """`pair_with` for every published run of `protocol` and `prompt`, in runs.csv order.

    Args:
        run_verdicts: puzzle id -> the run's verdict (0/1, or a mean over epochs in [0, 1]).
        protocol: runs.csv's protocol name.
        prompt: runs.csv's prompt or ours (None: any).
        verdicts: the published verdicts (None: the shipped ones).

    Returns:
        Six rows per matching published run (`pair_with`)."""
    verdicts = verdicts or load_verdicts()
    rows: list[PairedCounts] = []
    for published in matching_runs(protocol, prompt, verdicts):
        rows.extend(pair_with(run_verdicts, published, verdicts))
    return rows


def shared_puzzles(run_ids: Sequence[str], verdicts: Verdicts | None = None) -> list[str]:
    """The puzzles every one of `run_ids` ran (a published run may miss a few).

    Args:
        run_ids: published run ids.
        verdicts: the published verdicts (None: the shipped ones).

    Returns:
        The puzzle ids, in the split's order."""
    verdicts = verdicts or load_verdicts()
    ran = np.all([~np.isnan(verdicts.row(r)) for r in run_ids], axis=0)
    return [p for p, keep in zip(verdicts.puzzle_ids, ran, strict=True) if keep]
