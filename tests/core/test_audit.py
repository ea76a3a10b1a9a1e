"""The audit command reproduces stored solution sets and reports mismatches by exit code."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from inspect_sparc.audit import level_argument, main
from inspect_sparc.core import search as search_engines
from inspect_sparc.core.search.solution_audit import audit_record

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sparc"
PUZZLES_FILE = FIXTURES / "puzzles.jsonl"
RECORDS = [json.loads(line) for line in PUZZLES_FILE.read_text().splitlines()]


def test_level_filter_matches_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--source", str(PUZZLES_FILE), "--level", "1,2", "--limit", "15"])
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert code == 0
    assert lines[0].split() == [
        "id",
        "level",
        "size",
        "stored",
        "found",
        "missing",
        "extra",
        "seconds",
        "status",
    ]
    rows = lines[1:-1]
    assert len(rows) == 15
    assert all(row.split()[1] in ("1", "2") and row.split()[-1] == "ok" for row in rows)
    assert lines[-1].startswith("15 puzzle(s): 15 match, 0 mismatch")
    engine = "compiled" if search_engines.use_compiled() else "python"
    assert f" s ({engine} engine); slowest " in lines[-1]


def test_a_bad_engine_setting_exits_two(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(search_engines.ENGINE_VARIABLE, "fastest")
    assert main(["--source", str(PUZZLES_FILE), "--limit", "1"]) == 2
    assert "INSPECT_SPARC_SEARCH must be one of auto, python, compiled" in capsys.readouterr().err


def test_python_engine_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(search_engines.ENGINE_VARIABLE, "python")
    assert main(["--source", str(PUZZLES_FILE), "--limit", "2"]) == 0
    assert "(python engine)" in capsys.readouterr().out


def test_repeated_level_option() -> None:
    assert level_argument(["1", "2,3", " 4 ,"]) == (1, 2, 3, 4)
    assert level_argument([]) is None


@pytest.mark.parametrize("argv", [["--level", "9"], ["--level", "x"], ["--limit", "-1"]])
def test_bad_options_are_usage_errors(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--source", "sample", *argv])
    assert stop.value.code == 2


def test_no_selected_puzzle_is_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text((FIXTURES / "puzzles.jsonl").read_text().splitlines()[0])
    assert main(["--source", str(path), "--level", "5"]) == 1
    assert "no puzzles" in capsys.readouterr().err


def test_mismatch_exits_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = copy.deepcopy(RECORDS[-1])  # the puzzle with 48 stored solutions
    record["solutions"] = record["solutions"][:-1]
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(record) + "\n")
    assert main(["--source", str(path)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out
    assert "1 mismatch" in out
    row = audit_record(record)
    assert (row.stored, row.found, row.missing, row.extra) == (47, 48, 0, 1)


def test_unreadable_source_exits_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--source", str(tmp_path / "missing.jsonl")]) == 2
    assert "error:" in capsys.readouterr().err


def test_bad_record_is_a_mismatch() -> None:
    row = audit_record({"id": "broken"})
    assert not row.ok
    assert row.status.startswith("bad record")
