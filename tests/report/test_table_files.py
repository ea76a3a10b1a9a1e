"""Table files: LaTeX escaped once, CSV cells rounded to what they mean."""

from __future__ import annotations

import pandas as pd

from inspect_sparc.report.render.table_files import write_table


def test_latex_cells_are_escaped_once(tmp_path):
    name = "R&D \\ 100% $x #1 a_b {c} ~d ^e"
    table = pd.DataFrame({"model": [name], "n": [4], "accuracy": [12.34]})
    write_table(table, "t", tmp_path, caption="a_b & c")
    tex = (tmp_path / "t.tex").read_text()
    [row] = [line for line in tex.splitlines() if line.startswith("R")]
    # three columns: the cell's own & is escaped; the backslash is not escaped twice
    assert row.replace("\\&", "").count("&") == 2
    assert "\\textbackslash" in row and "\\textbackslash\\{\\}" not in row
    for escaped in ("\\%", "\\$", "\\#", "\\_", "\\{", "\\}"):
        assert escaped in row
    assert "12.3" in row and "\\caption{a\\_b \\& c}" in tex


def test_csv_cells_are_rounded_to_what_they_mean(report):
    import csv

    out = report.out_dir / "tables"
    with open(out / "results.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for r in rows:
        for column in ("accuracy", "ci95_low", "level_1", "invalid_path_rate"):
            if r[column]:
                assert len(r[column].partition(".")[2]) <= 1, (column, r[column])
        if r["n"]:
            assert r["n"].isdigit()
    with open(out / "paired.csv", encoding="utf-8") as handle:
        paired = list(csv.DictReader(handle))
    assert paired and all(r["both"].isdigit() for r in paired if r["both"])
    for r in paired:
        for column in ("p", "p_holm"):
            if r.get(column):
                digits = r[column].replace("0.", "").lstrip("0").replace(".", "")
                assert len(digits.rstrip("0")) <= 3, r[column]


def test_p_values_and_differences_keep_the_digits_that_show_significance(tmp_path):
    # issue: 13 vs 4 of 500 printed "1.8 (0.0-2.9)" beside p 0.049; p-values printed as rates
    from inspect_sparc.report.render.columns import declared, formatted
    from inspect_sparc.report.render.page import cell_text, interval_text

    table = pd.DataFrame(
        {
            "difference": [1.8, -30.0],
            "diff_ci95_low": [0.0413, -66.8],
            "diff_ci95_high": [2.94, -0.04],
            "p": [0.0496, 3.2e-05],
            "p_holm_in_pair": [0.0502, 0.5],
        }
    )
    write_table(
        table,
        "t",
        tmp_path,
        specs=declared([formatted("p", "p"), formatted("p_holm_in_pair", "p")]),
    )
    csv = pd.read_csv(tmp_path / "t.csv")
    assert csv["diff_ci95_low"].tolist() == [0.04, -66.80]
    assert csv["diff_ci95_high"].tolist() == [2.94, -0.04]
    assert csv["p"].tolist() == [0.0496, 3.2e-05] and csv["p_holm_in_pair"][0] == 0.0502
    tex = (tmp_path / "t.tex").read_text()
    for text in ("0.04 ", "-0.04 ", "0.0496", "3.2e-05", "0.0502"):
        assert text in tex, text
    assert " 0.0 " not in tex and "-0.0 " not in tex
    assert cell_text(0.0496, p=True) == "0.0496" and cell_text(3.2e-05, p=True) == "3.2e-05"
    assert interval_text(0.0413, 2.94, "diff_ci95") == "0.04–2.94"
    assert interval_text(-66.8, -0.04, "gap_ci95") == "-66.80 to -0.04"
    assert interval_text(12.34, 20.0, "ci95") == "12.3–20.0"  # a rate: one decimal


def test_a_column_is_formatted_by_its_tables_spec_not_by_its_name(report, tmp_path):
    # `solved` is a count in the results table but a share of episodes (%) among the gym
    # endings: formatted by name, the ending read `0` beside `0.0` and `40.0`
    import csv

    from inspect_sparc.report.render.columns import declared, formatted

    with open(report.out_dir / "tables" / "gym_endings.csv", encoding="utf-8") as handle:
        endings = list(csv.DictReader(handle))
    assert endings
    for r in endings:
        for column in ("solved", "dead end", "solved_ci95_low"):
            assert r[column].partition(".")[2] != "", (column, r[column])  # one decimal each
    table = pd.DataFrame({"solved": [6.0], "accuracy": [6.0]})
    write_table(
        table, "count", tmp_path, specs=declared([formatted("solved", "whole_when_integral")])
    )
    write_table(table, "rate", tmp_path)
    assert (tmp_path / "count.csv").read_text().splitlines()[1] == "6,6.0"
    assert (tmp_path / "rate.csv").read_text().splitlines()[1] == "6.0,6.0"
