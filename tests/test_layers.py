"""The package's import graph, read from the source with `ast`: no circles, every arrow down.

Layers: `runtime/` (worker processes, progress bars, lazy exports) imports nothing of the
package, and every layer may use it; `core/` (pure puzzle logic, AlgoPuzzleVQA's in
`core/algopuzzlevqa/`) imports only itself; `contract/` (the names the evals write and the
report reads) on `core/`; `published_runs/` (the published per-puzzle verdicts, subsets and
estimators) on `core/` and `contract/` (its protocol table); `train/` stands on `core/` and
`contract/`, `report/` on those and `published_runs/` (and reads the package version); `evals/`
(the Inspect layer) on `core/`, `contract/` and `published_runs/`; the top-level modules (the
entry point, the command lines) on anything below; the verifiers plugin packages
(`inspect_sparc_vf`, `inspect_sparc_vf_gym`) on `train/`. Within `evals/`, no protocol package
imports another, and neither benchmark imports the other; within `report/`, no section imports
another (what two sections share is computed in `report/analysis/`). A module named in a string
(`import_module(NAME)`, a table of module names) is an import too: the graph counts it, so no
layer reaches another by a string. The layers below `evals/` never import Inspect, not even
inside a function.
"""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "inspect_sparc"
ROOT = "inspect_sparc"
#: The top-level packages verifiers loads by id: thin re-exports of `train/`.
PLUGINS = ("inspect_sparc_vf", "inspect_sparc_vf_gym")
SECTIONS = f"{ROOT}.report.sections"
PROTOCOLS = tuple(
    f"{ROOT}.evals.sparc.{name}" for name in ("single_shot", "gym", "visual", "agent")
)
BENCHMARKS = (f"{ROOT}.evals.sparc", f"{ROOT}.evals.algopuzzlevqa")

#: What each layer may import of the package (itself included), by module-name prefix.
ALLOWED = {
    f"{ROOT}.runtime": (f"{ROOT}.runtime",),
    f"{ROOT}.core": (f"{ROOT}.core", f"{ROOT}.runtime"),
    f"{ROOT}.contract": (f"{ROOT}.runtime", f"{ROOT}.core", f"{ROOT}.contract"),
    f"{ROOT}.train": (f"{ROOT}.runtime", f"{ROOT}.core", f"{ROOT}.contract", f"{ROOT}.train"),
    f"{ROOT}.report": (
        f"{ROOT}.runtime",
        f"{ROOT}.core",
        f"{ROOT}.contract",
        f"{ROOT}.published_runs",
        f"{ROOT}.report",
        ROOT,
    ),
    f"{ROOT}.evals": (
        f"{ROOT}.runtime",
        f"{ROOT}.core",
        f"{ROOT}.contract",
        f"{ROOT}.published_runs",
        f"{ROOT}.evals",
    ),
    f"{ROOT}.published_runs": (
        f"{ROOT}.runtime",
        f"{ROOT}.core",
        f"{ROOT}.contract",
        f"{ROOT}.published_runs",
    ),
    **{plugin: (f"{ROOT}.train",) for plugin in PLUGINS},
}


#: Known arrows against the rules, each with its reason; nothing else may cross or circle.
KNOWN = {
    # `--rescore` scores logged answers with the installed scorers: the one place the report
    # needs the evals' code, each scorer's own module imported only when asked for
    (f"{ROOT}.report.read.rescore", f"{ROOT}.evals.sparc.scorer"),
    (f"{ROOT}.report.read.rescore", f"{ROOT}.evals.sparc.gym.scorer"),
    (f"{ROOT}.report.read.rescore", f"{ROOT}.evals.sparc.agent.scorer"),
    (f"{ROOT}.report.read.rescore", f"{ROOT}.evals.algopuzzlevqa.scorer"),
}

#: The layers that never import Inspect (`inspect_ai`), anywhere in their source.
NO_INSPECT = (
    f"{ROOT}.runtime",
    f"{ROOT}.core",
    f"{ROOT}.core.algopuzzlevqa",
    f"{ROOT}.contract",
    f"{ROOT}.published_runs",
    f"{ROOT}.train",
)


