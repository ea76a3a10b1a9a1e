"""AlgoPuzzleVQA's pure logic, no Inspect: puzzles, sources, layout, images, prompts, answers.

    from inspect_sparc.core.algopuzzlevqa import PUZZLES, build_prompt, read_answer

The Inspect task over it is `inspect_sparc.evals.algopuzzlevqa`; the bundled sample (36
instances with their images, `-T source=sample`) is `data/` here. The public names below are
imported on first use (reading answers needs neither the image library nor the downloads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.runtime.lazy import lazy_exports

#: The public names, each from the module defining it.
EXPORTS = {
    "PUZZLES": "inspect_sparc.core.algopuzzlevqa.puzzles",
    "select_puzzles": "inspect_sparc.core.algopuzzlevqa.puzzles",
    "Record": "inspect_sparc.core.algopuzzlevqa.layout",
    "read_folder": "inspect_sparc.core.algopuzzlevqa.layout",
    "resolve_source": "inspect_sparc.core.algopuzzlevqa.sources",
    "build_prompt": "inspect_sparc.core.algopuzzlevqa.prompts",
    "Reading": "inspect_sparc.core.algopuzzlevqa.answer",
    "read_answer": "inspect_sparc.core.algopuzzlevqa.answer",
    "encode_for_sending": "inspect_sparc.core.algopuzzlevqa.images",
}

__all__ = [
    "PUZZLES",
    "Reading",
    "Record",
    "build_prompt",
    "encode_for_sending",
    "read_answer",
    "read_folder",
    "resolve_source",
    "select_puzzles",
]

# The lazy-export layout of inspect_sparc.core's __init__: each package lists its own names.
if TYPE_CHECKING:  # for type checkers and readers; at run time `__getattr__` imports on use
    from inspect_sparc.core.algopuzzlevqa.answer import Reading, read_answer
    from inspect_sparc.core.algopuzzlevqa.images import encode_for_sending
    from inspect_sparc.core.algopuzzlevqa.layout import Record, read_folder
    from inspect_sparc.core.algopuzzlevqa.prompts import build_prompt
    from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES, select_puzzles
    from inspect_sparc.core.algopuzzlevqa.sources import resolve_source

__getattr__ = lazy_exports(__name__, EXPORTS)
