"""The reading edition: both editions of the course as one static HTML site (book/README.md).

    python3 tasks.py book [--pdf] [--serve] [--port N]

Stages every chapter (notebooks/*.ipynb, notebooks/zh/*.ipynb), the READMEs, the run-sheet, the
glossary and the cheat sheets into book/_build/src/{en,zh}/, then Sphinx with myst-nb builds each
edition into book/_build/site/{en,zh}/; site/index.html lets a reader pick one. Nothing is
executed: a chapter's stored outputs are shown, and its answer cells show what
notebooks/.reveals/ stores for them (what nbval checks), folded under "Answer".
The last line printed is `book: PATH`, the site's index.html.
"""

from __future__ import annotations

import argparse
import functools
import html
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

BOOK = Path(__file__).resolve().parent
ROOT = BOOK.parent
NOTEBOOKS = ROOT / "notebooks"
REVEALS = NOTEBOOKS / ".reveals"
OUT = BOOK / "_build"
SITE = OUT / "site"
EDITIONS = ("en", "zh")
OTHER = {"en": "zh", "zh": "en"}

sys.path.insert(0, str(ROOT))  # the package, for its chapter list and the playground picture
sys.path.insert(0, str(BOOK))

ANSWER_TAGS = {"reveal", "solution"}
EXERCISE_TAG = "exercise"
WORDS = {
    "en": {"answer": "Answer", "edition": "中文版", "book": "Anthropic Messages → chat template: the reading edition",
           "chapters": "Chapters", "minutes": "Self-study", "in_class": "In class", "more": "Also in this book",
           "readme": "README: what this project is", "run_sheet": "Run-sheet (for instructors)",
           "glossary": "Glossary", "cheat_sheet": "Cheat sheet (one printable page)", "min": "min",
           "total": "Total", "chapter": "Chapter",
           "pdf": "The whole edition as one PDF (to print or read offline)"},
    "zh": {"answer": "答案", "edition": "English", "book": "Anthropic Messages → 聊天模板：阅读版",
           "chapters": "章节", "minutes": "自学", "in_class": "课堂", "more": "本书还包括",
           "readme": "README：这个项目是什么", "run_sheet": "课程安排（讲师用）", "glossary": "术语表",
           "cheat_sheet": "速查表（可打印的一页）", "min": "分钟", "total": "合计", "chapter": "章",
           "pdf": "整本中文版 PDF（可打印、离线阅读）"},
}
# The pages beside the chapters: (page name, source file under the repository, label key); per edition.
PAGES = {
    "en": [("readme", "README.md", "readme"), ("run-sheet", "notebooks/README.md", "run_sheet")],
    "zh": [("readme", "README.zh.md", "readme"), ("run-sheet", "notebooks/zh/README.md", "run_sheet"),
           ("glossary", "notebooks/zh/glossary.md", "glossary")],
}
CHEAT_SHEET = {"en": "docs/cheat_sheet.html", "zh": "docs/cheat_sheet.zh.html"}


def edition_dir(edition: str) -> Path:
    return NOTEBOOKS if edition == "en" else NOTEBOOKS / edition


def chapters(edition: str) -> list[Path]:
    """The chapters in the course's order (tutorial/notebook/minutes.py), then any it does not list."""
    from tutorial.notebook.minutes import CHAPTERS

    listed = [edition_dir(edition) / chapter.notebook for chapter in CHAPTERS]
    rest = sorted(set(edition_dir(edition).glob("*.ipynb")) - set(listed))
    return [path for path in listed + rest if path.is_file()]


# Links -------------------------------------------------------------------------------------

