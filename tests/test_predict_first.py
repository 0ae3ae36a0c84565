"""Predict first, by construction: the shape of every section (notebooks/FORMAT.md), in every view.

`test_answers_in_view.py` looks for an answer's words; this test checks the structure that keeps
any answer out of view, whatever its words. For every prediction (a cell tagged `exercise` that
calls `check("KEY", …)`), in both editions and in four views — JupyterLab (the notebook as
committed), the class copy (scripts/workshop.py), the static view (nbconvert's HTML, as GitHub
shows a notebook: collapsed sources and hidden outputs are printed in full) and the book (the
chapters as book/build.py stages them) — it fails for each of these leaks, naming the view,
chapter, question and cell:

- `answer key`: a silent check below a prediction that writes its expected value as a literal,
  `expect(x, {"role": …})`, `expect(x, 5)`, `expect(type(x), dict)`, visible or collapsed;
- `stored output`: a code cell between a check and the next heading that shows a stored output
  (a `reveal` cell stores none: its output lives in notebooks/.reveals/);
- `prose`: markdown between a check and the next heading outside `<details>`;
- `heading`: the next section's heading or prompt naming the answer of the question above it
  (giveaway words and values, as test_answers_in_view.py computes them);
- `picture`: a flow picture (`diagram`, `local_flow`) below the check of a prediction that is
  not the chapter's last, drawn without `upto=` (it draws the later stages' answers);
- `later chapter`: a chapter whose prose (folded or not), code in view or stored output or
  picture holds the giveaway words of a question a later chapter asks. Chapter 06 reviews chapters 02–05, so its
  questions count as later only for chapters 00 and 01 (`REVIEWS`).
"""

from __future__ import annotations

import ast
import html
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from test_answers_in_view import DETAILS, chapters, compact, in_view, language_of, needles, output_views

from tutorial.notebook import exercises
from tutorial.notebook.exercises import giveaways
from tutorial.words import using


def giveaway_words(key: str, lang: str) -> list:
    """The giveaway words of exercise `key` in `lang`."""
    with using(lang):
        return giveaways.words(key)


ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
REVEALS = NOTEBOOK_DIR / ".reveals"
HEADING = re.compile(r"^ {0,3}#{1,6}\s", re.M)
SILENT_CHECK_NAMES = {"expect"}  # how the chapters import show.check: `from tutorial.notebook import check as expect`
LITERAL_NAMES = {"dict", "list", "str", "int", "float", "bool", "tuple", "set", "type", "True", "False", "None"}
FLOW_PICTURES = re.compile(r"\b(diagram|local_flow)\(")


# --- one cell as a view shows it --------------------------------------------------------


@dataclass
class Seen:
    index: int  # the cell's index in the chapter (0-based, as nbformat counts)
    kind: str  # "markdown" or "code"
    tags: set
    source: str  # the whole source, shown or not
    code_shown: str = ""  # the code a reader sees without unfolding anything
    prose_shown: str = ""  # markdown outside <details>
    outputs_shown: list = field(default_factory=list)  # texts of stored outputs in view
    folded: bool = False  # the whole cell is inside a fold (the book's "Answer")
    key: str | None = None  # an exercise cell's key, from its metadata (chapter 05's cells call check_stage)


