"""The fresh-puzzle gap on real logs whose truth is known (`scripted.py`): the test side is the
largest run on the benchmark's test grids (never a run on generated puzzles), a puzzle met in
several runs is one unit, and the gap's intervals and p are Newcombe's and the CMH test's
(checked against statsmodels)."""

from __future__ import annotations

import pytest
from scripted import rolled, rolled_twice, scripted_log

sm_proportion = pytest.importorskip("statsmodels.stats.proportion")
StratifiedTable = pytest.importorskip("statsmodels.stats.contingency_tables").StratifiedTable


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


def test_per_level_intervals_are_newcombes_and_never_zero_width(gaps, gap_logs):
    _, test, fresh, levels = gap_logs
    _, table = gaps
    for level, ids in levels.items():
        row = table[table["level"] == level].iloc[0]
        k1, k2 = sum(test[i] for i in ids), 2 * sum(fresh[i] for i in ids)
        low, high = sm_proportion.confint_proportions_2indep(
            k1, len(ids), k2, 2 * len(ids), method="newcomb", compare="diff"
        )
        assert (row["gap_ci95_low"], row["gap_ci95_high"]) == pytest.approx((100 * low, 100 * high))
    assert (table["gap_ci95_high"] - table["gap_ci95_low"]).min() > 0


def test_the_gap_p_is_cochran_mantel_haenszel_by_level(gaps, gap_logs):
    import numpy as np

    _, test, fresh, levels = gap_logs
    _, table = gaps
    tables = []
    for ids in levels.values():
        a = sum(test[i] for i in ids)
        b = 2 * sum(fresh[i] for i in ids)
        tables.append([[a, len(ids) - a], [b, 2 * len(ids) - b]])
    expected = StratifiedTable(np.array(tables, dtype=float).transpose(1, 2, 0))
    overall = table[table["level"].astype(str).str.startswith("all")].iloc[0]
    assert overall["gap_p"] == pytest.approx(expected.test_null_odds(correction=False).pvalue)
    assert "does not prove" in gaps[0].index.read_text(encoding="utf-8")
