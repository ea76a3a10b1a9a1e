"""Stratified samples of the test split for cheap runs: strata are level x published difficulty
(how many published runs solved the puzzle). A fixed share of the sample goes to the puzzles no
published run solved (by level, in proportion to size: what a model stronger than every
published run is measured on); the rest by Neyman allocation on the published runs' spread.
Balanced (rejective) draws: of many seeded stratified candidates, the one whose Horvitz-Thompson
totals of the 2PL chances at several abilities best match the split's. Each sampled puzzle
carries its Horvitz-Thompson weight N_h/n_h (the stratified design's, see `balanced_subset`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from inspect_sparc.published_runs.irt import ItemModel

#: Difficulty bins by the share of published runs that solved a puzzle: none, up to 10%, more.
SHARE_EDGES = (0.0, 0.10)
BINS = 3
#: Every stratum gets at least this many puzzles (or all of it), so each has a variance.
MIN_PER_STRATUM = 2
#: Floor of a stratum's assumed spread in the allocation: a stratum the published runs never
#: solve still gets puzzles in proportion to its size, for models stronger than them.
SPREAD_FLOOR = 0.15
#: Share of a subset given to the puzzles no published run solved (the trade-off between models
#: like the published ones, measured on the other puzzles, and stronger models; see the docs).
UNSOLVED_SHARE = 0.6
#: Stratified candidates drawn for a balanced subset (the best-matching one is kept).
CANDIDATES = 2000
#: Abilities the balanced draw matches, as published-ability mean + this many spreads: across
#: the published runs and beyond them (where a model solving 50-95% of the split lies).
BALANCE_ABILITIES = (-1.5, -0.5, 0.5, 1.5, 3.0, 4.5, 6.0)


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
        """The Horvitz-Thompson weight N_h / n_h of each chosen puzzle.

        Returns:
            One weight per chosen puzzle, in `chosen` order."""
        ratio = self.population / np.maximum(self.sample_sizes, 1)
        return np.asarray(ratio[self.strata[self.chosen]])


def difficulty_bins(solved: np.ndarray) -> np.ndarray:
    """0 for a puzzle no published run solved, 1 for one solved by at most 10% of the runs
    that ran it, 2 above.

    Args:
        solved: published runs x puzzles verdicts (NaN where not run).

    Returns:
        The bin of each puzzle (0, 1 or 2)."""
    share = np.nanmean(solved, axis=0)
    return np.where(share <= SHARE_EDGES[0], 0, np.where(share <= SHARE_EDGES[1], 1, 2))


def strata_of(levels: np.ndarray, solved: np.ndarray) -> np.ndarray:
    """Stratum index (level - 1) * BINS + difficulty bin of each puzzle.

    Args:
        levels: each puzzle's level (1 to 5).
        solved: published runs x puzzles verdicts (NaN where not run).

    Returns:
        The stratum of each puzzle, 0 to 5 * BINS - 1."""
    return np.asarray((levels - 1) * BINS + difficulty_bins(solved))


def allocate(
    size: int, population: np.ndarray, spread: np.ndarray, minimum: int = MIN_PER_STRATUM
) -> np.ndarray:
    """Neyman allocation of `size` puzzles: n_h proportional to N_h S_h (S_h floored), at least
    `minimum` and at most N_h, summing to `size` (largest remainders).

    Args:
        size: puzzles to allocate.
        population: each stratum's size N_h.
        spread: each stratum's assumed standard deviation S_h.
        minimum: the fewest puzzles a stratum gets (all of it when it is smaller).

    Returns:
        The sample size of each stratum.

    Raises:
        ValueError: `size` cannot give every stratum its minimum."""
    floor = np.minimum(population, minimum)
    if floor.sum() > size:
        raise ValueError(f"{size} puzzles cannot give {minimum} to each stratum")
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


def split_allocation(
    size: int, population: np.ndarray, spread: np.ndarray, unsolved_share: float
) -> np.ndarray:
    """`size` puzzles over the strata: round(size * unsolved_share) to the strata of difficulty
    bin 0 (no published run solved them) in proportion to their size, the rest to the other
    strata by Neyman allocation; each stratum at least MIN_PER_STRATUM (or all of it).

    Args:
        size: puzzles in the subset.
        population: each stratum's size N_h.
        spread: each stratum's published spread (`stratum_spread`).
        unsolved_share: the share of `size` for bin 0.

    Returns:
        The sample size of each stratum."""
    never = np.arange(population.size) % BINS == 0
    unsolved = round(size * unsolved_share)
    sizes = np.zeros(population.size, dtype=int)
    sizes[never] = allocate(unsolved, population[never], np.ones(never.sum()))
    sizes[~never] = allocate(size - unsolved, population[~never], spread[~never])
    return sizes


def stratum_spread(strata: np.ndarray, solved: np.ndarray, count: int) -> np.ndarray:
    """Root mean over the published runs of each stratum's Bernoulli variance p(1-p).

    Args:
        strata: each puzzle's stratum.
        solved: published runs x puzzles verdicts (NaN where not run).
        count: the number of strata.

    Returns:
        Each stratum's spread (0 for an empty stratum)."""
    spread = np.zeros(count)
    for h in range(count):
        rates = np.nanmean(solved[:, strata == h], axis=1)
        rates = rates[~np.isnan(rates)]
        spread[h] = np.sqrt(np.mean(rates * (1 - rates))) if rates.size else 0.0
    return spread


