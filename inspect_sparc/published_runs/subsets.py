"""Stratified samples of the test split for cheap runs: strata are level x published difficulty
(how many published runs solved the puzzle), sizes by Neyman allocation on the published runs'
spread, drawn with a fixed seed. Each sampled puzzle carries its Horvitz-Thompson weight N_h/n_h."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from inspect_sparc.published_runs.verdicts import Verdicts

#: Difficulty bins by the share of published runs that solved a puzzle: none, up to 10%, more.
SHARE_EDGES = (0.0, 0.10)
BINS = 3
#: Every stratum gets at least this many puzzles (or all of it), so each has a variance.
MIN_PER_STRATUM = 3
#: Floor of a stratum's assumed spread in the allocation: a stratum the published runs never
#: solve still gets puzzles in proportion to its size, for models stronger than them.
SPREAD_FLOOR = 0.15


@dataclass(frozen=True)
class Subset:
    """A stratified sample of the split: `strata[i]` of every puzzle of the split, the sizes
    N_h and n_h, and the indices (into the split's puzzles) of the sample."""

    name: str
    strata: np.ndarray
    population: np.ndarray
    sample_sizes: np.ndarray
    chosen: np.ndarray

    def weights(self) -> np.ndarray:
        """The Horvitz-Thompson weight N_h / n_h of each chosen puzzle."""
        ratio = self.population / np.maximum(self.sample_sizes, 1)
        return np.asarray(ratio[self.strata[self.chosen]])


def difficulty_bins(solved: np.ndarray) -> np.ndarray:
    """0 for a puzzle no published run solved, 1 for one solved by at most 10% of the runs
    that ran it, 2 above."""
    share = np.nanmean(solved, axis=0)
    return np.where(share <= SHARE_EDGES[0], 0, np.where(share <= SHARE_EDGES[1], 1, 2))


def strata_of(levels: np.ndarray, solved: np.ndarray) -> np.ndarray:
    """Stratum index (level - 1) * BINS + difficulty bin of each puzzle."""
    return np.asarray((levels - 1) * BINS + difficulty_bins(solved))


def allocate(size: int, population: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """Neyman allocation of `size` puzzles: n_h proportional to N_h S_h (S_h floored), at least
    MIN_PER_STRATUM and at most N_h, summing to `size` (largest remainders)."""
    floor = np.minimum(population, MIN_PER_STRATUM)
    if floor.sum() > size:
        raise ValueError(f"{size} puzzles cannot give {MIN_PER_STRATUM} to each stratum")
    share = population * np.maximum(spread, SPREAD_FLOOR)
    sizes = floor.astype(float)
    for _ in range(len(population)):  # reallocate what the caps and floors leave over
        free = sizes < population
        extra = size - sizes.sum()
        if extra <= 1e-9 or not free.any():
            break
        want = extra * share * free / (share * free).sum()
        sizes = np.minimum(population, sizes + want)
    whole = np.floor(sizes).astype(int)
    rest = size - whole.sum()
    order = np.argsort(-(sizes - whole) + (whole >= population) * 10, kind="stable")
    for at in order[:rest]:
        whole[at] += 1
    return np.asarray(whole)


def stratum_spread(strata: np.ndarray, solved: np.ndarray, count: int) -> np.ndarray:
    """Root mean over the published runs of each stratum's Bernoulli variance p(1-p)."""
    spread = np.zeros(count)
    for h in range(count):
        rates = np.nanmean(solved[:, strata == h], axis=1)
        rates = rates[~np.isnan(rates)]
        spread[h] = np.sqrt(np.mean(rates * (1 - rates))) if rates.size else 0.0
    return spread


def draw_subset(
    size: int, levels: np.ndarray, solved: np.ndarray, seed: int, name: str = ""
) -> Subset:
    """A stratified sample of `size` puzzles of the split (levels per puzzle, published runs x
    puzzles verdicts), drawn with `seed`."""
    strata = strata_of(levels, solved)
    count = 5 * BINS
    population = np.bincount(strata, minlength=count)
    sizes = allocate(size, population, stratum_spread(strata, solved, count))
    rng = np.random.default_rng(seed)
    chosen = [
        rng.choice(np.flatnonzero(strata == h), size=sizes[h], replace=False)
        for h in range(count)
        if sizes[h]
    ]
    return Subset(name, strata, population, sizes, np.sort(np.concatenate(chosen)))


def published_subset(size: int, verdicts: Verdicts, seed: int) -> Subset:
    """`draw_subset` over all the published runs (what the shipped subsets are built from)."""
    return draw_subset(size, verdicts.levels, verdicts.solved, seed, f"informative:{size}")