LINK = re.compile(r"(!?)\[((?:[^\]\[]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
# Which repository file is which page of which edition: {repo path: (edition, page file)}
def page_map() -> dict[str, tuple[str, str]]:
    pages = {}
    for edition in EDITIONS:
        for path in chapters(edition):
            pages[path.relative_to(ROOT).as_posix()] = (edition, path.name)
        for name, source, _ in PAGES[edition]:
            pages[source] = (edition, f"{name}.md")
    return pages


class Linker:
    """Rewrites a staged page's relative links: to a page of its edition (Sphinx resolves it),
    to the other edition's built page, or to a copy of the repository file under files/."""

    def __init__(self, edition: str, extra: Path):
        self.edition, self.extra, self.pages = edition, extra, page_map()
        self.unresolved: list[str] = []

    def rewrite(self, text: str, source: str) -> str:
        return LINK.sub(lambda match: self._one(match, source), text)

    def _one(self, match: re.Match, source: str) -> str:
        bang, label, target = match.groups()
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            return match.group(0)
        path, _, anchor = target.partition("#")
        repo_path = os.path.normpath(os.path.join(os.path.dirname(source), path)).replace(os.sep, "/")
        hash_part = f"#{anchor}" if anchor else ""
        if repo_path in self.pages:
            edition, page = self.pages[repo_path]
            if edition == self.edition and not bang:
                return f"[{label}]({page}{hash_part})"
            url = f"../{edition}/{Path(page).with_suffix('.html').as_posix()}{hash_part}"
            return _raw_link(url, label, bang)
        if repo_path in CHEAT_SHEET.values():
            edition = next(e for e, p in CHEAT_SHEET.items() if p == repo_path)
            name = Path(repo_path).name
            return _raw_link(name if edition == self.edition else f"../{edition}/{name}", label, bang)
        file = ROOT / repo_path
        if file.is_file() and not repo_path.startswith(".."):
            copy = self.extra / "files" / repo_path
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, copy)
            return _raw_link(f"files/{repo_path}{hash_part}", label, bang)
        if file.is_dir():
            return label if not bang else ""  # a folder is no page: its name stays, as text
        self.unresolved.append(f"{source}: {target}")
        return label


def _raw_link(url: str, label: str, bang: str) -> str:
    """A link (or picture) Sphinx passes through as it is: inline HTML, its label still Markdown."""
    if bang:
        return f'<img src="{html.escape(url)}" alt="{html.escape(label)}">'
    return f'<a href="{html.escape(url)}">{label}</a>'


# Chapters ----------------------------------------------------------------------------------


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _source_hidden(cell: dict) -> bool:
    return bool(cell.get("metadata", {}).get("jupyter", {}).get("source_hidden"))


def _split_details(cell: dict) -> tuple[str, str] | None:
    """A Markdown cell that opens with a <details> block (prose the chapter keeps folded until
    the learner has answered): that block's inside, and the rest of the cell; None otherwise."""
    text = _source(cell).lstrip()
    if cell["cell_type"] != "markdown" or not text.startswith("<details"):
        return None
    end = text.find("</details>")
    if end < 0:
        return None
    inside = re.sub(r"^<details[^>]*>\s*(<summary>.*?</summary>)?", "", text[:end], count=1, flags=re.S)
    return inside.strip(), text[end + len("</details>"):].strip()


SOLUTION_CALL = re.compile(r"""reveal\((["'])([\w.]+)\1,\s*show=False\)""")
RECALL_CALL = re.compile(r"""recall\((["'])([\w.]+)\1,\s*show=False\)""")


def answer_outputs(cell: dict, stored: list, edition: str) -> tuple[str, list]:
    """What an answer cell shows in the book: its stored outputs, except that a `solution`
    cell's "set show=True" note becomes the answer itself, from the exercise catalogue (the
    same function, show=True, computed here: no kernel, nothing the learner's run differs in)."""
    source = _source(cell)
    found = SOLUTION_CALL.search(source) or RECALL_CALL.search(source)
    if not found:
        return source, stored
    import tutorial
    from tutorial.notebook import exercises

    tutorial.use_language(edition)
    text = (exercises.reveal if found.re is SOLUTION_CALL else exercises.recall)(found.group(2), show=True)
    shown = source.replace("show=False", "show=True")
    shown = re.sub(r"\s*#\s*set show=True.*", "", shown)
    return shown, [{"output_type": "stream", "name": "stdout", "text": str(text) + "\n"}]


def inline_pictures(outputs: list) -> list:
    """SVG outputs as inline HTML, so their text can be selected and searched."""
    for output in outputs:
        data = output.get("data") or {}
        if "image/svg+xml" in data:
            svg = data["image/svg+xml"]
            svg = "".join(svg) if isinstance(svg, list) else svg
            svg = svg[svg.find("<svg"):] if "<svg" in svg else svg
            output["data"] = {"text/html": f'<div class="book-svg">{svg}</div>',
                              **({"text/plain": data["text/plain"]} if "text/plain" in data else {})}
        for widget in ("application/vnd.jupyter.widget-view+json", "application/vnd.jupyter.widget-state+json"):
            data.pop(widget, None)
    return outputs


