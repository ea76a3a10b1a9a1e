"""Fixtures for the AlgoPuzzleVQA tests."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
from algopuzzlevqa_helpers import FIXTURE_DATA

from inspect_sparc.core.algopuzzlevqa.images import DEFAULT_MAX_IMAGE_SIZE, resized_copies


@pytest.fixture
def fixture_data() -> Path:
    """The shipped copy of the sample's `data` folder (repository layout)."""
    return cast(Path, FIXTURE_DATA)  # the helper module is seen as `Any` (found on pytest's path)


@pytest.fixture(scope="session")
def resized_images(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 36 shipped images resized once per session (the `images` folder of a cache root)."""
    root = tmp_path_factory.mktemp("algopuzzlevqa-images")
    resized_copies(sorted(FIXTURE_DATA.glob("images/*/*.jpg")), root, DEFAULT_MAX_IMAGE_SIZE)
    return root / "images"


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, resized_images: Path) -> Path:
    """A private download cache, so no test reads or fills the user's cache.

    Its resized-image folder links to the session's, so each eval does not resize the 36 images
    again (the cache is keyed by image bytes, so sharing it changes no result);
    `test_algopuzzlevqa_images` checks the cache filling from empty.
    """
    cache = tmp_path / "cache"
    monkeypatch.setenv("INSPECT_SPARC_CACHE_DIR", str(cache))
    (cache / "algopuzzlevqa").mkdir(parents=True)
    (cache / "algopuzzlevqa" / "images").symlink_to(resized_images, target_is_directory=True)
    return cache