def balance_matrix(model: ItemModel) -> np.ndarray:
    """The balancing variables, puzzles x variables: each puzzle's 2PL chance at each of
    BALANCE_ABILITIES (0 for a puzzle no published run solved).

    Args:
        model: the 2PL fit.

    Returns:
        puzzles x len(BALANCE_ABILITIES) chances."""
    thetas = model.ability_mean + model.ability_sd * np.array(BALANCE_ABILITIES)
    return np.stack([np.where(model.placed, model.p(t), 0.0) for t in thetas], axis=1)


def balanced_subset(
    size: int,
    levels: np.ndarray,
    solved: np.ndarray,
    model: ItemModel,
    seed: int,
    name: str = "",
    unsolved_share: float = UNSOLVED_SHARE,
    candidates: int = CANDIDATES,
) -> Subset:
    """A balanced stratified sample of `size` puzzles: strata and sizes from the published
    verdicts (`split_allocation`), then `candidates` stratified draws from `seed`, keeping the
    one whose Horvitz-Thompson totals of `balance_matrix(model)` are closest (sum of squares,
    as shares of the split) to the split's own (rejective sampling; the design variance the
    estimators use is the stratified one, which ignores the balancing and so overstates it).

    Args:
        size: puzzles in the subset.
        levels: each puzzle's level.
        solved: published runs x puzzles verdicts (NaN where not run).
        model: the 2PL fit on the same runs.
        seed: the draws' seed.
        name: the subset's name.
        unsolved_share: share of `size` for the puzzles no published run solved.
        candidates: stratified draws to choose from.

    Returns:
        The chosen sample."""
    strata = strata_of(levels, solved)
    count = 5 * BINS
    population = np.bincount(strata, minlength=count)
    spread = stratum_spread(strata, solved, count)
    sizes = split_allocation(size, population, spread, unsolved_share)
    aux = balance_matrix(model)
    target = aux.mean(axis=0)
    weight = population / np.maximum(sizes, 1) / strata.size  # HT weight, as a share of the split
    keys = np.random.default_rng(seed).random((candidates, strata.size))
    drawn = []  # candidates x size: each stratum's n_h members with the smallest keys
    for h in np.flatnonzero(sizes):
        members = np.flatnonzero(strata == h)
        drawn.append(members[np.argsort(keys[:, members], axis=1, kind="stable")[:, : sizes[h]]])
    chosen = np.concatenate(drawn, axis=1)
    totals = np.einsum("cn,cnv->cv", weight[strata[chosen]], aux[chosen])
    best = int(np.argmin(((totals - target) ** 2).sum(axis=1)))
    return Subset(name, strata, population, sizes, np.sort(chosen[best]))