def fold(cells: list, edition: str) -> list:
    """Each run of answer cells (and the silent checks and folded prose among and right after
    them) inside one closed <details> "Answer", opened by a click; the learner's question cell
    stays above it, and what follows the folded prose in its cell stays below."""
    label = WORDS[edition]["answer"]
    cells, result = list(cells), []
    while cells:
        cell = cells.pop(0)
        if not (cell["cell_type"] == "code" and _answer(cell)):
            result.append(cell)
            continue
        group = [cell]
        while cells:
            cell = cells[0]
            details = _split_details(cell)
            if cell["cell_type"] == "code" and (_answer(cell) or (_source_hidden(cell) and not cell.get("outputs"))):
                group.append(cells.pop(0))
            elif details:
                cells.pop(0)
                group.append({**cell, "source": details[0] + "\n"})
                if details[1]:
                    cells.insert(0, {**cell, "id": f"{cell.get('id', 'cell')}-after", "source": details[1] + "\n"})
                break
            else:
                break
        result.append(_markdown(f'<details class="book-answer">\n<summary>{label}</summary>\n\n<div class="book-answer-body">\n'))
        result.extend(group)
        result.append(_markdown("</div>\n</details>\n<!-- /book-answer -->\n"))  # the end, for search (book_extras.py)
    return result


def _answer(cell: dict) -> bool:
    return bool(cell.get("metadata", {}).get("book_answer"))


def _markdown(text: str) -> dict:
    _markdown.made = getattr(_markdown, "made", 0) + 1
    return {"cell_type": "markdown", "id": f"book-{_markdown.made}", "metadata": {}, "source": text}


def stage_chapter(path: Path, edition: str, linker: Linker, target: Path) -> None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    reveals_file = (REVEALS / path.relative_to(NOTEBOOKS)).with_suffix(".json")
    reveals = json.loads(reveals_file.read_text(encoding="utf-8"))["outputs"] if reveals_file.is_file() else {}
    source = path.relative_to(ROOT).as_posix()
    cells, first_code = [], True
    for cell in notebook["cells"]:
        cell = json.loads(json.dumps(cell))
        cell.pop("attachments", None)
        if cell["cell_type"] == "markdown":
            cell["source"] = linker.rewrite(_source(cell), source)
        elif cell["cell_type"] == "code":
            tags, meta = _tags(cell), cell.setdefault("metadata", {})
            if ANSWER_TAGS & tags:
                meta["book_answer"] = True
                cell["source"], cell["outputs"] = answer_outputs(cell, reveals.get(cell.get("id"), cell.get("outputs", [])), edition)
            cell["outputs"] = inline_pictures(cell.get("outputs", []))
            cell["execution_count"] = None
            book_tags = set()
            if _source_hidden(cell):
                # A silent check (no output) is no part of the reading; the set-up cell stays, folded.
                book_tags.add("hide-input" if cell["outputs"] or first_code else "remove-cell")
            if meta.get("jupyter", {}).get("outputs_hidden"):
                book_tags.add("hide-output")
            if re.search(r"^\w+\s*=\s*Playground\(", _source(cell), re.M):  # chapter 07's widget: a picture of it
                cell["outputs"] = [playground_output(edition)]
            meta["tags"] = sorted(book_tags)
            first_code = False
        cells.append(cell)
    notebook["cells"] = fold(cells, edition)
    notebook["metadata"].pop("widgets", None)
    titled = next((i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "markdown"
                   and re.search(r"^# ", _source(c), re.M)), 0)
    notebook["cells"].insert(titled + 1, _markdown(run_box(path, edition, linker.extra)))  # under the chapter's title
    (target / path.name).write_text(json.dumps(notebook, ensure_ascii=False, indent=1), encoding="utf-8")


def playground_output(edition: str) -> dict:
    from playground_picture import picture

    return {"output_type": "display_data", "metadata": {},
            "data": {"text/html": picture(edition, run_links(NOTEBOOKS / "07_playground.ipynb", edition))}}


# Running a chapter -------------------------------------------------------------------------

