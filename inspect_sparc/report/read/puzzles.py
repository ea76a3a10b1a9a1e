"""What the report keeps of each SPaRC puzzle: its rule kinds, its grid's hash (is it a test
puzzle) and the baselines at a run's setting, each puzzle read in full once across all logs
(sample summaries leave the puzzle record out).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: Rule kinds a puzzle can contain in the order of the Spatial-Gym rule tables (the report's
#: columns; `core.records.RULE_KINDS` holds the same kinds in the rule engine's order).
RULE_COLUMNS = ("dot", "gap", "polyshape", "ylop", "star", "square", "triangle")
#: Sample fields never read: the bulk of a log, and nothing the report shows needs them.
EXCLUDED_SAMPLE_FIELDS = {"messages", "events", "attachments", "store"}
#: Full samples read at once to learn rule kinds (bounds memory: never a whole log).
CHUNK = 50


def rule_kinds(record: Any) -> list[str]:
    """The rule kinds a SPaRC puzzle record contains, counted by the rule engine's own
    `core.records.rule_counts` (none for a grid with a symbol it does not know).

    Args:
        record: the puzzle record a sample's metadata holds under `puzzle` (a mapping with
            `puzzle_array`, or its JSON text); anything else has no kinds.

    Returns:
        The kinds present, in `RULE_COLUMNS` order (`["dot", "star"]`); [] for an unreadable
        record or an unknown symbol."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError:
            return []
    if not isinstance(record, Mapping):
        return []
    from inspect_sparc.core.puzzle.records import rule_counts

    try:
        counts = rule_counts(record.get("puzzle_array") or ())
    except (KeyError, TypeError, IndexError):  # a symbol the rule engine does not know
        return []
    return [kind for kind in RULE_COLUMNS if counts.get(kind)]


def is_test_grid_hash(grid: str | None) -> bool | None:
    """Whether a grid hash is one of the 500 test-split grids (the shipped hashes); None for
    a puzzle whose grid is unknown.

    Args:
        grid: the grid's canonical hash (`puzzle_facts`' `grid`), or None.

    Returns:
        True or False, or None without a hash."""
    if grid is None:
        return None
    from inspect_sparc.core.generate.grid_hashes import shipped_test_hashes

    return grid in shipped_test_hashes()


def puzzle_facts(record: Any) -> dict[str, Any]:
    """What the report keeps of a SPaRC puzzle record: its rule kinds and the parsed puzzle
    (None where the installed parser rejects it), for the baselines at any setting.

    Args:
        record: the record from a sample's metadata `puzzle` (a mapping or its JSON text).

    Returns:
        `rules` (`rule_kinds`), `grid` (the canonical grid hash, None without a grid) and
        `puzzle` (the parsed `Puzzle`, or None)."""
    facts: dict[str, Any] = {"rules": rule_kinds(record), "puzzle": None, "grid": None}
    try:
        from inspect_sparc.core.generate.grid_hashes import grid_hash

        mapping = json.loads(record) if isinstance(record, str) else record
        facts["grid"] = grid_hash(mapping)
    except Exception:  # noqa: BLE001 - a record without a grid has no hash
        pass
    try:
        from inspect_sparc.core.puzzle.parse import parse_puzzle

        facts["puzzle"] = parse_puzzle(json.loads(record) if isinstance(record, str) else record)
    except Exception:  # noqa: BLE001 - a record the installed parser rejects has no baselines
        pass
    return facts


def baseline_facts(puzzle: Any, max_steps: int, traceback: bool) -> dict[str, Any]:
    """Whether the A* baseline solves `puzzle` within `max_steps`, and the exact chance that a
    uniformly random legal walk does (None with traceback: not computable exactly).

    Args:
        puzzle: the parsed puzzle, or None (both facts None).
        max_steps: the run's step limit (illegal steps count).
        traceback: whether the run's gym allows traceback (stepping back onto the previous
            position, undoing the last move).

    Returns:
        `astar`: 1 or 0 (None where the A* engine cannot walk the puzzle); `chance`: the
        probability (0-1), or None."""
    from inspect_sparc.core.episode.baselines import astar_solves, chance_of_solving

    if puzzle is None:
        return {"astar": None, "chance": None}
    try:
        astar = int(astar_solves(puzzle, max_steps))
    except Exception:  # noqa: BLE001 - a puzzle the A* engine cannot walk has no A* mark
        astar = None
    chance = None if traceback else chance_of_solving(puzzle, max_steps)
    return {"astar": astar, "chance": chance}


class PuzzleCache:
    """Facts per puzzle (`puzzle_facts`), read once per (source, id) across all logs: sample
    summaries leave the puzzle record out, so only puzzles not seen yet are read in full. The
    baselines are computed once per puzzle and setting (max_steps, traceback)."""

    def __init__(self) -> None:
        self.kinds: dict[tuple[str, str], dict[str, Any]] = {}
        self.baselines: dict[tuple[str, str, int, bool], dict[str, Any]] = {}

    def fill(self, path: str, source: str, summaries: list[Any]) -> None:
        """Read the full samples (no messages or events) of the puzzles not known yet.

        Args:
            path: the log file the summaries come from.
            source: the run's `source` setting as text (the dataset; an id is a puzzle only within
                its source).
            summaries: the log's sample summaries (`id`, `epoch`, `metadata`); one whose metadata
                already holds the puzzle record is used as it is, the rest are read in `CHUNK`s.

        Raises:
            ImportError: where the installed inspect-ai cannot read samples by id (before
                0.3.262)."""
        try:
            from inspect_ai.log import read_eval_log_samples_by_id
        except ImportError as error:
            raise ImportError(
                "the report needs inspect-ai 0.3.262 or later (read_eval_log_samples_by_id): "
                "pip install --upgrade inspect-ai"
            ) from error

        wanted: dict[str, tuple[Any, int]] = {}
        for summary in summaries:
            key = (source, str(summary.id))
            puzzle = (summary.metadata or {}).get("puzzle")
            if key in self.kinds or str(summary.id) in wanted:
                continue
            if isinstance(puzzle, Mapping):
                self.kinds[key] = puzzle_facts(puzzle)
            else:
                wanted[str(summary.id)] = (summary.id, summary.epoch)
        todo = list(wanted.values())
        for i in range(0, len(todo), CHUNK):
            for sample in read_eval_log_samples_by_id(
                path, todo[i : i + CHUNK], exclude_fields=EXCLUDED_SAMPLE_FIELDS
            ):
                record = (sample.metadata or {}).get("puzzle")
                self.kinds[(source, str(sample.id))] = puzzle_facts(record)

    def get(
        self, source: str, sample_id: Any, max_steps: int, traceback: bool
    ) -> dict[str, Any] | None:
        """Rule kinds and the baselines at this setting of one puzzle (None if never read).

        Args:
            source: the run's `source` setting as text, as given to `fill`.
            sample_id: the sample's id (the puzzle's id).
            max_steps: the run's step limit (`runs.run_steps`).
            traceback: whether the run's gym allows traceback.

        Returns:
            `rules`, `grid`, `astar` and `chance` (`puzzle_facts`, `baseline_facts`); None for a
            puzzle `fill` never read."""
        facts = self.kinds.get((source, str(sample_id)))
        if facts is None:
            return None
        key = (source, str(sample_id), max_steps, traceback)
        if key not in self.baselines:
            self.baselines[key] = baseline_facts(facts["puzzle"], max_steps, traceback)
        return {"rules": facts["rules"], "grid": facts["grid"], **self.baselines[key]}
