"""Sources: hub loading (with fake hub clients), the bundled sample, local files and errors."""

from __future__ import annotations

import gzip
import json
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from huggingface_hub.utils._paths import filter_repo_objects

from inspect_sparc.core import sources
from inspect_sparc.core.sources import HUGGINGFACE, MODELSCOPE, SourceError, load_records
from inspect_sparc.runtime import downloads

CARD = """---
configs:
- config_name: all
  data_files:
  - split: train
    path: all/train-*
  - split: test
    path: all/test-*
- config_name: stars
  data_files:
  - split: test
    path: stars/test-*
---
# SPaRC
"""


class FakeHub:
    """A hub client's `snapshot_download` that behaves as the real ones do, without network.

    The repository holds a card, `all/test-*.parquet`, `all/train-*.jsonl` and (unless
    `stars=False`) `stars/test-*.jsonl`. A download writes only the files matching
    `allow_patterns` (filtered with huggingface_hub's own `filter_repo_objects`) into the
    revision's snapshot folder;
    `local_files_only=True` returns that folder when it exists, whatever it holds, and raises
    otherwise, as both clients do.
    """

    def __init__(
        self,
        root: Path,
        records: list[dict[str, Any]],
        cached: bool = False,
        fail: bool = False,
        stars: bool = True,
    ):
        self.root, self.records, self.fail, self.stars = root, records, fail, stars
        self.calls: list[dict[str, Any]] = []
        if cached:  # a previous run of config `all` filled the cache
            self.fetch(HUGGINGFACE.revision, ["*.md", "*all*"])
            self.fetch(MODELSCOPE.revision, ["*.md", "*all*"])

    def repo_files(self) -> dict[str, Callable[[Path], object]]:
        records = self.records
        files: dict[str, Callable[[Path], object]] = {
            "README.md": lambda p: p.write_text(CARD),
            "all/test-00000.parquet": lambda p: pq.write_table(pa.Table.from_pylist(records), p),
            "all/train-00000.jsonl": lambda p: p.write_text(json.dumps(records[0])),
        }
        if self.stars:
            files["stars/test-00000.jsonl"] = lambda p: p.write_text(json.dumps(records[-1]))
        return files

    def fetch(self, revision: str, allow_patterns: list[str] | None) -> Path:
        folder = self.root / "snapshots" / revision
        folder.mkdir(parents=True, exist_ok=True)
        files = self.repo_files()
        for name in filter_repo_objects(list(files), allow_patterns=allow_patterns):
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            files[name](folder / name)
        return folder

    def __call__(
        self,
        *,
        repo_id: str,
        repo_type: str,
        revision: str,
        allow_patterns: list[str] | None = None,
        local_files_only: bool = False,
    ) -> str:
        self.calls.append(
            {
                "repo_id": repo_id,
                "repo_type": repo_type,
                "revision": revision,
                "allow_patterns": allow_patterns,
                "local_files_only": local_files_only,
            }
        )
        folder = self.root / "snapshots" / revision
        if local_files_only:
            if folder.is_dir():
                return str(folder)
            raise FileNotFoundError("Cannot find an appropriate cached snapshot folder")
        if self.fail:
            raise ConnectionError("[E1020] Connection failed: Max retries exceeded")
        return str(self.fetch(revision, allow_patterns))

    def downloaded(self, revision: str) -> set[str]:
        """Files of the snapshot folder, relative to it."""
        folder = self.root / "snapshots" / revision
        return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(autouse=True)
def neutral_environment(monkeypatch):
    """Tests pass whatever the caller's environment says about offline mode, proxies, mirrors."""
    for name in (
        "HF_HUB_OFFLINE",
        "HF_DATASETS_OFFLINE",
        "MODELSCOPE_OFFLINE",
        "HF_ENDPOINT",
        "MODELSCOPE_DOMAIN",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def reachable(monkeypatch):
    """Pretend the hub host accepts connections."""

    class Connection:
        def __enter__(self):
            return self

        def __exit__(self, *args):
            return False

    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: Connection())


@pytest.fixture
def unreachable(monkeypatch):
    """Pretend there is no network, as in CI."""

    def refuse(*args, **kwargs):
        raise OSError("[Errno -2] Name or service not known")

    monkeypatch.setattr(socket, "create_connection", refuse)


def use_fake(monkeypatch, fake: FakeHub) -> None:
    monkeypatch.setattr(downloads, "snapshot_function", lambda client: fake)


