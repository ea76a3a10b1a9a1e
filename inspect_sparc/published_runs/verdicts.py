"""The shipped per-puzzle verdicts of the published runs on the SPaRC test split (data/README.md
names every source file, its commit and sha256)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import numpy as np

DATA = "inspect_sparc.published_runs.data"


@dataclass(frozen=True)
class PublishedRun:
    """One published run: what it is and where its verdicts come from."""

    run_id: str
    protocol: str
    prompt: str
    model: str
    n: int
    solved: int
    source_repo: str
    commit: str
    path: str
    sha256: str


@dataclass(frozen=True)
class Verdicts:
    """Puzzles x runs: `solved[r, p]` is 1.0/0.0, or NaN where run r did not run puzzle p."""

    puzzle_ids: tuple[str, ...]
    levels: np.ndarray
    runs: tuple[PublishedRun, ...]
    solved: np.ndarray

    def run(self, run_id: str) -> PublishedRun:
        """The run called `run_id` (KeyError naming the known ones otherwise).

        Args:
            run_id: a run id of runs.csv.

        Returns:
            The run.

        Raises:
            KeyError: no run is called `run_id`."""
        for run in self.runs:
            if run.run_id == run_id:
                return run
        raise KeyError(
            f"no published run {run_id!r}; known: {', '.join(r.run_id for r in self.runs)}"
        )

    def row(self, run_id: str) -> np.ndarray:
        """One run's verdicts over `puzzle_ids` (NaN where not run).

        Args:
            run_id: a run id of runs.csv.

        Returns:
            The 1.0/0.0/NaN verdicts, one per puzzle."""
        return np.asarray(self.solved[[r.run_id for r in self.runs].index(run_id)])


def _text(name: str) -> str:
    return files(DATA).joinpath(name).read_text(encoding="utf-8")


@cache
def load_verdicts() -> Verdicts:
    """The shipped verdicts (read once): 500 test puzzles, ordered by level then id.

    Returns:
        The published runs and their verdicts."""
    runs = tuple(
        PublishedRun(**{**row, "n": int(row["n"]), "solved": int(row["solved"])})  # type: ignore[arg-type]
        for row in csv.DictReader(io.StringIO(_text("runs.csv")))
    )
    reader = csv.reader(io.StringIO(_text("verdicts.csv")))
    header = next(reader)
    if header[2:] != [r.run_id for r in runs]:
        raise ValueError("verdicts.csv columns do not match runs.csv")
    rows = list(reader)
    solved = np.array(
        [[float(cell) if cell else np.nan for cell in row[2:]] for row in rows], dtype=float
    ).T
    return Verdicts(
        puzzle_ids=tuple(row[0] for row in rows),
        levels=np.array([int(row[1]) for row in rows]),
        runs=runs,
        solved=solved,
    )