def run_links(path: Path, edition: str) -> list[tuple[str, str]]:
    """(label, URL) of the places a reader can run this chapter; Binder and the class hub only
    when their addresses are given (BOOK_REPOSITORY=owner/repo, BOOK_HUB_URL)."""
    notebook = (edition_dir(edition) / path.name).relative_to(ROOT).as_posix()
    command = "python3 tasks.py lab" + (" --lang zh" if edition == "zh" else "")
    links = [(f"JupyterLab ({command})", f"http://localhost:8888/lab/tree/{notebook}")]
    repository = os.environ.get("BOOK_REPOSITORY", "").strip()
    if repository:
        links.append(("Binder", f"https://mybinder.org/v2/gh/{repository}/HEAD?urlpath=lab/tree/{notebook}"))
    hub = os.environ.get("BOOK_HUB_URL", "").strip().rstrip("/")
    if hub:
        links.append(("JupyterHub", f"{hub}/hub/user-redirect/lab/tree/{notebook}"))
    return links


RUN_WORDS = {"en": "Run this chapter", "zh": "运行本章"}


DOWNLOAD_WORDS = {"en": "Download the notebook (.ipynb)", "zh": "下载本章笔记本（.ipynb）"}


def run_box(path: Path, edition: str, extra: Path) -> str:
    """Under a chapter's title: where to run it, and the notebook itself to download (a copy
    in the site, so it needs nothing)."""
    notebook = (edition_dir(edition) / path.name).relative_to(ROOT).as_posix()
    copy = extra / "files" / notebook
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, copy)
    title = RUN_WORDS[edition]
    links = " · ".join(f'<a class="book-run-link" href="{html.escape(url)}">{html.escape(name)}</a>'
                       for name, url in run_links(path, edition))
    download = f'<a class="book-run-link" href="files/{notebook}" download>{DOWNLOAD_WORDS[edition]}</a>'
    return f'<p class="book-run">▶ {title}: {links}<br>⤓ {download}</p>\n'


# Other pages -------------------------------------------------------------------------------


def stage_page(source: str, name: str, linker: Linker, target: Path) -> None:
    text = (ROOT / source).read_text(encoding="utf-8")
    (target / f"{name}.md").write_text(linker.rewrite(text, source), encoding="utf-8")


def stage_cheat_sheet(edition: str, extra: Path) -> None:
    source = ROOT / CHEAT_SHEET[edition]
    other = Path(CHEAT_SHEET[OTHER[edition]]).name
    text = source.read_text(encoding="utf-8")
    bar = (f'<p class="book-bar" style="font:14px sans-serif;margin:0 0 8px 0" data-book-edition="{edition}">'
           f'<a href="index.html">← {html.escape(WORDS[edition]["book"])}</a> · '
           f'<a class="book-edition-switch" href="../{OTHER[edition]}/{other}">{WORDS[edition]["edition"]}</a></p>')
    text = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + bar, text, count=1)
    (extra / source.name).write_text(text, encoding="utf-8")


def stage_index(edition: str, target: Path) -> None:
    """The edition's home page: the chapters in order with their minutes, then the other pages."""
    from tutorial.notebook.minutes import CHAPTERS

    words = WORDS[edition]
    minutes = {chapter.notebook: chapter for chapter in CHAPTERS}
    rows, toc = [], []
    for path in chapters(edition):
        title = chapter_title(path)
        chapter = minutes.get(path.name)
        timing = f"{chapter.self_study} {words['min']}" if chapter else ""
        rows.append(f"| [{title}]({path.name}) | {timing} | {f'{chapter.in_class} ' + words['min'] if chapter else ''} |")
        toc.append(f"{title} · {timing} <{path.stem}>" if timing else path.stem)
    total = sum(minutes[p.name].self_study for p in chapters(edition) if p.name in minutes)
    in_class = sum(minutes[p.name].in_class for p in chapters(edition) if p.name in minutes)
    more = [f"- [{words[key]}]({name}.md)" for name, _, key in PAGES[edition]]
    more.append(f'- <a href="{Path(CHEAT_SHEET[edition]).name}">{words["cheat_sheet"]}</a>')
    first = chapters(edition)[0]
    start = INTRO[edition].format(start=f"[{chapter_title(first)}]({first.name})")
    pdf = [f'<a href="{PDF_NAME[edition]}">{words["pdf"]}</a>', ""] if os.environ.get("BOOK_PDF") else []
    text = "\n".join([
        f"# {words['book']}", "", start, "", *pdf,
        f"| {words['chapter']} | {words['minutes']} | {words['in_class']} |", "| --- | --- | --- |", *rows,
        f"| **{words['total']}** | **{total} {words['min']}** | **{in_class} {words['min']}** |", "",
        f"## {words['more']}", "", *more, "",
        "```{toctree}", ":hidden:", f":caption: {words['chapters']}", "", *toc, "```", "",
        "```{toctree}", ":hidden:", f":caption: {words['more']}", "", *[name for name, _, _ in PAGES[edition]], "```", "",
    ])
    (target / "index.md").write_text(text, encoding="utf-8")