@pytest.mark.parametrize("hub", [MODELSCOPE, HUGGINGFACE])
def test_hub_download_reads_the_pinned_config_and_split(
    hub, tmp_path, monkeypatch, reachable, sparc_records
):
    fake = FakeHub(tmp_path, sparc_records[:7])
    use_fake(monkeypatch, fake)
    records = load_records(hub.name, "test", "all")
    assert [r["id"] for r in records] == [r["id"] for r in sparc_records[:7]]
    assert records[0]["solutions"] == sparc_records[0]["solutions"]
    assert all(c["repo_id"] == hub.repo_id and c["revision"] == hub.revision for c in fake.calls)
    assert all(c["repo_type"] == "dataset" for c in fake.calls)
    assert [c["local_files_only"] for c in fake.calls] == [True, False]
    # only the card and the requested config were fetched, not the whole repository
    assert fake.downloaded(hub.revision) == {
        "README.md",
        "all/test-00000.parquet",
        "all/train-00000.jsonl",
    }
    assert [r["id"] for r in load_records(hub.name, "train", "all")] == [sparc_records[0]["id"]]


def test_rerun_uses_the_cache_without_touching_the_network(
    tmp_path, monkeypatch, unreachable, sparc_records
):
    fake = FakeHub(tmp_path, sparc_records[:3], cached=True)
    use_fake(monkeypatch, fake)
    assert len(load_records("modelscope")) == 3
    assert [c["local_files_only"] for c in fake.calls] == [True]


@pytest.mark.parametrize("source", ["modelscope", "huggingface"])
def test_unreachable_hub_fails_fast_with_the_ways_out(
    source, tmp_path, monkeypatch, unreachable, sparc_records
):
    fake = FakeHub(tmp_path, sparc_records)
    use_fake(monkeypatch, fake)
    with pytest.raises(SourceError) as error:
        load_records(source)
    # the client's download (which retries for 20 s and more) is never started
    assert [c["local_files_only"] for c in fake.calls] == [True]
    message = str(error.value)
    assert source in message and "source=sample" in message and ".jsonl" in message


def test_download_failure_becomes_one_clear_error(tmp_path, monkeypatch, reachable, sparc_records):
    use_fake(monkeypatch, FakeHub(tmp_path, sparc_records, fail=True))
    with pytest.raises(SourceError, match="Could not download evalscope/SPaRC.*ConnectionError"):
        load_records("modelscope")


@pytest.mark.parametrize(
    ("source", "variable"),
    [("huggingface", "HF_HUB_OFFLINE"), ("modelscope", "MODELSCOPE_OFFLINE")],
)
def test_offline_mode_without_cache_is_a_clear_error(
    source, variable, tmp_path, monkeypatch, reachable, sparc_records
):
    monkeypatch.setenv(variable, "1")
    fake = FakeHub(tmp_path, sparc_records)
    use_fake(monkeypatch, fake)
    with pytest.raises(SourceError, match="offline mode"):
        load_records(source)
    assert [c["local_files_only"] for c in fake.calls] == [True]


def test_modelscope_names_where_per_rule_configs_are():
    with pytest.raises(SourceError, match="source=huggingface -T subset=stars"):
        load_records("modelscope", "test", "stars")


def test_missing_config_files_in_snapshot_is_a_clear_error(
    tmp_path, monkeypatch, reachable, sparc_records
):
    use_fake(monkeypatch, FakeHub(tmp_path, sparc_records, stars=False))
    with pytest.raises(SourceError, match="No data files for config 'stars'"):
        load_records("huggingface", "test", "stars")


def test_folder_layout_is_used_when_the_card_names_no_files(tmp_path, sparc_records):
    folder = tmp_path / "repo"
    (folder / "all").mkdir(parents=True)
    (folder / "all" / "test-00000-of-00001.jsonl").write_text(json.dumps(sparc_records[0]))
    (folder / "all" / "train-00000-of-00001.jsonl").write_text(json.dumps(sparc_records[1]))
    files = sources.find_data_files(folder, "all", "test")
    assert [f.name for f in files] == ["test-00000-of-00001.jsonl"]


def test_bundled_sample_needs_no_network():
    records = load_records("sample")
    assert len(records) == 25


def test_bundled_sample_has_only_the_test_split():
    with pytest.raises(SourceError, match="test split"):
        load_records("sample", "train")


