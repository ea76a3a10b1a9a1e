"""The local web server participants play on: one per run, shared by every waiting sample.

Standard library only (`http.server`, one thread a request), so it runs beside Inspect's event
loop, under asyncio or trio alike, and starts before Inspect's display does (its address is
printed where every display mode leaves it visible). Every request (page, script, API) needs the
run's token: in the address (`/?token=...`, which also sets a cookie) or the cookie. Request
bodies are checked by `core.human_input` first; whatever is refused is answered 4xx with a
message, never an exception that reaches the run.
"""

from __future__ import annotations

import json
import secrets
import socket
import sys
import threading
from collections.abc import Callable
from http import cookies
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from inspect_sparc.core.human_input import (
    HumanInputError,
    body_length,
    json_object,
    read_field,
    read_handle,
    read_name,
    token_matches,
)
from inspect_sparc.evals.human.pool import Answer, Offer, Participant, Pool

#: The cookie holding the run's token once the address has been opened.
TOKEN_COOKIE = "sparc_human_token"
#: The page's files (package data beside this module), by request path.
ASSETS = {
    "/": ("page.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
}
#: Sent with every response: nothing cached, no token in a Referer, only our own scripts.
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}
#: Seconds a request for the next puzzle waits for one to open before answering "waiting".
WAIT_FOR_PUZZLE = 5.0


def asset(name: str) -> bytes:
    """A page file shipped in the package (`evals/human/assets/`).

    Args:
        name: the file's name: `page.html`, `app.js` or `app.css`.

    Returns:
        The file's bytes."""
    return (
        resources.files("inspect_sparc.evals.human").joinpath("assets").joinpath(name).read_bytes()
    )


class HumanServer:
    """The run's server: its pool of offers, its token and address, its serving thread."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, heartbeat: float = 15.0):
        self.pool = Pool(heartbeat)
        #: Per request thread: the offers it answered, woken once its reply is sent.
        self._answered = threading.local()
        self.token = secrets.token_urlsafe(24)
        self.httpd = ThreadingHTTPServer((host, port), self._handler_class())
        self.httpd.daemon_threads = True
        bound = self.httpd.server_address[1]
        shown = host if host not in ("", "0.0.0.0", "::") else socket.gethostname()
        self.url = f"http://{shown}:{bound}/?token={self.token}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Stop serving (the page then says the run is over)."""
        self.httpd.shutdown()
        self.httpd.server_close()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(RequestHandler):
            owner = server

        return Handler

    # --- the API: each takes the checked body, returns the JSON reply ------------------------

    def join(self, body: dict[str, Any]) -> dict[str, Any]:
        """A participant names themself once; their handle comes back.

        Args:
            body: the request: `name`, 1 to `MAX_NAME_CHARS` printable characters (a bad one raises
                HumanInputError, answered 400).

        Returns:
            `{"participant": handle, "name": name}`; the page sends the handle with every
            later request."""
        person = self.pool.join(read_name(body.get("name")))
        return {"participant": person.handle, "name": person.name}

    def _person(self, body: dict[str, Any]) -> Participant:
        return self.pool.participant(read_field(body, "participant", read_handle))

    def _held(self, body: dict[str, Any]) -> tuple[Participant, Offer]:
        """The participant and the puzzle offer they hold, as the body names them."""
        person = self._person(body)
        return person, self.pool.held(person, read_field(body, "offer", read_handle))

    def next(self, body: dict[str, Any]) -> dict[str, Any]:
        """The participant's puzzle: the one they hold, else a new one; or "waiting".

        Args:
            body: the request: `participant`, the handle `join` gave.

        Returns:
            `{"state": "puzzle", "offer", "view", "progress", "yours"}`: the offer's handle, what
            the page shows of the puzzle, the run's answered and open counts and how many this
            participant answered; or `{"state": "waiting", ...}` with no offer when none opened
            within `WAIT_FOR_PUZZLE` seconds."""
        person = self._person(body)
        offer = self.pool.assign(person)
        if offer is None and self.pool.wait_for_offer(WAIT_FOR_PUZZLE):
            offer = self.pool.assign(person)
        progress = {"answered": self.pool.answered, "open": self.pool.open_count()}
        if offer is None:
            return {"state": "waiting", "progress": progress, "yours": person.answered}
        return {
            "state": "puzzle",
            "offer": offer.handle,
            "view": offer.view,
            "progress": progress,
            "yours": person.answered,
        }

    def heartbeat(self, body: dict[str, Any]) -> dict[str, Any]:
        """The page is still open (a participant silent too long loses their puzzle).

        Args:
            body: the request: `participant`, the handle `join` gave.

        Returns:
            `{"holding": handle}`: the offer the participant holds, None when none (it was
            handed to someone else while the page was silent)."""
        person = self._person(body)
        return {"holding": person.offer.handle if person.offer else None}

    def release(self, body: dict[str, Any]) -> dict[str, Any]:
        """The tab is closing: its puzzle goes back to the pool.

        Args:
            body: the request: `participant`, the handle `join` gave.

        Returns:
            `{"released": True}`."""
        self.pool.release(self._person(body))
        return {"released": True}

    def submit(self, body: dict[str, Any]) -> dict[str, Any]:
        """A whole answer (`sparc`, `algopuzzlevqa`): recorded once, with feedback.

        Args:
            body: the request: `participant`, `offer` (the handle of the puzzle they hold) and the
                judge's fields (`path`, `moves` and `undos`, or `choice`).

        Returns:
            `{"feedback", "over"}`: the page's feedback on the answer, and whether no other puzzle
            is open now."""
        person, offer = self._held(body)
        if not hasattr(offer.judge, "submit"):
            raise HumanInputError("this puzzle is played move by move (/api/move)")
        text, shown, moves, undos = offer.judge.submit(body)
        self._finish(person, offer, text, moves, undos, gave_up=False)
        return {"feedback": shown, "over": self._over()}

    def move(self, body: dict[str, Any]) -> dict[str, Any]:
        """One step of a `sparc_gym` episode; the answer is recorded when the episode ends.

        Args:
            body: the request: `participant`, `offer` (the handle of the gym puzzle they hold) and
                `action` (0 right, 1 up, 2 left, 3 down).

        Returns:
            The judge's reply on the step (see `GymJudge.move`), with `over` added once the
            episode ended."""
        person, offer = self._held(body)
        if not hasattr(offer.judge, "move"):
            raise HumanInputError("this puzzle is answered whole (/api/submit)")
        reply: dict[str, Any] = offer.judge.move(body)
        if reply["ended"]:
            env = offer.judge.env
            self._finish(person, offer, env, env.steps, env.backtracks, gave_up=False)
            reply["over"] = self._over()
        return reply

    def give_up(self, body: dict[str, Any]) -> dict[str, Any]:
        """The participant gives up this puzzle: recorded as an answer (not solved).

        Args:
            body: the request: `participant` and `offer`, the handle of the puzzle they hold.

        Returns:
            `{"over": ...}`: whether no other puzzle is open now."""
        person, offer = self._held(body)
        result = offer.judge.give_up()
        moves = result.steps if offer.judge.kind == "gym" else 0
        undos = result.backtracks if offer.judge.kind == "gym" else 0
        self._finish(person, offer, result, moves, undos, gave_up=True)
        return {"over": self._over()}

    def _finish(
        self, person: Participant, offer: Any, result: Any, moves: int, undos: int, gave_up: bool
    ) -> None:
        seconds = round(self.pool.clock() - offer.shown_at, 3)
        answer = Answer(person.name, seconds, moves, undos, gave_up, result)
        self.pool.finish(person, offer, answer)
        pending = getattr(self._answered, "offers", None)
        if pending is None:  # called outside a request: nothing to send first
            offer.done.set()
        else:
            pending.append(offer)

    def _over(self) -> bool:
        """True when no other puzzle is open now: the page says the run is over once the
        server stops (in a run with more samples than open puzzles, the next one still comes)."""
        return self.pool.open_count() == 0

    def wake_answered(self) -> None:
        """Wake the solvers of the offers this request answered (after its reply was sent)."""
        offers = getattr(self._answered, "offers", None) or []
        self._answered.offers = None
        for offer in offers:
            offer.done.set()

    def routes(self) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        """The API's paths and their functions.

        Returns:
            Each API path (`/api/join`, `/api/next`, ...) -> the method answering it, which takes
            the request's JSON object and returns the JSON reply."""
        return {
            "/api/join": self.join,
            "/api/next": self.next,
            "/api/heartbeat": self.heartbeat,
            "/api/release": self.release,
            "/api/submit": self.submit,
            "/api/move": self.move,
            "/api/giveup": self.give_up,
        }


