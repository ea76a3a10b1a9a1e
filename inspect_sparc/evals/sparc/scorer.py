"""The SPaRC scorer: exact match and the reference's invalid-path verdict, plus why a path fails.

Everything a metric needs is in the dict `Score.value` (`correct`, `invalid_path`, one
`breaks_<rule>` key per rule, 1 when the answer broke that rule), because Inspect reduces values
across epochs but keeps only the first epoch's `Score.metadata`. The metadata and the explanation
are for people reading a sample.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from inspect_sparc.contract.scores import (
    BREAK_KEYS,
    BREAK_METRICS,
    CORRECT,
    INVALID_PATH,
    INVALID_PATH_RATE,
)
from inspect_sparc.core.picture.image import (
    Step,
    answer_drawing,
    answer_image,
    data_uri,
    encode_answer,
)
from inspect_sparc.core.picture.text import render
from inspect_sparc.core.puzzle.answer import extract_path, format_path
from inspect_sparc.core.puzzle.parse import Path, Point, Puzzle, parse_puzzle
from inspect_sparc.core.puzzle.rules import (
    LINE_RULES,
    Verdict,
    Violation,
    check,
    format_point,
    format_points,
)
from inspect_sparc.core.puzzle.verdict import is_solved, reference_analysis
from inspect_sparc.evals.metrics import (
    ALL_PUZZLES,
    headline_metrics,
    level_metrics,
    mean_of,
    means,
    plainly,
)
from inspect_sparc.evals.worker import in_worker

#: Points of an extracted path kept in `Score.answer`: more than any grid has positions (13x13).
MAX_ANSWER_POINTS = 200
# `BREAK_KEYS` (names.py): one score value key per rule, named as its metric, 1 when the answer
# broke the rule (so a sample list column `BREAKS_START 1` reads as it should). The faults that
# make a path no line at all (`LINE_RULES`: start, end, disconnected, revisit, rule_cell) are
# counted over every answer: they say why `invalid_path` is 1. The others (gap,
# off_grid and the puzzle rules) are counted only for lines the reference calls valid, so an
# empty answer does not "miss every dot".
#: A line from S to E that breaks one of these (judged on the regions it cuts or the cell edges it
#: touches) is explained with a picture; other failures name their positions in the text and get
#: the compact text grid, which keeps logs small (figures: docs/benchmarks.md).
PICTURED_RULES = frozenset({"square", "star", "triangle", "polyshape"})


@metric
def invalid_path_rate() -> Metric:
    """Share of answers that are not a valid line from S to E (the paper's "invalid path").

    Returns:
        The metric, logged as `invalid_path_rate`: the mean of the scores' `invalid_path`
        values (NaN with no scores).
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return plainly(INVALID_PATH_RATE, mean_of(scores, INVALID_PATH))

    return compute


@metric
def rule_break_rates(rules: Sequence[str] | None = None) -> Metric:
    """Share of answers that break each rule, as `breaks_<rule>` (see `BREAK_KEYS`).

    Args:
        rules: The rules a task's answers can break (None: all); a task declares no metric it
            can never fill (an episode's path is always a line: no structural breaks).

    Returns:
        The metric.
    """
    named = (
        BREAK_METRICS if rules is None else {BREAK_KEYS[rule]: BREAK_KEYS[rule] for rule in rules}
    )

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return means(scores, named)

    return compute


def sparc_metrics(puzzles: str = ALL_PUZZLES) -> list[Metric]:
    """Headline accuracy first (on a shipped subset `puzzles`, the whole split's estimate),
    then stderr, invalid paths, accuracy per level, rule breaks.

    Args:
        puzzles: The task's `puzzles=`: "all" (`ALL_PUZZLES`) or a shipped subset's name,
            from which the accuracy and per-level metrics then estimate the whole split's.

    Returns:
        The metrics, in the order the log lists them.
    """
    headline = headline_metrics(puzzles)
    return [*headline, invalid_path_rate(), level_metrics(puzzles), rule_break_rates()]


def answer_text(path: Path | None) -> str:
    """The extracted path for `Score.answer`, cut short past any real path's length.

    Args:
        path: The extracted path, or None when the answer holds none.

    Returns:
        The points as `(x,y), (x,y), ...` ("" for None or an empty path); a path longer than
        `MAX_ANSWER_POINTS` is cut to that many, followed by `, ... (N more points)`.
    """
    if path is None or len(path) <= MAX_ANSWER_POINTS:
        return format_path(path)
    more = len(path) - MAX_ANSWER_POINTS
    return f"{format_path(path[:MAX_ANSWER_POINTS])}, ... ({more} more points)"


def score_answer(puzzle: Puzzle, completion: str, picture: Picture | None = None) -> Score:
    """Score one answer text against one puzzle (pure function; never raises on any text).

    `picture` draws the answer picture of an explanation (default `answer_picture`; the Inspect
    scorer passes `LaterPictures.picture`, which leaves the encoding for the worker thread).

    Args:
        puzzle: The parsed puzzle, with its stored solutions.
        completion: The model's whole answer text (the path is read by `extract_path`).
        picture: Draws the answer picture (None: `answer_picture`).

    Returns:
        The score: value `correct`, `invalid_path` and one `breaks_<rule>` per rule, each 0
        or 1; answer the extracted path (`answer_text`); a Markdown explanation; metadata the
        reference's `analysis`, the broken rules and `unlisted_valid`.
    """
    path = extract_path(completion, puzzle.end)
    solved = is_solved(puzzle, path)
    analysis = reference_analysis(puzzle, path)
    verdict = check(puzzle, path or ())
    broken = set(verdict.broken_rules)
    unlisted_valid = verdict.valid and not solved
    value: dict[str, int] = {
        CORRECT: int(solved),
        INVALID_PATH: int(not analysis["fully_valid_path"]),
    }
    line = analysis["fully_valid_path"]
    for rule, key in BREAK_KEYS.items():
        value[key] = int(rule in broken and (line or rule in LINE_RULES))
    return Score(
        value=value,
        answer=answer_text(path),
        explanation=explain(puzzle, path, solved, analysis, verdict, picture),
        metadata={
            "analysis": analysis,
            "rule_violations": list(verdict.broken_rules),
            "unlisted_valid": unlisted_valid,
        },
    )


#: The reference's path checks (`analyze_path` keys) in plain words, for the explanation.
PLAIN_FAULTS = {
    "starts_at_start_ends_at_exit": "it does not run from S to E",
    "connected_line": "it jumps between positions that are not neighbours",
    "non_intersecting_line": "it visits a position twice",
    "no_rule_crossing": "it passes through a rule cell (the middle of a square of the grid)",
}


def explain(
    puzzle: Puzzle,
    path: Path | None,
    solved: bool,
    analysis: Mapping[str, bool],
    verdict: Verdict,
    picture: Picture | None = None,
) -> str:
    """The verdict and why, and the failed path drawn (Markdown): a picture where regions matter
    (`failure_drawing`), else a text grid; first a line saying so if no path was found (the path
    found is the score's answer, not repeated here: every sample's words cost log bytes).

    Args:
        puzzle: The puzzle answered.
        path: The extracted path; None when the answer holds none.
        solved: Whether the path is one of the stored solutions.
        analysis: The reference's `analyze_path` checks (name -> passed).
        verdict: The rule engine's verdict on the path.
        picture: Draws the answer picture (default `answer_picture`).

    Returns:
        The explanation, Markdown.
    """
    lines: list[str] = []
    broken = set(verdict.broken_rules)
    if path is None:
        lines.append("No `(x, y)` coordinates found after the last `####` (or in the answer).")
    if solved:
        stored = len(puzzle.solutions)
        lines.append(f"**Solved**: the path is one of the {stored} stored solutions.")
    elif verdict.valid:
        lines.append(
            "**Not solved**, although the path satisfies every rule: it is not among the stored "
            "solutions (`unlisted_valid`, worth reporting to the dataset authors)."
        )
    else:
        if analysis["fully_valid_path"]:
            lines.append("**Not solved**: a line from S to E, but it breaks the puzzle's rules:")
        else:
            lines.append(f"**Not solved**: {invalid_path_words(analysis, empty=not path)}:")
        lines += violation_lines(verdict.violations)
    if path and not solved:
        labels = mark_labels(verdict.violations)
        line = analysis["fully_valid_path"]
        wrong = None if line else first_illegal_step(puzzle, path)
        if wrong is not None:
            lines += ["", f"First illegal step, in magenta in the picture: {wrong[1]}."]
        step = wrong[0] if wrong is not None else None
        lines += failure_drawing(puzzle, path, labels, broken, line, picture, step)
    return "\n".join(lines)


def first_illegal_step(puzzle: Puzzle, path: Path) -> tuple[Step, str] | None:
    """Where a path first stops being a line from S to E, walking it from its first point: the
    step (from, to) and what is wrong with it in words; None for a line from S to E.

    Args:
        puzzle: The puzzle answered (its start, end and grid size).
        path: The extracted path, `(x, y)` grid positions.

    Returns:
        ((from, to), words): the step that leaves the grid, jumps, enters a rule cell or
        returns to a visited position; (None, first point) for a path not starting at S and
        (None, last point) for one stopping short of E. None for an empty path or a line from
        S to E (the puzzle's rules are not checked here).
    """
    if not path:
        return None
    if tuple(path[0]) != tuple(puzzle.start):
        return (None, path[0]), f"the path starts at {format_point(path[0])}, not at S"
    seen = {tuple(path[0])}
    for number, (before, point) in enumerate(zip(path, path[1:], strict=False), start=1):
        step: Step = (before, point)
        where = f"step {number}, {format_point(before)} to {format_point(point)}"
        if not puzzle.in_grid(point):
            return step, f"{where}, leaves the grid"
        if abs(point[0] - before[0]) + abs(point[1] - before[1]) != 1:
            return step, f"{where}, a jump between positions that are not neighbours"
        if point[0] % 2 == 1 and point[1] % 2 == 1:
            return step, f"{where}, enters a rule cell"
        if tuple(point) in seen:
            return step, f"{where}, returns to a position the path has visited"
        seen.add(tuple(point))
    if tuple(path[-1]) != tuple(puzzle.end):
        return (None, path[-1]), f"the path stops at {format_point(path[-1])}, not at E"
    return None


def invalid_path_words(analysis: Mapping[str, bool], empty: bool = False) -> str:
    """Why a path is not a valid line, in plain words (the reference's check names are in the
    score's metadata, `analysis`). An empty answer fails every check in the reference; it is said
    to be empty, not to jump.

    Args:
        analysis: The reference's `analyze_path` checks (name -> passed).
        empty: Whether the answer's path is empty.

    Returns:
        The words, starting "not a valid line from S to E: ".
    """
    failed = [key for key, ok in analysis.items() if not ok and key != "fully_valid_path"]
    words = [PLAIN_FAULTS[key] for key in failed if key in PLAIN_FAULTS]
    if empty or not words:
        words = ["it is empty (no path to check)"]
    return f"not a valid line from S to E: {'; '.join(words)}"


def violation_lines(violations: Iterable[Violation]) -> list[str]:
    """The broken rules as a numbered Markdown list; the numbers label the boxes in a picture.

    A message that names none of its rule's positions (a region's shapes, say) gets them added.

    Args:
        violations: The broken rules, in the order the rule engine lists them.

    Returns:
        One Markdown list item per rule, numbered from 1: the rule's name, its message
        and, where the message names none of them, its positions.
    """
    lines = []
    for n, v in enumerate(violations, start=1):
        named = any(format_point(p) in v.message for p in v.positions)
        where = f" (at {format_points(v.positions)})" if v.positions and not named else ""
        lines.append(f"{n}. `{v.rule}`: {v.message}{where}")
    return lines


#: A broken rule naming more positions than this is numbered in a picture at its first position
#: only, its others boxed without a number (a revisit can name a whole lane: one badge each cost
#: 5% of the pictures' bytes, docs/benchmarks.md); a pair (a jump's ends, two clashing squares)
#: is numbered at both.
NUMBERED_POSITIONS = 2


def mark_labels(violations: Iterable[Violation], first: int = 1) -> dict[Point, str]:
    """Each position a broken rule names -> the numbers of the rules numbered there ("1,3"), or
    "" (boxed, unnumbered) where every rule naming it names more than `NUMBERED_POSITIONS`
    positions and it is not their first.

    Args:
        violations: The broken rules, in the order the explanation lists them.
        first: The list number of the first of them.

    Returns:
        Position -> label, for every position any of them names.
    """
    numbers: dict[Point, list[str]] = {}
    for n, violation in enumerate(violations, start=first):
        named = list(dict.fromkeys(violation.positions))  # each position once, in order
        for index, point in enumerate(named):
            entry = numbers.setdefault(point, [])
            if index == 0 or len(named) <= NUMBERED_POSITIONS:
                entry.append(str(n))
    return {point: ",".join(entry) for point, entry in numbers.items()}


#: The picture's alt text: short, since every sample's log entry is compressed on its own, so
#: each repeated word costs bytes in every sample. No caption follows the picture (it cost 18 KB
#: of a 3.9 MB log, docs/benchmarks.md): the path is the white line from S to E, and each
#: magenta box carries the number of the broken rule listed above it.
PICTURE_ALT = "The answer path on the puzzle"


#: Draws an answer picture for an explanation: (puzzle, path, marks, first illegal step or
#: None) -> Markdown, or "".
Picture = Callable[[Puzzle, Path, Mapping[Point, str], Step | None], str]


#: Inspect keeps an explanation's first 1,024 characters (whole words) in its sample's summary,
#: which the log stores twice more (in its journal and in `summaries.json`), each time
#: compressed beside other samples' text that a picture shares nothing with. A data URI longer
#: than this never fits there (`picture_uri`).
SUMMARY_WIDTH = 1024


def picture_uri(data: bytes, mime: str) -> str:
    """The data URI of an answer picture, longer than `SUMMARY_WIDTH` characters, so that no
    sample summary holds a picture: a small picture's URI is lengthened by a run of zeros in a
    media type parameter (`data:image/webp;padding=000...;base64,...`), which browsers ignore
    and the log compresses to a few bytes (docs/benchmarks.md: 27 KB of a 3.9 MB log).

    Args:
        data: The encoded picture.
        mime: Its MIME type (`image/webp`, `image/png`).

    Returns:
        The `data:` URI.
    """
    uri = data_uri(data, mime)
    short = SUMMARY_WIDTH + 1 - len(uri)
    if short <= 0:
        return uri
    padding = ";padding=" + "0" * max(1, short - len(";padding="))
    return uri.replace(";base64,", padding + ";base64,", 1)


def picture_markdown(uri: str) -> str:
    """The Markdown of an answer picture at `uri`.

    Args:
        uri: The picture's data URI (`picture_uri`), or the placeholder `LaterPictures`
            replaces with it.

    Returns:
        `![PICTURE_ALT](uri)`.
    """
    return f"![{PICTURE_ALT}]({uri})"


def answer_picture(
    puzzle: Puzzle,
    path: Path,
    marks: Iterable[Point] | Mapping[Point, str],
    step: Step | None = None,
) -> str:
    """A Markdown image of the answer drawn on the puzzle, or "".

    `marks` are the boxed positions, or positions -> labels (`mark_labels`). The picture is for
    people only: if drawing fails the text drawing still explains the score.

    Args:
        puzzle: The puzzle answered.
        path: The extracted path, `(x, y)` grid positions (points off the grid are skipped).
        marks: Positions to box, or positions -> labels (`mark_labels`: the numbers of the
            broken rules; "" boxes a position without one).
        step: The path's first illegal step (from, to; from None where the path starts away
            from S or stops short of E), drawn in magenta; None for none.

    Returns:
        The Markdown image, its data URI longer than `SUMMARY_WIDTH`; "" where drawing or
        encoding failed.
    """
    try:
        mime, data = answer_image(puzzle, path, marks, step=step)
    except Exception:  # noqa: BLE001 - a missing picture must never change a score
        return ""
    return picture_markdown(picture_uri(data, mime))


class LaterPictures:
    """Answer pictures drawn while an answer is scored and encoded after it, in the worker
    thread: encoding is three quarters of a picture's cost and runs without the GIL, so the
    event loop serves other samples meanwhile. The explanation holds a placeholder until then
    (a NUL-delimited token: no explanation text holds a NUL)."""

    def __init__(self) -> None:
        self._drawings: dict[str, Any] = {}

    def picture(
        self, puzzle: Puzzle, path: Path, marks: Mapping[Point, str], step: Step | None = None
    ) -> str:
        """`answer_picture`, its image drawn now and its data URI left as a placeholder.

        Args:
            puzzle: The puzzle answered.
            path: The extracted path, `(x, y)` grid positions (points off the grid are
                skipped).
            marks: Position -> label of each box (`mark_labels`: the numbers of the broken
                rules; "" boxes a position without one).
            step: The path's first illegal step (from, to; from None where the path starts away
                from S or stops short of E), drawn in magenta; None for none.

        Returns:
            The Markdown image with a placeholder token for its URI (`finish` replaces it),
            or "" where drawing failed.
        """
        try:
            drawing = answer_drawing(puzzle, path, marks, step=step)
        except Exception:  # noqa: BLE001 - as `answer_picture`: the text grid explains instead
            return ""
        token = f"\0picture {len(self._drawings)}\0"
        self._drawings[token] = drawing
        return picture_markdown(token)

    async def finish(self, score: Score) -> Score:
        """`score` with every placeholder replaced by its picture's data URI (or, should
        encoding fail, the picture by a line saying so: the text still explains the score).

        Args:
            score: A score whose explanation holds the placeholders `picture` returned.

        Returns:
            `score` itself when no picture was drawn, else a copy with the new explanation.
        """
        if not self._drawings:
            return score
        uris = await in_worker(self._encode_all)
        explanation = score.explanation or ""
        for token, uri in uris.items():
            found = picture_markdown(uri) if uri else "(The answer picture could not be encoded.)"
            explanation = explanation.replace(picture_markdown(token), found)
        return score.model_copy(update={"explanation": explanation})

    def _encode_all(self) -> dict[str, str | None]:
        """Each placeholder's data URI, None where encoding failed."""
        uris: dict[str, str | None] = {}
        for token, drawing in self._drawings.items():
            try:
                mime, data = encode_answer(drawing)
            except Exception:  # noqa: BLE001 - a missing picture must never change a score
                uris[token] = None
                continue
            uris[token] = picture_uri(data, mime)
        return uris


def failure_drawing(
    puzzle: Puzzle,
    path: Path,
    labels: Mapping[Point, str],
    broken: Set[str],
    line: bool,
    picture: Picture | None = None,
    step: Step | None = None,
) -> list[str]:
    """The failed path drawn for an explanation (every scorer's): a picture (by `picture`,
    default `answer_picture`) when `line` (a line from S to E, not a solution) fails where
    regions decide (`PICTURED_RULES`, or no broken rule at all: an unlisted valid path) or when
    a path that is no line has its first illegal `step` marked, else the compact text grid,
    also when drawing fails.

    Args:
        puzzle: The puzzle answered.
        path: The failed path, `(x, y)` grid positions.
        labels: Position -> label of each box (`mark_labels`; "" boxes without a number).
        broken: The rules the path breaks (names as in `Violation.rule`).
        line: Whether the path is a line from S to E (the caller passes False for a solution).
        picture: Draws the answer picture (None: `answer_picture`).
        step: The first illegal step of a path that is no line (`first_illegal_step`); None
            for none.

    Returns:
        The explanation's closing lines: a blank line, then the Markdown picture, or the text
        grid (`render`) in a code fence.
    """
    pictured = line and (not broken or bool(PICTURED_RULES & broken))
    drawn = ""
    if pictured or step is not None:
        drawn = (picture or answer_picture)(puzzle, path, labels, step)
    if drawn:
        return ["", drawn]
    return ["", "```", render(puzzle, path, labels, shapes="polyshape" in broken), "```"]


@scorer(metrics=sparc_metrics())
def sparc_scorer() -> Scorer:
    """Exact match against every stored solution, with the reference invalid-path analysis.

    Returns:
        The scorer: `score_answer` on the sample's puzzle and completion, its answer pictures
        encoded in the worker thread.
    """

    async def score(state: TaskState, target: Target) -> Score:
        pictures = LaterPictures()
        puzzle = parse_puzzle(state.metadata["puzzle"])
        return await pictures.finish(
            score_answer(puzzle, state.output.completion, pictures.picture)
        )

    return score
