"""Shared fixtures: the real SPaRC puzzles and model answers shipped in tests/fixtures/sparc."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SPARC_PUZZLES = FIXTURES / "sparc" / "puzzles.jsonl"
SPARC_ANSWERS = FIXTURES / "sparc" / "answers.jsonl"
#: All 500 puzzles of the published test split (gzipped), for checks on the real workload.
SPARC_TEST_SPLIT = FIXTURES / "sparc" / "test_split.jsonl.gz"


def read_jsonl(path: Path) -> list[dict]:
    """Records of a JSON-lines file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def read_test_split() -> list[dict]:
    """The 500 records of the published test split, in published order."""
    with gzip.open(SPARC_TEST_SPLIT, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def sparc_test_split() -> list[dict]:
    """All 500 published test puzzles (use in tests marked slow, or in cheap whole-split checks)."""
    return read_test_split()


@pytest.fixture(scope="session")
def sparc_records() -> list[dict]:
    """The 53 real test puzzles."""
    return read_jsonl(SPARC_PUZZLES)


@pytest.fixture(scope="session")
def sparc_by_id(sparc_records: list[dict]) -> dict[str, dict]:
    """The real test puzzles by id."""
    return {record["id"]: record for record in sparc_records}


@pytest.fixture(scope="session")
def sparc_answers() -> list[dict]:
    """60 real model answers with the reference verdicts."""
    return read_jsonl(SPARC_ANSWERS)


def in_ci() -> bool:
    """True when the run is CI's (the `CI` variable is "true", as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1")


@pytest.fixture
def numba_required() -> None:
    """Skip a compiled-engine test when numba is missing, but fail it in CI: there the dev
    extra installs numba, so its absence means the engine would go untested unnoticed."""
    from inspect_sparc.core.search import available

    if available():
        return
    message = "numba is not installed, so the compiled search engine cannot be tested"
    if in_ci():
        pytest.fail(f"CI=true and {message}: install the dev extra (pip install -e '.[dev]')")
    pytest.skip(f"{message} (the fast extra)")