def source_of(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def lab_view(notebook: dict) -> list[Seen]:
    """JupyterLab (and the class copy): collapsed inputs show their first line, hidden outputs nothing."""
    seen = []
    for index, cell in enumerate(notebook["cells"]):
        item = Seen(index, cell["cell_type"], set(cell.get("metadata", {}).get("tags", [])), source_of(cell),
                    key=cell.get("metadata", {}).get("exercise"))
        for what, text in in_view(cell):
            if what == "prose":
                item.prose_shown = DETAILS.sub("\n", item.source)
            elif what == "stored output":
                item.outputs_shown.append(text)
            else:
                item.code_shown = text
        seen.append(item)
    return seen


CELL_DIV = re.compile(r'(?=<div[^>]*class="jp-Cell )')
TAG = re.compile(r"<[^>]+>")
HTML_HEADING = re.compile(r"<h([1-6])\b[^>]*>")  # a rendered heading, read back as a markdown heading line
ANCHOR = re.compile(r'<a class="anchor-link"[^>]*>.*?</a>', re.S)  # the ¶ nbconvert puts after a heading


def static_view(path: Path) -> list[Seen]:
    """nbconvert's HTML (the lab template, as GitHub and `jupyter nbconvert --to html` show a
    notebook), read back cell by cell: what is printed is what is in view."""
    import nbformat
    from nbconvert import HTMLExporter

    notebook = nbformat.read(path, as_version=4)
    page, _ = HTMLExporter(template_name="lab").from_notebook_node(notebook)
    parts = CELL_DIV.split(page)[1:]
    assert len(parts) == len(notebook.cells), f"{path.name}: {len(parts)} cells in the HTML, {len(notebook.cells)} in the notebook"
    seen = []
    for index, (cell, part) in enumerate(zip(notebook.cells, parts)):
        item = Seen(index, cell.cell_type, set(cell.metadata.get("tags", [])), cell.source, key=cell.metadata.get("exercise"))
        if cell.cell_type == "markdown":
            shown = HTML_HEADING.sub(lambda h: "\n" + "#" * int(h.group(1)) + " ", DETAILS.sub("\n", part))
            item.prose_shown = html.unescape(TAG.sub("", ANCHOR.sub("", shown)))
        elif cell.cell_type == "code":
            head, _, outputs = part.partition('class="jp-Cell-outputWrapper"')
            item.code_shown = html.unescape(TAG.sub("", head))
            if "jp-OutputArea-output" in outputs:
                item.outputs_shown = [html.unescape(TAG.sub(" ", outputs))]
        seen.append(item)
    return seen


def book_view(path: Path, edition: str, tmp: Path) -> list[Seen]:
    """The chapter as book/build.py stages it for Sphinx: answer cells and what follows them
    inside a closed "Answer", silent checks removed, `hide-input`/`hide-output` folded."""
    sys.path.insert(0, str(ROOT / "book"))
    import build

    linker = build.Linker(edition, tmp / "extra")
    (tmp / "extra").mkdir(exist_ok=True)
    build.stage_chapter(path, edition, linker, tmp)
    staged = json.loads((tmp / path.name).read_text(encoding="utf-8"))
    original = json.loads(path.read_text(encoding="utf-8"))
    index_of = {cell.get("id"): i for i, cell in enumerate(original["cells"])}
    seen, depth, last = [], 0, 0
    for cell in staged["cells"]:
        text = source_of(cell)
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell["cell_type"] == "markdown" and text.startswith('<details class="book-answer">'):
            depth += 1
            continue
        if cell["cell_type"] == "markdown" and text.startswith("</div>\n</details>"):
            depth -= 1
            continue
        cell_id = str(cell.get("id", ""))
        last = index_of.get(cell_id.removesuffix("-after"), last)
        if "remove-cell" in tags or cell_id.startswith("book-"):
            continue
        meta = original["cells"][last].get("metadata", {})
        item = Seen(last, cell["cell_type"], set(meta.get("tags", [])), text, folded=depth > 0,
                    key=meta.get("exercise") if "exercise" in tags or "exercise" in meta.get("tags", []) else None)
        if not item.folded:
            if cell["cell_type"] == "markdown":
                item.prose_shown = DETAILS.sub("\n", text)
            else:
                item.code_shown = "" if "hide-input" in tags else text
                if "hide-output" not in tags:
                    item.outputs_shown = [v for output in cell.get("outputs", []) for v in output_views(output)]
        seen.append(item)
    return seen


# --- the leaks --------------------------------------------------------------------------


def literal_checks(source: str) -> list[str]:
    """Each silent check in `source` whose expected value is written as a literal."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SILENT_CHECK_NAMES and len(node.args) >= 2:
            expected = node.args[1]
            if all(not isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) or (isinstance(n, ast.Name) and n.id in LITERAL_NAMES)
                   for n in ast.walk(expected)):
                found.append(ast.get_source_segment(source, node) or "expect(…)")
    return found


def unfolded_before_heading(text: str) -> tuple[str, str | None]:
    """(prose before the first heading, that heading's cell text from the heading on, or None)."""
    found = HEADING.search(text)
    if not found:
        return text, None
    return text[: found.start()], text[found.start():]


def key_of(item: Seen) -> str | None:
    if item.kind == "code" and "exercise" in item.tags:
        match = re.search(r"""check\(\s*["']([0-9a-z]+\.[A-Za-z0-9_]+)["']""", item.source)
        return match.group(1) if match else item.key
    return None


def section_leaks(view: list[Seen], lang: str, label: str) -> list[str]:
    """The leaks of one chapter in one view (all kinds but `later chapter`)."""
    found = []
    asked = [(n, item, key_of(item)) for n, item in enumerate(view) if key_of(item)]
    if not asked:
        return found
    first, under = asked[0][0], None
    for item in view[first:]:
        under = f"{key_of(item)} (prediction in cell {item.index})" if key_of(item) else under
        for literal in ([] if item.kind != "code" or item.folded else literal_checks(item.source)):
            found.append(f"{label} · {under}: cell {item.index}: answer key — a silent check with a literal expected value: {literal[:90]!r}")
    for number, (n, item, key) in enumerate(asked):
        last_question = number + 1 == len(asked)
        where = f"{label} · {key} (prediction in cell {item.index})"
        code_exercise = exercises.get(key).code  # chapter 05: the answer is a function the learner writes
        forms = [] if code_exercise else [(how, text, compact(text)) for how, text in needles(key, lang)]
        m, heading = n + 1, None
        while m < len(view):  # the fold: everything below the check up to the next heading
            other = view[m]
            if key_of(other):
                break
            if other.kind == "markdown" and not other.folded:
                before, heading = unfolded_before_heading(other.prose_shown)
                if before.strip():
                    found.append(f"{where}: cell {other.index}: prose — unfolded below the check: {' '.join(before.split())[:90]!r}")
                if heading is not None:
                    break
            elif other.kind == "code" and not other.folded:
                if other.outputs_shown and "solution" not in other.tags:
                    found.append(f"{where}: cell {other.index}: stored output — shown below the check: "
                                 f"{' '.join(other.outputs_shown[0].split())[:90]!r}")
                if not last_question and FLOW_PICTURES.search(other.source) and "upto=" not in other.source:
                    found.append(f"{where}: cell {other.index}: picture — a flow picture drawn past the stage asked: {other.source.strip()[:90]!r}")
            m += 1
        if heading is None:
            continue
        # The next section's heading and prompt are on screen while this question is answered.
        shown = [heading]
        for k in range(m + 1, len(view)):
            if key_of(view[k]) or view[k].kind != "markdown":
                break
            shown.append(view[k].prose_shown)
        seen = compact("\n".join(shown).replace("`", "").replace("**", ""))
        for how, needle, small in forms:
            if small in seen:
                found.append(f"{where}: cell {view[m].index}: heading — the next section names this answer, as {how}: {needle[:80]!r}")
    return found


# --- later chapters' answers ------------------------------------------------------------


REVIEWS = {"06": "02"}  # a review chapter's questions, and the first chapter whose lesson they review


def chapter_number(key_or_name: str) -> str:
    return key_or_name.split(".")[0].split("_")[0]


OVERCLAIMS = {"en": ["all of Action 3.5"], "zh": ["整个 Action 3.5 都在里面"]}
"""Claims an earlier chapter may not make: recording the turn (Action 3.5's other half) is chapter 13's."""


def later_words(chapter: str, lang: str) -> list[tuple[str, str]]:
    """(key, words) for every exercise of a chapter after `chapter` (the bank's keys, so a new
    chapter's questions count as soon as they are in the bank, with their giveaway words)."""
    found = []
    for key in sorted(exercises.all_exercises()):
        asked_in = chapter_number(key)
        if asked_in > chapter and REVIEWS.get(asked_in, asked_in) > chapter:
            found += [(key, words) for words in giveaway_words(key, lang)]
    if chapter < "13":
        found += [("13 (the trajectory: recording the turn)", words) for words in OVERCLAIMS[lang]]
    return found


def later_chapter_leaks(path: Path, label: str) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    lang = language_of(path)
    chapter = chapter_number(path.stem)
    found = []
    for item in lab_view(notebook):
        # Prose counts folded too: a learner opens it after this chapter's check, before the later one.
        prose = item.source if item.kind == "markdown" else ""
        texts = [prose, prose.replace("`", "").replace("**", ""), item.code_shown, *item.outputs_shown]
        seen = compact("\n".join(texts))
        for key, words in later_words(chapter, lang):
            if compact(words) in seen:
                found.append(f"{label} · cell {item.index}: later chapter — shows the answer of {key}: {words!r}")
    return found


# --- the views --------------------------------------------------------------------------


def leaks_in(folder: Path, prefix: str, view: str, tmp: Path | None = None) -> tuple[int, list[str]]:
    total, found = 0, []
    for path in chapters(folder):
        label = f"{view} · {prefix}{path.relative_to(folder).as_posix()}"
        notebook = json.loads(path.read_text(encoding="utf-8"))
        lang = language_of(path)
        if view == "static":
            seen = static_view(path)
        elif view == "book":
            target = tmp / lang
            target.mkdir(parents=True, exist_ok=True)
            seen = book_view(path, lang, target)
        else:
            seen = lab_view(notebook)
        total += sum(1 for item in seen if key_of(item))
        found += section_leaks(seen, lang, label)
        if view == "lab":
            found += later_chapter_leaks(path, label)
    return total, found


def report(found: list[str]) -> str:
    by_prediction = {line.split(": cell")[0] for line in found}
    return f"{len(found)} leaks ({len(by_prediction)} predictions or cells):\n" + "\n".join(found)


def test_every_chapter_has_the_section_shape_in_jupyterlab():
    total, found = leaks_in(NOTEBOOK_DIR, "notebooks/", "lab")
    assert total >= 150, total
    assert not found, report(found)


def test_the_static_view_shows_no_answer_before_the_check():
    pytest.importorskip("nbconvert")
    _, found = leaks_in(NOTEBOOK_DIR, "notebooks/", "static")
    assert not found, report(found)


def test_the_book_shows_no_answer_before_the_check(tmp_path):
    pytest.importorskip("sphinx")  # book/build.py is importable where the book extra is installed
    _, found = leaks_in(NOTEBOOK_DIR, "notebooks/", "book", tmp_path)
    assert not found, report(found)


def test_the_class_copy_has_the_section_shape(tmp_path):
    target = tmp_path / "class"
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(target), "--no-trust"],
                            capture_output=True, text=True, env={**os.environ, "JUPYTER_DATA_DIR": str(tmp_path / "jupyter")})
    assert result.returncode == 0, result.stderr
    total, found = leaks_in(target / "notebooks", "class copy: ", "lab")
    assert total >= 150, total
    assert not found, report(found)


