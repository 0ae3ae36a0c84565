"""Every relative link in every chapter, both editions, opens in JupyterLab as `tasks.py lab`
starts it, and in the class copy `tasks.py workshop DIR` writes.

A link is followed as JupyterLab follows it: from the notebook's folder, inside the folder
JupyterLab serves (read from the command `tasks.py lab` runs, not assumed here), to a file that
exists and that the file browser shows (no hidden folder on the way). The links are found by
rendering each Markdown cell, and each stored HTML or Markdown output, to HTML with mistune
and reading every href and src, so raw HTML links count as much as Markdown ones.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
CHAPTERS = [p for p in sorted(NOTEBOOKS.glob("[0-9][0-9]*_*.ipynb")) + sorted(NOTEBOOKS.glob("*/[0-9][0-9]*_*.ipynb"))
            if not p.parent.name.startswith(".")]  # not JupyterLab's .ipynb_checkpoints/


def load_tasks():
    spec = importlib.util.spec_from_file_location("tasks_under_test", ROOT / "tasks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lab_root_and_landing(edition: Path) -> tuple[Path, str]:
    """Where `tasks.py lab` roots JupyterLab, and the page it opens, from its own command."""
    command = [str(part) for part in load_tasks().jupyter_lab(edition / "00_index.ipynb", [])]
    root = next(Path(a.split("=", 1)[1]) for a in command if a.startswith("--ServerApp.root_dir="))
    landing = next(a.split("=", 1)[1] for a in command if a.startswith("--LabApp.default_url="))
    return root, landing


class Targets(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.found += [value for name, value in attrs if name in ("href", "src") and value]


def link_targets(notebook: dict) -> list[str]:
    mistune = pytest.importorskip("mistune")
    render = mistune.create_markdown(escape=False, plugins=["table", "strikethrough", "url"])
    pages = [render("".join(cell["source"])) for cell in notebook["cells"] if cell["cell_type"] == "markdown"]
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for kind, as_html in (("text/html", lambda text: text), ("text/markdown", render)):
                if kind in data:
                    value = data[kind]
                    pages.append(as_html("".join(value) if isinstance(value, list) else value))
    parser = Targets()
    for page in pages:
        parser.feed(page)
    return parser.found


def dead_links(notebook_path: Path, root: Path) -> list[str]:
    """The relative links of one notebook (or Markdown page) that JupyterLab, serving `root`, cannot open."""
    text = notebook_path.read_text(encoding="utf-8")
    if notebook_path.suffix == ".md":  # a page: one Markdown cell
        document = {"cells": [{"cell_type": "markdown", "source": text}]}
    else:
        document = json.loads(text)
    dead = []
    for link in link_targets(document):
        parts = urlsplit(link)
        if parts.scheme or parts.netloc or not parts.path or link.startswith("/"):
            continue  # a web address, an anchor in the same page, or a server path
        target = Path(os.path.normpath(notebook_path.parent / unquote(parts.path)))
        if not target.is_relative_to(root):
            dead.append(f"{link} (outside the folder JupyterLab serves, {root})")
        elif not target.is_file():
            dead.append(f"{link} (no such file)")
        elif any(part.startswith(".") for part in target.relative_to(root).parts):
            dead.append(f"{link} (in a hidden folder, which JupyterLab does not open)")
    return dead


def test_jupyterlab_serves_the_repository_and_opens_each_editions_index():
    for edition in (NOTEBOOKS, NOTEBOOKS / "zh"):
        root, landing = lab_root_and_landing(edition)
        assert root == ROOT, "rooted at the repository, so links to docs/ and tutorial/ open"
        assert landing == f"/lab/tree/{(edition / '00_index.ipynb').relative_to(ROOT).as_posix()}"
        assert (root / landing.removeprefix("/lab/tree/")).is_file()


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.relative_to(NOTEBOOKS).as_posix() for p in CHAPTERS])
def test_every_relative_link_opens_in_jupyterlab(path):
    root, _ = lab_root_and_landing(path.parent)
    assert dead_links(path, root) == []


def test_the_lesson_the_index_tells_you_to_open_is_a_link():
    """The index says when to open tutorial/translation.py; the chapter itself opens it."""
    index = json.loads((NOTEBOOKS / "00_index.ipynb").read_text(encoding="utf-8"))
    linked = {Path(os.path.normpath(NOTEBOOKS / unquote(t))) for t in link_targets(index) if not urlsplit(t).scheme}
    assert ROOT / "tutorial" / "translation.py" in linked


def test_the_link_finder_finds_dead_links(tmp_path):
    """The check itself can fail: a Markdown link, an HTML link and an image that go nowhere."""
    chapter = tmp_path / "notebooks" / "01_x.ipynb"
    chapter.parent.mkdir()
    (tmp_path / "real.md").write_text("here")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.md").write_text("hidden")
    cells = ["[fine](../real.md) [web](https://example.org/a.md) [here](#top)",
             "[gone](../nothing.md) and <a href='../../outside.md'>out</a>", "![pic](pic%20one.png) [dot](../.hidden/x.md)"]
    chapter.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": c, "metadata": {}} for c in cells]}))
    dead = dead_links(chapter, tmp_path)
    assert [d.split(" ")[0] for d in dead] == ["../nothing.md", "../../outside.md", "pic%20one.png", "../.hidden/x.md"], dead


@pytest.fixture(scope="module")
def class_copy(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("class")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(target), "--no-trust"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return target


def test_every_relative_link_opens_in_the_class_copy(class_copy):
    """The copy carries what its chapters link to; JupyterLab started in the copy's folder."""
    copied = sorted((class_copy / "notebooks").rglob("*.ipynb"))
    assert len(copied) == len(CHAPTERS)
    dead = {p.relative_to(class_copy).as_posix(): dead_links(p, class_copy) for p in copied}
    assert {name: links for name, links in dead.items() if links} == {}
    assert re.search(r"`jupyter lab`", (class_copy / "README.md").read_text(encoding="utf-8"))


def test_every_page_of_the_class_copy_links_only_to_what_the_copy_holds(class_copy):
    """The Markdown pages in the copy (the learners' READMEs, the Chinese glossary) link on: to the
    term table's module, to tutorial/client_tools.py, to a README. Each link opens in the copy or
    is plain text; the instructor's run-sheet (the answer key) is never copied to follow one."""
    pages = sorted(class_copy.rglob("*.md"))
    assert class_copy / "notebooks" / "zh" / "glossary.md" in pages
    dead = {p.relative_to(class_copy).as_posix(): dead_links(p, class_copy) for p in pages}
    assert {name: links for name, links in dead.items() if links} == {}
    assert (class_copy / "tutorial" / "watch" / "terms.py").is_file(), "the glossary's term table came along"
    assert not (class_copy / "notebooks" / "README.md").exists() and not (class_copy / "notebooks" / "zh" / "README.md").exists()
