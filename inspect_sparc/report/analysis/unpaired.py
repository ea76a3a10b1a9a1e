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
from inspect_sparc.report.published import PROMPT_MATCH
from inspect_sparc.report.stats import newcombe

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


#: The published prompts that some prompt of ours reproduces (single shot and gym rows).
MATCHED_PROMPTS = {prompt for prompts in PROMPT_MATCH.values() for prompt in prompts}


def difference(
    ka: float, na: int, kb: float, nb: float, names: tuple[str, str] = ("a", "b")
) -> dict[str, Any]:
    """a - b in points with Newcombe's 95% interval, and what it shows in words (`names`: how
    the reading calls a and b)."""
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
    index = outcome_index(samples)
    grids = (
        samples.groupby("log")["grid"].agg(lambda g: set(g.dropna())) if "grid" in samples else {}
    )
    on_test = set(test_side(runs, samples)["log"])  # as the fresh gap recognises them
    sets = {}
    for _, run in eligible(runs).iterrows():
        outcomes = index.get(run["log"])
        if outcomes is not None and len(outcomes):
            log = run["log"]
            sets[log] = {"run": run, "outcomes": outcomes, "grids": grids.get(log, set())}
            sets[log]["on_test"] = log in on_test
    return sets


def _test_and_fresh(one: dict[str, Any], two: dict[str, Any]) -> bool:
    """Whether of two runs one is on test puzzles and the other on `generated:` ones."""
    fresh = [is_fresh(e["run"].get("source")) for e in (one, two)]
    return (one["on_test"] and fresh[1]) or (two["on_test"] and fresh[0])


def unshared_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """Pairs of runs of one task and protocol that share no puzzle (by id or grid): counts,
    accuracies and the difference a - b with Newcombe's interval. A model's run on the test
    puzzles against its run on other puzzles is the fresh-puzzle gap's, which matches levels."""
    import pandas as pd

    rows = []
    for one, two in combinations(_run_sets(runs, samples).values(), 2):
        a, b = one["run"], two["run"]
        if (a["task"], a["protocol"]) != (b["task"], b["protocol"]):
            continue
        if len(one["outcomes"].index.intersection(two["outcomes"].index)) or (
            one["grids"] & two["grids"]
        ):
            continue  # shared puzzles: the paired comparison's
        if a["model"] == b["model"] and _test_and_fresh(one, two):
            continue  # the fresh-puzzle gap's
        ka, na = float(one["outcomes"].sum()), len(one["outcomes"])
        kb, nb = float(two["outcomes"].sum()), len(two["outcomes"])
        rows.append(
            {
                "run_a": a["run"],
                "run_b": b["run"],
                "protocol": a["protocol"],
                "n_a": na,
                "n_b": nb,
                "accuracy_a": 100 * ka / na,
                "accuracy_b": 100 * kb / nb,
                **difference(ka, na, kb, nb),
            }
        )
    return pd.DataFrame(rows)


def name_words(text: str) -> set[str]:
    """The words and numbers of a model name, lower case (`qwen3.1-4b`: qwen, 3, 1, 4, b)."""
    return set(re.findall(r"[a-z]+|\d+", text.lower()))


def same_model(run_model: str, published_model: str) -> bool:
    """Whether a published row names the run's model: every word and number of the published
    name is in the run's (`GPT-OSS 120B` is `openai/gpt-oss-120b`, `R1 Distill 32B` is
    `deepseek-ai/DeepSeek-R1-Distill-Qwen-32B`; `Qwen 3 14B` is not `qwen/qwen3.1-4b`)."""
    words = name_words(published_model)
    return bool(words) and words <= name_words(run_model)


def published_table(
    runs: pd.DataFrame, samples: pd.DataFrame, published: pd.DataFrame | None
) -> pd.DataFrame:
    """Each run whose puzzles are all test puzzles against every published row of its protocol
    with an n (`published_results` keeps the rows of the runs' prompts): run - published with
    Newcombe's interval. The published runs saw the same puzzles, but their per-puzzle outcomes
    are not published, so the pair cannot be paired: the independent interval is the wider,
    cautious one."""
    import pandas as pd

    if published is None or published.empty:
        return pd.DataFrame()
    known = published.dropna(subset=["n", "accuracy"])
    rows = []
    for entry in _run_sets(runs, samples).values():
        run = entry["run"]
        if not entry["on_test"]:
            continue
        ka, na = float(entry["outcomes"].sum()), len(entry["outcomes"])
        rivals = known[known["protocol"] == run["protocol"]]
        if "prompt" in rivals and rivals["prompt"].isin(MATCHED_PROMPTS).any():
            mine = PROMPT_MATCH.get(str(run.get("prompt")), ())  # this run's prompt's rows
            rivals = rivals[rivals["prompt"].isna() | rivals["prompt"].isin(mine)]
        for _, row in rivals.sort_values("accuracy", ascending=False).iterrows():
            kb, nb = float(row["accuracy"]) / 100 * float(row["n"]), float(row["n"])
            rows.append(
                {
                    "run": run["run"],
                    "published": row["model"],
                    "setting": row.get("setting"),
                    "source": row.get("source"),
                    "same_model": same_model(str(run["model"]), str(row["model"])),
                    "n": na,
                    "accuracy": 100 * ka / na,
                    "n_published": int(nb),
                    "accuracy_published": float(row["accuracy"]),
                    **difference(ka, na, kb, nb, ("run", "published")),
                }
            )
    table = pd.DataFrame(rows)
    return table.dropna(axis=1, how="all") if len(table) else table