# --- the test can fail ------------------------------------------------------------------


def leaks_of(tmp_path: Path, source: dict) -> list[str]:
    path = tmp_path / "02_messages_path.ipynb"
    path.write_text(json.dumps(source, ensure_ascii=False), encoding="utf-8")
    return section_leaks(lab_view(source), "en", "planted") + later_chapter_leaks(path, "planted")


def planted(tmp_path: Path, change, kind: str) -> tuple[int, int]:
    """How many leaks of `kind` chapter 02 has as committed, and with one leak put back by
    `change(cells)`."""
    source = json.loads((NOTEBOOK_DIR / "02_messages_path.ipynb").read_text(encoding="utf-8"))
    before = sum(f": {kind} —" in line for line in leaks_of(tmp_path, source))
    change(source["cells"])
    return before, sum(f": {kind} —" in line for line in leaks_of(tmp_path, source))


def below_first_check(cells: list) -> int:
    return next(i for i, cell in enumerate(cells) if "exercise" in cell.get("metadata", {}).get("tags", [])) + 1


def code(source: str, hidden: bool = False, outputs: list | None = None) -> dict:
    return {"cell_type": "code", "metadata": {"jupyter": {"source_hidden": True}} if hidden else {}, "source": source,
            "execution_count": None, "outputs": outputs or []}