@pytest.mark.parametrize("suffix", [".jsonl", ".json", ".parquet", ".jsonl.gz"])
def test_local_files(suffix, tmp_path, sparc_records):
    path = tmp_path / f"records{suffix}"
    if suffix == ".jsonl.gz":
        path.write_bytes(gzip.compress("\n".join(json.dumps(r) for r in sparc_records).encode()))
    elif suffix == ".jsonl":
        path.write_text("\n".join(json.dumps(r) for r in sparc_records) + "\n\n")
    elif suffix == ".json":
        path.write_text(json.dumps(sparc_records))
    else:
        pq.write_table(pa.Table.from_pylist(sparc_records), path)
    records = load_records(str(path))
    assert [r["id"] for r in records] == [r["id"] for r in sparc_records]
    assert records[3]["puzzle_array"] == sparc_records[3]["puzzle_array"]


def test_missing_file_names_the_path_and_the_ways_out(tmp_path):
    with pytest.raises(SourceError, match="not found.*source=sample"):
        load_records(str(tmp_path / "nope.jsonl"))


@pytest.mark.parametrize("name", ["records", "records.jsonl"])
def test_a_folder_is_named_as_a_folder_not_as_a_missing_file(tmp_path, name):
    (tmp_path / name).mkdir()
    with pytest.raises(SourceError, match="is a folder, not a file of SPaRC records") as error:
        load_records(str(tmp_path / name))
    assert "not found" not in str(error.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"id": 1}\n{broken', "line 2 is not valid JSON"),
        ("", "no SPaRC records"),
        ("[1, 2]", "record 1 is not a JSON object"),
    ],
)
def test_malformed_files_are_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(SourceError, match=message):
        load_records(str(path))


def test_unknown_source_lists_the_choices():
    with pytest.raises(ValueError, match="modelscope, huggingface, sample"):
        load_records("kaggle")


@pytest.mark.parametrize(("split", "subset"), [("dev", "all"), ("test", "everything")])
def test_bad_split_or_subset(split, subset):
    with pytest.raises(ValueError, match="must be one of"):
        load_records("sample", split, subset)


def test_a_cache_without_the_requested_config_downloads_it(
    tmp_path, monkeypatch, reachable, sparc_records
):
    fake = FakeHub(tmp_path, sparc_records[:6], cached=True)  # the cache holds `all` only
    use_fake(monkeypatch, fake)
    records = load_records("huggingface", "test", "stars")
    assert [r["id"] for r in records] == [sparc_records[5]["id"]]
    assert [c["local_files_only"] for c in fake.calls] == [True, False]
    assert "stars/test-00000.jsonl" in fake.downloaded(HUGGINGFACE.revision)


@pytest.mark.parametrize("source", [None, "", "  ", 5])
def test_empty_or_non_text_source_is_a_value_error(source: object) -> None:
    with pytest.raises(ValueError, match="source must be one of"):
        load_records(source)  # type: ignore[arg-type]


def test_offline_with_only_other_configs_cached_says_which_config_is_missing(
    tmp_path, monkeypatch, unreachable, sparc_records
):
    fake = FakeHub(tmp_path, sparc_records[:2], cached=True)
    use_fake(monkeypatch, fake)
    with pytest.raises(SourceError, match="config 'stars', split 'test' is not in the cached"):
        load_records("huggingface", "test", "stars")


@pytest.mark.parametrize("hub", [MODELSCOPE, HUGGINGFACE])
def test_cached_hub_records_reads_the_cache_and_never_downloads(
    hub, tmp_path, monkeypatch, unreachable, sparc_records
):
    empty = FakeHub(tmp_path / "empty", sparc_records[:3])
    use_fake(monkeypatch, empty)
    assert sources.cached_hub_records(hub, "test") is None
    assert [c["local_files_only"] for c in empty.calls] == [True]
    assert not (tmp_path / "empty" / "snapshots").exists()  # nothing was fetched
    cached = FakeHub(tmp_path / "cached", sparc_records[:3], cached=True)
    use_fake(monkeypatch, cached)
    records = sources.cached_hub_records(hub, "test")
    assert records is not None
    assert [r["id"] for r in records] == [r["id"] for r in sparc_records[:3]]
    assert [c["local_files_only"] for c in cached.calls] == [True]


def test_the_training_guard_reads_cached_test_grids_without_offline_variables(
    tmp_path, monkeypatch, unreachable, sparc_records
):
    import os

    from inspect_sparc.core.generate import leakage
    from inspect_sparc.core.generate.grid_hashes import grid_hash

    fake = FakeHub(tmp_path, sparc_records[:4], cached=True)
    use_fake(monkeypatch, fake)
    leakage.cached_test_hashes.cache_clear()
    before = dict(os.environ)
    try:
        hashes = leakage.cached_test_hashes()
    finally:
        leakage.cached_test_hashes.cache_clear()
    assert hashes == {grid_hash(r) for r in sparc_records[:4]}
    assert dict(os.environ) == before
