"""Fetch SPaRC records from ModelScope, Hugging Face, the bundled sample or a local file.

Both hubs are read the same way: the pinned revision of the dataset repository is downloaded
with the hub's own `snapshot_download` (into the hub's usual cache), then the data files of the
requested config and split are read. A rerun first looks in that cache with
`local_files_only=True`, so it works offline. Any failure becomes one `SourceError` that names
the source and the ways out, within seconds: the hub clients' own retry loops (20 s and more)
are skipped when a quick connection check shows the hub cannot be reached.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from inspect_sparc.core.suggest import did_you_mean
from inspect_sparc.runtime.cache import building_lock, write_entry
from inspect_sparc.runtime.downloads import Snapshot, cache_base, check_reachable, snapshot
from inspect_sparc.runtime.downloads import SourceError as SourceError  # raised by the loaders
from inspect_sparc.runtime.processes import workers_for

#: Dataset configs of `lkaesberg/SPaRC`. `all` is the benchmark; the others are separate
#: puzzles with only some rule types (the paper's per-rule results).
SUBSETS = (
    "all",
    "dots",
    "dots_stars_polys",
    "gaps",
    "gaps_dots_triangles",
    "polys",
    "polys_ylops",
    "stars",
    "stones",
    "stones_stars",
    "triangles",
)
SPLITS = ("test", "train")
HUBS = ("modelscope", "huggingface")
BUNDLED = "sample"
DATA_SUFFIXES = (".parquet", ".jsonl", ".json")
SAMPLE_FILE = Path(__file__).parents[1] / "data" / "sparc_sample.jsonl"
#: `source=generated:SEED`: fresh puzzles from the generator, cached on disk.
GENERATED = "generated:"
#: Puzzles in a `generated:SEED` set (the test split's size and level mix); tests shrink it.
GENERATED_SET_SIZE = 500
#: Environment variable: worker processes that build a generated set (default: 1 per 50
#: puzzles, at most 8 and the CPU count; 1 builds in this process).
GENERATOR_WORKERS_ENV = "INSPECT_SPARC_GENERATOR_WORKERS"


@dataclass(frozen=True)
class Hub:
    """A dataset hub: repository, pinned revision, which configs it publishes, where it lives."""

    name: str
    repo_id: str
    revision: str
    subsets: tuple[str, ...]
    default_endpoint: str
    endpoint_env: str


MODELSCOPE = Hub(
    name="modelscope",
    repo_id="evalscope/SPaRC",
    revision="104103a0abae909a46b85f11fb2f949fc7448f87",
    subsets=("all",),
    default_endpoint="https://modelscope.cn",
    endpoint_env="MODELSCOPE_DOMAIN",
)
HUGGINGFACE = Hub(
    name="huggingface",
    repo_id="lkaesberg/SPaRC",
    revision="e2d908363190e9a244f931df2654a501facc90a7",
    subsets=SUBSETS,
    default_endpoint="https://huggingface.co",
    endpoint_env="HF_ENDPOINT",
)
HUB_BY_NAME = {hub.name: hub for hub in (MODELSCOPE, HUGGINGFACE)}


def ways_out(hub: Hub | None = None) -> str:
    """What to do instead when records cannot be loaded; after a hub failed, the other hub.

    Args:
        hub: the hub that failed, or None.

    Returns:
        One sentence naming the other sources to try."""
    others = [h.name for h in (MODELSCOPE, HUGGINGFACE) if h != hub]
    hubs = " or ".join(f"-T source={name}" for name in others)
    return (
        f"Ways out: {'try the other hub' if hub else 'load from a hub'} ({hubs}), "
        "run once with network access so the hub cache is filled (later runs work offline), "
        "use the bundled puzzles (-T source=sample), or pass a local file of records "
        "(-T source=path/to/sparc_test.jsonl, .json or .parquet)."
    )


def load_records(
    source: str = "modelscope", split: str = "test", subset: str = "all"
) -> list[dict[str, Any]]:
    """Records of one config and split, in dataset order, from a hub, the sample or a file.

    Args:
        source: `modelscope`, `huggingface`, `sample`, `generated:SEED` or a file path.
        split: `test` or `train`.
        subset: the dataset config (`all` is the benchmark).

    Returns:
        The records as published (one dict per puzzle); a source that cannot be read raises
        `SourceError`."""
    if not isinstance(source, str) or not source.strip():
        raise _unknown_source(source)
    if split not in SPLITS:
        raise ValueError(
            f"split must be one of {', '.join(SPLITS)}; got {split!r}{did_you_mean(split, SPLITS)}"
        )
    if subset not in SUBSETS:
        hint = did_you_mean(subset, SUBSETS)
        raise ValueError(f"subset must be one of {', '.join(SUBSETS)}; got {subset!r}{hint}")
    if source in HUB_BY_NAME:
        return load_hub_records(HUB_BY_NAME[source], split, subset)
    if source.startswith(GENERATED):
        return load_generated_records(source, split, subset)
    if source == BUNDLED:
        if (split, subset) != ("test", "all"):
            raise SourceError(
                "The bundled sample holds only puzzles of the test split of config 'all'; "
                "use -T source=huggingface (or modelscope, or a local file) for other data."
            )
        return read_records_file(SAMPLE_FILE)
    path = Path(source).expanduser()
    if path.suffix.lower() in (*DATA_SUFFIXES, ".gz") or path.exists():
        return read_records_file(path)
    raise _unknown_source(source)


def _unknown_source(source: object) -> ValueError:
    return ValueError(
        f"source must be one of {', '.join((*HUBS, BUNDLED))}, generated:SEED (fresh puzzles) "
        f"or a path to a .json, .jsonl, .parquet (or gzipped .gz) file of SPaRC records; "
        f"got {source!r}{did_you_mean(source, (*HUBS, BUNDLED))}"
    )


def read_records_file(path: Path) -> list[dict[str, Any]]:
    """Records from a `.jsonl`, `.json` (a list, or JSON lines) or `.parquet` file; a `.gz`
    suffix is a gzipped JSON file (the shipped 500-puzzle test split is `test_split.jsonl.gz`).

    Args:
        path: the file.

    Returns:
        Its records, in file order."""
    if path.is_dir():
        raise SourceError(
            f"{path} is a folder, not a file of SPaRC records (.jsonl, .json or .parquet). "
            f"{ways_out()}"
        )
    if not path.is_file():
        raise SourceError(f"SPaRC records file not found: {path}. {ways_out()}")
    suffix = path.suffix.lower()
    records: list[dict[str, Any]]
    try:
        if suffix == ".parquet":
            import pyarrow.parquet as pq

            records = pq.read_table(path).to_pylist()
        elif suffix == ".gz":
            import gzip

            records = _read_json_records(gzip.decompress(path.read_bytes()).decode("utf-8"))
        else:
            records = _read_json_records(path.read_text(encoding="utf-8"))
    except Exception as error:
        raise SourceError(
            f"Could not read SPaRC records from {path} (expected a JSON list of records, JSON "
            f"lines or parquet): {error}"
        ) from error
    if not records:
        raise SourceError(f"{path} holds no SPaRC records")
    bad = next((i for i, r in enumerate(records) if not isinstance(r, dict)), None)
    if bad is not None:
        raise SourceError(f"{path}: record {bad + 1} is not a JSON object")
    return records


def _read_json_records(text: str) -> list[Any]:
    stripped = text.lstrip()
    if stripped.startswith("["):
        data = json.loads(stripped)
        return list(data)
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise SourceError(f"line {number} is not valid JSON ({error.msg})") from None
    return records


# --- generated puzzles -----------------------------------------------------------------------


def generated_cache_file(seed: int, n: int) -> Path:
    """Where a generated set is cached (under `cache_base()`).

    Args:
        seed: the generator's seed.
        n: the set's size.

    Returns:
        The cache file (named by the generator version too)."""
    from inspect_sparc.core.generate.generator import GENERATOR_VERSION

    return cache_base() / "sparc" / "generated" / f"v{GENERATOR_VERSION}-seed{seed}-n{n}.jsonl"


def load_generated_records(source: str, split: str, subset: str) -> list[dict[str, Any]]:
    """`generated:SEED`: the cached set for SEED, generated when missing (seconds to minutes).
    One process builds it while the others wait on a lock, then read the file it wrote.

    Args:
        source: `generated:SEED` as given.
        split: must be `test`.
        subset: must be `all`.

    Returns:
        The set's records, in order."""
    text = source[len(GENERATED) :].strip()
    if not (text.isdecimal() and text.isascii()):
        raise ValueError(f"source generated:SEED needs a whole number >= 0 as SEED; got {source!r}")
    if (split, subset) != ("test", "all"):
        raise SourceError(
            "Generated puzzles mirror the test split of config 'all'; drop -T split and "
            "-T subset with -T source=generated:SEED."
        )
    seed, n = int(text), GENERATED_SET_SIZE
    path = generated_cache_file(seed, n)
    if path.is_file():
        return read_records_file(path)
    with building_lock(path, f"source={source}: waiting for another process building it"):
        if path.is_file():  # another process built it while this one waited
            return read_records_file(path)
        return build_generated_set(source, seed, n, path)


