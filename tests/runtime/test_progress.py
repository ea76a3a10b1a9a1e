"""The progress bars' time left: per kind (level), counted down between completions, driven
here by a fake clock so that every figure is exact; and the bar itself on stderr."""

from __future__ import annotations

import itertools

import pytest

from inspect_sparc.runtime.progress import Estimate, Shown, format_seconds, progress_bar

#: Seconds a job of each level takes in the scripted runs below (level 5: 20 times level 1,
#: about the generator's ratio with the compiled search).
COST = {1: 1.0, 2: 1.5, 3: 2.5, 4: 4.0, 5: 20.0}


class Clock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def interleaved(n: int) -> list[int]:
    """Levels interleaved as the generator schedules them: a level-5 job every fifth."""
    return [level for _, level in zip(range(n), itertools.cycle([1, 2, 5, 3, 4]))]


def run(kinds: list[int]) -> list[float]:
    """The estimate right after each job finishes, each job taking its level's cost."""
    clock = Clock()
    estimate = Estimate(kinds, clock)
    seen = []
    for done, kind in enumerate(kinds, start=1):
        clock.now += COST[kind]
        estimate.advance(done)
        left = estimate.seconds_left()
        assert left is not None  # a job has finished
        seen.append(left)
    return seen


def test_once_every_level_is_seen_the_estimate_is_the_true_time_left() -> None:
    kinds = interleaved(40)
    true_left = [sum(COST[k] for k in kinds[done:]) for done in range(1, len(kinds) + 1)]
    seen = run(kinds)
    first_all_seen = 5  # the first five jobs hold every level
    assert seen[first_all_seen - 1 :] == pytest.approx(true_left[first_all_seen - 1 :])
    assert seen[-1] == 0.0


def test_the_estimate_does_not_swing_with_the_last_job_finished() -> None:
    """A rate over the last few jobs (rich's own column) jumps up after each level-5 job and
    down after the quick ones; the estimate per level only falls as the work is done."""
    seen = run(interleaved(40))[5:]
    assert all(later <= earlier for earlier, later in itertools.pairwise(seen))

    kinds = interleaved(40)
    windowed = []  # time left at the mean rate of the last 3 jobs
    for done in range(5, len(kinds)):
        recent = sum(COST[k] for k in kinds[done - 3 : done]) / 3
        windowed.append(recent * (len(kinds) - done))
    assert any(later > 2 * earlier for earlier, later in itertools.pairwise(windowed))


def test_between_completions_it_counts_down_then_expects_an_overrunning_job_to_go_on() -> None:
    clock = Clock()
    estimate = Estimate([1, 5, 1, 1], clock)
    clock.now += 1.0
    estimate.advance(1)  # a level-1 job: 1 s; level 5 is not seen yet, so it counts as 1 s too
    assert estimate.seconds_left() == pytest.approx(3.0)
    clock.now += 0.5
    assert estimate.seconds_left() == pytest.approx(2.5)  # counting down while job 2 runs
    clock.now += 10.0  # job 2 runs far past its estimate: it is expected to need half again
    assert estimate.seconds_left() == pytest.approx(2.0 + 0.5 * 10.5)
    seen: list[float] = []
    for _ in range(19):  # while it runs on, the estimate moves: it never stands still
        clock.now += 0.5
        left = estimate.seconds_left()
        assert left is not None
        seen.append(left)
    assert all(later > earlier for earlier, later in itertools.pairwise(seen))
    estimate.advance(2)  # job 2 took 20 s
    assert estimate.seconds_left() == pytest.approx(2.0)  # two level-1 jobs left, 1 s each


def shown_run(kinds: list[int], costs: list[float], step: float = 0.1) -> list[tuple[float, float]]:
    """(printed, estimated) time left, read every `step` seconds while jobs of `costs` seconds
    finish, from the first job done on."""
    clock = Clock()
    estimate = Estimate(kinds, clock)
    shown = Shown(estimate)
    reads: list[tuple[float | None, float | None]] = []
    for done, cost in enumerate(costs, start=1):
        for _ in range(round(cost / step)):
            clock.now += step
            reads.append((shown.seconds_left(), estimate.seconds_left()))
        estimate.advance(done)
        reads.append((shown.seconds_left(), estimate.seconds_left()))
    return [(a, b) for a, b in reads if a is not None and b is not None]


def test_the_printed_time_left_glides_where_the_estimate_jumps_and_ends_at_zero() -> None:
    """A heavy-tailed run (one level-1 job takes 30 times the others): the estimate drops or
    rises by many seconds when a job ends; the printed value spreads each change over many
    reads (no step a tenth of the estimate's largest), never stands still for a second while
    jobs are left, and ends at 0 with the estimate."""
    kinds = interleaved(30)
    costs = [COST[k] for k in kinds]
    costs[12] = 30 * COST[kinds[12]]
    reads = shown_run(kinds, costs)
    printed = [p for p, _ in reads]
    estimated = [e for _, e in reads]
    assert printed[-1] == estimated[-1] == 0.0
    largest_jump = max(abs(b - a) for a, b in itertools.pairwise(estimated))
    assert largest_jump > 10.0  # the estimate does jump (a level-5 job seen, the slow one done)
    assert max(abs(b - a) for a, b in itertools.pairwise(printed[:-1])) < largest_jump / 10
    for start in range(len(printed) - 11):
        window = printed[start : start + 11]  # one second of reads
        if window[-1] > 0.0:
            assert max(window) - min(window) > 1e-6


def test_jobs_finished_together_share_the_time() -> None:
    clock = Clock()
    estimate = Estimate([3, 3, 3, 3], clock)
    clock.now += 6.0
    estimate.advance(3)
    assert estimate.seconds_left() == pytest.approx(2.0)
    estimate.advance(3)  # no new job: nothing changes
    assert estimate.seconds_left() == pytest.approx(2.0)


def test_nothing_to_go_by_before_the_first_job_and_nothing_left_at_the_end() -> None:
    clock = Clock()
    estimate = Estimate([1, 1], clock)
    assert estimate.seconds_left() is None and format_seconds(None) == "-:--:--"
    clock.now += 1.0
    estimate.advance(5)  # more than there are: the end
    assert estimate.seconds_left() == 0.0


@pytest.mark.parametrize(
    ("seconds", "text"), [(0.0, "0:00:00"), (59.6, "0:01:00"), (3725, "1:02:05")]
)
def test_time_left_reads_like_rich(seconds: float, text: str) -> None:
    assert format_seconds(seconds) == text


def test_the_bar_shows_counts_and_time_left(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar(4, "generating", enabled=True, kinds=[1, 2, 1, 2]) as progress:
        for done in range(1, 5):
            progress(done)
    err = capsys.readouterr().err
    assert "generating" in err and "4/4" in err and "100%" in err and "left" in err
    assert "0:00:00 left" in err  # the estimate column, at the end


def test_the_bar_is_off_unless_asked_or_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar(2, "generating") as progress:  # stderr is captured: no terminal
        progress(2)
    assert capsys.readouterr().err == ""


def test_the_bar_leaves_stdout_to_the_records(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The generator's command line writes its records to stdout while the bar is drawn: a bar
    drawn on a terminal must not take stdout over (rich's default would send them there)."""
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich treats stderr as a terminal

    with progress_bar(2, "generated:0", enabled=True) as progress:
        print('{"id": "a"}')
        progress(2)
    out, err = capfd.readouterr()
    assert out == '{"id": "a"}\n'
    assert "generated:0" in err
