"""The Inspect layer: one subpackage per benchmark (`sparc`, `algopuzzlevqa`), over the pure logic
in `inspect_sparc.core`. Named apart from the tasks: `from inspect_sparc import sparc` is a task."""

from __future__ import annotations
