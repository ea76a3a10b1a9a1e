"""Which puzzles a task runs: one `PuzzleSelection`, built once from the task's arguments.

The only place that knows the arguments that pick puzzles (`level`, `puzzles`, `source`, `split`,
`subset`; AlgoPuzzleVQA's `puzzle` and `source`), which task takes which (`SELECTION_ARGUMENTS`),
what a task fixes instead (`sparc_hard` runs level 5), how they are checked and what they say in
the task's metadata. Every task builds its selection with `PuzzleSelection.from_arguments` and
hands it to its dataset (`evals/sparc/dataset.py:selected_dataset`, `algopuzzlevqa_dataset`);
the checks raise the one-line errors `evals/errors.py` shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES
from inspect_sparc.core.algopuzzlevqa.puzzles import select_puzzles as select_algopuzzlevqa
from inspect_sparc.core.puzzle.parse import LEVELS, parse_levels
from inspect_sparc.core.sources import load_records

#: The arguments that pick a SPaRC task's puzzles.
SPARC_SELECTION = ("level", "source", "split", "subset", "puzzles")
#: The selection arguments each task takes (its other arguments are its protocol's).
SELECTION_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "sparc": SPARC_SELECTION,
    "sparc_hard": ("source", "split", "subset"),
    "sparc_gym": SPARC_SELECTION,
    "sparc_visual": SPARC_SELECTION,
    "sparc_agent": SPARC_SELECTION,
    "algopuzzlevqa": ("puzzle", "source"),
}
#: What a task fixes instead of taking it as an argument.
FIXED: dict[str, dict[str, Any]] = {"sparc_hard": {"level": 5}}
#: `puzzles=` for every puzzle of the source (no shipped subset).
ALL_PUZZLES = "all"


@dataclass(frozen=True)
class PuzzleSelection:
    """The puzzles one task runs, its arguments checked and normalised.

    Attributes:
        task: The task it was built for (`sparc`, `sparc_hard`, ..., `algopuzzlevqa`).
        source: Where records come from: a hub, "sample", "generated:SEED", a path ("github",
            "sample" or a folder for AlgoPuzzleVQA).
        split: "test" or "train" (SPaRC).
        subset: The dataset config, "all" or a per-rule one (SPaRC).
        levels: Only these levels (sorted, 1-5), None for all (SPaRC).
        puzzles: "all", or a shipped subset of the test split, e.g. "informative:100" (SPaRC).
        kinds: AlgoPuzzleVQA's puzzle names, in the authors' order; empty for SPaRC.
    """

    task: str
    source: str
    split: str = "test"
    subset: str = "all"
    levels: tuple[int, ...] | None = None
    puzzles: str = ALL_PUZZLES
    kinds: tuple[str, ...] = ()

    @classmethod
    def from_arguments(cls, task: str, **arguments: Any) -> PuzzleSelection:
        """The selection of `task` from its selection arguments, as `-T` gives them.

        Args:
            task: The task's name, a key of `SELECTION_ARGUMENTS`.
            **arguments: Exactly the selection arguments `task` takes.

        Returns:
            The checked selection (ValueError naming the argument and its valid values else).
        """
        taken = SELECTION_ARGUMENTS[task]
        if sorted(arguments) != sorted(taken):  # a programming error, never a user's
            raise TypeError(f"{task} selects puzzles by {', '.join(taken)}; got {list(arguments)}")
        given = {**arguments, **FIXED.get(task, {})}
        if task == "algopuzzlevqa":
            kinds = tuple(select_algopuzzlevqa(given["puzzle"]))
            selection = cls(task=task, source=given["source"], kinds=kinds)
        else:
            puzzles = given.get("puzzles", ALL_PUZZLES)
            check_subset(puzzles, given["split"], given["subset"])  # before levels, as ever
            levels = parse_levels(given["level"])
            selection = cls(task, given["source"], given["split"], given["subset"], levels, puzzles)
        selection.validate()
        return selection

    def validate(self) -> None:
        """Check the fields hold together (a selection built by hand too); ValueError if not."""
        if self.task not in SELECTION_ARGUMENTS:
            raise ValueError(f"no task {self.task!r}; tasks: {', '.join(SELECTION_ARGUMENTS)}")
        if self.task == "algopuzzlevqa":
            if not self.kinds or not set(self.kinds) <= set(PUZZLES):
                raise ValueError(f"kinds must be AlgoPuzzleVQA puzzle names; got {self.kinds}")
            return
        if self.levels is not None and (not self.levels or not set(self.levels) <= set(LEVELS)):
            raise ValueError(f"levels must be some of {', '.join(map(str, LEVELS))}")
        check_subset(self.puzzles, self.split, self.subset)
        fixed = FIXED.get(self.task, {}).get("level")
        if fixed is not None and self.levels != (fixed,):
            raise ValueError(f"{self.task} runs level {fixed} only; got levels {self.levels}")

    def source_metadata(self) -> dict[str, Any]:
        """Where the puzzles came from, as the task's metadata says it (after the prompt).

        Returns:
            `{"source", "split", "subset"}` as the selection holds them."""
        return {"source": self.source, "split": self.split, "subset": self.subset}

    def subset_metadata(self) -> dict[str, Any]:
        """The task metadata of a shipped subset (the report finds its weights by name and
        version); nothing for every puzzle.

        Returns:
            `{"puzzles": name, "puzzles_version": version}` of the shipped subset, or `{}` when
            the selection takes every puzzle."""
        from inspect_sparc.published_runs.shipped import SUBSETS_VERSION

        if self.puzzles == ALL_PUZZLES:
            return {}
        return {"puzzles": self.puzzles, "puzzles_version": SUBSETS_VERSION}

    def records(self) -> list[dict[str, Any]]:
        """The SPaRC records of the source, config and split, in dataset order.

        Returns:
            The records as published, one dict per puzzle, every level (the dataset keeps the
            selected levels and subset); a source that cannot be read raises SourceError."""
        return load_records(self.source, self.split, self.subset)


def check_subset(puzzles: str, split: str, subset: str) -> None:
    """`puzzles=`: "all", or a shipped subset's name, which holds test puzzles of config all.

    Args:
        puzzles: the `puzzles` argument: "all" or a shipped subset's name (`informative:100`);
            an unknown name raises ValueError listing the shipped ones.
        split: the `split` argument; a subset needs "test".
        subset: the `subset` argument (dataset config); a subset needs "all"."""
    from inspect_sparc.published_runs.shipped import check_subset_name

    if puzzles == ALL_PUZZLES:
        return
    check_subset_name(puzzles)
    if (split, subset) != ("test", "all"):
        raise ValueError(f"puzzles={puzzles} is a subset of the test split of config all")
