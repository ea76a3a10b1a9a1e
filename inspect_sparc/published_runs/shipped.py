"""The fixed, versioned subsets (`informative:50/100/200`) and the fitted 2PL puzzles that the
package ships (data/subsets.csv, data/irt_items.csv), how they are built, and how to read them.

Both are built from a frozen list of published runs (data/subset_runs.txt: the 59 shipped when
version 2 was built), so adding a published run later changes neither. Changing what `build`
writes changes which puzzles a subset run gets: bump SUBSETS_VERSION (and the versions of the
tasks that take `puzzles=`) when it does."""

from __future__ import annotations

import csv
import io
import json
from functools import cache
from importlib.resources import files
from pathlib import Path

import numpy as np

from inspect_sparc.published_runs.irt import ItemModel, fit_2pl
from inspect_sparc.published_runs.subsets import (
    BALANCE_ABILITIES,
    CANDIDATES,
    UNSOLVED_SHARE,
    Subset,
    balanced_subset,
)
from inspect_sparc.published_runs.verdicts import DATA, Verdicts, load_verdicts


def frozen_run_ids() -> tuple[str, ...]:
    """The run ids the shipped subsets and fit are built from (data/subset_runs.txt).

    Returns:
        The run ids, in the file's order."""
    text = files(DATA).joinpath(FROZEN_RUNS).read_text("utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip())


def frozen_verdicts(verdicts: Verdicts) -> np.ndarray:
    """The frozen runs' rows of `verdicts.solved`, in the frozen list's order (KeyError when
    one of them is missing: the shipped files could not be rebuilt).

    Args:
        verdicts: the published verdicts, the frozen runs among them.

    Returns:
        frozen runs x puzzles verdicts (1.0/0.0, NaN where a run did not run a puzzle).

    Raises:
        KeyError: a frozen run is not in `verdicts`."""
    frozen = frozen_run_ids()
    for run_id in frozen:
        verdicts.run(run_id)  # KeyError naming the runs there are
    return np.stack([verdicts.row(run_id) for run_id in frozen])


SUBSETS_VERSION = 2
SIZES = (50, 100, 200)
SEED = 20261205
#: The published runs the subsets and the fit are built from (one run id a line).
FROZEN_RUNS = "subset_runs.txt"
KIND = "informative"
NAMES = tuple(f"{KIND}:{size}" for size in SIZES)


def build(out: Path, verdicts: Verdicts | None = None) -> None:
    """Write subsets.csv (each puzzle's level and stratum, and its Horvitz-Thompson weight in
    each subset it is in) and irt_items.csv + irt_model.json (the 2PL fit), all from the frozen
    runs of `verdicts` (default: the shipped ones); other runs in `verdicts` are ignored.

    Args:
        out: the folder to write the three files to (it must exist).
        verdicts: the published verdicts (None: the shipped ones)."""
    verdicts = verdicts or load_verdicts()
    solved = frozen_verdicts(verdicts)
    model = fit_2pl(solved)
    subsets = [
        balanced_subset(size, verdicts.levels, solved, model, SEED + size, f"{KIND}:{size}")
        for size in SIZES
    ]
    with (out / "subsets.csv").open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["puzzle_id", "level", "stratum", *NAMES])
        weights = []
        for subset in subsets:
            column = np.full(len(verdicts.puzzle_ids), np.nan)
            column[subset.chosen] = subset.weights()
            weights.append(column)
        for i, pid in enumerate(verdicts.puzzle_ids):
            cells = ["" if np.isnan(w[i]) else f"{w[i]:.6g}" for w in weights]
            writer.writerow([pid, verdicts.levels[i], subsets[0].strata[i], *cells])
    with (out / "irt_items.csv").open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["puzzle_id", "a", "b"])
        for pid, a, b in zip(verdicts.puzzle_ids, model.a, model.b, strict=True):
            writer.writerow(
                [pid, "" if np.isnan(a) else f"{a:.4f}", "" if np.isnan(b) else f"{b:.4f}"]
            )
    meta = {
        "version": SUBSETS_VERSION,
        "seed": SEED,
        "unsolved_share": UNSOLVED_SHARE,
        "candidates": CANDIDATES,
        "balance_abilities": list(BALANCE_ABILITIES),
        "ability_mean": round(model.ability_mean, 4),
        "ability_sd": round(model.ability_sd, 4),
        "ability_low": round(model.ability_low, 4),
        "ability_high": round(model.ability_high, 4),
        "runs": list(frozen_run_ids()),
    }
    (out / "irt_model.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def _rows(name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(files(DATA).joinpath(name).read_text("utf-8"))))


def check_subset_name(name: str) -> str:
    """`name` if it is a shipped subset (`informative:100`), else ValueError naming them.

    Args:
        name: what the user passed as `puzzles=`.

    Returns:
        `name`, unchanged.

    Raises:
        ValueError: `name` is not a shipped subset."""
    if name not in NAMES:
        raise ValueError(f"puzzles={name!r}: choose one of {', '.join(NAMES)} (or all)")
    return name


@cache
def load_subset(name: str) -> Subset:
    """A shipped subset, over the split's puzzles in verdicts order.

    Args:
        name: a shipped subset (`informative:100`).

    Returns:
        The subset: every puzzle's stratum, the stratum sizes and the chosen puzzles."""
    check_subset_name(name)
    rows = _rows("subsets.csv")
    strata = np.array([int(r["stratum"]) for r in rows])
    chosen = np.array([i for i, r in enumerate(rows) if r[name]], dtype=int)
    population = np.bincount(strata, minlength=int(strata.max()) + 1)
    sizes = np.bincount(strata[chosen], minlength=population.size)
    return Subset(name, strata, population, sizes, chosen)


def subset_puzzles(name: str) -> dict[str, float]:
    """Puzzle id -> Horvitz-Thompson weight of a shipped subset (what a task run records).

    Args:
        name: a shipped subset (`informative:100`).

    Returns:
        The subset's puzzle ids and their weights (a stratum's size over its sample size)."""
    check_subset_name(name)
    return {r["puzzle_id"]: float(r[name]) for r in _rows("subsets.csv") if r[name]}


@cache
def load_item_model() -> ItemModel:
    """The shipped 2PL fit (puzzles in verdicts order).

    Returns:
        The fitted puzzles (NaN a and b where not placed) and the ability prior and range."""
    rows = _rows("irt_items.csv")
    meta = json.loads(files(DATA).joinpath("irt_model.json").read_text("utf-8"))
    a = np.array([float(r["a"]) if r["a"] else np.nan for r in rows])
    b = np.array([float(r["b"]) if r["b"] else np.nan for r in rows])
    return ItemModel(
        a,
        b,
        ~np.isnan(a),
        meta["ability_mean"],
        meta["ability_sd"],
        meta["ability_low"],
        meta["ability_high"],
    )
