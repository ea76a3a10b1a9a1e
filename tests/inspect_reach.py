"""Which test files reach Inspect, read from the source with `ast`: the floor check
(`.ci/floor`, the suite at the oldest inspect-ai declared) reruns only those (`--inspect-only`).

A file reaches Inspect when it, a test helper or package module it imports (anywhere, functions
included; `if TYPE_CHECKING:` blocks aside), or a conftest.py above it imports `inspect_ai` or
the Inspect layer (`inspect_sparc.evals`, whose packages also export lazily); or when a test
file runs what does: code or a command in a subprocess (`inspect eval`, `python -m inspect_ai`),
the documentation's code blocks (tests/docs/, a path under docs/). An exported task (`from
inspect_sparc import sparc`) counts as its module. The rule errs towards running a file:
tests/test_inspect_reach.py checks that the files it leaves out load no Inspect.
"""

from __future__ import annotations

import ast
import itertools
import re
from functools import cache
from pathlib import Path

SELF = Path(__file__).resolve()
TESTS = SELF.parent
REPO = TESTS.parent
PACKAGE = "inspect_sparc"


def _task_modules() -> dict[str, str]:
    from inspect_sparc import TASK_MODULES  # loads no Inspect

    return TASK_MODULES


def source_file(module: str) -> Path | None:
    """The file of a package module or a test helper module (None for anything else)."""
    parts = module.split(".")
    if parts[0] == PACKAGE:
        base = REPO.joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
        return None
    helper = TESTS / f"{module}.py"
    return helper if len(parts) == 1 and helper.is_file() else None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(tree: ast.AST) -> list[ast.AST]:
    """Every node, `if TYPE_CHECKING:` bodies left out (they never run)."""
    nodes, stack = [], [tree]
    while stack:
        node = stack.pop()
        nodes.append(node)
        children = list(ast.iter_child_nodes(node))
        if isinstance(node, ast.If) and _is_type_checking(node):
            children = [node.test, *node.orelse]
        stack.extend(children)
    return nodes


def named(path: Path) -> set[str]:
    """The modules a file imports, or a test file names in a string (relative imports
    resolved). The package's own strings are data (the task list names modules it does not
    import), so only the tests' count."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(REPO).with_suffix("").parts[:-1]
    in_tests = TESTS in path.parents
    names: set[str] = set()
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
            names.add(base)
            for alias in node.names:
                names.add(f"{base}.{alias.name}")
                if base == PACKAGE and alias.name in _task_modules():
                    names.add(_task_modules()[alias.name])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and in_tests:
            names |= string_names(node.value)
        elif isinstance(node, (ast.List, ast.Tuple)) and in_tests:
            names |= command_names(node)
    return names


def string_names(text: str) -> set[str]:
    """What a test's string brings in when it runs: the imports of Python code (run in a
    subprocess); `inspect_ai` for documentation (whose code blocks a test runs)."""
    text = text.strip()
    if text == "docs" or text.startswith("docs/"):
        return {"inspect_ai"}
    if re.search(r"\b(import|from)\s+inspect_ai\b", text):
        return {"inspect_ai"}  # code that does not parse alone (an f-string's part)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    imports: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imports.update([node.module, *(f"{node.module}.{a.name}" for a in node.names)])
    return imports


def command_names(node: ast.List | ast.Tuple) -> set[str]:
    """What a command line (a list of strings) runs: `inspect ...` is Inspect's CLI, `-m X`
    runs module X."""
    words = [e.value if isinstance(e, ast.Constant) else None for e in node.elts]
    names = {"inspect_ai"} if words[:1] == ["inspect"] else set()
    for flag, module in itertools.pairwise(words):
        if flag == "-m" and isinstance(module, str):
            names.add(module)
    return names


@cache
def _links(path: Path) -> tuple[bool, frozenset[Path]]:
    """Whether a file imports Inspect itself, and the files (modules, the packages above them)
    whose code it runs."""
    files: set[Path] = set()
    for name in named(path):
        # the Inspect layer, whose packages also export Inspect objects lazily (unseen here)
        if name.split(".")[0] == "inspect_ai" or name.startswith(f"{PACKAGE}.evals"):
            return True, frozenset()
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):  # importing a module runs its packages' __init__
            found = source_file(".".join(parts[:depth]))
            if found is not None and found != SELF:  # this rule names code, runs none
                files.add(found)
    return False, frozenset(files)


def _reaches(path: Path) -> bool:
    """Whether Inspect is among what `path` runs, following every file it runs in turn."""
    seen, stack = {path}, [path]
    while stack:
        direct, files = _links(stack.pop())
        if direct:
            return True
        stack.extend(files - seen)
        seen |= files
    return False


def reaches_inspect(test_file: Path) -> bool:
    """Whether a test file reaches Inspect (itself or a conftest.py of its folders; every
    file of tests/docs/, which runs the documentation's code)."""
    test_file = test_file.resolve()
    if TESTS / "docs" in test_file.parents:
        return True
    conftests = [
        folder / "conftest.py"
        for folder in [test_file.parent, *test_file.parent.parents]
        if folder == TESTS or TESTS in folder.parents
    ]
    return any(_reaches(f) for f in [test_file, *conftests] if f.is_file())
