"""Differences that cannot be paired puzzle by puzzle: runs of one task and protocol on puzzles
they do not share, and each run on the test puzzles against the published rows of its protocol.
Both are differences of two independent proportions with Newcombe's hybrid score interval; no
p-value, since a test beside that interval could disagree with it."""

from __future__ import annotations

import re
from itertools import combinations
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.analysis.fresh import is_fresh, test_side
from inspect_sparc.report.analysis.outcomes import eligible, outcome_index
from inspect_sparc.report.analysis.split import against_total, split_estimates
from inspect_sparc.report.published import PROMPT_MATCH
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.statistics.score_intervals import newcombe

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


#: The published prompts that some prompt of ours reproduces (single shot and gym rows).
MATCHED_PROMPTS = {prompt for prompts in PROMPT_MATCH.values() for prompt in prompts}


def difference(
    ka: float, na: int, kb: float, nb: float, names: tuple[str, str] = ("a", "b")
) -> dict[str, Any]:
    """a - b in points with Newcombe's 95% interval, and what it shows in words (`names`: how
    the reading calls a and b).

    Args:
        ka: run a's solved puzzles.
        na: run a's puzzles.
        kb: b's solved puzzles.
        nb: b's puzzles.
        names: what the reading calls a and b.

    Returns:
        `difference`, `diff_ci95_low/high` (points) and `reading`.
    """
    interval = newcombe(ka, na, kb, nb)
    low, high = 100 * interval.low, 100 * interval.high
    if low > 0 or high < 0:
        words = f"{names[0] if low > 0 else names[1]} higher (the interval excludes 0)"
    else:
        words = "no difference shown (the interval includes 0)"
    return {
        "difference": 100 * (ka / na - kb / nb),
        "diff_ci95_low": low,
        "diff_ci95_high": high,
        "reading": words,
    }


