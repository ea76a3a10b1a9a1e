"""What both benchmarks' sources share: their error, the package cache, a reachability check,
and the hubs' downloads (a pinned snapshot through the hub's own client, offline switches).

SPaRC (`core.sources`) and AlgoPuzzleVQA (`core.algopuzzlevqa.sources`) download from
different hosts, but fail the same way and cache under the same folder.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

CONNECT_TIMEOUT_S = 5.0
CACHE_ENV = "INSPECT_SPARC_CACHE_DIR"


class SourceError(RuntimeError):
    """Records could not be loaded; the message names the source and the ways out."""


def cache_base() -> Path:
    """The package's own cache: $INSPECT_SPARC_CACHE_DIR, else $XDG_CACHE_HOME or ~/.cache,
    then `inspect_sparc` (generated sets, AlgoPuzzleVQA files; the hubs keep their own).

    Returns:
        The cache folder (not created here)."""
    root = os.environ.get(CACHE_ENV)
    if root:
        return Path(root).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "inspect_sparc"


def unreachable(endpoint: str) -> str | None:
    """Why `endpoint` (a URL or host) cannot be reached within seconds, or None if it can.

    A direct TCP connection is tried with a short timeout; behind a proxy (where it would say
    nothing) the check is skipped. Used before downloads whose clients retry for 20 s and more.

    Args:
        endpoint: a URL or a host name (`https://` assumed without a scheme).

    Returns:
        The host, port and connection error, or None when it connects (or a proxy is set)."""
    if any(os.environ.get(name) for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY")):
        return None
    url = urlparse(endpoint if "://" in endpoint else "https://" + endpoint)
    host = url.hostname or ""
    port = url.port or (80 if url.scheme == "http" else 443)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S):
            return None
    except OSError as error:
        return f"{host}:{port}: {error}"


#: The environment switches that forbid a hub client's downloads, by client name.
OFFLINE_SWITCHES = {
    "huggingface": ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"),
    "modelscope": ("MODELSCOPE_OFFLINE",),
}


def offline_mode(client: str) -> bool:
    """Whether the environment forbids the hub client's downloads (one of its switches set).

    Args:
        client: the hub client's name, `modelscope` or `huggingface`.

    Returns:
        True when one of the client's offline switches is set to a true value."""
    names = OFFLINE_SWITCHES.get(client, ())
    return any(os.environ.get(n, "").lower() in ("1", "true", "yes", "on") for n in names)


def snapshot_function(client: str) -> Callable[..., str]:
    """The hub client's `snapshot_download`, imported only when a hub is used.

    Args:
        client: `modelscope`, or any other name for Hugging Face's client.

    Returns:
        The client's `snapshot_download` function (raises ImportError when not installed)."""
    if client == "modelscope":
        from modelscope import snapshot_download
    else:
        from huggingface_hub import snapshot_download
    function: Callable[..., str] = snapshot_download
    return function


def first_line(error: BaseException) -> str:
    """The first line of an error's message (at most 300 characters), for a one-line error.

    Args:
        error: the exception to describe.

    Returns:
        Its first line, or "no details" when the message is empty."""
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else "no details"


@dataclass(frozen=True)
class Snapshot:
    """One pinned revision of a dataset repository on a hub, and what to say when it fails."""

    client: str
    repo_id: str
    revision: str
    ways_out: str


def snapshot(pin: Snapshot, patterns: list[str], local_only: bool) -> str | None:
    """Local folder of the pinned revision, downloaded unless `local_only`.

    Args:
        pin: the hub client, repository and revision, and the ways out a failure names.
        patterns: the repository files to fetch (`allow_patterns`).
        local_only: look in the client's cache only, never download.

    Returns:
        The snapshot folder, or None when `local_only` and it is not cached; any other failure
        raises one `SourceError` naming the repository and the ways out."""
    download = snapshot_function(pin.client)
    try:
        return download(
            repo_id=pin.repo_id,
            repo_type="dataset",
            revision=pin.revision,
            allow_patterns=patterns,
            local_files_only=local_only,
        )
    except ImportError as error:
        raise SourceError(
            f"The {pin.client} client is not installed ({error}). {pin.ways_out}"
        ) from None
    except Exception as error:
        if local_only:
            return None
        raise SourceError(
            f"Could not download {pin.repo_id}@{pin.revision[:12]} from {pin.client}: "
            f"{type(error).__name__}: {first_line(error)}. {pin.ways_out}"
        ) from error


def check_reachable(pin: Snapshot, endpoint: str, missing: str) -> None:
    """Fail within seconds when the hub cannot be reached or offline mode is set.

    Args:
        pin: the hub client, repository and revision, and the ways out a failure names.
        endpoint: the hub's URL or host (its endpoint variable's value, else its default).
        missing: what is not cached, for the message."""
    if offline_mode(pin.client):
        raise SourceError(
            f"{pin.repo_id}@{pin.revision[:12]}: {missing} and offline mode is set. {pin.ways_out}"
        )
    reason = unreachable(endpoint)
    if reason:
        raise SourceError(
            f"Cannot reach {pin.client} ({reason}) to download "
            f"{pin.repo_id}@{pin.revision[:12]}, and {missing}. {pin.ways_out}"
        )
