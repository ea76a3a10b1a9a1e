"""Paired comparisons of runs on the same puzzles: the 2x2 table, the difference with a paired
interval that agrees with the test beside it (Tango's score interval and the McNemar score test
it inverts for 0/1 outcomes; the paired t where epochs make per-puzzle means), each run's
per-puzzle values reduced over epochs as its log reduced them (the value its row shows),
Holm-adjusted p over the family of pairs with the simultaneous (Bonferroni) interval beside
it, the smallest difference each pair detects with 80% exact power, and each tested pair again
per level.

Each run's per-puzzle outcome is indexed by puzzle id once (`outcomes.outcome_index`); a pair
is then an index join, so the cost grows with runs x runs x puzzles, never samples x samples.
Pairs are formed within a protocol (same task, protocol, source, split and subset) and, per
model, across protocols on the same puzzles (single shot against gym against agent).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.analysis.outcomes import eligible, outcome_index
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.reducer import reducer_of, reduction_of
from inspect_sparc.report.statistics.exact import paired_mdd_exact
from inspect_sparc.report.statistics.score_intervals import (
    ALPHA,
    CONFIDENCE,
    MIN_SHARED,
    format_p,
    holm,
    is_binary,
    paired_comparison,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


#: Settings that decide which puzzles a run saw (runs compared must share them).
PUZZLE_SETTINGS = ("source", "split", "subset")


WITHIN = "within protocol"


ACROSS = "across protocols (same model)"


def _puzzle_key(run: Any) -> tuple[str, ...]:
    return tuple(str(run.get(k)) for k in PUZZLE_SETTINGS)


def candidate_pairs(runs: pd.DataFrame) -> list[tuple[Any, Any, str]]:
    """(run a, run b, scope) for every pair within a protocol and, per model, across
    protocols; runs in started order, so a is the earlier.

    Args:
        runs: the eligible runs (`outcomes.eligible`).

    Returns:
        one (a, b, scope) per pair, `scope` `WITHIN` or `ACROSS`.
    """
    pairs: list[tuple[Any, Any, str]] = []
    records = [row for _, row in runs.iterrows()]
    for a, b in combinations(records, 2):
        if _puzzle_key(a) != _puzzle_key(b):
            continue
        if a[C.TASK] == b[C.TASK] and a[C.PROTOCOL] == b[C.PROTOCOL]:
            pairs.append((a, b, WITHIN))
        elif a[C.MODEL] == b[C.MODEL] and a[C.PROTOCOL] != b[C.PROTOCOL]:
            pairs.append((a, b, ACROSS))
    return pairs


def compare(a: pd.Series, b: pd.Series, confidence: float | None = None) -> dict[str, Any] | None:
    """The comparison of two runs' per-puzzle values on the puzzles both scored (None: none
    shared): counts, the difference, and with at least `MIN_SHARED` shared puzzles the
    interval and the test it inverts (`stats.paired_comparison`: named by what the values
    are), and for 0/1 outcomes the smallest difference found with 80% exact power (none where
    no difference reaches it). With `confidence`, the interval at that level instead.

    Args:
        a: run a's per-puzzle values (0-1) by puzzle id.
        b: run b's, likewise.
        confidence: the interval's level (0-1); None for 95%.

    Returns:
        the row's fields (counts, accuracies and difference in points, interval, p, test, mdd_80,
        power), or None where the runs share no puzzle.
    """
    shared = a.index.intersection(b.index)
    if len(shared) == 0:
        return None
    x, y = a.loc[shared].to_numpy(float), b.loc[shared].to_numpy(float)
    binary = is_binary(x, y)
    only_a, only_b = float((x * (1 - y)).sum()), float(((1 - x) * y).sum())
    row: dict[str, Any] = {
        "n_shared": len(shared),
        "accuracy_a": 100 * x.mean(),
        "accuracy_b": 100 * y.mean(),
        "difference": 100 * (x.mean() - y.mean()),
    }
    if binary:
        row.update(both=int((x * y).sum()), only_a=int(only_a), only_b=int(only_b))
        row["neither"] = int(((1 - x) * (1 - y)).sum())
    if len(shared) < MIN_SHARED:
        row["test"] = f"none: fewer than {MIN_SHARED} shared puzzles"
        return row
    result = paired_comparison(x, y, CONFIDENCE if confidence is None else confidence)
    row.update(diff_ci95_low=100 * result.interval.low, diff_ci95_high=100 * result.interval.high)
    row.update(p=result.p if result.p == result.p else None, test=result.test)
    if binary:
        mdd = paired_mdd_exact(len(shared), (only_a + only_b) / len(shared))
        row["mdd_80"] = None if mdd is None else 100 * mdd
        row["power"] = "" if mdd is not None else NO_POWER
    else:
        row["power"] = "not computed for per-puzzle means"
    return row


#: What a pair's power column says where even the largest difference falls short.
NO_POWER = "no difference reaches 80% power at this n and discordance"


def simultaneous(table: pd.DataFrame, pairs: list[tuple[pd.Series, pd.Series]]) -> pd.DataFrame:
    """`table` with each tested pair's interval at 1 - 0.05 / m over the m tested pairs
    (Bonferroni: the m intervals hold together; one that excludes 0 is a pair Holm marks).

    Args:
        table: the paired rows, one per pair in `pairs`' order.
        pairs: each row's two per-puzzle value Series (a, b).

    Returns:
        `table` with `diff_simultaneous_low/high` (points; empty for untested pairs).
    """
    tested = table["p"].notna() if "p" in table else None
    if tested is None or not tested.any():
        return table
    level = 1 - ALPHA / int(tested.sum())
    lows, highs = [], []
    for keep, (a, b) in zip(tested, pairs, strict=True):
        found = compare(a, b, level) if keep else None
        lows.append(found["diff_ci95_low"] if found else None)
        highs.append(found["diff_ci95_high"] if found else None)
    return table.assign(diff_simultaneous_low=lows, diff_simultaneous_high=highs)


def paired_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """One row per pair of runs sharing puzzles: scope, the runs, how many puzzles each
    scored, share, and lost to errors, the 2x2 table, accuracy of each on the shared puzzles,
    the difference a - b in points with the interval of the test beside it, its p and the
    Holm-adjusted p over every tested pair (the family), and the smallest difference the test
    detects with 80% power.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        one row per pair (percent and points; p and p_holm as fractions); empty where no two runs
        share a puzzle.
    """
    import pandas as pd

    index, means = outcome_index(samples, runs), outcome_index(samples)
    ids = samples.groupby(C.LOG)[C.ID].agg(set).to_dict() if len(samples) else {}
    rows, pairs = [], []
    for a, b, scope in candidate_pairs(eligible(runs)):
        ia, ib = index.get(a[C.LOG]), index.get(b[C.LOG])
        note = unlike_reducers(a, b)
        if note:  # like with like: both runs' per-puzzle means of their epochs
            ia, ib = means.get(a[C.LOG]), means.get(b[C.LOG])
        if ia is None or ib is None:
            continue
        found = compare(ia, ib)
        if found is None:
            continue
        pairs.append((ia, ib))
        both_ran = len(ids.get(a[C.LOG], set()) & ids.get(b[C.LOG], set()))
        rows.append(
            {
                "scope": scope,
                "run_a": a[C.RUN],
                "run_b": b[C.RUN],
                "protocol_a": a[C.PROTOCOL],
                "protocol_b": b[C.PROTOCOL],
                "n_a": len(ia),
                "n_b": len(ib),
                "dropped_errors": both_ran - found["n_shared"],
                **found,
                "note": note,
            }
        )
    columns = ["run_a", "run_b", "scope", "protocol_a", "protocol_b", "n_a", "n_b", "n_shared"]
    columns += ["dropped_errors", "both", "only_a", "only_b", "neither", "accuracy_a"]
    columns += ["accuracy_b", "difference", "diff_ci95_low", "diff_ci95_high", "p", "p_holm"]
    columns += ["diff_simultaneous_low", "diff_simultaneous_high", "test", "mdd_80", "power"]
    table = pd.DataFrame(rows)
    if len(table) and "p" in table:
        table["p_holm"] = holm(table["p"].astype(float).tolist())
        table = simultaneous(table, pairs)
        tested = int(table["p"].notna().sum())
        table["reading"] = [reading(r, tested) for _, r in table.iterrows()]
    columns += ["reading", "note"]
    return table[[c for c in columns if c in table]] if len(table) else table


def reduction(run: Any) -> str:
    """What a run's per-puzzle value is: `mean` for one epoch (one attempt is the mean's
    estimate too) or a mean over epochs, else its reducer (`max`: solved in any epoch).

    Args:
        run: a run's row of the runs frame.

    Returns:
        `mean`, or the reducer's name.
    """
    epochs = run.get("epochs")
    if epochs is None or epochs != epochs or int(epochs) <= 1:
        return "mean"
    return reduction_of(run) or reducer_of(run)


def unlike_reducers(a: Any, b: Any) -> str:
    """Empty where two runs' per-puzzle values are alike; else the note a pair of them says:
    a max-reduced run (solved in any of its epochs) against a mean-reduced one is not a
    comparison of one thing, so both are compared on their per-puzzle means of the epochs.

    Args:
        a: run a's row of the runs frame.
        b: run b's row.

    Returns:
        the note, or "".
    """
    first, second = reduction(a), reduction(b)
    if first == second:
        return ""
    return (
        f"reducers differ ({first} vs {second}): both compared as per-puzzle means of their "
        "epochs, not as their rows show"
    )


def reading(row: Any, family: int = 1) -> str | None:
    """What a tested pair shows in words, naming the test each claim rests on: a difference
    Holm's adjustment over the `family` of tested pairs finds; one the pair's own test finds
    but Holm's does not (its own interval excludes 0, its simultaneous one need not); or none,
    with the size of difference that cannot be excluded (mdd_80), never "no difference".

    Args:
        row: a paired row (`p`, `p_holm`, the intervals, `mdd_80`).
        family: the number of tested pairs Holm's adjustment is over.

    Returns:
        the reading, or None for a pair that was not tested.
    """
    p, adjusted = row.get("p"), row.get("p_holm")
    if p is None or p != p or adjusted is None or adjusted != adjusted:
        return None
    over = f"Holm over {family} pairs" if family > 1 else "one test"
    if adjusted < ALPHA:
        return f"differs ({over}: p_holm = {format_p(adjusted)})"
    if p < ALPHA:
        return (
            f"differs on its own (p = {format_p(p)}, its interval excludes 0), not after "
            f"{over} (p_holm = {format_p(adjusted)})"
        )
    mdd = row.get("mdd_80")
    if mdd is None or mdd != mdd:
        power = row.get("power") or NO_POWER
        return f"no difference shown (p = {format_p(p)}); {power}"
    return (
        f"no difference shown (p = {format_p(p)}): a difference smaller than {mdd:.1f} points "
        "cannot be excluded"
    )


#: Shares of discordant puzzles the power table shows, and the split's sizes (all; level 5).
DISCORDANCES = (0.05, 0.10, 0.15, 0.20, 0.30)


SPLIT_SIZES = {"all 500 test puzzles": 500, "level 5 alone (89)": 89}


def power_table() -> pd.DataFrame:
    """The smallest paired difference (points) found with 80% exact power on the 500-puzzle
    test split and on its level 5, by share of discordant puzzles (`exact.paired_mdd_exact`
    of the McNemar score test the table uses); none where no difference reaches 80%.

    Returns:
        one row per discordance (percent) with the smallest difference in points at 500 and at 89
        puzzles (None where none reaches 80%).
    """
    import pandas as pd

    rows = [
        {"discordant (%)": 100 * d, **{k: mdd_points(n, d) for k, n in SPLIT_SIZES.items()}}
        for d in DISCORDANCES
    ]
    return pd.DataFrame(rows)


def level_pairs(runs: pd.DataFrame, samples: pd.DataFrame, paired: pd.DataFrame) -> pd.DataFrame:
    """Each tested pair again per level (the samples' own level): counts, difference, the
    interval and test of `compare`, and Holm's adjustment within the pair (over its levels).

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.
        paired: the paired table (`paired_table`); only its tested pairs are split by level.

    Returns:
        one row per tested pair and level (points; p as fractions); empty without tested pairs or
        levels.
    """
    import pandas as pd

    if paired.empty or "p" not in paired or samples is None or "level" not in samples:
        return pd.DataFrame()
    index = outcome_index(samples, runs)
    levels = samples.dropna(subset=[C.LEVEL]).groupby([C.LOG, "id"])[C.LEVEL].first()
    known_logs = set(levels.index.get_level_values(0))
    logs = dict(zip(runs[C.RUN], runs[C.LOG], strict=False))
    rows = []
    for _, pair in paired.dropna(subset=["p"]).iterrows():
        a, b = index.get(logs.get(pair["run_a"], "")), index.get(logs.get(pair["run_b"], ""))
        if a is None or b is None or logs[pair["run_a"]] not in known_logs:
            continue
        level_of = levels.loc[logs[pair["run_a"]]]
        found = []
        for level in sorted(set(level_of.reindex(a.index).dropna().astype(int))):
            ids = level_of.index[level_of == level]
            row = compare(a[a.index.isin(ids)], b[b.index.isin(ids)])
            if row is not None:
                found.append(
                    {"run_a": pair["run_a"], "run_b": pair["run_b"], C.LEVEL: level, **row}
                )
        tested = [r for r in found if r.get("p") is not None]
        for r, adjusted in zip(tested, holm([float(r["p"]) for r in tested]), strict=True):
            r["p_holm_in_pair"] = adjusted
        rows += found
    columns = ["run_a", "run_b", C.LEVEL, "n_shared", "both", "only_a", "only_b", "neither"]
    columns += ["difference", "diff_ci95_low", "diff_ci95_high", "p", "p_holm_in_pair", "test"]
    columns += ["mdd_80", "power"]
    table = pd.DataFrame(rows)
    return table[[c for c in columns if c in table]] if len(table) else table


def mdd_points(n: int, discordance: float) -> float | None:
    """The smallest paired difference the McNemar score test finds with 80% exact power
    (`exact.paired_mdd_exact`), in points.

    Args:
        n: shared puzzles.
        discordance: the share of puzzles exactly one run solves (0-1).

    Returns:
        the difference in points of accuracy, or None where no difference reaches 80% power.
    """
    found = paired_mdd_exact(n, discordance)
    return None if found is None else 100 * found


def by_accuracy(pairs: pd.DataFrame) -> list[str]:
    """The runs of a set of pairs, most accurate first (each run's accuracy on the puzzles it
    shares with the others, averaged over its pairs; ties in the order first met).

    Args:
        pairs: rows of the paired table (`run_a`, `accuracy_a`, `run_b`, `accuracy_b`).

    Returns:
        the run labels, in that order.
    """
    import pandas as pd

    scores = pd.concat(
        [
            pairs[["run_a", "accuracy_a"]].set_axis([C.RUN, "accuracy"], axis=1),
            pairs[["run_b", "accuracy_b"]].set_axis([C.RUN, "accuracy"], axis=1),
        ]
    )
    means = scores.groupby(C.RUN, sort=False)["accuracy"].mean()
    return list(means.sort_values(ascending=False, kind="stable").index)


def pair_rank(paired: pd.DataFrame) -> dict[str, int]:
    """Each run's place in the matrix's order (`by_accuracy` over every pair).

    Args:
        paired: the paired table (`paired_table`).

    Returns:
        run label -> its place, 0 for the most accurate.
    """
    return {run: i for i, run in enumerate(by_accuracy(paired))}


def ranked_pairs(table: pd.DataFrame, rank: dict[str, int]) -> pd.DataFrame:
    """`table`'s rows (pairs, or pairs by level) in the matrix's order: by the better-placed
    run of the pair, then the other (each row keeps its a and b, so the sign of its
    difference); per level in level order within a pair.

    Args:
        table: the paired table or the per-level one (`level_pairs`).
        rank: each run's place (`pair_rank`); a run not in it comes after every ranked one.

    Returns:
        the rows reordered (their index kept).
    """
    first = [
        min(rank.get(a, len(rank)), rank.get(b, len(rank)))
        for a, b in zip(table["run_a"], table["run_b"], strict=True)
    ]
    second = [
        max(rank.get(a, len(rank)), rank.get(b, len(rank)))
        for a, b in zip(table["run_a"], table["run_b"], strict=True)
    ]
    keys = table.assign(_first=first, _second=second)
    by = ["_first", "_second"] + ([C.LEVEL] if C.LEVEL in table else [])
    return keys.sort_values(by, kind="stable").drop(columns=["_first", "_second"])


@dataclass(frozen=True)
class PairMatrix:
    """One protocol's pairs as a square matrix: `runs` most accurate first, `difference[i, j]`
    row minus column (points, NaN where the two were not paired) and `marked[i, j]` where
    Holm's adjusted p is below 0.05."""

    protocol: str
    runs: list[str]
    difference: Any
    marked: Any


def pair_matrices(paired: pd.DataFrame, at_least: int) -> list[PairMatrix]:
    """The within-protocol pairs of each protocol with at least `at_least` runs, as matrices.

    Args:
        paired: the paired table (`paired_table`).
        at_least: the fewest runs a protocol needs for its matrix.

    Returns:
        one `PairMatrix` per such protocol, in the table's order (empty where none has enough).
    """
    import numpy as np

    found = []
    for protocol, group in paired[paired["scope"] == WITHIN].groupby("protocol_a", sort=False):
        runs = by_accuracy(group)
        if len(runs) < at_least:
            continue
        at = {r: i for i, r in enumerate(runs)}
        matrix = np.full((len(runs), len(runs)), np.nan)
        stars = np.zeros_like(matrix, dtype=bool)
        for _, row in group.iterrows():
            i, j = at[row["run_a"]], at[row["run_b"]]
            matrix[i, j], matrix[j, i] = row["difference"], -row["difference"]
            p = row.get("p_holm")
            stars[i, j] = stars[j, i] = p is not None and p == p and p < 0.05
        found.append(PairMatrix(str(protocol), runs, matrix, stars))
    return found


@dataclass(frozen=True)
class Outcome:
    """How many tested pairs differ (Holm p < 0.05), and per level (Holm within the pair);
    the level counts are None where the per-level table has no adjusted p."""

    tested: int
    differ: int
    levels_tested: int | None
    levels_differ: int | None


def paired_outcome(paired: pd.DataFrame, levels: pd.DataFrame) -> Outcome | None:
    """The counts the page's short account of the paired tables gives.

    Args:
        paired: the paired table (`paired_table`).
        levels: the per-level table (`level_pairs`).

    Returns:
        the counts, or None where no pair has an adjusted p.
    """
    if "p_holm" not in paired:
        return None
    tested = paired["p_holm"].dropna()
    within = levels["p_holm_in_pair"].dropna() if "p_holm_in_pair" in levels else None
    return Outcome(
        len(tested),
        int((tested < 0.05).sum()),
        None if within is None else len(within),
        None if within is None else int((within < 0.05).sum()),
    )


def tested_pairs(paired: pd.DataFrame) -> int:
    """The pairs with a p-value: the family Holm's adjustment is over.

    Args:
        paired: the paired table (`paired_table`).

    Returns:
        their number (0 for a table without p).
    """
    return int(paired["p"].notna().sum()) if "p" in paired else 0


def tests_used(table: pd.DataFrame) -> list[str]:
    """The tests the pairs of `table` were tested by, each once, in the order first met.

    Args:
        table: the paired table or the per-level one (or the page's shape of either).

    Returns:
        the tests' names (empty where the table has no `test` column or none was tested).
    """
    if "test" not in table:
        return []
    return [str(t) for t in table["test"].dropna().unique()]
