"""Every public function (no leading underscore; module level or a public class's method) of
every package the wheel ships (`inspect_sparc` and the verifiers plugin packages beside it) says
what its arguments are (an `Args:` section naming each one, where it takes any) and what it
returns (`Returns:` or `Yields:`, where its annotation is not None). Read with `ast`, so nothing
is imported."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The packages held to the rule, every .py file in each: the ones the wheel ships.
PACKAGES = ["inspect_sparc", "inspect_sparc_vf", "inspect_sparc_vf_gym"]


def functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The public functions of a module and the public methods of its public classes."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if not node.name.startswith("_"):
                    found.append((prefix + node.name, node))

    visit(tree.body, "")
    return found


def lacking(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The sections the function's docstring lacks, and the arguments its `Args:` leaves out."""
    arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
    names = [a.arg for a in arguments if a.arg not in ("self", "cls")]
    names += [a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None]
    returns = node.returns is not None and not (
        isinstance(node.returns, ast.Constant) and node.returns.value is None
    )
    doc = ast.get_docstring(node) or ""
    missing = ["Args:"] if names and "Args:" not in doc else []
    if names and not missing:
        after = doc.split("Args:", 1)[1]
        section = re.split(r"^\s*(?:Returns|Yields|Raises):", after, flags=re.M)[0]
        named = set(re.findall(r"^\s*\**(\w+)\b", section, flags=re.M))
        missing += [f"Args: {name}" for name in names if name not in named]
    if returns and "Returns:" not in doc and "Yields:" not in doc:
        missing.append("Returns:")
    return missing


def files() -> list[Path]:
    """Every .py file of the packages, sorted."""
    return sorted(f for package in PACKAGES for f in (ROOT / package).rglob("*.py"))


def test_the_packages_are_the_ones_the_wheel_ships():
    """A package added to the wheel is held to the rule too."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert PACKAGES == config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]


@pytest.mark.parametrize("path", files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_public_function_says_its_arguments_and_returns(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    missing = [(name, lacking(node)) for name, node in functions(tree) if lacking(node)]
    assert not missing


def test_a_function_without_its_sections_is_found():
    tree = ast.parse('def f(x: int) -> int:\n    """Twice x."""\n    return 2 * x\n')
    [(name, node)] = functions(tree)
    assert name == "f" and lacking(node) == ["Args:", "Returns:"]


def test_an_argument_left_out_of_args_is_found():
    source = 'def f(x: int, *rest: int) -> None:\n    """Nothing.\n\n'
    source += '    Args:\n        x: a number."""\n'
    [(_, node)] = functions(ast.parse(source))
    assert lacking(node) == ["Args: rest"]
