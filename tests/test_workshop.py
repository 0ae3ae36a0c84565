"""The workshop kit: a class copy hides answers and keeps everything else, the hub files
(binder/) agree with constraints.txt and tasks.py, the printable cheat sheet is the table
chapter 12 computes, and the run-sheet names every chapter that exists."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tutorial.llama_cpp.engine import free_port  # the project's one free_port

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


CHEAT_SHEET_CHAPTERS = {"en": ROOT / "notebooks" / "12_cheat_sheet.ipynb", "zh": ROOT / "notebooks" / "zh" / "12_cheat_sheet.ipynb"}


@pytest.mark.parametrize("lang", sorted(cheat_sheet.PAGES))
def test_the_printable_cheat_sheet_is_chapter_12s_table(lang):
    path = cheat_sheet.PAGES[lang]
    assert path.read_text(encoding="utf-8") == cheat_sheet.page(lang), (
        f"{path.relative_to(ROOT)} is out of date: run python scripts/cheat_sheet.py"
    )
    assert "@page { size: A4 landscape" in cheat_sheet.page(lang)


def test_the_check_covers_both_printable_sheets(tmp_path, monkeypatch):
    assert cheat_sheet.main(["--check"]) == 0
    stale = {lang: tmp_path / path.name for lang, path in cheat_sheet.PAGES.items()}
    for lang, path in stale.items():
        path.write_text(cheat_sheet.page(lang), encoding="utf-8")
    monkeypatch.setattr(cheat_sheet, "PAGES", stale)
    assert cheat_sheet.main(["--check"]) == 0
    for path in stale.values():
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("</table>", "<tr><td>stale</td></tr></table>"), encoding="utf-8")
        assert cheat_sheet.main(["--check"]) == 1, f"{path.name} out of date, and --check did not say so"
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("lang", sorted(CHEAT_SHEET_CHAPTERS))
def test_chapter_12_shows_the_table_the_sheet_prints(lang):
    """The chapter's stored table (cell tagged `cheat-sheet`) is the one the page prints: both
    come from tutorial.notebook.cheat_sheet. (Stale until the chapter is re-executed.)"""
    chapter = CHEAT_SHEET_CHAPTERS[lang]
    (cell,) = [c for c in load(chapter)["cells"] if "cheat-sheet" in tags(c)]
    shown = ["".join(o["data"]["text/html"]) for o in cell.get("outputs", []) if "text/html" in o.get("data", {})]
    assert shown == [cheat_sheet.table_html(lang)], f"{chapter.relative_to(ROOT)}: re-execute it (scripts/run_notebooks.py 12)"


def _visible_prose(page: str) -> list[str]:
    """The text a reader sees outside code: no <code>, <style>, <title> or comments."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__()
            self.skip, self.texts = 0, []

        def handle_starttag(self, tag, attrs):
            self.skip += tag in ("code", "style", "title", "head")

        def handle_endtag(self, tag):
            self.skip -= tag in ("code", "style", "title", "head")

        def handle_data(self, data):
            if not self.skip and data.strip():
                self.texts.append(data.strip())

    reader = Reader()
    reader.feed(page)
    return reader.texts


# Three English words in a row (names with _ . [ ] or digits are data and do not count).
_ENGLISH_WORDS = re.compile(r"(?<![\w.\[\]'])[A-Za-z][a-z']+(?:[ ,]+[A-Za-z][a-z']+){2,}(?![\w.\[\]])")
_DATA_NAMES = re.compile(r"[A-Za-z0-9]*[_.\[\]/][\w.\[\]/]*|'[^']*'")
# Names a Chinese engineer writes in English: the APIs, the companies, the products.
_KEPT_AS_IS = ("Anthropic Messages API", "Anthropic Messages", "Chat Completions", "Messages API", "Action")


def _keys(value) -> set:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    return {k for v in value for k in _keys(v)} if isinstance(value, (list, tuple)) else set()


def test_the_chinese_cheat_sheet_has_no_english_sentence_outside_data():
    """Outside code, what is English is a name: a field of the request (`model, stream,
    metadata`), a place (`content[0].id`), a block type, an API."""
    from tutorial.notebook.cheat_sheet import PROBES

    fields = re.compile(r"\b(?:%s)\b" % "|".join(sorted(_keys([p.body for p in PROBES]), key=len, reverse=True)))
    page = cheat_sheet.PAGES["zh"].read_text(encoding="utf-8")
    found = []
    for text in _visible_prose(page):
        plain = fields.sub(" ", _DATA_NAMES.sub(" ", text))
        for kept in _KEPT_AS_IS:
            plain = plain.replace(kept, " ")
        found += [m.group(0) for m in _ENGLISH_WORDS.finditer(plain)]
    assert not found, f"English left in docs/cheat_sheet.zh.html: {found[:10]}"
    assert len(_visible_prose(page)) > 60 and re.search(r"[\u4e00-\u9fff]", page)