def build_generated_set(source: str, seed: int, n: int, path: Path) -> list[dict[str, Any]]:
    """Generate the `n` puzzles of `seed`, with a progress bar, and cache them at `path`.

    Args:
        source: the source as given, for the lines on stderr.
        seed: the generator's seed.
        n: how many puzzles.
        path: the cache file to write.

    Returns:
        The generated records, in order."""
    from inspect_sparc.core.generate.generator import dumps, generate_puzzles, level_schedule
    from inspect_sparc.runtime.progress import progress_bar

    workers = workers_for(n, GENERATOR_WORKERS_ENV)
    # The whole set is built even for a run with --limit (the task cannot see the limit, and the
    # round-robin order needs every level), so say what happens, once per seed and machine.
    print(
        f"source={source}: generating the {n} puzzles of seed {seed} once (seconds with the "
        f"compiled search, minutes without numba); later runs read {path}",
        file=sys.stderr,
    )
    started = time.perf_counter()
    with progress_bar(n, f"generated:{seed}", kinds=level_schedule(n)) as progress:
        records = generate_puzzles(n, seed, workers=workers, progress=progress)
    print(f"Generated {n} puzzles in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    write_entry(path, "".join(dumps(r) + "\n" for r in records), "the generated puzzles")
    return records


# --- hubs -------------------------------------------------------------------------------------


def load_hub_records(hub: Hub, split: str, subset: str) -> list[dict[str, Any]]:
    """Records of a pinned hub dataset: from the hub cache if present, else downloaded.

    Args:
        hub: the pinned hub dataset.
        split: `test` or `train`.
        subset: the dataset config.

    Returns:
        The records of the config and split, in file order."""
    if subset not in hub.subsets:
        raise SourceError(
            f"{hub.repo_id} on {hub.name} publishes only the config(s) {', '.join(hub.subsets)}; "
            f"subset {subset!r} is on Hugging Face: use -T source=huggingface -T subset={subset}."
        )
    patterns = hub_patterns(subset)
    folder, files = _cached_files(hub, split, subset)
    if not files:  # not cached, or cached for other configs only
        missing = (
            f"config {subset!r}, split {split!r} is not in the cached snapshot"
            if folder
            else "it is not in the local cache"
        )
        _check_reachable(hub, missing)
        folder = _snapshot(hub, patterns, local_only=False)
        if folder is None:  # pragma: no cover - the online call raises instead
            raise SourceError(
                f"{hub.repo_id} could not be downloaded from {hub.name}. {ways_out(hub)}"
            )
        files = find_data_files(Path(folder), subset, split)
    if not files:
        raise SourceError(
            f"No data files for config {subset!r}, split {split!r} in {hub.repo_id}@"
            f"{hub.revision[:12]} ({folder}). {ways_out(hub)}"
        )
    return _read_files(files)


def _read_files(files: list[Path]) -> list[dict[str, Any]]:
    """The records of a config's data files, in order."""
    return [record for path in files for record in read_records_file(path)]


def _cached_files(hub: Hub, split: str, subset: str) -> tuple[str | None, list[Path]]:
    """The cached snapshot folder of the pinned revision (None: not cached) and the data files
    of one config and split in it (none when only other configs are cached)."""
    folder = _snapshot(hub, hub_patterns(subset), local_only=True)
    return folder, find_data_files(Path(folder), subset, split) if folder else []


def hub_patterns(subset: str) -> list[str]:
    """The files of a hub snapshot that one config needs: its data and the dataset card.

    Args:
        subset: the dataset config.

    Returns:
        The file patterns to download."""
    return ["*.md", f"*{subset}*"]


def cached_hub_records(
    hub: Hub, split: str = "test", subset: str = "all"
) -> list[dict[str, Any]] | None:
    """Records of a pinned hub dataset from the local cache only, or None when it is not cached
    there: never downloads, and changes no environment variable (safe beside other threads).

    Args:
        hub: the pinned hub dataset.
        split: `test` or `train`.
        subset: the dataset config.

    Returns:
        The records, or None."""
    _, files = _cached_files(hub, split, subset)
    return _read_files(files) if files else None


def _snapshot(hub: Hub, patterns: list[str], local_only: bool) -> str | None:
    """Local folder of the pinned revision, or None when it is not cached (local_only)."""
    return snapshot(_pin(hub), patterns, local_only)


def _pin(hub: Hub) -> Snapshot:
    """The hub's pinned dataset revision, as the downloads take it."""
    return Snapshot(hub.name, hub.repo_id, hub.revision, ways_out(hub))


def _check_reachable(hub: Hub, missing: str) -> None:
    """Fail within seconds when the hub cannot be reached or offline mode is set."""
    check_reachable(_pin(hub), os.environ.get(hub.endpoint_env) or hub.default_endpoint, missing)


# --- data files of a config -------------------------------------------------------------------


def find_data_files(folder: Path, subset: str, split: str) -> list[Path]:
    """Data files of one config and split in a downloaded dataset repository.

    Uses the `configs:` section of the dataset card (README.md) when it names the files, and
    otherwise the usual layout: files under a folder named after the config whose names start
    with the split.

    Args:
        folder: the downloaded repository.
        subset: the dataset config.
        split: `test` or `train`.

    Returns:
        The data files, sorted."""
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in DATA_SUFFIXES)
    relative = {p: p.relative_to(folder).as_posix() for p in files}
    patterns = card_data_files(folder / "README.md", subset, split)
    if patterns:
        return [p for p in files if any(fnmatch(relative[p], pat) for pat in patterns)]
    return [p for p in files if subset in relative[p].split("/")[:-1] and p.name.startswith(split)]


