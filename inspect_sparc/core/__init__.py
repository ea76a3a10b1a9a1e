"""Pure SPaRC puzzle logic, no Inspect: parse a record, read an answer, check rules, search, draw.

Everything here takes a published record or a `Puzzle` and returns plain values, so it can be
tested against the reference and reused outside Inspect (the audit, benchmarks, the generator).

    from inspect_sparc.core import check, parse_puzzle, solve

`render` (the text drawing) is imported from `inspect_sparc.core.picture.text`: a name exported here
must differ from the package's modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.runtime.lazy import lazy_exports

#: The public names, each from the module defining it (imported on first use, so that importing
#: one module of `core` does not load the search engines or the generator).
EXPORTS = {
    "Puzzle": "inspect_sparc.core.puzzle.parse",
    "RecordError": "inspect_sparc.core.puzzle.parse",
    "parse_puzzle": "inspect_sparc.core.puzzle.parse",
    "check": "inspect_sparc.core.puzzle.rules",
    "solve": "inspect_sparc.core.search",
    "generate_puzzles": "inspect_sparc.core.generate.generator",
    "load_records": "inspect_sparc.core.sources",
    "SourceError": "inspect_sparc.runtime.downloads",
}

__all__ = [
    "Puzzle",
    "RecordError",
    "SourceError",
    "check",
    "generate_puzzles",
    "load_records",
    "parse_puzzle",
    "solve",
]

if TYPE_CHECKING:  # for type checkers and readers; at run time `__getattr__` imports on use
    from inspect_sparc.core.generate.generator import generate_puzzles
    from inspect_sparc.core.puzzle.parse import Puzzle, RecordError, parse_puzzle
    from inspect_sparc.core.puzzle.rules import check
    from inspect_sparc.core.search import solve
    from inspect_sparc.core.sources import load_records
    from inspect_sparc.runtime.downloads import SourceError

__getattr__ = lazy_exports(__name__, EXPORTS)
