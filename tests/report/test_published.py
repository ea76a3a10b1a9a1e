"""The shipped published results equal the cited tables (pinned rows, per-level means)."""

from __future__ import annotations

import pytest

from inspect_sparc.report.published import published

LEVEL_SIZES = (86, 118, 121, 86, 89)  # the 500-puzzle test split


def row(table, **where):
    for key, value in where.items():
        table = table[table[key] == value]
    [found] = table.to_dict("records")
    return found


def test_spatial_gym_rows_are_pinned():
    sparc = published("sparc")
    gpt = row(sparc, protocol="single_shot", model="GPT-OSS 120B")
    assert gpt["arxiv"] == "2604.09338" or str(gpt["arxiv"]) == "2604.09338"
    assert [gpt[k] for k in ("n", "accuracy", "level_1", "level_5", "mean_steps")] == [
        500,
        21.6,
        64.0,
        3.4,
        19.8,
    ]
    assert row(sparc, protocol="gym", model="Qwen 3 0.6B")["n"] == 483
    astar = row(sparc, protocol="baseline_astar")
    assert (astar["accuracy"], astar["level_1"]) == (6.4, 15.1)
    assert row(sparc, protocol="baseline_random")["accuracy"] == 2.4
    assert row(sparc, protocol="human")["accuracy"] == 98.0
    rules = published("sparc_by_rule")
    gpt_rules = row(rules, protocol="single_shot", model="GPT-OSS 120B")
    assert [gpt_rules[k] for k in ("dot", "gap", "polyshape", "ylop")] == [21.9, 20.8, 9.8, 4.0]
    assert len(rules) == 24 and len(sparc) == 46


def test_level_means_agree_with_overall_accuracy():
    # on the 500-puzzle split the overall rate is the level rates weighted by level sizes
    sparc = published("sparc")
    full = sparc[(sparc["n"] == 500) & sparc["level_5"].notna()]
    full = full[~full["notes"].str.contains("257 puzzles", na=False)]
    assert len(full) > 20
    for _, r in full.iterrows():
        solved = sum(r[f"level_{i + 1}"] * size for i, size in enumerate(LEVEL_SIZES)) / 500
        assert solved == pytest.approx(r["accuracy"], abs=0.1), r["model"]


def test_visual_and_algopuzzlevqa_rows_are_pinned():
    visual = published("sparc_visual")
    assert len(visual) == 21
    assert sorted(visual.loc[visual["plot_type"] == "original", "accuracy"])[:3] == [0.0, 1.0, 1.8]
    algo = published("algopuzzlevqa")
    assert len(algo) == 151
    assert row(algo, model="GPT-4V", setup="CoT", puzzle="board_tile")["accuracy"] == 48
    for (model, setup), group in algo[algo["setup"] != "average"].groupby(["model", "setup"]):
        puzzles = group[group["puzzle"] != "average"]["accuracy"]
        average = group[group["puzzle"] == "average"]["accuracy"].item()
        assert len(puzzles) == 18
        assert puzzles.mean() == pytest.approx(average, abs=0.06), (model, setup)
    categories = published("algopuzzlevqa_by_category")
    assert len(categories) == 77
    assert row(categories, model="GPT-4V", setup="CoT", category="Colour")["accuracy"] == 35.0


def test_the_rebuttal_rows_ship_with_their_disagreements():
    rebuttal = published("sparc_rebuttal")
    assert len(rebuttal) == 17
    gemma = row(rebuttal, protocol="gym", model="Gemma 4 31B")
    assert (gemma["n"], gemma["accuracy"]) == (500, 13.8)
    # the README's disagreement: the stats file has 440 puzzles, the md's footnote 360
    assert row(rebuttal, protocol="gym_traceback", model="OLMo 3 32B Think-SFT")["n"] == 440


def test_unnamed_leaderboard_rows_are_named_honestly_and_kept_out_of_legends():
    import pandas as pd

    from inspect_sparc.report.published import published_results

    runs = pd.DataFrame([{"protocol": "single_shot", "prompt": "paper"}])
    shown = published_results(runs)
    models = list(shown["model"])
    assert "leaderboard row 2, model not named" in models
    assert not any("UNRESOLVED" in m or "tentative" in m for m in models)
    assert set(shown.loc[~shown["named"], "model"]) == {
        "leaderboard row 2, model not named",
        "leaderboard row 3, model not named; possibly QwQ 32B",
    }
    human = shown[shown["model"].str.startswith("Human")]
    assert human["model"].item() == "Human (not the 500-puzzle split)"
    assert human["accuracy"].item() == 98.0 and human["ci95_low"].isna().item()  # no n


def test_published_rows_get_wilson_intervals_from_their_own_n():
    from statsmodels.stats.proportion import proportion_confint

    from inspect_sparc.report.published import sparc_and_rebuttal, with_wilson

    rows = with_wilson(sparc_and_rebuttal())
    gemma = row(rows, protocol="gym", model="Gemma 4 31B")  # 69/500
    low, high = proportion_confint(69, 500, method="wilson")
    assert (gemma["ci95_low"], gemma["ci95_high"]) == pytest.approx((100 * low, 100 * high))
    # the rebuttal's repeats of paper runs are shown once
    assert len(rows[(rows["protocol"] == "gym") & (rows["model"] == "Gemma 3 27B")]) == 1


def test_no_two_published_visual_runs_read_the_same():
    """The visual runs differ by plot, prompt and seed; the figure's labels must say which
    (the shipped CSV holds three `original` runs with three prompts, three seeds of one plot)."""
    from inspect_sparc.report.analysis.visual import published_visual_labels

    table = published("sparc_visual")
    visual = table[table["protocol"] == "visual"]
    labels = published_visual_labels(visual)
    assert len(set(labels)) == len(labels)
    prompts = {note.split(";")[0].removeprefix("prompt_type=") for note in visual["notes"]}
    assert {"prompt_engineering", "default_tr", "default_no_tr"} <= prompts
    assert any("default_tr" in label for label in labels)
    assert sum("seed 43" in label for label in labels) == 2  # two plots were rerun with seed 43
