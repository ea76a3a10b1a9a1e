"""The fresh-puzzle gap on real logs whose truth is known (`scripted.py`): the test side is the
largest run on the benchmark's test grids (never a run on generated puzzles), a puzzle met in
several runs is one unit, and the gap's p and interval come from one exact test each (per
level Barnard's, checked against scipy; overall the exact stratified test, checked by
brute-force enumeration), so the two never disagree."""

from __future__ import annotations

import pytest
from oracles import brute_force_stratified_p
from scripted import fresh_log, rolled, rolled_twice, scripted_log


def stamp(minute: int) -> str:
    return f"2026-01-01T00:{minute:02d}:00+00:00"


@pytest.fixture(scope="module")
def gap_logs(base, tmp_path_factory):
    """Model A: 10 test puzzles (6 solved), a later 5-puzzle test run, a later run on a local
    file of generated puzzles, generated:7 twice (the same 10 puzzles) and generated:8."""
    folder = tmp_path_factory.mktemp("gap")
    ids = sorted(str(s.id) for s in base.samples)
    levels: dict[int, list[str]] = {}
    for sample in base.samples:
        levels.setdefault(sample.metadata["level"], []).append(str(sample.id))
    test = {i: int(k < 6) for k, i in enumerate(ids)}
    fresh = {i: int(i in (levels[1][0], levels[2][0], levels[4][1])) for i in ids}
    scripted_log(base, test, folder / "test.eval", model="m/A", started=stamp(0))
    small = base.model_copy(deep=True)
    small.samples = [s for s in small.samples if str(s.id) in ids[:5]]
    scripted_log(small, test, folder / "small.eval", model="m/A", started=stamp(1))
    local = dict.fromkeys(ids, 1)
    scripted_log(
        base,
        local,
        folder / "local.eval",
        model="m/A",
        source="/data/gen.jsonl",
        grid=rolled,
        started=stamp(2),
    )
    for k, (seed, grid) in enumerate(((7, rolled), (7, rolled), (8, rolled_twice))):
        scripted_log(
            base,
            fresh,
            folder / f"fresh{k}.eval",
            model="m/A",
            source=f"generated:{seed}",
            id_prefix=f"gen{seed}-",
            grid=grid,
            started=stamp(3 + k),
        )
    return folder, test, fresh, levels


@pytest.fixture(scope="module")
def gaps(gap_logs, tmp_path_factory):
    from inspect_sparc.report import build_report

    report = build_report(gap_logs[0], tmp_path_factory.mktemp("gap-report"))
    return report, report.tables["fresh_gap"]


def test_the_test_side_is_the_largest_run_on_test_grids(gaps):
    _, table = gaps
    assert set(table["test_run"]) == {"m/A | single_shot source=sample #1"}
    assert "largest of 2" in table["test_side"].iloc[0]  # the local generated file is not one
    overall = table[table["level"].astype(str).str.startswith("all")].iloc[0]
    assert overall["n_test"] == 10 and overall["test_accuracy"] == pytest.approx(60.0)


def test_a_repeated_seed_is_the_same_puzzles_not_new_ones(gaps, gap_logs, tmp_path):
    from inspect_sparc.report import build_report

    _, table = gaps
    overall = table[table["level"].astype(str).str.startswith("all")].iloc[0]
    assert overall["n_fresh"] == 20  # generated:7 twice counts its 10 puzzles once
    assert overall["seeds"] == "7, 8"
    folder = gap_logs[0]
    once = tmp_path / "once"
    once.mkdir()
    for name in ("test.eval", "fresh1.eval", "fresh2.eval"):
        (once / name).write_bytes((folder / name).read_bytes())
    single = build_report(once, tmp_path / "out").tables["fresh_gap"]
    assert single["gap_ci95_low"].tolist() == pytest.approx(table["gap_ci95_low"].tolist())


def per_level_counts(test, fresh, levels):
    """Per level (x1, n1, x2, n2): the test run's solves of its 2 puzzles, the fresh side's of
    its 4 (generated:7 and generated:8 each hold the level's 2 puzzles, solved alike)."""
    return {
        level: (sum(test[i] for i in ids), len(ids), 2 * sum(fresh[i] for i in ids), 2 * len(ids))
        for level, ids in levels.items()
    }


def test_per_level_p_is_barnards_and_its_interval_agrees_with_it(gaps, gap_logs):
    from scipy.stats import barnard_exact

    _, test, fresh, levels = gap_logs
    _, table = gaps
    for level, (x1, n1, x2, n2) in per_level_counts(test, fresh, levels).items():
        row = table[table["level"] == level].iloc[0]
        expected = barnard_exact([[x1, x2], [n1 - x1, n2 - x2]], n=64).pvalue
        assert row["gap_p"] == pytest.approx(expected, rel=1e-6)
        assert row["gap"] == pytest.approx(100 * (x1 / n1 - x2 / n2))
        excludes = row["gap_ci95_low"] > 0 or row["gap_ci95_high"] < 0
        assert excludes == (row["gap_p"] < 0.05)
        assert row["gap_test"].startswith("Barnard")
    assert (table["gap_ci95_high"] - table["gap_ci95_low"]).min() > 0


def test_the_overall_gap_p_is_the_exact_stratified_test(gaps, gap_logs):
    _, test, fresh, levels = gap_logs
    _, table = gaps
    counts = list(per_level_counts(test, fresh, levels).values())
    overall = table[table["level"].astype(str).str.startswith("all")].iloc[0]
    assert overall["gap_p"] == pytest.approx(brute_force_stratified_p(counts), rel=1e-9)
    excludes = overall["gap_ci95_low"] > 0 or overall["gap_ci95_high"] < 0
    assert excludes == (overall["gap_p"] < 0.05)
    assert overall["gap_test"].startswith("exact conditional stratified")
    assert "does not prove" in gaps[0].index.read_text(encoding="utf-8")


def test_a_run_on_some_levels_labels_its_overall_gap_by_them(base, tmp_path):
    from inspect_sparc.report import build_report

    part = base.model_copy(deep=True)
    part.samples = [s for s in part.samples if s.metadata["level"] in (1, 2)]
    solved = {str(s.id): int(k % 2 == 0) for k, s in enumerate(part.samples)}
    scripted_log(part, solved, tmp_path / "logs" / "test.eval", model="m/A", started=stamp(0))
    fresh_log(part, solved, tmp_path / "logs" / "fresh.eval", started=stamp(1))
    table = build_report(tmp_path / "logs", tmp_path / "out").tables["fresh_gap"]
    labels = [str(level) for level in table["level"]]
    assert labels[:2] == ["1", "2"] and len(labels) == 3
    assert labels[2].startswith("levels 1-2") and not labels[2].startswith("all")