# What the course is and where to start: the landing page and each edition's home page.
INTRO = {
    "en": ("A course for engineers who build or study LLM serving and agent-training stacks: how an "
           "Anthropic Messages request (a system prompt, messages, tool definitions) becomes the message "
           "list and tool schema a model's chat template consumes, how the model's reply finds its way "
           "back, and what becomes of a conversation as training tokens. Every chapter is a Jupyter "
           "notebook that asks you to predict each step before it shows it; the answers here are folded "
           "until you open them. Start with {start}, then go on in order."),
    "zh": ("面向构建或研究大模型推理服务与智能体训练系统的工程师：一个 Anthropic Messages 请求（系统提示词、"
           "消息、工具定义）怎样变成模型聊天模板所用的消息列表和工具定义，模型的回复怎样原路返回，一段对话"
           "又怎样变成训练用的 token。每一章都是一个 Jupyter 笔记本，先请你预测每一步，再给出结果；"
           "本书中的答案都折叠着，点开才看得到。从 {start} 开始，然后按顺序往下读。"),
}
PDF_NAME = {"en": "book-en.pdf", "zh": "book-zh.pdf"}


def chapter_title(path: Path) -> str:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            for line in _source(cell).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


def landing_page() -> str:
    """site/index.html: the two editions, plainly (no script, nothing fetched)."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="en/_static/favicon.svg">
<title>{html.escape(WORDS['en']['book'])}</title>
<style>body{{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"WenQuanYi Micro Hei","Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.6}}
p>a{{font-size:1.3rem}}h2{{font-size:1.3rem;margin-top:2.5rem}}@media (prefers-color-scheme: dark){{body{{background:#121212;color:#ddd}}a{{color:#8ab4f8}}}}</style>
</head><body>
<main>
<h1>Anthropic Messages → chat template</h1>
<p>{html.escape(INTRO['en'].format(start='chapter 00'))}</p>
<p><a href="en/index.html">English edition</a></p>
<section lang="zh-CN">
<h2>Anthropic Messages → 聊天模板</h2>
<p>{html.escape(INTRO['zh'].format(start='第 00 章'))}</p>
<p><a href="zh/index.html">中文版</a></p>
</section>
</main>
</body></html>
"""


# Building ----------------------------------------------------------------------------------


def stage(edition: str) -> tuple[Path, Path, list[str]]:
    src, extra = OUT / "src" / edition, OUT / "extra" / edition
    for folder in (src, extra):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    linker = Linker(edition, extra)
    for path in chapters(edition):
        stage_chapter(path, edition, linker, src)
    for name, source, _ in PAGES[edition]:
        stage_page(source, name, linker, src)
    stage_cheat_sheet(edition, extra)
    stage_index(edition, src)
    return src, extra, linker.unresolved