@pytest.mark.parametrize("kind, cell", [
    ("answer key", code('expect(t.translated[0], {"role": "system", "content": "x"})', hidden=True)),
    ("answer key", code("expect(type(call), dict)")),
    ("stored output", code("x", outputs=[{"output_type": "stream", "name": "stdout", "text": "dicts equal: True\n"}])),
    ("prose", {"cell_type": "markdown", "metadata": {}, "source": "The package writes `[image omitted]` there."}),
    ("picture", code('diagram(t, highlight="system")')),
])
def test_each_leak_kind_is_found(tmp_path, kind, cell):
    def change(cells):
        cells.insert(below_first_check(cells), cell)

    before, after = planted(tmp_path, change, kind)
    assert after > before, (kind, before, after)


def test_a_heading_that_answers_is_found(tmp_path):
    words = giveaway_words("02.system_message", "en")[0]  # the answer of the question above the heading

    def change(cells):
        heading = next(i for i, cell in enumerate(cells) if i > below_first_check(cells) and cell["cell_type"] == "markdown"
                       and HEADING.search(source_of(cell)))
        text = source_of(cells[heading])
        at = HEADING.search(text).start()
        cells[heading]["source"] = text[:at] + f"## Why the text is {words}\n\n" + text[at:]

    before, after = planted(tmp_path, change, "heading")
    assert after > before