def _run_sets(runs: pd.DataFrame, samples: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Per eligible run: its per-puzzle outcomes, grid hashes, and whether every puzzle it
    scored is one of the benchmark's test puzzles."""
    index = outcome_index(samples, runs)  # each log's epochs reduced as it reduced them
    grids = (
        samples.groupby(C.LOG)["grid"].agg(lambda g: set(g.dropna())) if "grid" in samples else {}
    )
    on_test = set(test_side(runs, samples)[C.LOG])  # as the fresh gap recognises them
    levels = samples.groupby([C.LOG, C.ID])[C.LEVEL].first() if C.LEVEL in samples else None
    sets = {}
    for _, run in eligible(runs).iterrows():
        outcomes = index.get(run[C.LOG])
        if outcomes is not None and len(outcomes):
            log = run[C.LOG]
            sets[log] = {"run": run, "outcomes": outcomes, "grids": grids.get(log, set())}
            sets[log]["on_test"] = log in on_test
            sets[log]["levels"] = _levels_of(levels, log, outcomes)
    return sets


def _levels_of(levels: pd.Series | None, log: str, outcomes: pd.Series) -> pd.Series | None:
    """Each puzzle's level in `outcomes`' order (None where the samples carry no level)."""
    if levels is None or log not in levels.index.get_level_values(0):
        return None
    return levels.loc[log].reindex(outcomes.index)


def on_shared_levels(one: dict[str, Any], two: dict[str, Any]) -> tuple[Any, Any, str]:
    """Both runs' outcomes on the levels both have (a run on easier levels only would
    otherwise look better), and those levels as text ('' where a run's levels are unknown).

    Args:
        one: a run's outcomes and levels (`_run_sets`'s entry).
        two: the other run's.

    Returns:
        (one's outcomes, two's outcomes, the levels as text).
    """
    if one["levels"] is None or two["levels"] is None:
        return one["outcomes"], two["outcomes"], ""
    shared = sorted(set(one["levels"].dropna()) & set(two["levels"].dropna()))
    pick = [e["outcomes"][e["levels"].isin(shared).to_numpy()] for e in (one, two)]
    return pick[0], pick[1], ", ".join(str(int(lv)) for lv in shared)


def _test_and_fresh(one: dict[str, Any], two: dict[str, Any]) -> bool:
    """Whether of two runs one is on test puzzles and the other on `generated:` ones."""
    fresh = [is_fresh(e["run"].get("source")) for e in (one, two)]
    return (one["on_test"] and fresh[1]) or (two["on_test"] and fresh[0])


def unshared_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """Pairs of runs of one task and protocol that share no puzzle (by id or grid), each on
    the levels both ran: counts, accuracies and the difference a - b with Newcombe's interval.
    A model's run on the test puzzles against its run on other puzzles is the fresh-puzzle
    gap's, which matches levels.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        one row per such pair (percent and points); empty where none.
    """
    import pandas as pd

    rows = []
    for one, two in combinations(_run_sets(runs, samples).values(), 2):
        a, b = one["run"], two["run"]
        if (a[C.TASK], a[C.PROTOCOL]) != (b[C.TASK], b[C.PROTOCOL]):
            continue
        if len(one["outcomes"].index.intersection(two["outcomes"].index)) or (
            one["grids"] & two["grids"]
        ):
            continue  # shared puzzles: the paired comparison's
        if a[C.MODEL] == b[C.MODEL] and _test_and_fresh(one, two):
            continue  # the fresh-puzzle gap's
        mine, theirs, shared = on_shared_levels(one, two)
        if not len(mine) or not len(theirs):
            continue  # no level in common: nothing comparable
        ka, na = float(mine.sum()), len(mine)
        kb, nb = float(theirs.sum()), len(theirs)
        rows.append(
            {
                "run_a": a[C.RUN],
                "run_b": b[C.RUN],
                C.PROTOCOL: a[C.PROTOCOL],
                "levels": shared,
                "n_a": na,
                "n_b": nb,
                "accuracy_a": 100 * ka / na,
                "accuracy_b": 100 * kb / nb,
                **difference(ka, na, kb, nb),
            }
        )
    return pd.DataFrame(rows)


def name_words(text: str) -> set[str]:
    """The words and numbers of a model name, lower case (`qwen3.1-4b`: qwen, 3, 1, 4, b).

    Args:
        text: a model name.

    Returns:
        its words and numbers.
    """
    return set(re.findall(r"[a-z]+|\d+", text.lower()))


def same_model(run_model: str, published_model: str) -> bool:
    """Whether a published row names the run's model: every word and number of the published
    name is in the run's (`GPT-OSS 120B` is `openai/gpt-oss-120b`, `R1 Distill 32B` is
    `deepseek-ai/DeepSeek-R1-Distill-Qwen-32B`; `Qwen 3 14B` is not `qwen/qwen3.1-4b`).

    Args:
        run_model: the run's model (`provider/name`).
        published_model: the published row's model name.

    Returns:
        whether the published name's words are all in the run's.
    """
    words = name_words(published_model)
    return bool(words) and words <= name_words(run_model)


def published_table(
    runs: pd.DataFrame, samples: pd.DataFrame, published: pd.DataFrame | None
) -> pd.DataFrame:
    """Each run whose puzzles are all test puzzles against every published row of its protocol
    with an n (`published_results` keeps the rows of the runs' prompts): run - published with
    Newcombe's interval. The published runs saw the same puzzles, but their per-puzzle outcomes
    are not published, so the pair cannot be paired: the independent interval is the wider,
    cautious one.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.
        published: the published SPaRC rows (`published.published_results`), or None.

    Returns:
        one row per run and published row (percent and points, `same_model`, source); empty without
        such runs or published rows.
    """
    import pandas as pd

    if published is None or published.empty:
        return pd.DataFrame()
    known = published.dropna(subset=["n", "accuracy"])
    splits = split_estimates(runs, samples)
    rows = []
    for entry in _run_sets(runs, samples).values():
        run = entry["run"]
        if not entry["on_test"]:
            continue
        ka, na = float(entry["outcomes"].sum()), len(entry["outcomes"])
        rivals = known[known[C.PROTOCOL] == run[C.PROTOCOL]]
        if "prompt" in rivals and rivals["prompt"].isin(MATCHED_PROMPTS).any():
            mine = PROMPT_MATCH.get(str(run.get("prompt")), ())  # this run's prompt's rows
            rivals = rivals[rivals["prompt"].isna() | rivals["prompt"].isin(mine)]
        for _, row in rivals.sort_values("accuracy", ascending=False).iterrows():
            kb, nb = float(row["accuracy"]) / 100 * float(row["n"]), float(row["n"])
            found = {
                "n": na,
                "accuracy": 100 * ka / na,
                **difference(ka, na, kb, nb, ("run", "published")),
            }
            split = splits.get(str(run[C.LOG]))
            if split is not None:  # a shipped subset: the whole split's estimate, said so
                found = against_total(split, kb, nb)
            rows.append(
                {
                    C.RUN: run[C.RUN],
                    "published": row[C.MODEL],
                    "setting": row.get("setting"),
                    "source": row.get("source"),
                    "same_model": same_model(str(run[C.MODEL]), str(row[C.MODEL])),
                    "n": found.pop("n"),
                    "accuracy": found.pop("accuracy"),
                    "n_published": int(nb),
                    "accuracy_published": float(row["accuracy"]),
                    **found,
                }
            )
    table = pd.DataFrame(rows)
    return table.dropna(axis=1, how="all") if len(table) else table


#: The page shows every row of the published comparison up to this many (the CSV has all).
PAGE_ROWS = 40


def page_rows(against: pd.DataFrame) -> tuple[pd.DataFrame | None, str]:
    """What the page shows of a long published comparison (None: all of it): for each run, the
    rows of its own model where it has any, else the two published rows nearest in accuracy.

    Args:
        against: the runs against the published rows (`published_table`).

    Returns:
        (the rows kept, or None for all; the words that say which are kept).
    """
    if len(against) <= PAGE_ROWS:
        return None, ""
    gap = (against["accuracy_published"] - against["accuracy"]).abs()
    ranked = against.assign(_gap=gap).sort_values("_gap", kind="stable")
    kept = [
        rows[rows["same_model"]] if rows["same_model"].any() else rows.head(2)
        for _, rows in ranked.groupby(C.RUN, sort=False)
    ]
    import pandas as pd

    shown = pd.concat(kept).drop(columns="_gap").sort_index()
    return shown, "each run's own model's rows, or else the two nearest in accuracy"


def page_view(shown: pd.DataFrame | None, against: pd.DataFrame) -> pd.DataFrame | None:
    """The published comparison as the page shows it: without the long source citations
    (the CSV and the published table have them), and `same_model` only where one matches.

    Args:
        shown: the rows kept (`page_rows`), or None for all.
        against: the whole comparison.

    Returns:
        the page's frame, or None where `against` is empty.
    """
    if against.empty:
        return None
    view = against if shown is None else shown
    drop = ["source"] + ([] if against["same_model"].any() else ["same_model"])
    return view.drop(columns=drop, errors="ignore")
