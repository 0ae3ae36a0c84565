"""The folders show the architecture: the lesson at the top never imports the apparatus,
and each apparatus folder imports only the layers beneath it. And the sizes stay readable
(issue 23.10): no import cycle anywhere, at most thirteen modules at the top of `tutorial/`,
no module over 600 lines unless it says at its top that it is one idea that reads better
whole."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tutorial"

# Lowest first. A module may import its own layer and those before it, never a later one.
LAYERS = ["words", "lesson", "llama_cpp", "watch", "pictures", "peers", "notebook", "cli", "serve"]
# Folders that are part of the lesson itself: the contract, split by idea, and the examples' data.
LESSON_FOLDERS = ["contract", "examples"]
MAX_TOP_MODULES = 13  # issue 38 adds trajectory.py (Action 3.5) to the lesson
MAX_LINES = 600
ONE_IDEA = re.compile(r"(?i)one idea")
HEAVY = ("jupyter", "jupyterlab", "ipywidgets", "IPython", "graphviz", "jinja2", "starlette", "uvicorn", "anthropic", "httpx")


def module_path(module: str) -> Path:
    return _module_path(module)


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


def _module_path(module: str) -> Path:
    """The file of a module: `tutorial.contract` is tutorial/contract/__init__.py."""
    relative = Path(*module.split(".")[1:])
    package = PACKAGE / relative / "__init__.py"
    return package if package.exists() else (PACKAGE / relative).with_suffix(".py")


def test_every_module_belongs_to_a_known_layer():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    outside = folders - set(LAYERS) - set(LESSON_FOLDERS)
    assert not outside, f"a folder outside the layering: {sorted(outside)}"


def test_every_folder_says_what_lives_there_and_what_it_may_import():
    for init in PACKAGE.glob("*/__init__.py"):
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert len(docstring.split()) >= 15, f"{init} needs a paragraph saying what lives there"
        if init.parent.name in LAYERS:  # an apparatus folder; the lesson's own folders import only the lesson
            assert "import" in docstring, f"{init}'s docstring should say what the folder may import"


# Arrows that go up, each named with its reason (issue 37: the rule is read from the source).
ALLOWED_UP: dict[tuple[str, str], str] = {
    ("tutorial.cli", "tutorial.serve.cli"): "`python -m tutorial serve` hands its arguments to the server's own command line",
    ("tutorial.llama_cpp.tiny_model", "tutorial.watch.tokenizer"):
        "the hand-wired model is checked against the vocabulary the package's tokenizer reads (one source of it)",
}


@pytest.mark.parametrize("module", modules())
def test_a_module_imports_no_higher_layer(module):
    """Read from the source with the AST, imports inside functions included (issue 37: importing
    the module and looking at sys.modules never saw a function-local import)."""
    mine = LAYERS.index(layer_of(module))
    higher = sorted(m for m in imports_of(module) if LAYERS.index(layer_of(m)) > mine and (module, m) not in ALLOWED_UP)
    assert not higher, f"{module} ({LAYERS[mine]}) imports higher layers: {higher}"


def test_the_layer_rule_sees_a_function_local_import(tmp_path, monkeypatch):
    """Mutation check: a function-local import going up is caught."""
    source = PACKAGE / "llama_cpp" / "sdist.py"
    mutated = tmp_path / "sdist.py"
    mutated.write_text(source.read_text(encoding="utf-8") + "\n\ndef _up():\n    from ..cli import grade  # noqa\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "module_path", lambda module: mutated if module == "tutorial.llama_cpp.sdist" else _module_path(module))
    assert "tutorial.cli.grade" in imports_of("tutorial.llama_cpp.sdist")


def test_the_lesson_imports_nothing_but_the_lesson_and_pydantic():
    code = "import sys, json, tutorial; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert [m for m in loaded if m.startswith("tutorial.") and layer_of(m) != "lesson"] == []
    heavy = sorted({m.split(".")[0] for m in loaded} & set(HEAVY))
    assert heavy == [], f"import tutorial loaded {heavy}"


def imports_of(module: str) -> set[str]:
    """The package's modules that `module` imports, also inside functions: `from . import x`
    names the module x when there is one, else the package that holds the name."""
    known = set(modules())
    path = module_path(module)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    # A module's own package __init__ runs before it anyway; an edge to it is not a choice.
    return {name for name in found if name in known and name != module and not module.startswith(name + ".")}


def test_no_import_cycle():
    """Draw who imports whom in the whole package (also inside functions) and find no cycle.
    (Issue 23.10 found model -> view -> panes -> model in the playground.)"""
    graph = {module: imports_of(module) for module in modules()}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [node, nxt]) if nxt in path else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, path + [node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert not cycles, "import cycles: " + "; ".join(cycles)


def test_at_most_thirteen_modules_at_the_top_of_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, f"{len(top)} modules at the top of tutorial/ (at most {MAX_TOP_MODULES}): {top}"


def test_no_module_is_too_long_to_read_unless_it_says_it_is_one_idea():
    """A module over 600 lines is split by idea, or says at its top (in its docstring) that it
    is one idea that reads better whole."""
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines > MAX_LINES and not ONE_IDEA.search(ast.get_docstring(ast.parse(text)) or ""):
            too_long.append(f"{path.relative_to(PACKAGE.parent)} ({lines} lines)")
    assert not too_long, f"over {MAX_LINES} lines with no 'one idea' note at the top: {too_long}"


def test_the_public_api_is_there():
    import tutorial

    for name in tutorial.__all__:
        assert getattr(tutorial, name) is not None, name
    assert callable(tutorial.Playground)
