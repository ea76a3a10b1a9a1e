"""How a step-by-step episode is scored: replay the recorded moves, score the final path, say why
it failed; and the episode's metrics. `sparc_gym`'s scorer is `score_recorded_episode`;
`sparc_agent`'s adds tool use to it, so the same moves score the same in both protocols.

Every metric reads the dict `Score.value` (correct as in `sparc`, how the episode ended, step
counts, broken rules), so all stay right under `--epochs`; the chance level, a property of the
puzzle (the same in every epoch), is read from the metadata, where the viewer shows it in words
(a value column would print 0.0000...).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from inspect_ai.scorer import Metric, SampleScore, Score, metric
from inspect_ai.solver import TaskState

from inspect_sparc.contract.scores import (
    BACKTRACKS,
    BREAK_KEYS,
    CHANCE,
    CORRECT,
    CUT,
    ENDED,
    ENDING_METRICS,
    ILLEGAL,
    MEAN_STEPS,
    PATH_LENGTH,
    STEP_SHARES,
    STEPS,
    UNPARSEABLE,
)
from inspect_sparc.core.episode.baselines import chance_of_solving
from inspect_sparc.core.episode.settings import EpisodeSettings
from inspect_sparc.core.episode.stepper import (
    DEAD_END,
    REACHED_END,
    STEP_LIMIT,
    Stepper,
    moves_text,
)
from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import Point, Puzzle
from inspect_sparc.core.puzzle.rules import PUZZLE_RULES, Violation, check, format_point
from inspect_sparc.evals.metrics import (
    ALL_PUZZLES,
    headline_metrics,
    level_metrics,
    means,
    ratios,
)
from inspect_sparc.evals.sparc.episode import replay_episode
from inspect_sparc.evals.sparc.scorer import (
    LaterPictures,
    Picture,
    failure_drawing,
    mark_labels,
    rule_break_rates,
    violation_lines,
)


@metric
def episode_ending_rates() -> Metric:
    """How episodes ended, as shares of episodes (`ENDING_METRICS`).

    Returns:
        The metric, logging `reached_end_rate`, `dead_end_rate`, `step_limit_rate` and
        `cut_rate` (NaN each with no scores).
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return means(scores, ENDING_METRICS)

    return compute


@metric
def step_counts() -> Metric:
    """Mean steps per episode, and illegal and unreadable moves as shares of all steps.

    Returns:
        The metric, logging `mean_steps` and the pooled `illegal_action_rate` and
        `unparseable_rate` (NaN where no step was taken).
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return {**means(scores, {MEAN_STEPS: STEPS}), **ratios(scores, STEP_SHARES)}

    return compute


#: The metadata key of the exact probability behind the `chance` metric (`metadata["chance"]`
#: holds it in words).
CHANCE_PROBABILITY = "chance_probability"


@metric
def chance_level() -> Metric:
    """Mean probability that uniformly random legal moves solve the puzzle (no traceback): the
    exact mean (`math.fsum`) of each score's `metadata["chance_probability"]`.

    Returns:
        The metric, logging `chance` (NaN with no scores).
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = [float((s.score.metadata or {})[CHANCE_PROBABILITY]) for s in scores]
        return {CHANCE: math.fsum(values) / len(values) if values else math.nan}

    return compute


def episode_metrics(traceback: bool = False, puzzles: str = ALL_PUZZLES) -> list[Metric]:
    """Accuracy first, then per level, endings, steps, the chance level (no traceback), and the
    puzzle rules' breaks: an episode's path is always a line (the stepper moves only to open
    neighbours and pops on a step back), so no structural rule is ever broken.

    Args:
        traceback: Whether the task lets the model step back; its chance level is not
            computed, so the `chance` metric is left out.
        puzzles: The task's `puzzles=`: "all" (`ALL_PUZZLES`) or a shipped subset's name, as
            for `sparc_metrics`.

    Returns:
        The metrics, in the order the log lists them.
    """
    metrics = [*headline_metrics(puzzles), level_metrics(puzzles), episode_ending_rates()]
    metrics.append(step_counts())
    if not traceback:
        metrics.append(chance_level())
    return [*metrics, rule_break_rates(list(PUZZLE_RULES))]


