"""inspect-sparc: SPaRC and AlgoPuzzleVQA as Inspect AI tasks.

    from inspect_ai import eval
    from inspect_sparc import sparc, sparc_gym

    eval(sparc(source="sample"), model="openai/gpt-4.1-mini")

The tasks are exported here but imported only when first used (PEP 562 `__getattr__`): a plain
`import inspect_sparc`, or an import of the pure puzzle logic in `inspect_sparc.core`, does not
load Inspect. Inspect itself finds the tasks through the `_registry` entry point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.8.0"


def _installed_copy() -> tuple[str, str] | None:
    """The installed (non-editable) package's folder and version when this import comes from a
    checkout that shadows it, else None.

    `python -m inspect_ai` (or any script) run from a checkout's root puts the checkout first on
    `sys.path`, ahead of a `pip install .` copy. Inspect names a task `inspect_sparc/sparc` only
    when its module lies in site-packages or an editable install, so from the root the checkout's
    tasks went unnamed and `inspect_sparc/sparc` was "not found". The package's modules are then
    read from the installed copy, as from any other folder (docs/development.md)."""
    import json
    from importlib.metadata import PackageNotFoundError, distribution
    from pathlib import Path

    here = Path(__file__).resolve().parent
    if not (here.parent / "pyproject.toml").is_file():  # not a checkout: the installed copy
        return None
    try:
        installed = distribution("inspect-sparc")
    except PackageNotFoundError:
        return None
    how = json.loads(installed.read_text("direct_url.json") or "{}")
    if how.get("dir_info", {}).get("editable"):  # an editable install reads a checkout anyway
        return None
    folder = Path(str(installed.locate_file("inspect_sparc"))).resolve()
    if folder == here or not (folder / "__init__.py").is_file():
        return None
    return str(folder), installed.version


if (_copy := _installed_copy()) is not None:  # every submodule from the installed copy
    __path__ = [_copy[0]]
    __version__ = _copy[1]

from inspect_sparc.runtime.lazy import lazy_exports  # noqa: E402 - after the path is settled

#: Exported task -> the module that defines it.
TASK_MODULES = {
    "sparc": "inspect_sparc.evals.sparc.single_shot.tasks",
    "sparc_hard": "inspect_sparc.evals.sparc.single_shot.tasks",
    "sparc_gym": "inspect_sparc.evals.sparc.gym.tasks",
    "sparc_visual": "inspect_sparc.evals.sparc.visual.tasks",
    "sparc_agent": "inspect_sparc.evals.sparc.agent.tasks",
    "algopuzzlevqa": "inspect_sparc.evals.algopuzzlevqa.tasks",
}

__all__ = [
    "__version__",
    "algopuzzlevqa",
    "sparc",
    "sparc_agent",
    "sparc_gym",
    "sparc_hard",
    "sparc_visual",
]

if TYPE_CHECKING:  # for type checkers and readers; at run time `__getattr__` imports on use
    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
    from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
    from inspect_sparc.evals.sparc.gym.tasks import sparc_gym
    from inspect_sparc.evals.sparc.single_shot.tasks import sparc, sparc_hard
    from inspect_sparc.evals.sparc.visual.tasks import sparc_visual


__getattr__ = lazy_exports(__name__, TASK_MODULES)  # each task imported on first use
