"""Fixtures for the AlgoPuzzleVQA tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from algopuzzlevqa_helpers import FIXTURE_DATA


@pytest.fixture
def fixture_data() -> Path:
    """The shipped copy of the sample's `data` folder (repository layout)."""
    return FIXTURE_DATA


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private download cache, so no test reads or fills the user's cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("INSPECT_SPARC_CACHE_DIR", str(cache))
    return cache
