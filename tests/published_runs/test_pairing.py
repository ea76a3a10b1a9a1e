"""Pairing a run with the published runs: counted on the shared puzzles only, checked against
the shipped verdicts.csv read with csv (an independent count)."""

from __future__ import annotations

import csv
from importlib.resources import files

import pytest

from inspect_sparc.published_runs.pairing import (
    matching_runs,
    pair_with,
    paired_against_published,
    published_protocol,
    shared_puzzles,
)
from inspect_sparc.published_runs.verdicts import load_verdicts

GPT_OSS = "gym-analysis/openai_gpt-oss-120b"
OLMO = "gym-analysis/allenai_Olmo-3.1-32B-Think"
SHORT_RUN = "gym-analysis/Qwen_Qwen3-0.6B_gym_traceback"  # 257 of the 500 puzzles


def table() -> list[dict[str, str]]:
    with files("inspect_sparc.published_runs.data").joinpath("verdicts.csv").open() as handle:
        return list(csv.DictReader(handle))


def column(run_id: str) -> dict[str, int]:
    return {row["puzzle_id"]: int(row[run_id]) for row in table() if row[run_id] != ""}


def test_one_published_run_against_another_counts_the_discordant_puzzles():
    ours, theirs = column(OLMO), column(GPT_OSS)
    [overall, *levels] = pair_with(ours, load_verdicts().run(GPT_OSS))
    assert (overall.n, overall.run_solved, overall.published_solved) == (500, 81, 108)
    assert overall.only_run == sum(ours[p] and not theirs[p] for p in ours)
    assert overall.only_published == sum(theirs[p] and not ours[p] for p in ours)
    assert overall.difference == pytest.approx((81 - 108) / 500)
    assert [row.level for row in levels] == [1, 2, 3, 4, 5]
    assert sum(row.n for row in levels) == 500
    assert sum(row.only_run for row in levels) == overall.only_run
    assert overall.whole_split


def test_a_run_on_part_of_the_split_is_compared_on_the_shared_puzzles_only():
    rows = table()
    part = {row["puzzle_id"]: 1 for row in rows[::5]}  # 100 puzzles, all solved
    part["not-a-test-puzzle"] = 1
    theirs = column(SHORT_RUN)
    [overall, *_] = pair_with(part, load_verdicts().run(SHORT_RUN))
    shared = [p for p in part if p in theirs]
    assert overall.n == len(shared) < 100
    assert overall.published_solved == sum(theirs[p] for p in shared)
    assert overall.only_published == 0 and not overall.whole_split


def test_epoch_means_give_expected_discordant_counts():
    theirs = column(GPT_OSS)
    half = dict.fromkeys(theirs, 0.5)
    [overall, *_] = pair_with(half, load_verdicts().run(GPT_OSS))
    assert overall.only_run == pytest.approx(0.5 * (500 - 108))
    assert overall.only_published == pytest.approx(0.5 * 108)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        pair_with({next(iter(theirs)): 2}, load_verdicts().run(GPT_OSS))


def test_every_published_run_of_the_protocol_and_prompt_gets_its_rows():
    with files("inspect_sparc.published_runs.data").joinpath("runs.csv").open() as handle:
        runs = list(csv.DictReader(handle))
    expected = [
        r["run_id"] for r in runs if (r["protocol"], r["prompt"]) == ("single_shot", "default")
    ]
    assert [r.run_id for r in matching_runs("single_shot", "paper")] == expected
    assert len(expected) == 32  # 10 Spatial-Gym runs and 22 sparc-train runs
    assert {r.run_id for r in matching_runs("gym", "no-reason")} == {
        "gym-analysis/Qwen_Qwen3-14B_gym_no-reason",
        "gym-analysis/Qwen_Qwen3-32B_gym_no-reason",
    }
    rows = paired_against_published(column(GPT_OSS), "gym_traceback")
    assert len(rows) == 6 * len(matching_runs("gym_traceback")) == 6 * 8
    assert len(shared_puzzles([GPT_OSS, SHORT_RUN])) == 257


def test_our_tasks_pair_with_the_published_protocol_they_reproduce():
    assert published_protocol("sparc") == published_protocol("sparc_hard") == "single_shot"
    assert published_protocol("sparc_gym") == "gym"
    assert published_protocol("sparc_gym", traceback=True) == "gym_traceback"
    assert published_protocol("sparc_gym", observation="image") == "gym_visual"
    assert published_protocol("sparc_agent") is None and published_protocol("sparc_visual") is None
    assert {r.protocol for r in load_verdicts().runs} >= {
        "single_shot",
        "gym",
        "gym_traceback",
        "gym_visual",
    }
