"""`python -m inspect_sparc.generate --seed SEED` fills the cache `-T source=generated:SEED`
reads, so an eval of that set does not build it again (sets shrunk to 5 puzzles here)."""

from __future__ import annotations

import pytest

from inspect_sparc.core import sources
from inspect_sparc.core.generate import generator
from inspect_sparc.generate import main
from inspect_sparc.runtime.downloads import CACHE_ENV

SEED = 3


@pytest.fixture
def small_sets(tmp_path, monkeypatch):
    """`generated:SEED` sets of 5 puzzles, cached under tmp_path/cache."""
    monkeypatch.setattr(sources, "GENERATED_SET_SIZE", 5)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))


def test_the_command_fills_the_cache_the_source_reads_with_the_same_bytes(
    small_sets, tmp_path, monkeypatch, capsys
):
    assert main(["--n", "5", "--seed", str(SEED), "--quiet"]) == 0
    printed = capsys.readouterr().out
    cached = sources.generated_cache_file(SEED, 5)
    assert cached.read_text(encoding="utf-8") == printed  # what the command printed

    # the eval-time build, in another cache, writes the same bytes
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "other"))
    sources.load_records(f"generated:{SEED}")
    assert sources.generated_cache_file(SEED, 5).read_bytes() == cached.read_bytes()

    # and with the command's cache, the source builds nothing
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))

    def no_generation(*args, **kwargs):
        raise AssertionError("the cached set must be read")

    monkeypatch.setattr(generator, "generate_puzzles", no_generation)
    assert len(sources.load_records(f"generated:{SEED}")) == 5


@pytest.mark.parametrize("other", [["--n", "4"], ["--n", "5", "--level", "2"]])
def test_another_set_is_not_cached_as_generated_seed(small_sets, other, capsys):
    assert main([*other, "--seed", str(SEED), "--quiet"]) == 0
    assert not sources.generated_cache_file(SEED, 5).parent.exists()
