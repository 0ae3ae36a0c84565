"""The workshop kit: a class copy hides answers and keeps everything else, the hub files
(binder/) agree with constraints.txt and tasks.py, the printable cheat sheet is the table
chapter 12 computes, and the run-sheet names every chapter that exists."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


workshop = _script("workshop")
cheat_sheet = _script("cheat_sheet")
CHAPTERS = workshop.chapters()


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def tags(cell: dict) -> set:
    return set(cell.get("metadata", {}).get("tags", []))


# ---------------------------------------------------------------------------
# The class copy


@pytest.fixture(scope="module")
def jupyter_data(tmp_path_factory) -> Path:
    """A Jupyter data folder of its own: the signatures the copy gets are the ones it makes."""
    return tmp_path_factory.mktemp("jupyter-data")


@pytest.fixture(scope="module")
def copy(tmp_path_factory, jupyter_data) -> Path:
    target = tmp_path_factory.mktemp("class")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(target)], capture_output=True, text=True,
                            env={**os.environ, "JUPYTER_DATA_DIR": str(jupyter_data)})
    assert result.returncode == 0, result.stderr
    return target


def test_the_copy_holds_every_chapter_the_cheat_sheet_and_a_readme(copy):
    written = sorted(p.relative_to(copy / "notebooks") for p in (copy / "notebooks").rglob("*.ipynb"))
    assert written == sorted(p.relative_to(ROOT / "notebooks") for p in CHAPTERS)
    assert (copy / "cheat_sheet.html").read_bytes() == (ROOT / "docs" / "cheat_sheet.html").read_bytes()
    assert (copy / "docs" / "cheat_sheet.html").read_bytes() == (ROOT / "docs" / "cheat_sheet.html").read_bytes()
    assert (copy / "notebooks" / "zh" / "glossary.md").is_file(), "the Chinese chapters link the glossary"
    linked = (copy / "tutorial" / "examples" / "claude_code" / "README.md")
    assert linked.read_bytes() == (ROOT / "tutorial" / "examples" / "claude_code" / "README.md").read_bytes(), "chapter 11 links it"
    assert "00_index.ipynb" in (copy / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_answers_are_cleared_and_everything_else_is_kept(copy, path):
    original = load(path)
    copied = load(copy / "notebooks" / path.relative_to(ROOT / "notebooks"))
    assert [c["source"] for c in copied["cells"]] == [c["source"] for c in original["cells"]]
    for before, after in zip(original["cells"], copied["cells"]):
        if before["cell_type"] != "code":
            continue
        if tags(before) & set(workshop.CLEARED):
            assert after["outputs"] == [] and after["execution_count"] is None
        else:
            assert after["outputs"] == before["outputs"]  # diagrams (SVG) included


def test_the_copy_opens_trusted_for_the_user_who_wrote_it(copy, jupyter_data):
    """JupyterLab shows a notebook's stored SVG diagrams only when its signature is in the user's
    database; the copy's cleared cells make it a different notebook from notebooks/, so it needs
    its own signatures. They were made in a data folder of this test's own, so none is left over."""
    nbformat = pytest.importorskip("nbformat")
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary(data_dir=str(jupyter_data))
    paths = sorted((copy / "notebooks").rglob("*.ipynb"))
    assert paths
    untrusted = [p.relative_to(copy).as_posix() for p in paths if not notary.check_signature(nbformat.read(p, as_version=4))]
    assert untrusted == [], f"not signed for this user, so their diagrams show as text: {untrusted}"
    some_svg = any("image/svg+xml" in o.get("data", {}) for p in paths for c in load(p)["cells"] for o in c.get("outputs", []))
    assert some_svg, "the copy keeps the stored diagrams that trust makes visible"


def test_the_copy_is_valid_nbformat(copy):
    nbformat = pytest.importorskip("nbformat")
    for path in (copy / "notebooks").rglob("*.ipynb"):
        nbformat.validate(nbformat.read(path, as_version=4))