class RequestHandler(BaseHTTPRequestHandler):
    """One request: the token checked, then a page file or an API call."""

    owner: HumanServer
    server_version = "inspect-sparc-human"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: requests are not logged (the eval's display owns the terminal).

        Args:
            format: the `%`-format string the base class would log.
            *args: its values."""

    def _token(self) -> tuple[str | None, bool]:
        """The token the request carries and whether it came in the address."""
        query = parse_qs(urlsplit(self.path).query).get("token")
        if query:
            return query[0], True
        jar = cookies.SimpleCookie()
        try:
            jar.load(self.headers.get("Cookie", ""))
        except cookies.CookieError:
            return None, False
        morsel = jar.get(TOKEN_COOKIE)
        return (morsel.value if morsel else None), False

    def _reply(self, status: int, body: bytes, kind: str, extra: dict[str, str] | None = None):
        self.send_response(status)
        for name, value in {**HEADERS, **(extra or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: dict[str, Any]) -> None:
        self._reply(status, json.dumps(value).encode("utf-8"), "application/json")

    def _authorised(self) -> bool:
        token, in_address = self._token()
        if token_matches(token, self.owner.token):
            return True
        self.close_connection = True
        self._json(403, {"error": "wrong or missing token: open the address the run printed"})
        return False

    def do_GET(self) -> None:
        """A page file (the token checked; from the address, it is kept in a cookie)."""
        if not self._authorised():
            return
        token, in_address = self._token()
        found = ASSETS.get(urlsplit(self.path).path)
        if found is None:
            self._json(404, {"error": "no such page"})
            return
        extra = {}
        if in_address:
            extra["Set-Cookie"] = f"{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
        self._reply(200, asset(found[0]), found[1], extra)

    def do_POST(self) -> None:
        """An API call: token, size and JSON checked, then the route's function."""
        try:
            length = body_length(self.headers.get("Content-Length"))
        except HumanInputError as error:
            self.close_connection = True
            self._json(error.status, {"error": str(error)})
            return
        raw = self.rfile.read(length) if length else b""
        if not self._authorised():
            return
        route = self.owner.routes().get(urlsplit(self.path).path)
        if route is None:
            self._json(404, {"error": "no such API call"})
            return
        self.owner._answered.offers = []
        try:
            self._json(200, route(json_object(raw)))
        except HumanInputError as error:
            self._json(error.status, {"error": str(error)})
        except Exception as error:  # noqa: BLE001 - a request must never stop the run
            print(f"human page: {type(error).__name__}: {error}", file=sys.stderr)
            self._json(500, {"error": "the server could not handle this request"})
        finally:
            self.wfile.flush()
            self.owner.wake_answered()
