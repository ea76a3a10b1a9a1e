"""What Inspect's entry point imports: the tasks and solvers of this package."""

# ruff: noqa: F401
from inspect_sparc.tasks import sparc, sparc_hard