def test_the_chapters_keep_diagrams_the_copy_keeps():
    """Diagram cells are never tagged for clearing, so the copy shows every stored picture."""
    for path in CHAPTERS:
        for cell in load(path)["cells"]:
            has_svg = any("image/svg+xml" in o.get("data", {}) for o in cell.get("outputs", []))
            assert not (has_svg and tags(cell) & set(workshop.CLEARED)), f"{path.name}: a diagram cell would be cleared"


def test_a_non_empty_directory_needs_force(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    refused = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(tmp_path)], capture_output=True, text=True)
    assert refused.returncode != 0 and "--force" in (refused.stderr + refused.stdout)
    forced = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(tmp_path), "--force"], capture_output=True, text=True)
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_the_copy_is_never_written_into_the_chapters():
    refused = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(ROOT / "notebooks" / "class"), "--force"],
                             capture_output=True, text=True)
    assert refused.returncode != 0
    assert not (ROOT / "notebooks" / "class").exists()


# ---------------------------------------------------------------------------
# The hub files


def test_hub_requirements_are_the_constraints_pins():
    pinned = workshop.pins()
    text = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines, "binder/requirements.txt pins nothing"
    for line in lines:
        name, _, version = line.partition("==")
        assert pinned.get(workshop._normalise(name), (None, None))[1] == version, f"{line} is not what constraints.txt pins"


def test_hub_requirements_cover_what_the_chapters_import():
    """Regenerated from the installed distributions: the same text, so nothing is missing or extra."""
    assert (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8") == workshop.requirements_text()
    names = {workshop._normalise(line.split("==")[0]) for line in workshop.requirements_text().splitlines() if "==" in line}
    assert {"pydantic", "jupyterlab", "ipywidgets", "graphviz", "jinja2", "voila"} <= names
    assert not names & {"pytest", "nbval", "playwright", "hypothesis"}, "test-only packages on the hub"


def test_hub_files_agree_with_the_project():
    assert workshop.hub_problems() == []


def test_hub_apt_packages_are_the_ones_tasks_installs():
    listed = (ROOT / "binder" / "apt.txt").read_text(encoding="utf-8").split()
    assert "graphviz" in listed and "fonts-wqy-microhei" in listed


def test_post_build_is_executable_and_installs_the_package():
    post_build = ROOT / "binder" / "postBuild"
    assert post_build.stat().st_mode & 0o111, "repo2docker runs postBuild only when it is executable"
    text = post_build.read_text(encoding="utf-8")
    assert text.startswith("#!/bin/bash") and "set -euo pipefail" in text
    assert re.search(r"pip install .*--no-deps -e \.", text)
    assert "|| true" not in text


# ---------------------------------------------------------------------------
# The printable cheat sheet and the run-sheet


def test_the_printable_cheat_sheet_is_chapter_12s_table():
    assert (ROOT / "docs" / "cheat_sheet.html").read_text(encoding="utf-8") == cheat_sheet.page(), (
        "docs/cheat_sheet.html is out of date: run python scripts/cheat_sheet.py"
    )
    assert "@page { size: A4 landscape" in cheat_sheet.page()


def test_the_run_sheet_names_every_chapter_and_only_chapters_that_exist():
    run_sheet = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\(([0-9]{2}_[a-z_]+\.ipynb)\)", run_sheet))
    present = {p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")}
    assert linked <= present, f"the run-sheet links chapters that do not exist: {sorted(linked - present)}"
    assert present <= linked, f"chapters the run-sheet does not mention: {sorted(present - linked)}"
    assert "reveal(" in run_sheet and "solutions" in run_sheet, "the answer key is named"


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")), ids=lambda p: p.name)
def test_chapter_links_point_at_chapters_that_exist(path):
    text = "\n".join("".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "markdown")
    for target in re.findall(r"\]\(([0-9]{2}_[a-z_]+\.ipynb)\)", text):
        assert (ROOT / "notebooks" / target).is_file(), f"{path.name} links to {target}, which does not exist"
