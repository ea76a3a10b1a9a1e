"""A participant's side of the human-baseline page over plain HTTP (no browser): the requests
a page makes, every response body kept so a test can search them all for a solution
(`solutions_in`, shared with the browser tests)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.dataset import sparc_dataset

TOKEN_COOKIE = "sparc_human_token"


class Client:
    """Requests to one run's page server, with its token as a cookie unless told otherwise."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url.strip())
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.token = parts.query.removeprefix("token=")
        self.bodies: list[bytes] = []

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        token: str | None = "",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, dict[str, str]]:
        """(status, body, headers) of one request; `token` "" sends the run's token as a
        cookie, None sends none, other text sends that."""
        sent = dict(headers or {})
        cookie = self.token if token == "" else token
        if cookie is not None:
            sent["Cookie"] = f"{TOKEN_COOKIE}={cookie}"
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=sent)
            reply = connection.getresponse()
            data = reply.read()
            self.bodies.append(data)
            return reply.status, data, {k.lower(): v for k, v in reply.getheaders()}
        finally:
            connection.close()

    def post(self, path: str, value: Any, token: str | None = "") -> tuple[int, dict[str, Any]]:
        """(status, JSON reply) of an API call with `value` as its JSON body."""
        status, data, _ = self.request("POST", path, json.dumps(value).encode(), token)
        return status, json.loads(data)

    def join(self, name: str) -> str:
        """A new participant's handle."""
        status, reply = self.post("/api/join", {"name": name})
        assert status == 200, reply
        return str(reply["participant"])

    def next(self, participant: str) -> dict[str, Any]:
        """The participant's puzzle (or "waiting")."""
        status, reply = self.post("/api/next", {"participant": participant})
        assert status == 200, reply
        return reply


def serialisations(path: Sequence[tuple[int, int]]) -> list[str]:
    """Every way a solution might be written into a response or a page."""
    pairs = [list(p) for p in path]
    return [
        ", ".join(f"({x},{y})" for x, y in path),
        ", ".join(f"({x}, {y})" for x, y in path),
        json.dumps(pairs),
        json.dumps(pairs, separators=(",", ":")),
        json.dumps([{"x": x, "y": y} for x, y in path]),
        json.dumps([{"x": x, "y": y} for x, y in path], separators=(",", ":")),
    ]


def solutions_in(text: str) -> list[str]:
    """Each stored solution of a bundled sample puzzle that `text` holds, as written there
    (empty when none leaked)."""
    records = [(sample.metadata or {})["puzzle"] for sample in sparc_dataset("sample")]
    return [
        written
        for record in records
        for solution in parse_puzzle(record).solutions
        for written in serialisations(solution)
        if written in text
    ]
