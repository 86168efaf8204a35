"""The layout the README's Architecture section describes: layers, no import cycles, every package named."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {"knowrl_io": 0, "retrieval": 1, "reward_engine": 2, "knowrl": 3}  # a package imports only lower ones


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for top in LAYERS for p in (ROOT / top).rglob("*.py")}


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Every project module ``path`` imports, at module level or inside functions (typing-only imports aside)."""
    found: set[str] = set()
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.add(alias.name)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:  # relative import
                    parts = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                for alias in child.names:
                    found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def test_the_graph_sees_function_level_imports():
    graph = _graph()
    assert "knowrl.tasks.rg_data" in graph["knowrl.config"]  # imported inside a validator
    assert "reward_engine.engine" not in graph["reward_engine.plan"]  # typing-only import


def test_no_upward_import_between_packages():
    upward = [f"{a} imports {b}" for a, deps in _graph().items() for b in deps
              if LAYERS[b.split(".")[0]] > LAYERS[a.split(".")[0]]]
    assert not upward, "\n".join(upward)


def test_no_import_cycle():
    graph = _graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def dfs(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                cycles.append(stack[stack.index(dep):] + [dep])
            elif dep not in state:
                dfs(dep)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            dfs(node)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_readme_architecture_names_every_package():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Architecture\n(.*?)(?=^## )", readme, re.S | re.M)
    assert match, "README has no Architecture section"
    section = match.group(1)
    packages = sorted({_module_name(p) for top in LAYERS for p in (ROOT / top).rglob("__init__.py")})
    missing = [p for p in packages if f"`{p.replace('.', '/')}/`" not in section]
    assert not missing, f"packages the Architecture section does not describe: {missing}"


@pytest.mark.parametrize("top", sorted(LAYERS))
def test_no_module_points_to_a_file_outside_the_repository(top):
    """Docstrings once sent readers to a DESIGN.md the repository does not have."""
    for path in (ROOT / top).rglob("*.py"):
        for name in re.findall(r"\b([A-Z][A-Z_]+\.md)\b", path.read_text(encoding="utf-8")):
            assert (ROOT / name).exists(), f"{path.relative_to(ROOT)} points to {name}, which is not in the repository"
