"""Who plays which puzzle: the open puzzles of a run (offers) and the participants holding them.

Each sample's solver puts one `Offer` in the pool and waits for its answer; the page's server
hands offers out, one to a participant at a time, so no two participants ever hold the same
puzzle. A participant whose page stops sending heartbeats (a closed tab) or who releases their
puzzle hands it back to the pool for the next participant. An answer is final: once an offer
holds one, nothing changes it (a replayed submit is refused). Plain Python, thread-safe: the
server answers requests on its own threads while the samples wait on Inspect's event loop.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspect_sparc.core.human_input import HumanInputError


@dataclass
class Answer:
    """A participant's answer to one puzzle, as the sample records it."""

    participant: str
    seconds: float
    moves: int
    undos: int
    gave_up: bool
    #: What the judge made of the answer (the completion text, the gym's moves), for the solver.
    result: Any = None


@dataclass
class Offer:
    """One sample's puzzle, open until answered. `view` is all the page is shown; `judge`
    checks and records what the page sends (see `judges.py`)."""

    judge: Any
    view: dict[str, Any]
    handle: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    holder: str | None = None
    shown_at: float = 0.0
    answer: Answer | None = None
    done: threading.Event = field(default_factory=threading.Event)


@dataclass
class Participant:
    """A person playing: the name they gave, their last heartbeat, the offer they hold."""

    name: str
    handle: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    seen: float = field(default_factory=time.monotonic)
    offer: Offer | None = None
    answered: int = 0


class Pool:
    """The run's open offers and its participants (see the module docstring)."""

    def __init__(self, heartbeat: float = 15.0, clock: Callable[[], float] = time.monotonic):
        self.heartbeat = heartbeat
        self.clock = clock
        self.lock = threading.RLock()
        self.offers: list[Offer] = []
        self.participants: dict[str, Participant] = {}
        self.answered = 0
        #: Set whenever an offer is added, so a waiting request can wake up.
        self.changed = threading.Condition(self.lock)

    def add(self, offer: Offer) -> None:
        """Open an offer (a sample's solver, as it starts).

        Args:
            offer: the sample's offer, appended after the open ones (offers go out oldest first)."""
        with self.lock:
            self.offers.append(offer)
            self.changed.notify_all()

    def withdraw(self, offer: Offer) -> None:
        """Close an offer that will never be answered (its sample was cancelled).

        Args:
            offer: the offer to close; a participant holding it holds nothing afterwards."""
        with self.lock:
            if offer in self.offers:
                self.offers.remove(offer)
            for person in self.participants.values():
                if person.offer is offer:
                    person.offer = None

    def join(self, name: str) -> Participant:
        """A new participant called `name`.

        Args:
            name: the name the person gave (already checked by the server).

        Returns:
            The participant, with a fresh random handle, registered and seen now."""
        with self.lock:
            person = Participant(name, seen=self.clock())
            self.participants[person.handle] = person
            return person

    def participant(self, handle: str) -> Participant:
        """The participant with this handle (HumanInputError 403 if none), marked as seen.

        Args:
            handle: the participant's handle, as the server gave it out on joining.

        Returns:
            The participant, its last-seen time set to now."""
        with self.lock:
            person = self.participants.get(handle)
            if person is None:
                raise HumanInputError("unknown participant: join first", status=403)
            person.seen = self.clock()
            return person

    def expire(self) -> None:
        """Hand back the offers of participants silent for longer than `heartbeat` seconds."""
        with self.lock:
            now = self.clock()
            for person in self.participants.values():
                if person.offer is not None and now - person.seen > self.heartbeat:
                    self.release(person)

    def release(self, person: Participant) -> None:
        """Hand `person`'s offer back to the pool (a closed tab, an explicit release).

        Args:
            person: the participant; a held, unanswered offer goes back to the pool with its judge
                reset, and nothing happens when they hold none."""
        with self.lock:
            offer = person.offer
            person.offer = None
            if offer is not None and offer.answer is None:
                offer.judge.reset()
                offer.holder = None
                self.changed.notify_all()

    def assign(self, person: Participant) -> Offer | None:
        """`person`'s current offer, else the oldest open offer no one holds (None: none).

        Args:
            person: the participant asking for a puzzle (offers of silent participants are handed
                back first).

        Returns:
            The offer `person` now holds, or None when every open offer is held by someone else."""
        with self.lock:
            self.expire()
            if person.offer is not None and person.offer.answer is None:
                return person.offer
            for offer in self.offers:
                if offer.answer is None and offer.holder is None:
                    offer.holder = person.handle
                    offer.shown_at = self.clock()
                    person.offer = offer
                    return offer
            return None

    def held(self, person: Participant, handle: str) -> Offer:
        """The unanswered offer `handle` that `person` holds, else a HumanInputError (409 for an
        offer already answered or not theirs: a replayed or stale request).

        Args:
            person: the participant answering.
            handle: the offer's handle, as the page received it with the puzzle.

        Returns:
            The offer."""
        with self.lock:
            offer = person.offer
            if offer is None or offer.handle != handle:
                raise HumanInputError(
                    "this puzzle is not yours to answer (already answered, or handed to "
                    "someone else after your page went quiet)",
                    status=409,
                )
            return offer

    def finish(self, person: Participant, offer: Offer, answer: Answer) -> None:
        """Record `answer` on `offer` (once only); its sample's solver wakes on `offer.done`,
        which the server sets once the reply is sent (the run may end as the solver wakes).

        Args:
            person: the participant who answered; they hold nothing afterwards.
            offer: the offer answered; a second answer raises HumanInputError 409.
            answer: the answer to record."""
        with self.lock:
            if offer.answer is not None:
                raise HumanInputError("this puzzle has already been answered", status=409)
            offer.answer = answer
            person.offer = None
            person.answered += 1
            self.answered += 1
            if offer in self.offers:
                self.offers.remove(offer)
            self.changed.notify_all()

    def open_count(self) -> int:
        """How many offers are open (held or not).

        Returns:
            The number of offers with no answer yet."""
        with self.lock:
            return sum(1 for offer in self.offers if offer.answer is None)

    def wait_for_offer(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for an open offer; True when there is one.

        Args:
            timeout: the longest wait, in seconds of the pool's clock.

        Returns:
            True as soon as an offer is open, False when none opened within `timeout`."""
        deadline = self.clock() + timeout
        with self.lock:
            while self.open_count() == 0:
                left = deadline - self.clock()
                if left <= 0:
                    return False
                self.changed.wait(left)
            return True
