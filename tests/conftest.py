"""Shared fixtures: the real SPaRC puzzles and model answers shipped in tests/fixtures/sparc."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SPARC_PUZZLES = FIXTURES / "sparc" / "puzzles.jsonl"
SPARC_ANSWERS = FIXTURES / "sparc" / "answers.jsonl"
#: All 500 puzzles of the published test split (gzipped), for checks on the real workload.
SPARC_TEST_SPLIT = FIXTURES / "sparc" / "test_split.jsonl.gz"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of a JSON-lines file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def read_test_split() -> list[dict[str, Any]]:
    """The 500 records of the published test split, in published order."""
    with gzip.open(SPARC_TEST_SPLIT, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def sparc_test_split() -> list[dict[str, Any]]:
    """All 500 published test puzzles (use in tests marked slow, or in cheap whole-split checks)."""
    return read_test_split()


@pytest.fixture(scope="session")
def sparc_records() -> list[dict[str, Any]]:
    """The 53 real test puzzles."""
    return read_jsonl(SPARC_PUZZLES)


@pytest.fixture(scope="session")
def sparc_by_id(sparc_records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The real test puzzles by id."""
    return {record["id"]: record for record in sparc_records}


@pytest.fixture(scope="session")
def sparc_answers() -> list[dict[str, Any]]:
    """60 real model answers with the reference verdicts."""
    return read_jsonl(SPARC_ANSWERS)


#: Test folders whose files share a session fixture too expensive to build on every
#: pytest-xdist worker (each worker runs its own session): the report's logs and report.
SHARED_FIXTURE_FOLDERS = ("tests/report/",)


@pytest.hookimpl(optionalhook=True)  # pytest without xdist (`-p no:xdist`) knows no such hook
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadfile` (pyproject.toml's addopts), with each of `SHARED_FIXTURE_FOLDERS` sent
    to one worker whole, so its session fixtures are built once. (xdist's `loadgroup` marks do
    not work with pytest 9.2, whose nodes ignore the id xdist rewrites.) Another `--dist` choice
    is left to xdist."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    # `_split_scope` is private: if xdist renames it, say so here rather than let the report
    # tests quietly build their logs on every worker.
    if not callable(getattr(LoadFileScheduling, "_split_scope", None)):
        raise pytest.UsageError(
            "pytest-xdist's LoadFileScheduling has no _split_scope any more: update "
            "pytest_xdist_make_scheduler in tests/conftest.py"
        )

    # xdist ships no type information: its scheduler is `Any` to mypy
    class SharedFixtureScheduling(LoadFileScheduling):  # type: ignore[misc]
        """One unit of work per test file, or per folder of `SHARED_FIXTURE_FOLDERS`."""

        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return next((f for f in SHARED_FIXTURE_FOLDERS if path.startswith(f)), path)

    return SharedFixtureScheduling(config, log)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--inspect-only",
        action="store_true",
        help="collect only the test files that reach Inspect (tests/inspect_reach.py): what "
        "the check at the oldest inspect-ai declared (.ci/floor) needs to rerun",
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With `--inspect-only`, leave out the test files that never reach Inspect."""
    if not config.getoption("inspect_only"):
        return None
    if not (collection_path.name.startswith("test_") and collection_path.suffix == ".py"):
        return None
    from inspect_reach import reaches_inspect

    return None if reaches_inspect(collection_path) else True


def pytest_sessionstart(session: pytest.Session) -> None:
    """Before pytest-xdist starts its workers, compile the search kernels once (numba caches
    them on disk, 10-25 s on a fresh checkout): otherwise every worker compiles its own copy."""
    config = session.config
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no":
        return  # a worker, or a serial run: the first compiled search compiles them
    from inspect_sparc.core.puzzle.parse import parse_puzzle
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
