"""The package's import graph, read from the source with `ast`: no circles, every arrow down.

Layers: `core/` (pure puzzle logic) imports only itself; `train/` and `report/` stand on `core/`
alone (the report also reads the package version); `evals/` (the Inspect layer) on `core/`; the
top-level modules (the entry point, the command lines) on anything below. Within `evals/`, no
protocol package imports another, and neither benchmark imports the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "inspect_sparc"
ROOT = "inspect_sparc"
PROTOCOLS = tuple(
    f"{ROOT}.evals.sparc.{name}" for name in ("single_shot", "gym", "visual", "agent")
)
BENCHMARKS = (f"{ROOT}.evals.sparc", f"{ROOT}.evals.algopuzzlevqa")

#: What each layer may import of the package (itself included), by module-name prefix.
ALLOWED = {
    f"{ROOT}.core": (f"{ROOT}.core",),
    f"{ROOT}.train": (f"{ROOT}.core", f"{ROOT}.train"),
    f"{ROOT}.report": (f"{ROOT}.core", f"{ROOT}.published_runs", f"{ROOT}.report", ROOT),
    f"{ROOT}.evals": (f"{ROOT}.core", f"{ROOT}.published_runs", f"{ROOT}.evals"),
    f"{ROOT}.published_runs": (f"{ROOT}.core", f"{ROOT}.published_runs"),
}


#: Known arrows against the rules, each with its reason; nothing else may cross or circle.
#: All are the report's, which issue 30 reworks: remove them with that work.
def module_name(path: Path) -> str:
    """`inspect_sparc.core.rules` for `.../inspect_sparc/core/rules.py` (packages by `__init__`)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(module: str) -> set[str]:
    """The package modules `module` imports anywhere in its source (functions included): for
    `from X import Y`, `X.Y` when that is a module, else `X`."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against the importing module's package
                package = module.split(".")
                if MODULES[module].name != "__init__.py":
                    package = package[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.add(full if full in MODULES else base)
    return {t for t in targets if t == ROOT or t.startswith(ROOT + ".")}


GRAPH = {module: {t for t in imported(module) if t != module} for module in MODULES}


def under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_the_graph_is_read_from_the_real_package():
    # the parser sees the arrows that are known to exist (else every check below is empty)
    assert f"{ROOT}.core.puzzle" in GRAPH[f"{ROOT}.core.rules"]
    assert f"{ROOT}.evals.sparc.episode_scorer" in GRAPH[f"{ROOT}.evals.sparc.gym.scorer"]
    assert len(MODULES) > 80


def test_the_import_graph_has_no_circles():
    from graphlib import CycleError, TopologicalSorter

    try:
        TopologicalSorter(GRAPH).prepare()
    except CycleError as error:
        pytest.fail(f"import circle: {' -> '.join(error.args[1])}")


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_every_import_points_down(layer):
    crossing = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if under(module, layer)
        for target in sorted(targets)
        if not any(
            under(target, allowed) if allowed != ROOT else target == ROOT
            for allowed in ALLOWED[layer]
        )
    ]
    assert crossing == []


def test_no_protocol_or_benchmark_imports_another():
    groups = PROTOCOLS + BENCHMARKS
    crossing = []
    for module, targets in GRAPH.items():
        own = [g for g in PROTOCOLS if under(module, g)] or [
            g for g in BENCHMARKS if under(module, g)
        ]
        for target in targets:
            for group in groups:
                # another protocol, or the other benchmark (a protocol may use its benchmark's
                # shared modules, which lie above it in the tree)
                if (
                    own
                    and under(target, group)
                    and not under(own[0], group)
                    and not under(group, own[0])
                ):
                    crossing.append(f"{module} imports {target}")
    assert crossing == []
