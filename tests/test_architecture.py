"""The layout docs/architecture.md describes: layers, no import cycles between files or
folders (type-only imports included: they hide call-backs at run time), every package named."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# a package imports only lower ones
LAYERS = {"knowrl_io": 0, "retrieval": 1, "reward_engine": 2, "judges": 3, "knowrl": 4}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=1)
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for top in LAYERS for p in (ROOT / top).rglob("*.py")}


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(path: Path, modules: dict[str, Path], typing_only: bool = True) -> set[str]:
    """Every project module ``path`` imports, at module level or inside functions; ``typing_only``: with the
    imports under ``if TYPE_CHECKING`` (a type-only import of a module that calls back is still a circle)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child) and not typing_only:
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.add(alias.name)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:  # relative import
                    own = _module_name(path)
                    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
                    parts = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                for alias in child.names:
                    found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules}


def _graph(typing_only: bool = True) -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules, typing_only) - {name} for name, path in modules.items()}


def _folder(module: str) -> str:
    """The package a module lives in (a package's ``__init__`` lives in the package itself)."""
    path = _modules()[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def test_the_graph_sees_function_level_and_type_only_imports(tmp_path):
    graph = _graph()
    assert "knowrl.tasks.rg_data" in graph["knowrl.config"]  # imported inside a validator
    probe = tmp_path / "probe.py"
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from reward_engine import engine\n")
    assert _imports(probe, _modules()) == {"reward_engine.engine"}
    assert _imports(probe, _modules(), typing_only=False) == set()


def test_no_upward_import_between_packages():
    upward = [
        f"{a} imports {b}"
        for a, deps in _graph().items()
        for b in deps
        if LAYERS[b.split(".")[0]] > LAYERS[a.split(".")[0]]
    ]
    assert not upward, "\n".join(upward)


def test_knowrl_never_imports_the_judges_beside_it():
    """judges/ (the test server, the local llama.cpp judge) runs beside training, never inside it: what both
    need (assembling a bundled GGUF) lives below them, in knowrl_io."""
    crossing = [
        f"{a} imports {b}"
        for a, deps in _graph().items()
        if a.startswith("knowrl.")
        for b in deps
        if b.startswith("judges")
    ]
    assert not crossing, "\n".join(crossing)


def test_no_bench_script_shadows_a_package():
    """A script's own folder comes first on sys.path: bench/retrieval.py was imported as `retrieval`."""
    shadows = sorted(p.name for p in (ROOT / "bench").glob("*.py") if p.stem in LAYERS or p.stem == "judges")
    assert not shadows, shadows


def test_no_import_cycle():
    cycles = _cycles(_graph())
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def dfs(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                cycles.append(stack[stack.index(dep) :] + [dep])
            elif dep not in state:
                dfs(dep)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            dfs(node)
    return cycles


def test_no_import_cycle_between_folders():
    """Sibling folders (``judge/``, ``stages/``, ``prompts/``, ``offline/``, ``judges/`` ...) form no circle, and a
    folder reads from its parent only modules that import no folder below that parent (``labels``, ``samples``,
    ``semantics`` ...): the engine's own modules, which compose the folders, are never imported back."""
    graph = _graph()
    folders: dict[str, set[str]] = {}
    for module, deps in graph.items():
        for dep in deps:
            a, b = _folder(module), _folder(dep)
            if a != b and not a.startswith(b + "."):
                folders.setdefault(a, set()).add(b)
    assert not _cycles(folders), "\n".join(" -> ".join(c) for c in _cycles(folders))
    back = [
        f"{module} imports {dep}, which imports {below}"
        for module, deps in graph.items()
        for dep in deps
        if _folder(module).startswith(_folder(dep) + ".")
        for below in graph[dep]
        if _folder(below).startswith(_folder(dep) + ".")
    ]
    assert not back, "\n".join(back)


def test_architecture_page_names_every_package():
    section = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    packages = sorted({_module_name(p) for top in LAYERS for p in (ROOT / top).rglob("__init__.py")})
    missing = [p for p in packages if f"`{p.replace('.', '/')}/`" not in section]
    assert not missing, f"packages the Architecture section does not describe: {missing}"


@pytest.mark.parametrize("top", sorted(LAYERS))
def test_no_module_points_to_a_file_outside_the_repository(top):
    """Docstrings once sent readers to a DESIGN.md the repository does not have."""
    for path in (ROOT / top).rglob("*.py"):
        for name in re.findall(r"\b([A-Z][A-Z_]+\.md)\b", path.read_text(encoding="utf-8")):
            assert (ROOT / name).exists(), f"{path.relative_to(ROOT)} points to {name}, which is not in the repository"


def test_every_docstring_example_is_collected():
    """A module with ``>>>`` examples outside pytest.ini's testpaths never runs them: they rot unseen."""
    import configparser

    ini = configparser.ConfigParser()
    ini.read(ROOT / "pytest.ini")
    paths = [ROOT / p for p in ini["pytest"]["testpaths"].split()]
    with_examples = [p for top in LAYERS for p in (ROOT / top).rglob("*.py") if ">>>" in p.read_text(encoding="utf-8")]
    missed = sorted(str(p.relative_to(ROOT)) for p in with_examples if not any(p == t or t in p.parents for t in paths))
    assert with_examples and not missed, missed


def test_the_offline_grader_does_not_import_retrieval():
    """A user of the offline grader alone (the offline preset, a scoring job) need not load FAISS and tqdm:
    its words came from ``offline.facts``, which pulls in ``retrieval`` (import ~350 ms, now ~50 ms)."""
    graph, seen, todo = _graph(typing_only=False), set(), ["reward_engine.offline.grader"]
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    assert not sorted(m for m in seen if m.split(".")[0] == "retrieval")
