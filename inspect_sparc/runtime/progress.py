"""Progress bars on stderr, with a time-left estimate that neither swings nor freezes.

Jobs of different kinds take very different times (a level-5 puzzle costs the generator 15 to
50 times a level-1 one, and the levels come interleaved). A rate read from the last few
completions, as rich's own column does, then swings with whichever kind just finished, and it
stands still while a slow job runs. `Estimate` instead keeps each kind's mean time so far and
adds it up over the jobs left, and counts down between completions. A job that runs past its
kind's mean is expected to need half as long again as it has run (job times are heavy-tailed:
the longer one has run, the longer it is likely to run), so the estimate moves on instead of
standing at the jobs after it. `Shown` is what the bar prints: it counts down by the clock and
follows the estimate's changes over a few seconds, so a finished job does not make it jump.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.progress import Task

__all__ = ["Estimate", "Shown", "progress_bar"]

#: What a job past its kind's mean is expected to need still, as a share of the time it has run.
OVERRUN_SHARE = 0.5
#: Seconds over which the printed time left follows a change of the estimate.
FOLLOW_SECONDS = 3.0


class Estimate:
    """Seconds left for `kinds` (one entry per job, in the order they finish).

    Each finished job is charged the time since the previous one finished (with a pool this is
    the run's time per job, the workers overlapping). Time left = for each job not finished, its
    kind's mean charge so far (a kind not seen yet: the mean over all jobs), less what the next
    job has already run, or half of what it has run once it has passed its kind's mean. `clock`
    is injectable so that tests can drive time.
    """

    def __init__(
        self, kinds: Sequence[Hashable], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.kinds = list(kinds)
        self.clock = clock
        self.done = 0
        self.last = clock()
        self.spent: dict[Hashable, float] = {}
        self.count: dict[Hashable, int] = {}

    def advance(self, done: int) -> None:
        """`done` jobs are finished (the first `done` of `kinds`); the time since the previous
        call is shared among the jobs finished since then.

        Args:
            done: how many jobs are finished in all, from the start."""
        done = min(done, len(self.kinds))
        if done <= self.done:
            return
        now = self.clock()
        share = (now - self.last) / (done - self.done)
        for kind in self.kinds[self.done : done]:
            self.spent[kind] = self.spent.get(kind, 0.0) + share
            self.count[kind] = self.count.get(kind, 0) + 1
        self.done, self.last = done, now

    def mean(self, kind: Hashable) -> float:
        """The mean seconds a job of `kind` took so far (of all jobs, for a kind not seen).

        Args:
            kind: the kind of job (for instance a puzzle level).

        Returns:
            Seconds per job."""
        if kind in self.count:
            return self.spent[kind] / self.count[kind]
        return sum(self.spent.values()) / sum(self.count.values())

    def seconds_left(self) -> float | None:
        """The estimate now; None before the first job finishes (nothing to go by), 0 at the end.

        Returns:
            Seconds left for the jobs not finished, or None."""
        if self.done >= len(self.kinds):
            return 0.0
        if self.done == 0:
            return None
        running, *after = self.kinds[self.done :]
        rest = sum(self.mean(kind) for kind in after)
        ran = self.clock() - self.last
        return rest + max(self.mean(running) - ran, OVERRUN_SHARE * ran)


class Shown:
    """The time left as printed: it counts down by the clock and moves towards the estimate by
    the share 1 - exp(-dt / FOLLOW_SECONDS) each time it is read, so a change of the estimate
    (a job done sooner or later than expected) shows as a glide, not a jump. Exact at 0."""

    def __init__(self, estimate: Estimate) -> None:
        self.estimate = estimate
        self.value: float | None = None
        self.read_at = estimate.clock()

    def seconds_left(self) -> float | None:
        """The printed value now (None until the estimate has something to go by).

        Returns:
            Seconds left, counted down since the last estimate, or None."""
        target = self.estimate.seconds_left()
        now = self.estimate.clock()
        elapsed, self.read_at = now - self.read_at, now
        if target is None or target == 0.0 or self.value is None:
            self.value = target
            return target
        counted = max(self.value - elapsed, 0.0)
        self.value = counted + (target - counted) * (1.0 - math.exp(-elapsed / FOLLOW_SECONDS))
        return self.value


def format_seconds(seconds: float | None) -> str:
    """`H:MM:SS`, or `-:--:--` when unknown (rich's own format).

    Args:
        seconds: the duration, or None when unknown.

    Returns:
        The duration as text."""
    if seconds is None:
        return "-:--:--"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


@contextmanager
def progress_bar(
    total: int,
    label: str,
    enabled: bool | None = None,
    *,
    kinds: Sequence[Hashable] | None = None,
    transient: bool = False,
) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr (label, counts, percentage, elapsed and time left), as a callable
    taking the count done. Off unless stderr is a terminal (`enabled` overrides). `kinds`, one
    per job in order (for instance puzzle levels), makes the estimate per kind. `transient`
    clears it at the end. It leaves `sys.stdout` alone: the generator writes records there.

    Args:
        total: the number of jobs.
        label: the text before the bar.
        enabled: draw the bar (None: only when stderr is a terminal).
        kinds: one kind per job, in order, for a per-kind estimate of the time left.
        transient: clear the bar when done.

    Yields:
        A callable taking the count of jobs done so far."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.text import Text

    console = Console(stderr=True)
    if not (console.is_terminal if enabled is None else enabled):
        yield lambda done: None  # rich would still write a line break
        return
    estimate = Estimate(kinds if kinds is not None else [None] * total)
    shown = Shown(estimate)

    class TimeLeftColumn(ProgressColumn):
        """The estimate, redrawn on every refresh (so it counts down while a job runs)."""

        def render(self, task: Task) -> RenderableType:
            return Text(format_seconds(shown.seconds_left()), style="progress.remaining")

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    timing = (TaskProgressColumn(), TimeElapsedColumn(), TextColumn("elapsed,"), TimeLeftColumn())
    # rich would otherwise swap sys.stdout and sys.stderr for its own while the bar is drawn
    # (records written to stdout would go to the terminal; Inspect's display would be taken).
    with Progress(
        *columns,
        *timing,
        TextColumn("left"),
        console=console,
        redirect_stdout=False,
        redirect_stderr=False,
        transient=transient,
    ) as bar:
        task = bar.add_task(label, total=total)

        def update(done: int) -> None:
            estimate.advance(done)
            bar.update(task, completed=done)

        yield update