def score_episode(env: Stepper, picture: Picture | None = None) -> Score:
    """Score one finished (or cut) episode; pure apart from building the Score (`picture`: as
    for `score_answer`).

    Args:
        env: The episode after its moves: puzzle, final path, how it ended (None: cut by a
            sample limit) and its counts.
        picture: Draws the answer picture, as for `score_answer` (None: `answer_picture`).

    Returns:
        The score: value `correct` and how the episode ended (0 or 1 each), its step, illegal,
        unreadable and back counts, and `breaks_<rule>` (1 only for a path that reached E
        unsolved); answer the final path; a Markdown explanation; metadata the moves, the
        ending, path length, broken rules, steps and, without traceback, the chance level in
        words and as a probability.
    """
    puzzle = env.puzzle
    path = env.final_path
    reached = env.ended == REACHED_END
    verdict = check(puzzle, path)
    violations = verdict.violations if reached and not env.solved else ()
    broken = {v.rule for v in violations}
    value: dict[str, float] = {
        CORRECT: int(env.solved),
        REACHED_END: int(reached),
        DEAD_END: int(env.ended == DEAD_END),
        STEP_LIMIT: int(env.ended == STEP_LIMIT),
        CUT: int(env.ended is None),
        STEPS: env.steps,
        ILLEGAL: env.illegal,
        UNPARSEABLE: env.unparseable,
        BACKTRACKS: env.backtracks,
    }
    chance = None if env.traceback else chance_of_solving(puzzle, env.max_steps)
    value.update({key: int(rule in broken) for rule, key in BREAK_KEYS.items()})
    return Score(
        value=value,
        answer=format_path(path),
        explanation=explain_episode(env, violations, chance, picture),
        metadata={
            "moves": moves_text(env.history),
            ENDED: env.ended or CUT,
            PATH_LENGTH: len(path),
            "rule_violations": sorted(broken),
            # for people: the viewer's score panel prints every number of a score value to 3
            # decimals (2 steps as 2.0); metadata shows it as the explanation words it, and the
            # chance (a value would read 0.000) in words beside its exact probability, which
            # the `chance` metric averages (docs/scoring.md, "In the viewer")
            "steps": env.steps,
            **(
                {"chance": readable_chance(chance), CHANCE_PROBABILITY: chance}
                if chance is not None
                else {}
            ),
        },
    )


#: How the episode ended, as the explanation says it (None: cut by a sample limit).
ENDING_EXPLANATIONS = {
    REACHED_END: "reached E",
    DEAD_END: "no legal move left (dead end)",
    STEP_LIMIT: "step limit reached",
    None: "cut short by a sample limit (scored on the path so far)",
}


def explain_episode(
    env: Stepper,
    violations: Sequence[Violation],
    chance: float | None = None,
    picture: Picture | None = None,
) -> str:
    """The verdict, how the episode ended (where, for a dead end), the broken rules numbered
    with their positions, the moves, the counts and chance level, the final path (Markdown).

    Args:
        env: The episode after its moves.
        violations: The rules the final path breaks (empty unless it reached E unsolved).
        chance: Probability that random legal moves solve the puzzle; None leaves it unsaid
            (traceback: not computed).
        picture: Draws the answer picture, as for `score_answer` (None: `answer_picture`).

    Returns:
        The explanation, Markdown.
    """
    puzzle: Puzzle = env.puzzle
    lines = []
    if env.solved:
        lines.append(f"**Solved** in {steps_text(env.steps)}: the path is a stored solution.")
    else:
        ending = ENDING_EXPLANATIONS[env.ended]
        lines.append(f"**Not solved**: {ending} after {steps_text(env.steps)}.")
    labels: dict[Point, str] = {}
    if env.ended == DEAD_END:
        stuck = env.final_path[-1]
        lines.append(f"1. `dead_end`: stuck at {format_point(stuck)}, no legal move from there")
        lines.append("")  # ends the list (Markdown would run the next line into it)
        labels[stuck] = "1"
    elif violations:
        lines.append("The path reached E but breaks these rules:")
        lines += [*violation_lines(violations), ""]
        labels = mark_labels(violations)
    elif env.ended == REACHED_END and not env.solved:
        lines.append("The path reached E and breaks no rule, but it is not a stored solution.")
    counts = f"{env.illegal} illegal, {env.unparseable} unreadable, {env.backtracks} back"
    lines.append(f"Moves ({counts}): `{moves_text(env.history) or '-'}`")
    lines.append("(R U L D: moves; lowercase: illegal tries that moved nothing; ?: unreadable)")
    if chance is not None:
        lines.append(
            f"Chance that random legal moves solve this puzzle: {readable_chance(chance)}."
        )
    # as for `sparc`: a picture where regions matter (a line to E breaking a region rule or off
    # the stored solutions), else the text grid (a solved episode's path too)
    line = env.ended == REACHED_END and not env.solved
    broken = {v.rule for v in violations}
    lines += failure_drawing(puzzle, env.final_path, labels, broken, line, picture)
    return "\n".join(lines)


def steps_text(steps: int) -> str:
    """`1 step`, `7 steps`.

    Args:
        steps: A number of steps.

    Returns:
        The number and "step", plural but for 1.
    """
    return f"{steps} step" if steps == 1 else f"{steps} steps"


def readable_chance(probability: float) -> str:
    """A probability people can read at any size, as odds and a percentage with two significant
    digits, never in exponent notation: `1 in 99,533 (0.0010%)`, `1 in 2 (50%)`.

    Args:
        probability: A probability, 0 to 1.

    Returns:
        The odds and percentage; "0" for a probability of 0 (or less).
    """
    if probability <= 0:
        return "0"
    percent = probability * 100
    decimals = max(0, 1 - math.floor(math.log10(percent)))
    return f"1 in {round(1 / probability):,} ({percent:.{decimals}f}%)"


async def score_recorded_episode(state: TaskState) -> Score:
    """Replay the episode's recorded moves and score the final path against the solutions.

    Args:
        state: The sample's state: metadata `puzzle` (the compact record) and the episode's
            settings, and the moves recorded in its store.

    Returns:
        The score `score_episode` gives, its answer picture encoded in the worker thread.
    """
    settings = EpisodeSettings.from_metadata(state.metadata)
    env = replay_episode(state.metadata["puzzle"], settings, state.store)
    pictures = LaterPictures()
    return await pictures.finish(score_episode(env, pictures.picture))