def module_name(path: Path) -> str:
    """`inspect_sparc.core.puzzle.rules` for `.../core/puzzle/rules.py` (packages by `__init__`)."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(path): path
    for root in (ROOT, *PLUGINS)
    for path in sorted((REPO / root).rglob("*.py"))
}


def imported(module: str, *, package_only: bool = True) -> set[str]:
    """The modules `module` imports anywhere in its source (functions included): for
    `from X import Y`, `X.Y` when that is a module, else `X`; only the package's unless
    `package_only` is false."""
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
        elif isinstance(node, ast.Constant) and node.value in MODULES and "." in node.value:
            # a module named in a string (`import_module(NAME)`, a table of names): an
            # import by that name (a bare "inspect_sparc" is a folder or thread name, and a
            # module's own package named in a string anchors its data files)
            if not module.startswith(f"{node.value}."):
                targets.add(node.value)
    if not package_only:
        return targets
    return {t for t in targets if t == ROOT or t.startswith(ROOT + ".")}


GRAPH = {module: {t for t in imported(module) if t != module} for module in MODULES}


def under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_the_graph_is_read_from_the_real_package():
    # the parser sees the arrows that are known to exist (else every check below is empty)
    assert f"{ROOT}.core.puzzle.parse" in GRAPH[f"{ROOT}.core.puzzle.rules"]
    assert f"{ROOT}.evals.sparc.episode_scorer" in GRAPH[f"{ROOT}.evals.sparc.gym.scorer"]
    assert f"{ROOT}.report.analysis.paired" in GRAPH[f"{ROOT}.report.sections.paired"]
    assert f"{ROOT}.train.vf" in GRAPH["inspect_sparc_vf"]
    # a module named in a string (the lazy task exports) is an arrow too
    assert f"{ROOT}.evals.sparc.gym.tasks" in GRAPH[ROOT]
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
        if (module, target) not in KNOWN
        and not any(
            under(target, allowed) if allowed != ROOT else target == ROOT
            for allowed in ALLOWED[layer]
        )
    ]
    assert crossing == []


@pytest.mark.parametrize("layer", NO_INSPECT)
def test_the_layers_below_evals_never_import_inspect(layer):
    modules = [module for module in MODULES if under(module, layer)]
    assert modules  # the layer exists (else the check is empty)
    importing = [
        f"{module} imports {target}"
        for module in modules
        for target in sorted(imported(module, package_only=False))
        if under(target, "inspect_ai")
    ]
    assert importing == []


def test_the_inspect_check_sees_an_inspect_import():
    # the Inspect layer's modules do import inspect_ai (else the check above could not fail)
    assert any(
        under(target, "inspect_ai")
        for target in imported(f"{ROOT}.evals.algopuzzlevqa.tasks", package_only=False)
    )


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


def test_no_section_imports_another():
    crossing = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if under(module, SECTIONS) and module != SECTIONS
        for target in sorted(targets)
        if under(target, SECTIONS) and target != SECTIONS
    ]
    assert crossing == []


def test_the_analysis_neither_draws_nor_writes():
    # analysis modules return frames: the page, the figures and the files are the sections'
    presentation = {
        f"{ROOT}.report.{name}" for name in ("context", "drawing", "page", "table_files")
    }
    crossing = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if under(module, f"{ROOT}.report.analysis")
        for target in sorted(targets)
        if target in presentation or under(target, SECTIONS)
    ]
    assert crossing == []


def test_every_known_arrow_still_exists():
    # an exception whose arrow is gone is removed, not kept as a licence for a new one
    assert [arrow for arrow in sorted(KNOWN) if arrow[1] not in GRAPH[arrow[0]]] == []


def calls_by_name(module: str) -> list[str]:
    """The calls in `module` that import by a computed name (`import_module`, `__import__`)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("import_module", "__import__"):
                names.append(f"{module}:{node.lineno}")
    return names


@pytest.mark.parametrize("layer", [f"{ROOT}.report", f"{ROOT}.contract"])
def test_the_report_imports_nothing_by_a_computed_name(layer):
    # an import by a name built at run time is an arrow the graph above cannot see
    found = [call for module in MODULES if under(module, layer) for call in calls_by_name(module)]
    assert found == []