def build() -> Path:
    started = time.monotonic()
    staged = {edition: stage(edition) for edition in EDITIONS}
    for edition, (_, _, unresolved) in staged.items():
        for link in unresolved:
            print(f"book: warning: {edition}: a link to a file that does not exist: {link}", file=sys.stderr)
    shutil.rmtree(SITE, ignore_errors=True)
    SITE.mkdir(parents=True)
    # The two editions build at once, each in its own Sphinx process, into a folder of its own:
    # myst-nb writes its copies of the notebooks beside that folder (jupyter_execute/), not in the site.
    processes, html_dirs = {}, {edition: OUT / "sphinx" / edition / "html" for edition in EDITIONS}
    for edition, (src, extra, _) in staged.items():
        shutil.rmtree(html_dirs[edition], ignore_errors=True)
        env = {**os.environ, "BOOK_EDITION": edition, "BOOK_EXTRA": str(extra), "PYTHONPATH": os.pathsep.join([str(BOOK), str(ROOT)])}
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", "-c", str(BOOK), "-d", str(OUT / "doctrees" / edition),
                   str(src), str(html_dirs[edition])]
        processes[edition] = subprocess.Popen(command, env=env, cwd=ROOT)
    failed = [edition for edition, process in processes.items() if process.wait()]
    if failed:
        raise SystemExit(f"book: Sphinx failed for {', '.join(failed)} (its messages are above)")
    for edition, folder in html_dirs.items():
        shutil.copytree(folder, SITE / edition)
        lighten(SITE / edition, edition)
    point_switches_home()
    index = SITE / "index.html"
    index.write_text(landing_page(), encoding="utf-8")
    size = sum(f.stat().st_size for f in SITE.rglob("*") if f.is_file())
    print(f"built both editions in {time.monotonic() - started:.0f} s, {size / 1e6:.1f} MB")
    return index


# The theme's words that its Chinese catalogue lacks or that its templates write in English.
CHROME_ZH = {"System Settings": "跟随系统", "Color mode": "颜色模式", "Search...": "搜索…", "Main": "主导航",
             "Page": "本页", "Toggle primary sidebar": "章节列表", "Toggle secondary sidebar": "本页目录",
             "Site navigation": "章节列表", "On this page": "本页目录"}
LOADED_FOR_SEARCH = re.compile(r'<script src="[^"]*(?:searchtools\.js|language_data\.js|searchindex\.js)[^"]*"></script>\s*')


def lighten(site: Path, edition: str) -> None:
    """What a first visit downloads, and what the theme says in the wrong language:
    - the icon font's 1.5 MB script goes (the theme's stylesheet already draws the same icons
      with the icon font, 115 kB), and so do the stylesheet's rules for icons no page uses;
      source maps go;
    - the search index and its scripts load on the search page only (the theme loads them on
      every page for search-as-you-type, which this book leaves off);
    - buttons are named by what they show (axe: label-content-name-mismatch);
    - in the Chinese edition, the theme's remaining English words are Chinese."""
    for path in site.rglob("*.map"):
        path.unlink()
    for path in list(site.rglob("*.js")) + list(site.rglob("*.css")):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        lean = re.sub(r"\n?/[/*]# sourceMappingURL=\S+?(?: \*/)?\s*$", "\n", text)
        if lean != text:
            path.write_text(lean, encoding="utf-8", errors="surrogateescape")
    (site / "_static" / "scripts" / "fontawesome.js").unlink(missing_ok=True)
    pages = list(site.rglob("*.html"))
    # The stylesheet names ~2,000 icons (66 kB of `.fa-x{--fa:"…"}` rules); the pages use a dozen.
    used = set().union(*(re.findall(r"\bfa-[\w-]+", page.read_text(encoding="utf-8")) for page in pages))
    theme_css = site / "_static" / "styles" / "pydata-sphinx-theme.css"
    if theme_css.is_file():
        css = theme_css.read_text(encoding="utf-8")
        icon_rule = re.compile(r'(?:\.fa-[\w-]+,?)+\{--fa:"[^"]*"\}')
        theme_css.write_text(icon_rule.sub(lambda m: m.group(0) if used & set(re.findall(r"fa-[\w-]+", m.group(0))) else "", css),
                             encoding="utf-8")
    for page in pages:
        text = page.read_text(encoding="utf-8")
        text = re.sub(r'<script defer src="[^"]*fontawesome\.js[^"]*"></script>\s*', "", text)
        if page.name != "search.html":
            text = LOADED_FOR_SEARCH.sub("", text)
        text = re.sub(r'(<button class="btn search-button-field[^"]*"[^>]*?) aria-label="[^"]*"', r"\1", text)
        text = text.replace('<summary aria-label="Toggle hidden content">', "<summary>")
        if edition == "zh":
            for english, chinese in CHROME_ZH.items():
                for attribute in ("title", "aria-label", "placeholder"):
                    text = text.replace(f'{attribute}="{english}"', f'{attribute}="{chinese}"')
            text = text.replace("></i>System Settings</button>", "></i>跟随系统</button>")  # the colour menu's item
            text = text.replace("© Copyright ", "© ")
        page.write_text(text, encoding="utf-8")


