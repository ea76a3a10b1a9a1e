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


#: Session fixtures too expensive to build on every pytest-xdist worker (each worker runs its own
#: session): the tests using one of them go to one worker (`--dist loadgroup`, pyproject.toml).
SHARED_SESSION_FIXTURES = {"report_logs", "report"}
#: Fixture scopes shared by the tests of one module, so those tests stay on one worker.
MODULE_SCOPES = {"module", "package", "class"}


def fixture_groups(item: pytest.Item) -> set[str]:
    """The expensive fixture instances a test shares with other tests: its module's, when it
    uses a module-scoped fixture, and each shared session fixture it uses."""
    # pytest keeps each test's fixture definitions in `_fixtureinfo`: the only place their scope
    # is known before they run (a test not collected from a function has none).
    info = getattr(item, "_fixtureinfo", None)
    keys = set()
    for name, definitions in info.name2fixturedefs.items() if info else ():
        scope = definitions[-1].scope
        if scope in MODULE_SCOPES:
            keys.add(f"module:{item.path}")
        elif scope == "session" and name in SHARED_SESSION_FIXTURES:
            keys.add(f"session:{name}")
    return keys


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests sharing an expensive fixture (directly or through another test of their
    group) with one `xdist_group`, so pytest-xdist builds each such fixture once, not once per
    worker. Without xdist the mark does nothing."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    grouped = [(item, sorted(fixture_groups(item))) for item in items]
    for _, keys in grouped:
        for key in keys[1:]:
            parent[root(key)] = root(keys[0])
    for item, keys in grouped:
        if keys:
            item.add_marker(pytest.mark.xdist_group(root(keys[0])))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Before pytest-xdist starts its workers, compile the search kernels once (numba caches
    them on disk, 10-25 s on a fresh checkout): otherwise every worker compiles its own copy."""
    config = session.config
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no":
        return  # a worker, or a serial run: the first compiled search compiles them
    from inspect_sparc.core.puzzle import parse_puzzle
    from inspect_sparc.core.search import available, solve

    if available():
        solve(parse_puzzle(read_jsonl(SPARC_PUZZLES)[0]), limit=1, engine="compiled")


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