def test_the_run_sheet_names_every_chapter_and_only_chapters_that_exist():
    run_sheet = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\(([0-9]{2}[a-z]?_[a-z0-9_]+\.ipynb)\)", run_sheet))
    present = {p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")}
    assert linked <= present, f"the run-sheet links chapters that do not exist: {sorted(linked - present)}"
    assert present <= linked, f"chapters the run-sheet does not mention: {sorted(present - linked)}"
    assert "reveal(" in run_sheet and "solutions" in run_sheet, "the answer key is named"


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")), ids=lambda p: p.name)
def test_chapter_links_point_at_chapters_that_exist(path):
    text = "\n".join("".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "markdown")
    for target in re.findall(r"\]\(([0-9]{2}[a-z]?_[a-z0-9_]+\.ipynb)\)", text):
        assert (ROOT / "notebooks" / target).is_file(), f"{path.name} links to {target}, which does not exist"


# ---------------------------------------------------------------------------
# In a real browser: the printed cheat sheet, and the tables as JupyterLab shows them

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
SMALLEST_PRINTED_PT = cheat_sheet.SMALLEST_PT  # per language: en 8 pt, zh 7.5 pt
MOST_PRINTED_PAGES = cheat_sheet.MOST_PAGES  # per language: en two pages, zh one


def chromium():
    """Debian's Chromium through playwright; skipped without them, failed under CI."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(f"{CHROMIUM} is missing under CI")
        pytest.skip(f"{CHROMIUM} is missing (Debian: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    return sync_api.sync_playwright()


# Every element that holds text itself, and its computed font size in CSS px (1 pt = 4/3 px).
FONT_SIZES = """() => [...document.querySelectorAll('body *')]
  .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
  .map(e => parseFloat(getComputedStyle(e).fontSize))"""


@pytest.mark.browser
@pytest.mark.parametrize("lang", sorted(cheat_sheet.PAGES))
def test_the_printed_cheat_sheet_keeps_its_type_size_and_page_count(lang):
    """Printed by Chromium as a reader's browser prints it: the page's own @page size (A4
    landscape), backgrounds on. The PDF's pages are counted, and the smallest text is measured
    in the page as laid out for print: the English sheet at 8 pt or more on at most two pages,
    the Chinese one at 7.5 pt or more on one page."""
    with chromium() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(cheat_sheet.PAGES[lang].as_uri())
            page.emulate_media(media="print")
            sizes = page.evaluate(FONT_SIZES)
            pdf = page.pdf(prefer_css_page_size=True, print_background=True)
        finally:
            browser.close()
    assert len(sizes) > 100, "the table's text was measured"
    smallest = min(sizes) * 0.75
    assert smallest >= SMALLEST_PRINTED_PT[lang] - 0.01, f"printed text as small as {smallest:.2f} pt"
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
    sizes_pt = {round(w * 72 / 25.4) for w in (297, 210)}
    media = {tuple(round(float(n)) for n in box.split()[2:]) for box in re.findall(rb"/MediaBox\s*\[([^\]]+)\]", pdf)}
    assert media == {(max(sizes_pt), min(sizes_pt))}, f"not A4 landscape: {media}"
    assert 1 <= pages <= MOST_PRINTED_PAGES[lang], f"{pages} pages"


# The cells of output tables: how each is aligned, and where it sits in its output area.
TABLE_LAYOUT = """selector => [...document.querySelectorAll(selector)].map(table => {
  const area = table.closest('.jp-OutputArea-output').getBoundingClientRect(), box = table.getBoundingClientRect();
  const cells = [...table.querySelectorAll('th, td')];
  const misaligned = cells.filter(c => !['left', 'start'].includes(getComputedStyle(c).textAlign))
                          .map(c => c.textContent.slice(0, 30));
  // a group row spans the table: its text must start at the left, not at the far right
  const groupOffsets = [...table.querySelectorAll('th[colspan]')].map(th => {
    const range = document.createRange(); range.selectNodeContents(th);
    return range.getBoundingClientRect().left - th.getBoundingClientRect().left; });
  return {leftGap: box.left - area.left, misaligned, groupOffsets, cells: cells.length};
})"""

# Where JSON in a table cell wraps. A line break between two word characters ("be b|rief",
# "abe|b63f") splits a word of the JSON; that is allowed only for a word wider than the whole
# cell, which must break somewhere. (Breaks at spaces, and the line-break opportunities the
# browser finds at punctuation such as `"|[image`, do not split a word.)
MID_TOKEN_BREAKS = """selector => {
  const found = [], word = /[A-Za-z0-9_]/;
  for (const code of document.querySelectorAll(selector)) {
    const cell = code.closest('td, th'), style = getComputedStyle(cell);
    const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const text = code.textContent, node = code.firstChild;
    if (!node || node.nodeType !== 3 || node.length !== text.length) continue;  // one text node, as written
    const top = i => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
                       const rects = r.getClientRects(); return rects.length ? rects[0].top : null; };
    for (let i = 1; i < text.length; i++) {
      if (!word.test(text[i - 1]) || !word.test(text[i])) continue;
      const above = top(i - 1), here = top(i);
      if (above === null || here === null || here <= above + 2) continue;
      let start = i, end = i;
      while (start > 0 && !/\\s/.test(text[start - 1])) start--;
      while (end < text.length && !/\\s/.test(text[end])) end++;
      const r = document.createRange(); r.setStart(node, start); r.setEnd(node, end);
      const width = [...r.getClientRects()].reduce((sum, rect) => sum + rect.width, 0);
      if (width <= room) found.push(text.slice(Math.max(0, i - 12), i) + '|' + text.slice(i, i + 12));
    }
  }
  return found;
}"""


@pytest.mark.browser
def test_tables_sit_left_in_jupyterlab_and_json_wraps_between_tokens(tmp_path):
    """Chapter 12's cheat sheet and chapter 10's peer tables in JupyterLab as `tasks.py lab`
    starts it (served from a scratch copy, as JupyterLab writes checkpoints of what it opens),
    at 1400x1000 with the file browser open, nothing run: every cell left-aligned, each table
    at the left edge of its output, group rows' text at the left, and the JSON in the cells
    broken only between tokens. Screenshots go to artifacts/."""
    pytest.importorskip("jupyterlab")
    nbformat = pytest.importorskip("nbformat")
    from nbformat.sign import NotebookNotary
    import time
    import urllib.request
    import uuid

    sys.path.insert(0, str(ROOT))
    try:
        import tasks
    finally:
        sys.path.remove(str(ROOT))
    home = tmp_path / "jupyter"
    for plugin, values in {"@jupyterlab/docmanager-extension/plugin": {"autosave": False},
                           "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}.items():
        settings = home / "settings" / f"{plugin}.jupyterlab-settings"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps(values), encoding="utf-8")
    chapters = ["notebooks/12_cheat_sheet.ipynb", "notebooks/10_where_stacks_disagree.ipynb"]
    served = tmp_path / "served"
    for chapter in chapters:
        (served / chapter).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / chapter, served / chapter)
    (home / "data").mkdir(parents=True)
    notary = NotebookNotary(data_dir=str(home / "data"))  # trusted, as set-up makes them: their <style> is kept
    for chapter in chapters:
        notary.sign(nbformat.read(served / chapter, as_version=4))
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
           "JUPYTER_DATA_DIR": str(home / "data")}
    port, token = free_port(), uuid.uuid4().hex
    command = tasks.jupyter_lab(ROOT / "notebooks" / "00_index.ipynb", [
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        "--ServerApp.open_browser=False", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={served}"])
    log = (tmp_path / "lab.log").open("w", encoding="utf-8")
    server = subprocess.Popen([str(part) for part in command], cwd=served, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    artifacts = ROOT / "artifacts"
    artifacts.mkdir(exist_ok=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, (tmp_path / "lab.log").read_text(encoding="utf-8")[-3000:]
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline, "JupyterLab did not answer"
                time.sleep(0.5)
        with chromium() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(90_000)
                results = {}
                for chapter, table, code in [(chapters[0], ".cheat-sheet table", ".cheat-sheet td code"),
                                             (chapters[1], ".tp-peer-tables table", ".tp-peer-tables td code")]:
                    page.goto(f"{base}/lab/tree/{chapter}?token={token}")
                    page.wait_for_selector(table, state="attached")
                    page.wait_for_timeout(1000)  # fonts and layout settle
                    page.evaluate("s => document.querySelector(s).scrollIntoView()", table)
                    page.screenshot(path=str(artifacts / f"tables-{Path(chapter).stem}.png"))
                    results[chapter] = (page.evaluate(TABLE_LAYOUT, table), page.evaluate(MID_TOKEN_BREAKS, code))
            finally:
                browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
    for chapter, (tables, breaks) in results.items():
        assert tables and all(t["cells"] for t in tables), f"{chapter}: no table drawn"
        for t in tables:
            assert t["misaligned"] == [], f"{chapter}: cells not left-aligned: {t['misaligned'][:5]}"
            assert abs(t["leftGap"]) <= 1, f"{chapter}: a table sits {t['leftGap']:.0f} px from the left of its output"
            assert all(offset < 12 for offset in t["groupOffsets"]), f"{chapter}: a group row's text is not at the left"
        assert breaks == [], f"{chapter}: JSON broken inside a token: {breaks[:5]}"


@pytest.mark.browser
def test_the_break_finder_sees_a_word_split_in_two():
    """The check above can fail: `word-break: break-all` (the old cheat sheet's style) splits
    words of a short JSON value; wrapping at spaces does not."""
    row = '<td style="width:9em;padding:0"><code style="white-space:pre-wrap;{}">{{"role": "system", "content": "be brief"}}</code></td>'
    with chromium() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.set_content(f"<table><tr>{row.format('word-break:break-all')}</tr></table>")
            split = page.evaluate(MID_TOKEN_BREAKS, "td code")
            page.set_content(f"<table><tr>{row.format('word-break:normal;overflow-wrap:break-word')}</tr></table>")
            whole = page.evaluate(MID_TOKEN_BREAKS, "td code")
        finally:
            browser.close()
    assert split and whole == [], (split, whole)


# ---------------------------------------------------------------------------
# The learner's README, in the learner's language

CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(scope="module")
def chinese_copy(tmp_path_factory) -> Path:
    """What `python3 tasks.py workshop DIR --lang zh` writes (unsigned: signing is tested above)."""
    target = tmp_path_factory.mktemp("class-zh")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(target), "--lang", "zh", "--no-trust"],
                            capture_output=True, text=True, encoding="utf-8")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert CJK.search(result.stdout) and "Traceback" not in result.stderr
    return target


def _prose(readme: str) -> str:
    """The README without its code spans, its bold JupyterLab menu path and its link to the other edition."""
    return re.sub(r"`[^`]*`|\*\*[^*]*\*\*|^English: .*$", " ", readme, flags=re.MULTILINE)


def test_the_chinese_copy_has_a_chinese_readme_that_opens_the_chinese_chapters(chinese_copy):
    readme = (chinese_copy / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# 本课的各章\n")
    assert "`notebooks/zh/00_index.ipynb`" in readme and (chinese_copy / "notebooks" / "zh" / "00_index.ipynb").is_file()
    assert "`cheat_sheet.zh.html`" in readme and (chinese_copy / "cheat_sheet.zh.html").is_file()
    assert (chinese_copy / "docs" / "cheat_sheet.zh.html").is_file()
    assert "jupyter trust notebooks/zh/*.ipynb" in readme
    assert not re.search(r"[A-Za-z]{3,} [a-z]{2,} [a-z]{2,}", _prose(readme)), "an English sentence in the Chinese README"
    assert "\n\n" in readme and all("\n" not in paragraph.strip() or paragraph.lstrip().startswith(("-", "#"))
                                    for paragraph in readme.split("\n\n")), "a line break inside a Chinese paragraph"  # fmt: skip
    english = (chinese_copy / "README.en.md").read_text(encoding="utf-8")
    assert "English: [README.en.md](README.en.md)" in readme and "中文版：[README.md](README.md)" in english
    assert "`notebooks/00_index.ipynb`" in english and not CJK.search(english.replace("中文版：", ""))


def test_the_english_copy_links_the_chinese_readme(copy):
    readme = (copy / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# The chapters, for this class\n") and "中文版：[README.zh.md](README.zh.md)" in readme
    chinese = (copy / "README.zh.md").read_text(encoding="utf-8")
    assert chinese.startswith("# 本课的各章\n") and "English: [README.md](README.md)" in chinese
    assert "`notebooks/zh/00_index.ipynb`" in chinese


def test_the_language_of_the_copy(monkeypatch, tmp_path):
    """--lang, else TUTORIAL_LANG, else the locale; a copy of the Chinese edition alone is Chinese
    and has no other README to link."""
    for name in ("TUTORIAL_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert workshop.default_language() == "zh"
    monkeypatch.setenv("TUTORIAL_LANG", "en")
    assert workshop.default_language() == "en"
    assert workshop.default_language(ROOT / "notebooks" / "zh") == "zh"
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "00_index.ipynb").write_text("{}")
    alone = workshop.learner_readmes(tmp_path, "zh", ROOT / "notebooks" / "zh")
    assert list(alone) == ["README.md"] and "`notebooks/00_index.ipynb`" in alone["README.md"] and "English:" not in alone["README.md"]
    assert workshop._lang_option(["DIR", "--lang", "fr"])[0] == ""
    refused = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(tmp_path / "x"), "--lang", "fr"],
                             capture_output=True, text=True)  # fmt: skip
    assert refused.returncode == 2 and not (tmp_path / "x").exists()