def card_data_files(card: Path, subset: str, split: str) -> list[str]:
    """File patterns the dataset card's YAML header gives for one config and split.

    Args:
        card: the dataset card (README.md).
        subset: the dataset config.
        split: `test` or `train`.

    Returns:
        The file patterns (none when the card is absent or names none)."""
    if not card.is_file():
        return []
    text = card.read_text(encoding="utf-8")
    if not text.startswith("---"):
        return []
    header = text.split("---", 2)[1] if text.count("---") >= 2 else ""
    try:
        import yaml

        meta = yaml.safe_load(header) or {}
    except Exception:  # noqa: BLE001 - a malformed card falls back to the folder layout
        return []
    for config in meta.get("configs") or []:
        if not isinstance(config, dict) or config.get("config_name") != subset:
            continue
        return _split_patterns(config.get("data_files"), split)
    return []


def _split_patterns(data_files: object, split: str) -> list[str]:
    if isinstance(data_files, str):
        return [data_files] if split == "train" else []
    entries: Iterable[Any] = data_files if isinstance(data_files, list) else []
    patterns: list[str] = []
    for entry in entries:
        if isinstance(entry, dict) and entry.get("split") == split:
            path = entry.get("path")
            patterns.extend([path] if isinstance(path, str) else list(path or []))
    return patterns
