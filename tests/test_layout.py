"""The folders show the architecture: the lesson at the top never imports the apparatus,
and each apparatus folder imports only the layers beneath it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tutorial"

# Lowest first. A module may import its own layer and those before it, never a later one.
LAYERS = ["lesson", "watch", "pictures", "peers", "notebook", "cli", "serve"]
HEAVY = ("jupyter", "jupyterlab", "ipywidgets", "IPython", "graphviz", "jinja2", "starlette", "uvicorn", "anthropic", "httpx")


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in LAYERS:
        return parts[1]
    if len(parts) == 2 and parts[1] in LAYERS:  # a folder's own __init__
        return parts[1]
    return "lesson"


def modules() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(relative.parts)
        if parts[-1] == "__main__":
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.append(".".join(parts))
    return found


def test_every_module_belongs_to_a_known_layer():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(LAYERS), f"a folder outside the layering: {sorted(folders - set(LAYERS))}"


def test_every_folder_says_what_lives_there_and_what_it_may_import():
    for init in PACKAGE.glob("*/__init__.py"):
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert len(docstring.split()) >= 15, f"{init} needs a paragraph saying what lives there"
        assert "import" in docstring, f"{init}'s docstring should say what the folder may import"


@pytest.mark.parametrize("module", [m for m in modules() if layer_of(m) not in ("cli", "serve")])
def test_a_module_imports_no_higher_layer(module):
    """Import the module alone in a fresh interpreter, then look at what came with it."""
    code = f"import sys, json, {module}; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(result.stdout)
    mine = LAYERS.index(layer_of(module))
    higher = [m for m in loaded if m.startswith("tutorial.") and LAYERS.index(layer_of(m)) > mine]
    assert not higher, f"{module} ({LAYERS[mine]}) imported higher layers: {higher}"


def test_the_lesson_imports_nothing_but_the_lesson_and_pydantic():
    code = "import sys, json, tutorial; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert [m for m in loaded if m.startswith("tutorial.") and layer_of(m) != "lesson"] == []
    heavy = sorted({m.split(".")[0] for m in loaded} & set(HEAVY))
    assert heavy == [], f"import tutorial loaded {heavy}"


def test_no_import_cycle_between_lesson_modules():
    """Within the lesson, draw who imports whom (also inside functions) and find no cycle."""
    graph: dict[str, set[str]] = {}
    for module in modules():
        if layer_of(module) != "lesson" or module == "tutorial":
            continue
        path = PACKAGE / (module.split(".", 1)[1].replace(".", "/") + ".py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    edges.add("tutorial." + node.module)
                else:
                    edges.update("tutorial." + alias.name for alias in node.names)
        graph[module] = {e for e in edges if e in modules()}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            if state.get(nxt) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path + [node, nxt]))
            if nxt not in state:
                visit(nxt, path + [node])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [])


def test_the_public_api_is_there():
    import tutorial

    for name in tutorial.__all__:
        assert getattr(tutorial, name) is not None, name
    assert callable(tutorial.Playground)
