"""What both benchmarks' sources share: their error, the package cache, a reachability check.

SPaRC (`core.sources`) and AlgoPuzzleVQA (`core.algopuzzlevqa.sources`) download from
different hosts, but fail the same way and cache under the same folder.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlparse

CONNECT_TIMEOUT_S = 5.0
CACHE_ENV = "INSPECT_SPARC_CACHE_DIR"


class SourceError(RuntimeError):
    """Records could not be loaded; the message names the source and the ways out."""


def cache_base() -> Path:
    """The package's own cache: $INSPECT_SPARC_CACHE_DIR, else $XDG_CACHE_HOME or ~/.cache,
    then `inspect_sparc` (generated sets, AlgoPuzzleVQA files; the hubs keep their own)."""
    root = os.environ.get(CACHE_ENV)
    if root:
        return Path(root).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "inspect_sparc"


def unreachable(endpoint: str) -> str | None:
    """Why `endpoint` (a URL or host) cannot be reached within seconds, or None if it can.

    A direct TCP connection is tried with a short timeout; behind a proxy (where it would say
    nothing) the check is skipped. Used before downloads whose clients retry for 20 s and more.
    """
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
