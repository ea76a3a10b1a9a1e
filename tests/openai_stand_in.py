"""A stand-in for a local OpenAI-compatible server (llama.cpp's, vLLM's, Ollama's), stdlib only.

It serves what those servers serve and what Inspect's providers call: `POST /v1/chat/completions`
(plain JSON, or server-sent events when the request streams), `GET /v1/models`, and a 404 for
the Responses API (`/v1/responses`), which such servers do not have. Replies come from a
function of the request body, so a test scripts a model that makes real tool calls. It listens
on 127.0.0.1 on a free port, in a thread of the test process, and is shut down on exit.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: A scripted model: the request body in, the assistant message out (`content`, `tool_calls`
#: with `function.arguments` as raw text, which may be broken JSON on purpose).
Respond = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class StandIn:
    """The running server: its base URL (ends in `/v1`) and every request it was sent."""

    base_url: str
    requests: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)

    def paths(self) -> list[str]:
        return [path for _, path, _ in self.requests]


def completion(model: str, message: dict[str, Any], number: int) -> dict[str, Any]:
    """A `chat.completion` object holding the message (token usage included, as servers do)."""
    reason = "tool_calls" if message.get("tool_calls") else "stop"
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": reason}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def chunks(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The completion as `chat.completion.chunk` events: the whole message in one delta."""
    [choice] = body["choices"]
    delta = {"role": "assistant", **choice["message"]}
    for index, call in enumerate(delta.get("tool_calls") or []):
        call["index"] = index
    base = {key: body[key] for key in ("id", "created", "model")}
    yield {**base, "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]}
    end = {"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}
    yield {**base, "object": "chat.completion.chunk", "choices": [end], "usage": body["usage"]}


def handler(respond: Respond, server: StandIn, lock: threading.Lock) -> type:
    """The request handler class, bound to the scripted model and the request log."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def send_json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def record(self, body: dict[str, Any]) -> int:
            with lock:
                server.requests.append((self.command, self.path, body))
                return len(server.requests)

        def do_GET(self) -> None:
            self.record({})
            if self.path.rstrip("/").endswith("/v1/models"):
                model = {"id": "stand-in", "object": "model", "max_model_len": 32768}
                self.send_json(200, {"object": "list", "data": [model]})
            else:
                self.send_json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            number = self.record(body)
            if not self.path.endswith("/v1/chat/completions"):
                self.send_json(404, {"error": {"message": f"File Not Found: {self.path}"}})
                return
            reply = completion(body.get("model", ""), respond(body), number)
            if not body.get("stream"):
                self.send_json(200, reply)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for chunk in chunks(reply):
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")

    return Handler


@contextlib.contextmanager
def stand_in_server(respond: Respond) -> Iterator[StandIn]:
    """Run the stand-in on 127.0.0.1 (a free port) while the block runs; shut it down after."""
    server = StandIn(base_url="")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler(respond, server, threading.Lock()))
    httpd.timeout = 10
    server.base_url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1})
    thread.daemon = True
    thread.start()
    try:
        yield server
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)
