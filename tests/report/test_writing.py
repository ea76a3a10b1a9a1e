"""Table files: LaTeX escaped once, CSV cells rounded to what they mean."""

from __future__ import annotations

import pandas as pd

from inspect_sparc.report.writing import write_table


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