SWITCH = re.compile(r'(class="[^"]*book-edition-switch[^"]*" href=")\.\./(en|zh)/([^"#]+)(")')


def point_switches_home() -> None:
    """A page with no counterpart in the other edition (the glossary) switches to that
    edition's home page."""
    for edition in EDITIONS:
        for page in (SITE / edition).rglob("*.html"):
            text = page.read_text(encoding="utf-8")

            def home_if_missing(match: re.Match) -> str:
                there = SITE / match.group(2) / match.group(3)
                return match.group(0) if there.is_file() else f"{match.group(1)}../{match.group(2)}/index.html{match.group(4)}"

            changed = SWITCH.sub(home_if_missing, text)
            if changed != text:
                page.write_text(changed, encoding="utf-8")


CHROMIUM = "/usr/bin/chromium"


def print_version(edition: str) -> Path:
    """site/{edition}/print.html: every page of the edition's table of contents in order, one
    after another (each page's article, with the site's own stylesheets and print rules), for
    Chromium to print. Folded answers stay folded, as on screen."""
    folder = SITE / edition
    index = (folder / "index.html").read_text(encoding="utf-8")
    nav = index[index.find('bd-sidenav'):]
    order = ["index.html"] + list(dict.fromkeys(re.findall(r'class="reference internal" href="([^"#]+\.html)"', nav)))
    head = index[:index.find("</head>")]
    head = re.sub(r"<script\b.*?</script>\s*", "", head, flags=re.S)
    head = re.sub(r"<title>.*?</title>", f"<title>{html.escape(WORDS[edition]['book'])}</title>", head, flags=re.S)
    articles = []
    for name in order:
        text = (folder / name).read_text(encoding="utf-8")
        start = text.find("<article")
        article = text[start:text.find("</article>", start) + len("</article>")]
        articles.append(f'<div class="bd-article-container">{article}</div>')
    page = folder / "print.html"
    page.write_text(head + '</head><body class="book-print"><main class="bd-main"><div class="bd-content">'
                    + '\n<hr class="book-page-break">\n'.join(articles) + "</div></main></body></html>\n", encoding="utf-8")
    return page


def make_pdfs() -> None:
    """Each edition as one PDF beside its pages (site/{en,zh}/book-{en,zh}.pdf), printed by
    headless Chromium from the file on disk: nothing is served or fetched."""
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"book: --pdf needs Chromium ({CHROMIUM}); python3 tasks.py book --pdf installs it on Debian")
    for edition in EDITIONS:
        source, target = print_version(edition), SITE / edition / PDF_NAME[edition]
        subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-background-networking", "--no-pdf-header-footer", "--virtual-time-budget=20000",
                        f"--print-to-pdf={target}", source.as_uri()],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
        source.unlink()
        if not target.is_file() or target.stat().st_size < 10_000:
            raise SystemExit(f"book: Chromium did not print {target}")
        print(f"book: {target} ({target.stat().st_size / 1e6:.1f} MB)")


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser that closes a connection mid-file (a page left, a prefetch cancelled) is normal:
    say nothing of it, instead of http.server's traceback."""

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(port: int) -> None:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(SITE))
    with QuietServer(("127.0.0.1", port), handler) as server:
        print(f"serving the book at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv: list[str]) -> int:
    global OUT, SITE
    parser = argparse.ArgumentParser(prog="tasks.py book", description="Build the reading edition (book/README.md).")
    parser.add_argument("--serve", action="store_true", help="then serve it on localhost")
    parser.add_argument("--port", type=int, default=8000, help="the port --serve uses (default 8000)")
    parser.add_argument("--pdf", action="store_true", help="also print each edition to a PDF (headless Chromium)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to build (default {OUT.relative_to(ROOT)}/)")
    arguments = parser.parse_args(argv)
    if not 1 <= arguments.port <= 65535:  # the socket layer would take it modulo 65536, silently
        parser.error(f"--port must be an integer from 1 to 65535, got {arguments.port}")
    OUT = arguments.out.resolve()
    SITE = OUT / "site"
    if arguments.pdf:
        os.environ["BOOK_PDF"] = "1"  # the home pages link the PDFs
    index = build()
    if arguments.pdf:
        make_pdfs()
    print(f"book: {index}", flush=True)
    if arguments.serve:
        serve(arguments.port)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