def test_a_later_answer_in_an_earlier_chapter_is_found(tmp_path):
    key = next(key for key in sorted(giveaways.GIVEAWAYS) if key.startswith("09."))

    def change(cells):
        cells.append({"cell_type": "markdown", "metadata": {}, "source": "## In short\n\n" + giveaway_words(key, "en")[0]})

    before, after = planted(tmp_path, change, "later chapter")
    assert after > before


def test_the_static_view_prints_what_jupyterlab_folds(tmp_path):
    """An output hidden in JupyterLab (`outputs_hidden`) is still printed by nbconvert, as on
    GitHub: the static view finds the leak the JupyterLab view does not."""
    pytest.importorskip("nbconvert")
    source = json.loads((NOTEBOOK_DIR / "02_messages_path.ipynb").read_text(encoding="utf-8"))
    hidden = code("x", outputs=[{"output_type": "stream", "name": "stdout", "text": "dicts equal: True\n"}])
    hidden["metadata"] = {"jupyter": {"outputs_hidden": True}}
    source["cells"].insert(below_first_check(source["cells"]), hidden)
    path = tmp_path / "02_messages_path.ipynb"
    path.write_text(json.dumps(source, ensure_ascii=False), encoding="utf-8")
    in_lab = [line for line in section_leaks(lab_view(source), "en", "lab") if ": stored output —" in line]
    in_static = [line for line in section_leaks(static_view(path), "en", "static") if ": stored output —" in line]
    assert len(in_static) == len(in_lab) + 1, (in_lab, in_static)
